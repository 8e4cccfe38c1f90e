"""A doubling round declared in a rules file (``round double { … }``): who is asked, in which
order, the choices, refusals that change nothing, the factors with their scope, records and
transcripts, and the computer players. Sources: examples/qq-bidding.rules (Happy Dou Dizhu's
加倍 / 超级加倍) and examples/kick.rules (kick and counter-kick)."""

from __future__ import annotations

import json

import pytest

from ddzspec.errors import InvalidBidError, OutOfTurnError, WrongPhaseError
from ddzspec.game import Action, ActionKind, GameState, Phase
from ddzspec.game.record import Record, record_of, replay, transcript
from ddzspec.players import player_for
from ddzspec.players.arena import play_deal
from ddzspec.rules import Rules, Scope, load_rules

QQ = load_rules("examples/qq-bidding.rules")
KICK = load_rules("examples/kick.rules")


def qq_landlord_1() -> GameState:
    """Seat 0 declines to call, seat 1 calls, seat 2 declines to rob: seat 1 is landlord."""
    g = GameState.new(QQ, seed=5, first=0)
    for a in (Action.call(0, False), Action.call(1), Action.rob(2, False)):
        g = g.apply(a)
    return g


def test_the_landlord_first_then_each_peasant_once() -> None:
    g = qq_landlord_1()
    assert g.phase is Phase.DOUBLING and g.landlord == 1 and g.turn == 1
    assert [a.value for a in g.legal_actions()] == [1, 2, 4]
    assert {a.kind for a in g.legal_actions()} == {ActionKind.DOUBLE}
    g = g.apply(Action.double(1, 2))
    assert g.turn == 2
    g = g.apply(Action.double(2, 4))
    assert g.turn == 0
    g = g.apply(Action.double(0, 1))
    assert g.phase is Phase.PLAY and g.turn == 1 and g.leader == 1
    # landlord x2 (the whole table), seat 2 x4 (its own pair); seat 0's "no" adds nothing
    assert [(f.kind, f.times, f.seat, f.scope) for f in g.factors] == [
        ("double", 2, 1, Scope.TABLE), ("super", 4, 2, Scope.PAIR)]
    assert g.multiplier == 2 * 4  # whole-table settlement until it reads the scope


def test_refusals_change_nothing() -> None:
    g = qq_landlord_1()
    with pytest.raises(InvalidBidError, match=r"double 3: the choices are no \(1\), "
                       r"double \(2\), super \(4\)"):
        g.apply(Action.double(1, 3))
    with pytest.raises(OutOfTurnError):
        g.apply(Action.double(2, 2))
    with pytest.raises(WrongPhaseError, match="doubling phase"):
        g.apply(Action.play(1, "3"))
    assert g == qq_landlord_1()


def test_kick_asks_the_landlord_only_after_a_kick() -> None:
    g = GameState.new(KICK, seed=4, first=0)
    g = g.apply(Action.bid(0, 3))  # 3 ends the auction: seat 0 is landlord
    assert g.phase is Phase.DOUBLING and g.turn == 1
    quiet = g.apply(Action.double(1, 1)).apply(Action.double(2, 1))
    assert quiet.phase is Phase.PLAY and quiet.factors == () and quiet.turn == 0
    kicked = g.apply(Action.double(1, 2)).apply(Action.double(2, 1))
    assert kicked.phase is Phase.DOUBLING and kicked.turn == 0
    assert [a.value for a in kicked.legal_actions()] == [1, 2]
    done = kicked.apply(Action.double(0, 2))
    assert [(f.kind, f.seat, f.scope) for f in done.factors] == [
        ("kick", 1, Scope.PAIR), ("counter", 0, Scope.TABLE)]
    assert done.multiplier == 4 and done.phase is Phase.PLAY


def test_records_carry_the_round_and_replay() -> None:
    g = qq_landlord_1()
    for a in (Action.double(1, 2), Action.double(2, 4), Action.double(0, 1)):
        g = g.apply(a)
    rec = record_of(g)
    obj = json.loads(rec.dumps())
    assert {"seat": 2, "double": 4} in obj["actions"]
    again = Record.from_json(obj)
    r = replay(again)
    assert r.ok and r.state == g
    lines = transcript(GameState.new(QQ, seed=5, first=0), r.steps)
    text = "\n".join(lines)
    assert "double round (landlord peasants; no x1, double x2, super x4; scope pair):" in text
    assert ("seat 2 chooses super (x4, its own settlement with the landlord), multiplier 8"
            in text)


def test_a_seat_view_shows_the_round() -> None:
    g = qq_landlord_1()
    v = g.view(1)
    assert v.phase is Phase.DOUBLING and v.talon is not None
    assert v.to_json()["phase"] == "doubling"


@pytest.mark.parametrize("rules", [QQ, KICK], ids=["qq", "kick"])
@pytest.mark.parametrize("level", [1, 2])
def test_computer_players_play_the_round(rules: Rules, level: int) -> None:
    for seed in range(3):
        g = play_deal(rules, [player_for(level, seed) for _ in range(3)], seed)
        assert g.over and g.result is not None
        assert any(a.kind is ActionKind.DOUBLE for a in g.log)
