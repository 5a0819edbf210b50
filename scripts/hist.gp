# hist.gp — acquisition-time histograms of several locks on one chart, the
# seed patch's "acq time = 2^bin cycles" table as a picture.
# Reads analysis/lbcompare's hist-<workload>-t<threads>.csv or
# hist-contended-<workload>-t<threads>.csv:
#   bin,lower_cycles,lower_ns,<lock>...   (percent of each lock's acquisitions,
#                                          or of its contended ones)
# Extra -e variables: workload, threads, ghz (TSC GHz, for the ns axis),
# contended=1 for a hist-contended file (the title and axis say so), and
# kernel_col=N for the column of the real kernel's row (lbcompare's "kernel
# 6.18 ..." from --kernel-locks): its waits are drawn black and dashed over
# the models'.
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
stats in using 1 skip 1 nooutput
ncols = STATS_columns
# Bins that hold data in any column: x range from the first to the last (one
# pass over the rows' sums: a column with a single point, or none, as a
# contended histogram can have, is no special case).
stats in using ((sum [c = 4:ncols] column(c)) > 0 ? $1 : 1/0) skip 1 nooutput
first = STATS_min; last = STATS_max
subset = (exists("contended") && contended) ? "contended acquisitions only, as the patch counted" : "all acquisitions"
kcol = exists("kernel_col") ? kernel_col : 0
set title sprintf("Lock acquisition time (%s), %s, %s threads\n%s%s", subset, workload, threads, machine, \
	kcol ? "; dashed: the kernel's own lock waits" : "") noenhanced
set xlabel "acquisition time, 2^{bin} TSC cycles"
set ylabel sprintf("%% of %s acquisitions (log scale: the tails carry the story)", \
	(exists("contended") && contended) ? "contended" : "all")
set xrange [first - 0.5 : last + 0.5]
set xtics 1
# Logarithmic, so a 0.1% tail of 2^26-cycle waits shows beside a 90% peak;
# empty bins are left out rather than drawn at the floor.
set logscale y 10
set yrange [0.001:100]
set x2range [first - 0.5 : last + 0.5]
set x2label "lower bound of the bin, ns" offset 0,-0.5
set tmargin 8
set x2tics () rotate by 30 left
do for [b = int(first) : int(last) : (last - first > 16 ? 2 : 1)] {
	ns = (2.0 ** b) / ghz
	lbl = ns < 1000 ? sprintf("%.0f", ns) : ns < 1e6 ? sprintf("%.0fk", ns / 1e3) : sprintf("%.0fM", ns / 1e6)
	set x2tics add (lbl b)
}
set style data linespoints
series_first = 4
series_step = 1
@series_styles
# The models, then the kernel's column alone (an empty range without one).
plot for [c = 4:ncols] in using 1:(c != kcol && column(c) > 0 ? column(c) : 1/0) \
	title (c == kcol ? "" : columnhead(c)) ls c noenhanced, \
	for [c = (kcol ? kcol : 1) : (kcol ? kcol : 0)] in using 1:(column(c) > 0 ? column(c) : 1/0) \
	title columnhead(c) lw 3 dt 2 lt -1 pt 5 ps 0.8 noenhanced
