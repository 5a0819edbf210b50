#!/bin/sh
# options.t — every option a lock or a workload declares (common/option.h),
# read from `lockbench --list`'s `option` lines, never from the C source: its
# bad values are each one line on stderr naming the option as typed and
# quoting the value, exit status 2, nothing on stdout — so a new option has
# its bad-value rows without a hand-written row in bad-options.tsv.  The
# values are those no option of its kind takes: for a number (VALUE in
# capitals: BYTES, N, CYCLES) empty, not a number, signed, with a unit, a
# fraction, hex, overflowing 64 bits, with a space, with a newline; for a
# choice (VALUE a|b|c) empty, the first choice in capitals, with a letter
# more, with a space or a newline, and the VALUE word itself.  Also each
# option without its value, given where its owner is another lock or
# workload (which lacks it), and given 17 times; and bench/cli.c spells none
# of them (a new option is its owner's file alone).
LB=${LOCKBENCH:-bench/lockbench}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/tap.sh"

# A value wrongly taken starts a short run, whose summary fails "nothing on
# stdout".
RUN="-t 1 -d 0.01 --warmup 0"
"$LB" --list >"$tmp/list" || { echo "1..1"; not_ok "lockbench --list fails"; exit 0; }
awk '/^[a-z]+:$/ { on = ($0 == "plan:"); next } on && $1 == "option"' "$tmp/list" >"$tmp/options"
section() { awk -v s="$1:" '/^[a-z]+:$/ { on = ($0 == s); next } on { print $1 }' "$tmp/list"; }
locks=$(section locks)
workloads=$(section workloads)
nl='
'

# bad_values VALUE: the values no option declared with VALUE takes, one a line
# (a newline inside a value is written \n, made one by printf).
bad_values() {
	case $1 in
	*'|'*)
		first=${1%%|*}
		printf '%s\n' '' "$(printf '%s' "$first" | tr a-z A-Z)" "${first}x" " $first" "$first\\nx" "$1"
		;;
	*) printf '%s\n' '' x -1 +1 4x 1.5 0x10 1e3 18446744073709551616 ' 1' '1\nx' ;;
	esac
}

# other OWNER-KIND KEY: a lock or workload that has no option KEY, one with
# other options where there is one (its refusal lists them).
other() {
	if [ "$1" = lock ]; then all=$locks; else all=$workloads; fi
	for o in $all; do
		awk -v k="$1" -v o="$o" -v key="$2" '$2 == k && $3 == o { n++; if ($4 == key) f = 1 }
			END { print (f ? 2 : n ? 0 : 1), o }' "$tmp/options"
	done | sort -s -n -k1,1 | awk '$1 < 2 { print $2; exit }'
}

# names OWNER-KIND NAME: NAME's options as a refusal lists them, from --list:
# " KEY KEY" (a lock's, as --lock-opt takes them), " --KEY" (a workload's), " none".
names() {
	awk -v k="$1" -v o="$2" '$2 == k && $3 == o { s = s " " (k == "workload" ? "--" : "") $4 }
		END { print s == "" ? " none" : s }' "$tmp/options"
}

check "--list declares options (lock and workload ones: $(wc -l <"$tmp/options"))" \
	'grep -q "^  option lock " "$tmp/options" && grep -q "^  option workload " "$tmp/options"'
# The CLI makes them all from the declarations: bench/cli.c spells no lock
# option's key or alias, and no workload option's key (as a word of its own).
spelled=
cli=$(dirname "$0")/../bench/cli.c
for w in $(awk '{ print $4; if ($6 != "-") print substr($6, 3) }' "$tmp/options" | sort -u); do
	grep -qw -- "$w" "$cli" && spelled="$spelled $w"
done
check "bench/cli.c spells no declared option${spelled:+ (it spells:$spelled)}" '[ -f "$cli" ] && [ -z "$spelled" ]'
while read -r _ kind owner key value typed _ <&3; do
	if [ "$kind" = lock ]; then flag=-l; else flag=-w; fi
	# Each spelling it is typed in: ARGS before the value, the message's start.
	spellings=
	[ "$kind" = lock ] && spellings="--lock-opt $key=|--lock-opt $key"
	[ "$typed" != - ] && spellings="$spellings${spellings:+$nl}$typed |$typed"
	bad_values "$value" >"$tmp/bad"
	while IFS='|' read -r typing said <&4; do
		i=0
		while IFS= read -r bad <&5; do
			bad=$(printf '%b.' "$bad")
			bad=${bad%.}
			shown=$(printf '%s' "$bad" | tr '\n' '?')
			case $typing in
			*=) set -- --lock-opt "${typing#--lock-opt }$bad" ;;
			*) set -- "${typing% }" "$bad" ;;
			esac
			usage_error "$owner $said '$shown' is refused, quoted" "lockbench: $said: " \
				"$@" $flag "$owner" $RUN
			[ "$rc" -eq 2 ] && grep -qF -- "'$shown'" "$tmp/err" ||
				not_ok "$owner $said '$shown': the message quotes the value ($(head -c 200 "$tmp/err"))"
			# A lock option's alias is the same set(): a few of them.
			[ "$said" != "$typed" ] || [ "$kind" != lock ] || [ "$((i += 1))" -lt 3 ] || break
		done 5<"$tmp/bad"
	done 4<<EOF
$spellings
EOF
	if [ "$typed" != - ]; then
		usage_error "$typed without its value" "option '$typed' needs a value" $flag "$owner" "$typed"
	fi
	if [ "$kind" = lock ]; then opt="--lock-opt $key=1" said="--lock-opt $key"; else opt="$typed 1" said=$typed; fi
	lacks=$(other "$kind" "$key")
	if [ -n "$lacks" ]; then
		usage_error "$said with $kind $lacks, which lacks it, names $lacks's options" \
			"$said: $kind $lacks has no $([ "$kind" = lock ] && echo "option '$key'" || echo "such option") (its options:$(names "$kind" "$lacks"))" \
			$opt $flag "$lacks" $RUN
	fi
	# shellcheck disable=SC2086 # 17 times the option and its value
	usage_error "$said 17 times" "more than 16 $kind settings" \
		$(for i in $(seq 17); do printf '%s ' $opt; done) $flag "$owner" $RUN
done 3<"$tmp/options"
echo "1..$n"
