# plot-common.gp — shared by every chart.  Callers set with gnuplot -e:
#   in (CSV path), out (output path without extension), fmt ("png" or "svg"),
#   machine (one line naming the machine), and the script's own variables.
if (fmt eq "svg") {
	set terminal svg size 1000,600 dynamic enhanced font "Sans,11" background "white"
} else {
	set terminal pngcairo size 1000,600 enhanced font "Sans,10"
}
set output out . "." . fmt
set datafile separator comma
set key outside right top
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
