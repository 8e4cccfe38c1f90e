"""Happy Dou Dizhu's call and rob (``rob_order each_once_caller_last``), as a property test
against a plain reference written here from the rules (the 4399 "Happy Landlords" page; the
caller's last word as ratel-online/server plays it): seats are asked in turn to call; after a
call each *other* seat gets exactly one chance to rob, in order; a seat that declined to call
is skipped; if anyone robbed, the caller has one last word; every rob doubles the stake;
nobody calls: redeal. The duel's call and rob (seed 003) is unchanged."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.errors import OutOfTurnError, WrongPhaseError
from ddzspec.game import Action, GameState, Phase
from ddzspec.rules import RobOrder, load_rules, load_rules_text

QQ = load_rules("examples/qq-bidding.rules")
#: the same bidding without the doubling round, so the deal goes straight to play
QQ_ONLY = load_rules_text(
    "rules qq-only extends classic\n"
    "bidding call_rob { first_speaker random  rob_order each_once_caller_last }\n"
    "scoring { base 1  double rob bomb rocket spring anti_spring  settle per_peasant }\n",
    "qq-only.rules")


def reference(first: int, decisions: list[bool]) -> tuple[list[tuple[int, str]], int | None,
                                                           int]:
    """(who is asked what, in order; the landlord or None for a redeal; the number of robs),
    three seats numbered in turn order, from the rules as written above."""
    it = iter(decisions)
    asked: list[tuple[int, str]] = []
    declined: list[int] = []
    caller = None
    for k in range(3):
        seat = (first + k) % 3
        asked.append((seat, "call"))
        if next(it):
            caller = seat
            break
        declined.append(seat)
    if caller is None:
        return asked, None, 0
    robs = 0
    last_robber = None
    for k in (1, 2):
        seat = (caller + k) % 3
        if seat in declined:
            continue
        asked.append((seat, "rob"))
        if next(it):
            robs += 1
            last_robber = seat
    if last_robber is None:
        return asked, caller, robs
    asked.append((caller, "rob"))
    if next(it):
        return asked, caller, robs + 1
    return asked, last_robber, robs


@settings(max_examples=150, deadline=None)
@given(first=st.integers(0, 2), decisions=st.lists(st.booleans(), min_size=6, max_size=6),
       seed=st.integers(0, 50))
def test_qq_call_and_rob_matches_the_reference(first: int, decisions: list[bool],
                                               seed: int) -> None:
    want_asked, want_landlord, want_robs = reference(first, decisions)
    g = GameState.new(QQ_ONLY, seed=seed, first=first)
    asked: list[tuple[int, str]] = []
    it = iter(decisions)
    while g.phase is Phase.BIDDING and g.attempt == 0:
        assert g.turn is not None
        acts = g.legal_actions()
        assert len(acts) == 2 and acts[0].kind == acts[1].kind
        asked.append((g.turn, str(acts[0].kind)))
        g = g.apply(Action(acts[0].kind, g.turn, int(next(it))))
    assert asked == want_asked
    calls = [s for s, k in asked if k == "call"]
    chances = Counter(s for s, k in asked if k == "rob")
    assert all(n == 1 for n in chances.values())  # one chance each, the caller's last word too
    if want_landlord is None:
        assert g.attempt == 1 and g.phase is Phase.BIDDING and g.landlord is None
        return
    assert g.phase is Phase.PLAY and g.landlord == want_landlord
    assert g.robs == want_robs
    assert g.multiplier == 2 ** want_robs and g.base == 1
    robbed = [s for (s, k), d in zip(asked, decisions) if k == "rob" and d]
    assert [(f.kind, f.seat, f.times) for f in g.factors] == [("rob", s, 2) for s in robbed]
    assert not set(calls[:-1]) & set(chances)  # a seat that declined to call never robs


def test_out_of_turn_and_wrong_kind_change_nothing() -> None:
    g = GameState.new(QQ_ONLY, seed=3, first=0)
    with pytest.raises(OutOfTurnError):
        g.apply(Action.call(1))
    with pytest.raises(WrongPhaseError):
        g.apply(Action.rob(0))
    g1 = g.apply(Action.call(0, False)).apply(Action.call(1))
    assert g1.turn == 2  # seat 0 declined to call: only seat 2 may rob
    g2 = g1.apply(Action.rob(2, False))
    assert g2.phase is Phase.PLAY and g2.landlord == 1 and g2.multiplier == 1
    with pytest.raises(OutOfTurnError, match="seat 2's turn"):
        g1.apply(Action.rob(0))
    assert g1 == g.apply(Action.call(0, False)).apply(Action.call(1))


def test_every_seat_robs_then_the_caller_robs_back() -> None:
    g = GameState.new(QQ_ONLY, seed=3, first=0)
    for a in (Action.call(0), Action.rob(1), Action.rob(2), Action.rob(0)):
        g = g.apply(a)
    assert (g.landlord, g.robs, g.multiplier) == (0, 3, 8)
    assert [(f.kind, f.seat) for f in g.factors] == [("rob", 1), ("rob", 2), ("rob", 0)]


def test_the_duel_keeps_its_call_and_rob() -> None:
    duel = load_rules("duel")
    assert duel.bidding.rob_order is RobOrder.TAKE_TURNS
    g = GameState.new(duel, seed=2, first=1)
    for a in (Action.call(1), Action.rob(0), Action.rob(1), Action.rob(0)):
        g = g.apply(a)
    assert g.phase is Phase.BIDDING and g.robs == 3  # robs alternate until max_robs 4
    g = g.apply(Action.rob(1))
    assert g.landlord == 1 and g.robs == 4 and g.phase is Phase.PLAY
