#!/usr/bin/env bash
# Square-1 from random states, cubedb beside sq12phase (and cubing.js's sq1 scrambler when
# CUBING_DIR is set), one run:
#   1. COUNT scrambles from cubedb (`cubedb puzzle scramble`: a uniformly random legal state,
#      solved by puzzles/square-1.plan, inverted);
#   2. the same states solved by cubedb again from their scrambles (`cubedb puzzle solve`, one
#      process, both cores), each solution checked outside cubedb (bench/apply_tws.py applies
#      scramble then solution to the definition, shape rules included);
#   3. the same scrambles in WCA notation solved by sq12phase (one JVM, one thread, each
#      answer checked by the driver; bench/peers/sq12phase.sh);
#   4. with CUBING_DIR: CUBING_COUNT (default 20) sq1 scrambles from cubing.js (its own random
#      states; seconds each).
# Lengths are twists (slashes), the metric sq12phase and the WCA count for Square-1.
#
# The WCA notation: between two slashes, the definition's U and D turns add up to `(x,y)`,
# in twelfths, each in -5..6; `U` is +1 on x and `D` +1 on y, the one convention under which
# sq12phase accepts every twist of cubedb's scrambles as legal.
#
# Usage: bench/square-1.sh [COUNT] [SEED] [DATA]   (defaults 1000 5 ./data)
#   SQ12PHASE_CLASSES: sq12phase's compiled classes (see bench/peers/sq12phase.sh)
#   CUBING_DIR (optional): the folder whose node_modules holds cubing
set -euo pipefail
count=${1:-1000}
seed=${2:-5}
data=${3:-data}
bin=target/release/cubedb
def=puzzles/square-1.tws
: "${SQ12PHASE_CLASSES:?set SQ12PHASE_CLASSES (see bench/peers/sq12phase.sh)}"
cargo build --release --quiet
echo | "$bin" puzzle solve "$def" --data "$data" -q > /dev/null   # tables built before timing
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
twists() { awk '{ n += gsub(/(^| )S/, "") } END { printf "%.2f", n / NR }' "$1"; }

start=$(now)
"$bin" puzzle scramble "$def" --count "$count" --seed "$seed" --data "$data" -q > "$work/scrambles"
mid=$(now)
"$bin" puzzle solve "$def" --data "$data" -q < "$work/scrambles" > "$work/solutions"
end=$(now)
check=$(paste "$work/scrambles" "$work/solutions" | python3 bench/apply_tws.py "$def")
python3 - "$work/scrambles" > "$work/wca" <<'PY'
import re, sys
token = re.compile(r"^([UDS])(\d*)('?)$")
def turn(v):
    v %= 12
    return v - 12 if v > 6 else v
for line in open(sys.argv[1]):
    x = y = 0
    out = []
    for word in line.split():
        name, power, prime = token.match(word).groups()
        k = int(power or 1) * (-1 if prime else 1)
        if name == "U":
            x += k
        elif name == "D":
            y += k
        else:
            out.append("/" if turn(x) == turn(y) == 0 else f"({turn(x)},{turn(y)})/")
            x = y = 0
    if (turn(x), turn(y)) != (0, 0):
        out.append(f"({turn(x)},{turn(y)})")
    print(" ".join(out))
PY
peer=$(bash bench/peers/sq12phase.sh solve "$work/wca" 2>&1 | grep '^# summary')

echo "square-1: $count random states (seed $seed), lengths in twists"
awk -v a="$start" -v b="$mid" -v c="$end" -v n="$count" -v s="$(twists "$work/scrambles")" \
    -v t="$(twists "$work/solutions")" -v k="$check" 'BEGIN {
    printf "  cubedb scramble: %.2f s wall, %.2f ms a state (both cores), mean %s twists\n", b - a, 1000 * (b - a) / n, s
    printf "  cubedb solve:    %.2f s wall, %.2f ms a state (both cores), mean %s twists; %s\n", c - b, 1000 * (c - b) / n, t, k
}'
echo "  sq12phase solve, the same states: $peer"
if [[ -n "${CUBING_DIR:-}" ]]; then
    bash bench/peers/cubingjs-scrambles.sh sq1 "${CUBING_COUNT:-20}" "$work/cubing" | grep '^#' || true
    echo "  cubing.js sq1 scrambles: mean $(awk '{ n += gsub(/\//, "") } END { printf "%.2f", n / NR }' "$work/cubing") twists"
fi
