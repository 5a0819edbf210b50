# plot-common.gp — shared by every chart.  Callers set with gnuplot -e:
#   in (CSV path), out (output path without extension), fmt ("png" or "svg"),
#   machine (one line naming the machine), and the script's own variables.
#   run-all runs gnuplot in a directory of its own with in='in.csv' and
#   out='out', and every other text as an expression of single-quoted
#   strings without a quote (gp_string in scripts/files.sh): inside '...'
#   gnuplot 5 substitutes nothing, so a path or label stays data.
# `in` is pasted into a shell command below (head): a name with a quote is
# refused rather than run.
if (strstrt(in, "'") > 0) { exit error "plot-common.gp: the input file's name holds a quote: not taken" }
# A chart may set width and height (pixels) before loading this file.
if (!exists("width")) { width = 1000 }
if (!exists("height")) { height = 600 }
if (fmt eq "svg") {
	set terminal svg size width,height dynamic enhanced font "Sans,11" background "white"
} else {
	set terminal pngcairo size width,height enhanced font "Sans,10"
}
set output out . "." . fmt
set datafile separator comma
set key outside right top
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
# Series styles: every series its own colour, dash and point.  The kernel
# mutex models share one red family, told apart by shade, dash and point,
# so they read as one group; every other series takes the next colour of a
# 16-colour palette without reds, dashed on the palette's second round.  A
# chart calls series_styles(first, step) to define line style c for its
# series in columns first, first + step, ... (numbered s = 0, 1, ...), and
# plots column c with `ls c`: gnuplot 5.4 takes no function call after `pt`
# or `dt`, only a variable.
# The locks styled apart, each a list of names between spaces (" a b "),
# come from the caller as data -- run-all passes scripts/plot-names.sh's
# lines as gnuplot strings -- none named here, and no shell asked: highlight,
# the patch pair, the lock before the patch first, then the fix (the patch
# table's first two): hist.gp draws them bold and the rest grey;
# kmutex_order, the kernel mutex models in the kernels' order; ck_locks,
# Concurrency Kit's (sweep.gp's panels).  Without them no lock is styled apart.
if (!exists("highlight")) { highlight = " " }
if (!exists("kmutex_order")) { kmutex_order = " " }
if (!exists("ck_locks")) { ck_locks = " " }
series_names = system("head -n 1 '" . in . "' | tr ', ' ' _'")
series_name(c) = word(series_names, c)
array kmutex_rgb[6] = ["#fdae61", "#a50026", "#f46d43", "#d73027", "#e08214", "#7f3b08"]
array other_rgb[16] = ["#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", \
	"#000080", "#006d2c", "#54278f", "#00a6a6", "#525252", "#c51b7d", "#4575b4", "#66a61e"]
kpos(n) = strstrt(kmutex_order, " " . n . " ")
kidx(n) = words(kmutex_order[1:kpos(n)]) + 1
series_rgb(n, s) = kpos(n) ? kmutex_rgb[(kidx(n) - 1) % 6 + 1] : other_rgb[s % 16 + 1]
series_dt(n, s) = kpos(n) ? (kidx(n) - 1) % 3 + 1 : s / 16 + 1
series_pt(n, s) = kpos(n) ? (kidx(n) % 2 ? 9 : 5) : s % 7 + 1
series_styles = 'do for [c = series_first:ncols:series_step] { \
	series_n = series_name(c); series_s = (c - series_first) / series_step; \
	series_colour = series_rgb(series_n, series_s); series_d = series_dt(series_n, series_s); \
	series_p = series_pt(series_n, series_s); \
	set style line c lc rgb series_colour dt series_d pt series_p lw 2 ps 0.8 }'
