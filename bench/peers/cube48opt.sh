#!/usr/bin/env bash
# Side by side: cubedb's optimal solver and cube48opt (cs0x7f's optimal solver, its
# WebAssembly build run in Node) on the same random-state positions, in half turns, all
# threads each. Builds and fetches nothing. cube48opt's only public form is the
# MIT-licensed repository cs0x7f/cubeopt-wasm on GitHub (the solvers behind
# cstimer.net/cubeopt): clone it yourself, outside this repository. It holds the
# variations cube48opt1..9 (a .mjs and a .wasm each; pruning tables of 30.4 MB, 121 MB,
# 243 MB, 486 MB, 972 MB, 1.95 GB, 3.89 GB, 7.78 GB, 15.6 GB). Build the variation's
# table once and save it with our Node driver (the script refuses to: cube48opt3 takes
# about 2 minutes of both cores here, cube48opt6 about half an hour):
#
#   node bench/peers/cube48opt.mjs /path/to/cubeopt-wasm/cube48opt6.mjs TABLE 2 --build-only
#
# cubedb is the one already built in target/release (the script does not run cargo).
#
#   CUBE48OPT_DIR=DIR               the cubeopt-wasm checkout (required)
#   CUBE48OPT=cube48opt6            the variation
#   CUBE48OPT_TABLE=FILE            its saved table (default $CUBE48OPT_DATA/VARIATION.dat,
#                                   CUBE48OPT_DATA defaulting to /tmp/c48data)
#   PRESETS=...                     cubedb presets (built on first use); by default the
#                                   one of cube48opt's size: cube48opt1-3 `200m`,
#                                   4-6 `2g`, 7 `5g`, 8-9 `8g`
#   COUNT=20 SEED=21                positions: `cubedb rubik scramble --count COUNT --seed
#                                   SEED` (random states, as scrambles)
#   POSITIONS=FILE                  or the first COUNT scrambles of FILE (`#` lines skipped;
#                                   R1/R3 read as R/R'), e.g.
#                                   bench/data/cube_solver_test-random_state-20.txt
#   THREADS=$(nproc)                threads per cube, both solvers
#   CUBEDB_DATA=DIR                 cubedb's tables
#   CUBEDB=target/release/cubedb    the cubedb binary (cubedb-gen beside it)
#   CUBEDB_GEN=DIR-OF-CUBEDB/cubedb-gen  the cubedb-gen binary (lists the tables to warm)
#   NODE=node                       Node (20 runs variations 1-7; 8 and 9 need a V8 whose
#                                   memory64 takes more than 4 GB: Node 20's does not,
#                                   Node 26's does without a flag; bench/peers/README.md
#                                   says how to get it from the npm registry)
#   INTERLEAVE=1                    cube by cube instead of solver by solver (below)
#
# cube48opt runs in one Node process for all cubes (bench/peers/cube48opt.mjs): its table
# is read into the module's memory once (not timed), then each cube is one
# solve_scramble call with all threads, timed by the solver's own clock (its "tt", as
# cubedb's time is its own search time; the call's wall time, 30-40 ms more, is in the
# driver's output); its nodes are the first
# count of its own "CubeN finished in L, NODES/... node(s)" line (as cs0x7f's
# cube_solver_test reads it), and its probes per node are on that line too. Each of its
# solutions is checked twice: on the driver's cubie model, and with cubedb (the scramble
# followed by it leaves cubedb nothing to do). cubedb solves one position per process
# with all threads; per cube: its stderr summary (length, nodes, search time; loading
# excluded) and the whole process's time; each preset's tables are dropped from the page
# cache and read back whole just before its turn (this machine pages out file pages left
# idle for a minute; cube48opt's table, in process memory, is immune to that).
# With INTERLEAVE=1 the run goes cube by cube: the same Node process (kept open, fed one
# scramble at a time) solves the cube, then each preset, its tables read through just
# before (dropped and read back once, at the start), so that a drift in the machine's
# memory speed falls on both sides alike.
# The per-cube table gives each solver's length, seconds, nodes and ns per node, and
# cube48opt's seconds over each preset's; the last lines give median and mean seconds,
# median and mean nodes and ns per node (sum of seconds over sum of nodes) per solver,
# each preset's speed as a multiple of cube48opt's (at the median and on the mean), its
# nodes and ns per node as fractions of cube48opt's, and whether all optimal lengths agree
# (exit 1 if they do not, or if a cube48opt solution fails a check).
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${CUBE48OPT_DIR:?set CUBE48OPT_DIR to a cs0x7f/cubeopt-wasm checkout}"
variation=${CUBE48OPT:-cube48opt6}
build=$(cd "$CUBE48OPT_DIR" && pwd)/$variation.mjs
[ -f "$build" ] || { echo "no $build" >&2; exit 2; }
table=${CUBE48OPT_TABLE:-${CUBE48OPT_DATA:-/tmp/c48data}/$variation.dat}
if [ ! -f "$table" ]; then
    echo "no $table: build and save it first (node bench/peers/cube48opt.mjs $build $table ${THREADS:-$(nproc)} --build-only)" >&2
    exit 2
fi
num=${variation#cube48opt}
case "$num" in
    1|2|3) default_presets=200m ;;
    4|5|6) default_presets=2g ;;
    7) default_presets=5g ;;
    *) default_presets=8g ;;
esac
node_cmd=("${NODE:-node}")
# Node 20 asks for the memory64 flag; Node 26 has memory64 without it and refuses it.
if [[ $num == [89] ]] && "${node_cmd[0]}" --experimental-wasm-memory64 -e 0 2>/dev/null; then
    node_cmd+=(--experimental-wasm-memory64)
fi
presets=${PRESETS:-$default_presets}
count=${COUNT:-20}
seed=${SEED:-21}
threads=${THREADS:-$(nproc)}
cubedb=$(realpath "${CUBEDB:-target/release/cubedb}")
data=${CUBEDB_DATA:-data}
export CUBEDB_DATA=$data
check_preset=${presets%% *}
work=$(mktemp -d)
c48_pid=""
cleanup() {
    if [ -n "$c48_pid" ]; then kill "$c48_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
. bench/peers/scrambles.sh

# The positions, as scrambles.
if [ -n "${POSITIONS:-}" ]; then
    write_scrambles "$cubedb" "$count" "$seed" "$work/scrambles.txt"
else
    "$cubedb" rubik scramble --count "$count" --seed "$seed" --data "$data" < /dev/null > "$work/scrambles.txt"
fi
count=$(wc -l < "$work/scrambles.txt")

# cubedb's `small` preset is warmed as the group `rubik` (cubedb-gen has no
# `rubik-small`); the others as `rubik-PRESET`.
warm() {
    if [ "$1" = small ]; then
        "$cubedb" rubik solve --metric htm --tables small --scramble "R" > /dev/null 2>&1 < /dev/null
        "${CUBEDB_GEN:-$(dirname "$cubedb")/cubedb-gen}" warm rubik --metric htm --data "$data" > /dev/null || exit 1
    else
        warm_preset "$cubedb" htm "$1" "$data"
    fi
}
touch_tables() {
    if [ "$1" = small ]; then
        local gen=${CUBEDB_GEN:-$(dirname "$cubedb")/cubedb-gen} file
        for file in $("$gen" info --data "$data" |
            awk '$1 == "[rubik]" { on = 1; next } /^$/ { on = 0 } on && $1 ~ /^rubik-pdb-htm-.*[.]cdb$/ { print $1 }'); do
            cat "$data/$file" > /dev/null
        done
    else
        touch_preset "$cubedb" htm "$1" "$data"
    fi
}

# cube48opt's rows: "N LENGTH NODES SECONDS NS_PER_NODE SOLUTION..." in $work/c48.txt,
# its stderr (table load, the solver's own stat lines) in $work/c48.err.
# Node 26 may hang in its exit once the solver's threads have run, so the driver's last
# line says how the run went ("# checked N cubes, B failed"): once $1 holds it, or the
# process has ended, the process gets 30 s to end, and the run stops unless none failed.
finish_c48() {
    until grep -q '^# checked ' "$1" || ! kill -0 "$c48_pid" 2>/dev/null; do sleep 1; done
    for _ in $(seq 300); do kill -0 "$c48_pid" 2>/dev/null || break; sleep 0.1; done
    kill "$c48_pid" 2>/dev/null || true
    wait "$c48_pid" 2>/dev/null || true
    c48_pid=""
    grep -q '^# checked .*, 0 failed$' "$1" \
        || { echo "cube48opt failed:" >&2; tail -20 "$work/c48.err" >&2; exit 1; }
}

: > "$work/c48.txt"
if [ "${INTERLEAVE:-0}" = 1 ]; then
    for preset in $presets; do
        : > "$work/cubedb-$preset.txt"
        warm "$preset"
    done
    # One Node process for the whole run, fed a scramble at a time on a FIFO; each
    # answer is read back before the cubedb solves of that cube start.
    mkfifo "$work/c48.in" "$work/c48.out"
    "${node_cmd[@]}" bench/peers/cube48opt.mjs "$build" "$table" "$threads" - \
        < "$work/c48.in" > "$work/c48.out" 2> "$work/c48.err" &
    c48_pid=$!
    exec 3> "$work/c48.in" 4< "$work/c48.out"
    n=0
    while read -r scramble; do
        n=$((n + 1))
        echo "$scramble" >&3
        while read -r line <&4; do
            case "$line" in '#'*) continue ;; esac
            break
        done
        [ -n "${line:-}" ] || { echo "cube48opt stopped:" >&2; tail -20 "$work/c48.err" >&2; exit 1; }
        echo "$n ${line#* }" >> "$work/c48.txt"
        for preset in $presets; do
            touch_tables "$preset"
            row=$(cubedb_solve "$cubedb" htm "$preset" "$scramble" "$work/cubedb.err") || exit 1
            echo "$n $row" >> "$work/cubedb-$preset.txt"
        done
    done < "$work/scrambles.txt"
    exec 3>&-
    cat <&4 > "$work/c48.summary" || true
    exec 4<&-
    finish_c48 "$work/c48.summary"
else
    "${node_cmd[@]}" bench/peers/cube48opt.mjs "$build" "$table" "$threads" "$work/scrambles.txt" \
        > "$work/c48.all" 2> "$work/c48.err" &
    c48_pid=$!
    finish_c48 "$work/c48.all"
    grep -v '^#' "$work/c48.all" > "$work/c48.txt"
    grep '^#' "$work/c48.all" > "$work/c48.summary" || true
    for preset in $presets; do
        [ "$preset" = small ] && warm small
    done
    solve_presets "$cubedb" htm "$data" "$(echo "$presets" | tr ' ' '\n' | grep -vx small | tr '\n' ' ')" \
        "$work/scrambles.txt" "$work/cubedb"
    if echo " $presets " | grep -q ' small '; then
        : > "$work/cubedb-small.txt"
        n=0
        while read -r scramble; do
            n=$((n + 1))
            row=$(cubedb_solve "$cubedb" htm small "$scramble" "$work/cubedb.err") || exit 1
            echo "$n $row" >> "$work/cubedb-small.txt"
        done < "$work/scrambles.txt"
    fi
fi
if [ "$(wc -l < "$work/c48.txt")" -ne "$count" ]; then
    echo "cube48opt solved $(wc -l < "$work/c48.txt") of $count positions:" >&2
    tail -20 "$work/c48.err" >&2
    exit 1
fi

# Rows "N SOLVER LENGTH SECONDS NODES", cube48opt's solutions checked with cubedb.
: > "$work/rows.txt"
mismatch=""
n=0
while read -r scramble; do
    n=$((n + 1))
    read -r _ c48_len c48_nodes c48_secs _ _ c48_sol < <(sed -n "${n}p" "$work/c48.txt")
    rest=$("$cubedb" rubik solve --metric htm --tables "$check_preset" -q --scramble "$scramble $c48_sol" < /dev/null)
    if [ -n "$rest" ]; then mismatch="$mismatch $n"; fi
    echo "$n $variation $c48_len $c48_secs $c48_nodes" >> "$work/rows.txt"
done < "$work/scrambles.txt"
[ -z "$mismatch" ] || echo "$variation's solutions DO NOT SOLVE cubes:$mismatch"
for preset in $presets; do
    # "N LENGTH NODES SECONDS PROCESS" -> "N SOLVER LENGTH SECONDS NODES PROCESS"
    awk -v s="cubedb-$preset" '{ print $1, s, $2, $4, $3, $5 }' "$work/cubedb-$preset.txt" >> "$work/rows.txt"
done

printf "%-5s %-14s %6s %10s %14s %9s %9s\n" cube solver length seconds nodes ns/node "c48 s/x"
for n in $(seq 1 "$count"); do
    read -r c48_len c48_secs < <(awk -v n="$n" -v s="$variation" '$1 == n && $2 == s { print $3, $4 }' "$work/rows.txt")
    agree=yes
    while read -r _ who len secs nodes process; do
        nspn=$(echo "$secs * 1000000000 / $nodes" | bc -l)
        if [ "$who" = "$variation" ]; then
            printf "%-5s %-14s %6s %10.3f %14s %9.2f\n" "$n" "$who" "$len" "$secs" "$nodes" "$nspn"
        else
            printf "%-5s %-14s %6s %10.3f %14s %9.2f %9.2f  process %.2f s\n" "$n" "${who/-/ }" "$len" "$secs" "$nodes" "$nspn" \
                "$(echo "$c48_secs / $secs" | bc -l)" "$process"
            [ "$len" = "$c48_len" ] || agree=no
        fi
    done < <(awk -v n="$n" '$1 == n' "$work/rows.txt")
    if [ "$agree" = yes ]; then
        echo "$n     lengths agree: $c48_len"
    else
        echo "$n     LENGTHS DIFFER"
        mismatch="$mismatch $n"
    fi
done

echo
printf "%-16s %10s %10s %14s %14s %9s %12s\n" solver "median s" "mean s" "median nodes" "mean nodes" "ns/node" "mean length"
for who in "$variation" $(for p in $presets; do echo "cubedb-$p"; done); do
    awk -v s="$who" '$2 == s { print $2, $3, $4, $5 }' "$work/rows.txt" > "$work/one.txt"
    med_s=$(awk '{ print $3 }' "$work/one.txt" | median)
    med_n=$(awk '{ print $4 }' "$work/one.txt" | median)
    awk -v s="$who" -v ms="$med_s" -v mn="$med_n" '{ t += $3; n += $4; l += $2 } END { sub(/^cubedb-/, "cubedb ", s); printf "%-16s %10.3f %10.3f %14.0f %14.0f %9.2f %12.2f\n", s, ms, t / NR, mn, n / NR, t * 1e9 / n, l / NR }' "$work/one.txt"
    echo "$who $med_s $med_n $(awk '{ t += $3; n += $4 } END { printf "%.6f %.0f %.4f\n", t / NR, n / NR, t * 1e9 / n }' "$work/one.txt")" >> "$work/summary.txt"
done
read -r _ c_med c_medn c_mean c_meann c_nspn < <(grep "^$variation " "$work/summary.txt")
for preset in $presets; do
    read -r _ med medn mean meann nspn < <(grep "^cubedb-$preset " "$work/summary.txt")
    printf "cubedb %s against %s: %.2fx at the median, %.2fx at the mean; nodes %.2f (median) / %.2f (mean) of its, ns per node %.2f of its\n" \
        "$preset" "$variation" "$(echo "$c_med / $med" | bc -l)" "$(echo "$c_mean / $mean" | bc -l)" \
        "$(echo "$medn / $c_medn" | bc -l)" "$(echo "$meann / $c_meann" | bc -l)" "$(echo "$nspn / $c_nspn" | bc -l)"
done
sed 's/^# //' "$work/c48.summary" | sed "s/^/$variation: /" || true
if [ -z "$mismatch" ]; then
    echo "optimal lengths: $variation and cubedb ($presets) agree on all $count cubes; $variation's solutions checked"
else
    echo "optimal lengths or solutions DIFFER on cubes:$mismatch"
    exit 1
fi
