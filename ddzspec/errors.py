"""The error kinds of ddzspec. All are ``ValueError`` subclasses (as python-chess does).

- :class:`NotationError` — a card string that cannot be read (unknown symbol, too many copies,
  a rank the variant's deck lacks), with the 1-based column and a caret under the offending text.
- :class:`RulesError` — a rules file that cannot be loaded, with file:line:column.
- :class:`IllegalMoveError` — a multiset that is no legal move, with the reason.
- :class:`AmbiguousReadingError` — a multiset with several readings: a defect of the rules file.
- :class:`GameError` — an action a game state rejects, with one subclass per kind of fault
  (:class:`WrongPhaseError`, :class:`OutOfTurnError`, :class:`BadSeatError`,
  :class:`InvalidBidError`, :class:`CardsNotHeldError`, :class:`NotAMoveError`,
  :class:`DoesNotBeatError`, :class:`LeaderMayNotPassError`).
- :class:`RecordError` — a deal record that cannot be read, or whose rules cannot be reproduced
  exactly.
- :class:`PuzzleError` — a puzzle or a puzzle-game action that cannot be done (unknown puzzle,
  bad side, a move that is not the human's, not held or not legal), saying what and where.
"""

from __future__ import annotations

from collections.abc import Callable


class DdzError(ValueError):
    """Base class of every ddzspec error."""


class NotationError(DdzError):
    """A card string that cannot be read.

    Attributes: ``text`` (the input), ``column`` (1-based, or None), ``offending`` (the text at
    fault). ``str(err)`` quotes the input with a caret under the column.
    """

    def __init__(self, message: str, text: str = "", column: int | None = None,
                 offending: str = "") -> None:
        self.message = message
        self.text = text
        self.column = column
        self.offending = offending
        super().__init__(self._render())

    def _render(self) -> str:
        if self.column is None:
            return f"{self.message}: {shorten(self.text)!r}" if self.text else self.message
        shown, at = excerpt(self.text, self.column - 1)
        caret = " " * at + "^"
        return f"column {self.column}: {self.message}\n  {shown}\n  {caret}"

    def one_line(self) -> str:
        """The message on one line, the input quoted after it (cut around the column when
        long), for where a caret cannot be lined up (a web page)."""
        if self.column is None:
            return str(self)
        shown = excerpt(self.text, self.column - 1)[0]
        return f"column {self.column}: {self.message} (in {shown!r})"


#: An input echoed in an error message is cut to about this many characters (around the
#: error's column, with "…" where it is cut).
SHOWN_CHARS = 60


def excerpt(text: str, at: int, width: int = SHOWN_CHARS) -> tuple[str, int]:
    """``text`` as an error message quotes it, and where the 0-based offset ``at`` falls in
    that quote: the whole text up to ``width`` characters, else ``width`` characters around
    ``at`` with "…" at each end that is cut.

    >>> excerpt("3" * 100 + "X", 100, 20)
    ('…3333333333333333333X', 20)
    """
    if len(text) <= width:
        return text, at
    start = max(0, min(at - width // 2, len(text) - width))
    shown = text[start:start + width]
    offset = at - start
    if start > 0:
        shown, offset = "…" + shown, offset + 1
    if start + width < len(text):
        shown += "…"
    return shown, offset


def shorten(text: str, width: int = SHOWN_CHARS) -> str:
    """``text`` cut to ``width`` characters with "…" (as an error message quotes an input)."""
    return text if len(text) <= width else text[:width] + "…"


class RulesError(DdzError):
    """A rules file that cannot be loaded: ``file:line:column: message``."""

    def __init__(self, message: str, path: str = "<rules>", line: int | None = None,
                 column: int | None = None) -> None:
        self.message = message
        self.path = path
        self.line = line
        self.column = column
        where = path if line is None else f"{path}:{line}:{column or 1}"
        super().__init__(f"{where}: {message}")


class IllegalMoveError(DdzError):
    """A multiset that is no legal move under the rules; ``reason`` says why."""

    def __init__(self, cards: str, reason: str) -> None:
        self.cards = cards
        self.reason = reason
        super().__init__(f"{cards}: illegal: {reason}")


class AmbiguousReadingError(DdzError):
    """A multiset with several readings (a defect of the rules file); ``readings`` lists them."""

    def __init__(self, cards: str, readings: list[str]) -> None:
        self.cards = cards
        self.readings = readings
        super().__init__(f"{cards}: ambiguous, {len(readings)} readings: " + "; ".join(readings))


class GameError(DdzError):
    """An action the game rejects; the state is left exactly as it was. :meth:`text` is the
    message with its cards in a chosen notation (the message itself is in English notation)."""

    def __init__(self, message: str, render: Callable[[str], str] | None = None) -> None:
        self._render = render
        super().__init__(message)

    def text(self, notation: str = "en") -> str:
        """The message with its cards written in ``notation`` ("en", "fr", "de")."""
        return self._render(notation) if self._render is not None else str(self)



class WrongPhaseError(GameError):
    """An action that does not belong to the deal's current phase (a play during the bidding,
    a bid after it, anything once the deal is over)."""


class OutOfTurnError(GameError):
    """A seat acting when it is not its turn."""


class InvalidBidError(GameError):
    """A bid the auction does not allow (not one of the rules' bids, or not strictly above the
    current bid — seeds 000/002/004), or a call/rob out of place (seed 003)."""


class CardsNotHeldError(GameError):
    """Playing cards the seat does not hold."""


class NotAMoveError(GameError):
    """Cards that form no legal move under the rules (none at all, no combination, or several
    readings); ``reason`` says why in plain words."""

    def __init__(self, message: str, reason: str) -> None:
        self.reason = reason
        super().__init__(message)


class LastPlayOnlyError(NotAMoveError):
    """A move of a last-play-only shape (``trio = 3 x 1 last_play``: "a bare trio only as the
    last play", a house rule) that would not empty the seat's hand."""


class DoesNotBeatError(GameError):
    """A legal move that does not beat the trick's last move; ``reason`` says why (different
    types, lower body, …)."""

    def __init__(self, message: str, reason: str,
                 render: Callable[[str], str] | None = None) -> None:
        self.reason = reason
        super().__init__(message, render)


class LeaderMayNotPassError(GameError):
    """The leader of a trick passing (seeds 000/002: "celui qui entame un tour n'a pas le droit
    de passer")."""


class BadSeatError(GameError):
    """A seat number outside 0 … players−1."""


class RecordError(DdzError):
    """A deal record that cannot be read, does not follow the format, or whose rules cannot be
    reproduced exactly (the message names the mismatch)."""


class PuzzleError(DdzError):
    """A puzzle that cannot be found or read, or an action a puzzle game rejects (a bad side,
    out of turn, game over, bad notation, cards not held, not a legal move, does not beat the
    move on the table, nothing to take back). The message says what and where; the game
    object is unchanged (it is immutable)."""


class DdzWarning(UserWarning):
    """Base class of every ddzspec warning."""


class CacheWarning(DdzWarning):
    """A cache file that was not trusted (foreign, corrupt, truncated, written for other rules or
    another version of the code): it is ignored and recomputed."""


class UnplayableRulesError(RulesError, GameError):
    """Rules that ``ddzspec check`` flags, refused by legal moves, the game and the solver with the
    same message (one policy everywhere, never a silent choice): ambiguous moves, a rank no shape
    plays as a lone card, or a shape no move can ever have. ``problems``: what is wrong, one line
    each; the message names the rules file, an example move with its readings and the
    ``ddzspec check`` command to run. A GameError too: a game cannot be started under such rules."""

    def __init__(self, message: str, path: str = "<rules>",
                 problems: tuple[str, ...] = ()) -> None:
        self.problems = problems
        super().__init__(message, path)
