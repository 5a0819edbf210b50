/*
 * figures.c — what the library left in the private directory
 * (launcher_internal.h; exec_file.h): each process's exec-PID.csv merged
 * into one struct bench_thread, the program's figures as one "thread", and
 * its mutexes-PID.csv rows; then the run as a benchmark's bench_result,
 * with the program's own figures among summary.csv's keys (program_*,
 * metric_*).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "launcher_internal.h"
#include "../exec_file.h"
#include "../../platform/tsc.h"
#include "../../run/checks.h"

/* What an --exec run is, where a benchmark has its workload. */
static const struct workload_ops exec_workload = {
	.name = "exec",
	.description = "a program run under the preloaded library (--exec)",
	.unit = "runs",
};

enum {
#define EXEC_COUNT(name) EC_##name,
	EXEC_COUNTS
#undef EXEC_COUNT
	EC_NR
};
static const char *const exec_count_name[] = {
#define EXEC_COUNT(name) #name,
	EXEC_COUNTS
#undef EXEC_COUNT
};

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && end != s && (*end == '\0' || *end == '\n');
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void read_settings(struct exec_run *x, const char *hex)
{
	size_t len = strcspn(hex, "\n");

	if (x->settings_read || len != 2 * sizeof(x->settings.bytes))
		return;
	for (size_t i = 0; i < sizeof(x->settings.bytes); i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return;
		x->settings.bytes[i] = (unsigned char)(hi << 4 | lo);
	}
	x->settings_read = true;
}

/* One KEY,VALUE of a histogram NAME (acq or acq_contended) into h. */
static bool hist_key(struct hist *h, const char *name, const char *key, uint64_t v)
{
	size_t n = strlen(name);
	unsigned int bin;
	char tail;

	if (strncmp(key, name, n) != 0 || key[n] != '_')
		return false;
	key += n + 1;
	if (!strcmp(key, "count"))
		h->count += v;
	else if (!strcmp(key, "sum"))
		h->sum += v;
	else if (!strcmp(key, "contended"))
		h->contended += v;
	else if (!strcmp(key, "min"))
		h->min = v && v < h->min ? v : h->min;
	else if (!strcmp(key, "max"))
		h->max = v > h->max ? v : h->max;
	else if (sscanf(key, "bin_%u%c", &bin, &tail) == 1 && bin < HIST_BINS)
		h->bins[bin] += v;
	else
		return false;
	return true;
}

static void event_key(struct lock_events *ev, const char *key, uint64_t v)
{
#define EXEC_EVENT(name) if (!strcmp(key, #name)) { ev->name += v; return; }
	EXEC_EVENTS
#undef EXEC_EVENT
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		if (!strncmp(key, "spin_exit_", 10) && !strcmp(key + 10, spin_exit_name[r]))
			ev->spin_exit[r] += v;
}

/* One process's exec-PID.csv, added to the merged figures. */
static void read_figures(struct exec_run *x, const char *name)
{
	FILE *f = exec_open_private(x, name);
	char line[1024];
	struct bench_thread *t = x->prog;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *comma = strchr(line, ',');
		uint64_t v;

		if (!comma)
			continue;
		*comma = '\0';
		if (!strcmp(line, "settings_hex")) {
			read_settings(x, comma + 1);
			continue;
		}
		if (!strcmp(line, "prepare_note")) {
			snprintf(x->prepare_note, sizeof(x->prepare_note), "%.*s", (int)strcspn(comma + 1, "\n"), comma + 1);
			continue;
		}
		if (!strcmp(line, "pid") && parse_u64(comma + 1, &v) && (pid_t)v == x->pid)
			x->main_written = true;
		if (!parse_u64(comma + 1, &v))
			continue;
		if (!strcmp(line, "acquisitions"))
			t->acquired += v;
		else if (!strcmp(line, EXEC_KEY_PINNED))
			x->threads_pinned += v;
		else if (!strcmp(line, EXEC_KEY_PIN_FAILED))
			x->pin_failures += v;
		else if (!strcmp(line, "untimed"))
			t->untimed += v;
		else if (!strcmp(line, "untimed_contended"))
			t->untimed_contended += v;
		else if (!strncmp(line, "ev_", 3))
			event_key(&x->prog_lt->ev, line + 3, v);
		else if (!hist_key(&t->acq_contended, "acq_contended", line, v))
			hist_key(&t->acq, "acq", line, v);
		for (int c = 0; c < EC_NR; c++)
			if (!strcmp(line, exec_count_name[c]))
				x->counts[c] += v;
	}
	fclose(f);
	x->processes++;
}

/* One process's mutexes-PID.csv rows. */
static void read_mutexes(struct exec_run *x, const char *name, int pid)
{
	FILE *f = exec_open_private(x, name);
	char line[2048];  /* two paths of up to 511 bytes, and the figures */

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && x->nmutexes < EXEC_MAX_MUTEXES) {
		struct exec_mutex *m = &x->mutexes[x->nmutexes];

		if (sscanf(line, "%31[^,],%d,%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%" SCNu64 ",%511[^,],%23[^,],%511[^,],%23[^,\n]",
			   m->mutex, &m->destroyed, &m->acquisitions, &m->contentions, &m->contended_timed,
			   &m->contended_cycles, m->object, m->address, m->wrapper_object, m->wrapper_address) == 10) {
			m->pid = pid;
			x->nmutexes++;
		}
	}
	fclose(f);
}

int exec_read_library_files(struct exec_run *x)
{
	int fd = dup(x->dir_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		int pid;
		char tail;

		if (sscanf(e->d_name, EXEC_FILE_PREFIX "-%d.cs%c", &pid, &tail) == 2 && tail == 'v')
			read_figures(x, e->d_name);
		else if (sscanf(e->d_name, EXEC_MUTEX_PREFIX "-%d.cs%c", &pid, &tail) == 2 && tail == 'v')
			read_mutexes(x, e->d_name, pid);
	}
	closedir(d);
	return 0;
}

/* summary.csv's `program` and `program_threads_asked`: --program's name
 * and -t, or PROGRAM's basename with every byte outside [A-Za-z0-9._+-]
 * made `_` (at most 64) and 0. */
static void program_identity(const struct exec_run *x, struct figures *fg)
{
	const char *argv0 = x->cfg->exec_argv[0], *base = strrchr(argv0, '/');
	char name[65];
	size_t n = 0;

	base = base && base[1] ? base + 1 : argv0;
	for (; base[n] && n < sizeof(name) - 1; n++)
		name[n] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", base[n]) ?
			base[n] : '_';
	name[n] = '\0';
	figure_add(fg, "program", "program name", "%s", x->cfg->exec_program ? x->cfg->exec_program : name);
	figure_add(fg, "program_threads_asked", x->cfg->exec_threads_asked ? "threads asked (-t)" : "threads asked (-t; 0: none)",
		   "%u", x->cfg->exec_threads_asked);
}

static void program_figures(struct exec_run *x, struct bench_result *res)
{
	struct figures *fg = &res->extra;
	int code = WIFEXITED(x->status) ? WEXITSTATUS(x->status) : -1;
	int sig = WIFSIGNALED(x->status) ? WTERMSIG(x->status) : 0;

	program_identity(x, fg);
	figure_add(fg, "program_exit_status", "program exit status", "%d", code);
	figure_add(fg, "program_signal", "program killed by signal", "%d", sig);
	figure_add(fg, "program_stop_signal", "run stopped by signal", "%d", x->stop_sig);
	figure_add(fg, "program_wall_s", "program wall time, s", "%.6f", x->wall_s);
	figure_add(fg, "program_cpu_user_s", "program user CPU, s", "%.6f",
		   (double)x->ru.ru_utime.tv_sec + x->ru.ru_utime.tv_usec / 1e6);
	figure_add(fg, "program_cpu_sys_s", "program system CPU, s", "%.6f",
		   (double)x->ru.ru_stime.tv_sec + x->ru.ru_stime.tv_usec / 1e6);
	figure_add(fg, "program_processes", "processes that wrote figures", "%u", x->processes);
	figure_add(fg, "program_figures_lost", "main process figures lost", "%d", !x->main_written);
	figure_add(fg, "program_threads", "threads that locked", "%" PRIu64, x->counts[EC_threads]);
	figure_add(fg, "passthrough_locks", "locks passed to glibc", "%" PRIu64, x->counts[EC_passthrough_locks]);
	figure_add(fg, "trylocks", "trylocks (busy)", "%" PRIu64, x->counts[EC_trylocks]);
	figure_add(fg, "trylock_busy", "trylocks that found it held", "%" PRIu64, x->counts[EC_trylock_busy]);
	figure_add(fg, "timedlocks", "timed locks", "%" PRIu64, x->counts[EC_timedlocks]);
	figure_add(fg, "timedlock_timeouts", "timed locks timed out", "%" PRIu64, x->counts[EC_timedlock_timeouts]);
	figure_add(fg, "cond_waits", "condvar waits", "%" PRIu64, x->counts[EC_cond_waits]);
	figure_add(fg, "cond_timeouts", "condvar waits timed out", "%" PRIu64, x->counts[EC_cond_timeouts]);
	figure_add(fg, "mutexes_started", "mutexes started", "%" PRIu64, x->counts[EC_mutex_starts]);
	figure_add(fg, "program_threads_pinned", "threads pinned (--pin)", "%" PRIu64, x->threads_pinned);
	figure_add(fg, "program_pin_failures", "threads --pin could not pin", "%" PRIu64, x->pin_failures);
	for (unsigned int i = 0; i < x->nmetrics; i++) {
		char key[48];

		snprintf(key, sizeof(key), "metric_better_%s", x->metric[i].name);
		figure_add(fg, key, key, "%s", x->metric[i].lower ? "lower" : "higher");
		if (!x->metric[i].found)
			continue;
		snprintf(key, sizeof(key), "metric_%s", x->metric[i].name);
		figure_add(fg, key, key, "%s", x->metric[i].value);
	}
}

int exec_build_result(struct exec_run *x, struct bench_result *res)
{
	struct bench_thread *t = x->prog;

	memset(res, 0, sizeof(*res));
	x->rcfg = *x->cfg;
	x->rcfg.workload = &exec_workload;
	x->rcfg.threads = 1;
	x->rcfg.pin = exec_pin(x->cfg);
	x->rcfg.duration_s = x->wall_s;
	x->rcfg.warmup_s = 0;
	res->cfg = &x->rcfg;
	res->threads = &x->prog;
	t->lt = x->prog_lt;
	t->cpu = -1;  /* the program's threads: not one CPU */
	t->ops = t->ops_all = 1;
	t->usage.user_s = (double)x->ru.ru_utime.tv_sec + x->ru.ru_utime.tv_usec / 1e6;
	t->usage.sys_s = (double)x->ru.ru_stime.tv_sec + x->ru.ru_stime.tv_usec / 1e6;
	t->usage.vol_csw = (uint64_t)x->ru.ru_nvcsw;
	t->usage.invol_csw = (uint64_t)x->ru.ru_nivcsw;
	res->acq = t->acq;
	res->acq_contended = t->acq_contended;
	res->acquisitions = t->acquired;
	res->contentions = t->acq.contended + t->untimed_contended;
	res->ev = x->prog_lt->ev;
	res->ops = res->ops_all = 1;
	res->measured_s = x->wall_s;
	res->ops_per_s = x->wall_s > 0 ? 1 / x->wall_s : 0;
	res->ops_min = res->ops_max = 1;
	res->usage = t->usage;
	res->lock_node = -1;
	res->invariant = INVARIANT_NONE;
	res->lock_params = x->cfg->lock_params;
	if (x->settings_read)
		res->lock_params.settings = x->settings;
	res->timer_overhead = tsc_timer_overhead();
	res->machine = x->machine;
	res->tsc_hz = res->machine.tsc_hz;
	res->pin_order = x->pin_order;
	res->pin_order_n = x->pin_order_n;
	res->kernel = x->kernel;
	program_figures(x, res);
	checks_evaluate(res);
	return 0;
}
