"""cubedb.scramble_event: WCA event scrambles, the same as `cubedb scramble EVENT`."""

import pytest

import cubedb


def test_event_scrambles_are_reproducible_and_shaped():
    first = cubedb.scramble_event("222", count=5, seed=3)
    assert first == cubedb.scramble_event("222", count=5, seed=3)
    assert len(set(first)) == 5
    for line in first:
        assert set(line.split()) <= {m + s for m in "URF" for s in ("", "2", "'")}
        assert len(line.split()) >= 4
    one = cubedb.scramble_event("clock", seed=3)
    assert isinstance(one, str) and len(one.split()) == 15
    minx = cubedb.scramble_event("minx", seed=3)
    assert len(minx.split("\n")) == 7
    cube = cubedb.Cube.from_moves(cubedb.scramble_event("333", seed=4))
    assert not cube.is_solved()


def test_unknown_events_and_bad_numbers_are_named():
    with pytest.raises(cubedb.CubeError, match="444fast.*sq1"):
        cubedb.scramble_event("444fast")
    with pytest.raises(cubedb.CubeError, match="count"):
        cubedb.scramble_event("222", count=-1)
    with pytest.raises(cubedb.CubeError, match="random-state"):
        cubedb.scramble_event("666", random_state=True)


def test_pictures_of_scrambles():
    svg = cubedb.scramble_picture("333", "R U R' U'")
    assert svg.startswith("<svg") and svg.count("<rect") == 54
    # Square-1: two layers of 8 pieces with their side bands, and the equator's two halves.
    assert cubedb.scramble_picture("sq1", "/").count("<polygon") == 2 * (8 + 12) + 2
    assert cubedb.scramble_picture("pyram", "U l'").count("<polygon") == 36
    assert "<circle" in cubedb.scramble_picture("clock", "UR1+ y2 ALL2-")
    with pytest.raises(cubedb.CubeError, match="Q"):
        cubedb.scramble_picture("skewb", "R Q")
    with pytest.raises(cubedb.CubeError, match="Q"):
        cubedb.scramble_picture("333", "R Q")
