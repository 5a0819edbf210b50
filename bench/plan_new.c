/* plan_new.c — what a new or resumed run-all run asks of this machine
 * (issue 43: run-all's registry facts, CPU and NUMA counts and kernel-lock
 * probe until then), and the one way the planning starts this lockbench as
 * a child (the kernel-lock probe here, plan_programs.c's --exec check,
 * plan_sim.c's probes and pilots).
 *
 * `lockbench --plan run-env` prints run-env's text (results/README.md,
 * "run-env"): the machine's CPUs and NUMA nodes (bench/platform/topology.c,
 * as --topology sees them, LOCKBENCH_TOPOLOGY_XML included), the locks and
 * workloads, whether kernel lock capture works here and why not, and the
 * locks' and workloads' roles (locks/locks.def, workloads.def) that the
 * report reads instead of any name. */
#define _GNU_SOURCE
#include "plan.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/config.h"
#include "platform/topology.h"
#include "../locks/lock.h"
#include "plan_variants.h"

/* ---- this lockbench as a child ---- */

/* Appends r bytes of chunk to err (n so far, room size - 1), keeping its
 * end when it overflows: a line's last words are what the caller reads. */
static void keep_tail(char *err, size_t size, size_t *n, const char *chunk, size_t r)
{
	if (r >= size - 1) {
		memcpy(err, chunk + r - (size - 1), size - 1);
		*n = size - 1;
		return;
	}
	if (*n + r > size - 1) {
		size_t drop = *n + r - (size - 1);

		memmove(err, err + drop, *n - drop);
		*n -= drop;
	}
	memcpy(err + *n, chunk, r);
	*n += r;
}

/* The child's side: stdin and stdout /dev/null, stderr the pipe. */
static void child_exec(const char *exe, const char *const *args, int wfd)
{
	size_t n = 0;

	while (args[n])
		n++;
	const char *argv[n + 2];
	int null = open("/dev/null", O_RDWR);

	argv[0] = exe;
	memcpy(argv + 1, args, (n + 1) * sizeof(*argv));
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(wfd, 2) < 0)
		_exit(127);
	execv(exe, (char *const *)argv);
	_exit(127);
}

int plan_child(const char *const *args, char *err, size_t size)
{
	char exe[PATH_MAX], chunk[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1), r;
	int fd[2], status;
	size_t n = 0;
	pid_t pid;

	*err = '\0';
	if (len <= 0 || pipe(fd) != 0)
		return -1;
	exe[len] = '\0';
	fflush(NULL);
	if ((pid = fork()) == 0) {
		close(fd[0]);
		child_exec(exe, args, fd[1]);
	}
	close(fd[1]);
	/* Read to the end, whatever its length: a child blocked on a full pipe
	 * would never exit. */
	while (pid > 0 && (r = read(fd[0], chunk, sizeof(chunk))) > 0)
		keep_tail(err, size, &n, chunk, (size_t)r);
	close(fd[0]);
	err[n] = '\0';
	/* As `$(...)` takes it: trailing newlines dropped. */
	while (n && err[n - 1] == '\n')
		err[--n] = '\0';
	if (pid <= 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	/* A signal's end as the shell's $? says it. */
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

char *plan_last_line(char *text)
{
	char *nl = strrchr(text, '\n');

	return nl ? nl + 1 : text;
}

/* ---- run-env ---- */

/* Kernel lock capture, asked once of this lockbench: the registry's first
 * workload, one thread, the kernel baseline (no lock to wait on).  Where it
 * cannot run (not root, no BTF, ...) why into why, its stderr's last line
 * less lockbench's prefix; false then. */
static bool kernel_locks_work(const char *base, char *why, size_t size)
{
	static const char prefix[] = "lockbench: --kernel-locks: ";
	const char *args[] = { "--kernel-locks", "-l", base, "-w",
			       workload_registry_len ? workload_registry[0]->name : "", "-t", "1", "-d", "0.01",
			       "--warmup", "0", NULL };
	int rc = plan_child(args, why, size);
	char *last = plan_last_line(why);

	memmove(why, last, strlen(last) + 1);
	if (rc == 0)
		return true;
	if (!strncmp(why, prefix, sizeof(prefix) - 1))
		memmove(why, why + sizeof(prefix) - 1, strlen(why + sizeof(prefix) - 1) + 1);
	return false;
}

/* The first lock with role, or "". */
static const char *role_lock(unsigned int role)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_plans[i].roles & role)
			return lock_registry[i]->name;
	return "";
}

/* KEY= and each lock with role, a blank after each. */
static void print_role_locks(const char *key, unsigned int role)
{
	printf("%s=", key);
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_plans[i].roles & role)
			printf("%s ", lock_registry[i]->name);
	printf("\n");
}

/* KEY= and the workloads of role, blank-separated. */
static void print_role_workloads(const char *key, enum workload_role role)
{
	const char *sep = "";

	printf("%s=", key);
	for (size_t i = 0; i < workload_registry_len; i++)
		if (workload_plans[i].role == role)
			printf("%s%s", sep, workload_registry[i]->name), sep = " ";
	printf("\n");
}

/* The patch table's columns 1 and 2 (the patch pair), blank-separated: none
 * where no lock has column 1. */
static void print_patch_pair(void)
{
	const char *sep = "";

	printf("PATCH_PAIR=");
	for (unsigned int column = 1; column <= 2; column++)
		for (size_t i = 0; i < lock_registry_len; i++)
			if (lock_plans[i].column == column) {
				printf("%s%s", sep, lock_registry[i]->name), sep = " ";
				break;
			}
	printf("\n");
}

/* The machine's CPUs and NUMA nodes as --topology counts them. */
static bool machine_counts(unsigned int *cpus, unsigned int *nodes)
{
	char err[512];
	const char *xml = getenv(TOPOLOGY_XML_ENV);
	hwloc_topology_t topo;

	if (xml && *xml)
		topology_use_xml(xml);
	if (!(topo = topology_get(err, sizeof(err)))) {
		fprintf(stderr, "lockbench: --plan run-env: %s\n", err);
		return false;
	}
	*cpus = topology_count(topo, HWLOC_OBJ_PU);
	*nodes = topology_count(topo, HWLOC_OBJ_NUMANODE);
	return true;
}

static bool has_patch_pair(void)
{
	for (size_t i = 0; i < lock_registry_len; i++)
		if (lock_plans[i].column == 1)
			return true;
	return false;
}

int plan_run_env_main(char **argv)
{
	char why[4096];
	unsigned int cpus, nodes;

	(void)argv;
	if (!machine_counts(&cpus, &nodes))
		return EXIT_RUNTIME;
	/* KL_WHY as the probe wrote it: run-all shows it through printable. */
	bool kl = kernel_locks_work(role_lock(LOCK_R_KERNEL_BASE), why, sizeof(why));

	printf("NCPU=%u\nNUMA_NODES=%u\nALL_LOCKS=", cpus, nodes);
	for (size_t i = 0; i < lock_registry_len; i++)
		printf("%s ", lock_registry[i]->name);
	printf("\nALL_WORKLOADS=");
	for (size_t i = 0; i < workload_registry_len; i++)
		printf("%s ", workload_registry[i]->name);
	printf("\nKL=%s\nKL_WHY=%s\n", kl ? "--kernel-locks" : "", why);
	print_role_workloads("KERNEL_WORKLOADS", WL_KERNEL);
	print_role_locks("NUMA_ONLY_LOCKS", LOCK_R_NUMA_ONLY);
	if (has_patch_pair()) {
		print_patch_pair();
		print_role_workloads("PATCH_WORKLOADS", WL_PATCH);
		printf("PROGRAM_BASE=%s\nKERNEL_BASE=%s\n", role_lock(LOCK_R_PROGRAM_BASE),
		       role_lock(LOCK_R_KERNEL_BASE));
		print_role_locks("CK_LOCKS", LOCK_R_CK);
	}
	return fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
}
