"""Computer players at three levels (seed 003), deciding from a seat's view only.

``player_for(level, seed)`` builds one; see :mod:`ddzspec.players.base` for the
:class:`Player` protocol, :mod:`ddzspec.players.levels` for the levels,
:mod:`ddzspec.players.arena` for duplicate-deal matches with confidence intervals.
"""

from .base import Player
from .levels import LEVELS, player_for

__all__ = ["LEVELS", "Player", "player_for"]
