"""Solving large collections of cubes on a Dask cluster (``dask.distributed``).

Each partition of cubes is solved by ``cubedb.solve_many`` inside a worker process; the
tables come from the worker's data folder (``$CUBEDB_DATA`` or its cache folder) and are
memory-mapped, shared by every worker process on a host. Build them once per host beforehand
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
from ._cubedb import CubeError, NoSolutionError, TableError, _whole

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
    """Give the library as many threads as the worker runs tasks at once (the worker's
    processes share the cores)."""
    if "RAYON_NUM_THREADS" not in os.environ:
        try:
            from distributed import get_worker

            os.environ["RAYON_NUM_THREADS"] = str(max(1, get_worker().state.nthreads))
        except (ImportError, ValueError, AttributeError):
            pass


def _solve_chunk(
    start: int, cubes: str, max_length, metric, timeout
) -> Tuple[str, List[Tuple[int, str, str]]]:
    """Solves the cubes of ``cubes`` (facelet strings, one per line), numbered from
    ``start``: the solutions, one per line (empty for a failure), and the failures as
    ``(offset, kind, message)`` with the message naming the cube's index in the whole
    collection. One string each way: Dask moves one string far faster than a list of
    thousands."""
    _prepare_worker()
    results = cubedb.solve_many(
        cubes.split("\n") if cubes else [],  # one cube per line (see _as_text)
        max_length=max_length,
        metric=metric,
        timeout=timeout,
        errors="return",
    )
    lines: List[str] = []
    failures: List[Tuple[int, str, str]] = []
    for offset, result in enumerate(results):
        if isinstance(result, str):
            lines.append(result)
        else:
            lines.append("")
            message = _LOCAL_PREFIX.sub("", str(result))
            failures.append(
                (offset, type(result).__name__, f"cube {start + offset + 1}: {message}")
            )
    return "\n".join(lines), failures


def _solve_partition(
    items: Iterable[Tuple[int, str]], max_length, metric, timeout
) -> List[Tuple[int, str, str]]:
    """Solves one partition of ``(index, cube)`` pairs: ``(index, "ok", moves)`` or
    ``(index, kind, message)``."""
    items = list(items)
    text, failures = _solve_chunk(
        0, "\n".join(cube for _, cube in items), max_length, metric, timeout
    )
    out = [(index, "ok", line) for (index, _), line in zip(items, text.split("\n"))]
    for offset, kind, message in failures:
        index = items[offset][0]
        message = _LOCAL_PREFIX.sub("", message)
        out[offset] = (index, kind, f"cube {index + 1}: {message}")
    return out


#: Cubes per partition at most (``partition_size``): as many as one call makes.
_MAX_PARTITION = 10_000_000


def _as_text(index: int, cube: Any) -> str:
    """Cubes travel as facelet strings; a bad one is named as ``solve_many`` names it."""
    if isinstance(cube, cubedb.Cube):
        return cube.facelets
    if isinstance(cube, str):
        # Chunks travel one cube per line: a line break inside a cube (never valid)
        # must not shift the others.
        return cube.replace("\n", " ").replace("\r", " ")
    raise TypeError(
        f"cube {index + 1}: a cube must be a str or a cubedb.Cube, not {type(cube).__name__}"
    )


def _texts(cubes: Any) -> List[str]:
    if isinstance(cubes, str):
        raise TypeError("cubes must be a list of cubes (facelet strings or Cubes), not a str")
    return [_as_text(i, c) for i, c in enumerate(cubes)]


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
    size = _whole("partition_size", partition_size, 1, _MAX_PARTITION)
    if isinstance(cubes, db.Bag):
        bag = cubes
    else:
        pairs = list(enumerate(_texts(cubes)))
        bag = db.from_sequence(pairs, partition_size=size)
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
        # The library's words for it (solve_many checks the same argument).
        cubedb.solve_many([], errors=errors)
    size = _whole("partition_size", partition_size, 1, _MAX_PARTITION)
    texts = _texts(cubes)
    starts = list(range(0, len(texts), size))
    if client is None:
        try:
            from distributed import get_client

            client = get_client()
        except (ImportError, ValueError):
            client = None
    parts = ["\n".join(texts[s : s + size]) for s in starts]
    if client is not None:
        futures = client.map(
            _solve_chunk,
            starts,
            parts,
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
                dask.delayed(_solve_chunk)(s, part, max_length, metric, timeout)
                for s, part in zip(starts, parts)
            ]
        )
    out: List[Union[str, Exception]] = []
    for start, (text, failures) in zip(starts, chunks):
        answers: List[Union[str, Exception]] = list(text.split("\n"))
        for offset, kind, message in failures:
            error = _KINDS.get(kind, RuntimeError)(message)
            if errors == "raise":
                raise error
            answers[offset] = error
        out.extend(answers[: min(size, len(texts) - start)])
    return out
