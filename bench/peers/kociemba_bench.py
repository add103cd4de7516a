"""Times the `kociemba` package (PyPI) on facelet strings, one thread, one cube at a time.

Usage: python kociemba_bench.py FILE MAXLEN [MAXLEN...]
Prints one line per cap: median, mean, p90, p99, max and mean length. A solution that is
longer than the cap stops the run (the package raises ValueError when it finds none).
"""

import statistics
import sys
import time

import kociemba


def human(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.2f} us"


def main():
    cubes = [line.strip() for line in open(sys.argv[1]) if line.strip()]
    print(f"kociemba (PyPI): {len(cubes)} cubes, one thread")
    print(f"{'metric':<7} {'cap':>4} {'median':>10} {'mean':>10} {'p90':>10} {'p99':>10} {'max':>10} {'length':>8}")
    for cap in map(int, sys.argv[2:]):
        kociemba.solve(cubes[0], max_depth=cap)  # loads its tables
        times, total = [], 0
        for i, cube in enumerate(cubes):
            started = time.perf_counter()
            solution = kociemba.solve(cube, max_depth=cap)
            times.append(time.perf_counter() - started)
            length = len(solution.split())
            if length > cap:
                raise SystemExit(f"cube {i + 1}: {length} moves > {cap}")
            total += length
        times.sort()
        q = lambda p: times[round((len(times) - 1) * p)]
        print(f"{'htm':<7} {cap:>4} {human(q(0.5)):>10} {human(statistics.mean(times)):>10} "
              f"{human(q(0.9)):>10} {human(q(0.99)):>10} {human(times[-1]):>10} {total / len(cubes):>8.2f}")


if __name__ == "__main__":
    main()
