#!/usr/bin/env bash
# Optimal solving of uniformly random positions, per preset and metric, side by side on the
# same positions: time and nodes per cube (from `cubedb rubik solve`'s stderr summary, table
# loading excluded), ns per node, median and mean, the whole process's wall time, and the
# ratio of each preset's median to the first one's.
#
#   CUBEDB=target/release/cubedb CUBEDB_DATA=DIR \
#     bench/rubik-optimal.sh [COUNT] [SEED] [PRESETS] [METRICS]
#
# Defaults: 20 positions, seed 11 (the figures in the README and docs/rubik-optimal.md),
# presets "large huge", metrics "htm qtm". Presets are built on first use (large: about 3.5
# minutes and 1.7 GB per metric; huge: about 11 minutes and 4.9 GB per metric). Run it
# alone on the machine: it uses every core.
set -euo pipefail
cubedb=${CUBEDB:-target/release/cubedb}
count=${1:-20}
seed=${2:-11}
presets=${3:-large huge}
metrics=${4:-htm qtm}
out=${OUT:-$(mktemp -d)}
"$cubedb" rubik random --count "$count" --seed "$seed" > "$out/positions.txt"
for metric in $metrics; do
  for preset in $presets; do
    start=$(date +%s.%N)
    "$cubedb" rubik solve --metric "$metric" --tables "$preset" \
      < "$out/positions.txt" > "$out/$metric-$preset.out" 2> "$out/$metric-$preset.err"
    end=$(date +%s.%N)
    echo "$start $end" > "$out/$metric-$preset.wall"
  done
done
python3 - "$out" "$presets" "$metrics" <<'PY'
import re, statistics, sys
out, presets, metrics = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()
line = re.compile(r"cube (\d+): (\d+) \S+ turns \((\d+) nodes, ([0-9.]+) s")
for metric in metrics:
    runs = {}
    for preset in presets:
        rows = [line.search(l) for l in open(f"{out}/{metric}-{preset}.err")]
        rows = [(int(m[2]), int(m[3]), float(m[4])) for m in rows if m]
        start, end = map(float, open(f"{out}/{metric}-{preset}.wall").read().split())
        runs[preset] = (rows, end - start)
    lengths = {p: [r[0] for r in runs[p][0]] for p in presets}
    same = all(lengths[p] == lengths[presets[0]] for p in presets)
    print(f"\n{metric.upper()}: {len(runs[presets[0]][0])} random positions; optimal lengths "
          + ("identical across presets" if same else "DIFFER ACROSS PRESETS"))
    head = "cube len " + " ".join(f"{p + ' s':>10} {p + ' nodes':>15}" for p in presets)
    print(head)
    for i, row in enumerate(runs[presets[0]][0]):
        cells = " ".join(f"{runs[p][0][i][2]:>10.3f} {runs[p][0][i][1]:>15,}" for p in presets)
        print(f"{i + 1:>4} {row[0]:>3} {cells}")
    base = statistics.median(r[2] for r in runs[presets[0]][0])
    for p in presets:
        rows, wall = runs[p]
        secs = [r[2] for r in rows]
        nodes = [r[1] for r in rows]
        med = statistics.median(secs)
        ns = sum(secs) / max(sum(nodes), 1) * 1e9
        print(f"{p:>8}: median {med:.3f} s, mean {statistics.mean(secs):.3f} s, "
              f"median nodes {statistics.median(nodes):,.0f}, {ns:.0f} ns/node (both cores), "
              f"process {wall:.1f} s, median ratio to {presets[0]} {base / med:.2f}x")
    if not same:
        sys.exit(1)
PY
