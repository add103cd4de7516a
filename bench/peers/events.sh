#!/usr/bin/env bash
# Scrambles event by event, side by side in one run: `cubedb scramble EVENT` against
# TNoodle's and cubing.js's scramblers (the drivers beside this file; built peers only,
# nothing fetched or built here), one event at a time, cubedb then TNoodle then cubing.js.
#
#   CUBEDB=target/release/cubedb TNOODLE_CLASSES=... CUBING_DIR=... \
#     bash bench/peers/events.sh [EVENT...]          (default: every WCA event and fto)
#
# The peers make COUNT scrambles an event (default 200; 444, 444bf, sq1, fto: COUNT_SLOW,
# default 40), cubedb OURS (default 20000; those four: OURS_SLOW, default 100), so that its
# rate is not its process start. DATA: cubedb's table folder (its tables present: built by
# a first run). Prints a line an event:
#   event  cubedb/s (2 cores)  cubedb/s (1 thread)  cubedb first ms  tnoodle/s  tnoodle first ms  cubingjs/s  cubingjs first ms
# cubedb's rates are whole processes (start, tables opened, COUNT scrambles, all checked);
# the peers' are their scrambles 2..COUNT after a warm-up (their `rest_per_s`), and their
# first ms a fresh process's start to its first scramble (`process_to_first_ms`). "-": the
# peer has no such event (TNoodle has no FTO). Scrambles go to OUT_DIR (default a temporary
# folder, removed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cubedb=${CUBEDB:-target/release/cubedb}
data=${DATA:-data}
count=${COUNT:-200}
count_slow=${COUNT_SLOW:-40}
ours_count=${OURS:-20000}
ours_slow=${OURS_SLOW:-100}
out=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$out"
[[ -n ${OUT_DIR:-} ]] || trap 'rm -rf "$out"' EXIT
events=("$@")
[[ ${#events[@]} -gt 0 ]] || events=(222 333 333oh 333bf 333fm 333mbf 444 444bf 555 555bf 666 777 clock minx pyram skewb sq1 fto)

seconds() { date +%s.%N; }
# Scrambles a second of `$cubedb scramble` over N scrambles (one process).
cubedb_rate() {
    local event=$1 n=$2 threads=$3 start end
    start=$(seconds)
    "$cubedb" --threads "$threads" scramble "$event" --count "$n" --seed 1 --data "$data" -q > "$out/cubedb-$event.txt"
    end=$(seconds)
    echo "$n / ($end - $start)" | bc -l | xargs printf '%.1f'
}
# A fresh process's first scramble, in ms (median of three).
cubedb_first() {
    local event=$1 t=() start end
    for seed in 1 2 3; do
        start=$(seconds)
        "$cubedb" scramble "$event" --seed "$seed" --data "$data" -q > /dev/null
        end=$(seconds)
        t+=("$(echo "($end - $start) * 1000" | bc -l)")
    done
    printf '%s\n' "${t[@]}" | sort -g | sed -n 2p | xargs printf '%.0f'
}
# A peer's summary field.
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<< "$2"; }

printf '%-7s %12s %12s %10s %10s %10s %11s %11s\n' event cubedb/s cubedb-1t/s first_ms tnoodle/s tn_first cubingjs/s cj_first
for event in "${events[@]}"; do
    n=$count mine=$ours_count
    case $event in 444 | 444bf | sq1 | fto) n=$count_slow mine=$ours_slow ;; esac
    ours=$(cubedb_rate "$event" "$mine" 2)
    ours1=$(cubedb_rate "$event" "$mine" 1)
    first=$(cubedb_first "$event")
    tn="-" tnf="-"
    if [[ $event != fto && -n ${TNOODLE_CLASSES:-} ]]; then
        line=$(bash "$here/tnoodle-scrambles.sh" "$event" "$n" "$out/tnoodle-$event.txt" seed | grep '^# scrambles')
        tn=$(field rest_per_s "$line") tnf=$(field process_to_first_ms "$line")
    fi
    cj="-" cjf="-"
    if [[ -n ${CUBING_DIR:-} ]]; then
        line=$(bash "$here/cubingjs-scrambles.sh" "$event" "$n" "$out/cubingjs-$event.txt" | grep '^# scrambles')
        cj=$(field rest_per_s "$line") cjf=$(field process_to_first_ms "$line")
    fi
    printf '%-7s %12s %12s %10s %10s %10s %11s %11s\n' "$event" "$ours" "$ours1" "$first" "$tn" "$tnf" "$cj" "$cjf"
done
