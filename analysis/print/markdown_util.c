/*
 * markdown_util.c — what the report's sections share (markdown_int.h): the
 * tally of lines, the directory's file names, a chart's link, a failed
 * comparison said in place of its tables.  Below every section's file
 * (markdown.c, markdown_runs.c, markdown_kernel.c, markdown_hosts.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "markdown_int.h"

char **md_names(const struct md *m, const char *sub, const char *pattern)
{
	struct sf_dir dir;
	char err[256], **names;

	if (sf_dir_at(&dir, &m->top, sub, err, sizeof(err)) != 0)
		return NULL;
	names = sf_names(&dir, pattern);
	sf_dir_close(&dir);
	return names;
}

/* DIR/plots/NAME.png's link, where gnuplot drew it. */
void md_print_plot(struct md *m, const char *alt, const char *name)
{
	char path[MD_PATH];

	snprintf(path, sizeof(path), "plots/%s.png", name);
	if (sf_is_file(&m->top, path))
		fprintf(m->out, "![%s](plots/%s.png)\n\n", alt, name);
}

/* Whether data/KIND-W.txt (REL), lbcompare's text of KIND's runs of W, is
 * its one-line error: then that line stands in the section, and the failed
 * section counts it. */
bool md_failed_comparison(struct md *m, const char *rel)
{
	char line[1024], key[MD_PATH + sizeof(line)];

	if (!md_comparison_failed(&m->top, rel, line, sizeof(line)))
		return false;
	md_print_failed_comparison(m->out, rel, line);
	snprintf(key, sizeof(key), "%s\t%s", rel, line);
	tally_add(&m->failed, key);
	return true;
}

void tally_add(struct tally *t, const char *key)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->item[i].key, key) == 0) {
			t->item[i].count++;
			return;
		}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct tally_item *item = realloc(t->item, cap * sizeof(*item));
		if (!item)
			return;  /* out of memory: the line goes uncounted, the report goes on */
		t->item = item;
		t->cap = cap;
	}
	if ((t->item[t->n].key = strdup(key)) != NULL)
		t->item[t->n++].count = 1;
}

static bool by_count;
static int cmp_items(const void *a, const void *b)
{
	const struct tally_item *x = a, *y = b;

	if (by_count && x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->key, y->key);
}

void tally_sort(struct tally *t, bool most_first)
{
	by_count = most_first;
	if (t->n > 1)
		qsort(t->item, t->n, sizeof(*t->item), cmp_items);
}

void tally_free(struct tally *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->item[i].key);
	free(t->item);
	*t = (struct tally){ 0 };
}

bool md_next_word(const char **p, char *w, size_t len)
{
	size_t n;

	*p += strspn(*p, " ");
	n = strcspn(*p, " ");
	if (n == 0)
		return false;
	snprintf(w, len, "%.*s", (int)n, *p);
	*p += n;
	return true;
}

int md_csv_read(struct md_csv *csv, const struct sf_dir *dir, const char *rel)
{
	struct kv_file f;  /* its reader gives the lines; the cells are split here */
	char err[256];
	size_t ncells = 0;

	memset(csv, 0, sizeof(*csv));
	if (kv_file_read(&f, dir, rel, ',', false, err, sizeof(err)) != 0)
		return -1;
	csv->ncols = 2;  /* the key and its value, and one more cell per comma in the value */
	for (const char *p = f.n ? f.pair[0].value : ""; (p = strchr(p, ',')) != NULL; p++)
		csv->ncols++;
	csv->nrows = f.n;
	csv->cell = calloc(csv->nrows * csv->ncols + 1, sizeof(*csv->cell));
	for (size_t r = 0; csv->cell && r < f.n; r++) {
		char *v = (char *)f.pair[r].value;
		csv->cell[ncells++] = (char *)f.pair[r].key;
		for (size_t c = 1; c < csv->ncols; c++) {
			char *comma = v ? strchr(v, ',') : NULL;
			if (comma)
				*comma = '\0';
			csv->cell[ncells++] = v ? v : "";
			v = comma ? comma + 1 : NULL;
		}
	}
	csv->text = f.text;
	free(f.pair);
	if (!csv->cell || f.n == 0) {
		md_csv_free(csv);
		return -1;
	}
	return 0;
}

int md_csv_col(const struct md_csv *csv, const char *name)
{
	for (size_t c = 0; c < csv->ncols; c++)
		if (strcmp(csv->cell[c], name) == 0)
			return (int)c;
	return -1;
}

void md_csv_free(struct md_csv *csv)
{
	free(csv->text);
	free(csv->cell);
	memset(csv, 0, sizeof(*csv));
}

long md_threads_of(const char *path)
{
	const char *t = strrchr(path, 't');
	return t ? strtol(t + 1, NULL, 10) : 0;
}

int md_cmp_threads(const void *a, const void *b)
{
	long x = md_threads_of(*(char *const *)a), y = md_threads_of(*(char *const *)b);
	return (x > y) - (x < y);
}

/* Only the hosts and the across-hosts tables of lbcompare's text: every
 * block that opens with "Hosts" or "== across hosts", up to its blank line. */
static void copy_text(FILE *out, FILE *f, bool across_only)
{
	char line[4096];
	bool on = !across_only;

	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "Hosts", 5) == 0 || strncmp(line, "== across hosts", 15) == 0)
			on = true;
		if (on)
			fputs(line, out);
		if (across_only && on && line[0] == '\n')
			on = false;
	}
}

void md_fenced_text(FILE *out, const struct sf_dir *dir, const char *rel, bool across_only)
{
	char err[1024];
	FILE *f = sf_fopen_read(dir, rel, RUNDIR_TEXT_MAX, err, sizeof(err));

	if (!f) {
		fprintf(out, "- `%s` could not be read: %s\n\n", rel, err);
		return;
	}
	fprintf(out, "```text\n");
	copy_text(out, f, across_only);
	fclose(f);
	fprintf(out, "```\n\n");
}

/* lbcompare --output FILE writes its one-line error as FILE's whole text
 * when the comparison fails, as run-all's `2>&1` into FILE did before. */
bool md_comparison_failed(const struct sf_dir *dir, const char *rel, char *line, size_t len)
{
	static const char prefix[] = "lbcompare: ";
	char err[256];
	size_t n;
	char *text = sf_read_all(dir, rel, RUNDIR_TEXT_MAX, &n, err, sizeof(err));
	char *nl = text ? memchr(text, '\n', n) : NULL;
	bool failed = text && strncmp(text, prefix, sizeof(prefix) - 1) == 0 && (!nl || nl == text + n - 1);

	if (failed)
		snprintf(line, len, "%.*s", (int)(nl ? nl - text : (ptrdiff_t)n), text);
	free(text);
	return failed;
}

void md_print_failed_comparison(FILE *out, const char *rel, const char *line)
{
	fprintf(out, "**The comparison of these runs failed** (`%s`), so this section has no tables:\n\n```text\n%s\n```\n\n",
		rel, line);
}
