#!/usr/bin/env bash
# Which centres make the 4x4x4's pairs phase hard: the phase alone (its moves, its target,
# then the two-phase finish) from random states of its group, once on puzzles/4x4x4.tws and
# once on each copy whose solved state merges some centre colours (merged colours count as
# one kind, so the phase need not separate them). For each start, each definition: the
# phase's bound at the start (the largest of its tables' distances), its exact length
# (what a table of the matching with those centres would read), and the nodes it took.
# A copy's length is the distance of the projection that keeps the matching and the
# centres it keeps: the bound a joint table would give.
#
# Usage: bench/pairs-relaxed.sh [COUNT] [LENGTH] [SEED]   (defaults 5 20 1)
#   Starts: random walks of LENGTH moves of the phase from solved (no move on the axis of
#   the one before twice in a row). Some starts take minutes on the full definition
#   (the sixth of seed 1: over 5 minutes), which is the phase's tail.
set -euo pipefail
count=${1:-5}
length=${2:-20}
seed=${3:-1}
bin=$PWD/target/release/cubedb
cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The wide moves and the phase, as puzzles/4x4x4.plan has them (no turns of the cube: a
# copy with merged colours has no turn that maps kinds to kinds).
cat > "$work/pairs.plan" <<'PLAN'
Plan pairs-alone
Move Uw U 2U
Move Dw D 2D
Move Fw F 2F
Move Bw B 2B
Move Lw L 2L
Move Rw R 2R
Phase pairs
Moves U D F B R2 L2 Uw2 Fw2 Rw2
Target Subgroup U D F B L R
Keep 1
End
Finish 3x3x3 U R F D L B
PLAN
# Centre slots 1-4 R, 5-8 L, 9-12 U, 13-16 D, 17-20 F, 21-24 B.
declare -A kinds=(
    [all]="1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6"
    [rl]="1 1 1 1 2 2 2 2 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3"
    [ud]="3 3 3 3 3 3 3 3 1 1 1 1 2 2 2 2 3 3 3 3 3 3 3 3"
    [rl+ud]="1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 5 5 5 5"
    [ud+fb]="1 1 1 1 1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5"
)
variants="all rl ud rl+ud ud+fb"
for v in $variants; do
    sed "s/^1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6\$/${kinds[$v]}/" \
        puzzles/4x4x4.tws > "$work/$v.tws"
    cp "$work/pairs.plan" "$work/$v.plan"
    mkdir -p "$work/data-$v"
done
python3 - "$count" "$length" "$seed" > "$work/starts" <<'PY'
import random, sys
count, length, seed = map(int, sys.argv[1:])
rng = random.Random(seed)
moves = ["U", "U2", "U'", "D", "D2", "D'", "F", "F2", "F'", "B", "B2", "B'",
         "R2", "L2", "Uw2", "Fw2", "Rw2"]
for _ in range(count):
    walk, last = [], None
    while len(walk) < length:
        m = rng.choice(moves)
        a = "UDFBRL".index(m[0]) // 2  # the axis
        if a == last:
            continue
        walk.append(m)
        last = a
    print(" ".join(walk))
PY
printf 'start'
for v in $variants; do printf '\t%s: bound length nodes' "$v"; done
echo
i=0
while read -r start; do
    i=$((i + 1))
    printf '%d' "$i"
    for v in $variants; do
        line=$(CUBEDB_TRACE_PHASES=1 "$bin" puzzle solve "$work/$v.tws" --plan "$work/$v.plan" \
            --data "$work/data-$v" -q --scramble "$start" 2>&1 >/dev/null | grep '^phase pairs' | tail -1)
        printf '\t%s' "$(sed -E 's/.*cheapest total ([0-9]+).*totals up to ([0-9]+)\), ([0-9]+) nodes.*/\1 \2 \3/' <<<"$line")"
    done
    echo
done < "$work/starts"
