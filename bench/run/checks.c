/*
 * checks.c — the self-checks (checks.h).  Each reads only the merged result
 * and the machine probe, and says ok, WARN or skipped with a one-line detail.
 * The clock checks repeat machine.c's judgement (same tolerances) so that
 * every run carries all its verdicts in one place, checks.csv.
 *
 * What lbcompare's reader also checks is asked here the same way: the
 * acquisition phases from the contract (common/summary.def) add up to
 * acquisitions, and the contended histogram lies within the other
 * (common/hist_within.h).  The rest are not the contract's checks of a
 * summary figure, so they stay here: the reader can only see that a figure
 * is a well-formed count, where these need what summary.csv does not hold
 * (each thread's histogram count, the lock's flags, the workload's
 * invariant, the machine probe's CPUID and skew), or judge the run rather
 * than the file (a timer that is trapped, a thread that starved: the file
 * is still right, so the reader must accept it).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "../../common/hist_within.h"
#include "../../common/summary.def"
#include "../core/result.h"
#include "../workloads/workload.h"

const char *const check_name[CHECKS_NR] = {
#define CHECK_NAME(id, name, fn) [CHECK_##id] = #name,
	CHECKS(CHECK_NAME)
#undef CHECK_NAME
};

const char *const check_status_name[CHECK_STATUS_NR] = {
	[CHECK_OK] = "ok", [CHECK_WARN] = "WARN", [CHECK_SKIPPED] = "skipped",
};

static void verdict(struct check *c, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void verdict(struct check *c, int status, const char *fmt, ...)
{
	va_list ap;

	c->status = status;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	/* checks.csv is unquoted and one row per check; a workload's invariant
	 * message is free text. */
	for (char *p = c->detail; *p; p++)
		if (*p == ',')
			*p = ';';
		else if (*p == '\n' || *p == '\r')
			*p = ' ';
}

/* The contended histogram holds exactly the acquisitions counted as
 * contentions, each in the bin it has in the all-acquisitions histogram:
 * -1, or the first bin where it holds more than that one. */
static int contended_bin_excess(const struct bench_result *res, uint64_t *bins)
{
	*bins = 0;
	for (int b = 0; b < HIST_BINS; b++)
		*bins += res->acq_contended.bins[b];
	return hist_first_excess(res->acq_contended.bins, res->acq.bins, HIST_BINS);
}

static void check_hist_total(const struct bench_result *res, struct check *c)
{
	const struct hist *h = &res->acq, *hc = &res->acq_contended;
	uint64_t bins = 0, threads = 0, cbins;
	int excess = contended_bin_excess(res, &cbins);

	for (int b = 0; b < HIST_BINS; b++)
		bins += h->bins[b];
	for (unsigned int i = 0; i < res->cfg->threads; i++)
		threads += res->threads[i]->acq.count;
	if (bins != h->count || threads != h->count)
		verdict(c, CHECK_WARN, "bins sum to %" PRIu64 " but histogram count is %" PRIu64
			" and threads sum to %" PRIu64, bins, h->count, threads);
	else if (cbins != hc->count || hc->count != h->contended)
		verdict(c, CHECK_WARN, "contended histogram: bins sum to %" PRIu64 " and its count is %" PRIu64
			" but contentions = %" PRIu64, cbins, hc->count, h->contended);
	else if (excess >= 0)
		verdict(c, CHECK_WARN, "contended histogram holds %" PRIu64 " in bin %d; all acquisitions only %" PRIu64,
			hc->bins[excess], excess, h->bins[excess]);
	else if (res->cfg->timing != TIMING_ALL)
		verdict(c, CHECK_OK, "%" PRIu64 " timed acquisitions of %" PRIu64 " (--timing): bins = histogram"
			" count = per-thread sum; %" PRIu64 " timed contended: contended bins = their count",
			h->count, res->acquisitions, h->contended);
	else
		verdict(c, CHECK_OK, "%" PRIu64 " acquisitions: bins = histogram count = per-thread sum;"
			" %" PRIu64 " contended: contended bins = contentions", h->count, h->contended);
}

/* The acquisition phases are the contract's SUMMARY_LOCK_FIGURES
 * (common/summary.def): their sum, of the values summary.csv gets, and
 * their keys, " + acq_fast + acq_spin ...".  lbcompare's reader checks the
 * same fact on summary.csv. */
#define PHASE_VALUE(key, format, value, ...) +(value)
#define PHASE_TERM(key, ...) " + " #key
static const char phase_terms[] = "" SUMMARY_LOCK_FIGURES(PHASE_TERM);

static uint64_t phase_sum(const struct bench_result *r)
{
	return 0 SUMMARY_LOCK_FIGURES(PHASE_VALUE);
}

static void check_phases(const struct bench_result *res, struct check *c)
{
	const char *terms = phase_terms + strlen(" + ");
	uint64_t sum = phase_sum(res);

	if (!(res->cfg->lock->flags & LOCK_F_PHASES))
		verdict(c, CHECK_SKIPPED, "lock %s records no acquisition phases", res->cfg->lock->name);
	else if (sum == res->acquisitions)
		verdict(c, CHECK_OK, "%s = %" PRIu64 " = acquisitions", terms, sum);
	else
		verdict(c, CHECK_WARN, "%s = %" PRIu64 " but acquisitions = %" PRIu64, terms, sum, res->acquisitions);
}

static void check_invariant(const struct bench_result *res, struct check *c)
{
	const char *wl = res->cfg->workload->name;

	if (res->invariant == INVARIANT_OK)
		verdict(c, CHECK_OK, "workload %s invariant held over %" PRIu64 " %s (warm-up included)",
			wl, res->ops_all, res->cfg->workload->unit);
	else if (res->invariant == INVARIANT_FAILED)
		verdict(c, CHECK_WARN, "%s", res->invariant_msg);
	else
		verdict(c, CHECK_SKIPPED, "workload %s has no invariant", wl);
}

static void check_timer(const struct bench_result *res, struct check *c)
{
	uint64_t t = res->timer_overhead;

	if (t > CHECKS_TIMER_MAX_CYCLES)
		verdict(c, CHECK_WARN, "%" PRIu64 " cycles per empty timed interval (limit %d): "
			"is a hypervisor trapping rdtsc?", t, CHECKS_TIMER_MAX_CYCLES);
	else if (t == 0)
		verdict(c, CHECK_WARN, "0 cycles per empty timed interval: the TSC did not advance");
	else
		verdict(c, CHECK_OK, "%" PRIu64 " cycles per empty timed interval (limit %d)", t,
			CHECKS_TIMER_MAX_CYCLES);
}

static void check_tsc_invariant(const struct bench_result *res, struct check *c)
{
	const struct machine_info *m = &res->machine;

	if (!m->cpuid_ok)
		verdict(c, CHECK_SKIPPED, "libcpuid could not identify the CPU");
	else if (m->tsc_invariant)
		verdict(c, CHECK_OK, "CPUID 80000007h EDX[8] set");
	else
		verdict(c, CHECK_WARN, "CPUID 80000007h EDX[8] clear: cycle counts may not be time");
}

static void check_tsc_frequency(const struct bench_result *res, struct check *c)
{
	const struct machine_info *m = &res->machine;

	if (m->tsc_hz_cpuid <= 0) {
		verdict(c, CHECK_SKIPPED, "libcpuid has no TSC frequency for this CPU");
		return;
	}
	verdict(c, machine_tsc_rate_agrees(m) ? CHECK_OK : CHECK_WARN,
		"calibrated %.4f GHz vs %.4f GHz by libcpuid (%s): %+.2f%% (tolerance %.0f%%)",
		m->tsc_hz / 1e9, m->tsc_hz_cpuid / 1e9, m->tsc_hz_cpuid_source,
		100 * m->tsc_hz_diff, 100 * MACHINE_TSC_TOLERANCE);
}

/* The same conditions machine.c's check_clock() warns on. */
static void check_tsc_skew(const struct bench_result *res, struct check *c)
{
	const struct machine_info *m = &res->machine;
	const struct tsc_skew *s = &m->skew;

	if (m->skew_status)
		verdict(c, CHECK_WARN, "cross-CPU check could not run: %s", strerror(m->skew_status));
	else if (s->backwards)
		verdict(c, CHECK_WARN, "%u of %u CPU pairs out of order by up to %" PRIu64 " cycles",
			s->backwards, s->pairs, s->backwards_max);
	else if (s->aborted)
		verdict(c, CHECK_WARN, "cut short after %u pairs: a CPU stopped answering", s->pairs);
	else if (s->unreachable)
		verdict(c, CHECK_WARN, "could not run on %u of %u CPUs", s->unreachable, s->cpus);
	else if (s->pairs == 0)
		verdict(c, CHECK_SKIPPED, "%u CPU: nothing to compare", s->cpus);
	else
		verdict(c, CHECK_OK, "%u CPUs vs CPU %d ordered; |offset| < %" PRIu64 " cycles%s",
			s->cpus, s->ref_cpu, s->bound,
			machine_skew_loose(m) ? "; too wide to order anything timed across CPUs (a busy machine delayed "
						"the check)" : "");
}

static void check_fairness(const struct bench_result *res, struct check *c)
{
	unsigned int n = res->cfg->threads, starved = 0;
	const char *unit = res->cfg->workload->unit;

	for (unsigned int i = 0; i < n; i++)
		starved += res->threads[i]->ops == 0;
	if (n < 2)
		verdict(c, CHECK_SKIPPED, "one thread");
	else if (res->ops == 0)
		verdict(c, CHECK_SKIPPED, "no %s completed in the measured interval", unit);
	else if (starved)
		verdict(c, CHECK_WARN, "%u of %u threads completed 0 %s (starved); per thread min %"
			PRIu64 " max %" PRIu64, starved, n, unit, res->ops_min, res->ops_max);
	else
		verdict(c, CHECK_OK, "%s per thread min %" PRIu64 " max %" PRIu64, unit, res->ops_min,
			res->ops_max);
}

typedef void (*check_fn)(const struct bench_result *res, struct check *c);

/* The checks of the host's clock, which a simulated run never reads. */
static bool virtual_clock_check(int id)
{
	return id == CHECK_TIMER || id == CHECK_TSC_INVARIANT || id == CHECK_TSC_FREQUENCY || id == CHECK_TSC_SKEW;
}

void checks_evaluate(struct bench_result *res)
{
	static const check_fn fn[CHECKS_NR] = {
#define CHECK_FN(id, name, fn) [CHECK_##id] = fn,
		CHECKS(CHECK_FN)
#undef CHECK_FN
	};
	struct checks *k = &res->checks;

	memset(k, 0, sizeof(*k));
	for (int i = 0; i < CHECKS_NR; i++) {
		if (res->cfg->sim_profile && virtual_clock_check(i))
			verdict(&k->c[i], CHECK_SKIPPED, "simulated run: the TSC is virtual (profile %s)",
				res->cfg->sim_profile);
		else
			fn[i](res, &k->c[i]);
		k->count[k->c[i].status]++;
	}
}
