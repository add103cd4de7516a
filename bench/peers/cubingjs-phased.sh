#!/usr/bin/env bash
# cubing.js's phased solvers (npm package `cubing`), in Node, one process, on this machine's
# Node. Runs an already-installed peer; installs and fetches nothing.
#
# Get the peer from the npm registry outside this repository: the package `cubing`, installed
# with npm into a folder of its own (Node 20 gets cubing 0.56.0: later versions ask for
# Node >= 22.3). Then:
#
#   CUBING_DIR=/path/to/folder   the folder whose node_modules holds cubing
#
#   bash bench/peers/cubingjs-phased.sh solve-minx INPUTS [WARMUP]   megaminx scrambles, solved
#   bash bench/peers/cubingjs-phased.sh random EVENT COUNT            444 | sq1 | fto (| minx ...)
#
# What cubing.js offers here (details in cubing_phased.mjs): a solver for a given pattern only
# for megaminx (`solveMegaminx`, from `cubing/search`); for 4x4x4, Square-1 and FTO only
# random-state scrambles (`randomScrambleForEvent`), each the inverse of a solve of a random
# state, so `random` times state-plus-solve and gives the solve's length. No 5x5x5 solver
# (its 555 scrambles are random moves). Output on stdout:
#   <index> TAB <length> TAB <ms> TAB <solution or scramble>
#   # summary peer=P metric=M count=N mean_len=L max_len=X median_ms=A mean_ms=B max_ms=C total_s=T init_s=I
# Metrics: megaminx and FTO face turns (rotations not counted); 4x4x4 outer-block turns;
# Square-1 twists (plus mean_wca_len). init_s: the first call (worker start, tables).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${CUBING_DIR:?set CUBING_DIR to the folder whose node_modules holds cubing}"
mode=${1:?usage: cubingjs-phased.sh solve-minx INPUTS [WARMUP] | random EVENT COUNT}
shift
args=("$@")
if [[ $mode == solve-minx ]]; then
    args[0]=$(realpath "${args[0]:?INPUTS}")
fi
exec node "$here/cubing_phased.mjs" "$(realpath "$CUBING_DIR")" "$mode" "${args[@]}"
