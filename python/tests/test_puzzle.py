"""cubedb.Puzzle: any permutation puzzle from a .tws definition, from Python."""

import pathlib
import re

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


def test_a_plan_solves_random_states():
    # The 3x3x3 definition has Kociemba's plan beside it: random states, solved by the
    # phases, each checked on cubedb's own cube model.
    puzzle = Puzzle.from_file(str(PUZZLES / "3x3x3.tws"))
    scrambles = puzzle.scramble(count=6, seed=3)
    assert scrambles == puzzle.scramble(count=6, seed=3)  # the seed reproduces
    solutions = puzzle.solve_many(scrambles)
    for scramble, solution in zip(scrambles, solutions):
        assert cubedb.Cube.from_moves(f"{scramble} {solution}").is_solved()
        assert len(solution.split()) <= 24
        assert not cubedb.Cube.from_moves(scramble).is_solved()


def test_a_named_plan_against_the_optimum(tmp_path):
    plan = tmp_path / "two.plan"
    plan.write_text(
        "Plan two\nPhase orient\nMoves U R F\nTarget Subgroup U R2 F2\nEnd\n"
        "Phase finish\nMoves U R2 F2\nTarget Solved\nEnd\n"
    )
    phased = Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), plan=str(plan))
    optimal = Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), plan=False)
    for scramble in phased.scramble(count=20, seed=8):
        solution = phased.solve(scramble)
        assert optimal.solve(f"{scramble} {solution}") == ""
        assert len(solution.split()) >= len(optimal.solve(scramble).split())
    plan.write_text("Plan bad\nPhase a\nMoves U Q\nTarget Solved\nEnd\n")
    with pytest.raises(CubeError, match="two.plan: line 3"):
        Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), plan=str(plan))
    with pytest.raises(CubeError, match="without moves or target"):
        Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), plan=str(plan), moves=["U", "R"])
    with pytest.raises(TypeError, match="plan must be"):
        Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), plan=3)


def test_a_definition_with_neither_table_nor_plan_is_scrambled_by_the_stabilizer_chain():
    # TopSpin 20/4: 20! states, no exact table, no plan. Its scrambles come from random
    # states solved by the stabilizer chain (long), the same for a seed.
    puzzle = Puzzle.from_file(str(PUZZLES / "topspin.tws"))
    scrambles = puzzle.scramble(count=3, seed=4)
    assert scrambles == puzzle.scramble(count=3, seed=4)
    assert scrambles != puzzle.scramble(count=3, seed=5)
    for scramble in scrambles:
        assert len(scramble.split()) > 20
        assert all(re.fullmatch(r"F|R[0-9]*'?", move) for move in scramble.split())


def test_the_chain_engine_solves_any_state_of_a_definition_without_a_plan():
    # TopSpin has no plan and no exact table: IDA* would never end on a
    # random state. engine="chain" answers each at once; IDA* confirms the answer leaves
    # it solved.
    puzzle = Puzzle.from_file(str(PUZZLES / "topspin.tws"), engine="chain")
    optimal = Puzzle.from_file(str(PUZZLES / "topspin.tws"))
    scrambles = puzzle.scramble(count=4, seed=9)
    solutions = puzzle.solve_many(scrambles)
    for scramble, solution in zip(scrambles, solutions):
        assert len(solution.split()) > 20
        assert optimal.solve(f"{scramble} {solution}") == ""
        assert optimal.solve(f"{scramble} {solution} F") == "F"
    with pytest.raises(CubeError, match='engine.*"chain"'):
        Puzzle.from_file(str(PUZZLES / "topspin.tws"), engine="fast")
