"""A deal in play as a solver position (ddzspec/players/endgame.py, ``position_of``: the one
place a GameState becomes one; level 3 and puzzle generation use it): the shown hands, the
table's multiplier and each peasant's own factor carried through."""

from __future__ import annotations

from ddzspec.game import GameState
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
