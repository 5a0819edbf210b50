/*
 * text_across.c — lbcompare given two hosts (two machines, or a before and
 * an after: two run-all directories of one machine, --dir): each variant
 * against itself from the first host to the second, a table per workload
 * and thread count (figures/across.h), under the "across hosts" tables.
 */
#include <stdio.h>
#include <string.h>

#include "../figures/across.h"
#include "text_int.h"

/* One figure with its interval: "1234 [1200–1300]" (no interval under 2 runs). */
static void stat_text(const struct stat3 *s, const char *fmt, char *buf, size_t len)
{
	char m[32], lo[32], hi[32];

	snprintf(m, sizeof(m), fmt, s->median);
	snprintf(lo, sizeof(lo), fmt, s->ci.lo);
	snprintf(hi, sizeof(hi), fmt, s->ci.hi);
	if (s->n >= 2)
		snprintf(buf, len, "%s [%s..%s]", m, lo, hi);
	else
		snprintf(buf, len, "%s", m);
}

/* Pair K's row: the variant, before, after, the ratio with its interval and the verdict. */
static void print_pair(struct text *t, const struct across *a, unsigned int k)
{
	struct column col;
	struct stat3 before, after;
	struct verdict vd;
	char err[ERR_LEN], b[112], f[112], ratio[32], ci[64];

	fprintf(t->out, "%-18s", a->from->v[a->pair[k][0]].label);
	if (across_figure(a, k, &col, &before, &after, &vd, err, sizeof(err)) != 0) {
		fprintf(t->out, "  n/a\n");
		return;
	}
	stat_text(&before, col.fmt, b, sizeof(b));
	stat_text(&after, col.fmt, f, sizeof(f));
	ratio_text(&vd, &after, &before, ratio, sizeof(ratio));
	interval_text(&vd, ci, sizeof(ci));
	fprintf(t->out, "  %-26s  %-26s  %8s %-22s %s\n", b, f, ratio, ci, verdict_word(&vd, column_sense(&col)));
}

static void print_across_table(struct text *t, const struct across *a, const char *from, const char *to)
{
	struct column cols[RATIO_COLUMNS_MAX];
	unsigned int tested, shown;
	char note[512], hb[64], ha[64];

	ratio_columns(a->from, cols);
	fprintf(t->out, "== before -> after, each variant against itself: %s -> %s, %s %s, %u threads ==\n", from, to,
		a->from->program ? "program" : "workload", a->from->program ? a->from->program : a->from->workload,
		a->from->threads);
	snprintf(hb, sizeof(hb), "%s %s", from, cols[0].title);
	snprintf(ha, sizeof(ha), "%s %s", to, cols[0].title);
	fprintf(t->out, "%-18s  %-26.26s  %-26.26s  %s\n", "variant", hb, ha, "after/before, 95% interval, verdict");
	for (unsigned int k = 0; k < a->npairs; k++)
		print_pair(t, a, k);
	if (a->only_from || a->only_to)
		fprintf(t->out, "(%u variant%s only in %s, %u only in %s: not compared)\n", a->only_from,
			a->only_from == 1 ? "" : "s", from, a->only_to, to);
	if (across_reach_note(a, note, sizeof(note)))
		fprintf(t->out, "%s\n", note);
	across_verdicts(a, &tested, &shown);
	if (chance_note(tested, shown, note, sizeof(note)))
		fprintf(t->out, "%s\n", note);
	fprintf(t->out, "\n");
}

void print_before_after(struct text *t)
{
	static struct across a[MAX_GROUPS];
	const char *from, *to;
	size_t n;

	if (t->c->nhosts != 2)
		return;
	from = t->c->hosts[0].label;
	to = t->c->hosts[1].label;
	n = across_groups(t->c, 0, 1, a, MAX_GROUPS, NULL);
	for (size_t i = 0; i < n; i++)
		print_across_table(t, &a[i], from, to);
}
