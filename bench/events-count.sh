#!/usr/bin/env bash
# Every WCA event's scrambles (and the FTO's), made by cubedb and checked outside it:
# for each event, `cubedb scramble EVENT --count N --seed SEED --format json` is timed
# (the whole process: start, tables opened, every scramble made), then its output goes
# through bench/check_event_scrambles.py (notation, the state each scramble reaches on
# the checker's own models or the definitions in puzzles/, the WCA's minimum distances,
# lengths and turn rules, distinct scrambles, indices in order). Prints a table: event,
# count, seconds, scrambles a second, the checker's summary (or its failure); exits 1 if
# any event failed (cubedb's error or the checker's), after running them all.
#
# Usage: bench/events-count.sh [BINARY] [DATA]
#   BINARY      the cubedb binary (default target/release/cubedb)
#   DATA        the folder of table files (default $CUBEDB_DATA, else target/events-data;
#               the random-state events build their tables there on first use: up to
#               about 25 s each, counted in that event's time)
#   COUNT_SMALL scrambles an event (default 10000)
#   COUNT_BIG   scrambles for 444 444bf 555 555bf 666 777 minx fto (default 1000; the
#               4x4x4 and the FTO take about 0.3 s a scramble on this 2-core machine)
#   SEED        the seed (default 1)
#   EVENTS      the events to run, space-separated (default all 18)
#   PYTHON      the Python 3 to run the checker with (default python3)
#   KEEP        a folder to keep each event's scrambles in (EVENT.jsonl; default: none)
#
# Example: COUNT_SMALL=200 COUNT_BIG=5 EVENTS="333 sq1 fto" bench/events-count.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
binary=${1:-target/release/cubedb}
data=${2:-${CUBEDB_DATA:-target/events-data}}
count_small=${COUNT_SMALL:-10000}
count_big=${COUNT_BIG:-1000}
seed=${SEED:-1}
python=${PYTHON:-python3}
events=${EVENTS:-"222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf clock minx pyram skewb sq1 fto"}
big=" 444 444bf 555 555bf 666 777 minx fto "

if [ ! -x "$binary" ]; then
  echo "no cubedb binary at $binary (build it: cargo build --release)" >&2
  exit 2
fi
mkdir -p "$data"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "${KEEP:-}" ] && mkdir -p "$KEEP"

now() { date +%s.%N; }

printf "%-7s %7s %9s %12s  %s\n" event count seconds scrambles/s checker
failed=0
for event in $events; do
  case "$big" in
    *" $event "*) count=$count_big ;;
    *) count=$count_small ;;
  esac
  out="$work/$event.jsonl"
  start=$(now)
  "$binary" scramble "$event" --count "$count" --seed "$seed" --format json --data "$data" -q \
    > "$out" 2> "$work/$event.err"
  status=$?
  end=$(now)
  seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
  rate=$(awk -v n="$count" -v s="$seconds" 'BEGIN { if (s > 0) printf "%.1f", n / s; else print "-" }')
  if [ "$status" -ne 0 ]; then
    summary="FAIL cubedb exited $status: $(tr '\n' ' ' < "$work/$event.err" | cut -c1-200)"
    failed=1
  else
    summary=$("$python" "$here/check_event_scrambles.py" "$event" < "$out" 2>&1)
    if [ $? -ne 0 ]; then
      failed=1
    fi
    summary=$(printf "%s" "$summary" | tr '\n' ' ')
  fi
  [ -n "${KEEP:-}" ] && cp "$out" "$KEEP/$event.jsonl"
  printf "%-7s %7s %9s %12s  %s\n" "$event" "$count" "$seconds" "$rate" "$summary"
done
if [ "$failed" -ne 0 ]; then
  echo "some events failed" >&2
  exit 1
fi
