/*
 * text_int.h — internal to the text printer (text*.c): what its files share.
 *
 *   text.c        every table of one group, and the whole text (print.h)
 *   text_cells.c  the cells the tables share (ratio, p-value, column width)
 *   text_hist.c   the histograms and how each variant's differs
 *   text_seed.c   the seed patch's published figures beside ours
 *   text_hosts.c  runs from several hosts, side by side
 *   text_across.c two hosts: each variant against itself, before -> after
 */
#ifndef LOCKBENCH_ANALYSIS_TEXT_INT_H
#define LOCKBENCH_ANALYSIS_TEXT_INT_H

#include <stdio.h>

#include "../figures/figures.h"

/* The text being printed: of which comparison, where to, and where a
 * figure that cannot be computed is said. */
struct text {
	const struct comparison *c;
	FILE *out;
	char *err;
	size_t errlen;
};

/* The cells every table shares (text_cells.c): " 1.23x", value / base in
 * the ratio column (" -" where base is 0). */
void print_ratio(struct text *t, double value, double base);
void print_verdict_ratio(struct text *t, const struct verdict *vd, const struct stat3 *s, const struct stat3 *base);
/* The width of the variants' name column. */
int label_width(const struct group *g);
/* A p-value in three decimals, "<0.001" below. */
void p_text(double p, char *buf, size_t len);
/* Every table of one group; 0, or -1 with err set. */
int print_group(struct text *t, const struct group *g);

/* The group's histogram table, then how each variant's differs from the baseline's. */
void print_hist(struct text *t, const struct group *g, bool contended);
void print_hist_differences(struct text *t, const struct group *g, bool contended);

/* The seed patch's figures beside the patch pair (2.6.34 -> the fix); 0, or -1 with err set. */
int print_seed(struct text *t, const struct group *g);
/* The hosts, and each workload across them; print_across_hosts: 0, or -1 with err set. */
void print_hosts(struct text *t);
int print_across_hosts(struct text *t);
/* With two hosts: each variant of the first against itself on the second (figures/across.h). */
void print_before_after(struct text *t);

#endif
