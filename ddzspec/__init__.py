"""ddzspec: the rules of Dou Dizhu and its variants as a declarative spec."""
from .cards import Cards, Rank, parse_cards
from .errors import (AmbiguousReadingError, DdzError, GameError, IllegalMoveError,
                     NotationError, RulesError)

__version__ = "0.1.0"
__all__ = ["Cards", "Rank", "parse_cards", "AmbiguousReadingError", "DdzError", "GameError",
           "IllegalMoveError", "NotationError", "RulesError", "__version__"]
