#!/usr/bin/env bash
# The definition-driven 3x3x3 (puzzles/3x3x3.tws, IDA* over pattern databases built from
# the definition) against cubedb's own Rubik solver (`cubedb rubik solve`): optimal
# lengths of the same random scrambles must agree (each solver checks its solutions).
#
# Usage: bench/perm-crosscheck.sh [COUNT] [LENGTH] [DATA]   (defaults 50 14 ./data)
set -euo pipefail
count=${1:-50}
length=${2:-14}
data=${3:-data}
bin=target/release/cubedb
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$count" "$length" > "$work/scrambles" <<'PY'
import random, sys
count, length = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(2026)
axis = {"U": 0, "D": 0, "R": 1, "L": 1, "F": 2, "B": 2}
for _ in range(count):
    seq = []
    while len(seq) < length:
        f = rng.choice("URFDLB")
        if seq and (seq[-1][0] == f or (axis[seq[-1][0]] == axis[f] and len(seq) > 1 and axis[seq[-2][0]] == axis[f])):
            continue
        seq.append(f + rng.choice(["", "2", "'"]))
    print(" ".join(seq))
PY
start=$(date +%s.%N)
"$bin" rubik solve --data "$data" -q < "$work/scrambles" > "$work/rubik"
mid=$(date +%s.%N)
"$bin" puzzle solve puzzles/3x3x3.tws --data "${PERM_DATA:-$data}" -q < "$work/scrambles" > "$work/perm"
end=$(date +%s.%N)
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
scr = open(f"{work}/scrambles").read().splitlines()
a = [len(l.split()) for l in open(f"{work}/rubik").read().splitlines()]
b = [len(l.split()) for l in open(f"{work}/perm").read().splitlines()]
assert len(a) == len(b) == len(scr), (len(a), len(b), len(scr))
bad = [i for i in range(len(scr)) if a[i] != b[i]]
print(f"{len(scr)} scrambles: optimal lengths {'agree' if not bad else 'DIFFER at ' + str(bad)}; "
      f"mean length {sum(b) / len(b):.2f}, max {max(b)}")
PY
echo "cubedb rubik solve: $(echo "$mid - $start" | bc) s; cubedb puzzle solve (3x3x3.tws): $(echo "$end - $mid" | bc) s"
