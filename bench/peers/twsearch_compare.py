#!/usr/bin/env python3
"""cubedb puzzle vs twsearch (C++), side by side on twsearch's own sample definitions.

Usage:
  bench/peers/twsearch_compare.py [gods] [solve] [big]

Needs TWSEARCH (the built binary, default /tmp/peers/twsearch-src/build/bin/twsearch) and
TWSEARCH_SAMPLES (default: samples/main next to it); CUBEDB (default target/release/cubedb).
Fetches nothing. Build twsearch from its public source (rokicki/twsearch, `make`), outside
this repository. Run alone: the machine's cores are the resource measured.

- gods: God's algorithm from nothing (cubedb builds its exact table, twsearch -g), wall time
  and peak memory, and the distributions compared line by line;
- solve: 100 random states (cubedb puzzle scramble) of 2x2x2, skewb, pyraminx and dino,
  tables already built for both; each one process per state, and one process for all
  (twsearch reading a scramble file, cubedb a batch on stdin); optimal lengths compared;
- big: 3x3x3 scrambles of 14 random moves and megaminx scrambles of 9, one process each;
- twips: God's algorithm of the fixed-corner 2x2x2 (twips, the Rust peer: TWIPS, default
  /tmp/twips-root/bin/twips from `cargo install --locked --no-default-features twips-cli
  --root /tmp/twips-root`; it reads KPuzzle JSON, converted by tws_to_kpuzzle.py).
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TW = os.environ.get("TWSEARCH", "/tmp/peers/twsearch-src/build/bin/twsearch")
SAMPLES = os.environ.get(
    "TWSEARCH_SAMPLES", os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(TW))), "samples", "main")
)
CUBEDB = os.environ.get("CUBEDB", os.path.join(ROOT, "target", "release", "cubedb"))
DATA = os.environ.get("CUBEDB_BENCH_DATA", os.path.join(tempfile.gettempdir(), "cubedb-perm-bench"))
CACHE = os.environ.get("TWSEARCH_CACHE", os.path.join(tempfile.gettempdir(), "twsearch-bench-cache"))


def timed(cmd, stdin=None):
    """Runs cmd under /usr/bin/time; returns (stdout, seconds, peak MB)."""
    start = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, input=stdin, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    peak_kb = int(p.stderr.strip().splitlines()[-1])
    return p.stdout, seconds, peak_kb / 1024


def tw_solution_length(out):
    """Moves of twsearch's first solution line (lines of moves start with a space)."""
    for line in out.splitlines():
        if line.startswith(" ") or line == "":
            if line.strip() and not line.strip().startswith(("Found", "Twsearch")):
                return len(line.split())
    if "Found" in out:
        return 0
    sys.exit("no solution in twsearch output:\n" + out[-1000:])


def gods():
    print("## God's algorithm (from nothing)")
    print("puzzle | states | twsearch -g s | MB | cubedb gods s | MB | ratio")
    for name in ["2x2x2", "skewb", "pyraminx", "dino"]:
        tws = os.path.join(SAMPLES, f"{name}.tws")
        out, tw_s, tw_mb = timed([TW, "--cachedir", CACHE, "-g", tws])
        tw_counts = [int(m.group(2)) for m in re.finditer(r"Dist (\d+) cnt (\d+)", out)]
        while tw_counts and tw_counts[-1] == 0:
            tw_counts.pop()
        with tempfile.TemporaryDirectory() as fresh:
            out, c_s, c_mb = timed([CUBEDB, "puzzle", "gods", tws, "--data", fresh, "-q"])
        lines = out.splitlines()
        counts = [int(l.split()[1]) for l in lines[:-1]]
        same = "same" if counts == tw_counts else f"DIFFER {counts} vs {tw_counts}"
        print(f"{name} | {sum(counts):,} ({same}) | {tw_s:.2f} | {tw_mb:.0f} | {c_s:.2f} | {c_mb:.0f} | {tw_s / c_s:.1f}x")


def tw_batch_lengths(out):
    """Solution lengths of a twsearch run over a scramble file, in order."""
    lengths, waiting = [], False
    for line in out.splitlines():
        if line.startswith("Solving"):
            waiting = True
        elif waiting and line.startswith(" ") and line.strip():
            lengths.append(len(line.split()))
            waiting = False
        elif waiting and line.startswith("Found"):
            lengths.append(0)
            waiting = False
    return lengths


def solve(count=100):
    print(f"## {count} random states per puzzle (tables built for both)")
    print("puzzle | twsearch total s (1 process/state) | cubedb total s (1 process/state) | cubedb batch s | ratio (process) | ratio (batch) | lengths")
    batches = []
    for name in ["2x2x2", "skewb", "pyraminx", "dino"]:
        tws = os.path.join(SAMPLES, f"{name}.tws")
        scrambles, _, _ = timed([CUBEDB, "puzzle", "scramble", tws, "--data", DATA, "-q", "--count", str(count), "--seed", "2026"])
        scrambles = scrambles.splitlines()
        # Warm-up: both build and store their tables.
        timed([TW, "--cachedir", CACHE, "--scramblealg", scrambles[0], tws])
        timed([CUBEDB, "puzzle", "solve", tws, "--data", DATA, "-q", "--scramble", scrambles[0]])
        tw_total, tw_lengths = 0.0, []
        for s in scrambles:
            out, sec, _ = timed([TW, "--cachedir", CACHE, "--scramblealg", s, tws])
            tw_total += sec
            tw_lengths.append(tw_solution_length(out))
        c_total, c_lengths = 0.0, []
        for s in scrambles:
            out, sec, _ = timed([CUBEDB, "puzzle", "solve", tws, "--data", DATA, "-q", "--scramble", s])
            c_total += sec
            c_lengths.append(len(out.split()))
        out, batch, _ = timed([CUBEDB, "puzzle", "solve", tws, "--data", DATA, "-q"], "\n".join(scrambles) + "\n")
        batch_lengths = [len(l.split()) for l in out.splitlines()]
        # twsearch in one process too: a scramble file of ScrambleAlg blocks.
        with tempfile.NamedTemporaryFile("w", suffix=".scr", delete=False) as f:
            f.write("".join(f"ScrambleAlg s{i}\n{x}\nEnd\n\n" for i, x in enumerate(scrambles)))
        out, tw_batch, _ = timed([TW, "--cachedir", CACHE, tws, f.name])
        os.unlink(f.name)
        same = "same" if tw_lengths == c_lengths == batch_lengths == tw_batch_lengths(out) else "DIFFER"
        print(f"{name} | {tw_total:.2f} | {c_total:.2f} | {batch:.3f} | {tw_total / c_total:.1f}x | {tw_total / batch:.0f}x | {same}")
        batches.append((name, tw_batch, batch))
    print("puzzle | twsearch one process for all s | cubedb one batch s | ratio")
    for name, tw_batch, batch in batches:
        print(f"{name} | {tw_batch:.3f} | {batch:.3f} | {tw_batch / batch:.0f}x")


def random_scramble(moves, faces, length, rng):
    seq, last = [], None
    while len(seq) < length:
        face = rng.choice(faces)
        if face == last:
            continue
        seq.append(face + rng.choice(moves))
        last = face
    return " ".join(seq)


def big(count=5):
    rng = random.Random(2026)
    print(f"## optimal solving of big puzzles, {count} scrambles each, one process per scramble")
    print("puzzle | scramble | twsearch s | MB | length | cubedb s | MB | length")
    cases = [
        ("3x3x3", ["", "2", "'"], list("URFDLB"), 14),
        ("megaminx", ["", "2", "2'", "'"], ["U", "D", "F", "BF", "L", "E", "BL", "C", "BR", "A", "R", "I"], 9),
    ]
    for name, powers, faces, length in cases:
        tws = os.path.join(SAMPLES, f"{name}.tws")
        scrambles = [random_scramble(powers, faces, length, rng) for _ in range(count)]
        timed([CUBEDB, "puzzle", "solve", tws, "--data", DATA, "-q", "--scramble", scrambles[0]])
        for s in scrambles:
            out, tw_s, tw_mb = timed([TW, "--cachedir", CACHE, "--scramblealg", s, tws])
            tw_len = tw_solution_length(out)
            out, c_s, c_mb = timed([CUBEDB, "puzzle", "solve", tws, "--data", DATA, "-q", "--scramble", s])
            print(f"{name} | {s} | {tw_s:.2f} | {tw_mb:.0f} | {tw_len} | {c_s:.2f} | {c_mb:.0f} | {len(out.split())}")


def twips(runs=3):
    binary = os.environ.get("TWIPS", "/tmp/twips-root/bin/twips")
    tws = os.path.join(SAMPLES, "2x2x2.tws")
    with tempfile.TemporaryDirectory() as work:
        kpuzzle = os.path.join(work, "2x2x2.json")
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "tws_to_kpuzzle.py"), tws, kpuzzle], check=True)
        print("## God's algorithm, 2x2x2 with a fixed corner (--moves U,F,R), median of runs")
        tw, cu = [], []
        for _ in range(runs):
            out, sec, mb = timed([binary, "gods-algorithm", "--generator-moves", "U,F,R", kpuzzle])
            assert "3_674_160" in out, out
            tw.append((sec, mb))
            with tempfile.TemporaryDirectory() as fresh:
                out, sec, mb = timed([CUBEDB, "puzzle", "gods", tws, "--moves", "U,F,R", "--data", fresh, "-q"])
            assert out.endswith("total 3674160\n"), out
            cu.append((sec, mb))
        tw.sort()
        cu.sort()
        t, c = tw[runs // 2], cu[runs // 2]
        print(f"twips {t[0]:.2f} s {t[1]:.0f} MB | cubedb {c[0]:.3f} s {c[1]:.0f} MB | {t[0] / c[0]:.0f}x")


if __name__ == "__main__":
    stages = sys.argv[1:] or ["gods", "solve", "big", "twips"]
    os.makedirs(DATA, exist_ok=True)
    os.makedirs(CACHE, exist_ok=True)
    for stage in stages:
        {"gods": gods, "solve": solve, "big": big, "twips": twips}[stage]()
