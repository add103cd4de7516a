"""Drop-in replacement for the ``kociemba`` package: change ``import kociemba`` to
``from cubedb import kociemba`` and keep calling ``kociemba.solve``.

Same signature and contract: a solution of at most ``max_depth`` face turns as a string of
Singmaster moves, or ``ValueError`` for a cube that is not valid. Unlike the original, a
solved cube gives an empty string, and a cube a few moves from solved gives its shortest
solution.
"""

from typing import Optional

from ._cubedb import Cube, solve as _solve

__all__ = ["solve"]


def solve(cubestring: str, patternstring: Optional[str] = None, max_depth: int = 24) -> str:
    """Moves (face turns) that take ``cubestring`` to ``patternstring`` (default: solved).

    Both are 54-letter facelet strings in URFDLB order. Raises ``ValueError`` (a
    ``cubedb.CubeError``) if either is not a valid cube, and ``cubedb.NoSolutionError`` (also
    a ``ValueError``) if no solution of at most ``max_depth`` moves exists.
    """
    cube = Cube(cubestring)
    if patternstring is not None:
        # Moves s with cube.then(s) == pattern solve pattern^-1 . cube.
        cube = Cube(patternstring).inverse().then(cube)
    return _solve(cube, max_length=max_depth)
