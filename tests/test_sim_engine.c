/*
 * test_sim_engine.c — the simulator's coroutines, cost model, event order,
 * determinism and parked spins (sim/coro.c, sim/coherence.c, sim/engine.c,
 * sim/pr_sim.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../sim/coro.h"
#include "sim_test.h"

/* ---- coroutines ---- */

static struct coro co_main, co_a;
static unsigned co_steps;

static void co_body(void *arg)
{
	unsigned *n = arg;

	for (;;) {
		(*n)++;
		coro_switch(&co_a, &co_main);
	}
}

/* Live values across the switch stay in callee-saved registers at -O2. */
static void coroutines_switch_and_keep_registers(void **state)
{
	volatile uint64_t a = 0x1111, b = 0x2222, c = 0x3333, d = 0x4444;
	uint64_t x = a, y = b, z = c, w = d;

	(void)state;
	assert_int_equal(coro_init(&co_a, 64 * 1024, co_body, &co_steps), 0);
	for (unsigned i = 0; i < 1000; i++) {
		coro_switch(&co_main, &co_a);
		x += 1;
		y ^= x;
		z += y;
		w -= z;
	}
	assert_int_equal(co_steps, 1000);
	{
		uint64_t x2 = 0x1111, y2 = 0x2222, z2 = 0x3333, w2 = 0x4444;

		for (unsigned i = 0; i < 1000; i++) {
			x2 += 1;
			y2 ^= x2;
			z2 += y2;
			w2 -= z2;
		}
		assert_true(x == x2 && y == y2 && z == z2 && w == w2);
	}
	coro_free(&co_a);
}

/* ---- the cost model ---- */

static const struct sim_topology topo = { 8, 2, 2, NULL };

static struct sim_costs test_costs(void)
{
	return (struct sim_costs){ .hit = 4, .smt = 30, .socket = 100, .remote = 300, .mem = 200,
				   .atomic_extra = 20, .pause = 40 };
}

static void costs_follow_the_line(void **state)
{
	struct sim_costs c = test_costs();
	struct sim_line l = { .owner = -1 };

	(void)state;
	assert_int_equal(sim_coherence_cost(&l, 0, SIM_RMW, &topo, &c), 200 + 20);  /* from memory */
	assert_int_equal(sim_coherence_cost(&l, 0, SIM_RMW, &topo, &c), 4 + 20);    /* modified here */
	assert_int_equal(sim_coherence_cost(&l, 1, SIM_LOAD, &topo, &c), 30);       /* SMT sibling */
	assert_int_equal(sim_coherence_cost(&l, 2, SIM_LOAD, &topo, &c), 100);      /* nearest sharer: another core */
	assert_int_equal(sim_coherence_cost(&l, 4, SIM_LOAD, &topo, &c), 300);      /* another socket */
	assert_int_equal(sim_coherence_cost(&l, 4, SIM_LOAD, &topo, &c), 4);        /* shared here */
	/* a store invalidates every copy: the farthest (CPU 0, remote) sets it */
	assert_int_equal(sim_coherence_cost(&l, 5, SIM_STORE, &topo, &c), 300);
	assert_int_equal(l.owner, 5);
	assert_int_equal(sim_coherence_cost(&l, 5, SIM_STORE, &topo, &c), 4);
	assert_int_equal(sim_coherence_cost(&l, 6, SIM_RMW, &topo, &c), 100 + 20); /* same socket */
}

/* ---- ping-pong ---- */

struct pingpong {
	uint32_t turn __attribute__((aligned(64)));
	unsigned rounds;
	uint64_t done_at[2];
};

static void pp_body(struct pingpong *pp, uint32_t me)
{
	for (uint32_t i = 0; i < pp->rounds; i++) {
		while (pr_load(&pp->turn, PR_ACQUIRE) != 2 * i + me)
			pr_relax();
		pr_store(&pp->turn, 2 * i + me + 1, PR_RELEASE);
	}
	pp->done_at[me] = sim_now();
}

static void pp_a(void *arg)
{
	pp_body(arg, 0);
}

static void pp_b(void *arg)
{
	pp_body(arg, 1);
}

/*
 * Two threads on two cores of a socket hand one line back and forth: each
 * hand-over is the writer's store, which invalidates the reader's copy, and
 * the reader's load, which fetches the modified line: two transfers, each of
 * lat_socket, the load's request sent as the invalidation reaches the reader
 * (half a transfer after the store) and served when the line has reached
 * the writer: 1.5 lat_socket from the store to the reader's going on
 * (events.c, line_in_flight; calibrate.c's lat.* is two thirds of such a
 * way).  Whether `cost` charges that, in count and in time, is what the
 * test asks (the threads start within sim_spawn's microsecond).
 */
static void nothing(void *arg)
{
	(void)arg;
}

static bool pingpong_as_modelled(sim_cost_fn *cost, unsigned rounds)
{
	struct sim_profile p = sim_test_profile();
	char err[256];
	struct sim_config cfg = { .profile = &p, .ncpus = 4, .seed = 1, .semantics = SIM_USERSPACE,
				  .cost = cost };
	struct pingpong pp = { .turn = 0, .rounds = rounds };
	struct sim *s = sim_create(&cfg, err, sizeof(err));
	bool ok;

	assert_non_null(s);
	/* Placed by id: 0 on CPU 0, 1 (which returns at once) on its SMT
	 * sibling, 2 on CPU 2, another core of the socket. */
	assert_int_equal(sim_spawn(s, pp_a, &pp), 0);
	assert_int_equal(sim_spawn(s, nothing, NULL), 1);
	assert_int_equal(sim_spawn(s, pp_b, &pp), 2);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	/* Two per hand-over (2 x rounds of them), and the first touches. */
	if (getenv("SIM_TEST_VERBOSE"))
		printf("transfers %llu events %llu parks %llu done %llu\n", (unsigned long long)sim_stats(s)->transfers,
		       (unsigned long long)sim_stats(s)->events, (unsigned long long)sim_stats(s)->parks,
		       (unsigned long long)pp.done_at[1]);
	/* 2 x rounds hand-overs of two transfers, and the first touch from
	 * memory; each hand-over takes 1.5 transfers' time, and at most one
	 * spin pass (a hit and a pause) more before the reader sees it. */
	ok = sim_stats(s)->transfers == 4 * (uint64_t)rounds + 1 &&
	     pp.done_at[1] >= 2 * rounds * 3 * (uint64_t)p.lat_socket / 2 &&
	     pp.done_at[1] <= 2 * rounds * (3 * (uint64_t)p.lat_socket / 2 + (uint64_t)(p.lat_hit + p.pause_cycles)) +
				       sim_cycles(s, 1000) + (uint64_t)p.lat_mem;
	sim_destroy(s);
	return ok;
}

static void pingpong_costs_two_transfers_a_hand_over(void **state)
{
	(void)state;
	assert_true(pingpong_as_modelled(NULL, 200));
}

/* The planted fault: a load that finds the line modified elsewhere is
 * charged as a hit (its state still changes). */
static uint64_t transfer_as_hit(struct sim_line *l, int cpu, enum sim_access kind, const struct sim_topology *t,
				const struct sim_costs *c)
{
	bool elsewhere = kind == SIM_LOAD && l->owner >= 0 && l->owner != cpu;
	uint64_t cost = sim_coherence_cost(l, cpu, kind, t, c);

	return elsewhere ? c->hit : cost;
}

static void a_transfer_charged_as_a_hit_fails_the_ping_pong(void **state)
{
	(void)state;
	assert_false(pingpong_as_modelled(transfer_as_hit, 200));
}

/* ---- a transfer's two halves ---- */

struct snoop {
	uint64_t v __attribute__((aligned(64)));
	uint64_t seen, store4_at;
};

static void work_until(uint64_t t)
{
	uint64_t now = sim_now();

	if (t > now)
		sim_work(t - now);
}

/* The holder: its stores at 10000 and 10030 fall before the reader's
 * request (sent at 10001) reaches it, 10051; its store at 10070 after. */
static void snoop_holder(void *arg)
{
	struct snoop *sn = arg;

	pr_store(&sn->v, 1, PR_RELAXED);
	work_until(10000);
	pr_store(&sn->v, 2, PR_RELAXED);
	work_until(10030);
	pr_store(&sn->v, 3, PR_RELAXED);
	work_until(10070);
	pr_store(&sn->v, 4, PR_RELAXED);
	sn->store4_at = sim_now();
}

static void snoop_reader(void *arg)
{
	struct snoop *sn = arg;

	work_until(10001);
	sn->seen = pr_load(&sn->v, PR_RELAXED);
}

/*
 * A load of a line modified in another core takes effect when its request
 * reaches the holder, half a transfer (lat_socket 100) after it is sent:
 * it sees the holder's stores until then (3, not 2, the value when it was
 * sent), and the holder's store after it waits for the line to come back.
 */
static void a_transfer_sees_what_the_holder_wrote_until_the_request_reached_it(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct snoop sn = { 0 };
	struct sim *s = sim_test_new(&p, 4, 1, SIM_USERSPACE);

	(void)state;
	assert_non_null(s);
	assert_int_equal(sim_spawn(s, snoop_holder, &sn), 0);
	assert_int_equal(sim_spawn(s, nothing, NULL), 1);
	assert_int_equal(sim_spawn(s, snoop_reader, &sn), 2);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	sim_destroy(s);
	assert_int_equal(sn.seen, 3);
	/* the store at 10070 is no hit: its request reaches the reader at
	 * 10120 (after the line's arrival there, 10101), the line is back at
	 * 10170 */
	assert_int_equal(sn.store4_at, 10070 + (uint64_t)p.lat_socket);
}

/* ---- the sockets' links (topology.links) ---- */

/* Four sockets of one CPU in a ring, 0-1-2-3-0: 0 and 2, 1 and 3 are two
 * hops apart. */
static const uint64_t ring4[4] = { 0x2 | 0x8, 0x1 | 0x4, 0x2 | 0x8, 0x1 | 0x4 };

static void a_transfer_two_hops_away_costs_lat_remote_2hop(void **state)
{
	struct sim_costs c = test_costs();
	const struct sim_topology linked = { 4, 1, 1, ring4 }, unlinked = { 4, 1, 1, NULL };
	struct sim_line l = { .owner = -1 };

	(void)state;
	c.remote_2hop = 450;
	assert_int_equal(sim_distance(0, 1, &linked, &c), 300);
	assert_int_equal(sim_distance(0, 2, &linked, &c), 450);
	assert_int_equal(sim_distance(3, 1, &linked, &c), 450);
	assert_int_equal(sim_distance(3, 0, &linked, &c), 300);
	/* no link map: every other socket one hop, as before */
	assert_int_equal(sim_distance(0, 2, &unlinked, &c), 300);
	sim_coherence_cost(&l, 0, SIM_RMW, &linked, &c);
	assert_int_equal(sim_coherence_cost(&l, 2, SIM_RMW, &linked, &c), 450 + 20);  /* two hops */
	assert_int_equal(sim_coherence_cost(&l, 1, SIM_LOAD, &linked, &c), 300);      /* one hop */
	/* a store invalidates both copies: the farther (CPU 1, two hops from 3) */
	assert_int_equal(sim_coherence_cost(&l, 3, SIM_STORE, &linked, &c), 450);
}

/* A transfer's cost is the nearest (load) or farthest (store) copy's
 * sim_distance: checked against every sharer's distance taken one by one,
 * over random lines of a 256-CPU machine (4 sockets in a ring, 32 cores of
 * 2 threads), with costs out of their usual order so that no class's
 * latency can stand for another's. */
static uint64_t brute_cost(const struct sim_line *l, int cpu, bool nearest, const struct sim_topology *t,
			   const struct sim_costs *c)
{
	uint64_t best = UINT64_MAX, worst = 0;

	for (int o = 0; o < (int)t->ncpus; o++)
		if (o != cpu && sim_line_has(l, o)) {
			uint64_t d = sim_distance(cpu, o, t, c);

			best = d < best ? d : best;
			worst = d > worst ? d : worst;
		}
	if (worst == 0)
		return sim_line_has(l, cpu) ? c->hit : c->mem;
	return nearest ? best : worst;
}

static void a_transfer_costs_its_copies_distance_one_by_one(void **state)
{
	const struct sim_topology big = { 256, 32, 2, ring4 };
	struct sim_costs c = test_costs();
	uint64_t rng = 41;

	(void)state;
	c.smt = 350, c.socket = 90, c.remote = 500, c.remote_2hop = 120;
	for (int trial = 0; trial < 4000; trial++) {
		struct sim_line l = { .owner = -1 };
		unsigned density = 1 + trial % 64;   /* 1 in `density` CPUs shares it */
		int cpu;

		for (unsigned w = 0; w < SIM_CPU_WORDS; w++)
			for (unsigned b = 0; b < 64; b++) {
				rng = rng * 6364136223846793005u + 1442695040888963407u;
				if ((rng >> 33) % density == 0)
					l.sharers[w] |= UINT64_C(1) << b;
			}
		rng = rng * 6364136223846793005u + 1442695040888963407u;
		cpu = (int)((rng >> 33) % 256);
		struct sim_line st = l;
		uint64_t want_load = brute_cost(&l, cpu, true, &big, &c);
		uint64_t want_store = brute_cost(&l, cpu, false, &big, &c);

		assert_int_equal(sim_coherence_cost(&l, cpu, SIM_LOAD, &big, &c),
				 sim_line_has(&st, cpu) ? c.hit : want_load);
		assert_int_equal(sim_coherence_cost(&st, cpu, SIM_STORE, &big, &c), want_store);
	}
}

/* The engine charges what the profile's links say: the largest cost of a
 * ping-pong between CPU 0 and CPU `peer`, one CPU a socket. */
static uint64_t worst_charged;

static uint64_t recording_cost(struct sim_line *l, int cpu, enum sim_access kind, const struct sim_topology *t,
			       const struct sim_costs *c)
{
	uint64_t cost = sim_coherence_cost(l, cpu, kind, t, c);

	worst_charged = cost > worst_charged ? cost : worst_charged;
	return cost;
}

static uint64_t pingpong_worst(bool links, int peer)
{
	struct sim_profile p = sim_test_profile();
	char err[256];
	struct sim_config cfg = { .profile = &p, .ncpus = 4, .seed = 1, .semantics = SIM_USERSPACE,
				  .cost = recording_cost };
	struct pingpong pp = { .turn = 0, .rounds = 20 };
	struct sim *s;

	p.sockets = 4;
	p.cores_per_socket = p.threads_per_core = 1;
	p.lat_remote_2hop = 450;
	p.has_links = links;
	memcpy(p.socket_links, ring4, sizeof(ring4));
	assert_non_null(s = sim_create(&cfg, err, sizeof(err)));
	worst_charged = 0;
	/* placed by id: thread i on CPU i */
	for (int i = 0; i < 4; i++)
		assert_int_equal(sim_spawn(s, i == 0 ? pp_a : i == peer ? pp_b : nothing, &pp), i);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	sim_destroy(s);
	return worst_charged;
}

static void the_engine_charges_the_profiles_hops(void **state)
{
	(void)state;
	assert_int_equal(pingpong_worst(true, 2), 450);
	assert_int_equal(pingpong_worst(true, 1), 300);
	assert_int_equal(pingpong_worst(false, 2), 300);  /* without topology.links: today's */
}

/* ---- determinism ---- */

struct contend {
	uint32_t word __attribute__((aligned(64)));
	uint64_t counter;
	uint64_t until;
};

static void contend_body(void *arg)
{
	struct contend *c = arg;

	while (sim_now() < c->until) {
		tlock_tas_lock(&c->word);
		c->counter++;
		sim_work(200);
		tlock_tas_unlock(&c->word);
		sim_work(1000 + 100 * (uint64_t)sim_self());
	}
}

/* 12 threads on 4 CPUs contending a lock for 3 ms: its trace hash. */
static uint64_t contend_trace(uint64_t seed, enum sim_semantics sem, uint64_t *counter)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, 4, seed, sem);
	struct contend c = { .word = 0, .counter = 0, .until = 0 };
	uint64_t h;

	assert_non_null(s);
	c.until = sim_cycles(s, 3e6);
	for (int i = 0; i < 12; i++)
		assert_int_equal(sim_spawn(s, contend_body, &c), i);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	h = sim_stats(s)->trace_hash;
	*counter = c.counter;
	sim_destroy(s);
	return h;
}

static void the_same_seed_gives_the_same_events(void **state)
{
	uint64_t n1, n2, n3;

	(void)state;
	for (int sem = SIM_KERNEL; sem <= SIM_USERSPACE; sem++) {
		uint64_t a = contend_trace(7, sem, &n1), b = contend_trace(7, sem, &n2), c = contend_trace(8, sem, &n3);

		assert_true(n1 > 100);
		assert_true(a == b && n1 == n2);
		assert_true(a != c);
	}
}

/* ---- parked spins ---- */

struct waiter {
	uint32_t flag __attribute__((aligned(64)));
	uint64_t work;
	uint64_t stored_at, seen_at;
};

static void w_spin(void *arg)
{
	struct waiter *w = arg;

	while (!pr_load(&w->flag, PR_ACQUIRE))
		pr_relax();
	w->seen_at = sim_now();
}

static void w_set(void *arg)
{
	struct waiter *w = arg;

	sim_work(w->work);
	w->stored_at = sim_now();
	pr_store(&w->flag, 1, PR_RELEASE);
}

/* A spinner on CPU 0 waits for CPU 2's store after `work` cycles. */
static void spin_until_store(uint64_t work, struct waiter *w, struct sim_stats *st, const struct sim_profile *p)
{
	struct sim *s = sim_test_new(p, 4, 3, SIM_USERSPACE);

	assert_non_null(s);
	*w = (struct waiter){ .flag = 0, .work = work };
	assert_int_equal(sim_spawn(s, w_spin, w), 0);
	assert_int_equal(sim_spawn(s, nothing, NULL), 1);
	assert_int_equal(sim_spawn(s, w_set, w), 2);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	*st = *sim_stats(s);
	sim_destroy(s);
}

/*
 * The spin ends when it would have: the store's invalidation reaches the
 * spinner half a transfer after it, the spinner's load is served when the
 * line has reached the writer and takes a transfer: 1.5 transfers, then
 * within one pass (a hit and a pause) more; and the
 * events do not grow with the spin's length (ticks aside: one per CPU per
 * millisecond, spin or not).
 */
static void a_parked_spin_ends_on_time_in_few_events(void **state)
{
	struct sim_profile p = sim_test_profile();
	uint64_t pass = (uint64_t)(p.lat_hit + p.pause_cycles), xfer = (uint64_t)p.lat_socket;
	uint64_t works[] = { 100000, 10000000 };
	uint64_t events[2];

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct waiter w;
		struct sim_stats st;

		spin_until_store(works[i], &w, &st, &p);
		assert_true(w.seen_at >= w.stored_at + 3 * xfer / 2);
		assert_true(w.seen_at <= w.stored_at + 3 * xfer / 2 + pass);
		assert_true(st.parked_passes >= works[i] / pass / 2);
		events[i] = st.events - st.ticks;
	}
	assert_true(events[1] <= events[0] + 2);
}

struct budget {
	uint32_t flag __attribute__((aligned(64)));
	uint64_t budget, deadline, left_at;
};

/* Spins on a flag nobody sets, with a budget (pr_clock_past, as
 * oracle_spin_over() asks). */
static void budget_spin(void *arg)
{
	struct budget *b = arg;

	b->deadline = pr_clock() + b->budget;
	while (!pr_load(&b->flag, PR_ACQUIRE) && !pr_clock_past(b->deadline))
		pr_relax();
	b->left_at = sim_now();
}

/* A parked spin with a budget leaves at the first pass past its deadline,
 * in as few events for a long budget as for a short one. */
static void a_parked_spin_leaves_at_its_deadline(void **state)
{
	struct sim_profile p = sim_test_profile();
	uint64_t pass = (uint64_t)(p.lat_hit + p.pause_cycles), events[2];
	uint64_t budgets[] = { 50000, 50000000 };

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct sim *s = sim_test_new(&p, 1, 3, SIM_USERSPACE);
		struct budget b = { .flag = 0, .budget = budgets[i] };

		assert_non_null(s);
		assert_int_equal(sim_spawn(s, budget_spin, &b), 0);
		assert_int_equal(sim_run(s, sim_cycles(s, 1e9)), 0);
		assert_true(b.left_at > b.deadline);
		assert_true(b.left_at <= b.deadline + pass + (uint64_t)p.lat_hit);
		events[i] = sim_stats(s)->events - sim_stats(s)->ticks;
		sim_destroy(s);
	}
	assert_true(events[1] <= events[0] + 2);
}

static void lost(void *arg)
{
	pr_futex_wait(arg, 0);
}

static void spin_on(void *arg)
{
	while (!pr_load((uint32_t *)arg, PR_ACQUIRE))
		pr_relax();
}

/* A sleeper nobody wakes, and a spinner on a line nobody will write: the
 * run says so, at the next tick, instead of ticking for ever. */
static void a_run_that_cannot_go_on_says_so(void **state)
{
	struct sim_profile p = sim_test_profile();
	uint32_t word = 0;

	(void)state;
	for (int spinner = 0; spinner <= 1; spinner++) {
		struct sim *s = sim_test_new(&p, 2, 3, SIM_KERNEL);

		assert_non_null(s);
		assert_int_equal(sim_spawn(s, lost, &word), 0);
		if (spinner)
			assert_int_equal(sim_spawn(s, spin_on, &word), 1);
		assert_int_equal(sim_run(s, sim_cycles(s, 1e9)), -1);
		assert_true(sim_stats(s)->ticks <= 2 * 2);
		sim_destroy(s);
	}
}

/* ---- a line's queue ---- */

struct queued {
	uint64_t x __attribute__((aligned(64)));
	uint64_t seen;
};

static void until(uint64_t t)
{
	if (sim_now() < t)
		sim_work(t - sim_now());
}

/* Swaps 1 in (a transfer from memory), then stores 2 (a hit: the line is
 * its, modified). */
static void q_writer(void *arg)
{
	struct queued *q = arg;

	until(10000);
	(void)pr_xchg(&q->x, 1, PR_ACQ_REL);
	pr_store(&q->x, 2, PR_RELEASE);
}

/* Asks for the line while the writer's transfer is in flight. */
static void q_reader(void *arg)
{
	struct queued *q = arg;

	until(10050);
	q->seen = pr_load(&q->x, PR_ACQUIRE);
}

/* The reader's transfer is served after the writer's, and the writer's next
 * store is a hit made by then: the reader sees 2, never the 1 that stood
 * when it asked. */
static void a_queued_access_sees_what_was_served_before_it(void **state)
{
	struct sim_profile p = sim_test_profile();
	struct sim *s = sim_test_new(&p, 4, 3, SIM_KERNEL);
	struct queued q = { .x = 0 };

	(void)state;
	assert_non_null(s);
	assert_int_equal(sim_spawn(s, q_writer, &q), 0);
	assert_int_equal(sim_spawn(s, nothing, NULL), 1);
	assert_int_equal(sim_spawn(s, q_reader, &q), 2);
	assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
	assert_int_equal(q.seen, 2);
	sim_destroy(s);
}

/* ---- refusals ---- */

static void a_bad_machine_is_refused_in_one_line(void **state)
{
	struct sim_profile p = sim_test_profile(), bad;
	char err[256];
	struct sim_config cfg = { .profile = &bad, .ncpus = 4 };
	struct sim *s;

	(void)state;
	bad = p;
	strcpy(bad.sched_model, "bfs-2.6.32");
	assert_null(sim_create(&cfg, err, sizeof(err)));
	assert_non_null(strstr(err, "bfs-2.6.32"));
	bad = p;
	bad.hz = 0;
	assert_null(sim_create(&cfg, err, sizeof(err)));
	assert_non_null(strstr(err, "hz"));
	/* A latency the profiled machine could not measure (NAN) is refused
	 * only where the simulated machine needs it: CPUs 0-3 are one socket. */
	bad = p;
	bad.lat_remote = NAN;
	s = sim_create(&cfg, err, sizeof(err));
	assert_non_null(s);
	sim_destroy(s);
	cfg.ncpus = 5;
	assert_null(sim_create(&cfg, err, sizeof(err)));
	assert_non_null(strstr(err, "lat_remote"));
	/* One socket of two cores grows to 64 cores on that socket: no
	 * other socket, no lat_remote needed. */
	bad.sockets = 1;
	bad.threads_per_core = 1;
	bad.lat_smt = NAN;
	cfg.ncpus = 64;
	s = sim_create(&cfg, err, sizeof(err));
	assert_non_null(s);
	sim_destroy(s);
	bad = p;
	cfg.ncpus = SIM_MAX_CPUS + 1;
	assert_null(sim_create(&cfg, err, sizeof(err)));
	assert_non_null(strstr(err, "CPUs"));
	assert_null(strchr(err, '\n'));
}

/* ---- a shipped profile ---- */

/* sim/profiles/here.profile (one socket, no SMT: no lat_smt, no lat_remote)
 * makes a machine of 2 CPUs and one of 64 (its socket grown), its CFS
 * tunables scaled for each; one of its figures missing is refused. */
static void the_shipped_profile_makes_machines(void **state)
{
	struct sim_profile p;
	char err[512];

	(void)state;
	if (sim_profile_find("here", &p, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	for (unsigned n = 2; n <= 64; n *= 32) {
		struct sim_config cfg = { .profile = &p, .ncpus = n, .seed = 1, .semantics = SIM_KERNEL };
		struct sim *s = sim_create(&cfg, err, sizeof(err));
		struct contend c = { .word = 0, .counter = 0, .until = 0 };

		if (!s)
			fail_msg("%s", err);
		c.until = sim_cycles(s, 1e6);
		for (unsigned i = 0; i < n; i++)
			assert_int_equal(sim_spawn(s, contend_body, &c), (int)i);
		assert_int_equal(sim_run(s, UINT64_MAX / 2), 0);
		assert_true(c.counter > n);
		sim_destroy(s);
	}
	p.lat_socket = NAN;
	{
		struct sim_config cfg = { .profile = &p, .ncpus = 2 };

		assert_null(sim_create(&cfg, err, sizeof(err)));
		assert_non_null(strstr(err, "lat_socket"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(coroutines_switch_and_keep_registers),
		cmocka_unit_test(costs_follow_the_line),
		cmocka_unit_test(a_transfer_two_hops_away_costs_lat_remote_2hop),
		cmocka_unit_test(the_engine_charges_the_profiles_hops),
		cmocka_unit_test(pingpong_costs_two_transfers_a_hand_over),
		cmocka_unit_test(a_transfer_charged_as_a_hit_fails_the_ping_pong),
		cmocka_unit_test(a_transfer_sees_what_the_holder_wrote_until_the_request_reached_it),
		cmocka_unit_test(the_same_seed_gives_the_same_events),
		cmocka_unit_test(a_parked_spin_ends_on_time_in_few_events),
		cmocka_unit_test(a_parked_spin_leaves_at_its_deadline),
		cmocka_unit_test(a_run_that_cannot_go_on_says_so),
		cmocka_unit_test(a_queued_access_sees_what_was_served_before_it),
		cmocka_unit_test(a_bad_machine_is_refused_in_one_line),
		cmocka_unit_test(a_transfer_costs_its_copies_distance_one_by_one),
		cmocka_unit_test(the_shipped_profile_makes_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
