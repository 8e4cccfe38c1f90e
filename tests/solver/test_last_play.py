"""The solver under last-play-only shapes (examples/last-play-trio.rules: a bare trio only as
a hand's last play, a house rule): its own move generation offers such
a move only when it is the whole hand. Positions worked by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddzspec.rules import load_rules
from ddzspec.solver import PositionError, make_position, solve

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


def test_the_only_winning_line_needs_a_bare_trio_so_the_landlord_loses() -> None:
    # landlord KKK56789 against the peasant's 6789T2, the landlord to lead. The peasant wins
    # as soon as it takes the lead: 2 then its straight, or its straight then 2. It takes the
    # lead over any single (its 2 beats every single the landlord holds, K included) and over
    # the straight 56789 (6789T); it beats no pair and no trio (it holds neither).
    # Classic: KKK (the peasant passes), then 56789 goes out: the landlord wins, and only so:
    # KKK+x leaves four singles (6789, 5678, … are no straight), and after KK the landlord
    # holds K56789, whose next lead is a single or the straight.
    hands = {"landlord": "KKK56789", "peasant": "6789T2"}
    classic = solve(make_position(load_rules("classic"), hands, "landlord"), want="all")
    assert classic.winner == "landlord"
    assert classic.winning_moves == ("KKK",)
    assert [(p.seat, p.cards) for p in classic.line] == [
        ("landlord", "KKK"), ("peasant", "PASS"), ("landlord", "56789")]
    # Last-play-trio: a bare KKK is a move only as the whole hand, so that line is gone and
    # the landlord loses, whatever it leads; no line plays KKK while other cards are held.
    last = load_rules(str(EXAMPLES / "last-play-trio.rules"))
    r = solve(make_position(last, hands, "landlord"), want="score")
    assert r.winner == "peasants" and r.winning_moves == ()
    assert r.score == {"landlord": -1, "peasant": 1}  # one peasant settles base 1 x 1
    held = {"landlord": 8, "peasant": 6}
    for step in r.line:
        if step.cards != "PASS":
            held[step.seat] -= len(step.cards.replace("+", ""))
            assert step.cards != "KKK" or held[step.seat] == 0, r.line


def test_a_last_play_only_move_on_the_table_cannot_be() -> None:
    # a bare trio on the table was its seat's last play: the deal would be over
    last = load_rules(str(EXAMPLES / "last-play-trio.rules"))
    with pytest.raises(PositionError, match="only as a hand's last play"):
        make_position(last, {"landlord": "555", "peasant": "4"}, "landlord",
                      on_table="333", played_by="peasant")
