"""Pinned answers of whole 15 v 15 deals (answers never change while the solver gets
faster). Random open 2-seat deals of the classic deck, landlord to lead (drawn by
``bench/solver.py``'s ``deal_jobs``, seeds 1515 and 77), each answer computed by
an earlier solver (a per-node tuple-keyed table, emptied at 3 M entries, the
complete winning-move set always) and by this one, which agreed; only the deals that solve in
about a second are here (the others are in the bench).
"""

from __future__ import annotations

import pytest

from ddzspec.rules import load_rules
from ddzspec.solver import make_position, solve

CLASSIC = load_rules("classic")

#: (landlord, peasant, winner, every winning move of the landlord to lead)
DEALS = [
    ("33445558899TTQK", "44566679JQKKAA2", "landlord", ("334455", "8899TT")),
    ("344677889TTJKKA", "335666TJQQKAAAR", "peasants", ()),
    ("33346677899JJQ2", "6899TTJJQKKAABR", "peasants", ()),
]

#: (landlord, peasant, winner): verdicts only (the complete sets take seconds)
VERDICTS = [
    ("33445779TTQQAAB", "344689TJJJKKK22", "landlord"),
    ("3344556679TJKA2", "345778TTJQKAA2R", "landlord"),
]


@pytest.mark.parametrize("landlord, peasant, winner, moves", DEALS)
def test_pinned_15v15_winning_moves(landlord: str, peasant: str, winner: str,
                                    moves: tuple[str, ...]) -> None:
    pos = make_position(CLASSIC, {"landlord": landlord, "peasant": peasant}, "landlord")
    res = solve(pos, want="all", seconds=60)
    assert res.status == "solved" and res.winner == winner
    assert res.winning_moves == moves
    one = solve(pos, want="one", seconds=60)
    assert one.winner == winner and set(one.winning_moves or ()) <= set(moves)
    assert len(one.winning_moves or ()) == (1 if moves else 0)
    if moves:  # the line starts with the winning move it names
        assert one.line[0].cards == one.winning_moves[0]  # type: ignore[index]


@pytest.mark.parametrize("landlord, peasant, winner", VERDICTS)
def test_pinned_15v15_verdicts(landlord: str, peasant: str, winner: str) -> None:
    pos = make_position(CLASSIC, {"landlord": landlord, "peasant": peasant}, "landlord")
    res = solve(pos, want="winner", seconds=60, line=False)
    assert res.status == "solved" and res.winner == winner
