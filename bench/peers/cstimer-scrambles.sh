#!/usr/bin/env bash
# csTimer's scramblers in Node: COUNT scrambles of one event into a file, first-scramble latency
# of a fresh process and the rate after it. Runs an already-built peer; builds and fetches
# nothing of it.
#
# Get the peer from its public source, github.com/cs0x7f/cstimer, outside this repository, and
# build its Node module as its Makefile does: the `module` target packs src/js/... into
# npm_export/cstimer_module.js with Google's Closure Compiler. The Makefile expects
# lib/compiler.jar (not in the repository); the compiler from the npm registry works in its
# place, given to the Makefile's `compile` variable with the Makefile's own flags: here the
# native one (package google-closure-compiler-linux; the Java one of 2026 needs Java 21).
# (csTimer's author also publishes the module on npm as cstimer_module, an older build.) Then:
#
#   CSTIMER_MODULE=/path/to/cstimer/npm_export/cstimer_module.js
#
#   bash bench/peers/cstimer-scrambles.sh EVENT COUNT OUT [SEED]
#
# EVENT: 222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf clock minx pyram skewb sq1
# fto (mapped to csTimer's types as its WCA menu does; see cstimer_scrambles.cjs), or csTimer's
# own TYPE:LENGTH. OUT gets one scramble a line. Prints:
#   # scrambles peer=cstimer event=E count=N process_to_first_ms=A first_ms=B rest_per_s=C
#     rest_mean_ms=D rest_median_ms=E mean_tokens=F type=T length=L
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${CSTIMER_MODULE:?set CSTIMER_MODULE to the built npm_export/cstimer_module.js}"
[[ $# -ge 3 ]] || { echo "usage: cstimer-scrambles.sh EVENT COUNT OUT [SEED]" >&2; exit 2; }
exec node "$here/cstimer_scrambles.cjs" "$(realpath "$CSTIMER_MODULE")" "$1" "$2" "$(realpath -m "$3")" "${@:4}"
