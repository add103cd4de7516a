"""cubedb: cube puzzles solved exactly and fast, from precomputed tables.

Rubik's cube::

    >>> import cubedb
    >>> cubedb.solve(cubedb.Cube.from_moves("R U R' U'"), max_length=21)
    "U R U' R'"

- ``solve(cube, *, max_length=None, metric="htm", timeout=None)``: optimal without
  ``max_length``; with it, the first solution found of at most that many moves (Kociemba's
  two-phase method, well under a millisecond per random cube at 21).
- ``solve_many(cubes, ..., errors="raise")``: the same for many cubes, on every core;
  ``errors="return"`` gives a failing cube's exception in its place instead of raising.
- ``scramble(*, count=None, seed=None)``: random-state scrambles (at most 21 face turns).
- ``scramble_event(event, *, count=None, seed=None, random_state=False)``: scrambles for
  a WCA event (``"222"``, ``"444"``, ``"sq1"``, ``"minx"``, ``"clock"``, ...) in its notation,
  as ``cubedb scramble EVENT`` prints them; ``scramble_picture(event, scramble)`` its SVG.
- ``Cube``: a position (from facelets, from moves; ``apply``, ``then``, ``inverse``, ...).
- ``cubedb.kociemba.solve``: a drop-in for the ``kociemba`` package's ``solve``.
- ``rolling``, ``rotation``, ``soma``, ``walk``: the other puzzles cubedb knows.
- ``Puzzle.from_file("puzzles/2x2x2-fixed.tws")``: any permutation puzzle from a twsearch
  ``.tws`` definition, with ``solve``, ``solve_many``, ``gods`` and ``scramble``; a phase
  plan beside it (``puzzles/4x4x4.plan``) or named (``plan=``) solves it from any state;
  ``engine="chain"`` answers any definition from any state (long solutions).

Cubes are 54-letter facelet strings in URFDLB order (U1..U9, R1..R9, F, D, L, B; any six
colours, each face's centre naming its colour) or ``Cube`` objects; moves are Singmaster
notation (``R``, ``U'``, ``F2``). Tables are looked for in ``$CUBEDB_DATA``, else in the
user's cache folder (``data_directory()``), and built there on first use. The two-phase
tables (100 MB, 6-15 s once) are built in the background: until they are ready, answers
come at once from small tables built in memory (a few milliseconds per cube), and one
line on stderr says so. Long solves stop on Ctrl-C (``KeyboardInterrupt``). Bad input
raises ``CubeError`` (a ``ValueError``) naming the problem and, for numbers, the range
allowed; a damaged table raises ``TableError`` naming the file.
"""

from ._cubedb import (
    Cube,
    CubeError,
    NoSolutionError,
    Puzzle,
    TableError,
    data_directory,
    rolling,
    rotation,
    scramble,
    scramble_event,
    scramble_picture,
    soma,
    solve,
    solve_many,
    walk,
)
from . import kociemba

__all__ = [
    "Cube",
    "CubeError",
    "NoSolutionError",
    "Puzzle",
    "TableError",
    "data_directory",
    "kociemba",
    "rolling",
    "rotation",
    "scramble",
    "scramble_event",
    "scramble_picture",
    "soma",
    "solve",
    "solve_many",
    "walk",
]
