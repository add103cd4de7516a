#!/usr/bin/env bash
# Side by side: cubedb's optimal solver and H48 (nissy-core) on the same random positions,
# in half turns, all threads each, one after the other. Builds and fetches nothing: build
# nissy-core yourself, outside this repository, from its public source (see README.md
# here), then point the script at it.
#
#   NISSY_DIR=/path/to/nissy-core   built with ./build.sh; its first `tool solve_file`
#                                   run generates tables/h48hN (h48h3: 239 MB, about 12
#                                   minutes on 2 cores; h48h6: 1.8 GiB, about 2.5-3
#                                   hours, or `./build.sh tool gendata h48h6` first)
#   H48_SOLVER=h48h3                which H48 table
#   PRESETS="2g 5g"                 cubedb presets (built on first use)
#   COUNT=5 SEED=11                 positions: `cubedb rubik random --count COUNT --seed SEED`
#   POSITIONS=FILE                  or the first COUNT scrambles of FILE (`#` lines skipped;
#                                   R1/R3 read as R/R'), e.g.
#                                   bench/data/cube_solver_test-random_state-20.txt
#   CUBEDB_DATA=DIR                 cubedb's tables
#
# H48 reads scrambles, not facelets: each position is first solved near-optimally by
# cubedb's two-phase solver and the inverse of that solution is the scramble H48 gets,
# the same position. Per cube, the script prints each solver's optimal length, time and
# nodes (H48: its own "Total time" and "Nodes visited" for a scramble file of one
# scramble; its timer starts after the table is read into memory; cubedb: the stderr
# summary, loading excluded too, plus the whole process). cubedb maps its
# tables: read them into the page cache first (`cat DIR/rubik-pdb-htm-*.cdb > /dev/null`),
# or the first cubes wait for the disk.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${NISSY_DIR:?set NISSY_DIR to a built nissy-core checkout}"
solver=${H48_SOLVER:-h48h3}
presets=${PRESETS:-2g 5g}
count=${COUNT:-5}
seed=${SEED:-11}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet
cubedb=$PWD/target/release/cubedb
. bench/peers/scrambles.sh
write_scrambles "$cubedb" "$count" "$seed" "$work/scrambles.txt"
printf "%-5s %-8s %s\n" cube solver "length / seconds"
n=0
while read -r scramble; do
    n=$((n + 1))
    echo "$scramble" > "$work/one.txt"
    h48=$(cd "$NISSY_DIR" && ./build.sh tool solve_file "$solver" "$work/one.txt" 2>"$work/h48.log")
    h48_moves=$(echo "$h48" | sed -n '/^Solutions:/{n;p}' | head -1 | wc -w)
    h48_time=$(echo "$h48" | grep 'Total time' | tail -1 | sed 's/.*Total time: //')
    h48_nodes=$(grep 'Nodes visited' "$work/h48.log" | tail -1 | sed 's/.*Nodes visited: //')
    printf "%-5s %-8s %s / %s / %s nodes\n" "$n" "$solver" "$h48_moves" "$h48_time" "$h48_nodes"
    for preset in $presets; do
        start=$(date +%s.%N)
        summary=$("$cubedb" rubik solve --metric htm --tables "$preset" --scramble "$scramble" 2>&1 >/dev/null | tail -1)
        end=$(date +%s.%N)
        printf "%-5s %-8s %s (process %.2f s)\n" "$n" "$preset" "$summary" "$(echo "$end - $start" | bc)"
    done
done < "$work/scrambles.txt"
