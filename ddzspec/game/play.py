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

from ..cards import Cards
from ..errors import (
    CardsNotHeldError,
    DoesNotBeatError,
    LastPlayOnlyError,
    LeaderMayNotPassError,
    NotAMoveError,
)
from ..moves import move_index
from ..readings import Reading, beats, read
from ..rules.model import ReadingPolicy
from ..wild import WildMove, WildReading, outranks, require_wild, violated, wild_readings
from ..wildmoves import choose, split_hand, wild_legal_moves
from .actions import Action
from .dealing import next_seat
from .enums import ActionKind
from .scoring import Factor, finish, shape_factor, wild_factor

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
    wild: WildReading | None = None
    if a.declared is not None and not state.wild:
        why = "a declared reading is stated only under wild rules"
        raise NotAMoveError(f"{cards} as {a.declared}: {why}", why)
    if state.wild:
        wild = wild_reading(state, a.seat, cards, a.declared)
        reading: Reading | None = wild.reading
    else:
        reading = move_index(state.rules).lookup(cards)
    if reading is None:
        v = read(cards, state.rules)
        why = v.reason or "ambiguous: " + "; ".join(r.describe() for r in v.readings)
        raise NotAMoveError(f"{cards} is not a legal move: {why}", why)
    if cards != hand and state.rules.shape(reading.shape).last_play:
        why = (f"a {reading.shape} is played only as a hand's last play (house rule), and seat "
               f"{a.seat} would keep {len(hand) - len(cards)} card(s)")
        raise LastPlayOnlyError(f"{reading.describe()}: {why}", why)
    if state.last is not None and wild is None:
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
    factor: Factor | None = shape_factor(state, reading, s) if wild is None else \
        wild_factor(state, wild, WildMove(*split_hand(cards, state.wild[0]), state.wild[0]), s)
    if factor is not None:
        factors = factors + (factor,)
    trick = state.trick + ((s, reading),)
    st = replace(state, hands=tuple(hands), played=tuple(played), plays=tuple(plays),
                 factors=factors, last=(s, reading), passes=0, trick=trick, log=log,
                 turn=next_seat(state.rules, s), last_wild=wild)
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
                       leader=lead, turn=lead, log=log, last_wild=None)
    return replace(state, passes=passes, trick=trick, turn=next_seat(state.rules, a.seat),
                   log=log)


def wild_reading(state: GameState, seat: int, cards: Cards,
                 declared: Cards | None = None) -> WildReading:
    """The reading of ``seat`` playing ``cards`` (held) under wild rules: every card of the
    drawn rank is wild; the readings of :func:`ddzspec.wild.wild_readings` that the wild
    restrictions keep (a last-play-only shape only when the play empties the hand), then the
    file's policy (:func:`ddzspec.wildmoves.choose`). ``strongest``: answering, the reading of
    the trick's type and size with the highest body that beats it, else the strongest bomb;
    leading, the type first in the priority; a ``declared`` reading (the cards the play makes)
    must be that one. ``declared`` (issue 26; ratel-online/server, where the player names the
    intended ranks): the reading the player states, which the cards must make, the
    restrictions keep and, answering, that beats the trick (:func:`ddzspec.wild.outranks`);
    none stated, the play must have exactly one such reading. Raises NotAMoveError (no reading,
    a stated reading the cards cannot make or the policy does not take, several readings and
    none stated: they are listed), DoesNotBeatError (no reading, or not the stated one, beats
    the play to beat)."""
    wild = require_wild(state.rules)
    move, readings = _readings(state, seat, cards)
    kept = choose(wild, readings)
    if declared is not None and wild.policy is ReadingPolicy.DECLARED:
        return _stated(state, move, readings, declared)
    if not kept:
        why = "no reading under the rules, whatever rank (but a joker) each wild card stands " \
            "for"
        raise NotAMoveError(f"{move.format()} is not a legal move: {why}", why)
    prev = state.last_wild
    got = kept if prev is None else choose(wild, readings, prev)
    if not got:
        last = prev
        assert last is not None

        def not_beating(n: str) -> str:
            return (f"{move.format(n)} ({kept[0].describe(n)}) does not beat "
                    f"{last.describe(n)}: no reading of it does")
        raise DoesNotBeatError(not_beating("en"), "no reading of it beats the play to beat",
                               not_beating)
    if len(got) > 1:  # reading declared, none stated
        context = "that beat the play to beat" if prev else "to lead with"
        why = (f"{len(got)} readings {context}; state "
               f"which ({move.format()}={got[0].reading.cards.format()}): "
               + "; ".join(r.describe() for r in got))
        raise NotAMoveError(f"{move.format()}: {why}", why)
    if declared is not None and declared != got[0].reading.cards:
        why = (f"reading strongest takes {got[0].describe()} "
               f"{'answering this trick' if prev else 'leading'}, not {declared}")
        raise NotAMoveError(f"{move.format()} as {declared}: {why}", why)
    return got[0]


def _readings(state: GameState, seat: int, cards: Cards) -> tuple[WildMove, list[WildReading]]:
    """``cards`` (held by ``seat``) as a wild move, and its readings before the policy: those
    of :func:`ddzspec.wild.wild_readings`, a last-play-only shape only when the play empties
    the hand."""
    rules = state.rules
    rank = state.wild[0]
    natural, wilds = split_hand(cards, rank)
    empties = cards == state.hands[seat]
    return WildMove(natural, wilds, rank), [
        r for r in wild_readings(natural, wilds, rank, rules)
        if empties or not rules.shape(r.reading.shape).last_play]


def wild_choices(state: GameState, seat: int, cards: Cards) -> tuple[WildReading, ...]:
    """The readings ``seat`` may play ``cards`` (held) as now, under wild rules: those the
    wild restrictions keep that lead, or beat the play to beat, under the file's policy
    (:func:`ddzspec.wildmoves.choose`; ``strongest``: at most one; ``declared``: every one,
    the player states which). Empty when the cards are no play here."""
    return choose(require_wild(state.rules), _readings(state, seat, cards)[1], state.last_wild)


def _stated(state: GameState, move: WildMove, readings: list[WildReading],
            declared: Cards) -> WildReading:
    """The reading ``declared`` (the cards ``move`` makes) under ``reading declared``: one of
    ``readings`` (those the play may have), kept by the wild restrictions and, answering,
    beating the play to beat. Raises NotAMoveError (LastPlayOnlyError: a last-play-only shape
    that would not empty the hand), DoesNotBeatError."""
    wild = require_wild(state.rules)
    said = f"{move.format()} as {declared}"
    r = next((r for r in readings if r.reading.cards == declared), None)
    if r is None and any(x.reading.cards == declared for x in
                         wild_readings(move.natural, move.wilds, move.rank, state.rules)):
        why = (f"{declared} reads as a shape played only as a hand's last play (house rule), "
               "and this play would not empty the hand")
        raise LastPlayOnlyError(f"{said}: {why}", why)
    if r is None:
        why = (f"the cards cannot make {declared} under the rules (readings: "
               + ("; ".join(r.describe() for r in readings) or "none") + ")")
        raise NotAMoveError(f"{said}: {why}", why)
    cut = violated(wild, r)
    if cut:
        why = "ruled out by " + ", ".join(map(str, cut))
        raise NotAMoveError(f"{said}: {why}", why)
    last = state.last_wild
    if last is not None and not outranks(wild, r, last):
        chosen = r

        def not_beating(n: str) -> str:
            return f"{move.format(n)} ({chosen.describe(n)}) does not beat {last.describe(n)}"
        raise DoesNotBeatError(not_beating("en"), "the stated reading does not beat the play "
                               "to beat", not_beating)
    return r


def wild_actions(state: GameState) -> list[Action]:
    """Every play the seat on turn may make under wild rules, in the hint's order
    (:func:`ddzspec.wildmoves.wild_legal_moves`), as actions (the wild cards as cards of the
    drawn rank); under ``reading declared`` one per (play, reading), the reading stated."""
    assert state.turn is not None
    declared = require_wild(state.rules).policy is ReadingPolicy.DECLARED
    return [Action(ActionKind.PLAY, state.turn, 0, p.move.cards,
                   p.reading.reading.cards if declared else None) for p in
            wild_legal_moves(state.hands[state.turn], state.wild[0], state.rules,
                             state.last_wild)]


__all__ = ["pass_turn", "play_cards", "wild_actions", "wild_choices", "wild_reading"]
