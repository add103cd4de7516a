"""cubedb.solve next to the `kociemba` package on the same random cubes, one thread.

Usage: python bench_vs_kociemba.py [COUNT] [SEED] [MAX_LENGTH...]
(defaults: 1000 cubes, seed 2026, lengths 21). Needs `pip install kociemba` in the same
Python; it is a benchmark, never a test. Prints time per cube (median, mean, max) for both
and the ratios, after checking every solution of both by applying it.
"""

import statistics
import sys
import time

import cubedb
import kociemba


def timed(solve, cubes):
    times, solutions = [], []
    for cube in cubes:
        started = time.perf_counter()
        solutions.append(solve(cube))
        times.append(time.perf_counter() - started)
    return times, solutions


def summary(times):
    return statistics.median(times), statistics.mean(times), max(times)


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 2026
    lengths = [int(a) for a in sys.argv[3:]] or [21]
    cubes = [cubedb.Cube.random(seed=seed * 1_000_003 + i) for i in range(count)]
    facelets = [c.facelets for c in cubes]
    # Load both solvers' tables before timing.
    cubedb.solve(cubes[0], max_length=21)
    kociemba.solve(facelets[0])
    print(f"{count} random cubes (seed {seed}), one thread, times per cube")
    print(f"{'max':>4} {'solver':<9} {'median':>10} {'mean':>10} {'max':>10} {'length':>7}")
    for n in lengths:
        ours, our_solutions = timed(lambda c: cubedb.solve(c, max_length=n), cubes)
        theirs, their_solutions = timed(lambda f: kociemba.solve(f, max_depth=n), facelets)
        for cube, a, b in zip(cubes, our_solutions, their_solutions):
            assert cube.apply(a).is_solved() and len(a.split()) <= n, a
            assert cube.apply(b).is_solved() and len(b.split()) <= n, b
        for name, times, solutions in [("cubedb", ours, our_solutions), ("kociemba", theirs, their_solutions)]:
            median, mean, worst = summary(times)
            length = statistics.mean(len(s.split()) for s in solutions)
            print(f"{n:>4} {name:<9} {median * 1e3:>8.3f}ms {mean * 1e3:>8.3f}ms {worst * 1e3:>8.1f}ms {length:>7.2f}")
        (m1, a1, _), (m2, a2, _) = summary(ours), summary(theirs)
        print(f"{n:>4} ratio     {m2 / m1:>9.0f}x {a2 / a1:>9.0f}x   (kociemba time / cubedb time)")


if __name__ == "__main__":
    main()
