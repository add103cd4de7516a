"""Tests of the Python package: every function on valid and invalid input, solutions checked
by applying them, the kociemba-compatible module, the other puzzles on the judges' samples,
and damaged tables. Tables come from $CUBEDB_DATA (CI points it at the Rust tests' cache).
"""

import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

import cubedb
from cubedb import Cube, CubeError, NoSolutionError, TableError

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOLVED = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"


def moves_of(solution):
    return solution.split() if solution else []


# ---- Cube -------------------------------------------------------------------------------


def test_cube_basics():
    assert Cube().facelets == SOLVED and Cube().is_solved()
    cube = Cube.from_moves("R U R' U'")
    assert not cube.is_solved()
    assert Cube(cube.facelets) == cube == Cube.from_facelets(cube.facelets)
    assert hash(Cube(cube.facelets)) == hash(cube)
    assert cube.apply("U R U' R'").is_solved()
    assert cube.then(cube.inverse()).is_solved()
    assert cube.inverse().then(cube).is_solved()
    assert Cube.from_moves("R U").then(Cube.from_moves("F")) == Cube.from_moves("R U F")
    assert repr(cube) == f"Cube('{cube.facelets}')" and str(cube) == cube.facelets
    assert Cube.random(seed=4) == Cube.random(seed=4) != Cube.random(seed=5)
    # Any six colours: a face's centre names its colour.
    recoloured = cube.facelets.translate(str.maketrans("URFDLB", "wrgyob"))
    assert Cube(recoloured) == cube


@pytest.mark.parametrize(
    "facelets, words",
    [
        ("UUU", "54 stickers"),
        (SOLVED[:-2] + "BU", "stickers"),  # a sticker colour count off
        (SOLVED.replace("R", "X", 1), "colour"),  # a seventh colour
    ],
)
def test_cube_rejects_bad_facelets(facelets, words):
    with pytest.raises(CubeError) as err:
        Cube(facelets)
    assert isinstance(err.value, ValueError)
    assert words in str(err.value)


def test_cube_rejects_bad_moves_and_types():
    with pytest.raises(CubeError, match="character 3"):
        Cube.from_moves("R X")
    with pytest.raises(TypeError, match="facelet string or a Cube"):
        cubedb.solve(42)


# ---- solve ------------------------------------------------------------------------------


def test_thousand_random_cubes_two_phase():
    for seed in range(1000):
        cube = Cube.random(seed=seed)
        solution = cubedb.solve(cube, max_length=21)
        assert cube.apply(solution).is_solved(), seed
        assert len(moves_of(solution)) <= 21
        # Facelet strings work the same as Cube objects.
        if seed % 100 == 0:
            assert cubedb.solve(cube.facelets, max_length=21) == solution


def test_short_cubes_get_optimal_solutions():
    assert cubedb.solve(Cube(), max_length=21) == ""
    assert cubedb.solve(Cube.from_moves("R U"), max_length=21) == "U' R'"
    assert cubedb.solve(Cube.from_moves("R U R' U'"), max_length=21) == "U R U' R'"
    # Quarter turns: a half turn counts 2.
    solution = cubedb.solve(Cube.from_moves("R2 U"), max_length=26, metric="qtm")
    assert len(moves_of(solution)) == 2 and Cube.from_moves("R2 U").apply(solution).is_solved()


def test_optimal_solving():
    for scramble, length in [("R U F", 3), ("R U R' U' F2 D", 6), ("", 0)]:
        cube = Cube.from_moves(scramble)
        solution = cubedb.solve(cube)
        assert cube.apply(solution).is_solved()
        assert len(moves_of(solution)) == length
    # In quarter turns R2 costs two.
    solution = cubedb.solve(Cube.from_moves("R2 U F'"), metric="qtm")
    assert Cube.from_moves("R2 U F'").apply(solution).is_solved()


def test_quarter_turn_two_phase():
    for seed in range(40):
        cube = Cube.random(seed=10_000 + seed)
        solution = cubedb.solve(cube, max_length=28, metric="qtm")
        assert cube.apply(solution).is_solved()
        quarter = sum(2 if m.endswith("2") else 1 for m in moves_of(solution))
        assert quarter <= 28


def test_limits_and_timeouts():
    cube = Cube.from_moves("R U F D")
    with pytest.raises(NoSolutionError, match="no solution of at most 3 face turns") as err:
        cubedb.solve(cube, max_length=3)
    assert isinstance(err.value, ValueError)
    with pytest.raises(NoSolutionError):
        cubedb.solve(cube, max_length=3, timeout=5)
    # A random state needs far more than 12 moves; the search cannot finish in time.
    with pytest.raises(TimeoutError):
        cubedb.solve(Cube.random(seed=1), max_length=12, timeout=0.2)
    # Optimal solving of a random state takes far longer than this.
    with pytest.raises(TimeoutError):
        cubedb.solve(Cube.random(seed=2), timeout=0.2)
    with pytest.raises(ValueError, match="metric"):
        cubedb.solve(cube, metric="slice")
    with pytest.raises(ValueError, match="timeout"):
        cubedb.solve(cube, max_length=21, timeout=-1)


def test_solve_many_equals_solve():
    cubes = [Cube.random(seed=500 + i) for i in range(300)]
    many = cubedb.solve_many(cubes, max_length=21)
    assert many == [cubedb.solve(c, max_length=21) for c in cubes]
    assert cubedb.solve_many([c.facelets for c in cubes[:5]], max_length=21) == many[:5]
    assert cubedb.solve_many([], max_length=21) == []
    assert cubedb.solve_many([Cube.from_moves("R U F")]) == ["F' U' R'"]
    with pytest.raises(CubeError, match="cube 2"):
        cubedb.solve_many([cubes[0], "UUU"], max_length=21)
    with pytest.raises(NoSolutionError, match="cube 1"):
        cubedb.solve_many([Cube.from_moves("R U F D")], max_length=2)


# ---- scramble ---------------------------------------------------------------------------


def test_scrambles():
    one = cubedb.scramble(seed=3)
    assert isinstance(one, str) and len(moves_of(one)) <= 21
    many = cubedb.scramble(count=50, seed=9)
    assert many == cubedb.scramble(count=50, seed=9)
    assert len(set(many)) == 50
    for s in many:
        moves = moves_of(s)
        assert len(moves) <= 21
        assert all(a[0] != b[0] for a, b in zip(moves, moves[1:])), s
        # The scrambled position is solved by undoing it.
        assert not Cube.from_moves(s).is_solved()
        assert Cube.from_moves(s).apply(cubedb.solve(Cube.from_moves(s), max_length=21)).is_solved()
    assert isinstance(cubedb.scramble(), str)


# ---- kociemba ---------------------------------------------------------------------------

# The inputs the `kociemba` package's README documents.
DOCUMENTED = "DRLUUBFBRBLURRLRUBLRDDFDLFUFUFFDBRDUBRUFLLFDDBFLUBLRBD"
DOCUMENTED_FROM = "FLBUULFFLFDURRDBUBUUDDFFBRDDBLRDRFLLRLRULFUDRRBDBBBUFL"
DOCUMENTED_TO = "BBURUDBFUFFFRRFUUFLULUFUDLRRDBBDBDBLUDDFLLRRBRLLLBRDDF"


def test_kociemba_compatible_solve():
    from cubedb import kociemba

    solution = kociemba.solve(DOCUMENTED)
    assert Cube(DOCUMENTED).apply(solution).is_solved()
    assert len(moves_of(solution)) <= 24
    to_pattern = kociemba.solve(DOCUMENTED_FROM, DOCUMENTED_TO)
    assert Cube(DOCUMENTED_FROM).apply(to_pattern) == Cube(DOCUMENTED_TO)
    short = kociemba.solve(DOCUMENTED, max_depth=20)
    assert len(moves_of(short)) <= 20 and Cube(DOCUMENTED).apply(short).is_solved()
    assert kociemba.solve(SOLVED) == ""
    with pytest.raises(ValueError):
        kociemba.solve(DOCUMENTED[:-1])
    with pytest.raises(ValueError):
        kociemba.solve(DOCUMENTED.replace("D", "U", 1))


# ---- other puzzles ----------------------------------------------------------------------


def test_rolling_sample():
    lines = (ROOT / "examples" / "rolling.in").read_text().split("\n")
    answers = []
    i = 0
    while lines[i].strip() != "0 0":
        x, y = map(int, lines[i].split())
        answers.append(cubedb.rolling((x, y), " ".join(lines[i + 1 : i + 4])))
        i += 4
    assert answers == [0, 3, 13, 23, 29, 30, -1, -1]
    with pytest.raises(ValueError, match="9 cells"):
        cubedb.rolling((1, 1), "WWW")
    with pytest.raises(CubeError):
        cubedb.rolling((4, 1), "WWWWEWWWW")
    with pytest.raises(CubeError):
        cubedb.rolling((1, 1), "WWWWWWWWW")


def test_rotation_sample():
    boards = [
        [int(t) for t in line.split()]
        for line in (ROOT / "examples" / "rotation.in").read_text().splitlines()
        if line.strip() not in ("", "0")
    ]
    assert [cubedb.rotation(b) for b in boards] == [("AC", 2), ("DDHH", 2)]
    solved_centre = [1] * 6 + [2, 2, 2] + [1] * 2 + [2, 2] + [3] * 2 + [2, 2, 2] + [3] * 6
    moves, digit = cubedb.rotation(solved_centre)
    assert moves == "" or isinstance(moves, str)
    with pytest.raises(CubeError):
        cubedb.rotation([1, 2, 3])


def test_soma_sample():
    cases = (ROOT / "examples" / "soma.in").read_text().split()
    expected = (ROOT / "examples" / "soma.out").read_text().split("\n\n")
    for case, block in zip(cases, expected):
        assert cubedb.soma(case) == sorted(block.split())
    with pytest.raises(CubeError):
        cubedb.soma("a" * 27)


def test_walk_sample():
    assert cubedb.walk("e2", "e3", [0, 8, 1, 2, 1, 1]) == (5, ["e2", "d2", "d1", "e1", "e2", "e3"])
    with pytest.raises(CubeError):
        cubedb.walk("z9", "e3", [0, 8, 1, 2, 1, 1])
    with pytest.raises(CubeError):
        cubedb.walk("e2", "e3", [0, 8, 1])


# ---- tables -----------------------------------------------------------------------------


def test_a_damaged_table_is_an_exception_naming_the_file(tmp_path):
    # A fresh process with its own data folder: build the small rotation table, damage it.
    script = textwrap.dedent(
        """
        import pathlib, sys, cubedb
        cubedb.rotation([1] * 8 + [2] * 8 + [3] * 8)
        path = pathlib.Path(sys.argv[1]) / "rotation-distances.cdb"
        data = bytearray(path.read_bytes())
        data[-1] ^= 1
        path.unlink()
        path.write_bytes(bytes(data))
        """
    )
    env = dict(os.environ, CUBEDB_DATA=str(tmp_path))
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env, check=True)
    check = textwrap.dedent(
        """
        import cubedb
        try:
            cubedb.rotation([1] * 8 + [2] * 8 + [3] * 8)
        except cubedb.TableError as e:
            print("TableError:", e)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", check], env=env, check=True, capture_output=True, text=True
    ).stdout
    assert "TableError:" in out and "rotation-distances.cdb" in out and "corrupted" in out, out


def test_data_directory_follows_the_environment():
    assert cubedb.data_directory() == os.environ.get("CUBEDB_DATA", cubedb.data_directory())
