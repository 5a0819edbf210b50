/*
 * test_sim_profile.c — sim/profile.c, the machine profile's loader: a good
 * file loads with every value where it belongs and the scheduler's tunables
 * scaled as the kernel scales them; each kind of bad line (unknown,
 * duplicate, out of range, not a number, missing, without a source, a bad
 * distribution) is refused with one line naming the file, the line and the
 * key; a link or FIFO is never read; sim_profile_find() finds a profile by
 * name; every profile shipped in sim/profiles/ loads; and the seed's
 * machine (nehalem-ex-64.profile) has its shape and a source on every
 * constant, each one's removal refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../common/safefile.h"
#include "../sim/profile.h"

static char base[4096];

/* A complete profile: every key, two scheduler models, one workload. */
static const char *const good[] = {
	"# a test profile",
	"name = testbox",
	"",
	"topology.sockets = 2  # cited: test",
	"topology.cores_per_socket = 4  # cited: test",
	"topology.threads_per_core = 2  # cited: test",
	"clock.tsc_ghz = 2.5  # measured: test, today, here",
	"lat.hit = 4  # cited: test",
	"lat.smt = 30  # cited: test",
	"lat.socket = 100  # cited: test",
	"lat.remote = 300.5  # cited: test",
	"lat.remote_2hop = 420  # derived: test, from lat.remote by a rule",
	"lat.mem = 250  # cited: test",
	"lat.atomic_extra = 0  # cited: test",
	"lat.pause = 40  # cited: test",
	"kernel.wake_latency_ns = 40000  # cited: test",
	"kernel.context_switch_ns = 3000  # cited: test",
	"kernel.syscall_ns = 900  # cited: test",
	"kernel.futex_wait_ns = 300  # cited: test",
	"kernel.futex_wake_ns = 100  # cited: test",
	"sched.model = cfs-2.6.34",
	"sched.cfs-2.6.34.hz = 250  # cited: test",
	"sched.cfs-2.6.34.latency_ns = 5000000  # cited: test",
	"sched.cfs-2.6.34.min_granularity_ns = 1000000  # cited: test",
	"sched.cfs-2.6.34.wakeup_granularity_ns = 1000000  # cited: test",
	"sched.cfs-2.6.34.nr_latency = 5  # cited: test",
	"sched.cfs-2.6.34.scaling = log  # cited: test",
	"sched.cfs-2.6.34.scaling_cap = 8  # cited: test",
	"sched.eevdf-6.x.hz = 1000  # cited: test",
	"sched.eevdf-6.x.min_granularity_ns = 700000  # cited: test",
	"sched.eevdf-6.x.scaling = log  # cited: test",
	"sched.eevdf-6.x.scaling_cap = 8  # cited: test",
	"workload.creat.hold = 0%:1000 50%:2000 90%:4000 100%:10000  # measured: test",
	"workload.creat.gap = 100%:50  # measured: test",
	"workload.creat.outside_ns = 1500  # measured: test",
	"workload.fpos.hold = 100%:2000  # measured: test",
	"workload.fpos.gap = 100%:40  # measured: test",
	"workload.fpos.acq_per_op = 3  # measured: test",
};
#define N_GOOD (sizeof(good) / sizeof(good[0]))

static int setup_base(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(base, sizeof(base), "%s/lbtest-profile-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	alarm(60);   /* a FIFO opened by mistake would block: the alarm ends the test */
	return mkdtemp(base) ? 0 : -1;
}

static int teardown_base(void **state)
{
	char cmd[4200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* good[], line KEYLINE (1-based; 0: none) replaced by REPL (NULL: dropped),
 * EXTRA appended (NULL: nothing), written to base/NAME; its path in out. */
static void write_variant(char *out, size_t len, const char *name, unsigned keyline, const char *repl,
			  const char *extra)
{
	FILE *f;

	snprintf(out, len, "%s/%s", base, name);
	f = fopen(out, "w");
	assert_non_null(f);
	for (unsigned i = 0; i < N_GOOD; i++)
		if (i + 1 != keyline)
			fprintf(f, "%s\n", good[i]);
		else if (repl)
			fprintf(f, "%s\n", repl);
	if (extra)
		fprintf(f, "%s\n", extra);
	assert_int_equal(fclose(f), 0);
}

/* The 1-based line of good[] that starts with KEY " =". */
static unsigned line_of(const char *key)
{
	size_t n = strlen(key);

	for (unsigned i = 0; i < N_GOOD; i++)
		if (strncmp(good[i], key, n) == 0 && strncmp(good[i] + n, " =", 2) == 0)
			return i + 1;
	fail_msg("no line for %s in good[]", key);
	return 0;
}

static void a_good_profile_loads(void **state)
{
	struct sim_profile p;
	char path[4200], err[512];

	(void)state;
	write_variant(path, sizeof(path), "good.profile", 0, NULL, NULL);
	assert_int_equal(sim_profile_load(path, &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "testbox");
	assert_int_equal(p.sockets, 2);
	assert_int_equal(p.cores_per_socket, 4);
	assert_int_equal(p.threads_per_core, 2);
	assert_true(p.tsc_ghz == 2.5 && p.lat_hit == 4 && p.lat_smt == 30 && p.lat_socket == 100);
	assert_true(p.lat_remote == 300.5 && p.lat_mem == 250 && p.atomic_extra == 0 && p.pause_cycles == 40);
	assert_true(p.lat_remote_2hop == 420);   /* a `# derived:` source is one */
	assert_true(p.wake_latency_ns == 40000 && p.context_switch_ns == 3000 && p.syscall_ns == 900);
	assert_true(p.futex_wait_ns == 300 && p.futex_wake_ns == 100);
	/* 16 CPUs, counted up to 8: 2.6.34's factor 1 + ilog2(8) = 4 */
	assert_string_equal(p.sched_model, "cfs-2.6.34");
	assert_int_equal(p.hz, 250);
	assert_int_equal(p.sched_nr_latency, 5);
	assert_true(p.sched_latency_ns == 20e6 && p.sched_min_granularity_ns == 4e6 &&
		    p.sched_wakeup_granularity_ns == 4e6);
	assert_int_equal(p.n_sched, 2);
	assert_int_equal(p.n_workloads, 2);
	assert_string_equal(p.workloads[0].name, "creat");
	assert_true(p.workloads[0].outside_ns == 1500);
	assert_string_equal(p.workloads[1].name, "fpos");
	assert_true(isnan(p.workloads[1].outside_ns));   /* not given */
	assert_int_equal(p.workloads[1].acq_per_op, 3);
	assert_int_equal(p.workloads[0].acq_per_op, 0);  /* not given: one */
	assert_int_equal(p.workloads[0].hold.n, 4);
	assert_true(p.workloads[0].hold.p[1] == 0.5 && p.workloads[0].hold.ns[3] == 10000);
	assert_true(p.workloads[0].gap.n == 1 && p.workloads[0].gap.p[0] == 1 && p.workloads[0].gap.ns[0] == 50);
	assert_non_null(sim_profile_workload(&p, "creat"));
	assert_null(sim_profile_workload(&p, "counter"));
	/* lat.remote_2hop is optional: left out, it is NAN */
	write_variant(path, sizeof(path), "no2hop.profile", line_of("lat.remote_2hop"), NULL, NULL);
	assert_int_equal(sim_profile_load(path, &p, err, sizeof(err)), 0);
	assert_true(!sim_profile_has(p.lat_remote_2hop) && p.lat_remote == 300.5);
	/* topology.links is optional: without it no socket pair is linked */
	assert_false(p.has_links);
	write_variant(path, sizeof(path), "links.profile", 0, NULL, "topology.links = 0-1  # cited: test");
	assert_int_equal(sim_profile_load(path, &p, err, sizeof(err)), 0);
	assert_true(p.has_links && p.socket_links[0] == 0x2 && p.socket_links[1] == 0x1);
}

static void scheduler_models_scale_as_the_kernel_does(void **state)
{
	struct sim_profile p;
	char path[4200], err[512];

	(void)state;
	write_variant(path, sizeof(path), "sched.profile", 0, NULL, NULL);
	assert_int_equal(sim_profile_load(path, &p, err, sizeof(err)), 0);
	assert_int_equal(sim_profile_use_sched(&p, "cfs-2.6.34", 1, err, sizeof(err)), 0);
	assert_true(p.sched_latency_ns == 5e6);
	assert_int_equal(sim_profile_use_sched(&p, "cfs-2.6.34", 2, err, sizeof(err)), 0);
	assert_true(p.sched_latency_ns == 10e6 && p.sched_min_granularity_ns == 2e6);
	assert_int_equal(sim_profile_use_sched(&p, "cfs-2.6.34", 7, err, sizeof(err)), 0);
	assert_true(p.sched_latency_ns == 15e6);
	assert_int_equal(sim_profile_use_sched(&p, "cfs-2.6.34", 128, err, sizeof(err)), 0);
	assert_true(p.sched_latency_ns == 20e6);
	assert_int_equal(sim_profile_use_sched(&p, "eevdf-6.x", 64, err, sizeof(err)), 0);
	assert_string_equal(p.sched_model, "eevdf-6.x");
	assert_int_equal(p.hz, 1000);
	assert_true(fabs(p.sched_min_granularity_ns - 2.8e6) < 1e-6);
	assert_true(isnan(p.sched_latency_ns) && isnan(p.sched_wakeup_granularity_ns));
	assert_int_equal(sim_profile_use_sched(&p, "o1-2.6.22", 2, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "'o1-2.6.22' is not in the profile"));
	assert_int_equal(sim_sched_factor(SIM_SCALE_NONE, 8, 64), 1);
	assert_int_equal(sim_sched_factor(SIM_SCALE_LINEAR, 8, 64), 8);
	assert_int_equal(sim_sched_factor(SIM_SCALE_LOG, 8, 4), 3);
}

struct bad {
	const char *key;      /* the line of good[] replaced (NULL: none) */
	const char *repl;     /* its replacement (NULL: the line dropped) */
	const char *extra;    /* a line appended (NULL: none) */
	int line;             /* the line the message names: >0 that line, -1 good[]'s line of KEY,
	                         -2 the appended one, 0 none ("FILE: KEY: ...") */
	const char *msg_key;  /* the key the message names */
	const char *why;      /* a part of the message after it */
};

static const struct bad bads[] = {
	{ NULL, NULL, "lat.bogus = 3  # cited: x", -2, "lat.bogus", "unknown key" },
	{ NULL, NULL, "sched.cfs-2.6.34.quantum_ns = 3  # cited: x", -2, "sched.cfs-2.6.34.quantum_ns", "unknown key" },
	{ NULL, NULL, "workload.creat.think = 100%:3  # cited: x", -2, "workload.creat.think", "unknown key" },
	{ NULL, NULL, "lat.hit = 5  # cited: x", -2, "lat.hit", "given twice (first on line 8)" },
	{ NULL, NULL, "workload.creat.gap = 100%:9  # cited: x", -2, "workload.creat.gap", "given twice" },
	{ "topology.sockets", "topology.sockets = 0  # cited: x", NULL, -1, "topology.sockets", "0 out of range" },
	{ "lat.hit", "lat.hit = 0  # cited: x", NULL, -1, "lat.hit", "out of range (above 0" },
	{ "lat.mem", "lat.mem = -3  # cited: x", NULL, -1, "lat.mem", "out of range" },
	{ "kernel.syscall_ns", "kernel.syscall_ns = 2e9  # cited: x", NULL, -1, "kernel.syscall_ns", "out of range" },
	{ "sched.cfs-2.6.34.hz", "sched.cfs-2.6.34.hz = 5  # cited: x", NULL, -1, "sched.cfs-2.6.34.hz", "out of range" },
	{ "lat.mem", "lat.mem = 12abc  # cited: x", NULL, -1, "lat.mem", "'12abc' is not a number" },
	{ "lat.mem", "lat.mem = nan  # cited: x", NULL, -1, "lat.mem", "is not a number" },
	{ "lat.mem", "lat.mem = inf  # cited: x", NULL, -1, "lat.mem", "is not a number" },
	{ "lat.mem", "lat.mem = 0x10  # cited: x", NULL, -1, "lat.mem", "is not a number" },
	{ "lat.mem", "lat.mem = 1e999  # cited: x", NULL, -1, "lat.mem", "is not a number" },
	{ "topology.sockets", "topology.sockets = 1.5  # cited: x", NULL, -1, "topology.sockets", "not a whole number" },
	{ "topology.sockets", "topology.sockets = 99999999999999999999  # cited: x", NULL, -1, "topology.sockets",
	  "out of range" },
	{ "sched.cfs-2.6.34.scaling", "sched.cfs-2.6.34.scaling = cubic  # cited: x", NULL, -1,
	  "sched.cfs-2.6.34.scaling", "not none, log or linear" },
	{ "lat.hit", "lat.hit = 4", NULL, -1, "lat.hit", "no source" },
	{ "lat.hit", "lat.hit = 4  # measured:", NULL, -1, "lat.hit", "no source" },
	{ "lat.hit", "lat.hit = 4  # guessed: about that", NULL, -1, "lat.hit", "no source" },
	{ "lat.hit", "lat.hit = 4  # derived:", NULL, -1, "lat.hit", "no source" },
	{ "lat.remote_2hop", "lat.remote_2hop = 420", NULL, -1, "lat.remote_2hop", "no source" },
	{ "lat.remote_2hop", "lat.remote_2hop = 0  # cited: x", NULL, -1, "lat.remote_2hop", "out of range" },
	{ "lat.hit", "lat.hit = 4  # a comment, not a source", NULL, -1, "lat.hit", "no source" },
	{ "sched.cfs-2.6.34.hz", "sched.cfs-2.6.34.hz = 250", NULL, -1, "sched.cfs-2.6.34.hz", "no source" },
	{ "workload.creat.gap", "workload.creat.gap = 100%:50", NULL, -1, "workload.creat.gap", "no source" },
	{ "kernel.syscall_ns", NULL, NULL, 0, "kernel.syscall_ns", "missing" },
	{ "lat.smt", NULL, NULL, 0, "lat.smt", "missing" },
	{ "name", NULL, NULL, 0, "name", "missing" },
	{ "sched.eevdf-6.x.hz", NULL, NULL, 0, "sched", "sched.eevdf-6.x.hz missing" },
	{ "workload.creat.gap", NULL, NULL, 0, "workload", "workload.creat.gap missing" },
	{ NULL, NULL, "workload.counter.outside_ns = 5  # cited: x", 0, "workload", "workload.counter.hold missing" },
	{ "workload.creat.outside_ns", "workload.creat.outside_ns = -5  # cited: x", NULL, -1,
	  "workload.creat.outside_ns", "out of range" },
	{ "workload.creat.outside_ns", "workload.creat.outside_ns = 5", NULL, -1, "workload.creat.outside_ns",
	  "no source" },
	{ NULL, NULL, "workload.creat.outside_ns = 5  # cited: x", -2, "workload.creat.outside_ns", "given twice" },
	{ "workload.fpos.acq_per_op", "workload.fpos.acq_per_op = 0  # cited: x", NULL, -1, "workload.fpos.acq_per_op",
	  "out of range" },
	{ "workload.fpos.acq_per_op", "workload.fpos.acq_per_op = 2.5  # cited: x", NULL, -1,
	  "workload.fpos.acq_per_op", "not a whole number" },
	{ "workload.fpos.acq_per_op", "workload.fpos.acq_per_op = 3", NULL, -1, "workload.fpos.acq_per_op",
	  "no source" },
	{ "sched.model", "sched.model = o1-2.6.22", NULL, 0, "sched.model", "'o1-2.6.22' is not in the profile" },
	{ "workload.creat.hold", "workload.creat.hold = 50%:100 40%:200 100%:300  # cited: x", NULL, -1,
	  "workload.creat.hold", "does not follow" },
	{ "workload.creat.hold", "workload.creat.hold = 50%:300 90%:200 100%:400  # cited: x", NULL, -1,
	  "workload.creat.hold", "does not follow" },
	{ "workload.creat.hold", "workload.creat.hold = 50%:100 90%:200  # cited: x", NULL, -1,
	  "workload.creat.hold", "the last point is 90%" },
	{ "workload.creat.hold", "workload.creat.hold = 50:100 100:200  # cited: x", NULL, -1,
	  "workload.creat.hold", "is not PERCENT%:NS" },
	{ "workload.creat.hold", "workload.creat.hold = 101%:5  # cited: x", NULL, -1, "workload.creat.hold",
	  "out of range" },
	{ "workload.creat.hold", "workload.Creat.hold = 100%:5  # cited: x", NULL, -1, "workload.Creat.hold",
	  "not a key" },
	{ "lat.pause", "lat.pause 40  # cited: x", NULL, -1, "lat.pause", "not KEY = VALUE" },
	{ "lat.pause", "lat.pause =   # cited: x", NULL, -1, "lat.pause", "no value" },
	{ "name", "name = Test Box", NULL, -1, "name", "is not a name" },
	{ NULL, NULL, "topology.links = 0-1", -2, "topology.links", "no source" },
	{ NULL, NULL, "topology.links = 0-1 1-0  # cited: x", -2, "topology.links", "link 1-0 given twice" },
	{ NULL, NULL, "topology.links = 0_1  # cited: x", -2, "topology.links", "'0_1' is not SOCKET-SOCKET" },
	{ NULL, NULL, "topology.links = 1-1  # cited: x", -2, "topology.links", "two different sockets" },
	{ NULL, NULL, "topology.links = 0-2  # cited: x", 0, "topology.links", "socket 2, of 2 sockets" },
	{ "topology.sockets", "topology.sockets = 4  # cited: x", "topology.links = 0-1 1-2 2-3  # cited: x", 0,
	  "topology.links", "sockets 0 and 3 are more than two hops apart" },
	{ "lat.remote_2hop", NULL, "topology.links = 0-1  # cited: x", 0, "lat.remote_2hop",
	  "missing (topology.links needs it)" },
};

static void each_bad_line_is_refused_naming_file_line_and_key(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		const struct bad *b = &bads[i];
		unsigned keyline = b->key ? line_of(b->key) : 0;
		char path[4200], err[512], want[4400];
		struct sim_profile p;
		int line = b->line == -1 ? (int)keyline : b->line == -2 ? (int)N_GOOD + (b->repl || !b->key ? 1 : 0)
			   : b->line;

		write_variant(path, sizeof(path), "bad.profile", keyline, b->repl, b->extra);
		err[0] = '\0';
		if (sim_profile_load(path, &p, err, sizeof(err)) != -1)
			fail_msg("case %zu (%s): loaded", i, b->repl ? b->repl : b->extra ? b->extra : b->key);
		if (line > 0)
			snprintf(want, sizeof(want), "%s:%d: %s: ", path, line, b->msg_key);
		else
			snprintf(want, sizeof(want), "%s: %s: ", path, b->msg_key);
		if (strncmp(err, want, strlen(want)) != 0 || !strstr(err, b->why) || strchr(err, '\n'))
			fail_msg("case %zu: got \"%s\", want \"%s...%s\"", i, err, want, b->why);
	}
}

static void only_a_regular_file_is_read(void **state)
{
	char path[4200], link[4300], fifo[4300], nul[4300], err[512];
	struct sim_profile p;
	FILE *f;

	(void)state;
	write_variant(path, sizeof(path), "real.profile", 0, NULL, NULL);
	snprintf(link, sizeof(link), "%s/link.profile", base);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(sim_profile_load(link, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "link.profile: "));
	snprintf(fifo, sizeof(fifo), "%s/fifo.profile", base);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(sim_profile_load(fifo, &p, err, sizeof(err)), -1);   /* without blocking */
	assert_non_null(strstr(err, "a FIFO"));
	snprintf(nul, sizeof(nul), "%s/nul.profile", base);
	assert_non_null(f = fopen(nul, "w"));
	fwrite("name = x\0\n", 1, 10, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(sim_profile_load(nul, &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "NUL byte"));
	assert_int_equal(sim_profile_load(base, &p, err, sizeof(err)), -1);
	assert_int_equal(sim_profile_load("", &p, err, sizeof(err)), -1);
}

static void a_profile_is_found_by_name(void **state)
{
	char path[4200], err[512], cwd[4096];
	struct sim_profile p;
	int rc;

	(void)state;
	write_variant(path, sizeof(path), "testbox.profile", 0, NULL, NULL);
	assert_int_equal(setenv(SIM_PROFILE_DIR_ENV, base, 1), 0);
	assert_int_equal(sim_profile_find("testbox", &p, err, sizeof(err)), 0);
	assert_string_equal(p.name, "testbox");
	assert_int_equal(sim_profile_find(path, &p, err, sizeof(err)), 0);   /* a path */
	assert_int_equal(sim_profile_find("no-such-box", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "sim profile 'no-such-box': no no-such-box.profile in"));
	assert_int_equal(sim_profile_find("Test Box", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "not a profile name"));
	assert_int_equal(sim_profile_find(".hidden", &p, err, sizeof(err)), -1);
	assert_int_equal(unsetenv(SIM_PROFILE_DIR_ENV), 0);
	/* the shipped one, from sim/profiles/ above this binary (build/tests/),
	 * wherever the current directory is */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(base), 0);
	rc = sim_profile_find("here", &p, err, sizeof(err));
	assert_int_equal(chdir(cwd), 0);
	if (rc != 0)
		fail_msg("%s", err);
	assert_string_equal(p.name, "here");
}

static void a_distribution_is_read_between_its_points(void **state)
{
	struct sim_dist d = { 3, { 100, 200, 1000 }, { 0, 0.5, 1 } };

	(void)state;
	assert_true(sim_dist_at(&d, 0) == 100);
	assert_true(sim_dist_at(&d, 0.25) == 150);
	assert_true(sim_dist_at(&d, 0.5) == 200);
	assert_true(sim_dist_at(&d, 0.75) == 600);
	assert_true(sim_dist_at(&d, 1) == 1000);
	assert_true(sim_profile_has(3) && !sim_profile_has(NAN));
}

#define SEED_PROFILE "sim/profiles/nehalem-ex-64.profile"

/* The seed's machine (docs/sim.md, "The seed's machine"): its shape, and
 * 2.6.34's tunables scaled for its 128 CPUs as update_sysctl() scales them. */
static void the_seed_profile_holds_the_seed_machine(const struct sim_profile *p)
{
	assert_string_equal(p->name, "nehalem-ex-64");
	assert_true(p->sockets == 8 && p->cores_per_socket == 8 && p->threads_per_core == 2);
	assert_string_equal(p->sched_model, "cfs-2.6.34");
	assert_int_equal(p->hz, 1000);
	assert_true(p->sched_latency_ns == 20e6 && p->sched_min_granularity_ns == 4e6 &&
		    p->sched_wakeup_granularity_ns == 4e6);
	/* every kind of transfer given, nearer ones cheaper */
	assert_true(sim_profile_has(p->lat_smt) && sim_profile_has(p->lat_remote_2hop));
	assert_true(p->lat_hit <= p->lat_smt && p->lat_smt < p->lat_socket && p->lat_socket < p->lat_remote &&
		    p->lat_remote < p->lat_remote_2hop);
	assert_non_null(sim_profile_workload(p, "creat"));
	assert_non_null(sim_profile_workload(p, "fpos"));
	assert_non_null(sim_profile_workload(p, "counter"));
	/* its links: three to other sockets each, the rest two hops */
	assert_true(p->has_links);
	for (unsigned s = 0; s < p->sockets; s++)
		assert_int_equal(__builtin_popcountll(p->socket_links[s]), 3);
}

/* Run from the tree's top (make test, prove): sim/profiles/ is there. */
static void every_shipped_profile_loads(void **state)
{
	struct sf_dir d;
	char err[512];
	char **names;
	unsigned n = 0;
	bool here = false, seed = false;

	(void)state;
	assert_int_equal(sf_dir_open(&d, "sim/profiles", err, sizeof(err)), 0);
	assert_non_null(names = sf_names(&d, "*.profile"));
	for (char **nm = names; *nm; nm++, n++) {
		char path[600];
		struct sim_profile p;

		snprintf(path, sizeof(path), "sim/profiles/%s", *nm);
		if (sim_profile_load(path, &p, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		here |= strcmp(*nm, "here.profile") == 0;
		if (strcmp(*nm, "nehalem-ex-64.profile") == 0) {
			seed = true;
			the_seed_profile_holds_the_seed_machine(&p);
		}
	}
	sf_names_free(names);
	sf_dir_close(&d);
	assert_true(n >= 2 && here && seed);
}

/* SRC (the shipped seed profile) with line SKIP's source comment cut off,
 * written to base/nosrc.profile; its path in out. */
static void write_without_source(const char *src, unsigned skip, char *out, size_t len)
{
	char line[4096];
	unsigned no = 0;
	FILE *in = fopen(src, "r"), *f;

	assert_non_null(in);
	snprintf(out, len, "%s/nosrc.profile", base);
	assert_non_null(f = fopen(out, "w"));
	while (fgets(line, sizeof(line), in)) {
		char *hash = strchr(line, '#');

		if (++no == skip && hash && hash != line)
			strcpy(hash, "\n");
		fputs(line, f);
	}
	assert_int_equal(fclose(in), 0);
	assert_int_equal(fclose(f), 0);
}

/* Every constant of the seed's profile carries a source, and the loader
 * refuses that very profile when any one of them loses it. */
static void each_seed_constant_without_its_source_is_refused(void **state)
{
	char line[4096], path[4200], err[512], want[4400];
	struct sim_profile p;
	unsigned no = 0, constants = 0;
	FILE *in = fopen(SEED_PROFILE, "r");

	(void)state;
	assert_non_null(in);
	assert_int_equal(sim_profile_load(SEED_PROFILE, &p, err, sizeof(err)), 0);
	while (fgets(line, sizeof(line), in)) {
		char key[128];

		no++;
		if (line[0] == '#' || sscanf(line, "%127s =", key) != 1 || !strchr(line, '=') ||
		    strcmp(key, "name") == 0 || strcmp(key, "sched.model") == 0)
			continue;
		constants++;
		write_without_source(SEED_PROFILE, no, path, sizeof(path));
		if (sim_profile_load(path, &p, err, sizeof(err)) != -1)
			fail_msg("line %u (%s) loaded without its source", no, key);
		snprintf(want, sizeof(want), "%s:%u: %s: no source", path, no, key);
		if (strncmp(err, want, strlen(want)) != 0)
			fail_msg("line %u (%s): got \"%s\", want \"%s...\"", no, key, err, want);
	}
	assert_int_equal(fclose(in), 0);
	assert_true(constants >= 30);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_good_profile_loads, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(scheduler_models_scale_as_the_kernel_does, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(each_bad_line_is_refused_naming_file_line_and_key, setup_base,
						teardown_base),
		cmocka_unit_test_setup_teardown(only_a_regular_file_is_read, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(a_profile_is_found_by_name, setup_base, teardown_base),
		cmocka_unit_test(a_distribution_is_read_between_its_points),
		cmocka_unit_test(every_shipped_profile_loads),
		cmocka_unit_test_setup_teardown(each_seed_constant_without_its_source_is_refused, setup_base,
						teardown_base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
