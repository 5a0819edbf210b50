# plan.sh — sourced by run-all: the order of a plan's runs,
# from `lockbench --plan` (bench/plan.c, where the rules and their figures are).

# The plan: REPS rounds, round r running every variant once as NAME-rR with
# --seed R (a simulated one, --sim: --sim-seed R), each round in its own
# order shuffled from ORDER_SEED: the same seed makes the same plan.
make_plan() { "$LB" --plan rounds "$1" "$REPS" "$ORDER_SEED"; } # VARIANTS-FILE
