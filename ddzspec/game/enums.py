"""The words of a deal as enums: :class:`Phase`, :class:`Role`, :class:`Winner` and
:class:`ActionKind`.

Each is a ``str`` enum: a member *is* its word (``Phase.PLAY == "play"``, same hash), prints as
the word (``f"{Phase.PLAY}"`` is ``play``) and goes into JSON as the word, so records and JSON
output keep their vocabulary while the code compares members, not strings.

>>> Phase("play") is Phase.PLAY, str(Winner.PEASANTS), ActionKind.PASS == "pass"
(True, 'peasants', True)
"""

from __future__ import annotations

from enum import StrEnum


class Word(StrEnum):
    """Base of the deal's enums: a ``str`` whose ``str()``, format and hash are its value."""


class Phase(Word):
    """The phase of a deal: the rounds the rules declare (``round show``, ``round blind``,
    ``round double``), bidding (auction or call-and-rob), trick play, over."""

    SHOWING = "showing"
    BIDDING = "bidding"
    BLIND = "blind"
    DOUBLING = "doubling"
    PLAY = "play"
    OVER = "over"


class Role(Word):
    """A seat's role once the bidding is over (seeds 000/002/003/004)."""

    LANDLORD = "landlord"
    PEASANT = "peasant"


class Winner(Word):
    """Who won a deal: the landlord, or the peasants (one side, even with one peasant: duel)."""

    LANDLORD = "landlord"
    PEASANTS = "peasants"


class ActionKind(Word):
    """The kind of an :class:`~ddzspec.game.Action`: ``bid`` (auction), ``call`` / ``rob``
    (call-and-rob, seed 003), ``double``, ``show`` and ``blind`` (a round's choice: its
    factor), ``play`` (cards) and ``pass`` (in trick play)."""

    BID = "bid"
    CALL = "call"
    ROB = "rob"
    PLAY = "play"
    PASS = "pass"
    DOUBLE = "double"
    SHOW = "show"
    BLIND = "blind"


__all__ = ["ActionKind", "Phase", "Role", "Winner", "Word"]
