#!/usr/bin/env bash
# cube555 (Chen Shuang's 5x5x5 five-phase reduction, then min2phase on the reduced 3x3x3) on a
# file of 5x5x5 scrambles, one JVM, one thread. Runs an already-built peer; builds and fetches
# nothing of it.
#
# Get the peer from its public source, github.com/cs0x7f/cube555, outside this repository, and
# build it as its README and Makefile say (the Makefile's build target, into a dist folder:
# javac of its sources against the lib/twophase.jar it ships, packed as dist/cube555.jar).
# Then:
#
#   CUBE555_DIR=/path/to/cube555   the folder holding dist/cube555.jar and lib/twophase.jar
#   CUBE555_DATA=DIR               where cube555 keeps its pruning tables (about 240 MB, built
#                                  and written there on the first run: minutes; default:
#                                  CUBE555_DIR). Give java room: JAVA_OPTS=-Xmx2g is plenty.
#
#   bash bench/peers/cube555.sh solve INPUTS [WARMUP]   solve each scramble of INPUTS
#   bash bench/peers/cube555.sh random COUNT SEED       cube555's random states, as scrambles
#   bash bench/peers/cube555.sh selftest COUNT SEED     its random facelets, solved and checked
#
# INPUTS: one 5x5x5 scramble a line in WCA notation (R U' Rw2 3Rw Uw x ...; `#` and blank lines
# skipped). Each is applied to a solved cube by our NxnCube.java (then turned whole so that its
# centres face the usual way), the facelets go to cube555's Search.solveReduction, the reduced
# 3x3x3 to min2phase (Search.solution(f, 21, Integer.MAX_VALUE, 500, 0), as cube555's own GUI
# calls it), and the joined answer is checked by applying it. Output on stdout:
#   <index> TAB <length> TAB <ms> TAB <solution>
#   # summary peer=cube555 metric=obtm count=N mean_len=L max_len=X median_ms=A mean_ms=B max_ms=C total_s=T init_s=I
# Length: outer-block turn metric (cube555's u r f ..., printed as Uw Rw Fw ..., count 1 each).
# ms: reduction and 3x3x3 together. init_s: tables read (or built) before the first solve.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${CUBE555_DIR:?set CUBE555_DIR to the built cube555 folder (dist/cube555.jar, lib/twophase.jar)}"
mode=${1:?usage: cube555.sh solve INPUTS [WARMUP] | random COUNT SEED | selftest COUNT SEED}
shift
args=("$@")
if [[ $mode == solve ]]; then
    args[0]=$(realpath "${args[0]:?INPUTS}")
fi
cp=$CUBE555_DIR/dist/cube555.jar:$CUBE555_DIR/lib/twophase.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -nowarn -implicit:none -sourcepath "$here" -d "$work" -cp "$cp" \
    "$here/NxnCube.java" "$here/PeerStats.java" "$here/Cube555Bench.java"
cd "${CUBE555_DATA:-$CUBE555_DIR}"
java ${JAVA_OPTS:-} -cp "$cp:$work" Cube555Bench "$mode" "${args[@]}"
