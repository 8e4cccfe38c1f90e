"""The solver under last-play-only shapes (examples/last-play-trio.rules: a bare trio only as
a hand's last play, a house rule): its own move generation offers such
a move only when it is the whole hand. Positions worked by hand.
"""

from __future__ import annotations

from pathlib import Path

from ddzspec.rules import load_rules
from ddzspec.solver import make_position, solve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_a_bare_trio_only_as_the_last_play() -> None:
    # landlord 5552 against one peasant card, 3, the landlord to lead. Classic: 555 wins (a
    # single 3 cannot answer a trio; then 2). Last-play: 555 is no move while the 2 is held;
    # 2 still wins, then 555 as the whole hand, which is a move.
    hands = {"landlord": "5552", "peasant": "3"}
    classic = solve(make_position(load_rules("classic"), hands, "landlord"), want="all")
    assert classic.winner == "landlord"
    assert {"555+2", "555", "2"} <= set(classic.winning_moves or ())
    last = load_rules(str(EXAMPLES / "last-play-trio.rules"))
    r = solve(make_position(last, hands, "landlord"), want="all")
    assert r.winner == "landlord"
    assert "555" not in set(r.winning_moves or ())
    assert {"555+2", "2"} <= set(r.winning_moves or ())
    pos = make_position(last, {"landlord": "555", "peasant": "3"}, "landlord")
    r = solve(pos, want="all")
    assert "555" in (r.winning_moves or ())


def test_the_line_never_plays_a_trio_before_the_end() -> None:
    last = load_rules(str(EXAMPLES / "last-play-trio.rules"))
    pos = make_position(last, {"landlord": "777KKK3", "peasant": "A"}, "landlord")
    r = solve(pos, want="all")
    assert r.winner == "landlord"
    assert not {"777", "KKK"} & set(r.winning_moves or ())
    held = 7
    for step in r.line:
        if step.seat == "landlord" and step.cards != "PASS":
            held -= len(step.cards.replace("+", ""))
            if step.cards in ("777", "KKK"):
                assert held == 0, r.line
