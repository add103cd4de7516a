#!/usr/bin/env bash
# cubing.js's scramblers (npm package `cubing`: randomScrambleForEvent) in Node: COUNT
# scrambles of one event into a file, first-scramble latency of a fresh process and the rate
# after it. Runs an already-installed peer; installs and fetches nothing.
#
# Get the peer from the npm registry outside this repository: the package `cubing`, installed
# with npm into a folder of its own (Node 20 gets cubing 0.56.0: later versions ask for
# Node >= 22.3). Then:
#
#   CUBING_DIR=/path/to/folder   the folder whose node_modules holds cubing
#
#   bash bench/peers/cubingjs-scrambles.sh EVENT COUNT OUT
#
# EVENT: 222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf clock minx pyram skewb sq1
# fto (and cubing.js's other ids). OUT gets one scramble a line. Prints (cubingjs_scrambles.mjs):
#   # scrambles peer=cubingjs event=E count=N process_to_first_ms=A first_ms=B rest_per_s=C
#     rest_mean_ms=D rest_median_ms=E mean_tokens=F
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${CUBING_DIR:?set CUBING_DIR to the folder whose node_modules holds cubing}"
[[ $# -eq 3 ]] || { echo "usage: cubingjs-scrambles.sh EVENT COUNT OUT" >&2; exit 2; }
exec node "$here/cubingjs_scrambles.mjs" "$(realpath "$CUBING_DIR")" "$1" "$2" "$(realpath -m "$3")"
