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
# the models', and base_col=N for the baseline's column (lbcompare's, the
# group's first variant, as its tables take it; 0: none), labelled
# "(baseline)" and, where it is neither the pair nor the kernel (glibc's mutex, a
# program's baseline), drawn bold and black.  The seed's pair, `highlight`
# (plot-common.gp: the lock before the patch, then the fix), is drawn bold in
# red and blue and the other locks thin and grey: the chart exists to tell
# the two apart.  seed='FILE' (a simulated group of a workload whose
# histogram the seed published: lbcompare's seed-hist-contended-*.csv, bin
# then the seed's 2.6.34 and fix columns in %) draws the seed's two beside
# them, thin and dotted in the pair's colours.  A
# zero bin between a lock's first and last non-empty bin is drawn on the
# chart's floor, labelled 0, so a line runs through it instead of breaking
# into isolated points (a log axis has no 0).
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
stats in using 1 skip 1 nooutput
ncols = STATS_columns
# Bins that hold data in any column: x range from the first to the last (one
# pass over the rows' sums: a column with a single point, or none, as a
# contended histogram can have, is no special case).
stats in using ((sum [c = 4:ncols] column(c)) > 0 ? $1 : 1/0) skip 1 nooutput
first = STATS_min; last = STATS_max
# The seed's bins widen the range where it is drawn.
seeded = exists("seed")
if (seeded) {
	stats seed using ($2 + $3 > 0 ? $1 : 1/0) skip 1 nooutput
	first = STATS_min < first ? STATS_min : first
	last = STATS_max > last ? STATS_max : last
}
# Each column's first and last non-empty bin (-1 where it has none): two
# passes of stats (before any range is set, which stats would apply) whose every value is defined, so an empty column is no error.
array nz_first[ncols]
array nz_last[ncols]
do for [c = 4:ncols] {
	stats in using (column(c) > 0 ? $1 : -1) skip 1 nooutput
	nz_last[c] = STATS_max
	stats in using (column(c) > 0 ? -$1 : -1e9) skip 1 nooutput
	nz_first[c] = -STATS_max
}
subset = (exists("contended") && contended) ? "contended acquisitions only, as the patch counted" : "all acquisitions"
kcol = exists("kernel_col") ? kernel_col : 0
set title sprintf("Lock acquisition time (%s), %s, %s threads\n%s%s", subset, workload, threads, machine, \
	kcol ? "; dashed: the kernel's own lock waits" : "") noenhanced
set xlabel "acquisition time, 2^{bin} TSC cycles"
set ylabel sprintf("%% of %s acquisitions (log scale; 0: an empty bin)", \
	(exists("contended") && contended) ? "contended" : "all")
set xrange [first - 0.5 : last + 0.5]
set xtics 1
# Logarithmic, so a 0.1% tail of 2^26-cycle waits shows beside a 90% peak;
# an empty bin inside a lock's range sits on the floor, labelled 0.
floor = 1e-4
set logscale y 10
set yrange [floor:100]
set ytics ("0" floor, "0.001" 0.001, "0.01" 0.01, "0.1" 0.1, "1" 1, "10" 10, "100" 100)
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
y_of(c) = column(c) > 0 ? column(c) : ($1 >= nz_first[c] && $1 <= nz_last[c] ? floor : 1/0)
# The pair and the baseline bold, the rest thin and grey (their own dash
# and point kept, so each is still told apart in the key); the rest drawn
# first, under them.
bcol = exists("base_col") ? base_col : 0
is_pair(c) = c != kcol && strstrt(highlight, " " . series_name(c) . " ") > 0
is_before(c) = series_name(c) eq word(highlight, 1)
is_bold(c) = is_pair(c) || (c == bcol && c != kcol)
do for [c = 4:ncols] {
	if (is_pair(c)) {
		set style line c lc rgb (is_before(c) ? "#b2182b" : "#2166ac") lw 3.5 dt 1 pt (is_before(c) ? 7 : 5) ps 1
	} else {
		if (is_bold(c)) {
			set style line c lc rgb "#000000" lw 3 dt 1 pt 7 ps 0.9
		} else {
			set style line c lc rgb (c % 2 ? "#a0a0a0" : "#c4c4c4") lw 1
		}
	}
}
base_title(c) = c == bcol ? " (baseline)" : ""
bold_title(c) = columnhead(c) . (c == bcol ? " (baseline)" : !is_pair(c) ? "" : \
	is_before(c) ? " (before the fix)" : " (the fix)")
# The others, the bold ones over them, then the kernel's column alone, where
# there is one (a macro of numbers only: no name or path in it).
kernel_plot = kcol ? sprintf(", in using 1:(y_of(%d)) title columnhead(%d) . base_title(%d) lw 3 dt 2 lt -1 pt 5 ps 0.8 noenhanced", \
	kcol, kcol, kcol) : ""
# The seed's columns (a macro of fixed text: the file is 'seed', copied by
# run-all under that name); a bin it published as 0.00 is drawn on the floor
# inside the chart's range.
seed_y(c) = column(c) > 0 ? column(c) : ($1 >= first && $1 <= last ? floor : 1/0)
kernel_plot = kernel_plot . (seeded ? ", seed skip 1 using 1:(seed_y(2)) title \"the seed's 2.6.34 (published)\" lc rgb \"#b2182b\" lw 2 dt 3 pt 6 ps 1, seed skip 1 using 1:(seed_y(3)) title \"the seed's fix (published)\" lc rgb \"#2166ac\" lw 2 dt 3 pt 4 ps 1" : "")
plot for [c = 4:ncols] in using 1:(c != kcol && !is_bold(c) ? y_of(c) : 1/0) \
	title (c == kcol || is_bold(c) ? "" : columnhead(c)) ls c noenhanced, \
	for [c = 4:ncols] in using 1:(is_bold(c) ? y_of(c) : 1/0) \
	title (is_bold(c) ? bold_title(c) : "") ls c noenhanced @kernel_plot
