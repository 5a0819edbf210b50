/*
 * fsinfo.c — which file system and mount a directory is on (fsinfo.h).
 * The mount is the /proc/self/mountinfo line whose device (major:minor) is
 * the directory's st_dev and whose mount point is the longest prefix of the
 * directory's real path (bind mounts share a device); where no line has
 * that device (btrfs subvolumes report their own), the longest prefix alone,
 * as df(1) does.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>

#include "fsinfo.h"

static const struct {
	unsigned long long magic;
	const char *name;
} magic_names[] = {
	{ 0x01021994, "tmpfs" },   { 0x858458f6, "ramfs" },    { 0xef53, "ext2/ext3/ext4" },
	{ 0x58465342, "xfs" },     { 0x9123683e, "btrfs" },    { 0x2fc12fc1, "zfs" },
	{ 0xf2f52010, "f2fs" },    { 0x794c7630, "overlayfs" }, { 0x6969, "nfs" },
	{ 0xff534d42, "cifs" },    { 0x65735546, "fuse" },     { 0x5346544e, "ntfs" },
	{ 0x4d44, "vfat" },
};

const char *fsinfo_magic_name(unsigned long long magic)
{
	for (size_t i = 0; i < sizeof(magic_names) / sizeof(magic_names[0]); i++)
		if (magic_names[i].magic == magic)
			return magic_names[i].name;
	return NULL;
}

/* mountinfo writes ' ', '\t', '\n' and '\\' in a path as \ooo: decoded in place. */
static void unescape(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' &&
		    s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* How long a prefix of `path` the mount point `mnt` is: its length where it
 * is one, component by component ("/" is one of everything), else -1. */
static long prefix_len(const char *mnt, const char *path)
{
	size_t n = strlen(mnt);

	if (strcmp(mnt, "/") == 0)
		return 1;
	if (strncmp(mnt, path, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return -1;
	return (long)n;
}

/* One mountinfo line: "ID PARENT MAJ:MIN ROOT MOUNT_POINT OPTS [TAGS...] - TYPE SOURCE SUPER". */
struct mount_line {
	unsigned int major, minor;
	char *mount_point, *type, *source;
};

static bool parse_mount_line(char *line, struct mount_line *m)
{
	char *save = NULL, *field[5], *tok, *dash;

	dash = strstr(line, " - ");
	if (!dash)
		return false;
	*dash = '\0';
	for (int i = 0; i < 5; i++)
		if (!(field[i] = strtok_r(i ? NULL : line, " ", &save)))
			return false;
	if (sscanf(field[2], "%u:%u", &m->major, &m->minor) != 2)
		return false;
	m->mount_point = field[4];
	save = NULL;
	m->type = strtok_r(dash + 3, " \n", &save);
	tok = strtok_r(NULL, " \n", &save);
	m->source = tok;
	if (!m->type || !m->source)
		return false;
	unescape(m->mount_point);
	unescape(m->source);
	return true;
}

/* The best mountinfo line for `real` on device `dev`; false when none is a prefix. */
static bool find_mount(struct fs_info *fs, const char *real, dev_t dev)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char *line = NULL;
	size_t cap = 0;
	long best = -1;
	bool best_dev = false;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		struct mount_line m;
		long len;
		bool same_dev;

		if (!parse_mount_line(line, &m) || (len = prefix_len(m.mount_point, real)) < 0)
			continue;
		same_dev = makedev(m.major, m.minor) == dev;
		/* The device first; then the longest prefix; a later line of
		 * the same length (mounted over the earlier) wins. */
		if ((same_dev && !best_dev) || (same_dev == best_dev && len >= best)) {
			best = len;
			best_dev = same_dev;
			snprintf(fs->type, sizeof(fs->type), "%s", m.type);
			snprintf(fs->source, sizeof(fs->source), "%s", m.source);
			snprintf(fs->mount_point, sizeof(fs->mount_point), "%s", m.mount_point);
		}
	}
	free(line);
	fclose(f);
	return best >= 0;
}

void fsinfo_probe(struct fs_info *fs, const char *dir)
{
	struct statfs sfs;
	struct stat st;
	char *real;

	*fs = (struct fs_info){ .probed = true };
	snprintf(fs->dir, sizeof(fs->dir), "%s", dir);
	fs->statfs_ok = statfs(dir, &sfs) == 0;
	fs->magic = fs->statfs_ok ? (unsigned long long)(unsigned long)sfs.f_type : 0;
	real = realpath(dir, NULL);
	if (!real || stat(real, &st) != 0 || !find_mount(fs, real, st.st_dev)) {
		const char *name = fs->statfs_ok ? fsinfo_magic_name(fs->magic) : NULL;

		if (name)
			snprintf(fs->type, sizeof(fs->type), "%s", name);
		else if (fs->statfs_ok)
			snprintf(fs->type, sizeof(fs->type), "0x%llx", fs->magic);
		else
			snprintf(fs->type, sizeof(fs->type), "unknown");
		snprintf(fs->source, sizeof(fs->source), "unknown");
		snprintf(fs->mount_point, sizeof(fs->mount_point), "unknown");
	}
	free(real);
}
