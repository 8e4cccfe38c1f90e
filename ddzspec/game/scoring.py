"""Scoring: the doubling factors (:class:`Factor`), the end of a deal — spring, anti-spring and
settlement — and its :class:`Result` (seeds 000/002 classic, 003 duel, 004 kawu).

``scoring`` in the rules file: ``base`` (the bid or a number); every shape / event listed in
``double`` doubles the multiplier (bomb, rocket, each rob, spring, anti-spring; four + kickers
never); ``per_peasant``: each peasant settles base × multiplier with the landlord (classic
landlord ±2S, each peasant ∓S; duel ±S). Always zero-sum.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..cards import parse_cards
from ..rules import Scope
from .enums import Phase, Winner

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True, slots=True)
class Factor:
    """One doubling of the multiplier: ``kind`` (a shape name such as bomb / rocket, or rob,
    spring, anti_spring, a round's choice), ``times`` (2), the ``seat`` that caused it, the
    ``cards`` played (canonical English notation) and its ``scope`` (:class:`Scope`: a
    peasant's doubling-round factor under ``scope pair`` is meant for its own settlement with
    the landlord; settlement applies every factor to the whole table for now)."""

    kind: str
    times: int = 2
    seat: int | None = None
    cards: str | None = None
    scope: Scope = Scope.TABLE

    def cards_in(self, notation: str = "en") -> str | None:
        """The cards played, in ``notation`` (None when there are none: rob, spring)."""
        if self.cards is None or notation == "en":
            return self.cards
        return parse_cards(self.cards).cards.format(notation)

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """``{"kind", "times"}`` plus ``"seat"`` and ``"cards"`` (in ``notation``; records
        keep English) when known."""
        d: dict[str, Any] = {"kind": self.kind, "times": self.times}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.cards is not None:
            d["cards"] = self.cards_in(notation)
        if self.scope is not Scope.TABLE:
            d["scope"] = self.scope.value
        return d


def multiplier_of(factors: Iterable[Factor]) -> int:
    """The product of the factors' ``times`` (1 for none)."""
    m = 1
    for f in factors:
        m *= f.times
    return m


@dataclass(frozen=True, slots=True)
class Result:
    """How a deal ended. ``winner``: :class:`Winner` (landlord or peasants); ``out_seat``: the
    seat that reached its target; ``base`` × ``multiplier`` (product of ``factors``) = ``stake``
    (S, points); ``scores``: points per seat (sum 0); ``spring`` / ``anti_spring`` flags."""

    winner: Winner
    out_seat: int
    landlord: int
    base: int
    multiplier: int
    factors: tuple[Factor, ...]
    scores: tuple[int, ...]
    spring: bool
    anti_spring: bool

    @property
    def stake(self) -> int:
        """S = base × multiplier."""
        return self.base * self.multiplier

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """``{"winner", "out_seat", "landlord", "base", "multiplier", "stake", "factors",
        "scores": {seat: points}, "spring", "anti_spring"}`` (seats as strings, JSON keys;
        the factors' cards in ``notation``: a record keeps English)."""
        return {"winner": self.winner.value, "out_seat": self.out_seat,
                "landlord": self.landlord, "base": self.base, "multiplier": self.multiplier,
                "stake": self.stake, "factors": [f.to_json(notation) for f in self.factors],
                "scores": {str(s): p for s, p in enumerate(self.scores)},
                "spring": self.spring, "anti_spring": self.anti_spring}


def finish(state: GameState, seat: int) -> GameState:
    """``seat`` reached its target: the deal ends. Spring (the landlord goes out while no
    peasant has played a card) and anti-spring (a peasant goes out while the landlord has
    played only the opening lead) double when the rules list them (seeds 000/002); then
    ``per_peasant`` settlement: each peasant settles S = base × multiplier with the landlord."""
    assert state.landlord is not None and state.base is not None
    ll = state.landlord
    landlord_wins = seat == ll
    peasants = [s for s in range(state.players) if s != ll]
    spring = landlord_wins and all(state.plays[s] == 0 for s in peasants)
    anti = not landlord_wins and state.plays[ll] == 1
    factors = state.factors
    dbl = state.rules.scoring.double
    if spring and "spring" in dbl:
        factors = factors + (Factor("spring", 2),)
    if anti and "anti_spring" in dbl:
        factors = factors + (Factor("anti_spring", 2),)
    mult = multiplier_of(factors)
    stake = state.base * mult
    sign = 1 if landlord_wins else -1
    scores = [0] * state.players
    for p in peasants:  # settle per_peasant: each peasant settles S with the landlord
        scores[p] = -sign * stake
        scores[ll] += sign * stake
    res = Result(Winner.LANDLORD if landlord_wins else Winner.PEASANTS, seat, ll, state.base,
                 mult, factors, tuple(scores), spring, anti)
    return replace(state, factors=factors, result=res, phase=Phase.OVER, turn=None)


__all__ = ["Factor", "Result", "finish", "multiplier_of"]
