/*
 * rundir.c — reading a run-all directory (rundir.h).
 */
#include "rundir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TEXT_MAX (16u << 20)  /* plan.txt of a long sweep on a big box is well under 1 MiB */

static int set_err(char *err, size_t errlen, const char *path, const char *what)
{
	snprintf(err, errlen, "%s: %s", path, what);
	return -1;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* The whole file, NUL-terminated, or NULL (errno set; EFBIG when too big). */
static char *read_text(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *text;
	size_t n;

	if (!f)
		return NULL;
	text = malloc(TEXT_MAX + 1);
	n = text ? fread(text, 1, TEXT_MAX + 1, f) : 0;
	if (text && (ferror(f) || n > TEXT_MAX)) {
		free(text);
		text = NULL;
		errno = n > TEXT_MAX ? EFBIG : EIO;
	}
	fclose(f);
	if (text) {
		text[n] = '\0';
		*len = n;
	}
	return text;
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

int kv_file_read(struct kv_file *f, const char *path, char sep, bool skip_header, char *err, size_t errlen)
{
	char **lines;
	size_t len, nlines;

	memset(f, 0, sizeof(*f));
	if (!(f->text = read_text(path, &len)))
		return errno == ENOENT ? 1 : set_err(err, errlen, path, strerror(errno));
	nlines = split_lines(f->text, len, &lines);
	if (!lines || !(f->pair = calloc(nlines + 1, sizeof(*f->pair)))) {
		free(lines);
		kv_file_free(f);
		return set_err(err, errlen, path, "out of memory");
	}
	for (size_t i = skip_header ? 1 : 0; i < nlines; i++) {
		char *s = strchr(lines[i], sep);
		if (!s || s == lines[i]) {
			snprintf(err, errlen, "%s: line %zu is not KEY%cVALUE", path, i + 1, sep);
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

static int read_assignments(struct kv_file *f, const char *path, const char *const *keys, char *err, size_t errlen)
{
	int rc = kv_file_read(f, path, '=', false, err, errlen);

	if (rc == 1)
		return set_err(err, errlen, path, "missing: not a run-all directory");
	for (size_t i = 0; rc == 0 && i < f->n; i++) {
		bool known = false;
		for (const char *const *k = keys; *k && !known; k++)
			known = strcmp(*k, f->pair[i].key) == 0;
		if (!known || !plain_value(f->pair[i].value)) {
			snprintf(err, errlen, "%s: unexpected line '%.40s=...'", path, f->pair[i].key);
			rc = -1;
		}
	}
	return rc;
}

static const char *const settings_keys[] = {
	"QUICK", "REPS", "ORDER_SEED", "LOCKS", "WORKLOADS", "THREADS", "DEFAULT_OUT", "STARTED", "BUDGET", "DIR",
	"DIR_WHY", NULL
};
static const char *const env_keys[] = { "NCPU", "NUMA_NODES", "ALL_LOCKS", "ALL_WORKLOADS", "KL", "KL_WHY", NULL };

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

/* "NAME ARGS": NAME of [a-z0-9.-] (it names a directory), ARGS plain words
 * ('/' in --dir's), as run-all writes and checks them. */
static bool parse_plan_line(char *line, struct plan_run *r)
{
	char *sp = strchr(line, ' '), *w;

	if (!sp || sp == line)
		return false;
	for (char *p = line; p < sp; p++)
		if (!name_char(*p))
			return false;
	for (char *p = sp + 1; *p; p++)
		if (!name_char(*p) && !(*p >= 'A' && *p <= 'Z') && *p != ',' && *p != '_' && *p != ' ' && *p != '/')
			return false;
	*sp = '\0';
	r->name = line;
	r->args = sp + 1;
	snprintf(r->kind, sizeof(r->kind), "%.*s", (int)strcspn(line, "-"), line);
	w = strstr(r->args, "-w ");
	if (w && (w == r->args || w[-1] == ' '))
		snprintf(r->workload, sizeof(r->workload), "%.*s", (int)strcspn(w + 3, " "), w + 3);
	return true;
}

static int load_plan(struct rundir *d, char *err, size_t errlen)
{
	char path[sizeof(d->path) + 32], **lines;
	size_t len, n;
	char *text;

	rundir_file(d, NULL, "plan.txt", path, sizeof(path));
	if (!(text = read_text(path, &len)))
		return set_err(err, errlen, path, errno == ENOENT ? "missing: not a run-all directory" : strerror(errno));
	n = split_lines(text, len, &lines);
	d->plan = calloc(n + 1, sizeof(*d->plan));
	d->done = calloc(n + 1, sizeof(*d->done));
	if (!lines || !d->plan || !d->done) {
		free(lines);
		free(text);
		return set_err(err, errlen, path, "out of memory");
	}
	d->plan[0].name = text;  /* owns the text: freed with the plan */
	for (size_t i = 0; i < n; i++) {
		char summary[sizeof(d->path) + 128];
		if (!parse_plan_line(lines[i], &d->plan[i])) {
			free(lines);
			snprintf(err, errlen, "%s: malformed line %zu", path, i + 1);
			return -1;
		}
		rundir_file(d, d->plan[i].name, "summary.csv", summary, sizeof(summary));
		d->plan[i].finished = exists(summary);
	}
	free(lines);
	d->nplan = n;
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

static int order_finished(struct rundir *d, char *err, size_t errlen)
{
	char path[sizeof(d->path) + 32];
	struct kv_file variants;
	int rc = kv_file_read(&variants, (rundir_file(d, NULL, "variants.txt", path, sizeof(path)), path), ' ',
			      false, err, errlen);

	if (rc < 0)
		return -1;
	d->has_variants = rc == 0;
	if (!d->has_variants) {
		for (size_t i = 0; i < d->nplan; i++)
			if (d->plan[i].finished)
				d->done[d->ndone++] = i;
		return 0;
	}
	for (size_t v = 0; v < variants.n; v++)
		for (size_t i = 0; i < d->nplan; i++)
			if (d->plan[i].finished && d->ndone < d->nplan &&
			    run_of_variant(d->plan[i].name, variants.pair[v].key, strlen(variants.pair[v].key)))
				d->done[d->ndone++] = i;
	kv_file_free(&variants);
	return 0;
}

int rundir_load(struct rundir *d, const char *path, char *err, size_t errlen)
{
	char file[sizeof(d->path) + 32];
	const char *reps;
	char *end;

	memset(d, 0, sizeof(*d));
	if (strlen(path) >= sizeof(d->path) - 64)
		return set_err(err, errlen, path, "path too long");
	snprintf(d->path, sizeof(d->path), "%s", path);
	rundir_file(d, NULL, "settings", file, sizeof(file));
	if (read_assignments(&d->settings, file, settings_keys, err, errlen) != 0)
		return -1;
	reps = rundir_setting(d, "REPS");
	errno = 0;
	d->reps = (unsigned int)strtoul(reps, &end, 10);
	if (!*reps || *end || errno || d->reps < 1 || d->reps > 100000)
		return set_err(err, errlen, file, "REPS is not a positive whole number");
	d->quick = strcmp(rundir_setting(d, "QUICK"), "1") == 0;
	rundir_file(d, NULL, "run-env", file, sizeof(file));
	if (read_assignments(&d->env, file, env_keys, err, errlen) != 0)
		return -1;
	if (load_plan(d, err, errlen) != 0)
		return -1;
	return order_finished(d, err, errlen);
}

void rundir_free(struct rundir *d)
{
	kv_file_free(&d->settings);
	kv_file_free(&d->env);
	if (d->plan)
		free(d->plan[0].name);
	free(d->plan);
	free(d->done);
	memset(d, 0, sizeof(*d));
}

const char *rundir_setting(const struct rundir *d, const char *key)
{
	const char *v = kv_get(&d->settings, key);
	return v ? v : "";
}

const char *rundir_env(const struct rundir *d, const char *key)
{
	const char *v = kv_get(&d->env, key);
	return v ? v : "";
}

void rundir_file(const struct rundir *d, const char *name, const char *file, char *out, size_t len)
{
	if (name)
		snprintf(out, len, "%s/runs/%s/%s", d->path, name, file);
	else
		snprintf(out, len, "%s/%s", d->path, file);
}

int rundir_run_kv(const struct rundir *d, const char *name, const char *file, struct kv_file *f)
{
	char path[sizeof(d->path) + 128], err[256];

	rundir_file(d, name, file, path, sizeof(path));
	return kv_file_read(f, path, ',', true, err, sizeof(err));
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
