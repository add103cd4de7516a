#!/usr/bin/env bash
# The generic phase engine (puzzles/3x3x3.tws with its plan, Kociemba's two phases)
# against cubedb's own two-phase solver (`cubedb rubik solve --max-length`), on the same
# random states, given the same time per cube; then the time each takes to reach a
# length bound (the plan with the tables `cubedb-gen puzzle` builds). Every solution is
# checked here: the scramble followed by the solution must leave the cube solved
# (`cubedb rubik solve` answers an empty line).
#
# Usage: bench/phased-3x3x3.sh [COUNT] [SECONDS] [BOUND] [DATA]   (defaults 1000 1 21 ./data)
set -euo pipefail
count=${1:-1000}
seconds=${2:-1}
bound=${3:-21}
data=${4:-data}
bin=target/release/cubedb
cargo build --release --quiet -p cubedb -p cubedb-gen
# The plan's first-phase exact table (554 MB, about a minute), which a first use leaves
# to cubedb-gen: built here if missing.
target/release/cubedb-gen puzzle puzzles/3x3x3.tws --data "$data" -q
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" rubik scramble --count "$count" --seed 53 --data "$data" -q > "$work/states"
now() { date +%s.%N; }
run() { # name, then the command; stdin: the states
    local name=$1
    shift
    local start end
    start=$(now)
    if ! "$@" < "$work/states" > "$work/$name" 2> "$work/$name.err"; then
        echo "$name failed:" >&2
        grep -v warning "$work/$name.err" | tail -3 >&2
        exit 1
    fi
    end=$(now)
    python3 -c "print($end - $start)" > "$work/$name.time"
    if ! paste -d ' ' "$work/states" "$work/$name" | "$bin" rubik solve --data "$data" -q > "$work/$name.check"; then
        echo "$name: checking its solutions failed" >&2
        exit 1
    fi
    if grep -q . "$work/$name.check"; then
        echo "$name: a solution does not solve its state" >&2
        exit 1
    fi
}
# Same time per cube: both look for 18 moves or fewer (rarely found) until the timeout,
# then answer the shortest found.
run rubik-timed "$bin" rubik solve --data "$data" --max-length 18 --timeout "$seconds"
run plan-timed "$bin" puzzle solve puzzles/3x3x3.tws --data "$data" --max-length 18 --timeout "$seconds"
# Speed: the first solution of at most BOUND moves.
run rubik-bound "$bin" rubik solve --data "$data" --max-length "$bound"
run plan-bound "$bin" puzzle solve puzzles/3x3x3.tws --data "$data" --max-length "$bound"
python3 - "$work" "$count" "$seconds" "$bound" <<'PY'
import sys
work, count, seconds, bound = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def lengths(name):
    rows = [len(l.split()) for l in open(f"{work}/{name}").read().splitlines()]
    assert len(rows) == count, (name, len(rows))
    return rows
def secs(name):
    return float(open(f"{work}/{name}.time").read())
print(f"{count} random states (cubedb rubik scramble --seed 53), HTM, both cores, every solution checked")
for label, a, b in [(f"{seconds} s per cube", "rubik-timed", "plan-timed"), (f"first of at most {bound}", "rubik-bound", "plan-bound")]:
    la, lb = lengths(a), lengths(b)
    ta, tb = secs(a), secs(b)
    print(f"{label}: rubik solve {sum(la)/count:.2f} moves mean, {ta:.1f} s; "
          f"puzzle solve (plan) {sum(lb)/count:.2f} moves mean, {tb:.1f} s; "
          f"length gap {sum(lb)/count - sum(la)/count:+.2f}, time ratio {tb/ta:.1f}x")
PY
