#!/usr/bin/env bash
# Two builds of cubedb against each other on the same positions, alternated cube by cube
# (one process per cube and build) and in both orders, round after round: on a machine
# whose memory speed drifts over minutes, a drift then falls on both builds alike, where
# whole runs of one build after the other can differ by 15-25% (docs/rubik-optimal.md,
# "Where a node's time goes"). Per cube: nodes and search time of each build (its
# stderr summary, table loading excluded), averaged over the rounds, and their ratio;
# then the medians, means, ns per node and the median of the per-cube ratios.
#
#   CUBEDB_DATA=DIR bench/ab-optimal.sh OLD-BINARY NEW-BINARY [ROUNDS]
#
#   ROUNDS=2                  rounds; odd rounds run OLD first, even ones NEW first
#   PRESET=8g METRIC=htm      the tables (built on first use)
#   POSITIONS=FILE            scrambles or facelet strings, one per line (`#` lines
#                             skipped), e.g. bench/data/cube_solver_test-random_state-20.txt;
#                             default: `NEW rubik random --count COUNT --seed SEED`
#   COUNT=20 SEED=11          the random positions
#
# Copy a build aside first (cp target/release/cubedb /tmp/cubedb-old) to keep it while
# the next one compiles. Run it alone on the machine: each solve uses every core.
set -euo pipefail
old=${1:?old cubedb binary}
new=${2:?new cubedb binary}
rounds=${3:-2}
preset=${PRESET:-8g}
metric=${METRIC:-htm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${POSITIONS:-}" ]; then
    grep -v '^#' "$POSITIONS" | head -n "${COUNT:-20}" > "$work/positions.txt"
else
    "$new" rubik random --count "${COUNT:-20}" --seed "${SEED:-11}" > "$work/positions.txt"
fi
count=$(wc -l < "$work/positions.txt")

# One solve: appends "CUBE LABEL NODES SECONDS" to $work/runs.txt.
solve() {
    local cube=$1 label=$2 binary=$3 line summary
    line=$(sed -n "${cube}p" "$work/positions.txt")
    if [[ ${#line} -eq 54 && $line != *" "* ]]; then
        summary=$("$binary" rubik solve --metric "$metric" --tables "$preset" \
            --facelets "$line" 2>&1 >/dev/null | grep '^cube')
    else
        summary=$("$binary" rubik solve --metric "$metric" --tables "$preset" \
            --scramble "$line" 2>&1 >/dev/null | grep '^cube')
    fi
    # "cube 1: 18 face turns (17445279 nodes, 1.584 s, 11.02 M nodes/s)"
    echo "$summary" | awk -v c="$cube" -v l="$label" \
        '{ gsub(/\(/, "", $6); print c, l, $6, $8 }' >> "$work/runs.txt"
}

: > "$work/runs.txt"
for round in $(seq "$rounds"); do
    for cube in $(seq "$count"); do
        if (( round % 2 == 1 )); then
            solve "$cube" old "$old"; solve "$cube" new "$new"
        else
            solve "$cube" new "$new"; solve "$cube" old "$old"
        fi
    done
    echo "round $round of $rounds done" >&2
done

awk -v rounds="$rounds" '
    { nodes[$1, $2] = $3; secs[$1, $2] += $4 / rounds; cubes[$1] = 1 }
    END {
        printf "%5s %14s %14s %9s %9s %7s\n", "cube", "old nodes", "new nodes", "old s", "new s", "new/old"
        n = 0
        for (c = 1; (c in cubes); c++) {
            n++
            printf "%5d %14d %14d %9.3f %9.3f %7.3f\n", c, nodes[c, "old"], nodes[c, "new"],
                secs[c, "old"], secs[c, "new"], secs[c, "new"] / secs[c, "old"]
            print secs[c, "old"] > "'"$work"'/old.s"; print secs[c, "new"] > "'"$work"'/new.s"
            print secs[c, "new"] / secs[c, "old"] > "'"$work"'/ratio"
            to += secs[c, "old"]; tn += secs[c, "new"]; no += nodes[c, "old"]; nn += nodes[c, "new"]
        }
        printf "mean: old %.3f s, new %.3f s; ns per node: old %.1f, new %.1f; nodes: old %d, new %d\n",
            to / n, tn / n, to / no * 1e9, tn / nn * 1e9, no, nn
    }' "$work/runs.txt"
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo "median: old $(median "$work/old.s") s, new $(median "$work/new.s") s; per-cube ratio new/old: median $(median "$work/ratio")"
