# sweep.gp — one figure against thread count, one line per lock.
# Reads analysis/lbcompare's sweep-<workload>-<figure>.csv: threads,<lock>...
# Extra -e variables: workload, ylabel_text, logy (1: logarithmic y axis).
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
stats in using 1 skip 1 nooutput
ncols = STATS_columns
set title sprintf("%s against threads, %s\n%s", ylabel_text, workload, machine) noenhanced
set xlabel "threads"
set ylabel ylabel_text noenhanced
set logscale x 2
if (logy) { set logscale y 10 }
set style data linespoints
plot for [c = 2:ncols] in using 1:c title columnhead(c) lw 2 pt 7 ps 0.8 noenhanced
