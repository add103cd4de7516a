"""cubedb.dask on a real dask.distributed LocalCluster with 2 worker processes: answers
identical to solve_many and in order, a bad cube reported by its index without losing the
others, and the tables mapped once for both workers (shared pages).

Skipped without dask unless CUBEDB_REQUIRE_DASK is set (as `.ci/run` does).
"""

import os

import pytest

import cubedb

try:
    from dask.distributed import Client, LocalCluster

    import cubedb.dask as cubedb_dask
except ImportError as missing:  # pragma: no cover - depends on the environment
    if os.environ.get("CUBEDB_REQUIRE_DASK"):
        raise
    pytest.skip(f"dask.distributed is not installed: {missing}", allow_module_level=True)


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=40,
    )
    client = Client(cluster)
    yield client
    client.close()
    cluster.close()


def worker_memory():
    """This process's resident memory, and the part shared with other processes (kB)."""
    fields = {}
    with open("/proc/self/smaps_rollup") as rollup:
        for line in rollup:
            parts = line.split()
            if len(parts) >= 2 and parts[1].isdigit():
                fields[parts[0].rstrip(":")] = int(parts[1])
    return {"rss": fields.get("Rss", 0), "shared": fields.get("Shared_Clean", 0)}


def test_answers_equal_solve_many_in_order(client):
    cubes = [cubedb.Cube.random(seed=90_000 + i) for i in range(3000)]
    expected = cubedb.solve_many(cubes, max_length=21)
    answers = cubedb_dask.solve(cubes, max_length=21, partition_size=500, client=client)
    assert answers == expected
    # Cube objects and facelet strings mix freely.
    mixed = [cubedb.Cube.from_moves("R U R' U'"), cubes[0].facelets, cubes[1]]
    assert cubedb_dask.solve(mixed, max_length=21, client=client) == cubedb.solve_many(mixed, max_length=21)
    # The lazy form: (index, "ok", moves) triples.
    triples = cubedb_dask.solve_bag(cubes[:700], max_length=21, partition_size=200).compute()
    assert sorted(triples) == [(i, "ok", expected[i]) for i in range(700)]


def test_a_bad_cube_is_reported_by_index_and_the_rest_kept(client):
    cubes = [cubedb.Cube.random(seed=7_000 + i).facelets for i in range(1200)]
    cubes[737] = "UUU"
    cubes[1100] = cubedb.Cube.from_moves("R U F D").facelets
    cubes[5] = cubes[5][:20] + "\n" + cubes[5][20:]  # a line break must not shift the rest
    with pytest.raises(cubedb.CubeError, match="cube 6"):
        cubedb_dask.solve(cubes, max_length=21, partition_size=300, client=client)
    results = cubedb_dask.solve(cubes, max_length=3, errors="return", partition_size=300, client=client)
    assert isinstance(results[737], cubedb.CubeError) and "cube 738" in str(results[737])
    assert isinstance(results[1100], cubedb.NoSolutionError), results[1100]
    results = cubedb_dask.solve(cubes, max_length=21, errors="return", partition_size=300, client=client)
    assert len(results) == len(cubes)
    assert isinstance(results[737], cubedb.CubeError)
    assert isinstance(results[5], cubedb.CubeError) and "cube 6" in str(results[5])
    for i, answer in enumerate(results):
        if i not in (5, 737):
            assert cubedb.Cube(cubes[i]).apply(answer).is_solved()


def test_workers_share_one_copy_of_the_tables(client):
    # Both workers have solved cubes (the tests above); their table pages are shared.
    cubedb_dask.solve([cubedb.Cube.random(seed=i) for i in range(400)], max_length=21, partition_size=100, client=client)
    memory = client.run(worker_memory)
    assert len(memory) == 2
    for worker, use in memory.items():
        # The two-phase tables are about 100 MB; most of them must be shared pages.
        assert use["shared"] > 50_000, (worker, use)
