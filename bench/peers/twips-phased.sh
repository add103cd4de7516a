#!/usr/bin/env bash
# twips (cubing/twsearch's Rust CLI: its event scramble finders, phased for 4x4x4 and
# Square-1, and its megaminx solver) on a file of scrambles, one `twips solve-known-puzzle`
# process per scramble. Runs an already-built peer; builds and fetches nothing of it.
#
# Get the peer from its public source, github.com/cubing/twsearch, outside this repository, and
# build its CLI package (twips-cli) with cargo in release mode. Its rust-toolchain.toml asks
# for a nightly (2025-12-01) for its default `simd` feature; on stable Rust, with default
# features off, it builds (bench/peers/README.md says how it was done here), giving
# target/release/twips. There is no `--multiphase` option in this CLI: twsearch's multi-phase
# search is a library API (experimental_lib_api::MultiPhaseSearch) used by its own solvers.
# The answers are checked with cubing.js's puzzle models, so cubing.js is needed too (see
# cubingjs-phased.sh). Then:
#
#   TWIPS_BIN=/path/to/target/release/twips
#   CUBING_DIR=/path/to/folder            whose node_modules holds cubing
#
#   bash bench/peers/twips-phased.sh PUZZLE INPUTS     PUZZLE: 4x4x4 | square1 | megaminx | ...
#
# INPUTS: one scramble a line in WCA notation (Square-1 "(x,y) /" rewritten into twips's
# U_SQ_ D_SQ_ / moves). Each process's wall time is the time (start-up and tables included:
# twips has no batch mode for solving); init_s is one process on a one-move scramble (for
# 4x4x4 and megaminx that returns before any table is built, so it says little). Output as
# in cubingjs-phased.sh; metrics: 4x4x4 outer-block turns, Square-1 twists (plus
# mean_wca_len), megaminx face turns.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${TWIPS_BIN:?set TWIPS_BIN to the built twips binary}"
: "${CUBING_DIR:?set CUBING_DIR to the folder whose node_modules holds cubing (for the checks)}"
puzzle=${1:?usage: twips-phased.sh PUZZLE INPUTS}
inputs=$(realpath "${2:?INPUTS}")
exec node "$here/cubing_phased.mjs" "$(realpath "$CUBING_DIR")" twips "$(realpath "$TWIPS_BIN")" "$puzzle" "$inputs"
