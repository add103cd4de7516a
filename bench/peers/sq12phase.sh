#!/usr/bin/env bash
# sq12phase (Chen Shuang's two-phase Square-1 solver: shape and parity first, then the rest;
# the solver inside TNoodle's sq1 scrambler) on a file of Square-1 scrambles, one JVM, one
# thread. Runs an already-built peer; builds and fetches nothing of it.
#
# Get the peer from its public source, github.com/cs0x7f/sq12phase, outside this repository,
# and compile it: its README gives no build; its five sources compiled with javac into a
# classes folder is all it takes (package cs.sq12phase). Then:
#
#   SQ12PHASE_CLASSES=/path/to/classes   the folder holding cs/sq12phase/*.class
#
#   bash bench/peers/sq12phase.sh solve INPUTS [WARMUP]   solve each scramble of INPUTS
#   bash bench/peers/sq12phase.sh random COUNT SEED       its random states as scrambles (TNoodle's way)
#   bash bench/peers/sq12phase.sh selftest COUNT SEED     its random states, solved and checked
#
# INPUTS: one Square-1 scramble a line: "(x,y)" turns top by x and bottom by y twelfths, "/"
# twists; "(1,0)/ (-3,3)/" and "(1,0) / (-3,3) /" both read (`#` and blank lines skipped).
# Each scramble is applied with the peer's own move routine, Search.solution solves it, and the
# answer is checked (see Sq12phaseBench.java). Output on stdout:
#   <index> TAB <twists> TAB <ms> TAB <solution>
#   # summary peer=sq12phase metric=twists count=N mean_len=L ... total_s=T init_s=I mean_wca_len=W
# Length: twists (slashes); mean_wca_len: the WCA metric (each (x,y) and each / count 1).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
: "${SQ12PHASE_CLASSES:?set SQ12PHASE_CLASSES to the folder with cs/sq12phase/*.class}"
mode=${1:?usage: sq12phase.sh solve INPUTS [WARMUP] | random COUNT SEED | selftest COUNT SEED}
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -nowarn -implicit:none -sourcepath "$here" -d "$work" -cp "$SQ12PHASE_CLASSES" \
    "$here/PeerStats.java" "$here/Sq12phaseBench.java"
java ${JAVA_OPTS:-} -cp "$SQ12PHASE_CLASSES:$work" Sq12phaseBench "$mode" "$@"
