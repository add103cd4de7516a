#!/usr/bin/env bash
# Side by side: cubedb's optimal solver and H48 (nissy-core) on the same random positions,
# in half turns, all threads each, one after the other. Builds and fetches nothing but
# nissy-core's own solve tool: build nissy-core yourself, outside this repository, from
# its public source (see README.md here), generate its table, then point the script at
# it. cubedb is the one already built in target/release (the script does not run cargo).
#
#   NISSY_DIR=/path/to/nissy-core   a nissy-core checkout (./build.sh works in it) whose
#                                   tables/ folder holds the H48 table: the script refuses
#                                   to generate it, run `./build.sh tool gendata h48h6`
#                                   there first (h48h6: 1.8 GiB, 2.5-3 hours on 2 cores;
#                                   h48h3: 239 MB, about 12 minutes)
#   H48_SOLVER=h48h6                which H48 table
#   PRESETS="2g 5g"                 cubedb presets (built on first use)
#   COUNT=20 SEED=11                positions: `cubedb rubik random --count COUNT --seed SEED`
#   POSITIONS=FILE                  or the first COUNT scrambles of FILE (`#` lines skipped;
#                                   R1/R3 read as R/R'), e.g.
#                                   bench/data/cube_solver_test-random_state-20.txt
#   CUBEDB_DATA=DIR                 cubedb's tables
#   CUBEDB=target/release/cubedb    the cubedb binary (cubedb-gen beside it)
#   CUBEDB_GEN=DIR-OF-CUBEDB/cubedb-gen  the cubedb-gen binary (lists the tables to warm)
#   INTERLEAVE=1                    cube by cube instead of solver by solver (below)
#   H48_BIN=FILE                    nissy-core's solve_file tool built once beforehand (run
#                                   from NISSY_DIR), instead of `./build.sh tool solve_file`,
#                                   which compiles nissy-core again at every call (about 10 s
#                                   of a core per cube with INTERLEAVE=1); the command that
#                                   builds it is in bench/peers/README.md
#
# H48 reads scrambles, not facelets: each position is first solved near-optimally by
# cubedb's two-phase solver and the inverse of that solution is the scramble both solvers
# get, the same position. H48 solves all positions in one process (`./build.sh tool
# solve_file`: one build, one table load), each with all threads; its lines are stamped
# as they arrive, and a cube's time runs from its "Solving scramble" line to its
# solution, the table already in memory. Its nodes are its own "Nodes visited"; each of
# its solutions is checked with cubedb. Then cubedb, preset after preset, one position
# per process with all threads; per cube: its stderr summary (length, nodes, search
# time; loading excluded) and the whole process's time. cubedb maps its tables, and a
# machine may evict a table left idle (this one pages out what was not touched for a
# minute), so each preset's table is dropped from the page cache and read back whole
# just before its turn: cached, and in large folios.
# With INTERLEAVE=1 the run goes cube by cube instead: H48 on the cube (one process, its
# table loaded again each time, the load not timed), then each preset, its tables read
# through just before (dropped and read back once, at the start: dropping them before
# every cube slowed the solve that followed). This machine's memory speed drifts over
# minutes, and one solver's five minutes can fall on a slower stretch than the other's;
# interleaved, a drift falls on both sides alike.
# The last lines give median and mean seconds and nodes per solver, each preset's speed
# as a multiple of H48's, and whether all optimal lengths agree (exit 1 if they do not).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${NISSY_DIR:?set NISSY_DIR to a built nissy-core checkout}"
nissy=$(cd "$NISSY_DIR" && pwd)
solver=${H48_SOLVER:-h48h6}
if [ ! -f "$nissy/tables/$solver" ]; then
    echo "no $nissy/tables/$solver: generate it first (cd $nissy && ./build.sh tool gendata $solver)" >&2
    exit 2
fi
# How H48's solve_file tool is run, from $nissy: the prebuilt one, or built by nissy-core.
if [ -n "${H48_BIN:-}" ]; then
    h48_tool=("$(realpath "$H48_BIN")")
    [ -x "${h48_tool[0]}" ] || { echo "H48_BIN=$H48_BIN is not an executable" >&2; exit 2; }
else
    h48_tool=(./build.sh tool solve_file)
fi
presets=${PRESETS:-2g 5g}
count=${COUNT:-20}
seed=${SEED:-11}
cubedb=$(realpath "${CUBEDB:-target/release/cubedb}")
data=${CUBEDB_DATA:-data}
check_preset=${presets%% *}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. bench/peers/scrambles.sh
write_scrambles "$cubedb" "$count" "$seed" "$work/scrambles.txt"
count=$(wc -l < "$work/scrambles.txt")

# H48 on the scrambles of the file $1, in one process, each line of its output stamped
# with the time it arrived (appended to $2.out); per cube, appended to $2.txt: its length,
# the seconds from "Solving scramble" to the line after "Solutions:" (the first
# solution), its nodes ("[H48 solve] Nodes visited: N"), then the solution.
h48_solve() {
    (cd "$nissy" && "${h48_tool[@]}" "$solver" "$1" 2>&1) |
        while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%N)" "$line"; done > "$2.one"
    awk '$2 == "Solving" && $3 == "scramble" { n++; start = $1 }
         /\[H48 solve\] Nodes visited:/ { nodes = $NF }
         $2 == "Solutions:" { getline; t = $1; $1 = ""; printf "%d %.3f %s%s\n", NF - 1, t - start, nodes, $0 }' \
        "$2.one" >> "$2.txt"
    cat "$2.one" >> "$2.out"
}

: > "$work/h48.txt"
: > "$work/h48.out"
if [ "${INTERLEAVE:-0}" = 1 ]; then
    # Cube by cube: H48 (its table loaded again for each cube, the load not timed), then
    # each preset, its tables read through just before, so that a change in the
    # machine's speed during the run falls on both sides alike.
    n=0
    for preset in $presets; do
        : > "$work/cubedb-$preset.txt"
        warm_preset "$cubedb" htm "$preset" "$data"
    done
    while read -r scramble; do
        n=$((n + 1))
        echo "$scramble" > "$work/one.txt"
        h48_solve "$work/one.txt" "$work/h48"
        for preset in $presets; do
            touch_preset "$cubedb" htm "$preset" "$data"
            row=$(cubedb_solve "$cubedb" htm "$preset" "$scramble" "$work/cubedb.err") || exit 1
            echo "$n $row" >> "$work/cubedb-$preset.txt"
        done
    done < "$work/scrambles.txt"
else
    h48_solve "$work/scrambles.txt" "$work/h48"
fi
if [ "$(wc -l < "$work/h48.txt")" -ne "$count" ]; then
    echo "H48 solved $(wc -l < "$work/h48.txt") of $count positions:" >&2
    tail -20 "$work/h48.out" >&2
    exit 1
fi
h48_total=$(sed -n 's/.*Total time: \([0-9.]*\)s.*/\1/p' "$work/h48.out" | awk '{ t += $1 } END { if (NR) print t }')

# H48's rows, each solution checked: the scramble followed by it leaves cubedb nothing
# to do.
: > "$work/rows.txt"
mismatch=""
n=0
while read -r scramble; do
    n=$((n + 1))
    read -r h48_len h48_time h48_nodes h48_sol < <(sed -n "${n}p" "$work/h48.txt")
    rest=$("$cubedb" rubik solve --metric htm --tables "$check_preset" -q --scramble "$scramble $h48_sol" < /dev/null)
    if [ -n "$rest" ]; then mismatch="$mismatch $n"; fi
    echo "$n $solver $h48_len $h48_time $h48_nodes" >> "$work/rows.txt"
done < "$work/scrambles.txt"
[ -z "$mismatch" ] || echo "$solver's solutions DO NOT SOLVE cubes:$mismatch"

# cubedb, one preset after the other, each table read afresh into the page cache just
# before (dropped first, so that it comes back in large folios): an idle table can be
# evicted while H48 runs.
if [ "${INTERLEAVE:-0}" != 1 ]; then
    solve_presets "$cubedb" htm "$data" "$presets" "$work/scrambles.txt" "$work/cubedb"
fi
for preset in $presets; do
    # "N LENGTH NODES SECONDS PROCESS" -> "N SOLVER LENGTH SECONDS NODES PROCESS"
    awk -v s="cubedb-$preset" '{ print $1, s, $2, $4, $3, $5 }' "$work/cubedb-$preset.txt" >> "$work/rows.txt"
done

printf "%-5s %-14s %6s %10s %12s\n" cube solver length seconds nodes
for n in $(seq 1 "$count"); do
    h48_len=$(awk -v n="$n" -v s="$solver" '$1 == n && $2 == s { print $3 }' "$work/rows.txt")
    agree=yes
    while read -r _ who len secs nodes process; do
        if [ "$who" = "$solver" ]; then
            printf "%-5s %-14s %6s %10.3f %12s\n" "$n" "$who" "$len" "$secs" "$nodes"
        else
            printf "%-5s %-14s %6s %10.3f %12s  process %.2f s\n" "$n" "${who/-/ }" "$len" "$secs" "$nodes" "$process"
            [ "$len" = "$h48_len" ] || agree=no
        fi
    done < <(awk -v n="$n" '$1 == n' "$work/rows.txt")
    if [ "$agree" = yes ]; then
        echo "$n     lengths agree: $h48_len"
    else
        echo "$n     LENGTHS DIFFER"
        mismatch="$mismatch $n"
    fi
done

echo
printf "%-16s %10s %10s %14s %14s %12s\n" solver "median s" "mean s" "median nodes" "mean nodes" "mean length"
for who in "$solver" $(for p in $presets; do echo "cubedb-$p"; done); do
    awk -v s="$who" '$2 == s { print $2, $3, $4, $5 }' "$work/rows.txt" > "$work/one.txt"
    med_s=$(awk '{ print $3 }' "$work/one.txt" | median)
    med_n=$(awk '{ print $4 }' "$work/one.txt" | median)
    awk -v s="$who" -v ms="$med_s" -v mn="$med_n" '{ t += $3; n += $4; l += $2 } END { sub(/^cubedb-/, "cubedb ", s); printf "%-16s %10.3f %10.3f %14.0f %14.0f %12.2f\n", s, ms, t / NR, mn, n / NR, l / NR }' "$work/one.txt"
    echo "$who $med_s $(awk '{ t += $3 } END { print t / NR }' "$work/one.txt")" >> "$work/summary.txt"
done
read -r _ h48_med h48_mean < <(grep "^$solver " "$work/summary.txt")
for preset in $presets; do
    read -r _ med mean < <(grep "^cubedb-$preset " "$work/summary.txt")
    printf "cubedb %s against %s: %.2fx at the median, %.2fx at the mean\n" "$preset" "$solver" \
        "$(echo "$h48_med / $med" | bc -l)" "$(echo "$h48_mean / $mean" | bc -l)"
done
echo "$solver's own total time for the $count cubes: ${h48_total:-?} s"
if [ -z "$mismatch" ]; then
    echo "optimal lengths: $solver and cubedb ($presets) agree on all $count cubes; $solver's solutions checked"
else
    echo "optimal lengths or solutions DIFFER on cubes:$mismatch"
    exit 1
fi
