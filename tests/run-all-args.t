#!/bin/sh
# run-all-args.t — run-all's refusals of its own arguments say what is wrong
# (issue 42, "Also"): an option whose value is the next option lacks its
# value (as lockbench says), a misspelt option gets the nearest one, and a
# directory that is not there, or is no directory, is called that rather
# than "not a run-all directory".  Each is one line and exit status 2.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"
RA=./run-all
echo "1..7"

# ARGS...: run-all's stderr into tmp/err, its status into rc.
refuse() { "$RA" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
one_line() { [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "$1" "$tmp/err"; }

refuse --reps --quick
check "--reps --quick: the value is missing ($(cat "$tmp/err"))" \
	'one_line "^run-all: --reps needs a value (the next argument, .--quick., is an option)$"'
refuse --out --report "$tmp"
check "--out --report: the value is missing" 'one_line "^run-all: --out needs a value (the next argument, .--report., is an option)$"'
refuse --qiuck
check "--qiuck: did you mean --quick ($(cat "$tmp/err"))" \
	'one_line "^run-all: unknown argument .--qiuck., did you mean .--quick.? (see --help)$"'
refuse --xyzzy
check "--xyzzy: nothing near, no suggestion" 'one_line "^run-all: unknown argument .--xyzzy. (see --help)$"'
refuse --report "$tmp/none"
check "--report DIR that does not exist says so" 'one_line "^run-all: --report: .*none. does not exist$"'
: >"$tmp/file"
refuse --resume "$tmp/file"
check "--resume FILE: not a directory" 'one_line "^run-all: --resume: .*file. is not a directory$"'
mkdir "$tmp/empty"
refuse --report "$tmp/empty"
check "--report of an empty directory: not a run-all directory, and why" \
	'one_line "^run-all: --report: .*empty. is not a run-all directory (no settings and plan.txt in it)$"'
