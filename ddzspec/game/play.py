"""Trick play, from the rules file's ``trick`` and ``win``: the transitions behind
:meth:`GameState.apply` for ``play`` and ``pass`` actions.

A trick closes after ``close_after`` passes in a row (classic 2, duel 1); the last player who
played leads next; the leader may not pass (seeds 000/002). A seat wins when, after its own
move, its cards left ≤ its target (landlord 0; duel peasant: the number of robs, seed 003).
Each shape listed in ``scoring.double`` (bomb, rocket) multiplies the multiplier by its factor
(2, or ``factor NAME N``), up to ``cap bombs`` plays (:func:`~ddzspec.game.scoring.shape_factor`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import (
    CardsNotHeldError,
    DoesNotBeatError,
    LastPlayOnlyError,
    LeaderMayNotPassError,
    NotAMoveError,
)
from ..moves import move_index
from ..readings import beats, read
from .actions import Action
from .dealing import next_seat
from .scoring import finish, shape_factor

if TYPE_CHECKING:
    from .state import GameState


def play_cards(state: GameState, a: Action, log: tuple[Action, ...]) -> GameState:
    """Play ``a.cards``. Raises NotAMoveError (no cards, or no single legal reading),
    LastPlayOnlyError (a last-play-only shape that would not empty the hand), CardsNotHeldError,
    DoesNotBeatError (these two also in any notation: ``e.text(n)``)."""
    cards = a.cards
    if cards is None or len(cards) == 0:
        raise NotAMoveError("a play needs cards (use pass to pass)", "no cards")
    hand = state.hands[a.seat]
    if not cards <= hand:
        def not_held(n: str) -> str:
            return (f"seat {a.seat} does not hold these cards: it needs "
                    f"{cards.shortfall(hand, n)} (hand {hand.format(n)})")
        raise CardsNotHeldError(not_held("en"), not_held)
    reading = move_index(state.rules).lookup(cards)
    if reading is None:
        v = read(cards, state.rules)
        why = v.reason or "ambiguous: " + "; ".join(r.describe() for r in v.readings)
        raise NotAMoveError(f"{cards} is not a legal move: {why}", why)
    if cards != hand and state.rules.shape(reading.shape).last_play:
        why = (f"a {reading.shape} is played only as a hand's last play (house rule), and seat "
               f"{a.seat} would keep {len(hand) - len(cards)} card(s)")
        raise LastPlayOnlyError(f"{reading.describe()}: {why}", why)
    if state.last is not None:
        last = state.last[1]
        ok, why = beats(reading, last)
        if not ok:
            def not_beating(n: str) -> str:
                return (f"{reading.describe(n)} does not beat {last.describe(n)}: "
                        f"{beats(reading, last, n)[1]}")
            raise DoesNotBeatError(not_beating("en"), why, not_beating)
    s = a.seat
    hands = list(state.hands)
    hands[s] = hand - cards
    played = list(state.played)
    played[s] = played[s] + cards
    plays = list(state.plays)
    plays[s] += 1
    factors = state.factors
    factor = shape_factor(state, reading, s)
    if factor is not None:
        factors = factors + (factor,)
    trick = state.trick + ((s, reading),)
    st = replace(state, hands=tuple(hands), played=tuple(played), plays=tuple(plays),
                 factors=factors, last=(s, reading), passes=0, trick=trick, log=log,
                 turn=next_seat(state.rules, s))
    if len(hands[s]) <= st.target(s):
        return finish(st, s)
    return st


def pass_turn(state: GameState, a: Action, log: tuple[Action, ...]) -> GameState:
    """Pass; the ``close_after``-th pass in a row closes the trick and the last player who
    played leads. Raises LeaderMayNotPassError."""
    if state.last is None:
        raise LeaderMayNotPassError(f"seat {a.seat} leads this trick and may not pass")
    passes = state.passes + 1
    trick = state.trick + ((a.seat, None),)
    if passes >= state.rules.trick.close_after:
        lead = state.last[0]
        return replace(state, passes=0, last=None, trick=(), tricks=state.tricks + 1,
                       leader=lead, turn=lead, log=log)
    return replace(state, passes=passes, trick=trick, turn=next_seat(state.rules, a.seat),
                   log=log)


__all__ = ["pass_turn", "play_cards"]
