/* plan_sim.c — `lockbench --plan sim`: run-all's simulated section (docs/sim.md,
 * "Running a simulation"), its sim_* functions until issue 43.  It probes
 * the profile (one instant simulated run per patch workload), sizes the runs
 * of a workload whose op is many acquisitions (pilots: the slowest lock's
 * pace), chooses (--sim's experiment, a plain run's section on a small
 * machine, or none) and prints, a line each (docs/sim.md, "run-all
 * --sim"):
 *   say TEXT       a line run-all prints as `run-all: TEXT`, in order
 *   SIM PROFILE    the section's profile as plan lines carry it (no line: none)
 *   SIM_WHY TEXT   the patch workloads the profile has no times for, and why
 *   variant LINE   one of the section's variants.txt lines
 * A refusal under --sim is one line on stderr and EXIT_USAGE, nothing on
 * stdout.  The probes and pilots run this lockbench as a child, as run-all
 * did: a simulation is the same on any host, so are its answers. */
#define _GNU_SOURCE
#include "plan.h"

#include <ctype.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/config.h"
#include "../locks/lock.h"
#include "plan_variants.h"
#include "run/simrun.h"

/* The profile of a plain run's section: the seed's machine.  A machine with
 * more CPUs than SIM_FEW_CPUS runs the patch's own experiment at a scale
 * where the spinners' pile-up can form; below it the simulation is what the
 * machine can show about the patch. */
#define SIM_DEFAULT_PROFILE "nehalem-ex-64"
#define SIM_FEW_CPUS 16
/* Simulated seconds of a run (--duration's in --sim mode), and --quick's:
 * at 256 threads a simulated second of the pre-patch model took about 50 s
 * of one CPU here (its spinners' blind cmpxchg's: docs/sim.md, "Speed"). */
#define SIM_SECONDS 0.2
#define SIM_SECONDS_QUICK 0.05
/* Runs sized for whole jobs last SIM_JOBS jobs a thread at the slowest
 * lock's pace, measured by a pilot of SIM_PILOT simulated seconds. */
#define SIM_JOBS 3
#define SIM_PILOT 0.05
#define SIM_MAX 64 /* workloads, thread counts, sized runs */
#define WORD 64

struct sized {
	const char *w, *t;
	char secs[WORD];
};

struct simplan {
	struct vopts *o;
	const char *cpus_asked;
	bool no_sim;
	char profile[2 * PATH_MAX], tmp[PATH_MAX], cpus[WORD], why[4096];
	const char *locks[SIM_MAX], *works[SIM_MAX];
	char apo[SIM_MAX][WORD];
	size_t nlocks, nworks, nsized;
	struct sized sized[SIM_MAX];
};

/* ---- text as run-all's tools wrote it ---- */

/* A number as awk's print writes it: an integral one whole, else %.6g. */
static void awk_num(char *buf, size_t size, double v)
{
	if (v == (double)(long long)v)
		snprintf(buf, size, "%lld", (long long)v);
	else
		snprintf(buf, size, "%.6g", v);
}

/* Any of TEXT's lines ends in END (grep -q 'END$'). */
static bool a_line_ends(const char *text, const char *end)
{
	size_t k = strlen(end);

	for (const char *p = text, *nl; p; p = nl ? nl + 1 : NULL) {
		size_t len = (nl = strchr(p, '\n')) ? (size_t)(nl - p) : strlen(p);

		if (len >= k && !memcmp(p + len - k, end, k))
			return true;
	}
	return false;
}

/* Field 2 of FILE's first CSV line whose field 1 is KEY, into buf; false
 * where none. */
static bool csv_value(const char *path, const char *key, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	size_t n = strlen(key);
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ',') {
			snprintf(buf, size, "%.*s", (int)strcspn(line + n + 1, ",\n"), line + n + 1);
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

static void digits_only(char *s) /* tr -cd 0-9 */
{
	char *d = s;

	for (; *s; s++)
		if (isdigit((unsigned char)*s))
			*d++ = *s;
	*d = '\0';
}

/* ---- the children: this lockbench's simulated runs ---- */

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- probe, pilots, sizing ---- */

static int refuse(const char *msg)
{
	fprintf(stderr, "lockbench: --plan sim: %s\n", msg);
	return EXIT_USAGE;
}

/* One instant simulated run per patch workload wanted (1 thread, 0.01
 * simulated s): lockbench refuses a workload the profile has no times for,
 * and that one goes into s->why; the first that runs tells the profile's
 * CPUs (meta.csv's sim_cpus).  Any other refusal (an unknown profile, a
 * malformed one) into fail; false then, or where nothing is left. */
static bool probe(struct simplan *s, char *fail, size_t size)
{
	const char *ws[workload_registry_len];
	size_t nw = pv_sim_workloads(s->o, ws);
	char dir[PATH_MAX + 64], err[16384], line[4096], meta[PATH_MAX + 80];

	*fail = '\0';
	for (size_t i = 0; i < nw && s->nworks < SIM_MAX && s->nlocks && !*fail; i++) {
		const char *w = ws[i], *args[] = { "--sim", s->profile, "-l", s->locks[0], "-w", w, "-t", "1",
						  "-d", "0.01", "--warmup", "0", "--quiet", "-o", dir, NULL, NULL, NULL };
		char tail[WORD + 32];

		snprintf(dir, sizeof(dir), "%s/%s", s->tmp, w);
		if (s->cpus_asked)
			args[15] = "--sim-cpus", args[16] = s->cpus_asked;
		if (plan_child(args, err, sizeof(err)) == 0) {
			snprintf(meta, sizeof(meta), "%s/meta.csv", dir);
			if (!*s->cpus && csv_value(meta, "sim_cpus", s->cpus, sizeof(s->cpus)))
				digits_only(s->cpus);
			if (!csv_value(meta, "sim_acq_per_op", s->apo[s->nworks], WORD))
				*s->apo[s->nworks] = '\0';
			digits_only(s->apo[s->nworks]);
			s->works[s->nworks++] = w;
			continue;
		}
		snprintf(tail, sizeof(tail), "has no times for workload %s", w);
		snprintf(line, sizeof(line), "%s", plan_last_line(err));
		if (a_line_ends(err, tail)) {
			for (char *p = line; *p; p++)
				if (!isalnum((unsigned char)*p) && !strchr(" ._/,:=()-", *p))
					*p = '_';
			size_t n = strlen(s->why);

			snprintf(s->why + n, sizeof(s->why) - n, "%s%s: the profile has no workload.%s times (%s)",
				 n ? "; " : "", w, w, line);
		} else {
			const char *p = line;

			if (!strncmp(p, "lockbench: --sim: ", 18))
				p += 18;
			snprintf(fail, size, "%s", p);
			pv_printable(fail);
		}
	}
	if (*fail)
		return false;
	if (!s->nworks || !*s->cpus)
		snprintf(fail, size, "no patch workload to simulate%s%s%s", *s->why ? " (" : "", s->why, *s->why ? ")" : "");
	return !*fail;
}

/* The thread counts: --threads in --sim mode, else the seed's 256 threads on
 * its 128 CPUs, twice the simulated CPUs. */
static size_t sim_threads(struct simplan *s, char words[][WORD])
{
	const char *p = s->o->threads;
	size_t n = 0;

	if (!s->o->sim_only || !p) {
		snprintf(words[0], WORD, "%lu", 2 * strtoul(s->cpus, NULL, 10));
		return 1;
	}
	while (*p && n < SIM_MAX) {
		size_t len = strcspn(p, ",");

		snprintf(words[n++], WORD, "%.*s", (int)len, p);
		p += len + (p[len] == ',');
	}
	return n;
}

static const char *sized_secs(const struct simplan *s, const char *w, const char *t)
{
	for (size_t i = 0; i < s->nsized; i++)
		if (!strcmp(s->sized[i].w, w) && !strcmp(s->sized[i].t, t))
			return s->sized[i].secs;
	return NULL;
}

/* The slowest planned lock's pace at T threads (acquisitions a thread a
 * simulated second, as awk printed it) among the pilots that ran, into
 * rate, its lock into *lock; false where none ran.  Ties: the lock that
 * sorts first (sort -g's last resort, the whole line). */
static bool pilot(struct simplan *s, const char *w, const char *t, const char **lock, char *rate)
{
	char dir[PATH_MAX + 8], sum[PATH_MAX + 24], warm[WORD], d[WORD], acq[WORD], r[WORD], best[2 * WORD + 2] = "";
	double best_r = 0;

	awk_num(warm, sizeof(warm), SIM_SECONDS / 4);
	awk_num(d, sizeof(d), SIM_PILOT);
	snprintf(dir, sizeof(dir), "%s/pilot", s->tmp);
	snprintf(sum, sizeof(sum), "%s/summary.csv", dir);
	for (size_t i = 0; i < s->nlocks; i++) {
		const char *args[] = { "--sim", s->profile, "--sim-cpus", s->cpus, "-l", s->locks[i], "-w", w, "-t", t,
				       "-d", d, "--warmup", warm, "--quiet", "-o", dir, NULL };
		char line[2 * WORD + 2], err[1024];

		if (plan_child(args, err, sizeof(err)) != 0)
			break;
		if (csv_value(sum, "acquisitions", acq, sizeof(acq))) {
			awk_num(r, sizeof(r), strtod(acq, NULL) / strtod(t, NULL) / SIM_PILOT);
			snprintf(line, sizeof(line), "%s %s", s->locks[i], r);
			if (!*best || strtod(r, NULL) < best_r || (strtod(r, NULL) == best_r && strcmp(line, best) < 0))
				snprintf(best, sizeof(best), "%s", line), best_r = strtod(r, NULL), *lock = s->locks[i];
		}
		rm_tree(dir);
	}
	if (*best)
		strcpy(rate, strchr(best, ' ') + 1);
	return *best;
}

/* W's runs at T threads sized for SIM_JOBS whole jobs of APO acquisitions a
 * thread at the slowest lock's pace, rounded up to 2 digits, where that is
 * longer than the default run; said in one line.  Not under --quick: the
 * workload runs its short default, and its jobs/min says that no job
 * finished.  No acquisition in the pilot: no pace to size from. */
static void size_one(struct simplan *s, const char *w, const char *t, const char *apo)
{
	const char *lock = NULL;
	char rate[WORD];

	if (s->o->quick || s->nsized == SIM_MAX || !pilot(s, w, t, &lock, rate))
		return;
	double r = strtod(rate, NULL), sec, e = 1;

	if (!(r > 0))
		return;
	sec = SIM_JOBS * strtod(apo, NULL) / r;
	while (sec >= 100 * e)
		e *= 10;
	while (sec < 10 * e)
		e /= 10;
	struct sized *z = &s->sized[s->nsized];

	snprintf(z->secs, WORD, "%.6g", (sec / e == (double)(long long)(sec / e) ? sec / e : (double)(long long)(sec / e) + 1) * e);
	if (!(strtod(z->secs, NULL) > SIM_SECONDS))
		return;
	printf("say simulated %s at %s threads: %d jobs of %s acquisitions a thread take %s simulated s a run at %s's pace, "
	       "the slowest (%.0f acquisitions a thread a simulated s in a pilot)\n", w, t, SIM_JOBS, apo, z->secs, lock, r);
	z->w = w, z->t = t, s->nsized++;
}

static void size_all(struct simplan *s)
{
	char threads[SIM_MAX][WORD], buf[WORD];
	size_t nt = sim_threads(s, threads);

	for (size_t i = 0; i < s->nworks; i++) {
		if (!(strtoull(*s->apo[i] ? s->apo[i] : "1", NULL, 10) > 1))
			continue;
		if (s->o->sim_only && pv_duration_of(s->o, s->works[i], buf, sizeof(buf)))
			continue;
		for (size_t t = 0; t < nt; t++)
			size_one(s, s->works[i], threads[t], s->apo[i]);
	}
}

/* ---- choosing, and the lines ---- */

/* --sim's PROFILE as plan lines carry it: a name, or a path made absolute
 * (lockbench resolves a relative one from its own directory), a plain word. */
static int profile_word(struct simplan *s, const char *sim)
{
	char msg[2 * PATH_MAX + 160], shown[2 * PATH_MAX];
	struct stat st;

	snprintf(shown, sizeof(shown), "%s", sim);
	pv_printable(shown);
	snprintf(s->profile, sizeof(s->profile), "%s", sim);
	size_t len = strlen(sim);

	if (strchr(sim, '/') || (len >= 8 && !strcmp(sim + len - 8, ".profile"))) {
		char dir[PATH_MAX], real[PATH_MAX];
		const char *slash = strrchr(sim, '/'), *base = slash ? slash + 1 : sim;

		if (stat(sim, &st) || !S_ISREG(st.st_mode))
			return snprintf(msg, sizeof(msg), "--sim: '%s' is not a profile file", shown), refuse(msg);
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash == sim ? 1 : slash - sim) : 1, slash ? sim : ".");
		if (!realpath(dir, real))
			return snprintf(msg, sizeof(msg), "--sim: cannot enter the directory of '%s'", shown), refuse(msg);
		snprintf(s->profile, sizeof(s->profile), "%s/%s", real, base); /* "//x" under "/", as run-all had it */
	}
	const char *p = s->profile;

	if (!*p || *p == '-' || strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/-") != strlen(p) ||
	    strstr(p, "..")) {
		snprintf(shown, sizeof(shown), "%s", p);
		snprintf(msg, sizeof(msg), "--sim: '%s': not a profile name or path of letters, digits and ._/- (plan lines "
			 "carry it as a plain word)", pv_printable(shown));
		return refuse(msg);
	}
	return EXIT_OK;
}

/* The patch table's locks that exclude and have a simulated build, in its
 * order (the baseline of every ratio first), --locks' (wants) or all; the
 * first SIM_MAX of them into out. */
static size_t sim_locks(const struct simplan *s, bool wants, const char **out)
{
	const char *all[lock_registry_len];
	size_t n = pv_sim_locks(s->o, wants, all), k = 0;

	for (size_t i = 0; i < n && k < SIM_MAX; i++)
		if (bench_sim_lock(all[i]))
			out[k++] = all[i];
	return k;
}

/* --sim's experiment: refused in one line where nothing of it can run. */
static int choose_sim(struct simplan *s, const char *sim)
{
	char msg[8192], fail[4096];
	int rc = profile_word(s, sim);

	if (rc != EXIT_OK)
		return rc;
	if (!(s->nlocks = sim_locks(s, true, s->locks))) {
		const char *all[lock_registry_len];
		size_t n = sim_locks(s, false, all), len = 0;

		len += (size_t)snprintf(msg, sizeof(msg), "--sim: nothing to run: none of --locks has a simulated build (");
		for (size_t i = 0; i < n && len < sizeof(msg); i++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s", i ? " " : "", all[i]);
		return snprintf(msg + (len < sizeof(msg) - 2 ? len : sizeof(msg) - 2), 2, ")"), refuse(msg);
	}
	if (!probe(s, fail, sizeof(fail)))
		return snprintf(msg, sizeof(msg), "--sim: %s", fail), refuse(msg);
	size_all(s);
	if (!s->nworks)
		return snprintf(msg, sizeof(msg), "--sim: nothing left to run: %s", s->why), refuse(msg);
	return EXIT_OK;
}

/* A plain run's section: only on a machine of SIM_FEW_CPUS or fewer, asked
 * for nothing in particular; left out, said in one line, where the probe
 * finds nothing to run.  false: no section. */
static bool choose_plain(struct simplan *s)
{
	const struct vopts *o = s->o;
	char fail[4096];

	if (s->no_sim || o->ncpu > SIM_FEW_CPUS || o->locks || o->workloads || o->threads || o->duration)
		return false;
	snprintf(s->profile, sizeof(s->profile), "%s", SIM_DEFAULT_PROFILE);
	s->nlocks = sim_locks(s, true, s->locks);
	if (!probe(s, fail, sizeof(fail))) {
		printf("say the simulated section is left out: %s\n", fail);
		return false;
	}
	size_all(s);
	return true;
}

/* Each workload's runs at each thread count under each lock: a
 * self-contained lockbench command line (make_plan adds --sim-seed). */
static void print_variants(struct simplan *s)
{
	char threads[SIM_MAX][WORD], buf[WORD];
	size_t nt = sim_threads(s, threads);

	printf("SIM %s\n", s->profile);
	if (*s->why)
		printf("SIM_WHY %s\n", s->why);
	for (size_t i = 0; i < s->nworks; i++)
		for (size_t t = 0; t < nt; t++) {
			const char *w = s->works[i], *z = sized_secs(s, w, threads[t]), *d = z;

			if (!d && s->o->sim_only)
				d = pv_duration_of(s->o, w, buf, sizeof(buf));
			if (!d)
				snprintf(buf, sizeof(buf), "%g", s->o->quick ? SIM_SECONDS_QUICK : SIM_SECONDS), d = buf;
			/* A quarter of the run; a sized run keeps the default's warm-up:
			 * what it leaves out is the start, whose length does not grow. */
			double warm = (z ? SIM_SECONDS : strtod(d, NULL)) / 4;

			for (size_t l = 0; l < s->nlocks; l++)
				printf("variant sim-%s-t%s-%s -l %s -w %s -t %s -d %s --warmup %.4g --sim %s --sim-cpus %s\n", w,
				       threads[t], s->locks[l], s->locks[l], w, threads[t], d, warm, s->profile, s->cpus);
		}
}

/* argv less --sim PROFILE, --sim-cpus N and --no-sim (into s), for pv_parse. */
static int take_own(struct simplan *s, char **argv, char **rest, const char **sim)
{
	uint64_t n;

	for (; *argv; argv++) {
		if (!strcmp(*argv, "--no-sim")) {
			s->no_sim = true;
			continue;
		}
		if (strcmp(*argv, "--sim") && strcmp(*argv, "--sim-cpus")) {
			*rest++ = *argv;
			continue;
		}
		if (!argv[1] || !*argv[1])
			return fprintf(stderr, "lockbench: --plan sim: %s needs a value\n", *argv), EXIT_USAGE;
		if (!strcmp(*argv, "--sim"))
			*sim = *++argv;
		else if (*argv[1] == '0' || !lock_parse_u64(argv[1], 1, 256, &n))
			return fprintf(stderr, "lockbench: --plan sim: --sim-cpus '%s' is not a whole number from 1 to 256\n",
				       argv[1]), EXIT_USAGE;
		else
			s->cpus_asked = *++argv;
	}
	*rest = NULL;
	return EXIT_OK;
}

int plan_sim_main(char **argv)
{
	static struct simplan s;
	struct vopts o;
	size_t argc = 0;
	const char *sim = NULL, *tmpdir = getenv("TMPDIR");

	while (argv[argc])
		argc++;
	char *rest[argc + 1];
	int rc = take_own(&s, argv, rest, &sim);

	if (rc == EXIT_OK)
		rc = pv_parse(&o, rest);
	if (rc != EXIT_OK)
		return rc;
	if (!sim && (o.sim_only || s.cpus_asked))
		return refuse("--sim-only and --sim-cpus go with --sim PROFILE");
	o.sim_only = sim != NULL, s.o = &o;
	snprintf(s.tmp, sizeof(s.tmp), "%s/lockbench-plan-sim-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(s.tmp))
		return fprintf(stderr, "lockbench: --plan sim: %s: %s\n", s.tmp, strerror(errno)), EXIT_RUNTIME;
	if (sim)
		rc = choose_sim(&s, sim);
	if (rc == EXIT_OK && (sim || choose_plain(&s)))
		print_variants(&s);
	rm_tree(s.tmp);
	return rc == EXIT_OK && fflush(stdout) ? EXIT_RUNTIME : rc;
}
