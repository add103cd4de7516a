# Sourced by h48.sh and nxopt.sh: the positions both sides of a comparison get, as
# scrambles, since the peers read moves rather than facelets; cubedb's side of a
# comparison, its tables warmed, then one position per process; and a median.
#
#   write_scrambles CUBEDB COUNT SEED OUT
#
# writes to OUT, one a line, the first COUNT scrambles of the file $POSITIONS (`#` lines
# skipped; R1/R3 read as R/R') if it is set, else the positions of `cubedb rubik random
# --count COUNT --seed SEED`, each given as the inverse of cubedb's two-phase solution
# (the same position). Scratch files go next to OUT.
write_scrambles() {
    local cubedb=$1 count=$2 seed=$3 out=$4
    local dir
    dir=$(dirname "$out")
    if [ -n "${POSITIONS:-}" ]; then
        grep -v '^#' "$POSITIONS" | sed -e 's/\([URFDLB]\)1/\1/g' -e "s/\([URFDLB]\)3/\1'/g" \
            | head -n "$count" > "$out"
    else
        "$cubedb" rubik random --count "$count" --seed "$seed" > "$dir/positions.txt"
        "$cubedb" rubik solve --max-length 21 --metric htm -q < "$dir/positions.txt" > "$dir/two-phase.txt"
        # The inverse of a solution, as a scramble.
        awk '{ s = ""; for (i = NF; i >= 1; i--) { m = $i; if (m ~ /2$/) t = m; else if (m ~ /'"'"'$/) t = substr(m, 1, 1); else t = m "'"'"'"; s = s (s == "" ? "" : " ") t } print s }' \
            "$dir/two-phase.txt" > "$out"
    fi
}

#   cubedb_solve CUBEDB METRIC PRESET SCRAMBLE ERR
#
# solves SCRAMBLE optimally in one cubedb process (stderr kept in the file ERR) and prints
# "LENGTH NODES SECONDS PROCESS": the length, nodes and search time of its stderr summary
# (loading excluded) and the whole process's seconds. Exits 1, showing ERR, if the solve
# fails.
cubedb_solve() {
    local cubedb=$1 metric=$2 preset=$3 scramble=$4 err=$5
    local start end len nodes secs
    start=$(date +%s.%N)
    if ! "$cubedb" rubik solve --metric "$metric" --tables "$preset" --scramble "$scramble" 2>"$err" >/dev/null < /dev/null; then
        cat "$err" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    # "cube 1: L face turns (N nodes, T s, R M nodes/s)", or "quarter turns"
    read -r len nodes secs < <(grep '^cube [0-9]*:' "$err" | tail -1 |
        sed 's/^cube [0-9]*: \([0-9]*\) [a-z]* turns (\([0-9]*\) nodes, \([0-9.]*\) s.*/\1 \2 \3/')
    echo "$len $nodes $secs $(echo "$end - $start" | bc)"
}

#   warm_preset CUBEDB METRIC PRESET DATA
#
# builds PRESET's tables of METRIC in DATA if missing, then drops each from the page
# cache and reads it back (`cubedb-gen warm`: so that it comes back in large folios),
# failing if a table is damaged: run just before the
# preset's solves, since a mapped table left idle while a peer runs can be paged out on
# this kind of machine (docs/rubik-optimal.md, "Idle tables are paged out").
warm_preset() {
    local cubedb=$1 metric=$2 preset=$3 data=$4
    local gen=${CUBEDB_GEN:-$(dirname "$cubedb")/cubedb-gen}
    # cubedb-gen warms: without it nothing would be warmed.
    if [ ! -x "$gen" ]; then
        echo "warm_preset: no cubedb-gen at $gen (set CUBEDB_GEN)" >&2
        exit 2
    fi
    "$cubedb" rubik solve --metric "$metric" --tables "$preset" --scramble "R" > /dev/null 2>&1 < /dev/null
    "$gen" warm "rubik-$preset" --metric "$metric" --data "$data" > /dev/null || exit 1
}

#   touch_preset CUBEDB METRIC PRESET DATA
#
# reads PRESET's tables of METRIC through once, without dropping them first: what is
# still cached stays as it is (in large folios after warm_preset), what was paged out
# comes back. For runs that alternate with a peer cube by cube, after one warm_preset.
touch_preset() {
    local cubedb=$1 metric=$2 preset=$3 data=$4
    local file gen=${CUBEDB_GEN:-$(dirname "$cubedb")/cubedb-gen}
    for file in $(preset_files "$gen" "$metric" "$preset" "$data"); do
        cat "$data/$file" > /dev/null
    done
}

#   preset_files CUBEDB_GEN METRIC PRESET DATA
#
# prints the file names (in DATA) of PRESET's pattern databases in METRIC, one a line,
# as `cubedb-gen info` lists them.
preset_files() {
    local gen=$1 metric=$2 preset=$3 data=$4
    "$gen" info --data "$data" |
        awk -v g="[rubik-$preset]" -v m="$metric" '$1 == g { on = 1; next } /^$/ { on = 0 } on && $1 ~ ("^rubik-pdb-" m "-.*[.]cdb$") { print $1 }'
}

#   solve_presets CUBEDB METRIC DATA PRESETS SCRAMBLES OUT
#
# cubedb's side of a comparison: for each preset of PRESETS, one after the other, warms
# its tables (warm_preset) and solves every scramble of the file SCRAMBLES in a process of
# its own (cubedb_solve), writing "N LENGTH NODES SECONDS PROCESS" lines (N from 1) to
# OUT-PRESET.txt; stderr of the last solve goes to OUT.err.
solve_presets() {
    local cubedb=$1 metric=$2 data=$3 presets=$4 scrambles=$5 out=$6
    local preset n scramble row
    for preset in $presets; do
        warm_preset "$cubedb" "$metric" "$preset" "$data"
        : > "$out-$preset.txt"
        n=0
        while read -r scramble; do
            n=$((n + 1))
            row=$(cubedb_solve "$cubedb" "$metric" "$preset" "$scramble" "$out.err") || exit 1
            echo "$n $row" >> "$out-$preset.txt"
        done < "$scrambles"
    done
}

# The median of the numbers on standard input, one a line.
median() {
    sort -g | awk '{ v[NR] = $1 } END { printf "%.15g\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}
