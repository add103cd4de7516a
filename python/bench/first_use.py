"""A first use: the first COUNT calls in a fresh environment, cubedb against the `kociemba`
package, in one run on the same random states.

Usage: python first_use.py [COUNT] [SEED] [ROUNDS]   (defaults: 200 cubes, seed 56, 1 round)

Each side runs in a fresh Python process, one after the other (ROUNDS times, alternating):
- cubedb with CUBEDB_DATA a new empty folder, as on a machine where it was just installed:
  `import cubedb`, then `cubedb.solve(facelets, max_length=21)` for each cube at once (its
  two-phase tables do not exist yet; they are built in the background meanwhile);
- the same with the drop-in, `from cubedb import kociemba`, `kociemba.solve(facelets)`;
- the `kociemba` package (its tables ship with it): `import kociemba`, then
  `kociemba.solve(facelets)` for each cube.
Prints, per side, the time of the import and first call, and over all COUNT calls the
total and ms per cube (import included), the median and the slowest call; every solution
is checked by applying it. Needs `pip install kociemba` in the same Python; a benchmark,
never a test.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap

CHILD = textwrap.dedent(
    """
    import json, sys, time
    started = time.perf_counter()
    side, facelets = sys.argv[1], json.loads(sys.stdin.read())
    if side == "cubedb":
        import cubedb
        solve = lambda f: cubedb.solve(f, max_length=21)
    elif side == "drop-in":
        import cubedb
        from cubedb import kociemba
        solve = kociemba.solve
    else:
        import kociemba
        solve = kociemba.solve
    imported = time.perf_counter()
    calls, solutions = [], []
    for f in facelets:
        t = time.perf_counter()
        solutions.append(solve(f))
        calls.append(time.perf_counter() - t)
    total = time.perf_counter() - started
    tables = None
    if side != "kociemba":
        tables = cubedb._cubedb._twophase_tables()
    print(json.dumps({"import": imported - started, "calls": calls, "total": total,
                      "solutions": solutions, "tables": tables}))
    """
)


def run(side, facelets):
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="cubedb-first-use-") as data:
        env["CUBEDB_DATA"] = data
        out = subprocess.run(
            [sys.executable, "-c", CHILD, side],
            input=json.dumps(facelets),
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
    return json.loads(out.stdout)


def main():
    import cubedb

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 56
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    cubes = [cubedb.Cube.random(seed=seed * 1_000_003 + i) for i in range(count)]
    facelets = [c.facelets for c in cubes]
    print(f"first {count} calls in a fresh process (seed {seed}); cubedb with an empty CUBEDB_DATA")
    print(
        f"{'side':<9} {'import':>8} {'1st call':>9} {'total':>8} {'ms/cube':>8} "
        f"{'median':>8} {'slowest':>8} {'length':>7}  tables after"
    )
    per_cube = {"cubedb": [], "drop-in": [], "kociemba": []}
    for _ in range(rounds):
        for side in per_cube:
            result = run(side, facelets)
            for cube, solution in zip(cubes, result["solutions"]):
                assert cube.apply(solution).is_solved(), (side, solution)
                assert side != "cubedb" or len(solution.split()) <= 21, solution
            calls = result["calls"]
            ms = result["total"] / count * 1e3
            per_cube[side].append(ms)
            length = statistics.mean(len(s.split()) for s in result["solutions"])
            print(
                f"{side:<9} {result['import'] * 1e3:>6.0f}ms {calls[0] * 1e3:>7.1f}ms "
                f"{result['total']:>7.2f}s {ms:>8.2f} {statistics.median(calls) * 1e3:>6.2f}ms "
                f"{max(calls) * 1e3:>6.1f}ms {length:>7.2f}  {result['tables'] or '-'}"
            )
    theirs = statistics.median(per_cube["kociemba"])
    for side in ("cubedb", "drop-in"):
        ours = statistics.median(per_cube[side])
        print(f"ms per cube over the first {count} calls (median of {rounds} rounds): {side} "
              f"{ours:.2f}, kociemba {theirs:.2f} ({theirs / ours:.1f}x)")


if __name__ == "__main__":
    main()
