# Sourced by h48.sh and nxopt.sh: the positions both sides of a comparison get, as
# scrambles, since the peers read moves rather than facelets.
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
