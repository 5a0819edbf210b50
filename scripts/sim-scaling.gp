# sim-scaling.gp — issue 41's "Where the fix begins": the patch pair's fix
# over its baseline, ops/s and CPU time per operation, against CPUs.  Reads
# scripts/sim-scaling.sh's OUT.dat (machine,cpus,threads,ops_ratio,ops_lo,
# ops_hi,cpu_ratio,cpu_lo,cpu_hi,...): the simulated profile's rows (machine =
# profile) as lines with error bars (medians; bars: min..max over seeds), and
# at 2 CPUs this machine's real point and its simulated one (here-real,
# here-simulated) as points beside it.  Extra -e variables: profile, and the
# registry's names sim-scaling.sh ran: spin and fix (the pair), workload.
load (exists("gpdir") ? gpdir : "scripts") . "/plot-common.gp"
set title sprintf("%s / %s, %s, threads = 2 x CPUs, kernel semantics (medians; bars: min..max)\n%s", \
	fix, spin, workload, machine) noenhanced
set xlabel "CPUs"
set ylabel "fix / spin"
set logscale x 2
set logscale y 2
set format y "%.3g"
set xrange [1.4:180]
set bars small
is(m) = strcol(1) eq m
# The two points of this machine, nudged apart at x = 2 so neither hides the other.
plot 1 with lines lc rgb "#999999" dt 2 notitle, \
	in skip 1 using 2:(is(profile) ? $4 : NaN):5:6 with yerrorlines lc rgb "#a50026" pt 9 lw 2 \
		title "ops/s, simulated " . profile noenhanced, \
	in skip 1 using 2:(is(profile) ? $7 : NaN):8:9 with yerrorlines lc rgb "#1f77b4" pt 5 lw 2 dt 2 \
		title "CPU per op, simulated " . profile noenhanced, \
	in skip 1 using ($2 * 0.94):(is("here-simulated") ? $4 : NaN):5:6 with yerrorbars lc rgb "#f46d43" pt 8 ps 1.2 \
		title "ops/s, simulated here (2 CPUs)", \
	in skip 1 using ($2 * 0.94):(is("here-simulated") ? $7 : NaN):8:9 with yerrorbars lc rgb "#17becf" pt 4 ps 1.2 \
		title "CPU per op, simulated here (2 CPUs)", \
	in skip 1 using ($2 * 1.06):(is("here-real") ? $4 : NaN):5:6 with yerrorbars lc rgb "#000000" pt 7 ps 1.2 \
		title "ops/s, real here (2 CPUs)", \
	in skip 1 using ($2 * 1.06):(is("here-real") ? $7 : NaN):8:9 with yerrorbars lc rgb "#525252" pt 6 ps 1.2 \
		title "CPU per op, real here (2 CPUs)"
