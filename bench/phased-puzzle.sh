#!/usr/bin/env bash
# A puzzle with a shipped plan, from random states: COUNT scrambles (`cubedb puzzle
# scramble`: a uniformly random state, solved by the plan, inverted), then the same
# states solved again from their scrambles (`cubedb puzzle solve`, one process, both
# cores), each solution checked outside cubedb (bench/apply_tws.py applies the scramble
# then the solution to the definition). Prints the wall times and the lengths (every move
# of the definition counts one).
#
# Usage: bench/phased-puzzle.sh PUZZLE [COUNT] [SEED] [DATA]   (defaults 1000 5 ./data)
#   PUZZLE: a name in puzzles/ with a plan (megaminx, fto, 4x4x4, 3x3x3)
set -euo pipefail
puzzle=${1:?usage: bench/phased-puzzle.sh PUZZLE [COUNT] [SEED] [DATA]}
count=${2:-1000}
seed=${3:-5}
data=${4:-data}
bin=target/release/cubedb
def=puzzles/$puzzle.tws
cargo build --release --quiet
echo | "$bin" puzzle solve "$def" --data "$data" -q > /dev/null   # tables built before timing
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
start=$(now)
"$bin" puzzle scramble "$def" --count "$count" --seed "$seed" --data "$data" -q > "$work/scrambles"
mid=$(now)
"$bin" puzzle solve "$def" --data "$data" -q < "$work/scrambles" > "$work/solutions"
end=$(now)
paste "$work/scrambles" "$work/solutions" | python3 bench/apply_tws.py "$def" > "$work/check"
python3 - "$start" "$mid" "$end" "$count" "$puzzle" "$(cat "$work/check")" "$work/scrambles" <<'PY'
import sys
start, mid, end, count = map(float, sys.argv[1:5])
lengths = [len(l.split()) for l in open(sys.argv[7])]
print(f"{sys.argv[5]}: {int(count)} random states")
print(f"  scramble: {mid - start:.1f} s wall, {1000 * (mid - start) / count:.0f} ms a state "
      f"(both cores), mean length {sum(lengths) / len(lengths):.2f}, max {max(lengths)}")
print(f"  solve the scrambles again: {end - mid:.1f} s wall, "
      f"{1000 * (end - mid) / count:.0f} ms a state; {sys.argv[6]}")
PY
