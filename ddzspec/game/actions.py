"""One action of a deal (:class:`Action`) and its JSON form, as a record stores it.

An action is a frozen value built by its kind: :meth:`Action.bid` (an auction's bid, 0 a
pass), :meth:`Action.call` and :meth:`Action.rob` (call-and-rob), :meth:`Action.play` (cards)
and :meth:`Action.pass_`. :meth:`Action.to_json` and :meth:`Action.from_json` give and read
the record's form (``{"seat": 0, "play": "333+4"}``); :func:`json_text` shows a JSON value in
one short line for messages.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Cards, parse_cards
from ..errors import GameError
from .enums import ActionKind

ACTION_KINDS: tuple[ActionKind, ...] = tuple(ActionKind)
#: The kinds of a round's choice (``value``: the factor chosen).
ROUND_KINDS = (ActionKind.DOUBLE, ActionKind.SHOW, ActionKind.BLIND)


def json_text(value: Any, limit: int = 60) -> str:
    """``value`` as JSON text for an error message (``"yes"``, ``[5]``, ``null``), cut to
    ``limit`` characters; a value JSON cannot write (a Python object, an integer too long to
    write) is named by its type. Never raises."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return f"a Python {type(value).__name__}"
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _yes_no(kind: ActionKind, yes: object) -> int:
    """1 for true, 0 for false: ``yes`` is a bool or the int 1 or 0, else GameError."""
    if isinstance(yes, int) and yes in (0, 1):
        return int(yes)
    raise GameError(f"{kind} is true or false, not {json_text(yes)}")


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a deal. ``kind`` (:class:`ActionKind`; a plain word such as ``"play"``
    is turned into its member): ``bid`` (auction; ``value`` 0 = pass, else the bid), ``call`` /
    ``rob`` (call_rob; ``value`` 1 = yes, 0 = no), ``double`` / ``show`` / ``blind`` (a round;
    ``value``: the factor chosen), ``play`` (``cards``; ``declared``: under ``reading
    declared``, the reading the player states as the cards the play makes, its wild cards
    substituted, or None), ``pass`` (a trick pass).
    Build with the class methods; JSON with :meth:`to_json` / :meth:`from_json`. Raises
    GameError for an unknown kind or ``cards`` that are neither a :class:`Cards` nor None (a
    bad ``seat`` or ``value`` is refused by :meth:`GameState.apply`: BadSeatError,
    InvalidBidError, GameError).

    >>> Action.bid(0, 2).to_json(), Action.rob(1, False).to_json()
    ({'seat': 0, 'bid': 2}, {'seat': 1, 'rob': False})
    >>> Action("dance", 0)
    Traceback (most recent call last):
    ...
    ddzspec.errors.GameError: unknown action kind 'dance' (bid, call, rob, play, pass, ...)
    """

    kind: ActionKind
    seat: int
    value: int = 0
    cards: Cards | None = None
    declared: Cards | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.kind, ActionKind):
            try:
                object.__setattr__(self, "kind", ActionKind(self.kind))
            except ValueError:
                raise GameError(f"unknown action kind {self.kind!r} "
                                f"({', '.join(ACTION_KINDS)})") from None
        if self.cards is not None and not isinstance(self.cards, Cards):
            raise GameError(f"an action's cards are Cards, not {json_text(self.cards)} "
                            "(Action.play(seat, \"33\") reads notation)")
        if self.declared is not None and (not isinstance(self.declared, Cards)
                                          or self.kind is not ActionKind.PLAY):
            raise GameError("a declared reading is the Cards a play makes "
                            "(Action.play(seat, \"3337\", \"3333\"))")

    @classmethod
    def bid(cls, seat: int, value: int) -> Action:
        """An auction bid (``value`` 0: pass)."""
        return cls(ActionKind.BID, seat, value)

    @classmethod
    def call(cls, seat: int, yes: bool = True) -> Action:
        """Call the landlord (or not) in call_rob bidding. Raises GameError unless ``yes`` is
        true or false (or 1 or 0)."""
        return cls(ActionKind.CALL, seat, _yes_no(ActionKind.CALL, yes))

    @classmethod
    def rob(cls, seat: int, yes: bool = True) -> Action:
        """Rob (or decline to rob) in call_rob bidding. Raises GameError unless ``yes`` is
        true or false (or 1 or 0)."""
        return cls(ActionKind.ROB, seat, _yes_no(ActionKind.ROB, yes))

    @classmethod
    def double(cls, seat: int, times: int) -> Action:
        """A doubling round's choice: the factor ``times`` (1: no double), one of the round's
        choices (checked by :meth:`GameState.apply`)."""
        return cls(ActionKind.DOUBLE, seat, times)

    @classmethod
    def show(cls, seat: int, times: int) -> Action:
        """A show-cards round's choice: the factor ``times`` (1: keep the hand hidden; above
        1: show it), one of the round's choices (checked by :meth:`GameState.apply`)."""
        return cls(ActionKind.SHOW, seat, times)

    @classmethod
    def play(cls, seat: int, cards: Cards | str, declared: Cards | str | None = None) -> Action:
        """Play cards (Cards or English notation); ``declared`` (wild rules, ``reading
        declared``): the cards the play makes, its wild cards standing for the ranks the player
        states (``Action.play(0, "3337", "3333")`` with 7 wild: a soft bomb of 3s). Raises
        NotationError."""
        if isinstance(cards, str):
            cards = parse_cards(cards).cards
        if isinstance(declared, str):
            declared = parse_cards(declared).cards
        return cls(ActionKind.PLAY, seat, 0, cards, declared)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        """Pass in trick play."""
        return cls(ActionKind.PASS, seat)

    def to_json(self) -> dict[str, Any]:
        """``{"seat": 0, "bid": 2}``, ``{"seat": 1, "call": true}``, ``{"seat": 0, "rob": false}``,
        ``{"seat": 2, "play": "333+4"}``, ``{"seat": 1, "pass": true}``; a declared reading as
        ``"as"``: ``{"seat": 0, "play": "3337", "as": "3333"}``."""
        kind = self.kind.value
        if self.kind in (ActionKind.BID, *ROUND_KINDS):
            return {"seat": self.seat, kind: self.value}
        if self.kind in (ActionKind.CALL, ActionKind.ROB):
            return {"seat": self.seat, kind: bool(self.value)}
        if self.kind is ActionKind.PLAY:
            assert self.cards is not None
            return {"seat": self.seat, kind: self.cards.format("en"),
                    **({"as": self.declared.format("en")} if self.declared is not None else {})}
        return {"seat": self.seat, kind: True}

    @classmethod
    def from_json(cls, obj: Any, deck: Sequence[int] | None = None,
                  wild: int | None = None) -> Action:
        """Inverse of :meth:`to_json`. ``deck``: the variant's copies per rank, to reject ranks
        it lacks. ``wild``: the deal's wild rank (rank index), under which a ``*`` in a play
        is a card of that rank, as the game's transcript writes it (``KK**``: KKQQ when Q is
        wild; a record writes the cards held); None: ``*`` is an error. Raises GameError on a
        malformed object (the offending value quoted as JSON), NotationError on bad cards."""
        if not isinstance(obj, dict):
            raise GameError(f"an action is a JSON object, not {json_text(obj)}")
        seat = obj.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise GameError(f"an action needs an integer \"seat\", not {json_text(seat)}"
                            if "seat" in obj else "an action needs an integer \"seat\"")
        kinds = [k for k in ACTION_KINDS if k.value in obj]
        extra = 1 if "as" in obj and kinds == [ActionKind.PLAY] else 0
        if len(kinds) != 1 or len(obj) != 2 + extra:
            raise GameError(f"an action has a seat and exactly one of "
                            f"{', '.join(ACTION_KINDS)}")
        kind = kinds[0]
        v = obj[kind.value]
        if kind is ActionKind.BID:
            if not isinstance(v, int) or isinstance(v, bool):
                raise GameError(f"\"bid\" is an integer (0: pass), not {json_text(v)}")
            return cls.bid(seat, v)
        if kind in ROUND_KINDS:
            if not isinstance(v, int) or isinstance(v, bool):
                raise GameError(f"\"{kind}\" is an integer (the factor chosen, 1: no), "
                                f"not {json_text(v)}")
            return cls(kind, seat, v)
        if kind in (ActionKind.CALL, ActionKind.ROB):
            if not isinstance(v, bool):
                raise GameError(f"\"{kind}\" is true or false, not {json_text(v)}")
            return cls(kind, seat, int(v))
        if kind is ActionKind.PLAY:
            if not isinstance(v, str):
                raise GameError(f"\"play\" takes cards in notation (a string), not "
                                f"{json_text(v)}")
            as_ = obj.get("as")
            if extra and not isinstance(as_, str):
                raise GameError(f"\"as\" (a declared reading) takes cards in notation (a "
                                f"string), not {json_text(as_)}")
            held = parse_cards(v, deck=deck, wild=wild is not None)
            cards = held.cards
            if held.wilds and wild is not None:
                cards += Cards(tuple(len(held.wilds) if r == wild else 0
                                     for r in range(len(cards.counts))))
            return cls(kind, seat, 0, cards,
                       parse_cards(as_, deck=deck).cards if isinstance(as_, str) else None)
        if v is not True:
            raise GameError(f"\"pass\" is true, not {json_text(v)}")
        return cls.pass_(seat)

    def __str__(self) -> str:
        who = f"seat {self.seat}"
        if self.kind is ActionKind.BID:
            return f"{who} {'passes' if self.value == 0 else f'bids {self.value}'}"
        if self.kind is ActionKind.CALL:
            return f"{who} {'calls' if self.value else 'does not call'}"
        if self.kind is ActionKind.ROB:
            return f"{who} {'robs' if self.value else 'does not rob'}"
        if self.kind is ActionKind.PLAY:
            as_ = f" as {self.declared}" if self.declared is not None else ""
            return f"{who} plays {self.cards}{as_}"
        if self.kind is ActionKind.DOUBLE:
            return f"{who} {'does not double' if self.value == 1 else f'doubles x{self.value}'}"
        if self.kind is ActionKind.SHOW:
            return f"{who} {'does not show' if self.value == 1 else f'shows x{self.value}'}"
        if self.kind is ActionKind.BLIND:
            return f"{who} " + ("does not go blind" if self.value == 1
                                else f"goes blind x{self.value}")
        return f"{who} passes"


__all__ = ["ACTION_KINDS", "ROUND_KINDS", "Action", "ActionKind", "json_text"]
