# sweep.gp — one figure against thread count, one line per lock.
# Reads analysis/lbcompare's sweep-<workload>-<figure>.csv: threads,<lock>...,
# or with ci=1 its sweep-<workload>-<figure>-ci.csv: threads, then per lock
# the median and its 95% CI's ends (<lock>,<lock> lo,<lock> hi), drawn as
# error bars (lbcompare gives [min..max] below 6 repetitions, which cover less).
# Extra -e variables: workload, ylabel_text, logy (1: logarithmic y axis), ci.
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
if (!exists("ci")) { ci = 0 }
stats in using 1 skip 1 nooutput
ncols = STATS_columns
set title sprintf("%s against threads, %s%s\n%s", ylabel_text, workload, \
	ci ? " (medians; bars: their 95% CI, min..max below 6 repetitions)" : "", machine) noenhanced
set xlabel "threads"
set ylabel ylabel_text noenhanced
set logscale x 2
if (logy) { set logscale y 10 }
set style data linespoints
series_first = 2
series_step = ci ? 3 : 1
@series_styles
if (ci) {
	set bars small
	plot for [c = 2:ncols:3] in using 1:c:c+1:c+2 with yerrorlines title columnhead(c) ls c noenhanced
} else {
	plot for [c = 2:ncols] in using 1:c title columnhead(c) ls c noenhanced
}
