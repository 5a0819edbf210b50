# phases.gp — how each lock's acquisitions were obtained: fast path, after
# spinning, on the sleep path without sleeping, after sleeping (stacked bars,
# % of acquisitions).  A lock without spin/sleep instrumentation (its four
# figures all 0, as glibc's mutex's) is labelled "no phases recorded" in its bar's
# place: an empty bar would read as no acquisitions.
# Reads analysis/lbcompare's phases-<workload>-t<threads>.csv:
#   lock,fast_pct,spin_pct,nosleep_pct,sleep_pct
# Extra -e variables: workload, threads.
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
# A histogram's bars stand at x = 0, 1, 2, ...: the row's number.  The
# labels' plot only where some row has no phases (gnuplot 5.4 crashes on a
# `with labels` of no point in a one-row file).
unrecorded(fast, spin, nosleep, sleep) = fast + spin + nosleep + sleep == 0
stats in skip 1 using (unrecorded($2, $3, $4, $5)) nooutput
labels_plot = STATS_sum > 0 ? ", '' skip 1 using 0:(unrecorded($2, $3, $4, $5) ? 2 : 1/0):(\"no phases recorded\") with labels rotate by 90 left font \",10\" textcolor rgb \"#555555\" notitle" : ""
set title sprintf("How acquisitions were obtained, %s, %s threads\n%s", workload, threads, machine) noenhanced
set ylabel "% of acquisitions"
set yrange [0:100]
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by -30 left noenhanced
plot in skip 1 using 2:xtic(1) title "fast path", '' skip 1 using 3 title "after spinning", \
	'' skip 1 using 4 title "without sleeping", '' skip 1 using 5 title "after sleeping" @labels_plot
