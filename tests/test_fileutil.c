/*
 * test_fileutil.c — the file layer under hostile conditions: common/
 * safefile.c, the one reader and writer of bench/ and analysis/ (a link is
 * never followed, a FIFO never opened, a file over its bound never read, an
 * output replaces what is in its place without writing through it, a full
 * standard output is an error), and bench/workloads/fileutil.c's private directory,
 * made relative to the --dir descriptor it holds (issue 26: with --dir
 * swapped for a link between the open and the mkdir, mkdtemp() by path made
 * the directory in the link's target and leaked it).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../bench/workloads/fileutil.h"
#include "../common/safefile.h"

static char base[4096];

static void path_of(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", base, name);
}

static int setup_base(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(base, sizeof(base), "%s/lbtest-fileutil-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	/* A FIFO opened by mistake blocks: the alarm ends the test instead. */
	alarm(60);
	return mkdtemp(base) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown_base(void **state)
{
	(void)state;
	alarm(0);
	fileutil_fault = NULL;  /* a test that failed inside the seam's swap left it set */
	/* FTW_PHYS: the links the tests made are removed, never followed. */
	return nftw(base, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void make_file(const char *name, const char *text)
{
	char path[4200];
	FILE *f;

	path_of(path, sizeof(path), name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static void read_back(const char *name, char *buf, size_t len)
{
	char path[4200];
	FILE *f;
	size_t n;

	path_of(path, sizeof(path), name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* NAME, a symbolic link to TARGET (under the base directory unless it starts with '/'). */
static void make_link(const char *name, const char *target)
{
	char path[4200], to[4200];

	path_of(path, sizeof(path), name);
	if (target[0] == '/')
		snprintf(to, sizeof(to), "%s", target);
	else
		path_of(to, sizeof(to), target);
	assert_int_equal(symlink(to, path), 0);
}

static void make_fifo(const char *name)
{
	char path[4200];

	path_of(path, sizeof(path), name);
	assert_int_equal(mkfifo(path, 0600), 0);
}

static void open_base(struct sf_dir *d)
{
	char err[256];

	assert_int_equal(sf_dir_open(d, base, err, sizeof(err)), 0);
}

/* ---- reading ---- */

static void reads_a_regular_file(void **state)
{
	struct sf_dir d;
	char err[512], *text;
	size_t len;

	(void)state;
	make_file("f.csv", "key,value\n");
	open_base(&d);
	text = sf_read_all(&d, "f.csv", 100, &len, err, sizeof(err));
	assert_non_null(text);
	assert_int_equal(len, 10);
	assert_string_equal(text, "key,value\n");
	free(text);
	sf_dir_close(&d);
}

/* expect_refused REL ERRNO WORDS: sf_read_all refuses REL in one line. */
static void expect_refused(const struct sf_dir *d, const char *rel, int want_errno, const char *words)
{
	char err[512];
	size_t len;

	errno = 0;
	assert_null(sf_read_all(d, rel, 100, &len, err, sizeof(err)));
	assert_int_equal(errno, want_errno);
	assert_non_null(strstr(err, rel));
	assert_non_null(strstr(err, words));
	assert_null(strchr(err, '\n'));
}

static void refuses_links_fifos_and_big_files(void **state)
{
	char path[4200];
	struct sf_dir d;

	(void)state;
	make_file("secret", "hostname,SECRET\n");
	make_link("meta.csv", "secret");
	make_fifo("fifo.csv");
	make_file("big.csv", "0123456789012345678901234567890123456789012345678901234567890123456789"
			     "0123456789012345678901234567890123456789\n");
	path_of(path, sizeof(path), "sub");
	assert_int_equal(mkdir(path, 0700), 0);
	make_link("linked-dir", "sub");
	make_file("sub/f.csv", "a,b\n");
	open_base(&d);
	expect_refused(&d, "meta.csv", ELOOP, "a symbolic link: not followed");
	expect_refused(&d, "fifo.csv", EINVAL, "a FIFO, not a regular file");
	expect_refused(&d, "big.csv", EFBIG, "too large: 111 bytes (at most 100)");
	expect_refused(&d, "sub", EISDIR, "a directory, not a regular file");
	expect_refused(&d, "linked-dir/f.csv", ELOOP, "'linked-dir': a symbolic link: not followed");
	expect_refused(&d, "sub/../secret", EINVAL, "'..' in it: refused");
	expect_refused(&d, "missing.csv", ENOENT, strerror(ENOENT));
	/* The same file through a directory that is not a link is read. */
	assert_true(sf_is_file(&d, "sub/f.csv"));
	assert_false(sf_is_file(&d, "meta.csv"));
	sf_dir_close(&d);
}

static void names_are_listed_sorted_without_hidden_ones(void **state)
{
	struct sf_dir d;
	char **names;

	(void)state;
	make_file("b-t2.csv", "");
	make_file("a-t1.csv", "");
	make_file(".a-t0.csv.Xy12Zq", "");
	make_file("c.txt", "");
	open_base(&d);
	names = sf_names(&d, "*-t*.csv");
	assert_non_null(names);
	assert_string_equal(names[0], "a-t1.csv");
	assert_string_equal(names[1], "b-t2.csv");
	assert_null(names[2]);
	sf_names_free(names);
	sf_dir_close(&d);
}

/* ---- writing ---- */

static void writes_replace_links_and_fifos_not_their_targets(void **state)
{
	char path[4200], buf[64], err[512];
	struct sf_dir d;
	struct sf_out o;
	struct stat st;

	(void)state;
	make_file("target", "ORIGINAL\n");
	make_link("out.csv", "target");
	make_fifo("fifo.csv");
	open_base(&d);
	for (int i = 0; i < 2; i++) {
		const char *name = i ? "fifo.csv" : "out.csv";

		assert_non_null(sf_out_open(&o, &d, name, err, sizeof(err)));
		fprintf(o.f, "new,%d\n", i);
		assert_int_equal(sf_out_commit(&o, err, sizeof(err)), 0);
		path_of(path, sizeof(path), name);
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		read_back(name, buf, sizeof(buf));
		assert_string_equal(buf, i ? "new,1\n" : "new,0\n");
	}
	read_back("target", buf, sizeof(buf));
	assert_string_equal(buf, "ORIGINAL\n");
	sf_dir_close(&d);
}

static long entries(const char *dir)
{
	DIR *dh = opendir(dir);
	struct dirent *e;
	long n = 0;

	assert_non_null(dh);
	while ((e = readdir(dh)) != NULL)
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dh);
	return n;
}

static void a_write_that_fails_leaves_what_was_there(void **state)
{
	char path[4200], err[512];
	struct sf_dir d;
	struct sf_out o;

	(void)state;
	path_of(path, sizeof(path), "out.csv");
	assert_int_equal(mkdir(path, 0700), 0);
	make_file("kept.csv", "old\n");
	open_base(&d);
	/* A directory in the output's place: refused at the rename, nothing left. */
	assert_non_null(sf_out_open(&o, &d, "out.csv", err, sizeof(err)));
	fprintf(o.f, "x\n");
	assert_int_equal(sf_out_commit(&o, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "out.csv: a directory is there: not replaced"));
	/* Given up: the old file as it was, no temporary file. */
	assert_non_null(sf_out_open(&o, &d, "kept.csv", err, sizeof(err)));
	fprintf(o.f, "half\n");
	sf_out_abort(&o);
	read_back("kept.csv", path, sizeof(path));
	assert_string_equal(path, "old\n");
	assert_int_equal(entries(base), 2);
	/* A directory on the way that is a link: refused before anything is made. */
	make_link("ln", base);
	assert_null(sf_out_open(&o, &d, "ln/x.csv", err, sizeof(err)));
	assert_non_null(strstr(err, "'ln': a symbolic link: not followed"));
	sf_dir_close(&d);
}

static void full_stdout_is_an_error(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int full = open("/dev/full", O_WRONLY);
		int null = open("/dev/null", O_WRONLY);

		if (full < 0 || null < 0 || dup2(full, STDOUT_FILENO) < 0 || dup2(null, STDERR_FILENO) < 0)
			_exit(9);
		printf("a line\n");
		_exit(sf_close_stdout("test", false) == -1 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* ---- the private directory, made relative to the parent's descriptor ---- */

static char swap_real[4200], swap_held[4200], swap_other[4200];

/* At the seam before the mkdir: --dir renamed away, a link to another
 * directory in its place, as an attacker who can write --dir's parent could. */
static int swap_dir_for_link(enum fu_call call)
{
	if (call == FU_MKDTEMP) {
		assert_int_equal(rename(swap_real, swap_held), 0);
		assert_int_equal(symlink(swap_other, swap_real), 0);
	}
	return 0;
}

/* "real" (--dir) and "other" (where a link will point), empty; the config
 * whose --dir is "real". */
static struct bench_config swap_dirs(void)
{
	struct bench_config cfg;

	path_of(swap_real, sizeof(swap_real), "real");
	path_of(swap_held, sizeof(swap_held), "held");
	path_of(swap_other, sizeof(swap_other), "other");
	assert_int_equal(mkdir(swap_real, 0700), 0);
	assert_int_equal(mkdir(swap_other, 0700), 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.dir = swap_real;
	return cfg;
}

static void private_dir_is_made_in_the_held_parent(void **state)
{
	struct bench_config cfg = swap_dirs();
	struct wdir d;
	char err[1024];

	(void)state;
	fileutil_fault = swap_dir_for_link;
	assert_int_equal(wdir_create(&d, &cfg, "creat", err, sizeof(err)), WL_SETUP_OK);
	fileutil_fault = NULL;
	/* In the directory that was opened (now "held"), none in the link's target. */
	assert_int_equal(entries(swap_held), 1);
	assert_int_equal(entries(swap_other), 0);
	assert_int_equal(wdir_entries(&d), 0);
	wdir_remove(&d);
	assert_int_equal(entries(swap_held), 0);
	assert_int_equal(entries(swap_other), 0);
}

/* The reproduction, bounded: another thread swaps --dir and a link
 * to another directory (renameat2 RENAME_EXCHANGE) as fast as it can while
 * this one makes and removes private directories. */
static volatile int swapping;

static void *swapper(void *arg)
{
	char link[4200];

	(void)arg;
	path_of(link, sizeof(link), "link");
	while (__atomic_load_n(&swapping, __ATOMIC_RELAXED))
		renameat2(AT_FDCWD, swap_real, AT_FDCWD, link, RENAME_EXCHANGE);
	return NULL;
}

static void private_dir_survives_a_swap_loop(void **state)
{
	struct bench_config cfg = swap_dirs();
	char link[4200], err[1024];
	pthread_t tid;
	unsigned int made = 0, tries = 0;
	time_t until = time(NULL) + 3;

	(void)state;
	path_of(link, sizeof(link), "link");
	make_link("link", swap_other);
	swapping = 1;
	assert_int_equal(pthread_create(&tid, NULL, swapper, NULL), 0);
	/* 1000 directories or 3 s, whichever comes first: every one is made
	 * (in whichever directory --dir named when it was opened) and removed. */
	for (; tries < 1000 && time(NULL) < until; tries++) {
		struct wdir d;
		int rc = wdir_create(&d, &cfg, "creat", err, sizeof(err));

		if (rc == WL_SETUP_OK) {
			made++;
			wdir_remove(&d);
		}
	}
	__atomic_store_n(&swapping, 0, __ATOMIC_RELAXED);
	assert_int_equal(pthread_join(tid, NULL), 0);
	assert_int_equal(made, tries);
	/* Whichever name holds the directory now: nothing left in it or in the link's target. */
	assert_int_equal(entries(swap_other), 0);
	assert_int_equal(entries(swap_real), 0);
	assert_int_equal(entries(link), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(reads_a_regular_file, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(refuses_links_fifos_and_big_files, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(names_are_listed_sorted_without_hidden_ones, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(writes_replace_links_and_fifos_not_their_targets, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(a_write_that_fails_leaves_what_was_there, setup_base, teardown_base),
		cmocka_unit_test(full_stdout_is_an_error),
		cmocka_unit_test_setup_teardown(private_dir_is_made_in_the_held_parent, setup_base, teardown_base),
		cmocka_unit_test_setup_teardown(private_dir_survives_a_swap_loop, setup_base, teardown_base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
