"""The game engine: see :mod:`ddzspec.game.state` (the deal as a state machine) and
:mod:`ddzspec.game.record` (records)."""
from .state import *  # noqa: F403
from .state import __all__  # noqa: F401
