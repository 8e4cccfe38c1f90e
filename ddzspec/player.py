"""The computer player of earlier versions, kept as a thin alias of level 2
(:mod:`ddzspec.players.level2`, the library's one heuristic): ``HeuristicPlayer(seat)
.choose(state)`` is ``Level2().decide(state.view(seat))``. New code uses
:func:`ddzspec.players.player_for`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Action, GameState
from .players.level2 import Level2

_LEVEL2 = Level2()


@dataclass(frozen=True, slots=True)
class HeuristicPlayer:
    """The level-2 player of one ``seat``; :meth:`choose` picks its action in a state from
    that seat's view only."""

    seat: int

    def choose(self, state: GameState) -> Action:
        """The action of this seat in ``state`` (it must be its turn), decided from
        ``state.view(seat)``. Raises ValueError when it is not this seat's turn."""
        if state.turn != self.seat:
            raise ValueError(f"not seat {self.seat}'s turn")
        return _LEVEL2.decide(state.view(self.seat))
