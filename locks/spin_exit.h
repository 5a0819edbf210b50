/*
 * spin_exit.h — why one optimistic-spin phase ended (kmutex-*), spelled once:
 * the enum the locks count into, the names lockbench writes to summary.csv as
 * SPIN_EXIT_KEY_PREFIX + name, and the column titles lbcompare shows them
 * under.  analysis/ includes this header alone (no lock code), so the key
 * names cannot drift between the writer and the reader.
 */
#ifndef LOCKBENCH_LOCKS_SPIN_EXIT_H
#define LOCKBENCH_LOCKS_SPIN_EXIT_H

#define SPIN_EXIT_KEY_PREFIX "spin_exit_"

/*
 * X(ENUM, name, title), one line per reason, in the order reports show them:
 *   ACQUIRED           the spinner took the lock
 *   OWNER_CHANGED      another waiter took it first (the 2.6.36 fix sleeps here)
 *   OWNER_NOT_RUNNING  the owner is off its CPU: spinning cannot help
 *   NEED_RESCHED       this spinner was preempted meanwhile (sched oracle)
 *   BUDGET             the explicit (or userspace default) spin budget ran out
 *   QUEUE_GAVE_UP      left the MCS/OSQ spinner queue before reaching its head
 */
#define SPIN_EXIT_REASONS(X)                                           \
	X(ACQUIRED, "acquired", "acquired")                            \
	X(OWNER_CHANGED, "owner_changed", "owner changed")             \
	X(OWNER_NOT_RUNNING, "owner_not_running", "owner not running") \
	X(NEED_RESCHED, "need_resched", "need resched")                \
	X(BUDGET, "budget", "budget spent")                            \
	X(QUEUE_GAVE_UP, "queue_gave_up", "left queue")

enum spin_exit {
#define SPIN_EXIT_ENUM(id, name, title) SPIN_EXIT_##id,
	SPIN_EXIT_REASONS(SPIN_EXIT_ENUM)
#undef SPIN_EXIT_ENUM
	SPIN_EXIT_NR
};

#endif
