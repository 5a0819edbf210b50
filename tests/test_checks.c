/*
 * test_checks.c — every self-check can both pass and warn: a doctored result
 * that passes them all, then one fault at a time.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../bench/core/result.h"
#include "../bench/run/checks.h"
#include "../bench/workloads/workload.h"

#define NTHREADS 2

static const struct lock_ops phased_lock = { .name = "phased", .flags = LOCK_F_PHASES };
static const struct lock_ops plain_lock = { .name = "plain" };
static const struct workload_ops workload = { .name = "wl", .unit = "ops" };

struct fixture {
	struct bench_config cfg;
	struct bench_thread *thread[NTHREADS];
	struct bench_result res;
};

/* One thread's acquisitions, and the merged result gets them too. */
static void record(struct fixture *fx, unsigned int i, unsigned int n, uint64_t cycles)
{
	for (unsigned int k = 0; k < n; k++) {
		hist_record(&fx->thread[i]->acq, cycles, false);
		hist_record(&fx->res.acq, cycles, false);
	}
	fx->thread[i]->ops += n;
	fx->res.acquisitions += n;
	fx->res.ops += n;
	fx->res.ops_all += n;
}

/* What a healthy two-thread run on a two-CPU machine looks like. */
static void healthy_machine(struct machine_info *m)
{
	m->cpuid_ok = true;
	m->tsc_invariant = true;
	m->tsc_hz = 2.6e9;
	m->tsc_hz_cpuid = 2.599e9;
	m->tsc_hz_cpuid_source = "os-cpu-mhz";
	m->tsc_hz_diff = (m->tsc_hz - m->tsc_hz_cpuid) / m->tsc_hz_cpuid;
	m->skew.cpus = 2;
	m->skew.pairs = 1;
	m->skew.ref_cpu = 0;
	m->skew.bound = 400;
}

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	fx->cfg = (struct bench_config){ .lock = &phased_lock, .workload = &workload, .threads = NTHREADS };
	for (unsigned int i = 0; i < NTHREADS; i++) {
		fx->thread[i] = aligned_alloc(CACHELINE, sizeof(struct bench_thread));
		if (!fx->thread[i])
			return -1;
		memset(fx->thread[i], 0, sizeof(struct bench_thread));
		hist_reset(&fx->thread[i]->acq);
		hist_reset(&fx->thread[i]->acq_contended);
	}
	fx->res.cfg = &fx->cfg;
	fx->res.threads = fx->thread;
	hist_reset(&fx->res.acq);
	hist_reset(&fx->res.acq_contended);
	record(fx, 0, 3, 100);
	record(fx, 1, 2, 5000);
	fx->res.ops_min = 2;
	fx->res.ops_max = 3;
	fx->res.ev.acq_fast = 3;
	fx->res.ev.acq_spin = 1;
	fx->res.ev.acq_sleep = 1;
	fx->res.invariant = INVARIANT_OK;
	fx->res.timer_overhead = 30;
	healthy_machine(&fx->res.machine);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	for (unsigned int i = 0; i < NTHREADS; i++)
		free(fx->thread[i]);
	free(fx);
	return 0;
}

/* Evaluates, checks every detail is one CSV field, returns check `id`. */
static const struct check *evaluate(struct fixture *fx, enum check_id id)
{
	const struct checks *k = &fx->res.checks;

	checks_evaluate(&fx->res);
	assert_int_equal(k->count[CHECK_OK] + k->count[CHECK_WARN] + k->count[CHECK_SKIPPED], CHECKS_NR);
	for (int i = 0; i < CHECKS_NR; i++) {
		assert_true(k->c[i].detail[0] != '\0');
		assert_null(strpbrk(k->c[i].detail, ",\n\r"));
	}
	return &k->c[id];
}

static void assert_only_warning(struct fixture *fx, enum check_id id)
{
	assert_int_equal(evaluate(fx, id)->status, CHECK_WARN);
	assert_int_equal(fx->res.checks.count[CHECK_WARN], 1);
}

static void healthy_run_passes_all(void **state)
{
	struct fixture *fx = *state;

	evaluate(fx, CHECK_HIST_TOTAL);
	for (int i = 0; i < CHECKS_NR; i++)
		assert_int_equal(fx->res.checks.c[i].status, CHECK_OK);
	assert_int_equal(fx->res.checks.count[CHECK_OK], CHECKS_NR);
	assert_non_null(strstr(fx->res.checks.c[CHECK_HIST_TOTAL].detail, "5 acquisitions"));
	assert_non_null(strstr(fx->res.checks.c[CHECK_FAIRNESS].detail, "min 2 max 3"));
}

static void hist_total_warns_on_lost_bin(void **state)
{
	struct fixture *fx = *state;

	fx->res.acq.bins[hist_bin(100)]--;
	assert_only_warning(fx, CHECK_HIST_TOTAL);
	assert_non_null(strstr(fx->res.checks.c[CHECK_HIST_TOTAL].detail, "bins sum to 4"));
}

static void hist_total_warns_on_thread_mismatch(void **state)
{
	struct fixture *fx = *state;

	fx->thread[1]->acq.count++;
	assert_only_warning(fx, CHECK_HIST_TOTAL);
	assert_non_null(strstr(fx->res.checks.c[CHECK_HIST_TOTAL].detail, "threads sum to 6"));
}

/* A contended acquisition is in both histograms; the contended one must hold
 * exactly the contentions, each in the bin it has among all acquisitions. */
static void hist_total_checks_the_contended_histogram(void **state)
{
	struct fixture *fx = *state;
	const unsigned int bin = hist_bin(9000);

	hist_record(&fx->thread[0]->acq, 9000, true);
	hist_record(&fx->thread[0]->acq_contended, 9000, true);
	hist_record(&fx->res.acq, 9000, true);
	hist_record(&fx->res.acq_contended, 9000, true);
	fx->res.acquisitions++;
	fx->res.ev.acq_spin++;
	assert_int_equal(evaluate(fx, CHECK_HIST_TOTAL)->status, CHECK_OK);
	assert_int_equal(fx->res.checks.count[CHECK_WARN], 0);
	assert_non_null(strstr(fx->res.checks.c[CHECK_HIST_TOTAL].detail, "1 contended: contended bins = contentions"));
	fx->res.acq_contended.bins[bin]--;
	assert_only_warning(fx, CHECK_HIST_TOTAL);
	assert_non_null(strstr(fx->res.checks.c[CHECK_HIST_TOTAL].detail, "contended histogram: bins sum to 0"));
	fx->res.acq_contended.bins[40]++;
	assert_only_warning(fx, CHECK_HIST_TOTAL);
	assert_non_null(strstr(fx->res.checks.c[CHECK_HIST_TOTAL].detail,
			       "contended histogram holds 1 in bin 40; all acquisitions only 0"));
}

static void phases_warn_or_skip(void **state)
{
	struct fixture *fx = *state;

	fx->res.ev.acq_sleep = 0;
	assert_only_warning(fx, CHECK_PHASES);
	fx->cfg.lock = &plain_lock;
	assert_int_equal(evaluate(fx, CHECK_PHASES)->status, CHECK_SKIPPED);
	assert_non_null(strstr(fx->res.checks.c[CHECK_PHASES].detail, "plain"));
}

static void invariant_warns_or_skips(void **state)
{
	struct fixture *fx = *state;
	const struct check *c;

	fx->res.invariant = INVARIANT_FAILED;
	strcpy(fx->res.invariant_msg, "wl invariant FAILED: 3 made, 2 removed\nmore");
	assert_only_warning(fx, CHECK_INVARIANT);
	c = &fx->res.checks.c[CHECK_INVARIANT];
	assert_string_equal(c->detail, "wl invariant FAILED: 3 made; 2 removed more");
	fx->res.invariant = INVARIANT_NONE;
	assert_int_equal(evaluate(fx, CHECK_INVARIANT)->status, CHECK_SKIPPED);
}

static void timer_warns_when_trapped_or_stopped(void **state)
{
	struct fixture *fx = *state;

	fx->res.timer_overhead = CHECKS_TIMER_MAX_CYCLES;
	assert_int_equal(evaluate(fx, CHECK_TIMER)->status, CHECK_OK);
	fx->res.timer_overhead = CHECKS_TIMER_MAX_CYCLES + 1;
	assert_only_warning(fx, CHECK_TIMER);
	fx->res.timer_overhead = 0;
	assert_only_warning(fx, CHECK_TIMER);
}

static void tsc_invariant_warns_or_skips(void **state)
{
	struct fixture *fx = *state;

	fx->res.machine.tsc_invariant = false;
	assert_only_warning(fx, CHECK_TSC_INVARIANT);
	fx->res.machine.cpuid_ok = false;
	assert_int_equal(evaluate(fx, CHECK_TSC_INVARIANT)->status, CHECK_SKIPPED);
}

static void tsc_frequency_warns_beyond_tolerance(void **state)
{
	struct machine_info *m = &((struct fixture *)*state)->res.machine;

	m->tsc_hz_diff = MACHINE_TSC_TOLERANCE * 0.99;
	assert_int_equal(evaluate(*state, CHECK_TSC_FREQUENCY)->status, CHECK_OK);
	m->tsc_hz_diff = -MACHINE_TSC_TOLERANCE * 1.01;
	assert_only_warning(*state, CHECK_TSC_FREQUENCY);
	m->tsc_hz_diff = NAN;  /* a calibration gone wrong */
	assert_only_warning(*state, CHECK_TSC_FREQUENCY);
	m->tsc_hz_cpuid = 0;
	m->tsc_hz_diff = 0;
	assert_int_equal(evaluate(*state, CHECK_TSC_FREQUENCY)->status, CHECK_SKIPPED);
}

static void tsc_skew_warns_as_machine_does(void **state)
{
	struct fixture *fx = *state;
	struct machine_info *m = &fx->res.machine;

	m->skew.backwards = 1;
	m->skew.backwards_max = 77;
	assert_only_warning(fx, CHECK_TSC_SKEW);
	assert_non_null(strstr(fx->res.checks.c[CHECK_TSC_SKEW].detail, "77 cycles"));
	m->skew.backwards = 0;
	m->skew.aborted = 1;
	assert_only_warning(fx, CHECK_TSC_SKEW);
	m->skew.aborted = 0;
	m->skew_status = EAGAIN;
	assert_only_warning(fx, CHECK_TSC_SKEW);
	m->skew_status = 0;
	m->skew.unreachable = 1;
	assert_only_warning(fx, CHECK_TSC_SKEW);
}

/* Under load the bound grows to tens of milliseconds: still no warning
 * (nothing was found out of order), but the detail says it orders nothing. */
static void a_tsc_skew_bound_too_wide_says_so(void **state)
{
	struct fixture *fx = *state;
	struct machine_info *m = &fx->res.machine;

	assert_int_equal(evaluate(fx, CHECK_TSC_SKEW)->status, CHECK_OK);
	assert_null(strstr(fx->res.checks.c[CHECK_TSC_SKEW].detail, "too wide"));
	m->skew.bound = 127312075;  /* seen at load 8 on the 2-CPU VM */
	assert_int_equal(evaluate(fx, CHECK_TSC_SKEW)->status, CHECK_OK);
	assert_non_null(strstr(fx->res.checks.c[CHECK_TSC_SKEW].detail, "too wide to order anything"));
}

static void tsc_skew_skipped_on_one_cpu(void **state)
{
	struct machine_info *m = &((struct fixture *)*state)->res.machine;

	m->skew.cpus = 1;
	m->skew.pairs = 0;
	assert_int_equal(evaluate(*state, CHECK_TSC_SKEW)->status, CHECK_SKIPPED);
}

static void fairness_warns_on_starved_thread(void **state)
{
	struct fixture *fx = *state;

	fx->thread[1]->ops = 0;
	fx->res.ops_min = 0;
	assert_only_warning(fx, CHECK_FAIRNESS);
	assert_non_null(strstr(fx->res.checks.c[CHECK_FAIRNESS].detail, "1 of 2 threads completed 0 ops"));
}

static void fairness_skipped_without_comparison(void **state)
{
	struct fixture *fx = *state;

	fx->thread[0]->ops = fx->thread[1]->ops = 0;
	fx->res.ops = fx->res.ops_min = fx->res.ops_max = 0;
	assert_int_equal(evaluate(fx, CHECK_FAIRNESS)->status, CHECK_SKIPPED);
	fx->cfg.threads = 1;
	assert_int_equal(evaluate(fx, CHECK_FAIRNESS)->status, CHECK_SKIPPED);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(healthy_run_passes_all),
		T(hist_total_warns_on_lost_bin),
		T(hist_total_warns_on_thread_mismatch),
		T(hist_total_checks_the_contended_histogram),
		T(phases_warn_or_skip),
		T(invariant_warns_or_skips),
		T(timer_warns_when_trapped_or_stopped),
		T(tsc_invariant_warns_or_skips),
		T(tsc_frequency_warns_beyond_tolerance),
		T(tsc_skew_warns_as_machine_does),
		T(tsc_skew_skipped_on_one_cpu),
		T(a_tsc_skew_bound_too_wide_says_so),
		T(fairness_warns_on_starved_thread),
		T(fairness_skipped_without_comparison),
	};

	return cmocka_run_group_tests_name("checks", tests, NULL, NULL);
}
