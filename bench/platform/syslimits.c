/*
 * syslimits.c — RLIMIT_NPROC, the cgroup pids controller and RLIMIT_NOFILE,
 * read from /proc and /sys before a run starts its threads (syslimits.h).
 * Anything unreadable counts as no limit: the check refuses only what it
 * has seen, and a start that fails anyway is still caught by the harness.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "syslimits.h"

#define CAP_SYS_ADMIN_BIT 21
#define CAP_SYS_RESOURCE_BIT 24

/* ---- RLIMIT_NPROC ---- */

/* The kernel does not apply RLIMIT_NPROC to root, nor to a process with
 * CAP_SYS_RESOURCE or CAP_SYS_ADMIN (kernel/fork.c, copy_process()). */
static bool nproc_exempt(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	uint64_t caps = 0;

	if (getuid() == 0)
		return true;
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %" SCNx64, &caps) == 1)
			break;
	fclose(f);
	return (caps >> CAP_SYS_ADMIN_BIT & 1) || (caps >> CAP_SYS_RESOURCE_BIT & 1);
}

/* Threads of one /proc/PID whose real uid is `uid`; 0 for anyone else's. */
static long tasks_of_process(const char *pid, uid_t uid)
{
	char path[300], line[256];
	unsigned long real_uid = ~0ul;
	long threads = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/status", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;       /* gone meanwhile */
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %lu", &real_uid) == 1 && real_uid != uid)
			break;
		if (sscanf(line, "Threads: %ld", &threads) == 1)
			break;
	}
	fclose(f);
	return real_uid == uid ? threads : 0;
}

/* Tasks the real user has now (what RLIMIT_NPROC counts); -1 if unknown. */
static long user_tasks(void)
{
	DIR *proc = opendir("/proc");
	struct dirent *e;
	long n = 0;

	if (!proc)
		return -1;
	while ((e = readdir(proc)) != NULL)
		if (isdigit((unsigned char)e->d_name[0]))
			n += tasks_of_process(e->d_name, getuid());
	closedir(proc);
	return n;
}

/* ---- the cgroup pids controller ---- */

struct pids_limit {
	bool found;             /* a pids controller directory was found */
	long long max;          /* tightest pids.max, -1: "max" everywhere */
	long long current;      /* pids.current where that max is */
	char dir[2048];         /* where that max is (or the leaf, when none) */
};

/* Our cgroup's path in the pids hierarchy: v1's "N:...pids...:PATH" line, else
 * v2's "0::PATH".  *v2 says which. */
static bool pids_cgroup_path(char *path, size_t len, bool *v2)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[1024], v2path[1024] = "";
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *p = ctl ? strchr(ctl + 1, ':') : NULL;

		if (!p)
			continue;
		*ctl = '\0';
		*p++ = '\0';
		p[strcspn(p, "\n")] = '\0';
		if (strcmp(line, "0") == 0 && ctl[1] == '\0')
			snprintf(v2path, sizeof(v2path), "%s", p);
		for (char *tok = strtok(ctl + 1, ","); tok && !found; tok = strtok(NULL, ","))
			found = strcmp(tok, "pids") == 0;
		if (found)
			snprintf(path, len, "%s", p);
	}
	fclose(f);
	*v2 = !found;
	if (!found && v2path[0])
		snprintf(path, len, "%s", v2path);
	return found || v2path[0];
}

/* Where that hierarchy is mounted, and the mount's root within it. */
static bool pids_mount(bool v2, char *mnt, size_t mntlen, char *root, size_t rootlen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[2048];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char r[1024], m[1024], *dash = strstr(line, " - "), type[64], src[512], opts[1024] = "";

		if (!dash || sscanf(line, "%*s %*s %*s %1023s %1023s", r, m) != 2 ||
		    sscanf(dash + 3, "%63s %511s %1023s", type, src, opts) < 2)
			continue;
		if (v2)
			found = strcmp(type, "cgroup2") == 0;
		else if (strcmp(type, "cgroup") == 0)
			for (char *tok = strtok(opts, ","); tok && !found; tok = strtok(NULL, ","))
				found = strcmp(tok, "pids") == 0;
		if (found) {
			snprintf(mnt, mntlen, "%s", m);
			snprintf(root, rootlen, "%s", r);
		}
	}
	fclose(f);
	return found;
}

/* A pids.max or pids.current: the number, -1 for "max", -2 if unreadable. */
static long long read_pids_file(const char *dir, const char *name)
{
	char path[2100], text[32] = "";
	long long v = -2;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "re");
	if (!f)
		return -2;
	if (fgets(text, sizeof(text), f))
		v = strncmp(text, "max", 3) == 0 ? -1 : strtoll(text, NULL, 10);
	fclose(f);
	return v;
}

/* The tightest pids.max from our cgroup up to the hierarchy's root. */
static void pids_limit_read(struct pids_limit *pl)
{
	char path[1024], mnt[1024], root[1024], dir[2048];
	const char *rel;
	size_t top;
	bool v2;

	memset(pl, 0, sizeof(*pl));
	pl->max = -1;
	if (!pids_cgroup_path(path, sizeof(path), &v2) || !pids_mount(v2, mnt, sizeof(mnt), root, sizeof(root)))
		return;
	rel = path;
	if (strcmp(root, "/") != 0 && strncmp(path, root, strlen(root)) == 0)
		rel = path + strlen(root);
	top = strlen(mnt);
	if (snprintf(dir, sizeof(dir), "%s%s", mnt, strcmp(rel, "/") ? rel : "") >= (int)sizeof(dir))
		return;
	pl->found = true;
	snprintf(pl->dir, sizeof(pl->dir), "%s", dir);
	for (;;) {
		long long max = read_pids_file(dir, "pids.max"), cur = read_pids_file(dir, "pids.current");
		char *slash;

		if (max >= 0 && cur >= 0 && (pl->max < 0 || max - cur < pl->max - pl->current)) {
			pl->max = max;
			pl->current = cur;
			snprintf(pl->dir, sizeof(pl->dir), "%s", dir);
		}
		slash = strrchr(dir, '/');
		if (!slash || (size_t)(slash - dir) < top)
			break;
		*slash = '\0';
	}
}

/* ---- RLIMIT_NOFILE ---- */

/* Descriptors open now (the directory stream's own aside); 3 if unknown. */
static long open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	long n = 0;

	if (!d)
		return 3;
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;
}

/* ---- the checks ---- */

static int check_nproc(const struct limits_need *run, char *err, size_t errlen)
{
	struct rlimit rl;
	long tasks;

	if (getrlimit(RLIMIT_NPROC, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || nproc_exempt())
		return 0;
	tasks = user_tasks();
	if (tasks < 0 || (unsigned long long)tasks + run->threads <= rl.rlim_cur)
		return 0;
	snprintf(err, errlen, "cannot start %u threads: RLIMIT_NPROC is %llu processes and threads for "
		 "user %u, who has %ld already (raise it with ulimit -u, or lower -t)", run->threads,
		 (unsigned long long)rl.rlim_cur, (unsigned int)getuid(), tasks);
	return -1;
}

static int check_pids(const struct limits_need *run, char *err, size_t errlen)
{
	struct pids_limit pl;

	pids_limit_read(&pl);
	if (pl.max < 0 || pl.current + run->threads <= pl.max)
		return 0;
	snprintf(err, errlen, "cannot start %u threads: cgroup pids.max is %lld in %s, with %lld in use "
		 "(lower -t)", run->threads, pl.max, pl.dir, pl.current);
	return -1;
}

static int check_nofile(const struct limits_need *run, char *err, size_t errlen)
{
	unsigned long long need, open_now = (unsigned long long)open_fds();
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	need = open_now + run->fds_shared + (unsigned long long)run->fds_per_thread * run->threads +
	       LIMITS_FD_RESERVE;
	if (need <= rl.rlim_cur)
		return 0;
	/* The soft limit is only a default (1024, for select()'s sake, which
	 * lockbench does not use): up to the hard limit it is ours to raise. */
	if (rl.rlim_max == RLIM_INFINITY || need <= rl.rlim_max) {
		struct rlimit raised = { .rlim_cur = need, .rlim_max = rl.rlim_max };

		if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
			return 0;
	}
	snprintf(err, errlen, "cannot start %u threads of workload %s: it needs about %llu file descriptors "
		 "(%u per thread, %u shared, %d spare, %llu open now) but RLIMIT_NOFILE is %llu, hard "
		 "limit %llu (raise it with ulimit -Hn, or lower -t)", run->threads, run->workload, need,
		 run->fds_per_thread, run->fds_shared, LIMITS_FD_RESERVE, open_now,
		 (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max);
	return -1;
}

int limits_check_start(const struct limits_need *run, char *err, size_t errlen)
{
	if (check_nproc(run, err, errlen) || check_pids(run, err, errlen) || check_nofile(run, err, errlen))
		return -1;
	return 0;
}

void limits_describe(char *buf, size_t len)
{
	struct pids_limit pl;
	struct rlimit rl;
	int n;

	if (getrlimit(RLIMIT_NPROC, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		n = snprintf(buf, len, "RLIMIT_NPROC unlimited");
	else if (nproc_exempt())
		n = snprintf(buf, len, "RLIMIT_NPROC %llu, not applied to this user",
			     (unsigned long long)rl.rlim_cur);
	else
		n = snprintf(buf, len, "RLIMIT_NPROC %llu, %ld in use by user %u",
			     (unsigned long long)rl.rlim_cur, user_tasks(), (unsigned int)getuid());
	if (n < 0 || (size_t)n >= len)
		return;
	pids_limit_read(&pl);
	if (!pl.found)
		n += snprintf(buf + n, len - (size_t)n, "; no cgroup pids controller");
	else if (pl.max < 0)
		n += snprintf(buf + n, len - (size_t)n, "; cgroup pids.max max");
	else
		n += snprintf(buf + n, len - (size_t)n, "; cgroup pids.max %lld in %s, %lld in use",
			      pl.max, pl.dir, pl.current);
	if (n < 0 || (size_t)n >= len || getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return;
	snprintf(buf + n, len - (size_t)n, "; RLIMIT_AS %llu MiB", (unsigned long long)(rl.rlim_cur >> 20));
}
