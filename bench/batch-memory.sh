#!/usr/bin/env bash
# Peak memory of every batch command fed 10 million input lines, the Rubik solvers with one
# slow cube first (issue 24: memory must stay under 200 MB whatever the input's size).
#
#   bench/batch-memory.sh [LINES] [SECONDS]
#
# Each command runs until it ends or for SECONDS (default 60; a slow cube holds the Rubik
# solvers far longer), and the peak resident set (GNU time's %M) is printed beside how
# the run ended. Tables are built on first use in $CUBEDB_DATA (default ./data); run from
# the repository after `cargo build --release` (CUBEDB_BIN=path measures another binary).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${CUBEDB_BIN:-target/release/cubedb}
LINES=${1:-10000000}
SECONDS_EACH=${2:-60}
[ -x "$BIN" ] || { echo "build first: cargo build --release" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time (/usr/bin/time)" >&2; exit 1; }

# A random cube: fast for the two-phase search at 21 moves, slow at 15 and for optimal
# solving, so everything behind it waits.
SLOW=$("$BIN" rubik random --count 1 --seed 7)

# Makes tables exist before measuring (a first build is not a batch).
"$BIN" rubik solve --max-length 21 --scramble "R U F" >/dev/null
"$BIN" rubik solve --scramble "R U F" >/dev/null

feed() { # what, then lines
    python3 - "$@" <<'EOF'
import sys
kind, lines, slow = sys.argv[1], int(sys.argv[2]), sys.argv[3]
out = sys.stdout
block = 10000
def repeat(text, times):
    for start in range(0, times, block):
        out.write(text * min(block, times - start))
try:
    if kind == "moves":
        out.write(slow + "\n")
        repeat("R U F\n", lines - 1)
    elif kind == "rotation":
        repeat("1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n", lines - 1)
        out.write("0\n")
    elif kind == "rolling":
        repeat("1 2\nW W W\nE W W\nW W W\n", lines // 4)
        out.write("0 0\n")
    elif kind == "soma":
        repeat("aa.a..a....................\n", lines)
    elif kind == "magic-cube":
        cases = lines // 9
        out.write(f"{cases}\n")
        net = "w w w\nw w w\nw w w\n" + "r r r g g g b b b o o o\n" * 3 + "y y y\ny y y\ny y y\n"
        repeat(net, cases)
except BrokenPipeError:
    pass
EOF
}

run() { # label, feed kind, command...
    local label=$1 kind=$2
    shift 2
    local report
    report=$(mktemp)
    local status=0
    feed "$kind" "$LINES" "$SLOW" 2>/dev/null |
        /usr/bin/time -f "%M %e" -o "$report" timeout "$SECONDS_EACH" "$BIN" "$@" >/dev/null 2>&1 ||
        status=$?
    read -r peak_kb elapsed < <(tail -n 1 "$report")
    rm -f "$report"
    local ended="finished"
    [ "$status" = 124 ] && ended="stopped at ${SECONDS_EACH} s"
    [ "$status" != 0 ] && [ "$status" != 124 ] && ended="exit $status"
    printf '%-34s peak %6.1f MB  %7.1f s  %s\n' "$label" "$(echo "$peak_kb / 1024" | bc -l)" \
        "$elapsed" "$ended"
}

echo "$LINES lines per command; peak resident memory (limit 200 MB)"
run "rubik solve --max-length 15" moves rubik solve --max-length 15 -q
run "rubik solve --max-length 21" moves rubik solve --max-length 21 -q
run "rubik solve (optimal)" moves rubik solve -q
run "rubik (ZOJ 2477 judge)" magic-cube rubik
run "rotation" rotation rotation
run "rolling" rolling rolling
run "soma" soma soma
