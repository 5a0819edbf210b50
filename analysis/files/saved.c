/*
 * saved.c — the checks of a run-all directory's own files (saved.h).
 *
 * run-all reads these files line by line with the shell's `IFS='=' read -r
 * KEY VALUE`, and these checks take each line as that read does, so that a
 * directory is taken or refused alike by run-all and by the report: a line
 * counts only with its newline, a NUL byte is dropped, and VALUE is all
 * after the first '=' but for one lone trailing '=' (dash's field rule:
 * "k=v=" is "v", "k=v=w=" stays "v=w=").
 */
#include "saved.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../common/text.h"

/* ---- a line as run-all's `read` takes it ---- */

/* LINE (NUL-terminated, its NUL bytes already dropped) into KEY and VALUE,
 * in place. */
static void split_assignment(char *line, const char **key, const char **value)
{
	char *eq = strchr(line, '='), *last;

	*key = line;
	*value = "";
	if (!eq)
		return;
	*eq = '\0';
	*value = eq + 1;
	last = strchr(eq + 1, '=');
	if (last && last[1] == '\0')
		*last = '\0';
}

/* The next whole line of TEXT from *POS (a line without its newline is not
 * one: `read` returns false on it), NUL bytes dropped, NUL-terminated in
 * place; NULL at the end. */
static char *next_read_line(char *text, size_t len, size_t *pos)
{
	char *start = text + *pos, *nl = memchr(start, '\n', len - *pos), *w = start;

	if (*pos >= len || !nl)
		return NULL;
	*pos = (size_t)(nl - text) + 1;
	for (char *r = start; r < nl; r++)
		if (*r)
			*w++ = *r;
	*w = '\0';
	return start;
}

/* run-all's printable(): SRC, cut to N - 1 bytes, control characters as '?'
 * (text_one_line). */
static void printable(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
	text_one_line(dst);
}

/* ---- values ---- */

/* run-all's whole(): a whole number from 1 to MAX as written (no sign, no
 * leading zero). */
static bool whole(const char *v, const char *max)
{
	size_t n = strlen(v), nmax = strlen(max);

	if (!n || v[0] == '0' || strspn(v, "0123456789") != n)
		return false;
	return n < nmax || (n == nmax && strcmp(v, max) <= 0);
}

static bool only(const char *v, const char *set)
{
	return strspn(v, set) == strlen(v);
}

static bool flag(const char *v)
{
	return !strcmp(v, "0") || !strcmp(v, "1");
}

#define LOWER "abcdefghijklmnopqrstuvwxyz"
#define UPPER "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#define DIGIT "0123456789"

int saved_setting_check(const char *k, const char *v)
{
	if (!strcmp(k, "QUICK") || !strcmp(k, "DEFAULT_OUT") || !strcmp(k, "SIM_ONLY"))
		return flag(v) ? 0 : 1;
	if (!strcmp(k, "REPS"))
		return whole(v, "1000") ? 0 : 1;
	if (!strcmp(k, "ORDER_SEED"))
		return whole(v, "2147483646") ? 0 : 1;
	if (!strcmp(k, "BUDGET"))
		return whole(v, "100000") ? 0 : 1;
	if (!strcmp(k, "LOCKS") || !strcmp(k, "WORKLOADS"))
		return only(v, LOWER DIGIT ",-") ? 0 : 1;
	if (!strcmp(k, "THREADS"))
		return only(v, DIGIT ",") ? 0 : 1;
	if (!strcmp(k, "STARTED"))
		return only(v, DIGIT "TZ:-") ? 0 : 1;
	/* Recorded for the report; a resumed run keeps its plan's -d. */
	if (!strcmp(k, "DURATION"))
		return *v && only(v, LOWER DIGIT ".,=-") ? 0 : 1;
	if (!strcmp(k, "DIR") || !strcmp(k, "DIR_WHY"))
		return only(v, UPPER LOWER DIGIT " ._/,:=()-") ? 0 : 1;
	if (!strcmp(k, "SIM"))
		return only(v, UPPER LOWER DIGIT "._/-") ? 0 : 1;
	if (!strcmp(k, "SIM_WHY"))
		return only(v, UPPER LOWER DIGIT " ._/,:=();-") ? 0 : 1;
	return -1;
}

static const char *const env_names[] = {
	"ALL_LOCKS", "ALL_WORKLOADS", "KERNEL_WORKLOADS", "NUMA_ONLY_LOCKS", "PATCH_PAIR", "PATCH_WORKLOADS",
	"PROGRAM_BASE", "KERNEL_BASE", "CK_LOCKS", NULL
};

int saved_env_check(const char *k, const char *v)
{
	/* NCPU is "?" where --report recorded a directory from before run-env
	 * whose runs wrote no meta.csv. */
	if (!strcmp(k, "NCPU") && (!strcmp(v, "?") || (*v >= '1' && *v <= '9')))
		return only(v, "?") || only(v, DIGIT) ? 0 : 1;
	if (!strcmp(k, "NUMA_NODES") && *v >= '0' && *v <= '9')
		return only(v, DIGIT) ? 0 : 1;
	for (const char *const *n = env_names; *n; n++)
		if (!strcmp(k, *n))
			return only(v, LOWER DIGIT " -") ? 0 : 1;
	if (!strcmp(k, "KL_WHY") || (!strcmp(k, "KL") && (!*v || !strcmp(v, "--kernel-locks"))))
		return 0;
	return -1;
}

/* ---- plan lines ---- */

/* A name and at least one argument, single spaces between, each of its
 * characters. */
static bool plan_shape_ok(const char *s, size_t len)
{
	const char *end = s + len, *sp = memchr(s, ' ', len);
	size_t nl = sp ? (size_t)(sp - s) : len;

	if (!sp || !nl || !strchr(LOWER DIGIT, *s) || memchr(s, '\0', len))
		return false;
	for (size_t i = 0; i < nl; i++)
		if (!strchr(LOWER DIGIT ".-", s[i]))
			return false;
	for (const char *p = sp; p < end; p++) {
		if (*p == ' ' && (p + 1 == end || p[1] == ' '))
			return false;
		if (*p != ' ' && !strchr(UPPER LOWER DIGIT ".,:_/-", *p))
			return false;
	}
	return true;
}

/* Whether WORD (N bytes) has a `.` or `..` component. */
static bool dot_component(const char *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		while (j < n && w[j] != '/')
			j++;
		if ((j - i == 1 && w[i] == '.') || (j - i == 2 && w[i] == '.' && w[i + 1] == '.'))
			return true;
		i = j;
	}
	return false;
}

/* Of a line of plan_shape_ok's: a '/' only in --dir's or --sim's word, an
 * absolute path without `.` or `..`. */
static bool plan_paths_ok(const char *s, size_t len)
{
	const char *end = s + len, *prev = s, *w = memchr(s, ' ', len);
	size_t prevn = (size_t)(w - s);

	while (w && w < end) {
		const char *ws = w + 1, *we = memchr(ws, ' ', (size_t)(end - ws));
		size_t n;
		if (!we)
			we = end;
		n = (size_t)(we - ws);
		if (memchr(ws, '/', n)) {
			bool after = (prevn == 5 && !memcmp(prev, "--dir", 5)) || (prevn == 5 && !memcmp(prev, "--sim", 5));
			if (!after || *ws != '/' || dot_component(ws, n))
				return false;
		}
		prev = ws;
		prevn = n;
		w = we;
	}
	return true;
}

bool saved_plan_line_ok(const char *line, size_t len)
{
	return plan_shape_ok(line, len) && plan_paths_ok(line, len);
}

/* The first line of TEXT (grep's and awk's lines: a last one without its
 * newline counts) that OK refuses, from 1; 0 when none. */
static size_t first_bad_line(const char *text, size_t len, bool (*ok)(const char *, size_t))
{
	size_t n = 0;

	for (const char *p = text, *end = text + len; p < end; n++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (!ok(p, l))
			return n + 1;
		p += l + 1;
	}
	return 0;
}

/* plan.txt's or variants.txt's checks, in run-all's order: every line's
 * shape first, then the paths. */
static int plan_ok(const char *text, size_t len, const char *name, const char *from, char *err, size_t errlen)
{
	size_t bad = first_bad_line(text, len, plan_shape_ok);

	if (!bad)
		bad = first_bad_line(text, len, plan_paths_ok);
	if (!bad)
		return 0;
	snprintf(err, errlen, "%s: %s: malformed line %zu", from, name, bad);
	return -1;
}

/* ---- reading ---- */

/* REL under DIR as run-all's read_file takes it: a regular file (no link)
 * of at most MAX bytes, else its line. */
static char *read_file(const struct sf_dir *dir, const char *rel, size_t max, size_t *len, char *err, size_t errlen)
{
	char path[PATH_MAX + 64], shown[sizeof(path)];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir->path, rel);
	printable(shown, sizeof(shown), path);
	if (sf_stat(dir, rel, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "'%s' is not a regular file", shown);
		return NULL;
	}
	if ((size_t)st.st_size > max) {
		snprintf(err, errlen, "'%s' is larger than %zu bytes: not a file run-all wrote", shown, max);
		return NULL;
	}
	return sf_read_all(dir, rel, max, len, err, errlen);
}

/* "FROM: FILE: unexpected line 'K=V'", K=V printable. */
static int unexpected(char *err, size_t errlen, const char *from, const char *file, const char *k, const char *v)
{
	int n = snprintf(err, errlen, "%s: %s: unexpected line '%s=%s'", from, file, k, v);

	/* FROM and FILE are run-all's own words: only K=V can hold one. */
	for (size_t i = 0; n > 0 && i < errlen && err[i]; i++)
		if ((unsigned char)err[i] < ' ' || err[i] == 0x7f)
			err[i] = '?';
	return -1;
}

struct text {
	char *s;
	size_t len;
};

/* One of run-all's KEY=VALUE files (FILE: "settings", "run-env"), each
 * line checked by CHECK in order, and it complete when it has keys NEED[0]
 * and NEED[1]: 0, each line KEY=VALUE on OUT (NULL: none), or -1 and the
 * first refused line's why. */
bool saved_next_assignment(char *text, size_t len, size_t *pos, const char **key, const char **value)
{
	char *line = next_read_line(text, len, pos);

	if (line)
		split_assignment(line, key, value);
	return line != NULL;
}

static int check_lines(struct text *t, const char *file, int (*check)(const char *, const char *),
		       const char *const need[2], const char *from, FILE *out, char *err, size_t errlen)
{
	const char *k, *v;
	bool has[2] = { false, false };
	size_t pos = 0;

	while (saved_next_assignment(t->s, t->len, &pos, &k, &v)) {
		int rc;
		if ((rc = check(k, v)) > 0) {
			snprintf(err, errlen, "%s: %s: bad %s", from, file, k);
			return -1;
		}
		if (rc < 0)
			return unexpected(err, errlen, from, file, k, v);
		for (int i = 0; i < 2; i++)
			has[i] |= !strcmp(k, need[i]);
		if (out)
			fprintf(out, "%s=%s\n", k, v);
	}
	if (has[0] && has[1])
		return 0;
	snprintf(err, errlen, "%s: %s: incomplete", from, file);
	return -1;
}

int saved_settings(const struct sf_dir *dir, const char *from, FILE *out, char *err, size_t errlen)
{
	struct text settings = { 0 }, plan = { 0 }, variants = { 0 };
	char *lines = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&lines, &len);
	int rc = -1;

	if (!mem || !(settings.s = sf_read_all(dir, "settings", SAVED_KV_MAX, &settings.len, err, errlen)) ||
	    !(plan.s = sf_read_all(dir, "plan.txt", SAVED_PLAN_MAX, &plan.len, err, errlen)))
		goto out;
	if (sf_is_file(dir, "variants.txt") &&
	    !(variants.s = sf_read_all(dir, "variants.txt", SAVED_PLAN_MAX, &variants.len, err, errlen)))
		goto out;
	if (check_lines(&settings, "settings", saved_setting_check, (const char *const[]){ "REPS", "QUICK" }, from,
			mem, err, errlen) == 0 &&
	    plan_ok(plan.s, plan.len, "plan.txt", from, err, errlen) == 0 &&
	    (!variants.s || plan_ok(variants.s, variants.len, "variants.txt", from, err, errlen) == 0))
		rc = 0;
	fclose(mem);
	mem = NULL;
	if (rc == 0 && len)
		fwrite(lines, 1, len, out);
out:
	if (mem)
		fclose(mem);
	free(lines);
	free(settings.s);
	free(plan.s);
	free(variants.s);
	return rc;
}

/* ---- run-env ---- */

/* The digits of KEY's value in a meta.csv (the first line whose first
 * field is KEY: what follows its first comma, or the line itself), into V. */
static void meta_digits(const char *text, size_t len, const char *key, char *v, size_t n)
{
	size_t kl = strlen(key), o = 0;

	v[0] = '\0';
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *e = nl ? nl : end;
		const char *comma = memchr(p, ',', (size_t)(e - p)), *f = comma ? comma : e;
		if ((size_t)(f - p) == kl && !memcmp(p, key, kl)) {
			for (const char *q = comma ? comma + 1 : p; q < e && o + 1 < n; q++)
				if (*q >= '0' && *q <= '9')
					v[o++] = *q;
			v[o] = '\0';
			return;
		}
		p = e + 1;
	}
}

/* NCPU and NUMA_NODES of the first runs/NAME/meta.csv (NAME in the shell
 * glob's order: sf_names, FNM_PERIOD, no hidden one): "?" and "1" without one. */
static int env_from_meta(const struct sf_dir *dir, FILE *out, char *err, size_t errlen)
{
	char ncpu[32] = "", nodes[32] = "", rel[PATH_MAX];
	char **names = NULL;
	struct sf_dir runs = { .fd = -1 };
	int rc = 0;

	if (sf_dir_at(&runs, dir, "runs", err, errlen) == 0 && (names = sf_names(&runs, "*")))
		for (char **n = names; *n; n++) {
			struct stat st;
			struct text meta;
			snprintf(rel, sizeof(rel), "runs/%s/meta.csv", *n);
			if (sf_stat(dir, rel, &st) != 0 || !S_ISREG(st.st_mode))
				continue;
			if (!(meta.s = read_file(dir, rel, SAVED_META_MAX, &meta.len, err, errlen))) {
				rc = -1;
				break;
			}
			meta_digits(meta.s, meta.len, "topology_pus_usable", ncpu, sizeof(ncpu));
			meta_digits(meta.s, meta.len, "topology_numa_nodes", nodes, sizeof(nodes));
			free(meta.s);
			break;
		}
	sf_names_free(names);
	sf_dir_close(&runs);
	fprintf(out, "NCPU=%s\nNUMA_NODES=%s\n", *ncpu ? ncpu : "?", *nodes ? nodes : "1");
	return rc;
}

static int strcmp_p(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The words after OPT in PLAN's lines (not a line's last word), sorted,
 * each once, each followed by a space. */
static void plan_words(const char *plan, const char *opt, FILE *out)
{
	char *copy = strdup(plan), **w = NULL, *save = NULL;
	size_t n = 0, cap = 0;

	for (char *line = copy ? strtok_r(copy, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
		for (char *p = strchr(line, ' '); p; p = strchr(p + 1, ' ')) {
			char *word = p + 1, *next = strchr(word, ' ');
			size_t ol = strlen(opt);
			if (!next || (size_t)(next - word) != ol || memcmp(word, opt, ol))
				continue;
			if (n == cap && !(w = realloc(w, (cap = cap ? cap * 2 : 64) * sizeof(*w))))
				break;
			w[n++] = next + 1;
		}
	for (size_t i = 0; i < n; i++)
		w[i][strcspn(w[i], " ")] = '\0';
	if (w)
		qsort(w, n, sizeof(*w), strcmp_p);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(w[i], w[i - 1]))
			fprintf(out, "%s ", w[i]);
	free(w);
	free(copy);
}

int saved_env(const struct sf_dir *dir, const char *plan, const char *const *names, const char *from, FILE *out,
	      char *err, size_t errlen)
{
	struct text env;
	int rc;

	if (sf_is_file(dir, "run-env")) {
		if (!(env.s = read_file(dir, "run-env", SAVED_KV_MAX, &env.len, err, errlen)))
			return -1;
		rc = check_lines(&env, "run-env", saved_env_check, (const char *const[]){ "NCPU", "NUMA_NODES" }, from,
				 NULL, err, errlen);
		free(env.s);
		return rc;
	}
	if (env_from_meta(dir, out, err, errlen) != 0)
		return -1;
	if (names) {
		fprintf(out, "ALL_LOCKS=%s\nALL_WORKLOADS=%s\nNUMA_ONLY_LOCKS=%s\n", names[0], names[1], names[2]);
	} else {
		fputs("ALL_LOCKS=", out);
		plan_words(plan, "-l", out);
		fputs("\nALL_WORKLOADS=", out);
		plan_words(plan, "-w", out);
		fputs("\nNUMA_ONLY_LOCKS=\n", out);
	}
	fprintf(out, "KL=%s\nKL_WHY=not recorded with these runs\nKERNEL_WORKLOADS=\n",
		strstr(plan, " --kernel-locks") ? "--kernel-locks" : "");
	return 0;
}
