"""A deal in play as a solver position (ddzspec/players/endgame.py, ``position_of``: the one
place a GameState becomes one; level 3 and puzzle generation use it): the shown hands, the
table's multiplier and each peasant's own factor carried through."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddzspec.cards import Cards, Rank
from ddzspec.game import Action, GameState
from ddzspec.game.enums import ActionKind
from ddzspec.players.endgame import position_of
from ddzspec.rules import load_rules
from ddzspec.solver import parse_position


def _choice(kind: ActionKind, seat: int | None, values: list[int]) -> int:
    """The scripted choices of the deal below."""
    if kind is ActionKind.SHOW:
        return max(values) if seat == 2 else 1
    if kind is ActionKind.DOUBLE:
        return {0: 2, 2: 4}.get(seat or 0, 1)
    if kind is ActionKind.CALL:
        return 0 if seat == 2 else 1
    return 0  # nobody robs


def test_a_happy_deal_keeps_its_shown_hand_and_its_pair_factor() -> None:
    # seat 2 shows before the deal (happy: x5) and declines to call; seat 0 calls and is the
    # landlord (seat 1 does not rob); in the doubling round the landlord doubles (x2, the
    # whole table), seat 2 super-doubles (x4, its own settlement), seat 1 does not
    g = GameState.new(load_rules("happy"), seed=6, first=1)
    while g.phase != "play":
        acts = g.legal_actions()
        value = _choice(acts[0].kind, g.turn, [a.value for a in acts])
        g = g.apply(next(a for a in acts if a.value == value))
    assert g.landlord == 0 and g.shown == (2,)
    pos = position_of(g)
    # seats from the landlord in play order: seat 0 landlord, seat 1 peasant1, seat 2 peasant2
    assert pos.hands == g.hands
    assert pos.multiplier == 5 * 2  # the show before the deal and the landlord's double
    assert pos.pairs == (1, 1, 4)  # seat 2's super double, its own settlement only
    assert pos.shown == (2,)  # peasant2
    assert (pos.landlord_plays, pos.peasants_played) == (0, False)
    assert "shown peasant2\n" in pos.format() and "pair peasant2: 4\n" in pos.format()
    assert parse_position(pos.format()) == pos


# ----------------------------------------------------------------------------- laizi (issue 26)

#: The straight each seat holds (3 to A, 12 cards).
STRAIGHT = "3456789TJQKA"


def _laizi_endgame() -> GameState:
    """A laizi deal with the 2s wild, scripted to a 9-card endgame with peasant2 (seat 2) to
    lead. Dealt: landlord (seat 0) 34567 + the straight, talon 8AR; peasant1 (seat 1) 9T222 +
    the straight; peasant2 (seat 2) J2BKQ + the straight. The landlord bids 3, leads 34567 and
    its straight (both passed) and the single 8; peasant1 takes it with the 9, leads its
    straight (passed) and the T; peasant2 takes it with the J and leads its straight (passed).
    Left: landlord A R (its talon cards, so public), peasant1 222, peasant2 2BKQ."""
    g = GameState.new(load_rules("laizi"), hands=[Cards.parse(STRAIGHT + "34567"),
                                                   Cards.parse(STRAIGHT + "9T222"),
                                                   Cards.parse(STRAIGHT + "J2BKQ")],
                      talon="8AR", first=0, wild=["2"])
    script = [Action.bid(0, 3), Action.play(0, "34567"), Action.pass_(1), Action.pass_(2),
              Action.play(0, STRAIGHT), Action.pass_(1), Action.pass_(2),
              Action.play(0, "8"), Action.play(1, "9"), Action.pass_(2), Action.pass_(0),
              Action.play(1, STRAIGHT), Action.pass_(2), Action.pass_(0),
              Action.play(1, "T"), Action.play(2, "J"), Action.pass_(0), Action.pass_(1),
              Action.play(2, STRAIGHT), Action.pass_(0), Action.pass_(1)]
    for a in script:
        g = g.apply(a)
    return g


def test_a_laizi_deal_is_posed_with_its_wild_rank_and_the_reading_on_the_table() -> None:
    g = _laizi_endgame()
    assert (g.turn, g.last) == (2, None)
    assert list(g.hands) == [Cards.parse("AR"), Cards.parse("222"), Cards.parse("2BKQ")]
    pos = position_of(g)
    assert pos.wild == Rank.TWO.index and pos.on_table is None
    # peasant2 leads K + a wild 2, which reads as the pair KK
    g = g.apply(Action.play(2, "K2"))
    pos = position_of(g)
    assert pos.wild == Rank.TWO.index
    assert (pos.on_table, pos.on_table_as) == (Cards.parse("K2"), Cards.parse("KK"))
    assert pos.played_by == 2 and "wild 2\n" in pos.format()  # peasant2, third in play order
    assert parse_position(pos.format()) == pos


def test_level_3_plays_the_solvers_winning_pair_in_a_laizi_endgame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand-worked (the 2s wild): landlord A R, peasant1 222, peasant2 2BKQ to lead.
    Any single loses: the landlord answers it with R and goes out with its A. A pair it cannot
    answer (A and R make none): peasant2 leads K2 (the pair KK) or Q2 (QQ), peasant1 takes it
    with 22 (two wild cards as themselves) and leads its last 2; the landlord must spend R or
    peasant1 is out, then its A falls to peasant2's B and peasant2's last card goes out. 2B is
    no pair (a wild card never stands for a joker). So the winning moves are exactly K2 and
    Q2; level 2 leads the single K (its plan's lowest play), level 3 asks the solver on each
    sampled deal (the landlord's R is a talon card, public; its other card and peasant1's three
    are drawn from A222), every sample with the wild rank."""
    from ddzspec.players import endgame, level3, player_for
    g = _laizi_endgame()
    wins: frozenset[Cards | None] = frozenset({Cards.parse("K2"), Cards.parse("Q2")})
    assert endgame.winning_plays(g, 60.0) == wins
    view = g.view(2)
    assert player_for(2).decide(view) == Action.play(2, "K")
    asked: list[tuple[int, ...]] = []
    real = endgame.winning_plays

    def spy(state: GameState, seconds: float) -> frozenset[Cards | None] | None:
        asked.append(state.wild)
        return real(state, seconds)
    monkeypatch.setattr(endgame, "winning_plays", spy)
    a = level3.Level3(seed=1, budget=30.0).decide(view)
    assert a.kind == "play" and a.cards in wins
    assert asked and set(asked) == {(Rank.TWO.index,)}


def test_level_3_solves_laizi_but_not_a_declared_reading() -> None:
    """Level 3 asks the solver under laizi (``reading strongest``: the held cards fix the
    reading) but not under ``reading declared``, where a winning move's stated reading would
    be lost in the held cards: rollouts to the last card there."""
    from ddzspec.players.endgame import warm_up
    assert warm_up(load_rules("laizi")) is True
    declared = str(Path(__file__).parents[2] / "examples" / "laizi-declared.rules")
    assert warm_up(load_rules(declared)) is False
