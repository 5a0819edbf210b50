/*
 * report.c — prints the summary and writes the result files (formats in
 * results/README.md) into the staging directory (outdir.c); meta.csv is
 * meta.c's.  Nothing here knows a lock's or a workload's internals.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meta.h"
#include "../../common/summary.def"
#include "report.h"
#include "report_kernel.h"
#include "../platform/schedmode.h"
#include "../run/checks.h"
#include "../workloads/workload.h"

#define HIST_BAR_WIDTH 52

static double summary_div(double a, double b)
{
	return b != 0 ? a / b : 0;
}

static double cpu_us_per_op(const struct bench_result *res)
{
	return summary_div((res->usage.user_s + res->usage.sys_s) * 1e6, (double)res->ops);
}

/* bpftrace's hist() labels: powers of two with K/M/G/T suffixes (base 1024). */
static void bin_label(uint64_t v, char *buf, size_t len)
{
	static const char suffix[] = " KMGTPE";
	int s = 0;

	while (v >= 1024 && (v % 1024) == 0 && s < 6) {
		v /= 1024;
		s++;
	}
	if (s)
		snprintf(buf, len, "%" PRIu64 "%c", v, suffix[s]);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/* A time in ns, us, ms or s, three significant digits. */
static void time_label(double ns, char *buf, size_t len)
{
	static const char *const unit[] = { "ns", "us", "ms", "s" };
	int u = 0;

	while (ns >= 1000 && u < 3) {
		ns /= 1000;
		u++;
	}
	snprintf(buf, len, "%.3g%s", ns, unit[u]);
}

/* Bin b's bounds as time at `tsc_hz` ("" without a rate). */
static void bin_time_range(int b, double tsc_hz, char *buf, size_t len)
{
	char lo[16], hi[16];

	buf[0] = '\0';
	if (tsc_hz <= 0)
		return;
	time_label((double)hist_bin_lower((unsigned int)b) * 1e9 / tsc_hz, lo, sizeof(lo));
	if (b == HIST_BINS - 1)
		snprintf(hi, sizeof(hi), "...");
	else
		time_label((double)hist_bin_lower((unsigned int)b + 1) * 1e9 / tsc_hz, hi, sizeof(hi));
	snprintf(buf, len, "[%s, %s)", lo, hi);
}

/* With a TSC rate, a second column gives each bin's bounds in time. */
static void print_hist(const struct hist *h, const char *name, double tsc_hz, FILE *out)
{
	int first = -1, last = -1;
	uint64_t peak = 0;

	for (int b = 0; b < HIST_BINS; b++)
		if (h->bins[b]) {
			if (first < 0)
				first = b;
			last = b;
			if (h->bins[b] > peak)
				peak = h->bins[b];
		}
	if (tsc_hz > 0)
		fprintf(out, "@%s:  (cycles; time at TSC %.3f GHz)\n", name, tsc_hz / 1e9);
	else
		fprintf(out, "@%s:\n", name);
	for (int b = first; first >= 0 && b <= last; b++) {
		char lo[24], hi[24], range[56], bar[HIST_BAR_WIDTH + 1], time_range[40];
		/* Whole characters only, rounded down: a bin under 1/52 of the
		 * peak draws none, so one acquisition does not look like 30,000
		 * (the count beside it says it is there).  In double: no
		 * overflow of count x width. */
		int width = (int)((double)h->bins[b] * HIST_BAR_WIDTH / (double)peak);

		bin_label(hist_bin_lower((unsigned int)b), lo, sizeof(lo));
		if (b == HIST_BINS - 1)
			snprintf(hi, sizeof(hi), "...");
		else
			bin_label(hist_bin_lower((unsigned int)b + 1), hi, sizeof(hi));
		snprintf(range, sizeof(range), "[%s, %s)", lo, hi);
		memset(bar, '@', (size_t)width);
		bar[width] = '\0';
		bin_time_range(b, tsc_hz, time_range, sizeof(time_range));
		if (tsc_hz > 0)
			fprintf(out, "%-20s %-20s %10" PRIu64 " |%-*s|\n", range, time_range, h->bins[b],
				HIST_BAR_WIDTH, bar);
		else
			fprintf(out, "%-20s %10" PRIu64 " |%-*s|\n", range, h->bins[b], HIST_BAR_WIDTH, bar);
	}
}

void report_print_hist(const struct hist *h, const char *name, FILE *out)
{
	print_hist(h, name, 0, out);
}

/* The lock build that ran: a simulated run's own (result.h, ran_ops). */
static const struct lock_ops *result_lock_ops(const struct bench_result *res)
{
	return res->ran_ops ? res->ran_ops : res->cfg->lock;
}

/* The lock's settings in force (its settings_figures hook), on one line. */
static void print_setting(void *ctx, const char *key, const char *value)
{
	FILE *out = ctx;

	fprintf(out, " %s=%s", key, value);
}

static void print_lock_settings(const struct bench_result *res, FILE *out)
{
	if (!result_lock_ops(res)->settings_figures)
		return;
	fprintf(out, "  lock settings  ");
	result_lock_ops(res)->settings_figures(&res->lock_params.settings, print_setting, out);
	fprintf(out, "\n");
}

/* The workload's options in force (its settings_figures hook), on one line. */
static void print_workload_settings(const struct bench_result *res, FILE *out)
{
	if (!res->cfg->workload->settings_figures)
		return;
	fprintf(out, "  workload opts  ");
	res->cfg->workload->settings_figures(&res->cfg->wl_settings, print_setting, out);
	fprintf(out, "\n");
}

static void print_events(const struct bench_result *res, FILE *out)
{
	const struct lock_events *ev = &res->ev;
	uint64_t acquisitions = ev->acq_fast + ev->acq_spin + ev->acq_nosleep + ev->acq_sleep;

	print_lock_settings(res, out);
	fprintf(out, "  acquired via    fast %" PRIu64 ", spin %" PRIu64 ", without sleeping %" PRIu64
		" (%" PRIu64 " before queueing), sleep %" PRIu64 "; %.4f futex waits per acquisition\n",
		ev->acq_fast, ev->acq_spin, ev->acq_nosleep, ev->nosleep_unqueued, ev->acq_sleep,
		summary_div((double)ev->futex_waits, (double)acquisitions));
	fprintf(out, "  spin exits     ");
	for (int r = 0; r < SPIN_EXIT_NR; r++)
		fprintf(out, " %s %" PRIu64 "%s", spin_exit_name[r], ev->spin_exit[r],
			r + 1 < SPIN_EXIT_NR ? "," : "\n");
	fprintf(out, "  spinning        %" PRIu64 " cycles (%.1f per op); futex waits %" PRIu64
		", wakes %" PRIu64 "; handoffs %" PRIu64 "\n",
		ev->spin_cycles, summary_div((double)ev->spin_cycles, (double)res->ops),
		ev->futex_waits, ev->futex_wakes, ev->handoffs);
	fprintf(out, "  slow paths      %" PRIu64 " unlocks (%.1f cycles each until wait_lock); %" PRIu64
		" failed compare-and-swaps spinning\n", ev->unlock_slow,
		summary_div((double)ev->unlock_window_cycles, (double)ev->unlock_slow), ev->spin_cas_failed);
	if (ev->preempt_seen)
		fprintf(out, "  preempted       holding the lock %" PRIu64 " (of the workers' %" PRIu64 " involuntary"
			" switch-outs); holding wait_lock %" PRIu64 "; in the spinner queue %" PRIu64 "\n",
			ev->owner_preempted, res->usage.invol_csw, ev->wait_lock_preempted, ev->queue_preempted);
}

/* One line of counts, then one per check, every check always: a check that
 * is missing from the list could be mistaken for one that passed. */
static void print_checks(const struct checks *k, FILE *out)
{
	fprintf(out, "  checks          %u ok, %u WARN, %u skipped\n", k->count[CHECK_OK],
		k->count[CHECK_WARN], k->count[CHECK_SKIPPED]);
	for (int i = 0; i < CHECKS_NR; i++)
		fprintf(out, "    %-8s %-19s %s\n", check_status_name[k->c[i].status], check_name[i],
			k->c[i].detail);
}

/* The contended acquisitions alone: what the seed patch's histogram and mean
 * covered (the line above includes the fast path). */
static void print_contended(const struct hist *hc, FILE *out)
{
	if (!hc->count) {
		fprintf(out, "  contended acq   none (every acquisition took the lock at its first attempt)\n");
		return;
	}
	fprintf(out, "  contended acq   mean %.0f, min %" PRIu64 ", max %" PRIu64 ", median bin 2^%u, p99 bin 2^%u\n",
		(double)hc->sum / (double)hc->count, hc->min, hc->max, hist_quantile_bin(hc, 0.5),
		hist_quantile_bin(hc, 0.99));
}

/* Waits per lock type, the types that had any. */
static void print_kernel_types(const struct kernel_locks *k, FILE *out)
{
	const char *sep = "";

	fprintf(out, "  kernel by type ");
	for (int t = 0; t < KLOCK_TYPES; t++)
		if (k->type[t].count) {
			fprintf(out, "%s %s %" PRIu64 " (mean %.0f, max %" PRIu64 ")", sep, klock_type_name[t],
				k->type[t].count, summary_div((double)k->type[t].sum, (double)k->type[t].count),
				k->type[t].max);
			sep = ",";
		}
	fprintf(out, "%s\n", *sep ? "" : " none");
}

/* --kernel-locks: the kernel's own waits for its locks, this run's threads. */
static void print_kernel(const struct kernel_locks *k, double tsc_hz, FILE *out)
{
	const struct hist *h = &k->all;

	if (!h->count)
		fprintf(out, "  kernel locks    no contention of this run's threads (Linux %s)\n", k->release);
	else
		fprintf(out, "  kernel locks    %" PRIu64 " contentions of this run's threads (Linux %s), wait cycles mean %.0f"
			" (%.1f us), max %" PRIu64 ", median bin 2^%u, p99 bin 2^%u\n", h->count, k->release,
			summary_div((double)h->sum, (double)h->count),
			summary_div(summary_div((double)h->sum, (double)h->count) * 1e6, tsc_hz), h->max,
			hist_quantile_bin(h, 0.5), hist_quantile_bin(h, 0.99));
	if (k->untimed || k->unpaired)
		fprintf(out, "  kernel missed   %" PRIu64 " waits not timed (nested too deep, task table full), %" PRIu64
			" not in the top-locks table (full)\n", k->untimed, k->unpaired);
	if (!h->count)
		return;
	print_kernel_types(k, out);
	report_kernel_mutex(k, out);
	report_kernel_top(k, out);
}

const char *report_timing_name(const struct bench_config *cfg, char *buf, size_t len)
{
	if (cfg->timing == TIMING_SAMPLE)
		snprintf(buf, len, "sample:%" PRIu64, cfg->timing_sample);
	else
		snprintf(buf, len, "%s", cfg->timing == TIMING_OFF ? "off" : "all");
	return buf;
}

/* Which acquisitions the cycle figures and histograms cover (--timing). */
static void print_timing(const struct bench_result *res, FILE *out)
{
	const struct hist *h = &res->acq;
	char mode[32];

	report_timing_name(res->cfg, mode, sizeof(mode));
	if (res->cfg->timing == TIMING_ALL)
		fprintf(out, "  timing          all: every acquisition timed\n");
	else if (res->cfg->timing == TIMING_OFF)
		fprintf(out, "  timing          off: no acquisition timed; operations, acquisitions, contentions"
			" and phases are exact\n");
	else
		fprintf(out, "  timing          %s: %" PRIu64 " of %" PRIu64 " acquisitions timed (1 in %.1f), %"
			PRIu64 " of them contended; cycle figures and histograms cover these, counts as sampled"
			" (not scaled)\n", mode, h->count, res->acquisitions,
			summary_div((double)res->acquisitions, (double)h->count), h->contended);
}

/* What the maximum covers, where it looks impossible: an acquisition that
 * began in the measured interval counts whole, however long after the stop
 * it ended.  With many more threads than CPUs, those still waiting in lock()
 * at the stop get the lock one by one, and the last can have waited longer
 * than the interval lasted (results/README.md, acq_cycles_max).  Counted,
 * not cut: dropping the acquisitions that straddle the stop would drop the
 * longest waits of the run's end. */
static void print_max_note(const struct hist *h, const struct bench_result *res, FILE *out)
{
	double max_s = res->tsc_hz > 0 ? (double)h->max / res->tsc_hz : 0;

	if (max_s > res->measured_s)
		fprintf(out, "  note            the longest acquisition (%.2f s) outlasts the %.2f s measured: it began in the"
			" interval and ended after the stop, as a waiter does when threads outnumber CPUs\n",
			max_s, res->measured_s);
}

void report_print(const struct bench_result *res, FILE *out)
{
	const struct bench_config *cfg = res->cfg;
	const struct hist *h = &res->acq;
	const char *unit = cfg->workload->unit;
	bool timed = cfg->timing != TIMING_OFF;

	fprintf(out, "lockbench: lock %s, workload %s, %u thread%s (pin %s), %.2f s measured after %.2f s warm-up\n",
		cfg->lock->name, cfg->workload->name, cfg->threads, cfg->threads == 1 ? "" : "s", cfg->pin, res->measured_s,
		cfg->warmup_s);
	fprintf(out, "  %-14s %" PRIu64 " (%.1f %s/s); %" PRIu64 " abandoned at the stop\n", unit,
		res->ops, res->ops_per_s, unit, res->ops_abandoned);
	fprintf(out, "  acquisitions    %" PRIu64 ", contentions %" PRIu64 " (%.1f%%)\n", res->acquisitions,
		res->contentions, 100.0 * summary_div((double)res->contentions, (double)res->acquisitions));
	print_timing(res, out);
	if (cfg->sched == SCHED_MODE_FIFO)
		fprintf(out, "  sched           fifo: every worker SCHED_FIFO at one priority (none preempts another)\n");
	if (timed) {
		fprintf(out, "  acq cycles      mean %.0f, min %" PRIu64 ", max %" PRIu64 ", median bin 2^%u, p99 bin 2^%u\n",
			summary_div((double)h->sum, (double)h->count), h->count ? h->min : 0, h->max,
			hist_quantile_bin(h, 0.5), hist_quantile_bin(h, 0.99));
		print_max_note(h, res, out);
		print_contended(&res->acq_contended, out);
	}
	fprintf(out, "  fairness        %s per thread min %" PRIu64 ", max %" PRIu64 ", cv %.3f\n",
		unit, res->ops_min, res->ops_max, res->ops_cv);
	fprintf(out, "  cpu             user %.2f s, sys %.2f s, %.3f us per %s; csw vol %" PRIu64 ", invol %" PRIu64 "\n",
		res->usage.user_s, res->usage.sys_s, cpu_us_per_op(res), "op",
		res->usage.vol_csw, res->usage.invol_csw);
	fprintf(out, "  timer           overhead %" PRIu64 " cycles (median empty timed interval), TSC %.3f GHz\n",
		res->timer_overhead, res->tsc_hz / 1e9);
	machine_print_summary(&res->machine, out);
	if (cfg->lock->flags & LOCK_F_PHASES)
		print_events(res, out);
	print_workload_settings(res, out);
	for (unsigned int i = 0; i < res->extra.n; i++)
		fprintf(out, "  %-15s %s\n", res->extra.f[i].label, res->extra.f[i].value);
	if (res->kernel.captured) {
		print_kernel(&res->kernel, res->tsc_hz, out);
		kernel_env_print(&res->machine.kernel, out);
	}
	print_checks(&res->checks, out);
	if (timed)
		print_hist(h, cfg->timing == TIMING_SAMPLE ? "acq_cycles_sampled" : "acq_cycles", res->tsc_hz, out);
	if (res->kernel.captured)
		print_hist(&res->kernel.all, "kernel_wait_cycles", res->tsc_hz, out);
}

/* ---- result files ---- */

typedef void (*file_writer)(const struct bench_result *res, FILE *f);

static int write_file(const struct outdir *od, const char *name, file_writer writer,
		      const struct bench_result *res, char *err, size_t errlen)
{
	struct sf_out out;

	/* The one writer (safefile.h): into the staging directory lockbench
	 * made, through its descriptor. */
	if (!sf_out_open(&out, &od->files, name, err, errlen))
		return -1;
	writer(res, out.f);
	return sf_out_commit(&out, err, errlen);
}

/* A message as one CSV value: "-" when empty; commas (which would split
 * it) and line ends become ';'. */
static void csv_text(char *buf, size_t len, const char *msg)
{
	snprintf(buf, len, "%s", msg[0] ? msg : "-");
	for (char *c = buf; *c; c++)
		if (*c == ',' || *c == '\n' || *c == '\r')
			*c = ';';
}

/* The lock's settings as summary.csv keys (kmutex: its oracle, what was
 * asked, the budget in force, and why sched could not load). */
static void write_setting(void *ctx, const char *key, const char *value)
{
	char text[256];  /* the reader takes values up to 255 bytes */

	csv_text(text, sizeof(text), value);
	fprintf(ctx, "%s,%s\n", key, text);
}

/* The lock's settings, then the workload's, as summary.csv keys. */
static void write_settings(const struct bench_result *res, FILE *f)
{
	if (result_lock_ops(res)->settings_figures)
		result_lock_ops(res)->settings_figures(&res->lock_params.settings, write_setting, f);
	if (res->cfg->workload->settings_figures)
		res->cfg->workload->settings_figures(&res->cfg->wl_settings, write_setting, f);
}

/* Figures of the contract (common/summary.def), each "key,value". */
#define WRITE_FIGURE(key, format, value, check, sense, title, shown) fprintf(f, #key "," format "\n", value);

/* --kernel-locks: the totals, then per lock type (results/README.md). */
static void write_kernel_keys(const struct kernel_locks *k, FILE *f)
{
	const struct hist *h = &k->all;
	char note[sizeof(k->callers_note)];

	csv_text(note, sizeof(note), k->callers_note);
	fprintf(f, "kernel_release,%s\nkernel_contentions,%" PRIu64 "\nkernel_wait_cycles_sum,%" PRIu64 "\n",
		k->release, h->count, h->sum);
	fprintf(f, "kernel_wait_cycles_mean,%.3f\nkernel_wait_cycles_min,%" PRIu64 "\nkernel_wait_cycles_max,%" PRIu64 "\n",
		summary_div((double)h->sum, (double)h->count), h->count ? h->min : 0, h->max);
	fprintf(f, "kernel_wait_bin_p50,%u\nkernel_wait_bin_p99,%u\n", hist_quantile_bin(h, 0.5),
		hist_quantile_bin(h, 0.99));
	fprintf(f, "kernel_untimed,%" PRIu64 "\nkernel_unpaired,%" PRIu64 "\nkernel_lock_pairs,%" PRIu64 "\n",
		k->untimed, k->unpaired, k->pairs);
	fprintf(f, "kernel_callers_note,%s\n", note);
	for (int t = 0; t < KLOCK_TYPES; t++)
		fprintf(f, "kernel_contentions_%s,%" PRIu64 "\nkernel_wait_cycles_sum_%s,%" PRIu64
			"\nkernel_wait_cycles_max_%s,%" PRIu64 "\n", klock_type_name[t], k->type[t].count,
			klock_type_name[t], k->type[t].sum, klock_type_name[t], k->type[t].max);
	report_kernel_keys(k, f);
}

/* A workload's figure and, where it is one of its metrics, the lines that
 * declare it (common/metric.def): lbcompare compares it from these alone. */
static void write_extra(const struct workload_ops *wl, const struct figure *fig, FILE *f)
{
	static const char *const sense_word[] = {
#define SENSE_WORD(name, word) [WM_##name] = word,
		METRIC_SENSES(SENSE_WORD)
#undef SENSE_WORD
	};

	fprintf(f, "%s,%s\n", fig->key, fig->value);
	for (const struct workload_metric *m = wl->metrics; m && m->key; m++)
		if (strcmp(m->key, fig->key) == 0)
			fprintf(f, METRIC_SENSE_PREFIX "%s,%s\n" METRIC_UNIT_PREFIX "%s,%s\n" METRIC_TITLE_PREFIX "%s,%s\n",
				m->key, sense_word[m->sense], m->key, m->unit, m->key, m->title);
}

static void write_summary(const struct bench_result *res, FILE *f)
{
	const struct bench_result *r = res;  /* the contract's name for it */
	const struct bench_config *cfg = res->cfg;
	const struct lock_events *ev = &res->ev;
	char mode[32];

	fprintf(f, "key,value\n");
	fprintf(f, "format,lockbench-summary-1\n");
	fprintf(f, "lock,%s\nworkload,%s\nunit,%s\n", cfg->lock->name, cfg->workload->name, cfg->workload->unit);
	/* The registry's facts about them, which later stages read here rather
	 * than know locks and workloads by name (results/README.md). */
	fprintf(f, "rate_unit,%s/%s\nmeets_in_kernel,%d\nlock_excludes,%d\n", cfg->workload->unit,
		cfg->workload->per_minute ? "min" : "s", cfg->workload->meets_in_kernel,
		!(cfg->lock->flags & LOCK_F_NO_EXCLUSION));
	fprintf(f, "threads,%u\npin,%s\n", cfg->threads, cfg->pin);
	fprintf(f, "duration_s,%.6f\nwarmup_s,%.6f\nmeasured_s,%.6f\n",
		cfg->duration_s, cfg->warmup_s, res->measured_s);
	fprintf(f, "cs_cycles,%" PRIu64 "\nthink_cycles,%" PRIu64 "\nseed,%" PRIu64 "\n",
		cfg->cs_cycles, cfg->think_cycles, cfg->seed);
	fprintf(f, "timing,%s\n", report_timing_name(cfg, mode, sizeof(mode)));
	fprintf(f, "sched,%s\n", sched_mode_name[cfg->sched]);
	write_settings(res, f);
	SUMMARY_RUN_FIGURES(WRITE_FIGURE)
	SUMMARY_CONTENDED_FIGURES(WRITE_FIGURE)
	SUMMARY_THREAD_FIGURES(WRITE_FIGURE)
	SUMMARY_LOCK_FIGURES(WRITE_FIGURE)
	for (int s = 0; s < SPIN_EXIT_NR; s++)
		fprintf(f, SPIN_EXIT_KEY_PREFIX "%s,%" PRIu64 "\n", spin_exit_name[s], ev->spin_exit[s]);
	SUMMARY_EVENT_FIGURES(WRITE_FIGURE)
	if (ev->preempt_seen) {
		SUMMARY_PREEMPT_FIGURES(WRITE_FIGURE)
	}
	fprintf(f, "checks_warned,%u\n", res->checks.count[CHECK_WARN]);
	if (res->kernel.captured)
		write_kernel_keys(&res->kernel, f);
	for (unsigned int i = 0; i < res->extra.n; i++)
		write_extra(cfg->workload, &res->extra.f[i], f);
}

static void write_hist_of(const struct hist *h, FILE *f)
{
	fprintf(f, "bin,lower_cycles,count,percent\n");
	for (unsigned int b = 0; b < HIST_BINS; b++)
		fprintf(f, "%u,%" PRIu64 ",%" PRIu64 ",%.4f\n", b, hist_bin_lower(b), h->bins[b],
			100.0 * summary_div((double)h->bins[b], (double)h->count));
}

static void write_hist(const struct bench_result *res, FILE *f)
{
	write_hist_of(&res->acq, f);
}

static void write_hist_contended(const struct bench_result *res, FILE *f)
{
	write_hist_of(&res->acq_contended, f);
}

/* hist.csv's columns, then each lock type's count in the bin. */
static void write_kernel_hist(const struct bench_result *res, FILE *f)
{
	const struct kernel_locks *k = &res->kernel;

	fprintf(f, "bin,lower_cycles,count,percent");
	for (int t = 0; t < KLOCK_TYPES; t++)
		fprintf(f, ",%s", klock_type_name[t]);
	fprintf(f, "\n");
	for (unsigned int b = 0; b < HIST_BINS; b++) {
		fprintf(f, "%u,%" PRIu64 ",%" PRIu64 ",%.4f", b, hist_bin_lower(b), k->all.bins[b],
			100.0 * summary_div((double)k->all.bins[b], (double)k->all.count));
		for (int t = 0; t < KLOCK_TYPES; t++)
			fprintf(f, ",%" PRIu64, k->type[t].bins[b]);
		fprintf(f, "\n");
	}
}

static void write_kernel_locks(const struct bench_result *res, FILE *f)
{
	report_kernel_locks_csv(&res->kernel, f);
}

static void write_threads(const struct bench_result *res, FILE *f)
{
	fprintf(f, "thread,cpu,ops,acquisitions,contentions,acq_cycles_sum,acq_cycles_max,"
		   "cpu_user_s,cpu_sys_s,csw_voluntary,csw_involuntary,"
		   "acq_fast,acq_spin,acq_sleep,spin_cycles,futex_waits,acq_nosleep\n");
	for (unsigned int i = 0; i < res->cfg->threads; i++) {
		const struct bench_thread *t = res->threads[i];
		const struct lock_events *ev = &t->lt->ev;

		fprintf(f, "%u,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			   ",%.6f,%.6f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			   ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			t->id, t->cpu, t->ops, t->acq.count + t->untimed, t->acq.contended + t->untimed_contended,
			t->acq.sum, t->acq.max,
			t->usage.user_s, t->usage.sys_s, t->usage.vol_csw, t->usage.invol_csw,
			ev->acq_fast, ev->acq_spin, ev->acq_sleep, ev->spin_cycles, ev->futex_waits,
			ev->acq_nosleep);
	}
}

static void write_checks(const struct bench_result *res, FILE *f)
{
	const struct checks *k = &res->checks;

	fprintf(f, "check,status,detail\n");
	for (int i = 0; i < CHECKS_NR; i++)
		fprintf(f, "%s,%s,%s\n", check_name[i], check_status_name[k->c[i].status], k->c[i].detail);
}

static void write_cmdline(const struct bench_result *res, FILE *f)
{
	fprintf(f, "%s\n", res->cfg->cmdline ? res->cfg->cmdline : "");
}

int report_write(const struct bench_result *res, const struct outdir *od, char *err, size_t errlen)
{
	if (write_file(od, "summary.csv", write_summary, res, err, errlen) ||
	    write_file(od, "hist.csv", write_hist, res, err, errlen) ||
	    write_file(od, "hist_contended.csv", write_hist_contended, res, err, errlen) ||
	    write_file(od, "threads.csv", write_threads, res, err, errlen) ||
	    write_file(od, "checks.csv", write_checks, res, err, errlen) ||
	    write_file(od, "cmdline.txt", write_cmdline, res, err, errlen) ||
	    write_file(od, "meta.csv", machine_write_meta, res, err, errlen))
		return -1;
	if (res->kernel.captured &&
	    (write_file(od, "kernel-hist.csv", write_kernel_hist, res, err, errlen) ||
	     write_file(od, "kernel-locks.csv", write_kernel_locks, res, err, errlen)))
		return -1;
	return 0;
}
