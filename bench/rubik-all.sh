#!/usr/bin/env bash
# `rubik solve --all` against one optimal solve, on random face-turn scrambles of 14, 15
# and 16 moves, with the large preset (built on first use: about 3.5 minutes and 1.7 GB
# for face turns). Prints, per scramble, the solve time of each (from the stderr summary;
# table loading excluded), the number of optimal solutions, and the ratio.
#
#   CUBEDB=target/release/cubedb CUBEDB_DATA=DIR bench/rubik-all.sh [SEED] [PER_LENGTH]
set -euo pipefail
cubedb=${CUBEDB:-target/release/cubedb}
seed=${1:-7}
per_length=${2:-3}
python3 - "$seed" "$per_length" <<'PY' > /tmp/rubik-all-scrambles.txt
import random, sys
rng = random.Random(int(sys.argv[1]))
faces, opposite = "URFDLB", {"U": "D", "D": "U", "R": "L", "L": "R", "F": "B", "B": "F"}
for length in (14, 15, 16):
    for _ in range(int(sys.argv[2])):
        moves, last = [], None
        while len(moves) < length:
            f = rng.choice(faces)
            if f == last or (last and opposite[f] == last and f < last):
                continue
            moves.append(f + rng.choice(["", "2", "'"]))
            last = f
        print(" ".join(moves))
PY
printf "%-52s %6s %10s %10s %8s %7s\n" scramble length one_s all_s count ratio
while read -r scramble; do
  one=$("$cubedb" rubik solve --tables large --metric htm --scramble "$scramble" 2>&1 >/dev/null | grep -o '[0-9.]* s,' | tr -d ' s,')
  summary=$("$cubedb" rubik solve --tables large --metric htm --all --scramble "$scramble" 2>&1 >/dev/null | tail -1)
  all=$(echo "$summary" | grep -o '[0-9.]* s)' | tr -d ' s)')
  count=$(echo "$summary" | grep -o '[0-9]* solution' | grep -o '[0-9]*')
  length=$(echo "$summary" | grep -o 'optimal [0-9]*' | grep -o '[0-9]*')
  ratio=$(python3 -c "print(f'{$all / max($one, 1e-6):.2f}')")
  printf "%-52s %6s %10s %10s %8s %7s\n" "$scramble" "$length" "$one" "$all" "$count" "$ratio"
done < /tmp/rubik-all-scrambles.txt
