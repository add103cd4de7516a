"""Drop-in replacement for the ``kociemba`` package: change ``import kociemba`` to
``from cubedb import kociemba`` and keep calling ``kociemba.solve``.

Same signature and contract: a solution of at most ``max_depth`` face turns as a string of
Singmaster moves, or ``ValueError`` for a cube that is not valid. Unlike the original, a
solved cube gives an empty string, and a cube a few moves from solved gives its shortest
solution.
"""

from typing import Optional

from ._cubedb import _kociemba_solve

__all__ = ["solve"]


def solve(cubestring: str, patternstring: Optional[str] = None, max_depth: int = 24) -> str:
    """Moves (face turns) that take ``cubestring`` to ``patternstring`` (default: solved).

    Both are 54-letter facelet strings in URFDLB order, written in the face letters
    U R F D L B with every centre in place (as the package requires). The answer has at
    most ``max_depth`` moves (never more than 22 when ``max_depth`` allows) and is as short as
    a fixed small search effort finds: shorter on average than the package's answers on its
    own reference cubes, in a fraction of a millisecond, and the same answer every time. Raises
    ``ValueError`` (a ``cubedb.CubeError``) if either string is not a valid cube,
    ``cubedb.NoSolutionError`` (also a ``ValueError``) if no solution of at most
    ``max_depth`` moves exists, and ``TypeError`` for arguments of the wrong type.
    """
    return _kociemba_solve(cubestring, patternstring, max_depth)
