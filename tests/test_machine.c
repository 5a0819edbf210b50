/*
 * test_machine.c — the clock checks and the run metadata: TSC calibration
 * against libcpuid's figure on this machine, the cross-CPU ping-pong (and
 * that it catches an injected skew), the probe's time bound, meta.csv's
 * encoding, and the reader of the system's own text files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../bench/core/harness.h"
#include "../bench/core/result.h"
#include "../bench/output/meta.h"
#include "../bench/platform/machine.h"
#include "../bench/platform/sysfile.h"
#include "../bench/platform/tsc.h"

#define INJECTED_SKEW 10000000   /* cycles: ~4 ms at 2.6 GHz, far beyond any latency */

/* The CPUs this process may use; returns how many. */
static unsigned int usable_cpus(int *cpus, unsigned int max)
{
	cpu_set_t set;
	unsigned int n = 0;

	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	for (int c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

static void calibration_matches_libcpuid(void **state)
{
	struct machine_info m;
	double hz;

	(void)state;
	machine_identify(&m, NULL, 0);
	hz = tsc_calibrate_hz(MACHINE_CALIBRATION_S);
	if (m.tsc_hz_cpuid <= 0) {
		print_message("# libcpuid gives no TSC frequency here (no CPUID 15h/16h, no hypervisor "
			      "timing leaf, no GHz in \"%s\", OS clock %d MHz not fixed); calibrated %.0f Hz\n",
			      m.brand, m.cpu_mhz_os, hz);
		skip();
	}
	if (fabs(hz - m.tsc_hz_cpuid) > MACHINE_TSC_TOLERANCE * m.tsc_hz_cpuid)
		fail_msg("calibrated %.0f Hz, libcpuid (%s) %.0f Hz: more than %.0f%% apart", hz,
			 m.tsc_hz_cpuid_source, m.tsc_hz_cpuid, 100 * MACHINE_TSC_TOLERANCE);
}

/* Two calibrations of the same clock agree far inside the 1% warning. */
static void calibration_repeats(void **state)
{
	double a = tsc_calibrate_hz(0.01), b = tsc_calibrate_hz(0.01);

	(void)state;
	assert_true(a > 1e8 && a < 1e11);
	if (fabs(a - b) > 0.001 * a)
		fail_msg("two 10 ms calibrations: %.0f and %.0f Hz", a, b);
}

static void skew_check_measures_every_pair(void **state)
{
	int cpus[CPU_SETSIZE];
	unsigned int n = usable_cpus(cpus, CPU_SETSIZE);
	struct tsc_skew s;

	(void)state;
	if (n < 2)
		skip();
	assert_int_equal(tsc_skew_check(cpus, n, 0.02, 0, &s), 0);
	assert_false(s.aborted);
	assert_int_equal(s.cpus, n);
	assert_int_equal(s.pairs, n - 1);
	assert_int_equal(s.ref_cpu, cpus[0]);
	assert_true(s.rounds >= 32u * s.pairs);
	assert_true(s.bound > 0);
	assert_true((uint64_t)llabs(s.worst_offset) < s.bound);
	if (s.backwards)
		fail_msg("this machine's TSCs are out of order across CPUs by up to %llu cycles",
			 (unsigned long long)s.backwards_max);
}

/* A skew injected on the far CPU is reported with its size and sign. */
static void skew_check_catches_a_skew(void **state)
{
	int cpus[CPU_SETSIZE];
	unsigned int n = usable_cpus(cpus, 2);
	struct tsc_skew s;

	(void)state;
	if (n < 2)
		skip();
	for (int sign = -1; sign <= 1; sign += 2) {
		int64_t bias = sign * INJECTED_SKEW;

		assert_int_equal(tsc_skew_check(cpus, 2, 0.005, bias, &s), 0);
		assert_int_equal(s.pairs, 1);
		assert_int_equal(s.backwards, 1);
		assert_int_equal(s.worst_cpu, cpus[1]);
		/* the estimate is the bias give or take the latency asymmetry */
		if (llabs(s.worst_offset - bias) > INJECTED_SKEW / 100)
			fail_msg("injected %lld cycles, estimated %lld", (long long)bias,
				 (long long)s.worst_offset);
		assert_true(s.bound > INJECTED_SKEW);
		assert_true(s.backwards_max > INJECTED_SKEW - INJECTED_SKEW / 100);
	}
}

static void skew_check_one_cpu(void **state)
{
	int cpus[] = { 0, 0, -1 };
	struct tsc_skew s;

	(void)state;
	assert_int_equal(tsc_skew_check(cpus, 3, 0.01, 0, &s), 0);
	assert_int_equal(s.cpus, 1);
	assert_int_equal(s.pairs, 0);
	assert_int_equal(s.bound, 0);
}

static void probe_is_bounded(void **state)
{
	int cpus[CPU_SETSIZE];
	unsigned int n = usable_cpus(cpus, CPU_SETSIZE);
	struct machine_info *m = malloc(sizeof(*m));

	(void)state;
	assert_non_null(m);
	machine_probe(m, cpus, n);
	/* Nominal: 20 ms calibration + 40 ms ping-pong + identification, 25-30
	 * ms measured here.  A test asserts no timing (a loaded machine, or a
	 * sanitizer, can take many times that): the bound only catches a probe
	 * that does not end, and the figure is printed. */
	double probe_s = m->probe_s;
	bool ok = m->tsc_hz > 1e8 && m->skew.cpus == n &&
		  strlen(m->date_utc) == 20 && m->date_utc[19] == 'Z' && strlen(m->commit) > 0;

	free(m);
	printf("# machine probe took %.3f s\n", probe_s);
	if (probe_s > 10)
		fail_msg("machine probe took %.3f s: it is bounded by its timeouts", probe_s);
	assert_true(ok);
}

/* meta.csv: one comma per line, unique keys, the command line lossless. */
static void meta_lines_are_key_value(void **state)
{
	struct bench_config cfg = { .pin = "list:0,0", .lock_node = -1,
				    .cmdline = "lockbench --pin list:0,0 --dir '/tmp/a%b'" };
	struct bench_result *res = calloc(1, sizeof(*res));
	int order[] = { 0, 0 };
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	char keys[256][64];
	unsigned int nkeys = 0, warnings = 0, warning_lines = 0;

	(void)state;
	assert_non_null(res);
	assert_non_null(f);
	res->cfg = &cfg;
	res->pin_order = order;
	res->pin_order_n = 2;
	machine_identify(&res->machine, order, 2);
	machine_write_meta(res, f);
	fclose(f);
	line = strtok_r(text, "\n", &save);
	assert_string_equal(line, "key,value");
	while ((line = strtok_r(NULL, "\n", &save)) != NULL) {
		char *comma = strchr(line, ',');

		assert_non_null(comma);
		if (strchr(comma + 1, ','))
			fail_msg("two commas: %s", line);
		assert_true(comma[1] != '\0');
		*comma = '\0';
		for (unsigned int k = 0; k < nkeys; k++)
			if (strcmp(keys[k], line) == 0)
				fail_msg("key %s twice", line);
		assert_true(nkeys < 256);
		snprintf(keys[nkeys++], sizeof(keys[0]), "%s", line);
		if (strcmp(line, "cmdline") == 0)
			assert_string_equal(comma + 1, "lockbench --pin list:0%2C0 --dir '/tmp/a%25b'");
		if (strcmp(line, "pin_order") == 0)
			assert_string_equal(comma + 1, "0 0");
		if (strcmp(line, "warnings") == 0)
			warnings = (unsigned int)atoi(comma + 1);
		if (strncmp(line, "warning_", 8) == 0)
			warning_lines++;
	}
	assert_int_equal(warnings, warning_lines);
	free(text);
	free(res);
}

/* An interval of 1 s: `busy` of 1000 ticks used by others, `io_us` of
 * PSI io "some" stall (-1: no PSI), `stat` whether /proc/stat was read. */
static struct machine_noise noise_of(unsigned long long busy, double io_us, bool stat)
{
	struct machine_noise n = { .taken = true };

	n.end.t = 1;
	n.begin.stat_ok = n.end.stat_ok = stat;
	n.end.total = 1000;
	n.end.busy = busy;
	n.begin.psi_ok[MACHINE_PSI_IO] = n.end.psi_ok[MACHINE_PSI_IO] = io_us >= 0;
	n.end.psi_us[MACHINE_PSI_IO] = io_us;
	return n;
}

/* noise_busy: busy when others took more than 10% of the CPU time or some
 * task waited for I/O more than MACHINE_BUSY_IO_PRESSURE_PCT of the time. */
static void busy_rule_counts_io_pressure(void **state)
{
	char why[160] = "";
	struct machine_noise n;

	(void)state;
	n = noise_of(50, 0.05e6, true);  /* 5% others, 5% I/O */
	assert_int_equal(machine_noise_busy(&n, why, sizeof(why)), MACHINE_BUSY_NO);
	assert_true(fabs(machine_noise_pressure_pct(&n, MACHINE_PSI_IO) - 5) < 1e-9);
	n = noise_of(50, 0.15e6, true);  /* 15% I/O */
	assert_int_equal(machine_noise_busy(&n, why, sizeof(why)), MACHINE_BUSY_YES);
	assert_string_equal(why, "other processes 5.0% of the CPU time; steal 0.0%; I/O pressure 15.0%");
	n = noise_of(200, -1, true);     /* 20% others, no PSI */
	assert_int_equal(machine_noise_busy(&n, why, sizeof(why)), MACHINE_BUSY_YES);
	assert_string_equal(why, "other processes 20.0% of the CPU time; steal 0.0%; I/O pressure unavailable");
	assert_true(machine_noise_pressure_pct(&n, MACHINE_PSI_IO) < 0);
	n = noise_of(0, 0.15e6, false);  /* no /proc/stat, 15% I/O */
	assert_int_equal(machine_noise_busy(&n, why, sizeof(why)), MACHINE_BUSY_YES);
	assert_string_equal(why, "I/O pressure 15.0%");
	n = noise_of(0, 0.01e6, false);
	assert_int_equal(machine_noise_busy(&n, why, sizeof(why)), MACHINE_BUSY_UNKNOWN);
}

/* A /proc file (size 0 in stat) is read whole; a text longer than the
 * bound is no text, not half of one. */
static void sysfile_reads_whole_files_within_the_bound(void **state)
{
	char path[] = "/tmp/lbtest-sysfile-XXXXXX", want[200000];
	size_t len = 0;
	char *text;
	FILE *f;
	int fd;

	(void)state;
	text = sysfile_read("/proc/self/status", 1 << 20, &len);
	assert_non_null(text);
	assert_true(len > 0 && strlen(text) == len && strstr(text, "Name:") == text);
	free(text);
	/* Past the first buffer (64 KiB), so that it grows. */
	for (size_t i = 0; i < sizeof(want) - 1; i++)
		want[i] = (char)('a' + i % 26);
	want[sizeof(want) - 1] = '\0';
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fputs(want, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	text = sysfile_read(path, sizeof(want) - 1, &len);
	assert_non_null(text);
	assert_int_equal(len, sizeof(want) - 1);
	assert_string_equal(text, want);
	free(text);
	errno = 0;
	assert_null(sysfile_read(path, sizeof(want) - 2, &len));
	assert_int_equal(errno, EFBIG);
	errno = 0;
	assert_null(sysfile_read("/nonexistent-lockbench/x", 1024, &len));
	assert_int_equal(errno, ENOENT);
	assert_int_equal(unlink(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(calibration_matches_libcpuid),
		cmocka_unit_test(calibration_repeats),
		cmocka_unit_test(skew_check_measures_every_pair),
		cmocka_unit_test(skew_check_catches_a_skew),
		cmocka_unit_test(skew_check_one_cpu),
		cmocka_unit_test(probe_is_bounded),
		cmocka_unit_test(meta_lines_are_key_value),
		cmocka_unit_test(busy_rule_counts_io_pressure),
		cmocka_unit_test(sysfile_reads_whole_files_within_the_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
