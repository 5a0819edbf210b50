/*
 * rundir.c — reading a run-all directory (rundir.h).
 */
#include "rundir.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "resultfile.h"
#include "saved.h"

static int set_err(char *err, size_t errlen, const char *path, const char *what)
{
	snprintf(err, errlen, "%s: %s", path, what);
	return -1;
}

/* Splits TEXT into lines in place: count of lines, each NUL-terminated. */
static size_t split_lines(char *text, size_t len, char ***lines)
{
	size_t n = 0, cap = 64;
	char **v = malloc(cap * sizeof(*v));

	for (char *p = text; v && p < text + len;) {
		char *nl = memchr(p, '\n', (size_t)(text + len - p));
		if (n == cap && !(v = realloc(v, (cap *= 2) * sizeof(*v))))
			break;
		v[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	*lines = v;
	return v ? n : 0;
}

int kv_file_read(struct kv_file *f, const struct sf_dir *dir, const char *rel, char sep, char *err, size_t errlen)
{
	char **lines;
	size_t len, nlines;

	memset(f, 0, sizeof(*f));
	if (!(f->text = sf_read_all(dir, rel, RUNDIR_TEXT_MAX, &len, err, errlen)))
		return errno == ENOENT ? 1 : -1;
	nlines = split_lines(f->text, len, &lines);
	if (!lines || !(f->pair = calloc(nlines + 1, sizeof(*f->pair)))) {
		free(lines);
		kv_file_free(f);
		return set_err(err, errlen, rel, "out of memory");
	}
	for (size_t i = 0; i < nlines; i++) {
		char *s = strchr(lines[i], sep);
		if (!s || s == lines[i]) {
			snprintf(err, errlen, "%s/%s: line %zu is not KEY%cVALUE", dir->path, rel, i + 1, sep);
			free(lines);
			kv_file_free(f);
			return -1;
		}
		*s = '\0';
		f->pair[f->n++] = (struct kv_pair){ lines[i], s + 1 };
	}
	free(lines);
	return 0;
}

const char *kv_get(const struct kv_file *f, const char *key)
{
	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->pair[i].key, key) == 0)
			return f->pair[i].value;
	return NULL;
}

void kv_file_free(struct kv_file *f)
{
	free(f->text);
	free(f->pair);
	memset(f, 0, sizeof(*f));
}

bool word_in(const char *word, const char *list)
{
	size_t n = strlen(word);

	for (const char *p = list; n && (p = strstr(p, word)) != NULL; p += n)
		if ((p == list || p[-1] == ' ' || p[-1] == ',') && (p[n] == '\0' || p[n] == ' ' || p[n] == ','))
			return true;
	return false;
}

/* Settings and run-env values go into the markdown as they are: one line
 * of printable text. */
static bool plain_value(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == 0x7f)
			return false;
	return true;
}

/* settings or run-env, each line read and checked by run-all's rule for it
 * (saved.h: the shell's read of a line, CHECK of its key and value), so
 * that the report takes and refuses what run-all --resume/--report does. */
static int read_assignments(struct kv_file *f, const struct rundir *d, const char *name,
			    int (*check)(const char *, const char *), char *err, size_t errlen)
{
	char path[sizeof(d->dir.path) + 32];
	const char *k, *v;
	size_t len, pos = 0, lines = 1;

	snprintf(path, sizeof(path), "%s/%s", d->dir.path, name);
	memset(f, 0, sizeof(*f));
	if (!(f->text = sf_read_all(&d->dir, name, SAVED_KV_MAX, &len, err, errlen)))
		return errno == ENOENT ? set_err(err, errlen, path, "missing: not a run-all directory") : -1;
	for (size_t i = 0; i < len; i++)
		lines += f->text[i] == '\n';
	if (!(f->pair = calloc(lines, sizeof(*f->pair))))
		return set_err(err, errlen, path, "out of memory");
	while (saved_next_assignment(f->text, len, &pos, &k, &v)) {
		int c = check(k, v);
		if (c < 0 || !plain_value(v)) {
			snprintf(err, errlen, "%s: unexpected line '%.40s=...'", path, k);
			return -1;
		}
		if (c > 0) {
			snprintf(err, errlen, "%s: bad %s", path, k);
			return -1;
		}
		f->pair[f->n++] = (struct kv_pair){ k, v };
	}
	return 0;
}

/* OPT's word in plan ARGS ("-l X ..."), "" when it has none. */
static void arg_word(const char *args, const char *opt, char *out, size_t len)
{
	size_t olen = strlen(opt);

	*out = '\0';
	for (const char *p = args; (p = strstr(p, opt)); p += olen)
		if ((p == args || p[-1] == ' ') && p[olen] == ' ') {
			snprintf(out, len, "%.*s", (int)strcspn(p + olen + 1, " "), p + olen + 1);
			return;
		}
}

/* "NAME ARGS": NAME of [a-z0-9.-] starting with [a-z0-9] (it names a
 * directory: never ".", "..", a hidden name or one read as an option), ARGS
 * plain words ('/' in --dir's, ':' in --timing's sample:N): run-all's
 * check of a plan line (saved.h), the one rule. */
static bool parse_plan_line(char *line, struct plan_run *r)
{
	char *sp = strchr(line, ' ');

	if (!saved_plan_line_ok(line, strlen(line)))
		return false;
	*sp = '\0';
	r->name = line;
	r->args = sp + 1;
	snprintf(r->kind, sizeof(r->kind), "%.*s", (int)strcspn(line, "-"), line);
	arg_word(r->args, "-w", r->workload, sizeof(r->workload));
	return true;
}

/* Whether run R's result files load as lbcompare loads them (resultfile.h):
 * a run whose files are missing, refused or malformed is not finished, and
 * one that has a summary.csv says why in r->why. */
static void check_finished(const struct rundir *d, struct plan_run *r, struct result_run *scratch)
{
	static struct sf_dir top, run;  /* static: two paths of PATH_MAX, not on the stack */
	char rel[256], err[1024];
	struct stat st;

	/* Named relative to the directory in messages: runs/NAME/FILE. */
	top.fd = d->dir.fd;
	snprintf(rel, sizeof(rel), "runs/%s", r->name);
	if (sf_dir_at(&run, &top, rel, err, sizeof(err)) != 0) {
		if (errno != ENOENT)
			r->why = strdup(err);
		return;
	}
	if (sf_stat(&run, "summary.csv", &st) == 0) {
		r->finished = result_load(scratch, &run, err, sizeof(err)) == 0;
		if (!r->finished)
			r->why = strdup(err);
		result_free(scratch);
	}
	sf_dir_close(&run);
}

/* logs/NAME.SUFFIX's first line (LAST: its last), a line over 1,023 bytes
 * as its last 1,023-byte piece, into OUT: "" when there is none, "(WHY)"
 * when the file cannot be read.  malloc'd, NULL for "". */
static char *log_line(const struct sf_dir *top, const char *name, const char *suffix, bool last, size_t len)
{
	char path[300], line[1024], err[256], out[1024];
	FILE *f;

	*out = '\0';
	snprintf(path, sizeof(path), "logs/%s.%s", name, suffix);
	if (!(f = sf_fopen_read(top, path, RUNDIR_TEXT_MAX, err, sizeof(err)))) {
		if (errno != ENOENT)  /* a link, a FIFO, too large: why, not its text */
			snprintf(out, len, "(%s)", err);
	} else {
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s", line);
			if (!last)
				break;
		}
		fclose(f);
	}
	return *out ? strdup(out) : NULL;
}

/* An unfinished run R's logs (struct plan_run), the report's failed runs. */
static void read_logs(const struct rundir *d, struct plan_run *r)
{
	static struct sf_dir top;  /* static: a path of PATH_MAX, not on the stack */
	char status[300];

	top.fd = d->dir.fd;
	snprintf(status, sizeof(status), "logs/%s.status", r->name);
	r->has_status = sf_is_file(&top, status);
	/* The sizes the report has always cut them to: 319 and 1,023 bytes. */
	r->status = log_line(&top, r->name, "status", false, 320);
	r->err_last = log_line(&top, r->name, "err", true, 1024);
}

/* plots/'s charts (struct rundir): listed once, as the report links them. */
static void read_pngs(struct rundir *d)
{
	static struct sf_dir top, plots;  /* static: two paths of PATH_MAX, not on the stack */
	char err[256], **names;
	size_t n = 0;

	top.fd = d->dir.fd;
	if (sf_dir_at(&plots, &top, "plots", err, sizeof(err)) != 0)
		return;
	names = sf_names(&plots, "*.png");
	d->any_png = names && names[0];
	for (size_t i = 0; names && names[i]; i++) {
		if (sf_is_file(&plots, names[i]))
			names[n++] = names[i];
		else
			free(names[i]);
	}
	if (names)
		names[n] = NULL;
	d->png_files = names;
	sf_dir_close(&plots);
}

bool rundir_has_png(const struct rundir *d, const char *name)
{
	char file[300];

	snprintf(file, sizeof(file), "%s.png", name);
	for (size_t i = 0; d->png_files && d->png_files[i]; i++)
		if (strcmp(d->png_files[i], file) == 0)
			return true;
	return false;
}

static int load_plan(struct rundir *d, char *err, size_t errlen)
{
	char path[sizeof(d->dir.path) + 32], **lines;
	struct result_run *scratch;
	size_t len, n;
	char *text;

	snprintf(path, sizeof(path), "%s/plan.txt", d->dir.path);
	if (!(text = sf_read_all(&d->dir, "plan.txt", RUNDIR_TEXT_MAX, &len, err, errlen)))
		return errno == ENOENT ? set_err(err, errlen, path, "missing: not a run-all directory") : -1;
	n = split_lines(text, len, &lines);
	d->plan = calloc(n + 1, sizeof(*d->plan));
	d->done = calloc(n + 1, sizeof(*d->done));
	scratch = malloc(sizeof(*scratch));
	if (!lines || !d->plan || !d->done || !scratch) {
		free(lines);
		free(text);
		free(scratch);
		return set_err(err, errlen, path, "out of memory");
	}
	d->plan[0].name = text;  /* owns the text: freed with the plan */
	for (size_t i = 0; i < n; i++) {
		if (!parse_plan_line(lines[i], &d->plan[i])) {
			free(lines);
			free(scratch);
			snprintf(err, errlen, "%s: malformed line %zu", path, i + 1);
			return -1;
		}
		d->nplan = i + 1;
		check_finished(d, &d->plan[i], scratch);
		if (!d->plan[i].finished && !d->plan[i].why)
			read_logs(d, &d->plan[i]);
	}
	free(lines);
	free(scratch);
	return 0;
}

/* A plan run is variant V's when its name is V-rN. */
static bool run_of_variant(const char *run, const char *variant, size_t vlen)
{
	const char *p = run + vlen;

	if (strncmp(run, variant, vlen) != 0 || p[0] != '-' || p[1] != 'r' || !p[2])
		return false;
	return strspn(p + 2, "0123456789") == strlen(p + 2);
}

/* WORD appended to the words of LIST (of LEN bytes) unless already there. */
static void add_word(char *list, size_t len, const char *word)
{
	size_t wlen = strlen(word), used = strlen(list);

	for (const char *p = list; *word && (p = strstr(p, word)); p += wlen)
		if ((p == list || p[-1] == ' ') && (p[wlen] == ' ' || !p[wlen]))
			return;
	if (*word && used + wlen + 2 <= len)
		snprintf(list + used, len - used, "%s%s", used ? " " : "", word);
}

/* One plan line, in the tables' order, into the roles it shows
 * (rundir.h): a patch run's lock (the first two) and workload, and the
 * first --exec run's lock. */
static void roles_from_line(struct rundir *d, const char *name, const char *args)
{
	char word[64];

	if (strncmp(name, "patch-", 6) == 0) {
		arg_word(args, "-l", word, sizeof(word));
		if (!strchr(d->plan_pair, ' '))
			add_word(d->plan_pair, sizeof(d->plan_pair), word);
		arg_word(args, "-w", word, sizeof(word));
		add_word(d->plan_patch_workloads, sizeof(d->plan_patch_workloads), word);
		return;
	}
	arg_word(args, "--exec", word, sizeof(word));
	if (*word && !*d->plan_program_base)
		arg_word(args, "-l", d->plan_program_base, sizeof(d->plan_program_base));
}

/* A variants.txt line (kv_file_read split it at its first space) by
 * run-all's rule for a plan line (saved.h). */
static bool variant_line_ok(const struct kv_pair *p)
{
	size_t kl = strlen(p->key), len = kl + 1 + strlen(p->value);
	char *line = malloc(len + 1);
	bool ok = line != NULL;

	if (ok) {
		snprintf(line, len + 1, "%s %s", p->key, p->value);
		ok = saved_plan_line_ok(line, len);
	}
	free(line);
	return ok;
}

static int order_finished(struct rundir *d, char *err, size_t errlen)
{
	struct kv_file variants;
	int rc = kv_file_read(&variants, &d->dir, "variants.txt", ' ', err, errlen);

	if (rc < 0)
		return -1;
	for (size_t v = 0; rc == 0 && v < variants.n; v++)
		if (!variant_line_ok(&variants.pair[v])) {
			snprintf(err, errlen, "%s/variants.txt: malformed line %zu", d->dir.path, v + 1);
			kv_file_free(&variants);
			return -1;
		}
	d->has_variants = rc == 0;
	if (!d->has_variants) {
		for (size_t i = 0; i < d->nplan; i++) {
			roles_from_line(d, d->plan[i].name, d->plan[i].args);
			if (d->plan[i].finished)
				d->done[d->ndone++] = i;
		}
		return 0;
	}
	for (size_t v = 0; v < variants.n; v++)
		roles_from_line(d, variants.pair[v].key, variants.pair[v].value);
	for (size_t v = 0; v < variants.n; v++)
		for (size_t i = 0; i < d->nplan; i++)
			if (d->plan[i].finished && d->ndone < d->nplan &&
			    run_of_variant(d->plan[i].name, variants.pair[v].key, strlen(variants.pair[v].key)))
				d->done[d->ndone++] = i;
	kv_file_free(&variants);
	return 0;
}

int rundir_load(struct rundir *d, const struct sf_dir *dir, char *err, size_t errlen)
{
	char file[sizeof(d->dir.path) + 32];
	const char *reps;
	char *end;

	memset(d, 0, sizeof(*d));
	d->dir.fd = dup(dir->fd);
	snprintf(d->dir.path, sizeof(d->dir.path), "%s", dir->path);
	if (d->dir.fd < 0)
		return set_err(err, errlen, dir->path, strerror(errno));
	if (strlen(dir->path) >= sizeof(d->dir.path) - 64)
		return set_err(err, errlen, dir->path, "path too long");
	if (read_assignments(&d->settings, d, "settings", saved_setting_check, err, errlen) != 0)
		return -1;
	snprintf(file, sizeof(file), "%s/settings", d->dir.path);
	reps = rundir_setting(d, "REPS");
	errno = 0;
	d->reps = (unsigned int)strtoul(reps, &end, 10);
	if (!*reps || *end || errno || d->reps < 1 || d->reps > 100000)
		return set_err(err, errlen, file, "REPS is not a positive whole number");
	d->quick = strcmp(rundir_setting(d, "QUICK"), "1") == 0;
	if (read_assignments(&d->env, d, "run-env", saved_env_check, err, errlen) != 0)
		return -1;
	if (load_plan(d, err, errlen) != 0)
		return -1;
	read_pngs(d);
	return order_finished(d, err, errlen);
}

int rundir_load_path(struct rundir *d, const char *path, char *err, size_t errlen)
{
	static struct sf_dir named;  /* static: a path of PATH_MAX, not on the stack */
	char abs[PATH_MAX];
	int rc;

	d->dir.fd = -1;
	if (!realpath(path, abs)) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (sf_dir_open(&named, abs, err, errlen) != 0)
		return -1;
	rc = rundir_load(d, &named, err, errlen);
	sf_dir_close(&named);
	return rc;
}

void rundir_free(struct rundir *d)
{
	kv_file_free(&d->settings);
	kv_file_free(&d->env);
	for (size_t i = 0; d->plan && i < d->nplan; i++) {
		free(d->plan[i].why);
		free(d->plan[i].status);
		free(d->plan[i].err_last);
	}
	sf_names_free(d->png_files);
	if (d->plan)
		free(d->plan[0].name);
	free(d->plan);
	free(d->done);
	sf_dir_close(&d->dir);
	memset(d, 0, sizeof(*d));
	d->dir.fd = -1;
}

const char *rundir_setting(const struct rundir *d, const char *key)
{
	const char *v = kv_get(&d->settings, key);
	return v ? v : "";
}

const char *rundir_env(const struct rundir *d, const char *key)
{
	const char *v = kv_get(&d->env, key);

	if (v)
		return v;
	if (!strcmp(key, "PATCH_PAIR"))
		return d->plan_pair;
	if (!strcmp(key, "PATCH_WORKLOADS"))
		return d->plan_patch_workloads;
	return !strcmp(key, "PROGRAM_BASE") ? d->plan_program_base : "";
}

bool rundir_plans(const struct rundir *d, const char *kind, const char *workload, const char *word, bool finished)
{
	for (size_t i = 0; i < d->nplan; i++) {
		const struct plan_run *r = &d->plan[i];
		if ((!kind || strcmp(r->kind, kind) == 0) && (!workload || strcmp(r->workload, workload) == 0) &&
		    (!word || strstr(r->args, word)) && (!finished || r->finished))
			return true;
	}
	return false;
}

/* Directory D's hostname, from its first finished run's meta.csv, into
 * NAME ("" when it has none that loads). */
static void dir_hostname(const struct rundir *d, char *name, size_t len)
{
	static struct sf_dir dir;  /* static: a path of PATH_MAX, not on the stack */
	static struct result_run run;
	char rel[512], err[1024];

	*name = '\0';
	if (d->ndone == 0)
		return;
	snprintf(rel, sizeof(rel), "runs/%s", d->plan[d->done[0]].name);
	if (sf_dir_at(&dir, &d->dir, rel, err, sizeof(err)) != 0)
		return;
	if (result_load(&run, &dir, err, sizeof(err)) == 0) {
		if (run.has_meta)
			snprintf(name, len, "%s", run.host.name);
		result_free(&run);
	}
	sf_dir_close(&dir);
}

bool rundir_host_labels(const struct rundir *dirs, size_t n, char (*label)[RUNDIR_LABEL])
{
	char name[64], first[64];
	bool repeat = false;

	for (size_t i = 0; i < n && !repeat; i++) {
		dir_hostname(&dirs[i], first, sizeof(first));
		for (size_t k = i + 1; k < n && !repeat; k++) {
			dir_hostname(&dirs[k], name, sizeof(name));
			repeat = strcmp(name, first) == 0;
		}
	}
	for (size_t i = 0; i < n; i++) {
		*label[i] = '\0';
		if (repeat) {
			dir_hostname(&dirs[i], name, sizeof(name));
			snprintf(label[i], RUNDIR_LABEL, "%.32s-dir%u", *name ? name : "unknown", (unsigned int)(i + 1));
		}
	}
	return repeat;
}
