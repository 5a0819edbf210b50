# sweep.gp — one figure against thread count, one line per lock, as small
# multiples: a panel per lock family (the kernel mutex's models, Concurrency
# Kit's, the rest: plot-common.gp's kmutex_order and ck_locks), each family in colours of its own
# (a palette of 9, so no two lines of a panel share one) over the other
# families' lines in light grey, on one y range: a lock is told apart within
# its family and still read against all the others.  22 lines on one chart
# repeated their colours.
# Reads analysis/lbcompare's sweep-<workload>-<figure>.csv: threads,<lock>...,
# or with ci=1 its sweep-<workload>-<figure>-ci.csv: threads, then per lock
# the median and its 95% CI's ends (<lock>,<lock> lo,<lock> hi), drawn as
# error bars (lbcompare gives [min..max] below 6 repetitions, which cover less).
# Extra -e variables: workload, ylabel_text, logy (1: logarithmic y axis), ci.
width = 1500
height = 620
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
if (!exists("ci")) { ci = 0 }
stats in using 1 skip 1 nooutput
ncols = STATS_columns
step = ci ? 3 : 1
# A lock's family, from the registry (plot-common.gp): 1 the kernel mutex's
# models, 2 Concurrency Kit's, 3 the rest.
nfam = 3
array fam_title[nfam] = ["kmutex-*: the kernel mutex's models", "ck-*: Concurrency Kit", \
	"the rest: lockbench's own locks and glibc's"]
family(n) = kpos(n) ? 1 : strstrt(ck_locks, " " . n . " ") ? 2 : 3
array fam_of[ncols]
array fam_n[nfam]
array idx_of[ncols]
do for [f = 1:nfam] { fam_n[f] = 0 }
do for [c = 2:ncols:step] {
	fam_of[c] = family(series_name(c))
	idx_of[c] = fam_n[fam_of[c]]
	fam_n[fam_of[c]] = fam_n[fam_of[c]] + 1
}
# One y range for every panel: the lowest and highest value of any series
# (the error bars' ends with ci), so a panel's height means the same in each.
ymin = 1e300; ymax = -1e300
do for [c = 2:ncols] {
	stats in using c skip 1 nooutput
	if (STATS_records > 0) {
		ymin = STATS_min < ymin ? STATS_min : ymin
		ymax = STATS_max > ymax ? STATS_max : ymax
	}
}
if (logy) {
	set logscale y 10
	set yrange [ymin / 1.5 : ymax * 1.5]
} else {
	set yrange [0 : ymax * 1.1]
}
# Nine colours told apart by most readers, each with its own point.
array fam_rgb[9] = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#000000"]
do for [c = 2:ncols:step] {
	i = idx_of[c] % 9
	# gnuplot 5.4 takes only a variable after dt and pt, no expression.
	line_rgb = fam_rgb[i + 1]; line_dt = idx_of[c] / 9 + 1; line_pt = i % 7 + 1
	set style line c lc rgb line_rgb dt line_dt pt line_pt lw 2 ps 0.8
}
set style line 1 lc rgb "#dddddd" lw 1 dt 1 pt 0
npanels = 0
do for [f = 1:nfam] { npanels = npanels + (fam_n[f] > 0) }
set multiplot layout 1, npanels title sprintf("%s against threads, %s%s\n%s", ylabel_text, workload, \
	ci ? " (medians; bars: their 95% CI, min..max below 6 repetitions)" : "", machine) noenhanced
set xlabel "threads"
set ylabel ylabel_text noenhanced
set logscale x 2
# Each panel's key below it, in a bottom margin of the same height in every
# panel (a family of 9 in 3 rows), so the panels' plots line up.
set key below left maxrows 3 samplen 2 noenhanced
set bmargin 8
set tmargin 3
set lmargin 11
set style data linespoints
if (ci) { set bars small }
do for [f = 1:nfam] {
	if (fam_n[f] > 0) {
		set title fam_title[f] noenhanced
		if (ci) {
			plot for [c = 2:ncols:3] in using 1:(fam_of[c] != f ? column(c) : 1/0) with lines ls 1 notitle, \
				for [c = 2:ncols:3] in using 1:(fam_of[c] == f ? column(c) : 1/0):c+1:c+2 \
				with yerrorlines title (fam_of[c] == f ? columnhead(c) : "") ls c
		} else {
			plot for [c = 2:ncols] in using 1:(fam_of[c] != f ? column(c) : 1/0) with lines ls 1 notitle, \
				for [c = 2:ncols] in using 1:(fam_of[c] == f ? column(c) : 1/0) \
				title (fam_of[c] == f ? columnhead(c) : "") ls c
		}
		unset ylabel
	}
}
unset multiplot
