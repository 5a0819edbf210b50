# tap.sh — the TAP helpers every tests/*.t sources: numbered ok / not ok lines.
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; }
# check NAME SHELL-CONDITION
check() { if eval "$2"; then ok "$1"; else not_ok "$1"; fi; }
