/* plan_programs.c — `lockbench --plan programs OPTIONS...`: the programs
 * run-all cannot run here (its skip_programs until issue 43).  Each program
 * of the patch role (bench/exec/programs.def) that --workloads wants is
 * skipped where its name could not be a run name's part (letters, digits
 * and '-', never "-t" and a digit: run names stay unique), where the command
 * it starts is not on PATH, or, for every one, where lockbench --exec cannot
 * run a program here (no preloaded library: a static dist).  A line each,
 * in registry order: "NAME WHY" (run-all says "program NAME skipped: WHY"
 * and passes the names to --plan variants' --skip).  Nothing under
 * --sim-only: a simulated plan runs no program. */
#define _GNU_SOURCE
#include "plan.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "exec/launcher/programs.h"
#include "../locks/lock.h"
#include "plan_variants.h"

/* A why line's room: the --exec check's stderr line whole (err, below). */
#define WHY_MAX 8448

/* PATH holds CMD as an executable file (the shell's `command -v`; a CMD
 * with a '/' is its own path). */
static bool on_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char file[4096];
	struct stat st;

	if (strchr(cmd, '/'))
		return stat(cmd, &st) == 0 && S_ISREG(st.st_mode) && access(cmd, X_OK) == 0;
	for (const char *p = path ? path : ""; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
		size_t len = strcspn(p, ":");

		snprintf(file, sizeof(file), "%.*s%s%s", (int)len, len ? p : ".", "/", cmd);
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode) && access(file, X_OK) == 0)
			return true;
	}
	return false;
}

/* This lockbench -l BASE --exec --quiet -- true: empty where it runs a
 * program here, else why not, its stderr's last line, into why. */
static void exec_state(const char *base, char *why, size_t size)
{
	const char *args[] = { "-l", base, "--exec", "--quiet", "--", "true", NULL };
	char err[8192];
	int rc = plan_child(args, err, sizeof(err));

	*why = '\0';
	if (rc == 0)
		return;
	if (rc < 0) {
		snprintf(why, size, "lockbench --exec cannot run here (cannot start this lockbench)");
		return;
	}
	snprintf(why, size, "lockbench --exec cannot run here (%s)", pv_printable(plan_last_line(err)));
}

/* Why program P cannot run here, into why ("" where it can); state, asked
 * once, is the --exec check's. */
static void program_why(const struct exec_program *p, char *state, bool *asked, char *why, size_t size)
{
	const char *t = p->name;
	bool bad = !*t || *t == '-' || strspn(t, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(t);
	char cmd[256];

	if (!*asked) {
		size_t base = pv_program_base();

		exec_state(base < lock_registry_len ? lock_registry[base]->name : "", state, WHY_MAX);
		*asked = true;
	}
	for (const char *d = strstr(t, "-t"); d && !bad; d = strstr(d + 1, "-t"))
		bad = d[2] >= '0' && d[2] <= '9';
	*why = '\0';
	if (bad) {
		snprintf(why, size, "its name is not letters, digits and '-' without '-t' and a digit");
		return;
	}
	snprintf(cmd, sizeof(cmd), "%.*s", (int)strcspn(p->argv_template, " "), p->argv_template);
	if (!on_path(cmd)) {
		pv_printable(cmd);
		snprintf(why, size, "'%s' is not on PATH", cmd);
	}
	if (*state)
		snprintf(why, size, "%s", state);
}

int plan_programs_main(char **argv)
{
	struct vopts o;
	static char state[WHY_MAX], why[WHY_MAX];
	bool asked = false;
	int rc = pv_parse(&o, argv);

	if (rc != EXIT_OK || o.sim_only)
		return rc;
	for (size_t i = 0; i < exec_program_registry_len; i++) {
		const struct exec_program *p = &exec_program_registry[i];

		if (p->role != PG_PATCH || !pv_wanted(&o, p->name))
			continue;
		program_why(p, state, &asked, why, sizeof(why));
		if (*why)
			printf("%s %s\n", p->name, why);
	}
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}
