/* plan.h — `lockbench --plan`: run-all's planning, from the registries and
 * the plan files, in C (issue 43). */
#ifndef LOCKBENCH_PLAN_H
#define LOCKBENCH_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* `lockbench --plan WHAT ARGS...` (argv[0] is "--plan"): prints what run-all
 * plans on stdout; a bad argument or an unreadable file is one line on
 * stderr and EXIT_USAGE.  WHAT:
 *   rounds VARIANTS REPS SEED   plan.txt's lines (plan_rounds)
 *   seconds FILE TIMES LANES    what FILE's runs cost, in seconds
 *   cost PLAN REPS LANES SIM DIR DIR_WHY SIM_WHY KERNEL_WHY
 *                               run-all's lines on what PLAN costs: the
 *                               runs and REPS rounds, KERNEL_WHY, the
 *                               simulated runs (on SIM, LANES at a time),
 *                               SIM_WHY's reasons, the file workloads' DIR
 *   check OPTION VALUE          run-all's --locks, --workloads, --duration or
 *                               --threads VALUE is good: silent; else
 *                               run-all's line
 *   variants OPTIONS...         variants.txt's lines (bench/plan_variants.c);
 *                               with --why dropped|kernel|budget, what
 *                               run-all says of them
 *   sim OPTIONS... [--sim PROFILE [--sim-cpus N]] [--no-sim]
 *                               the simulated section: its probes, sizing
 *                               and variant lines (bench/plan_sim.c)
 *   programs OPTIONS...         the programs run-all cannot run here and why
 *                               (bench/plan_programs.c)
 *   budget MINUTES REPS LANES SECTION OPTIONS...
 *                               --budget's trimming (bench/plan_budget.c)
 *   preflight PLAN BOUND        the instant run per workload before the
 *                               first run: a line each, tab-separated,
 *                               NAME FATAL BOUND SHORT ARGS (FATAL: the
 *                               exit statuses that stop run-all; BOUND: a
 *                               program's seconds, else -; SHORT: the
 *                               instant run's options, or -; BOUND given
 *                               empty: 20 times the line's -d, >= 120)
 *   run-env                     this machine's run-env text: its CPUs and
 *                               NUMA nodes, the registries' names and roles,
 *                               kernel lock capture (bench/plan_new.c) */
int plan_main(int argc, char **argv);

/* `variants`' argv: OPTIONS..., NULL-ended: bench/plan_variants.c's
 * variants, or with --why bench/plan_why.c's lines (in bench/plan.c). */
int plan_variants_main(char **argv);

/* `sim`'s argv: variants' OPTIONS... and --sim PROFILE, --sim-cpus N,
 * --no-sim, NULL-ended (bench/plan_sim.c). */
int plan_sim_main(char **argv);

/* `programs`' argv: variants' OPTIONS..., NULL-ended: the programs run-all
 * cannot run here, "NAME WHY" a line (bench/plan_programs.c). */
int plan_programs_main(char **argv);

/* `budget` (bench/plan_budget.c): MINUTES, REPS and LANES checked;
 * droppable: SECTION is sim; options: `variants`' OPTIONS..., NULL-ended. */
int plan_budget(unsigned long minutes, unsigned long reps, unsigned long lanes, bool droppable, char **options);

/* `run-env` (bench/plan_new.c): argv empty. */
int plan_run_env_main(char **argv);

/* `check`'s argv: OPTION VALUE (bench/plan_check.c). */
int plan_check_main(char **argv);

/* Writes REPS rounds of the n variants (`NAME ARGS...` lines) to out: round
 * r runs each once as `NAME-rR ARGS... --seed R` (a simulated one, with
 * --sim: --sim-seed R), in an order shuffled anew from seed and r. */
void plan_rounds(FILE *out, char *const *variants, size_t n, unsigned int reps, uint32_t seed);

/* The seconds one line of a plan costs (bench/plan_budget.c): its -d and --warmup and
 * PLAN_RUN_OVERHEAD_S; a simulated run's (*sim set: --sim) its CPU time
 * over lanes. */
double plan_line_seconds(const char *line, unsigned int lanes, bool *sim);

/* What n plan lines cost, TIMES over, to the nearest second: the real
 * runs' seconds and the simulated runs' over lanes (plan_line_seconds). */
long long plan_cost(char *const *lines, size_t n, unsigned int lanes, unsigned int times);

#endif
