"""A deal as a state machine, driven entirely by the rules file: shuffle and deal, bidding,
talon, trick play, win and scoring (seeds 000/002 classic, 003 duel, 004 kawu).

Entry points: :class:`GameState`, an immutable value (:meth:`GameState.new`;
:meth:`GameState.apply` validates an :class:`Action` and returns the next state, or raises a
specific :class:`~ddzspec.errors.GameError` subclass, importable from here too), and
:class:`Game`, a small mutable holder for front ends. What each submodule holds: docs/game.md.

>>> from ddzspec.rules import load_rules
>>> g = GameState.new(load_rules("classic"), seed=7)
>>> g.phase, g.turn, [len(h) for h in g.hands]
(<Phase.BIDDING: 'bidding'>, 2, [17, 17, 17])
>>> g2 = g.apply(Action.bid(2, 3))
>>> str(g2.phase), g2.landlord, len(g2.hands[2]), g2.base
('play', 2, 20, 3)
"""

from __future__ import annotations

from ..errors import (
                      BadSeatError,
                      CardsNotHeldError,
                      DoesNotBeatError,
                      GameError,
                      InvalidBidError,
                      LastPlayOnlyError,
                      LeaderMayNotPassError,
                      NotAMoveError,
                      NotationError,
                      OutOfTurnError,
                      RecordError,
                      WrongPhaseError,
)
from .actions import ACTION_KINDS, Action
from .dealing import Start, next_seat, shuffle_deal
from .enums import ActionKind, Phase, Role, Winner
from .scoring import Factor, Result
from .state import Game, GameState, accept_rules
from .views import SeatView

__all__ = ["ACTION_KINDS", "Action", "ActionKind", "BadSeatError", "CardsNotHeldError",
           "DoesNotBeatError", "Factor", "Game", "GameError", "GameState", "InvalidBidError",
           "LastPlayOnlyError", "LeaderMayNotPassError", "NotAMoveError", "NotationError",
           "OutOfTurnError", "Phase", "RecordError", "Result", "Role", "SeatView", "Start",
           "Winner", "WrongPhaseError", "accept_rules", "next_seat", "shuffle_deal"]
