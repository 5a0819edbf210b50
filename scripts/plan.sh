# plan.sh — sourced by run-all: the order of a plan's runs and what it costs.

# The plan: REPS rounds, round r running every variant once as NAME-rR with
# --seed R (a simulated one, --sim: --sim-seed R, its repetitions), in an order shuffled anew for each round, so that slow drift of
# the machine (other tenants, heat, a neighbour's job) lands on every variant
# alike instead of on whichever ran last.  Fisher-Yates driven by the
# Park-Miller generator (16807 x mod 2^31-1, exact in any awk's doubles), from
# ORDER_SEED and the round: the same seed makes the same plan.
make_plan() { # VARIANTS-FILE
	reps=$REPS seed=$ORDER_SEED awk '
		function rand31() { state = (state * 16807) % 2147483647; return state }
		{ name[NR] = $1; sub(/^[^ ]* /, ""); args[NR] = $0 }
		END {
			reps = ENVIRON["reps"] + 0; seed = ENVIRON["seed"] + 0
			for (r = 1; r <= reps; r++) {
				state = (seed + r * 48271) % 2147483647
				if (state == 0) state = 1
				for (i = 0; i < 8; i++) rand31()
				for (i = 1; i <= NR; i++) order[i] = i
				for (i = NR; i > 1; i--) {
					j = 1 + rand31() % i
					t = order[i]; order[i] = order[j]; order[j] = t
				}
				for (i = 1; i <= NR; i++)
					print name[order[i]] "-r" r " " args[order[i]] \
						(index(" " args[order[i]] " ", " --sim ") ? " --sim-seed " : " --seed ") r
			}
		}' "$1"
}

# What a plan costs: each run's warm-up and duration, and RUN_OVERHEAD
# seconds of its own (start, machine probe, result files: 400 quick runs took
# 5:08 on a 2-core VM where their -d and --warmup add up to 3:16; estimated 5:16).
# A simulated run (--sim) costs SIM_CPU_S_PER_S_THREAD CPU seconds per
# simulated second and thread (the six kmutex models' mean on nehalem-ex-64
# at 256 threads on 128 CPUs, fserver, 0.2 simulated s after 0.05 of warm-up,
# seed 1, user CPU on the 2-vCPU VM under a load average of 11-14, 7 Dec
# 2026: 5.28 s kmutex-spin, 0.47 kmutex-fix, 0.10 kmutex-sleep, 0.68
# kmutex-mcs, 0.74 kmutex-osq, 1.11 kmutex-handoff, a mean of 1.40 for 64
# thread-seconds; kmutex-spin alone about 0.08: docs/sim.md), its runs
# SIM_LANES at a time (run-all: one a CPU).
RUN_OVERHEAD=0.3
SIM_CPU_S_PER_S_THREAD=0.022
plan_seconds() { # FILE [TIMES]: FILE's runs, each TIMES over (default once)
	times=${2:-1} o=$RUN_OVERHEAD k=$SIM_CPU_S_PER_S_THREAD lanes=${SIM_LANES:-1} awk '
		{
			d = 0; t = 1; sim = 0
			for (i = 2; i < NF; i++) {
				if ($i == "-d" || $i == "--warmup") d += $(i + 1)
				if ($i == "-t") t = $(i + 1)
				if ($i == "--sim") sim = 1
			}
			if (sim) ss += (d * t * ENVIRON["k"] + ENVIRON["o"]) / ENVIRON["lanes"]
			else s += d + ENVIRON["o"]
		}
		END { printf "%d\n", (s + ss) * ENVIRON["times"] + 0.5 }' "$1"
}
