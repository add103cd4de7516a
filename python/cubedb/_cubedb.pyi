"""Type stubs of the extension module (see ``cubedb/__init__.py`` for the overview)."""

from typing import Iterable, List, Literal, Optional, Sequence, Tuple, Union, overload

class CubeError(ValueError):
    """Input that is not a valid cube or puzzle case; the message names the rule it breaks."""

class NoSolutionError(ValueError):
    """No solution within the given ``max_length`` exists."""

class TableError(RuntimeError):
    """A table file is damaged, of another format, or unreadable (named in the message)."""

class Cube:
    """A Rubik's cube position (immutable, hashable)."""

    def __init__(self, facelets: Optional[str] = None) -> None:
        """From a 54-letter facelet string (URFDLB, any six colours); solved if omitted."""
    @staticmethod
    def from_facelets(facelets: str) -> "Cube": ...
    @staticmethod
    def from_moves(moves: str) -> "Cube":
        """The solved cube scrambled by ``moves`` (e.g. ``"R U R' U2"``)."""
    @staticmethod
    def random(*, seed: Optional[int] = None) -> "Cube":
        """A uniformly random position."""
    def apply(self, moves: str) -> "Cube":
        """This cube after ``moves``."""
    def then(self, other: "Cube") -> "Cube":
        """This cube's moves, then ``other``'s, from solved."""
    @property
    def facelets(self) -> str:
        """The facelet string, with face letters as colours."""
    def is_solved(self) -> bool: ...
    def inverse(self) -> "Cube":
        """The position that undoes this one."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

CubeLike = Union[str, Cube]

def solve(
    cube: CubeLike,
    *,
    max_length: Optional[int] = None,
    metric: str = "htm",
    timeout: Optional[float] = None,
) -> str:
    """Singmaster moves solving ``cube``.

    Optimal (in ``metric``, "htm" or "qtm") without ``max_length``; with it, the first
    solution found of at most ``max_length`` moves (two-phase; before its tables exist,
    the first calls use small tables built in memory while the full ones are built in
    the background, said once on stderr). ``timeout`` (seconds) raises
    ``TimeoutError`` when no (such) solution is found in time. Raises ``NoSolutionError``
    when no solution of at most ``max_length`` exists.
    """

@overload
def solve_many(
    cubes: Iterable[CubeLike],
    *,
    max_length: Optional[int] = None,
    metric: str = "htm",
    timeout: Optional[float] = None,
    errors: Literal["raise"] = "raise",
) -> List[str]: ...
@overload
def solve_many(
    cubes: Iterable[CubeLike],
    *,
    max_length: Optional[int] = None,
    metric: str = "htm",
    timeout: Optional[float] = None,
    errors: Literal["return"],
) -> List[Union[str, Exception]]:
    """``solve`` for every cube, on every core, in order. A failing cube raises (naming
    its number), or with ``errors="return"`` gives its exception in its place."""

@overload
def scramble(*, count: None = None, seed: Optional[int] = None) -> str: ...
@overload
def scramble(*, count: int, seed: Optional[int] = None) -> List[str]: ...
@overload
def scramble_event(event: str, *, count: None = None, seed: Optional[int] = None, random_state: bool = False) -> str:
    """Scrambles for a WCA event in its notation (``cubedb scramble EVENT``)."""
@overload
def scramble_event(event: str, *, count: int, seed: Optional[int] = None, random_state: bool = False) -> List[str]: ...
def scramble_picture(event: str, scramble: str) -> str:
    """The SVG picture of the state an event's scramble reaches (every event)."""
def rolling(empty: Tuple[int, int], goal: str) -> int:
    """Cubic eight-puzzle: fewest rolls (-1 beyond 30) to the top colours ``goal``."""

def rotation(board: Sequence[int]) -> Tuple[str, int]:
    """Rotation game: shortest, then smallest, move letters and the centre digit."""

def soma(piece_a: str) -> List[str]:
    """Soma cube: every assembly with piece a placed as in ``piece_a``, sorted."""

def walk(start: str, end: str, faces: Sequence[int]) -> Tuple[int, List[str]]:
    """Cube on the walk: the cheapest route's cost and squares."""

def data_directory() -> str:
    """The folder where tables are looked for and built."""

def _twophase_tables() -> str:
    """Which tables face-turn two-phase answers come from now: "full"; "building" (small
    tables built in memory, while the full ones are built in the background); "compact"
    (the full ones could not be built); or "none" before the first call."""
