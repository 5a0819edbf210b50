/*
 * preload_out.c — each process's figures at its exit: exec-PID.csv and
 * mutexes-PID.csv in LOCKBENCH_EXEC_OUT (keys: exec_file.h; the launcher
 * merges and symbolizes them, bench/exec/launcher/figures.c and sites.c).
 * Written from the library's destructor, after the program's own atexit
 * handlers; a program that calls _exit() or is killed writes nothing,
 * which the launcher says.
 * Each file is written under a name the launcher does not read and renamed
 * once whole: a file cut short (a full disk) is never read as figures, and
 * what could not be written is said on the program's standard error, the
 * one place left to say it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec_file.h"
#include "preload.h"

/* A process's file being written: its name while written, and its own. */
struct px_file {
	FILE *f;
	char part[sizeof(px_cfg.out_dir) + 64], path[sizeof(px_cfg.out_dir) + 64];
};

/* Said on standard error while it is a file or a terminal (the launcher's
 * capture, a log, /dev/null): a daemon that closed it may have a socket to
 * a client there now. */
static void px_not_written(const struct px_file *pf, int err)
{
	struct stat st;

	if (fstat(2, &st) == 0 && (S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)))
		dprintf(2, EXEC_NOT_WRITTEN "%s: %s\n", (int)getpid(), pf->path, strerror(err));
}

static bool px_create(struct px_file *pf, const char *prefix)
{
	int fd;

	snprintf(pf->path, sizeof(pf->path), "%s/%s-%d.csv", px_cfg.out_dir, prefix, (int)getpid());
	snprintf(pf->part, sizeof(pf->part), "%s/.%s-%d.part", px_cfg.out_dir, prefix, (int)getpid());
	/* The launcher's own private directory: a name already there is not
	 * ours to overwrite, and no link is followed. */
	fd = open(pf->part, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	pf->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!pf->f) {
		px_not_written(pf, errno);
		if (fd >= 0)
			close(fd);
		return false;
	}
	return true;
}

/* Whole, or not at all. */
static void px_commit(struct px_file *pf)
{
	bool cut = ferror(pf->f);
	int err = cut ? EIO : 0;

	if (fclose(pf->f) != 0 && !cut) {
		cut = true;
		err = errno;
	}
	if (!cut && rename(pf->part, pf->path) == 0)
		return;
	err = err ? err : errno;
	unlink(pf->part);
	px_not_written(pf, err);
}

static void px_hist_write(FILE *f, const char *name, const struct hist *h)
{
	fprintf(f, "%s_count,%" PRIu64 "\n%s_sum,%" PRIu64 "\n%s_contended,%" PRIu64 "\n", name, h->count,
		name, h->sum, name, h->contended);
	fprintf(f, "%s_min,%" PRIu64 "\n%s_max,%" PRIu64 "\n", name, h->count ? h->min : 0, name, h->max);
	for (unsigned int b = 0; b < HIST_BINS; b++)
		if (h->bins[b])
			fprintf(f, "%s_bin_%u,%" PRIu64 "\n", name, b, h->bins[b]);
}

static void px_setting(void *ctx, const char *key, const char *value)
{
	fprintf(ctx, "setting_%s,%s\n", key, value);
}

static void px_write_main(FILE *f)
{
	struct bench_thread all;
	struct lock_events ev;
	struct px_counts c;
	uint64_t pinned, pin_failed;

	memset(&all, 0, sizeof(all));
	memset(&ev, 0, sizeof(ev));
	memset(&c, 0, sizeof(c));
	hist_reset(&all.acq);
	hist_reset(&all.acq_contended);
	px_threads_merge(&all, &ev, &c);
	/* The fast path counts no `untimed` (preload.c, px_lock_untimed): an
	 * acquisition is timed, in acq.count, or not. */
	all.untimed = all.acquired - all.acq.count;
	fprintf(f, "key,value\n" EXEC_KEY_FORMAT ",%d\npid,%d\nlock,%s\n", EXEC_FORMAT, (int)getpid(),
		px_cfg.ops->name);
	fprintf(f, "acquisitions,%" PRIu64 "\ncontentions,%" PRIu64 "\n", all.acquired,
		all.acq.contended + all.untimed_contended);
	fprintf(f, "untimed,%" PRIu64 "\nuntimed_contended,%" PRIu64 "\n", all.untimed, all.untimed_contended);
	px_hist_write(f, "acq", &all.acq);
	px_hist_write(f, "acq_contended", &all.acq_contended);
#define EXEC_EVENT(name) fprintf(f, "ev_" #name ",%" PRIu64 "\n", ev.name);
	EXEC_EVENTS
#undef EXEC_EVENT
	for (unsigned int i = 0; i < SPIN_EXIT_NR; i++)
		fprintf(f, "ev_spin_exit_%s,%" PRIu64 "\n", spin_exit_name[i], ev.spin_exit[i]);
#define EXEC_COUNT(name) fprintf(f, #name ",%" PRIu64 "\n", c.name);
	EXEC_COUNTS
#undef EXEC_COUNT
	px_pin_counts(&pinned, &pin_failed);
	fprintf(f, EXEC_KEY_PINNED ",%" PRIu64 "\n" EXEC_KEY_PIN_FAILED ",%" PRIu64 "\n", pinned, pin_failed);
	if (px_cfg.ops->settings_figures)
		px_cfg.ops->settings_figures(&px_cfg.params.settings, px_setting, f);
	/* The settled settings' bytes, for the launcher's summary.csv, which
	 * the lock's settings_figures() writes from them. */
	fputs("settings_hex,", f);
	for (size_t i = 0; i < sizeof(px_cfg.params.settings.bytes); i++)
		fprintf(f, "%02x", px_cfg.params.settings.bytes[i]);
	fputc('\n', f);
	if (px_cfg.prepare_note[0])
		fprintf(f, "prepare_note,%s\n", px_cfg.prepare_note);
}

/* Where a return address points: the object file and the address in its
 * own ELF address space (pc minus the load bias), for libdw. */
static void px_where(FILE *f, const void *site)
{
	Dl_info info;
	struct link_map *map = NULL;
	char exe[512];
	const char *obj;

	if (!site || !dladdr1(site, &info, (void **)&map, RTLD_DL_LINKMAP) || !map) {
		fputs(",-,0", f);
		return;
	}
	obj = map->l_name;
	if (!obj || !*obj) {
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		exe[n > 0 ? n : 0] = '\0';
		obj = exe;
	}
	/* A path with a comma or newline would break the row: none is written. */
	fprintf(f, ",%s,0x%" PRIxPTR, strpbrk(obj, ",\n\r") ? "-" : obj, (uintptr_t)site - map->l_addr);
}

/* The site, the first frame outside the program's lock wrapper, then the
 * wrapper's call (the frame that called pthread_*), "-,0" without one. */
static void px_site(FILE *f, const void *const *frames)
{
	unsigned int i = px_site_frame(frames);

	px_where(f, frames[i]);
	if (i > 0)
		px_where(f, frames[0]);
	else
		fputs(",-,0", f);
}

static void px_mutex_row(const struct px_mutex *x, uint64_t acquisitions, bool destroyed, void *ctx)
{
	FILE *f = ctx;

	if (!acquisitions)
		return;
	fprintf(f, "%p,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, (const void *)x->addr, destroyed,
		acquisitions, x->contentions, x->contended_timed, x->contended_cycles);
	px_site(f, x->frames);
	fputc('\n', f);
}

void px_write_figures(void)
{
	static int written;
	struct px_file pf;

	if (!px_cfg.out_dir[0] || __atomic_exchange_n(&written, 1, __ATOMIC_RELAXED))
		return;
	if (px_create(&pf, EXEC_FILE_PREFIX)) {
		px_write_main(pf.f);
		px_commit(&pf);
	}
	if (px_create(&pf, EXEC_MUTEX_PREFIX)) {
		fputs(EXEC_MUTEX_HEADER "\n", pf.f);
		px_mutex_hottest(px_mutex_row, pf.f);
		px_commit(&pf);
	}
}
