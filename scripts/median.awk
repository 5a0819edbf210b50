# median.awk — the scripts' one median: reads numbers, one a line, sorted
# (sort -g), and prints "MEDIAN LEAST LARGEST", or "- - -" when there are
# none.  For an even count the median is the mean of the two middle ones,
# the rule of analysis/figures/stats.c's stats_median(), which lbcompare and
# the C programs here (scripts/trials.h) use: a figure a script prints and
# one lbcompare prints from the same numbers agree.
#
#   sort -g FILE | awk -f scripts/median.awk
{ v[NR] = $1 }
END {
	if (NR == 0) {
		print "- - -"
		exit
	}
	m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	print m, v[1], v[NR]
}
