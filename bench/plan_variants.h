/* plan_variants.h — what bench/plan_variants.c (the variants) shares with
 * bench/plan_why.c (what run-all says of them, by the same rules) and
 * bench/plan.c (`--plan variants`, which calls either): the options run-all
 * gives and the rules both apply.  Private to the three. */
#ifndef LOCKBENCH_PLAN_VARIANTS_H
#define LOCKBENCH_PLAN_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "workloads/workload.h"

#define MAX_THREAD_WORDS 64

/* What run-all measured and was asked (its variables of the same names). */
struct vopts {
	bool quick, kl, sim_only;
	const char *locks, *workloads, *threads, *duration, *dir, *skip, *warmup, *why, *kl_why;
	unsigned long ncpu, numa_nodes, sweep_drop, kernel_drop;
	FILE *out; /* where the variants go: stdout, or memory for --why */
	FILE *in;  /* the simulated section's lines: stdin if NULL (--plan budget's copy) */
};

/* WORD is one of LIST's words (blanks or commas part them). */
bool pv_in_words(const char *word, const char *list);
/* A lock, a workload or program, is asked for (--locks, --workloads). */
bool pv_wanted_lock(const struct vopts *o, const char *lock);
bool pv_wanted(const struct vopts *o, const char *name);
/* The patch experiment's locks (role WL_PATCH) or the kernel experiment's
 * (WL_KERNEL) in their order, as registry indexes; how many. */
size_t pv_table_order(const struct vopts *o, enum workload_role role, size_t *order);
/* The programs' baseline (locks.def's program-baseline role) as a
 * registry index, lock_registry_len where no lock has it. */
size_t pv_program_base(void);
/* S with its control bytes shown as '?' (text_one_line: run-all's printable), in place. */
char *pv_printable(char *s);
/* The locks a program runs under, in order; how many. */
size_t pv_program_locks(const struct vopts *o, size_t *out);
/* The sweep's and the kernel experiment's thread counts; how many. */
size_t pv_sweep_threads(const struct vopts *o, char words[][24]);
size_t pv_kernel_threads(const struct vopts *o, char words[][24]);
/* Every variant, in the order of the tables, to o->out. */
void pv_all_variants(const struct vopts *o);
/* o from `--plan variants`' OPTIONS... (NULL-ended): EXIT_OK, or one line
 * on stderr and EXIT_USAGE. */
int pv_parse(struct vopts *o, char **argv);
/* The simulated section's candidates (bench/plan_why.c), their names into
 * names in order, how many: the patch table's locks that exclude (the
 * kernel's row has no kernel to wait in there), with wants only those
 * --locks wants; the patch workloads --workloads wants. */
size_t pv_sim_locks(const struct vopts *o, bool wants, const char **names);
size_t pv_sim_workloads(const struct vopts *o, const char **names);
/* --duration's seconds for NAME (its own, else every workload's) into buf,
 * or NULL (bench/plan_variants.c). */
const char *pv_duration_of(const struct vopts *o, const char *name, char *buf, size_t size);
/* --why budget's lines to out (bench/plan_why.c). */
void pv_why_budget(struct vopts *o, FILE *out);
/* --why: what run-all says of the plan (bench/plan_why.c). */
int plan_why(struct vopts *o);
/* This lockbench with ARGS (NULL-ended), stdin and stdout /dev/null: its
 * exit status (128 + N killed by signal N), -1 where it could not start; its stderr into
 * err (its end where longer than size - 1, trailing newlines dropped) --
 * the planning's one way of running a child (bench/plan_new.c). */
int plan_child(const char *const *args, char *err, size_t size);
/* TEXT's last line (tail -n 1), within TEXT. */
char *plan_last_line(char *text);

#endif
