"""A deal in play as a solver position (ddzspec/players/endgame.py, ``position_of``: the one
place a GameState becomes one; level 3 and puzzle generation use it): the shown hands, the
table's multiplier and each peasant's own factor carried through."""

from __future__ import annotations

from ddzspec.game import GameState
from ddzspec.game.enums import ActionKind
from ddzspec.players.endgame import position_of
from ddzspec.rules import load_rules
from ddzspec.solver import parse_position


def test_a_happy_deal_keeps_its_shown_hand_and_its_pair_factor() -> None:
    # seat 2 shows (x2), seat 1 calls and is the landlord (nobody robs); in the doubling round
    # the landlord doubles (x2, the whole table), seat 2 super-doubles (x4, its own pair)
    g = GameState.new(load_rules("happy"), seed=6, first=1)
    while g.phase != "play":
        kind, seat = g.legal_actions()[0].kind, g.turn
        value = ({2: 2}.get(seat, 1) if kind is ActionKind.SHOW
                 else {1: 2, 2: 4}.get(seat, 1) if kind is ActionKind.DOUBLE
                 else 1 if kind is ActionKind.CALL else 0)  # seat 1, asked first, calls
        g = g.apply(next(a for a in g.legal_actions() if a.value == value))
    assert g.landlord == 1 and g.shown == (2,)
    pos = position_of(g)
    # seats from the landlord in play order: seat 1 landlord, seat 2 peasant1, seat 0 peasant2
    assert pos.hands == (g.hands[1], g.hands[2], g.hands[0])
    assert pos.multiplier == 2 * 2  # the show and the landlord's double
    assert pos.pairs == (1, 4, 1)  # seat 2's super double, its own settlement only
    assert pos.shown == (1,)  # peasant1, seat 2
    assert (pos.landlord_plays, pos.peasants_played) == (0, False)
    assert "shown peasant1\n" in pos.format() and "pair peasant1: 4\n" in pos.format()
    assert parse_position(pos.format()) == pos
