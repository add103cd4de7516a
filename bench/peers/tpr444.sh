#!/usr/bin/env bash
# TPR-4x4x4-Solver (Chen Shuang's 4x4x4 three-phase reduction: centres, then edge pairing with
# Tsai's steps merged, then min2phase on the reduced 3x3x3) on a file of 4x4x4 scrambles, one
# JVM, one thread. Runs an already-built peer; builds and fetches nothing of it.
#
# Get the peer from its public source, github.com/cs0x7f/TPR-4x4x4-Solver, outside this
# repository, and build it as its README says: its make.sh compiles its sources with javac
# against the twophase.jar (min2phase) it ships and packs threephase.jar. Then:
#
#   TPR_DIR=/path/to/TPR-4x4x4-Solver   the folder holding threephase.jar and twophase.jar
#   TPR_DATA=DIR                        where TPR's tables are cached (twophase.data,
#                                       threephase.data, 11 MB; default: TPR_DIR)
#
#   bash bench/peers/tpr444.sh solve INPUTS [WARMUP]   solve each scramble of INPUTS
#   bash bench/peers/tpr444.sh random COUNT SEED       TPR's own random-state scrambles
#   bash bench/peers/tpr444.sh selftest COUNT SEED     TPR's random facelets, solved and checked
#
# INPUTS: one 4x4x4 scramble a line in WCA notation (R U' F2 Rw Uw2 3Rw x ...; `#` lines and
# blank lines skipped). Each is applied to a solved cube by our NxnCube.java, its facelets go to
# TPR's Search.solution, and the answer is checked by applying it. Output on stdout, one line a
# cube, then a summary (see Tpr444Bench.java and PeerStats.java):
#   <index> TAB <length> TAB <ms> TAB <solution>
#   # summary peer=tpr444 metric=obtm count=N mean_len=L max_len=X median_ms=A mean_ms=B max_ms=C total_s=T init_s=I
# Length: outer-block turn metric (U, Uw, Uw2 each count 1; TPR's closing whole-cube rotation
# not counted). init_s: TPR's tables read (or built, the first time) before the first solve.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${TPR_DIR:?set TPR_DIR to the built TPR-4x4x4-Solver folder (threephase.jar, twophase.jar)}"
mode=${1:?usage: tpr444.sh solve INPUTS [WARMUP] | random COUNT SEED | selftest COUNT SEED}
shift
args=("$@")
if [[ $mode == solve ]]; then
    args[0]=$(realpath "${args[0]:?INPUTS}")
fi
cp=$TPR_DIR/threephase.jar:$TPR_DIR/twophase.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -nowarn -implicit:none -sourcepath "$here" -d "$work" -cp "$cp" \
    "$here/NxnCube.java" "$here/PeerStats.java" "$here/Tpr444Bench.java"
cd "${TPR_DATA:-$TPR_DIR}"
java ${JAVA_OPTS:-} -cp "$cp:$work" Tpr444Bench "$mode" "${args[@]}"
