/*
 * text_cells.c — the cells every text table shares (text_int.h): a ratio,
 * a p-value, the width of the variants' column.  Below the tables that use
 * them: text.c, text_hist.c, text_hosts.c.
 */
#include <stdio.h>
#include <string.h>

#include "text_int.h"

/* " 1.23x": value / base, whole numbers from 1000x on (" -" where base is 0). */
void print_ratio(struct text *t, double value, double base)
{
	if (base != 0)  /* whole numbers from 1000x on, to keep the column's width */
		fprintf(t->out, " %6.*fx", value / base >= 999.995 ? 0 : 2, value / base);
	else
		fprintf(t->out, " %7s", "-");
}

/* " 1.23x" beside a verdict: verdict_ratio(), with the decimals that keep
 * it off 1.00 where the verdict is a difference. */
void print_verdict_ratio(struct text *t, const struct verdict *vd, const struct stat3 *s, const struct stat3 *base)
{
	double r = verdict_ratio(vd, s, base);

	if (r == 0 && base->median == 0)
		fprintf(t->out, " %7s", "-");
	else
		fprintf(t->out, " %6.*fx", r >= 999.995 ? 0 : ratio_decimals(r, vd->direction), r);
}

/* The width of the variants' name column: their longest label, at least 18. */
int label_width(const struct group *g)
{
	size_t w = 18;

	for (unsigned int i = 0; i < g->nv; i++)
		w = strlen(g->v[i].label) > w ? strlen(g->v[i].label) : w;
	return (int)w;
}

/* A p-value in three decimals, "<0.001" below. */
void p_text(double p, char *buf, size_t len)
{
	if (p < 0.001)
		snprintf(buf, len, "<0.001");
	else
		snprintf(buf, len, "%.3f", p);
}
