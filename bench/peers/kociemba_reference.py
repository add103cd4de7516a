"""The `kociemba` drop-in against the package it replaces, on the package's own reference
list, with default arguments, one thread, in one run.

Usage: python kociemba_reference.py LIST [COUNT]
LIST is the reference file of the package's test suite (muodov/kociemba, `test/`):
facelet strings on the odd lines, the Java implementation's answers on the even ones.
The script fetches nothing: get the list from the package's public source yourself.
COUNT (default 2000) cubes from the top. Needs `pip install kociemba` and cubedb in the
same Python. Prints, for both: median and mean time per cube, mean and largest length,
the length histogram, and the ratios; every answer of both is checked by applying it.
"""

import collections
import statistics
import sys
import time

import cubedb
import kociemba as package
from cubedb import kociemba as dropin


def run(name, solve, cubes):
    solve(cubes[0])  # tables opened (or built) before timing
    while cubedb._cubedb._twophase_tables() == "building":
        time.sleep(0.1)  # cubedb's full tables, built in the background on first use
    times, lengths = [], []
    for facelets in cubes:
        started = time.perf_counter()
        solution = solve(facelets)
        times.append(time.perf_counter() - started)
        if not cubedb.Cube(facelets).apply(solution).is_solved():
            raise SystemExit(f"{name}: a wrong answer for {facelets}: {solution}")
        lengths.append(len(solution.split()))
    histogram = sorted(collections.Counter(lengths).items())
    print(
        f"{name:<20} median {statistics.median(times) * 1e3:7.3f} ms  "
        f"mean {statistics.mean(times) * 1e3:7.3f} ms  "
        f"length mean {statistics.mean(lengths):.3f} max {max(lengths)}  {histogram}"
    )
    return statistics.median(times), statistics.mean(times)


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    lines = [line.strip() for line in open(sys.argv[1])]
    cubes = [line for line in lines[0::2] if line][:count]
    print(f"{len(cubes)} reference cubes, default arguments, one thread")
    theirs = run("kociemba (package)", package.solve, cubes)
    ours = run("cubedb.kociemba", dropin.solve, cubes)
    print(
        f"cubedb is {theirs[0] / ours[0]:.1f}x faster at the median, "
        f"{theirs[1] / ours[1]:.1f}x on the mean"
    )


if __name__ == "__main__":
    main()
