"""Solving large collections of cubes on a Dask cluster (``dask.distributed``).

Each partition of cubes is solved by ``cubedb.solve_many`` inside a worker process; the
tables come from the worker's data folder (``$CUBEDB_DATA`` or its cache folder) and are
memory-mapped, shared by every worker process on a host (this module sets
``CUBEDB_SHARE_TABLES=1`` in the workers). Build them once per host beforehand
(``cubedb-gen rubik-twophase``, or put them on a shared filesystem), or the first task on
each host builds them.

    >>> from dask.distributed import Client
    >>> import cubedb.dask
    >>> client = Client("scheduler-address:8786")          # or LocalCluster()
    >>> answers = cubedb.dask.solve(cubes, max_length=21)   # a list, in order

Answers are strings (Singmaster moves) in input order. A cube that fails (not a valid
cube, no solution within ``max_length``, out of time) raises, naming its index in the
whole collection, or with ``errors="return"`` gives its exception in its place; the other
answers are kept either way. ``solve_bag`` is the lazy form, for pipelines that stay in
Dask.
"""

import os
import re
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

import dask.bag as db

import cubedb
from ._cubedb import CubeError, NoSolutionError, TableError

__all__ = ["solve", "solve_bag"]

#: Cubes per partition unless told otherwise: large enough that scheduling costs nothing
#: next to solving (about 0.1 s of work at max_length 21), small enough to balance.
PARTITION_SIZE = 2_000

_KINDS = {
    "CubeError": CubeError,
    "NoSolutionError": NoSolutionError,
    "TimeoutError": TimeoutError,
    "TableError": TableError,
    "TypeError": TypeError,
}

# solve_many names a failing cube by its place in the partition: "cube 3: ...".
_LOCAL_PREFIX = re.compile(r"^cube \d+: ")


def _prepare_worker() -> None:
    """Share the tables between worker processes, and give the library as many threads
    as the worker runs tasks at once (the worker's processes share the cores)."""
    os.environ.setdefault("CUBEDB_SHARE_TABLES", "1")
    if "RAYON_NUM_THREADS" not in os.environ:
        try:
            from distributed import get_worker

            os.environ["RAYON_NUM_THREADS"] = str(max(1, get_worker().state.nthreads))
        except (ImportError, ValueError, AttributeError):
            pass


def _solve_chunk(
    start: int, cubes: List[str], max_length, metric, timeout
) -> List[Union[str, Tuple[str, str]]]:
    """Solves cubes ``start``, ``start + 1``, ...: each a solution, or ``(kind, message)``
    with the message naming the cube's index in the whole collection."""
    _prepare_worker()
    results = cubedb.solve_many(
        cubes, max_length=max_length, metric=metric, timeout=timeout, errors="return"
    )
    out: List[Union[str, Tuple[str, str]]] = []
    for offset, result in enumerate(results):
        if isinstance(result, str):
            out.append(result)
        else:
            message = _LOCAL_PREFIX.sub("", str(result))
            out.append((type(result).__name__, f"cube {start + offset + 1}: {message}"))
    return out


def _solve_partition(
    items: Iterable[Tuple[int, str]], max_length, metric, timeout
) -> List[Tuple[int, str, str]]:
    """Solves one partition of ``(index, cube)`` pairs: ``(index, "ok", moves)`` or
    ``(index, kind, message)``."""
    items = list(items)
    out = []
    results = _solve_chunk(0, [cube for _, cube in items], max_length, metric, timeout)
    for (index, _), result in zip(items, results):
        if isinstance(result, str):
            out.append((index, "ok", result))
        else:
            kind, message = result
            message = _LOCAL_PREFIX.sub("", message)
            out.append((index, kind, f"cube {index + 1}: {message}"))
    return out


def _as_text(cube: Any) -> str:
    """Cubes travel as facelet strings."""
    if isinstance(cube, cubedb.Cube):
        return cube.facelets
    if isinstance(cube, str):
        return cube
    raise TypeError(f"a cube must be a str or a cubedb.Cube, not {type(cube).__name__}")


def solve_bag(
    cubes: Union[db.Bag, Sequence[Any]],
    *,
    max_length: Optional[int] = None,
    metric: str = "htm",
    timeout: Optional[float] = None,
    partition_size: int = PARTITION_SIZE,
) -> db.Bag:
    """A lazy bag of ``(index, kind, text)`` triples, one per cube, in input order:
    ``kind`` is ``"ok"`` and ``text`` the solution, or ``kind`` names the exception and
    ``text`` its message (naming the cube's index). ``cubes`` is a sequence, or a bag of
    ``(index, cube)`` pairs."""
    if isinstance(cubes, db.Bag):
        bag = cubes
    else:
        pairs = [(i, _as_text(c)) for i, c in enumerate(cubes)]
        bag = db.from_sequence(pairs, partition_size=max(1, partition_size))
    return bag.map_partitions(
        _solve_partition, max_length=max_length, metric=metric, timeout=timeout
    )


def solve(
    cubes: Sequence[Any],
    *,
    max_length: Optional[int] = None,
    metric: str = "htm",
    timeout: Optional[float] = None,
    errors: str = "raise",
    partition_size: int = PARTITION_SIZE,
    client: Any = None,
) -> List[Union[str, Exception]]:
    """``cubedb.solve_many`` across a Dask cluster: the answers in input order.

    Uses ``client`` (a ``dask.distributed.Client``), else the current one, else Dask's
    local scheduler. The cubes go out in chunks of ``partition_size``, one task each. A
    failing cube raises its exception naming its index (``errors="raise"``, after every
    chunk has finished), or with ``errors="return"`` stands in its place.
    """
    if errors not in ("raise", "return"):
        raise CubeError(f'errors must be "raise" or "return", not {errors!r}')
    texts = [_as_text(c) for c in cubes]
    size = max(1, partition_size)
    starts = list(range(0, len(texts), size))
    if client is None:
        try:
            from distributed import get_client

            client = get_client()
        except (ImportError, ValueError):
            client = None
    if client is not None:
        futures = client.map(
            _solve_chunk,
            starts,
            [texts[s : s + size] for s in starts],
            max_length=max_length,
            metric=metric,
            timeout=timeout,
            pure=False,
        )
        chunks = client.gather(futures)
    else:
        import dask

        chunks = dask.compute(
            *[
                dask.delayed(_solve_chunk)(s, texts[s : s + size], max_length, metric, timeout)
                for s in starts
            ]
        )
    out: List[Union[str, Exception]] = []
    for chunk in chunks:
        for result in chunk:
            if isinstance(result, str):
                out.append(result)
                continue
            kind, message = result
            error = _KINDS.get(kind, RuntimeError)(message)
            if errors == "raise":
                raise error
            out.append(error)
    return out
