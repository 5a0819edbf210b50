# registry.sh — sourced by run-all and scripts/soak.sh: names from the
# registry as `lockbench --list` prints it, the only list of locks and
# workloads there is.

# registry_names SECTION [TEXT]: reads `lockbench --list` on stdin and prints
# the names in SECTION (locks or workloads), one per line; with TEXT, only
# those whose description contains it.
registry_names() {
	want=$1: text=${2:-} awk '
		/^[a-z]+:$/ { on = ($0 == ENVIRON["want"]); next }
		on && (ENVIRON["text"] == "" || index($0, ENVIRON["text"])) { print $1 }'
}

# in_list WORD LIST: WORD is one of the space-separated LIST.
in_list() {
	case " $2 " in *" $1 "*) return 0 ;; esac
	return 1
}

# registry_plan KIND: reads `lockbench --list` on stdin and prints the plan:
# section's lines of KIND, less the KIND word, in --list order: `NAME ROLE
# FULL QUICK` for `workload`, `NAME` for `takes-dir` and `meets-in-kernel`
# (the workloads that make files under --dir, and those whose threads also
# meet on a kernel lock) and for `no-exclusion` (the locks that exclude
# nothing), `NAME UNIT s|min` for `unit` (what one operation
# is called, its throughput per second or per minute), `NAME` for each lock
# role of locks/locks.def: `numa-only` (swept only on two or more NUMA
# nodes), `program-baseline` (first under every program),
# `kernel-baseline` (with --kernel-locks the kernel's own lock alone) and
# `concurrency-kit` (Concurrency Kit's: --quick's sweep leaves them out),
# `NAME WHEN` for `patch-lock`, the patch table's locks in column order
# (the first two the patch pair; WHEN: always, or kernel-locks),
# `NAME ROLE FULL QUICK` for `program` (bench/exec/programs.def: its
# {seconds} in a full and a --quick run), `lock|workload NAME KEY VALUE
# TYPED HELP...` for `option` (each option a lock or workload declares:
# tests/options.t, scripts/options-doc.sh).
registry_plan() {
	kind=$1 awk '
		/^[a-z]+:$/ { on = ($0 == "plan:"); next }
		on && $1 == ENVIRON["kind"] { $1 = ""; sub(/^ /, ""); print }'
}

