#!/bin/sh
# sim-seed.t — issue 41's check on the seed's machine (docs/sim.md, "The
# seed's machine"): kmutex-spin (2.6.34) and kmutex-fix (2.6.36) simulated on
# sim/profiles/nehalem-ex-64.profile at 64 CPUs, kernel semantics, creat, 128
# threads (two a CPU: enough waiters that some spin while others hold and
# sleep).  The fix ends spin phases when it sees the owner change; the
# unfixed model, which spins on as long as some owner runs, never does; and
# one seed replays byte for byte.
#
# SIM_SEED_SPIN and SIM_SEED_FIX name the two locks (default kmutex-spin and
# kmutex-fix): with kmutex-spin for both, the fix's check fails, and with
# kmutex-fix for both, the unfixed one's (the test can fail).
LB=${LOCKBENCH:-bench/lockbench}
SPIN=${SIM_SEED_SPIN:-kmutex-spin}
FIX=${SIM_SEED_FIX:-kmutex-fix}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
LB=$(cd "$(dirname "$LB")" && pwd)/$(basename "$LB")
meta() { awk -F, -v k="$2" '$1 == k { sub(/^[^,]*,/, ""); print; exit }' "$1/meta.csv"; }
echo "1..6"

# 20 simulated ms from the start, no warm-up (the fix sends most of the
# herd to sleep within the first ms, so a warm-up would leave its owner
# changes out): about a thousand acquisitions of each, under a second here.
# Each run in its own folder with the same -o: one command
# line, so a replay's cmdline.txt and meta.csv match too (tests/sim-run.t).
SEED="-w creat -t 128 -d 0.02 --warmup 0 --sim nehalem-ex-64 --sim-cpus 64 --quiet -o r"
run_in() { mkdir -p "$tmp/$1" && (cd "$tmp/$1" && timeout -s KILL 120 "$LB" -l "$2" $SEED >out 2>err); }

run_in spin "$SPIN"
check "$SPIN on nehalem-ex-64, 64 CPUs, 128 threads: exit 0, nothing on stderr" \
	'[ $? -eq 0 ] && [ ! -s "$tmp/spin/err" ]'
check "$SPIN: kernel semantics, 64 simulated CPUs" \
	'[ "$(meta "$tmp/spin/r" sim_semantics)" = kernel ] && [ "$(meta "$tmp/spin/r" sim_cpus)" = 64 ] &&
	 [ "$(meta "$tmp/spin/r" sim_profile)" = nehalem-ex-64 ]'
# "Never" means something only where spin phases ran and ended.
spins=$(val "$tmp/spin/r" acq_spin) oc=$(val "$tmp/spin/r" spin_exit_owner_changed)
check "$SPIN: $spins acquisitions by spinning, and no spin phase ended on an owner change ($oc)" \
	'[ "${spins:-0}" -gt 0 ] && [ "$oc" = 0 ]'

run_in fix "$FIX"
oc=$(val "$tmp/fix/r" spin_exit_owner_changed)
check "$FIX: exit 0, nothing on stderr" '[ -s "$tmp/fix/r/summary.csv" ] && [ ! -s "$tmp/fix/err" ]'
check "$FIX: spin phases ended on an owner change ($oc)" '[ "${oc:-0}" -gt 0 ]'

run_in again "$FIX"
check "$FIX: the same seed again, a byte-identical result directory" \
	'[ $? -eq 0 ] && diff -r "$tmp/fix/r" "$tmp/again/r" >/dev/null'
