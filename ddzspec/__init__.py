"""ddzspec: the rules of Dou Dizhu and its variants as a declarative spec.

The everyday names are importable from the package root, as python-chess does; each is loaded
from its module on first use, so ``import ddzspec`` stays cheap (the error classes only):

>>> from ddzspec import Cards, GameState, legal_moves, load_rules, read
>>> rules = load_rules("classic")
>>> read("444455", rules).reading.describe()
'four_two_singles 4444+5+5'
>>> [m.format() for m in legal_moves("773", "6", rules)]
['7']

The rules of each variant are rules files (built in: classic, kawu, duel, duel-literal, happy,
hebei, laizi, tiandi; seeds 000/002 classic, 003 duel, 004 kawu; the others from public rule
pages); a
bad card is a located NotationError (:mod:`ddzspec.cards` shows one); the endgame solver is
:mod:`ddzspec.solver`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import (
    AmbiguousReadingError,
    DdzError,
    GameError,
    IllegalMoveError,
    NotationError,
    RulesError,
)

__version__ = "0.1.0"

#: Names loaded on first use: name → module.
_LAZY = {
    "Cards": "ddzspec.cards", "Rank": "ddzspec.cards", "parse_cards": "ddzspec.cards",
    "Rules": "ddzspec.rules", "load_rules": "ddzspec.rules", "load_rules_text": "ddzspec.rules",
    "builtin_rules": "ddzspec.rules",
    "Reading": "ddzspec.readings", "Verdict": "ddzspec.readings", "read": "ddzspec.readings",
    "beats": "ddzspec.readings",
    "LegalMoves": "ddzspec.moves", "legal_moves": "ddzspec.moves",
    "Action": "ddzspec.game", "GameState": "ddzspec.game",
}

__all__ = ["Action", "AmbiguousReadingError", "Cards", "DdzError", "GameError", "GameState",
           "IllegalMoveError", "LegalMoves", "NotationError", "Rank", "Reading", "Rules",
           "RulesError", "Verdict", "__version__", "beats", "builtin_rules", "legal_moves",
           "load_rules", "load_rules_text", "parse_cards", "read"]

if TYPE_CHECKING:  # what type checkers and editors see; at run time: __getattr__
    from .cards import Cards, Rank, parse_cards
    from .game import Action, GameState
    from .moves import LegalMoves, legal_moves
    from .readings import Reading, Verdict, beats, read
    from .rules import Rules, builtin_rules, load_rules, load_rules_text


def __getattr__(name: str) -> Any:
    """Load one of the root names (:data:`__all__`) from its module on first use.

    Raises AttributeError for any other name, as a module does."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ddzspec' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
