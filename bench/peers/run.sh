#!/usr/bin/env bash
# Side-by-side: cubedb's two-phase solver, min2phase and the `kociemba` package on the same
# random positions, one thread each, in one run. Builds and fetches nothing: point it at
# peers you have built (see README.md here).
#
#   MIN2PHASE_CLASSES=/path/to/min2phase/classes   compiled min2phase (cs/min2phase/*.class)
#   KOCIEMBA_PYTHON=/path/to/python                a Python with `pip install kociemba`
#   COUNT=300 SEED=2026 CAPS="21 20"               positions and length caps
#   CUBEDB_DATA=DIR                                cubedb's tables (built on first use)
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${COUNT:-300}
seed=${SEED:-2026}
caps=${CAPS:-"21 20"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet
cubedb=target/release/cubedb
"$cubedb" rubik random --count "$count" --seed "$seed" > "$work/cubes.txt"
echo "== $count random positions (cubedb rubik random --seed $seed), caps: $caps (face turns)"
"$cubedb" bench rubik-twophase "$work/cubes.txt" --caps "$(echo "$caps" | sed 's/\([0-9]\+\)/htm:\1/g; s/ /,/g')"
if [[ -n "${MIN2PHASE_CLASSES:-}" ]]; then
    javac -cp "$MIN2PHASE_CLASSES" -d "$work" bench/peers/Min2phaseBench.java
    java -cp "$MIN2PHASE_CLASSES:$work" Min2phaseBench "$work/cubes.txt" $caps
else
    echo "(min2phase skipped: set MIN2PHASE_CLASSES)"
fi
if [[ -n "${KOCIEMBA_PYTHON:-}" ]]; then
    "$KOCIEMBA_PYTHON" bench/peers/kociemba_bench.py "$work/cubes.txt" $caps
else
    echo "(kociemba skipped: set KOCIEMBA_PYTHON)"
fi
