# phases.gp — how each lock's acquisitions were obtained: fast path, after
# spinning, on the sleep path without sleeping, after sleeping (stacked bars,
# % of acquisitions).  Locks without spin/sleep instrumentation show an empty
# bar.
# Reads analysis/lbcompare's phases-<workload>-t<threads>.csv:
#   lock,fast_pct,spin_pct,nosleep_pct,sleep_pct
# Extra -e variables: workload, threads.
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
set title sprintf("How acquisitions were obtained, %s, %s threads\n%s", workload, threads, machine) noenhanced
set ylabel "% of acquisitions"
set yrange [0:100]
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by -30 left noenhanced
plot in skip 1 using 2:xtic(1) title "fast path", '' skip 1 using 3 title "after spinning", \
	'' skip 1 using 4 title "without sleeping", '' skip 1 using 5 title "after sleeping"
