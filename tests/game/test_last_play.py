"""Last-play-only shapes in the game (examples/last-play-trio.rules: a bare trio and a four
with two only as a hand's last play, a house rule): ``apply`` refuses
such a move that would not empty the hand, with a clear error and the state unchanged; the
legal actions leave it out; the computer players, choosing from legal moves, never play one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ddzspec.cards import Cards
from ddzspec.game import Action, GameState, LastPlayOnlyError, NotAMoveError
from ddzspec.moves import to_reading
from ddzspec.players import player_for
from ddzspec.players.arena import play_deal
from ddzspec.rules import Rules, load_rules

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: the landlord's 17 (the talon TTT makes 20): the deal is worked by hand below
LANDLORD = "3 5555 666777888999"


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules(str(EXAMPLES / "last-play-trio.rules"))


def deal(rules: Rules) -> GameState:
    """Seat 0 holds LANDLORD and bids 3; seats 1 and 2 the rest of the deck, low to high."""
    deck = [i for i in range(15) for _ in range(rules.deck[i])]
    for i, c in enumerate((Cards.parse(LANDLORD) + Cards.parse("TTT")).counts):
        for _ in range(c):
            deck.remove(i)
    hands = [Cards.parse(LANDLORD)]
    for s in (0, 17):
        counts = [0] * 15
        for i in deck[s:s + 17]:
            counts[i] += 1
        hands.append(Cards(tuple(counts)))
    g = GameState.new(rules, hands=hands, talon="TTT", first=0)
    return g.apply(Action.bid(0, 3))


def test_a_trio_that_keeps_cards_is_refused_and_the_state_unchanged(rules: Rules) -> None:
    g = deal(rules)
    g = g.apply(Action.play(0, "3")).apply(Action.pass_(1)).apply(Action.pass_(2))
    before = g
    with pytest.raises(LastPlayOnlyError) as info:
        g.apply(Action.play(0, "666"))
    assert isinstance(info.value, NotAMoveError)  # every handler of bad moves catches it
    assert str(info.value) == ("trio 666: a trio is played only as a hand's last play (house "
                               "rule), and seat 0 would keep 16 card(s)")
    assert g == before and len(g.hands[0]) == 19
    plays = {a.cards for a in g.legal_actions() if a.cards is not None}
    assert Cards.parse("666") not in plays and Cards.parse("6665") in plays


def test_a_trio_that_empties_the_hand_wins(rules: Rules) -> None:
    g = deal(rules)
    for seat, what in [(0, "3"), (1, "pass"), (2, "pass"), (0, "5555"), (1, "pass"),
                       (2, "pass"), (0, "666777888999"), (1, "pass"), (2, "pass")]:
        g = g.apply(Action.pass_(seat) if what == "pass" else Action.play(seat, what))
    assert g.hands[0] == Cards.parse("TTT")
    assert [a.cards.format() for a in g.legal_actions() if a.cards is not None] == [
        "T", "TT", "TTT"]
    g = g.apply(Action.play(0, "TTT"))
    assert g.over and g.result is not None and g.result.winner == "landlord"


@pytest.mark.parametrize("levels", [(1, 1, 1), (2, 2, 2)])
def test_the_computer_players_keep_the_rule(rules: Rules, levels: tuple[int, ...]) -> None:
    for seed in range(6):
        players = [player_for(level, seed=seed * 3 + i) for i, level in enumerate(levels)]
        end = play_deal(rules, players, seed)  # apply raises on a refused move
        assert end.over and end.landlord is not None
        left = [17, 17, 17]
        left[end.landlord] += 3
        for a in end.log:
            if a.kind == "play" and a.cards is not None:
                left[a.seat] -= len(a.cards)
                if rules.shape(to_reading(a.cards, rules).shape).last_play:
                    assert left[a.seat] == 0, (seed, a)
        assert left == [len(h) for h in end.hands]
