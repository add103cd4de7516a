#!/usr/bin/env bash
# Side by side: cubedb's optimal solver and nxopt (Tom Rokicki's cube20src) on the same
# random positions, in quarter turns. Builds and fetches nothing: build nxopt with
# -DQUARTER yourself, outside this repository, from its public source (see README.md
# here), generate its table, then point the script at it. cubedb is the one already
# built in target/release (the script does not run cargo).
#
#   NXOPT=/path/to/nxopt31          nxopt built with -DQUARTER (nxopt31: EO3 EP1, 2.60 GB)
#   NXOPT_TABLES=DIR                folder holding its table, nxoptqNMb.dat for nxoptNM
#                                   (default: the binary's folder). nxopt reads the table
#                                   from its working directory and generates it there
#                                   when it is missing: the script refuses to, run
#                                   `cd DIR && /path/to/nxopt31 -t 2 -c 0` first (nxopt31:
#                                   about 2.5 minutes on 2 cores, 2.4 GiB of memory)
#   NXOPT_THREADS=2                 threads of the batch run (default: every core)
#   PRESETS="2g 5g"                 cubedb presets (built on first use)
#   COUNT=20 SEED=11                positions: `cubedb rubik random --count COUNT --seed SEED`
#   POSITIONS=FILE                  or the first COUNT scrambles of FILE (`#` lines skipped;
#                                   R1/R3 read as R/R'), e.g.
#                                   bench/data/cube_solver_test-random_state-20.txt
#   CUBEDB_DATA=DIR                 cubedb's tables
#   CUBEDB=target/release/cubedb    the cubedb binary
#   CUBEDB_GEN=DIR-OF-CUBEDB/cubedb-gen  the cubedb-gen binary (lists the tables to warm)
#
# nxopt reads scrambles (U1 U2 U3, or Singmaster cubie strings), not facelets: each
# position is first solved near-optimally by cubedb's two-phase solver and the inverse of
# that solution is the scramble both solvers get, the same position. nxopt searches one
# position per thread and never splits a position across threads, so it runs twice:
#   - once with -t 1 on all positions: per cube, its own "time" (one thread, the table
#     already in memory), its length, and "evals" (nodes: positions it computed a
#     heuristic for) and "probes" (table lookups); each solution is checked with cubedb;
#   - once with -t NXOPT_THREADS on all positions: the batch's wall time with the table
#     load ("read in" on its output) taken off, divided by the count.
# cubedb solves one position per process with all threads, after nxopt, one preset at a
# time, its tables read afresh into the page cache just before; per cube: its stderr
# summary (length, nodes, search time; loading excluded) and the whole process's time.
# The last lines give median and mean seconds and nodes per solver, the batch figure,
# and whether all optimal lengths agree (exit 1 if they do not).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${NXOPT:?set NXOPT to an nxopt binary built with -DQUARTER, e.g. /tmp/peers/cube20src/nxopt31}"
nxopt=$(cd "$(dirname "$NXOPT")" && pwd)/$(basename "$NXOPT")
name=$(basename "$nxopt")
tables=${NXOPT_TABLES:-$(dirname "$nxopt")}
table=nxoptq${name#nxopt}b.dat
if [ ! -f "$tables/$table" ]; then
    echo "no $tables/$table: generate it first (cd $tables && $nxopt -t 2 -c 0)" >&2
    exit 2
fi
threads=${NXOPT_THREADS:-$(nproc)}
presets=${PRESETS:-2g 5g}
count=${COUNT:-20}
seed=${SEED:-11}
cubedb=$(realpath "${CUBEDB:-target/release/cubedb}")
check_preset=${presets%% *}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. bench/peers/scrambles.sh
write_scrambles "$cubedb" "$count" "$seed" "$work/scrambles.txt"
count=$(wc -l < "$work/scrambles.txt")
# nxopt's move syntax: a face letter and 1, 2 or 3 quarter turns clockwise.
awk '{ s = ""; for (i = 1; i <= NF; i++) { m = $i; if (m ~ /2$/) t = m; else if (m ~ /'"'"'$/) t = substr(m, 1, 1) "3"; else t = m "1"; s = s (s == "" ? "" : " ") t } print s }' \
    "$work/scrambles.txt" > "$work/nxopt-in.txt"

# nxopt, one thread: per-position figures. Its report lines come in input order:
# "Solved SEQ in LENGTH probes P evals E time T", then the solution (U1 = U, U3 = U').
(cd "$tables" && "$nxopt" -t 1 - < "$work/nxopt-in.txt" > "$work/nxopt-t1.out")
awk '/^Solved /{ seq = $2; len = $4; probes = $6; evals = $8; t = $10; getline; print seq, len, t, evals, probes, $0 }' \
    "$work/nxopt-t1.out" > "$work/nxopt-t1.txt"
[ "$(wc -l < "$work/nxopt-t1.txt")" -eq "$count" ] || { echo "nxopt -t 1 solved $(wc -l < "$work/nxopt-t1.txt") of $count" >&2; exit 1; }
# nxopt, every thread: the batch.
batch_start=$(date +%s.%N)
(cd "$tables" && "$nxopt" -t "$threads" - < "$work/nxopt-in.txt" > "$work/nxopt-batch.out")
batch_end=$(date +%s.%N)
batch_load=$(sed -n 's/.* read in \([0-9.e+-]*\).*/\1/p' "$work/nxopt-batch.out")
batch_solved=$(grep -c '^Solved ' "$work/nxopt-batch.out" || true)
[ "$batch_solved" -eq "$count" ] || { echo "nxopt -t $threads solved $batch_solved of $count" >&2; exit 1; }

# cubedb, one preset after the other, each table read afresh into the page cache just
# before (dropped first, so that it comes back in large folios) and then used by every
# cube in a row: a table left idle while nxopt runs can be paged out (see
# docs/rubik-optimal.md, "Idle tables are paged out").
data=${CUBEDB_DATA:-data}
solve_presets "$cubedb" qtm "$data" "$presets" "$work/scrambles.txt" "$work/cubedb"

printf "%-5s %-14s %6s %10s %12s\n" cube solver length seconds nodes
: > "$work/rows.txt"
mismatch=""
n=0
while read -r scramble; do
    n=$((n + 1))
    read -r _ nx_len nx_time nx_evals nx_probes nx_sol < <(sed -n "${n}p" "$work/nxopt-t1.txt")
    # Check nxopt's solution: the scramble followed by it leaves cubedb nothing to do.
    sol=$(echo "$nx_sol" | sed -e "s/\([URFDLB]\)3/\1'/g" -e 's/\([URFDLB]\)1/\1/g')
    rest=$("$cubedb" rubik solve --metric qtm --tables "$check_preset" -q --scramble "$scramble $sol" < /dev/null)
    checked="solution checked"
    if [ -n "$rest" ]; then checked="SOLUTION DOES NOT SOLVE"; mismatch="$mismatch $n"; fi
    printf "%-5s %-14s %6s %10.3f %12s  %s probes, %s\n" "$n" "$name -t 1" "$nx_len" "$nx_time" "$nx_evals" "$nx_probes" "$checked"
    echo "$name-t1 $nx_len $nx_time $nx_evals" >> "$work/rows.txt"
    agree=yes
    for preset in $presets; do
        read -r len nodes secs process < <(awk -v n="$n" '$1 == n { print $2, $3, $4, $5 }' "$work/cubedb-$preset.txt")
        printf "%-5s %-14s %6s %10.3f %12s  process %.2f s\n" "$n" "cubedb $preset" "$len" "$secs" "$nodes" "$process"
        echo "cubedb-$preset $len $secs $nodes" >> "$work/rows.txt"
        [ "$len" = "$nx_len" ] || agree=no
    done
    if [ "$agree" = yes ]; then
        echo "$n     lengths agree: $nx_len"
    else
        echo "$n     LENGTHS DIFFER"
        mismatch="$mismatch $n"
    fi
done < "$work/scrambles.txt"

echo
printf "%-16s %10s %10s %14s %14s %12s\n" solver "median s" "mean s" "median nodes" "mean nodes" "mean length"
for solver in "$name-t1" $(for p in $presets; do echo "cubedb-$p"; done); do
    grep "^$solver " "$work/rows.txt" > "$work/one.txt"
    med_s=$(awk '{ print $3 }' "$work/one.txt" | median)
    med_n=$(awk '{ print $4 }' "$work/one.txt" | median)
    awk -v s="$solver" -v ms="$med_s" -v mn="$med_n" '{ t += $3; n += $4; l += $2 } END { sub(/-t1$/, " -t 1", s); sub(/^cubedb-/, "cubedb ", s); printf "%-16s %10.3f %10.3f %14.0f %14.0f %12.2f\n", s, ms, t / NR, mn, n / NR, l / NR }' "$work/one.txt"
done
process=$(echo "$batch_end - $batch_start" | bc)
printf "%s -t %s, batch of %s: %.2f s wall less %.2f s of table load = %.2f s, %.3f s per cube (process %.2f s)\n" \
    "$name" "$threads" "$count" "$process" "$batch_load" "$(echo "$process - $batch_load" | bc)" \
    "$(echo "($process - $batch_load) / $count" | bc -l)" "$process"
if [ -z "$mismatch" ]; then
    echo "optimal lengths: nxopt and cubedb ($presets) agree on all $count cubes; nxopt's solutions checked"
else
    echo "optimal lengths or solutions DIFFER on cubes:$mismatch"
    exit 1
fi
