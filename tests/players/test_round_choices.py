"""The computer levels' round choices (issue 25): level 3 decides a doubling, kick, counter-kick,
blind or show-cards choice by rollouts on deals sampled from its view
(:meth:`ddzspec.players.level3.Level3.decide_round`, :func:`~ddzspec.players.level3.pick_factor`):
clear hands get the clear answer, the choices are the seat's role's, the decision is a function
of the view and the seed, and a sampled deal never changes a shown hand or a shown talon.
The measured effect over many deals: bench/rounds.py (figures in docs/game.md)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddzspec.cards import EMPTY, Cards, parse_cards
from ddzspec.game import Action, ActionKind, GameState, Phase, SeatView
from ddzspec.players import player_for
from ddzspec.players.level3 import Level3, pick_factor, sample_deal
from ddzspec.rules import Rules, load_rules, load_rules_text

#: Classic with a doubling round after the talon (Happy Dou Dizhu's: the landlord first, no ×1,
#: double ×2, super double ×4, a peasant's factor for its own pair) and a show round after the
#: deal (×2), stated here so that the tests do not depend on a built-in file's later changes.
DOUBLE = load_rules_text("""\
rules t_double "classic with show cards and a doubling round (test)" extends classic
round show {
    after deal
    order all
    choices no 1 show 2
}
round double {
    after talon
    order landlord peasants
    choices no 1 double 2 super 4
    scope pair
}
""")

#: Kick and counter-kick whose answer (×3) differs from the peasants' choice (×2), so that a
#: choice of the other role's would show.
KICK = load_rules_text("""\
rules t_kick "classic with kick x2 and counter-kick x3 (test)" extends classic
round double {
    after talon
    order peasants landlord_if_doubled
    choices no 1 kick 2
    answer no 1 counter 3
    scope pair
}
""")

#: Happy Dou Dizhu's call and rob (each other seat robs once, the caller has the last word) on
#: classic, each rob doubling.
QQ = load_rules_text("""\
rules t_qq "classic with Happy Dou Dizhu's call and rob (test)" extends classic
bidding call_rob {
    first_speaker random
    rob_order each_once_caller_last
}
scoring {
    base 1
    double rob bomb rocket spring anti_spring
    settle per_peasant
}
""")

#: A landlord hand nobody can beat: the rocket and the bombs of 2, A, K and Q, then a pair (led
#: last: a bomb keeps the lead, and no peasant holds a bomb above Q). Seat 1 holds only low
#: bombs and a 7, seat 2 the rest.
STRONG = "RB2222AAAAKKKKQQQ"
TALON = "QJJ"
WEAK = "33334444555566667"
REST = "77788889999TTTTJJ"


def _l3(seed: int) -> Level3:
    """A level 3 whose step budget is the default one's (0.5 s × 3,000 steps) with a clock
    guard that never fires on a loaded machine: its decisions depend on the view and the seed
    only."""
    return Level3(seed, budget=30.0, steps_per_second=50)


def _strong_landlord(rules: Rules, show: int = 1) -> GameState:
    """Seat 0 holds STRONG and is landlord (bids 3), the talon taken: the round after it.
    In a show round seat 0 chooses ``show`` (2: its hand shown), the others do not show."""
    g = GameState.new(rules, hands=[STRONG, WEAK, REST], talon=TALON, first=0)
    while g.phase is Phase.SHOWING:
        seat = g.turn or 0
        g = g.apply(Action(ActionKind.SHOW, seat, show if seat == 0 else 1))
    g = g.apply(Action.bid(0, 3))
    assert g.phase is Phase.DOUBLING and g.landlord == 0
    return g



def _bidding_turns(rules: Rules, seed: int) -> Iterator[tuple[GameState, int, SeatView]]:
    """Each turn of deal ``seed`` before trick play: (state, seat on turn, its view), level 2
    deciding at every seat once the caller has looked."""
    l2 = player_for(2)
    g = GameState.new(rules, seed=seed)
    while g.phase is not Phase.PLAY:
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        yield g, seat, view
        g = g.apply(l2.decide(view))

def test_pick_factor_hand_worked() -> None:
    """The rule (pick_factor's doc): the k-th choice above ×1 needs p > 1 − 1/2^k — double at
    p > 0.5, super double at p > 0.75 — and a mean settlement not below ×1's."""
    assert pick_factor([1, 2, 4], 0.51, [0.1, 0.2, 0.4]) == 1   # 0.51 > 0.5, not > 0.75
    assert pick_factor([1, 2, 4], 0.76, [0.1, 0.2, 0.4]) == 2   # 0.76 > 0.75
    assert pick_factor([1, 2, 4], 0.75, [0.1, 0.2, 0.4]) == 1   # not more than 0.75
    assert pick_factor([1, 2, 4], 0.4, [0.1, 0.2, 0.4]) == 0
    # wins more often than not but loses more than it wins: ×2 settles −0.4 < 0.0 of ×1
    assert pick_factor([1, 2], 0.6, [0.0, -0.4]) == 0
    # super double is allowed (0.9 > 0.75) but settles worse than ×1: the double it is
    assert pick_factor([1, 2, 4], 0.9, [0.5, 1.0, 0.2]) == 1
    # the choices in another order: the index of the factor, not its rank
    assert pick_factor([4, 1, 2], 0.9, [2.0, 0.5, 1.0]) == 0
    assert pick_factor([2], 0.1, [-3.0]) == 0  # a single choice is taken
    with pytest.raises(ValueError, match="one per choice"):
        pick_factor([1, 2], 0.6, [0.0])


@pytest.mark.parametrize("show", [1, 2])
def test_an_unbeatable_landlord_super_doubles_a_hopeless_peasant_does_not(show: int) -> None:
    """The landlord wins every sample (p = 1 > 0.75): super double, its hand shown or not.
    With the landlord's hand shown, seat 1 sees it cannot win (p = 0): no double."""
    g = _strong_landlord(DOUBLE, show)
    choice = _l3(1).decide(g.view(0))
    assert choice == Action(ActionKind.DOUBLE, 0, 4)
    if show == 1:
        return
    g = g.apply(choice)
    assert g.turn == 1 and g.view(1).shown == ((0, g.hands[0]),)
    assert _l3(1).decide(g.view(1)) == Action(ActionKind.DOUBLE, 1, 1)
    # level 2 decides on hand strength alone: seat 1's four low bombs make it super double,
    # against a hand it can see it cannot beat — what level 3's rollouts avoid
    assert player_for(2).decide(g.view(1)) == Action(ActionKind.DOUBLE, 1, 4)


def test_the_landlords_answer_is_an_answer_choice() -> None:
    """Kick ×2 for a peasant, counter-kick ×3 for the landlord: the unbeatable landlord answers
    ×3 (a choice of its role, never the peasants' ×2); a peasant picks one of ×1, ×2."""
    g = GameState.new(KICK, hands=[STRONG, WEAK, REST], talon=TALON, first=0)
    g = g.apply(Action.bid(0, 3))
    assert g.phase is Phase.DOUBLING and g.turn == 1
    assert [a.value for a in g.legal_actions()] == [1, 2]
    assert _l3(2).decide(g.view(1)) in g.legal_actions()
    g = g.apply(Action.double(1, 2)).apply(Action.double(2, 1))  # seat 1 kicks
    assert g.turn == 0
    assert [a.value for a in g.legal_actions()] == [1, 3]
    assert _l3(2).decide(g.view(0)) == Action.double(0, 3)


def test_a_round_decision_is_a_function_of_the_view_and_the_seed() -> None:
    """The same seed gives the same choice on the same view (the work is counted in steps, here
    300 with a clock guard that never fires); the samples depend on the seed (two seeds draw
    different deals)."""
    rules = load_rules("happy")
    decided = 0
    for seed in range(2):
        for g, _, view in _bidding_turns(rules, seed):
            if g.phase is Phase.DOUBLING:
                first = Level3(seed, budget=30.0, steps_per_second=10).decide(view)
                assert first in g.legal_actions()
                assert Level3(seed, budget=30.0, steps_per_second=10).decide(view) == first
                decided += 1
    assert decided == 2 * 3
    view = _strong_landlord(DOUBLE).view(0)
    assert sample_deal(view, random.Random("a")).hands != \
        sample_deal(view, random.Random("b")).hands


def test_calls_by_rollouts_when_asked() -> None:
    """With ``rollout_bids``, level 3 calls on the unbeatable hand and declines a hand of low
    cards (its rollouts: it loses more than it wins as landlord); without it, it calls as
    level 2 does (the seeds' duel keeps its bidding)."""
    g = GameState.new(QQ, hands=[STRONG, WEAK, REST], talon=TALON, first=0)
    assert [a.value for a in g.legal_actions()] == [1, 0]
    asked = Level3(0, budget=30.0, steps_per_second=50, rollout_bids=True)
    assert asked.decide(g.view(0)) == Action.call(0, True)
    low = "33344556677899TTJ"
    rest = (Cards(QQ.deck) - parse_cards(low).cards).format()  # 34455…AAAA2222BR, 37 cards
    g = GameState.new(QQ, hands=[low, rest[:17], rest[17:34]], talon=rest[34:], first=0)
    view = g.view(0)
    assert asked.decide(view) == Action.call(0, False)
    assert _l3(0).decide(view) == player_for(2).decide(view)


def _shown_deal(seed: int) -> GameState:
    """A DOUBLE deal from ``seed`` where seat 1 shows its hand and the others do not."""
    g = GameState.new(DOUBLE, seed=seed, first=0)
    for s in range(3):
        g = g.apply(Action(ActionKind.SHOW, s, 2 if s == 1 else 1))
    assert g.shown == (1,) and g.phase is Phase.BIDDING
    return g


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), draw=st.integers(0, 10**6), stop=st.integers(0, 12))
def test_a_sampled_deal_never_changes_a_shown_hand(seed: int, draw: int, stop: int) -> None:
    """From the bidding (talon face down: drawn) to trick play (talon shown: fixed), every
    sample keeps the seat's own hand, the shown hand and the shown talon, and its public view
    for the seat is the view sampled from; the hidden hands do vary across draws."""
    g = _shown_deal(seed)
    players = [player_for(2) for _ in range(3)]
    steps = 0
    while not g.over and g.attempt == 0 and steps <= stop:  # a redeal shows nothing
        seat = g.turn
        assert seat is not None
        view = g.view(seat)
        assert view.shown == ((1, g.hands[1]),)
        hidden = [s for s in range(3) if s not in (seat, 1)]
        rng = random.Random(draw)
        drawn = set()
        for _ in range(4):
            x = sample_deal(view, rng)
            assert x.hands[seat] == g.hands[seat]
            assert x.hands[1] == g.hands[1]  # the shown hand, as shown
            if view.talon is not None:
                assert x.talon == g.talon
            assert x.view(seat) == view
            drawn.add(tuple(x.hands[s] for s in hidden) + (x.talon,))
        if view.talon is None and hidden:  # hidden hand and talon drawn from 20 cards
            assert len(drawn) > 1
        g = g.apply(players[seat].decide(view))
        steps += 1


def test_before_the_talon_the_talon_is_drawn_from_the_unseen_cards() -> None:
    """In the show round, seat 1's view: the other two hands (17 each) and the talon (3) are drawn
    from its 37 unseen cards; every card of the deck is dealt once."""
    g = GameState.new(DOUBLE, seed=3, first=0)
    g = g.apply(Action(ActionKind.SHOW, 0, 1))
    view = g.view(1)
    x = sample_deal(view, random.Random(0))
    assert [len(h) for h in x.hands] == [17, 17, 17] and len(x.talon) == 3
    total = Cards((0,) * 15)
    for h in x.hands:
        total = total + h
    assert (total + x.talon).counts == DOUBLE.deck
    assert x.hands[1] == g.hands[1] and x.bids == g.bids and x.view(1) == view


def test_inferred_deals_agree_with_the_other_seats_bids() -> None:
    """In hebei deals played by level 2, at each kick decision: every deal ``infer_deal``
    returns before its last try is one on which level 2, holding the drawn hands, would have
    bid and kicked as the other seats did (replayed here from the deal's start); and the
    landlord's drawn hands are stronger on average than uniform draws (the bid 3 tells)."""
    from ddzspec.players.level2 import hand_strength
    from ddzspec.players.level3 import infer_deal
    rules = load_rules("hebei")
    l2 = player_for(2)
    inferred: list[float] = []
    uniform: list[float] = []
    for seed in range(6):
        for g, seat, view in _bidding_turns(rules, seed):
            if g.phase is Phase.DOUBLING and g.landlord != seat:
                rng = random.Random(seed)
                for _ in range(3):
                    x, draws = infer_deal(view, rng, 50)
                    assert x.view(seat) == view
                    start = x.start
                    assert start.hands is not None
                    y = GameState.new(rules, hands=start.hands, talon=start.talon,
                                      first=start.first)
                    for a in x.bids:
                        if a.seat != seat and draws < 50:
                            assert l2.decide(y.view(a.seat)) == a
                        y = y.apply(a)
                    ll = x.landlord
                    assert ll is not None
                    inferred.append(hand_strength(x.hands[ll].counts, rules))
                    uniform.append(hand_strength(sample_deal(view, rng).hands[ll].counts,
                                                 rules))
    assert len(inferred) >= 20
    assert sum(inferred) / len(inferred) > sum(uniform) / len(uniform)


def test_a_seat_without_cards_decides_as_level_2() -> None:
    """A round decided before the seat holds cards (nothing seen: a show stage before the
    deal) is not sampled: level 3 takes level 2's choice."""
    view = replace(_strong_landlord(DOUBLE).view(0), hand=EMPTY)
    with pytest.raises(ValueError, match="holds its cards"):
        sample_deal(view, random.Random(0))
    assert _l3(0).decide(view) == player_for(2).decide(view)


@pytest.mark.parametrize("name", ["happy", "hebei", "examples/blind.rules"])
def test_level_3_plays_a_deal_with_rounds(name: str) -> None:
    """Level 3 (a small step budget) in seat 0 against level 2 plays a deal to the end, every
    action legal, the rounds decided by rollouts."""
    rules = load_rules(name)
    g = GameState.new(rules, seed=11)
    players = [Level3(0, budget=30.0, steps_per_second=10), player_for(2), player_for(2)]
    while not g.over:
        seat = g.turn
        assert seat is not None
        a = players[seat].decide(g.view(seat))
        assert a in g.legal_actions()
        g = g.apply(a)
    assert g.result is not None and sum(g.result.scores) == 0
