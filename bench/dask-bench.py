"""cubedb.dask on a 2-worker LocalCluster against cubedb.solve_many in one process, on the
same random cubes, and the memory the workers' tables take (shared between them).

Usage: python bench/dask-bench.py [COUNT] [RUNS] [MAX_LENGTH]
(defaults: 20000 cubes, 3 runs, 21). Needs `pip install ./python "dask[distributed]"`;
tables come from $CUBEDB_DATA (built first if missing). Prints the median cubes per second
of each, their ratio, and each worker's resident memory split into shared and private.
"""

import statistics
import sys
import time

from dask.distributed import Client, LocalCluster

import cubedb
import cubedb.dask


def memory():
    fields = {}
    with open("/proc/self/smaps_rollup") as rollup:
        for line in rollup:
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                fields[parts[0].rstrip(":")] = int(parts[1])
    private = fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0)
    return fields.get("Rss", 0) / 1024, fields.get("Shared_Clean", 0) / 1024, private / 1024


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    cap = int(sys.argv[3]) if len(sys.argv) > 3 else 21
    cubes = [cubedb.Cube.random(seed=2026 + i).facelets for i in range(count)]
    cubedb.solve_many(cubes[:100], max_length=cap)  # tables open before timing
    alone = []
    for _ in range(runs):
        started = time.perf_counter()
        cubedb.solve_many(cubes, max_length=cap)
        alone.append(count / (time.perf_counter() - started))

    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=40
    )
    client = Client(cluster)
    cubedb.dask.solve(cubes[:2000], max_length=cap, partition_size=500, client=client)

    local, distributed = [], []
    for run in range(runs):
        started = time.perf_counter()
        expected = cubedb.solve_many(cubes, max_length=cap)
        local.append(count / (time.perf_counter() - started))
        started = time.perf_counter()
        answers = cubedb.dask.solve(cubes, max_length=cap, client=client)
        distributed.append(count / (time.perf_counter() - started))
        if answers != expected:
            raise SystemExit("the cluster's answers differ from solve_many's")
        print(f"run {run + 1}: solve_many {local[-1]:,.0f} cubes/s, dask {distributed[-1]:,.0f} cubes/s")
    a, b = statistics.median(local), statistics.median(distributed)
    print(f"{count} cubes at max_length {cap}, median of {runs} runs:")
    print(f"  solve_many, one process, every core: {a:,.0f} cubes/s "
          f"({statistics.median(alone):,.0f} before the cluster started)")
    print(f"  cubedb.dask, 2 worker processes:     {b:,.0f} cubes/s ({b / a:.2f} of solve_many, "
          f"{b / statistics.median(alone):.2f} of it alone)")
    for worker, (rss, shared, private) in sorted(client.run(memory).items()):
        print(f"  worker {worker}: resident {rss:.0f} MB, shared {shared:.0f} MB, private {private:.0f} MB")
    rss, shared, private = memory()
    print(f"  this process (solve_many, private huge-page copies): resident {rss:.0f} MB, private {private:.0f} MB")
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
