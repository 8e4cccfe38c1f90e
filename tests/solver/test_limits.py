"""The solver's limits (``Limit``, ``solve(limit=...)``, ``--limit-*``): bad values and values of
the wrong kind refused alike in the pure and the compiled core; one time limit at a time."""

from __future__ import annotations

import pytest

from ddzspec.rules import load_rules
from ddzspec.solver import Limit, make_position, solve

CLASSIC = load_rules("classic")


# found by tester 5
def test_the_solver_api_refuses_bad_limits_and_values() -> None:
    from ddzspec.solver import Limit, PositionError, make_position, solve
    classic = load_rules("classic")
    p = make_position(classic, {"landlord": "33", "peasant": "4"}, "landlord")
    for bad in (float("nan"), -1.0, float("inf")):
        with pytest.raises(ValueError, match="finite number"):
            solve(p, seconds=bad)
    with pytest.raises(ValueError, match="a number of seconds"):
        solve(p, seconds="5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0 or more"):
        solve(p, limit=-5)
    with pytest.raises(ValueError, match="0 or more"):
        Limit(nodes=-1)
    # the same words from the pure and the compiled core ("0 s", not "0.0 s")
    assert solve(p, seconds=0).reason == "time limit 0 s reached"
    with pytest.raises(PositionError, match=r"base 1\.5: must be a whole number"):
        make_position(classic, {"landlord": "33", "peasant": "4"}, "landlord",
                      base=1.5)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="target landlord: 'x'"):
        make_position(classic, {"landlord": "33", "peasant": "4"}, "landlord",
                      targets={"landlord": "x"})
    with pytest.raises(PositionError, match="the hand of landlord: list given"):
        make_position(classic, {"landlord": ["3"], "peasant": "4"},  # type: ignore[dict-item]
                      "landlord")


# found by tester 9
@pytest.mark.parametrize("kwargs,kind", [
    ({"nodes": 2.5}, TypeError), ({"nodes": True}, TypeError),
    ({"entries": 2.5}, TypeError), ({"entries": 2 ** 63}, ValueError),
    ({"entries": 1}, ValueError), ({"seconds": True}, TypeError),
    ({"seconds": "1"}, TypeError), ({"nodes": -1}, ValueError),
])
def test_bad_limits_are_refused_alike_in_both_cores(kwargs: dict[str, object],
                                                      kind: type[Exception]) -> None:
    with pytest.raises(kind):
        Limit(**kwargs)  # type: ignore[arg-type]


# found by tester 9
def test_solve_refuses_a_limit_of_the_wrong_kind() -> None:
    pos = make_position(CLASSIC, {"landlord": "35", "peasant": "44"}, "landlord")
    for bad in (2.5, True, "10"):
        with pytest.raises(TypeError, match="limit must be a Limit"):
            solve(pos, limit=bad)  # type: ignore[arg-type]
    assert solve(pos, limit=1000).status == "solved"


# found by tester 10
def test_two_time_limits_at_once_are_refused() -> None:
    pos = make_position(CLASSIC, {"landlord": "34", "peasant": "5"}, "landlord")
    with pytest.raises(ValueError, match="two time limits"):
        solve(pos, limit=Limit(seconds=1), seconds=2)
    assert solve(pos, limit=Limit(seconds=1), seconds=1).status == "solved"  # the same one


def test_a_budget_stops_a_search_at_its_limit_and_the_searcher_goes_on() -> None:
    """``Searcher.budget``: a node budget counts from the nodes searched so far and stops the
    search at exactly one node past it; a time budget of 0 s stops it at the first node; the
    searcher then answers as ``solve`` does."""
    from ddzspec.solver.search import Aborted, Searcher

    from ddzspec.puzzles import puzzle_by_id
    pos = puzzle_by_id("DDZ2-04").position()
    s = Searcher(pos)
    state = (pos.to_move, s.hands0, s.last0, pos.passes)
    s.budget(None, nodes=50)
    with pytest.raises(Aborted, match=r"^node limit 50 reached$"):
        s.win(*state)
    assert s.nodes == 51
    s.budget(None, nodes=50)  # 50 more than the 51 searched
    with pytest.raises(Aborted, match=r"^node limit 101 reached$"):
        s.win(*state)
    assert s.nodes == 102
    s.budget(None)
    assert s.limit == Limit(None, None, Limit().entries)
    assert s.win(*state) is True
    assert solve(pos, want="winner").to_move_wins is True
    fresh = Searcher(pos)
    fresh.budget(0.0)
    with pytest.raises(Aborted, match=r"^time limit 0 s reached$"):
        fresh.win(*state)
    assert fresh.nodes == 1
    fresh.budget(60.0)
    assert fresh.win(*state) is True
