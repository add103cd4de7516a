"""cubedb.Puzzle: any permutation puzzle from a .tws definition, from Python."""

import pathlib

import pytest

import cubedb
from cubedb import CubeError, Puzzle

PUZZLES = pathlib.Path(__file__).resolve().parents[2] / "puzzles"


def test_gods_algorithm_of_the_fixed_corner_2x2x2():
    puzzle = Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"))
    assert puzzle.gods() == [
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
    ]
    qtm = Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), metric="qtm")
    counts = qtm.gods()
    assert len(counts) - 1 == 14 and counts[-1] == 276 and sum(counts) == 3674160


def test_solutions_are_optimal_and_match_the_cli_contract():
    puzzle = Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"))
    assert puzzle.solve("R U") == "U' R'"
    assert puzzle.solve("") == ""
    scrambles = puzzle.scramble(count=50, seed=11)
    solutions = puzzle.solve_many(scrambles)
    for scramble, solution in zip(scrambles, solutions):
        # A random-state scramble is a shortest sequence: the solution is as long.
        assert len(solution.split()) == len(scramble.split())
        # Scramble then solution is the identity: solving it again needs nothing.
        assert puzzle.solve(f"{scramble} {solution}") == ""


def test_bad_input_names_the_problem(tmp_path):
    puzzle = Puzzle.from_file(str(PUZZLES / "loopover-3x3.tws"))
    with pytest.raises(CubeError, match="unknown move `Z9`"):
        puzzle.solve("R1 Z9")
    with pytest.raises(CubeError, match="scramble 2"):
        puzzle.solve_many(["R1", "C7"])
    bad = tmp_path / "bad.tws"
    bad.write_text("Name x\nSet A 3 1\nSolved\nA\n1 2 3\nEnd\nMove M\nA\n1 2 4\nEnd\n")
    with pytest.raises(CubeError, match="bad.tws: line"):
        Puzzle.from_file(str(bad))
    with pytest.raises(OSError):
        Puzzle.from_file(str(tmp_path / "missing.tws"))
    with pytest.raises(CubeError, match="metric"):
        Puzzle.from_file(str(PUZZLES / "loopover-3x3.tws"), metric="xtm")
    assert isinstance(puzzle, cubedb.Puzzle) and "loopover" in repr(puzzle)


def test_solving_to_a_target_pattern():
    # Corner orientations only: every piece `?`, every twist 0.
    twist = "ScrambleState twist\nCORNERS\n? ? ? ? ? ? ?\n0 0 0 0 0 0 0\nEnd\n"
    puzzle = Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), target=twist)
    full = Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"))
    assert puzzle.solve("U2") == ""  # a half turn twists nothing
    for scramble in full.scramble(count=20, seed=5):
        solution = puzzle.solve(scramble)
        # The target is met: solving it again from there needs nothing, and it is
        # never further than solved.
        assert puzzle.solve(f"{scramble} {solution}") == ""
        assert len(solution.split()) <= len(full.solve(scramble).split())
    with pytest.raises(CubeError, match="named 2 times"):
        Puzzle.from_file(
            str(PUZZLES / "2x2x2-fixed.tws"),
            target="Scramble x\nCORNERS\n? ? ? 4 5 6 6\n? ? ? ? 0 0 0\nEnd\n",
        )
