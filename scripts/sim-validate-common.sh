# sim-validate-common.sh — sourced by sim-validate.sh and sim-validate-kernel.sh
# (PROG names the script in messages, top the tree; tmp is its scratch directory).

# Saves tmp's real-* and sim-* figure files in $SIM_VALIDATE_SAVE, when set.
save_figures() {
	[ -n "${SIM_VALIDATE_SAVE:-}" ] || return 0
	mkdir -p "$SIM_VALIDATE_SAVE" && cp "$tmp"/real-* "$tmp"/sim-* "$SIM_VALIDATE_SAVE"/ ||
		{ echo "$PROG: cannot save the figures in $SIM_VALIDATE_SAVE" >&2; exit 1; }
}

# reuse_real NAME REP: with $SIM_VALIDATE_REAL set, takes its real figure file
# NAME (at the first repetition) instead of running, and succeeds.
reuse_real() {
	[ -n "${SIM_VALIDATE_REAL:-}" ] || return 1
	[ -f "$SIM_VALIDATE_REAL/$1" ] && [ ! -L "$SIM_VALIDATE_REAL/$1" ] ||
		{ echo "$PROG: no $SIM_VALIDATE_REAL/$1 to reuse" >&2; exit 1; }
	[ "$2" -gt 1 ] || cp "$SIM_VALIDATE_REAL/$1" "$tmp/$1"
}

# sweep_median, the sweeps' median and [min, max] over seeds.
. "$top/scripts/sim-sweep.sh"

# FILE COLUMN: "median min max" of the column.
stats() { cut -d' ' -f "$2" "$1" | sweep_median; }
