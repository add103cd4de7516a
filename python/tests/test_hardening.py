"""The second hardening round (issue 24), Python side: each test reproduces a reported
defect (panics on huge numbers, Ctrl-C ignored, wrong answers from the kociemba drop-in,
PyO3's generic overflow errors, a batch lost to one bad cube, a slow first call).
"""

import os
import pathlib
import signal
import statistics
import subprocess
import sys
import textwrap
import time

import pytest

import cubedb
from cubedb import Cube, CubeError, NoSolutionError

SOLVED = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"


def run_python(script, env=None, timeout=120):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# ---- items 2 and 3: huge numbers are limits, not panics ---------------------------------


@pytest.mark.parametrize("seconds", [1e19, 1e308, 1.7976931348623157e308, 2**64])
def test_huge_timeouts_are_answered(seconds):
    assert cubedb.solve(Cube.from_moves("R U F"), max_length=21, timeout=seconds) == "F' U' R'"


@pytest.mark.parametrize("count", [2**63, 2**64, 10**30, 10_000_001])
def test_huge_scramble_counts_are_refused(count):
    with pytest.raises(CubeError, match=r"count must be a whole number from 0 to 10000000"):
        cubedb.scramble(count=count)


# ---- item 14: every numeric argument is range checked with the library's wording --------


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: cubedb.solve(SOLVED, max_length=-1), "max_length must be a whole number from 0 to 255, not -1"),
        (lambda: cubedb.solve(SOLVED, max_length=10**30), "max_length must be a whole number from 0 to 255"),
        (lambda: Cube.random(seed=-1), "seed must be a whole number from 0 to 18446744073709551615, not -1"),
        (lambda: cubedb.scramble(count=-1), "count must be a whole number from 0 to 10000000, not -1"),
        (lambda: cubedb.scramble(seed=2**64), "seed must be a whole number from 0"),
    ],
)
def test_out_of_range_numbers_name_the_argument(call, words):
    with pytest.raises(CubeError, match=words.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_out_of_range_puzzle_numbers_are_value_errors():
    with pytest.raises(CubeError, match="start column `-1` is not 1, 2 or 3"):
        cubedb.rolling((-1, 2), "W W W W E W W W W")
    with pytest.raises(CubeError, match="start column `1180591620717411303424` is not"):
        cubedb.rolling((2**70, 2), "W W W W E W W W W")
    with pytest.raises(CubeError, match=r"`-1` \(near face\) is not a whole number in 0..1000"):
        cubedb.walk("e2", "e3", [-1, 1, 1, 1, 1, 1])
    with pytest.raises(TypeError):
        cubedb.solve(SOLVED, max_length=2.5)


# ---- item 15: the puzzle's own words, not the CLI's ---------------------------------------


def test_long_rotation_inputs_say_what_is_wrong():
    with pytest.raises(CubeError, match="board: expected 24 digits, found 1000000"):
        cubedb.rotation([1] * 10**6)


# ---- item 16: one bad cube does not lose a batch ----------------------------------------


def test_solve_many_can_return_errors_in_place():
    cubes = [Cube.random(seed=70 + i) for i in range(20)]
    batch = cubes[:5] + ["UUU"] + cubes[5:10] + [Cube.from_moves("R U F D")] + cubes[10:]
    with pytest.raises(CubeError, match="cube 6"):
        cubedb.solve_many(batch, max_length=21)
    results = cubedb.solve_many(batch, max_length=3, errors="return")
    assert isinstance(results[5], CubeError) and "cube 6" in str(results[5])
    assert results[11] == "D' F' U' R'"[:0] or isinstance(results[11], NoSolutionError)
    results = cubedb.solve_many(batch, max_length=21, errors="return")
    assert len(results) == len(batch)
    for item, cube in zip(results, batch):
        if isinstance(cube, Cube):
            assert isinstance(item, str) and cube.apply(item).is_solved()
    assert isinstance(results[5], CubeError)
    with pytest.raises(CubeError, match="errors must be"):
        cubedb.solve_many(batch, errors="ignore")


# ---- items 11, 22-24: the kociemba drop-in ----------------------------------------------


def test_kociemba_patterns_must_share_the_centres():
    from cubedb import kociemba

    swapped = SOLVED.replace("U", "x").replace("D", "U").replace("x", "D")
    with pytest.raises(ValueError):
        kociemba.solve(SOLVED, swapped)


def test_kociemba_argument_types_are_the_packages():
    from cubedb import kociemba

    with pytest.raises(TypeError):
        kociemba.solve(None)
    with pytest.raises(TypeError):
        kociemba.solve(SOLVED, max_depth=None)
    with pytest.raises(ValueError, match="max_depth must be a whole number from 0 to 255"):
        kociemba.solve(SOLVED, max_depth=-1)


def test_kociemba_answers_are_never_longer_than_the_packages():
    """The package averages 20.75 moves and never exceeds 22 on its reference cubes;
    uniformly random cubes (the reference list is random states too) must do as well."""
    from cubedb import kociemba

    lengths = []
    for seed in range(500):
        cube = Cube.random(seed=24_000 + seed)
        solution = kociemba.solve(cube.facelets)
        assert cube.apply(solution).is_solved()
        lengths.append(len(solution.split()))
    assert max(lengths) <= 22, max(lengths)
    assert statistics.mean(lengths) <= 20.75, statistics.mean(lengths)
    # An effort in nodes, not time: the same answer every time.
    cube = Cube.random(seed=24_000)
    assert len({kociemba.solve(cube.facelets) for _ in range(5)}) == 1


# ---- item 6: Ctrl-C interrupts a long solve ---------------------------------------------


@pytest.mark.parametrize("call", ["cubedb.solve(cube, max_length=14)", "cubedb.solve(cube)"])
def test_ctrl_c_interrupts_long_solves(call):
    # The child installs Python's own Ctrl-C handler: a test runner started in the
    # background of a non-interactive shell passes SIGINT on as ignored, and Python then
    # leaves it ignored, which would test the shell rather than cubedb.
    script = f"""
        import signal, sys, time, cubedb
        signal.signal(signal.SIGINT, signal.default_int_handler)
        cube = cubedb.Cube.random(seed=5)
        print("ready", flush=True)
        started = time.monotonic()
        try:
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after %.2f s" % (time.monotonic() - started))
    """
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=20)
    finally:
        child.kill()
    assert "interrupted after" in out, (out, err)
    seconds = float(out.split("after")[1].split()[0])
    assert seconds < 3.0, out


# ---- item 12: an empty CUBEDB_DATA means unset ------------------------------------------


def test_an_empty_data_variable_means_unset():
    env = dict(os.environ, CUBEDB_DATA="")
    out = run_python("import cubedb; print(repr(cubedb.data_directory()))", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() not in ("''", ""), out.stdout


# ---- item 25: the first call is fast, and says once that a build starts ----------------


def test_the_first_call_in_a_fresh_environment_is_fast(tmp_path):
    script = """
        import time
        started = time.monotonic()
        import cubedb
        from cubedb import kociemba
        cube = cubedb.Cube.random(seed=1)
        first = kociemba.solve(cube.facelets)
        print("first", time.monotonic() - started, cubedb._cubedb._twophase_tables(), flush=True)
        assert cube.apply(first).is_solved() and len(first.split()) <= 22
        for seed in range(20):
            c = cubedb.Cube.random(seed=100 + seed)
            assert c.apply(cubedb.solve(c, max_length=21)).is_solved()
            assert len(cubedb.scramble(seed=seed).split()) <= 21
        deadline = time.monotonic() + 300
        while cubedb._cubedb._twophase_tables() != "full" and time.monotonic() < deadline:
            time.sleep(0.1)
        print("then", cubedb._cubedb._twophase_tables(), flush=True)
        assert cube.apply(kociemba.solve(cube.facelets)).is_solved()
    """
    env = dict(os.environ, CUBEDB_DATA=str(tmp_path))
    out = run_python(script, env=env, timeout=400)
    assert out.returncode == 0, out.stderr
    first = out.stdout.split("first")[1].split()
    assert float(first[0]) < 2.0 and first[1] == "building", out.stdout
    assert "then full" in out.stdout, out.stdout
    # Said once when the build starts, and once when it ends.
    assert out.stderr.count("answering from small tables") == 1, out.stderr
    assert out.stderr.count("building the two-phase tables") == 1, out.stderr
    assert "built in" in out.stderr, out.stderr
    assert (pathlib.Path(tmp_path) / "rubik-twophase-phase1.cdb").exists()


# ---- issue 56, items 14 and 21: every argument of every function, by one rule -----------

PUZZLES = pathlib.Path(__file__).resolve().parents[2] / "puzzles"


def two_by_two():
    return cubedb.Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"))


def test_puzzle_scramble_counts_are_capped_like_scramble():
    # In a child process: without the cap the call runs for hours, holding the GIL.
    script = f"""
        import cubedb
        puzzle = cubedb.Puzzle.from_file({str(PUZZLES / "2x2x2-fixed.tws")!r})
        for call in (puzzle.scramble, cubedb.scramble):
            try:
                call(count=10**9)
                print("no error")
            except cubedb.CubeError as e:
                print("CubeError:", e)
    """
    try:
        out = run_python(script, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("scramble(count=10**9) was still running after 60 s")
    words = "CubeError: count must be a whole number from 0 to 10000000, not 1000000000"
    assert out.stdout.splitlines() == [words, words], (out.stdout, out.stderr)


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda p: p.solve("R", max_depth=-1), "max_depth must be a whole number from 0 to 1000, not -1"),
        (lambda p: p.solve("R", max_depth=2**70), "max_depth must be a whole number from 0 to 1000, not 1180591620717411303424"),
        (lambda p: p.solve_many(["R"], max_depth=-1), "max_depth must be a whole number from 0 to 1000, not -1"),
        (lambda p: p.scramble(count=-1), "count must be a whole number from 0 to 10000000, not -1"),
        (lambda p: p.scramble(seed=-1), "seed must be a whole number from 0 to 18446744073709551615, not -1"),
        (lambda p: p.scramble(seed=2**64), "seed must be a whole number from 0 to 18446744073709551615, not 18446744073709551616"),
    ],
)
def test_puzzle_numbers_are_cube_errors_naming_the_range(call, words):
    with pytest.raises(CubeError) as caught:
        call(two_by_two())
    assert str(caught.value) == words


def test_puzzle_numbers_are_ints():
    puzzle = two_by_two()
    for call in (
        lambda: puzzle.solve("R", max_depth=2.0),
        lambda: puzzle.solve("R", max_depth=True),
        lambda: puzzle.scramble(count="3"),
    ):
        with pytest.raises(TypeError, match="must be an int"):
            call()
    assert puzzle.solve("R U", max_depth=30) == "U' R'"
    assert len(puzzle.scramble(count=3, seed=0)) == 3


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: two_by_two().solve_many(["R", 5, "U"]), "scramble 2: must be a str, not int"),
        (lambda: two_by_two().solve_many("R U"), "scrambles must be a list of str, not a str"),
        (lambda: cubedb.Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), moves=["U", 5]), "move 2: must be a str, not int"),
        (lambda: cubedb.solve_many([SOLVED, 5]), "cube 2: "),
        (lambda: cubedb.solve_many(SOLVED), "cubes must be a list"),
        (lambda: cubedb.rotation([1] * 23 + ["3"]), "board cell 23 must be an int, not str"),
        (lambda: cubedb.walk("e2", "e3", [1, 1, "1", 1, 1, 1]), r"faces\[2\] \(top face\) must be an int, not str"),
    ],
)
def test_list_items_are_named_by_their_place(call, words):
    with pytest.raises(TypeError, match=words):
        call()


def test_long_words_are_quoted_short_and_escaped():
    word = "x" * 60_000
    for call in (
        lambda: cubedb.solve(SOLVED, metric=word),
        lambda: cubedb.solve_many([SOLVED], errors=word),
        lambda: cubedb.Puzzle.from_file(str(PUZZLES / "2x2x2-fixed.tws"), metric=word),
    ):
        with pytest.raises(CubeError) as caught:
            call()
        message = str(caught.value)
        assert len(message) < 200 and "(60000 characters)" in message, message[:300]
    with pytest.raises(CubeError, match=r'metric must be "htm" or "qtm", not `q\\u\{200B\}tm`'):
        cubedb.solve(SOLVED, metric="q\u200btm")


def test_a_timeout_beyond_a_float_is_no_timeout():
    cube = Cube.from_moves("R U F")
    assert cubedb.solve(cube, max_length=21, timeout=10**400) == "F' U' R'"
    with pytest.raises(CubeError, match="timeout must be a number of seconds, 0 or more, not -1"):
        cubedb.solve(cube, max_length=21, timeout=-(10**400))


def test_puzzle_scrambles_let_other_threads_run_and_stop_on_ctrl_c():
    # Another Python thread keeps running while a long scramble runs (the GIL is free);
    # long: 600,000 scrambles, about 0.4 s here (300,000 once took under the 0.2 s asked).
    import threading

    puzzle = two_by_two()
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.005)

    thread = threading.Thread(target=tick)
    thread.start()
    try:
        started = time.monotonic()
        puzzle.scramble(count=600_000, seed=1)
        elapsed = time.monotonic() - started
    finally:
        done.set()
        thread.join()
    during = [t for t in ticks if started <= t <= started + elapsed]
    assert elapsed > 0.2, elapsed
    assert len(during) >= elapsed / 0.005 / 4, (len(during), elapsed)
    script = f"""
        import signal, time, cubedb
        signal.signal(signal.SIGINT, signal.default_int_handler)
        puzzle = cubedb.Puzzle.from_file({str(PUZZLES / "2x2x2-fixed.tws")!r})
        puzzle.scramble(count=1, seed=1)
        print("ready", flush=True)
        started = time.monotonic()
        try:
            puzzle.scramble(count=10_000_000, seed=1)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted after %.2f s" % (time.monotonic() - started))
    """
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert "interrupted after" in out, (out, err)
    assert float(out.split("after")[1].split()[0]) < 3.0, out


def test_dask_arguments_follow_the_same_rules():
    dask = pytest.importorskip("cubedb.dask")
    with pytest.raises(CubeError, match="partition_size must be a whole number from 1 to 10000000, not 0"):
        dask.solve([SOLVED], max_length=21, partition_size=0)
    with pytest.raises(TypeError, match="partition_size must be an int"):
        dask.solve([SOLVED], max_length=21, partition_size=2.5)
    with pytest.raises(TypeError, match="cube 2: a cube must be a str or a cubedb.Cube, not int"):
        dask.solve([SOLVED, 5], max_length=21)
    with pytest.raises(CubeError, match='errors must be "raise" or "return", not `ignore`'):
        dask.solve([SOLVED], errors="ignore")


# ---- issue 56, F2 in Python: a long optimal solve says its cost at the start -------------


def test_a_long_optimal_solve_says_its_cost_at_the_start():
    # A random position takes longer than these timeouts with the default preset (200m).
    script = """
        import time, cubedb
        cube = cubedb.Cube.from_moves("B2 F2 U F2 U2 F2 R2 U2 F2 U2 L' F' R' B D' B L R2 D F2 D")
        started = time.monotonic()
        try:
            cubedb.solve(cube, timeout=1.5)
        except TimeoutError:
            print("timed out after %.1f s" % (time.monotonic() - started))
        # Said once per process.
        try:
            cubedb.solve(cubedb.Cube.random(seed=3), timeout=0.5)
        except TimeoutError:
            print("again")
        print(cubedb.solve(cubedb.Cube.from_moves("R U F D L B R2 U2")))
    """
    out = run_python(script, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "timed out after" in out.stdout and "again" in out.stdout, out.stdout
    assert out.stderr.count("this optimal solve will take about") == 1, out.stderr
    assert "max_length=20" in out.stderr, out.stderr
    assert len(out.stdout.splitlines()[-1].split()) <= 8, out.stdout


# ---- issue 56, F4: the first calls are not held up by the build of the full tables -------


def test_the_first_calls_are_not_held_up_by_the_background_build(tmp_path):
    # The `kociemba` package answers a random cube in about 8 ms (40 ms on a busy
    # machine); cubedb's first calls, answered while its full tables are built, must keep
    # up. They used to wait behind the build's work for seconds each.
    script = """
        import time, cubedb
        cubes = [cubedb.Cube.random(seed=5600 + i) for i in range(100)]
        started = time.monotonic()
        slowest = 0.0
        for cube in cubes:
            t = time.monotonic()
            assert cube.apply(cubedb.solve(cube, max_length=21)).is_solved()
            slowest = max(slowest, time.monotonic() - t)
        print("total %.2f slowest %.2f %s" % (time.monotonic() - started, slowest,
                                               cubedb._cubedb._twophase_tables()))
    """
    env = dict(os.environ, CUBEDB_DATA=str(tmp_path))
    out = run_python(script, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    words = out.stdout.split()
    total, slowest = float(words[1]), float(words[3])
    assert total < 8.0 and slowest < 2.0, out.stdout
