"""Computer players at three levels (seed 003), deciding from a seat's view only.

``player_for(level, seed)`` builds one; see :mod:`ddzspec.players.base` for the
:class:`Player` protocol and the levels, :mod:`ddzspec.players.arena` for duplicate-deal
matches with confidence intervals.
"""

from .base import LEVELS, Player, player_for

__all__ = ["LEVELS", "Player", "player_for"]
