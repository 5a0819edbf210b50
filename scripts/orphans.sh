# orphans.sh — sourced by run-all: what a lockbench killed outright left behind.
# A lockbench killed by SIGKILL (or a crash, or a power cut) cannot remove its
# staging directory (runs/NAME.partial-XXXXXX) or its workload's directory
# (lockbench-WORKLOAD-XXXXXX in $TMPDIR).  Each holds .lockbench-owner,
# "PID START BOOT" (bench/workloads/fileutil.h); --resume removes those whose owner is
# gone, by lockbench's own rule: never a live process's, an unstamped one, or
# another user's.

owner_gone() { # DIR
	[ -f "$1/.lockbench-owner" ] && [ ! -L "$1/.lockbench-owner" ] || return 1
	read -r opid ostart oboot <"$1/.lockbench-owner" || return 1
	case $opid:$ostart in *[!0-9:]* | :* | *:) return 1 ;; esac
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo -)
	[ "$oboot" != - ] && [ "$boot" != - ] && [ "$oboot" != "$boot" ] && return 0
	[ "$ostart" != 0 ] && [ -r /proc/self/stat ] || return 1
	[ -e "/proc/$opid" ] || return 0
	# Field 22 of /proc/PID/stat, counted after the command name's ')'.
	now=$(sed 's/.*) //' "/proc/$opid/stat" 2>/dev/null | cut -d' ' -f20)
	[ -n "$now" ] && [ "$now" != "$ostart" ]
}
sweep_orphans() { # PARENT GLOB
	for d in "$1"/$2; do
		if [ -d "$d" ] && [ ! -L "$d" ] && [ -O "$d" ] && owner_gone "$d"; then
			rm -rf -- "$d" && echo "run-all: removed $d (left by a lockbench that was killed)"
		fi
	done
}
