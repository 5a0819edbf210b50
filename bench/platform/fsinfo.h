/*
 * fsinfo.h — the file system a directory is on, for meta.csv's
 * workload_dir_* keys: statfs(2)'s type, and the mount it belongs to from
 * /proc/self/mountinfo (its file system type, source and mount point).  A
 * file workload's figures are the disk's as much as the lock's where the
 * directory is on a shared disk: a neighbour's journal writes slowed creat
 * tenfold here, unseen by the CPU figures (issue 25).
 */
#ifndef LOCKBENCH_FSINFO_H
#define LOCKBENCH_FSINFO_H

#include <limits.h>
#include <stdbool.h>

struct fs_info {
	bool probed;                  /* false: the workload has no directory (meta.csv: "-") */
	char dir[PATH_MAX];           /* the directory, as the run names it */
	bool statfs_ok;
	unsigned long long magic;     /* statfs f_type */
	char type[32];                /* mountinfo's type (ext4), else the magic's name, else 0x<magic> */
	char source[256];             /* mountinfo's mount source (/dev/vda, tmpfs); "unknown" */
	char mount_point[PATH_MAX];   /* mountinfo's, escapes decoded; "unknown" */
};

/* Fills *fs for `dir`: bounded by the size of /proc/self/mountinfo, and
 * never fails (what it cannot read is "unknown"). */
void fsinfo_probe(struct fs_info *fs, const char *dir);

/* The name of a statfs f_type this file knows (tmpfs, ext2/ext3/ext4, xfs,
 * ...), or NULL. */
const char *fsinfo_magic_name(unsigned long long magic);

#endif
