"""Scoring: the factors of the multiplier (:class:`Factor`), the end of a deal — spring,
anti-spring and settlement — and its :class:`Result` (seeds 000/002 classic, 003 duel, 004
kawu; the caps, the talon's patterns and factors other than 2: Happy Dou Dizhu's rule pages).

``scoring`` in the rules file: ``base`` (the bid or a number); every shape / event listed in
``double`` multiplies the multiplier by 2, in ``factor NAME N`` by N (bomb, rocket, each rob,
spring, anti-spring; four + kickers never); ``talon`` patterns multiply by the highest factor
the talon matches when the landlord takes it; ``cap bombs N``: plays of a multiplying shape
beyond the N-th are itemised but do not multiply; ``per_peasant``: each peasant settles base ×
its pair's multiplier with the landlord (classic landlord ±2S, each peasant ∓S; duel ±S), its
pair's multiplier being the table's factors times the factors of that pair alone
(:attr:`Factor.pair`: a peasant's own doubling), at most ``cap multiplier N``. Always
zero-sum.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..cards import Cards, parse_cards
from ..rules import Rules, TalonFactor, TalonPattern
from ..rules.model import around, chain_starts
from ..rules.stakes import pair_multiplier, play_counts, points
from .enums import Phase, Winner

if TYPE_CHECKING:
    from ..readings import Reading
    from ..wild import WildMove, WildReading
    from .state import GameState


@dataclass(frozen=True, slots=True)
class Factor:
    """One factor of the multiplier: ``kind`` (a shape name such as bomb / rocket, or rob,
    spring, anti_spring, ``talon_PATTERN``), ``times`` (2, or the rules' factor), the ``seat``
    that caused it and the ``cards`` played (canonical English notation; the talon's for a
    talon pattern). ``pair``: None when it multiplies the whole table, else the peasant seat
    whose settlement with the landlord alone it multiplies (a peasant's own doubling). ``cut``:
    beyond ``cap bombs`` — itemised, it does not multiply."""

    kind: str
    times: int = 2
    seat: int | None = None
    cards: str | None = None
    pair: int | None = None
    cut: bool = False

    def cards_in(self, notation: str = "en") -> str | None:
        """The cards played, in ``notation`` (None when there are none: rob, spring)."""
        if self.cards is None or notation == "en":
            return self.cards
        parsed = parse_cards(self.cards, wild=True)  # a wild play's ``777*``
        return parsed.cards.format(notation) + "*" * len(parsed.wilds)

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """``{"kind", "times"}`` plus ``"seat"`` and ``"cards"`` (in ``notation``; records
        keep English) when known, ``"pair"`` and ``"cut": true`` when set."""
        d: dict[str, Any] = {"kind": self.kind, "times": self.times}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.cards is not None:
            d["cards"] = self.cards_in(notation)
        if self.pair is not None:
            d["pair"] = self.pair
        if self.cut:
            d["cut"] = True
        return d

    def words(self, notation: str = "en") -> str:
        """``×2 bomb 3333 (seat 1)``, and what it applies to or why it does not count."""
        what = self.kind.replace("_", "-")
        if self.cards:
            what += " " + str(self.cards_in(notation))
        if self.seat is not None:
            what += f" (seat {self.seat})"
        if self.pair is not None:
            what += f" (seat {self.pair}'s settlement only)"
        if self.cut:
            what += " (beyond the bombs cap: not counted)"
        return f"×{self.times} {what}"

    def applies_to(self, pair: int | None) -> bool:
        """Whether it belongs to the settlement of the peasant ``pair`` (the table's factors
        and that pair's own; with ``pair`` None, the table's only), counted or ``cut``."""
        return self.pair is None or self.pair == pair


def multiplier_of(factors: Iterable[Factor], cap: int | None = None,
                  pair: int | None = None) -> int:
    """The product of the factors' ``times`` (1 for none) that count: not ``cut``, and of the
    whole table or (with ``pair``) of that peasant's settlement; at most ``cap`` when given."""
    m = 1
    for f in factors:
        if not f.cut and f.applies_to(pair):
            m *= f.times
    return pair_multiplier(m, cap)


def own_factor(factors: Iterable[Factor], seat: int) -> int:
    """The product of the factors of ``seat``'s settlement alone (:attr:`Factor.pair`: a
    peasant's own doubling) that count; 1 when none."""
    return multiplier_of([f for f in factors if f.pair is not None], pair=seat)


def counted_plays(state: GameState) -> int:
    """The plays of a multiplying shape that have multiplied so far (towards ``cap bombs``:
    not ``cut``)."""
    names = {s.name for s in state.rules.shapes} | set(class_kinds(state.rules))
    return sum(1 for f in state.factors if f.kind in names and not f.cut)


def shape_factor(state: GameState, reading: Reading, seat: int) -> Factor | None:
    """The factor of ``seat`` playing ``reading`` (None when its shape does not multiply),
    ``cut`` when ``cap bombs N`` plays of a multiplying shape have already counted."""
    sc = state.rules.scoring
    times = sc.factor(reading.shape)
    if times == 1:
        return None
    return Factor(reading.shape, times, seat, reading.format(),
                  cut=not play_counts(counted_plays(state), sc.cap_bombs))


def class_kinds(rules: Rules) -> tuple[str, ...]:
    """The factor kinds of the wild bomb's classes (``soft_bomb``, ``hard_bomb``,
    ``pure_bomb``, and ``long_bomb`` with bombs of several lengths); empty for rules without
    wild cards."""
    w = rules.wild
    if w is None:
        return ()
    return tuple(f"{c.value}_{w.bomb}" for c, _ in w.factors) + (
        (f"long_{w.bomb}",) if w.lengths else ())


def wild_factor(state: GameState, r: WildReading, move: WildMove, seat: int) -> Factor | None:
    """The factor of ``seat`` playing ``move`` read as ``r`` under wild rules: a reading of the
    wild ``bomb`` shape multiplies by its class's factor (``factor soft 2 hard 4 pure 4`` in
    laizi.rules, Baidu Baike's laizi article), itemised as ``soft_bomb 777*``; a bomb longer
    than the shortest length by ``factor … long N`` (tiandi.rules), as ``long_bomb``; any other
    shape as :func:`shape_factor` says. ``cut`` beyond ``cap bombs`` as there."""
    w = state.rules.wild
    if w is None or r.bomb_class is None:
        return shape_factor(state, r.reading, seat)
    times = w.factor(r.bomb_class, r.reading.size)
    if times == 1:
        return None
    long = bool(w.lengths) and r.reading.size > w.lengths[0]
    kind = f"long_{w.bomb}" if long else f"{r.bomb_class.value}_{w.bomb}"
    return Factor(kind, times, seat, move.format(),
                  cut=not play_counts(counted_plays(state), state.rules.scoring.cap_bombs))


def talon_matches(rules: Rules, talon: Cards, pattern: TalonFactor) -> bool:
    """Whether ``talon`` has ``pattern``: a joker (of the rank given) in it, every joker of the
    deck (rocket), two or three cards of one rank (of the rank given: ``pair of 2``), or only
    cards of distinct ranks, consecutive in group ``chain`` (straight)."""
    counts = talon.counts
    jokers = [i for i in rules.jokers if rules.deck[i]]
    p, rank = pattern.pattern, pattern.rank
    if p is TalonPattern.JOKER:
        return any(counts[i] for i in ([rank] if rank is not None else jokers))
    if p is TalonPattern.ROCKET:
        return bool(jokers) and all(counts[i] for i in jokers)
    if p in (TalonPattern.PAIR, TalonPattern.TRIO):
        need = 2 if p is TalonPattern.PAIR else 3
        return any(c >= need for i, c in enumerate(counts) if rank is None or i == rank)
    chain = dict(rules.groups).get("chain", ())
    held = [i for i, c in enumerate(counts) if c]
    if len(held) < 2 or any(counts[i] > 1 or i not in chain for i in held):
        return False
    # a run of consecutive places of the chain holding exactly these ranks (a declared
    # sequence may hold a rank at both ends: A 2 3 … K A, so QKA and A23 both match; one
    # that wraps goes round: K A 2 and A 2 3 under sequence 3 .. 2 wraps)
    n, want = len(held), set(held)
    wraps = "chain" in rules.wrapping
    seq = around(chain) if wraps else chain
    return any(set(seq[s:s + n]) == want for s in chain_starts(seq, n, wraps))


def talon_factor(rules: Rules, talon: Cards) -> Factor | None:
    """The factor of the talon the landlord takes: the highest of the rules' ``talon``
    patterns it matches (the first listed among equals), None when it matches none."""
    best: TalonFactor | None = None
    for pattern in rules.scoring.talon:
        if talon_matches(rules, talon, pattern) and (best is None or pattern.times > best.times):
            best = pattern
    if best is None:
        return None
    return Factor(f"talon_{best.pattern.value}", best.times, None, talon.format())


@dataclass(frozen=True, slots=True)
class PairStake:
    """One peasant's settlement with the landlord when factors of one pair exist: its
    ``seat``, the ``multiplier`` it settles at and, when ``cap multiplier`` cut it, the
    product before the cap (``uncapped``)."""

    seat: int
    multiplier: int
    uncapped: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "multiplier"}`` plus ``"uncapped"`` when the cap cut it."""
        d: dict[str, Any] = {"seat": self.seat, "multiplier": self.multiplier}
        if self.uncapped is not None:
            d["uncapped"] = self.uncapped
        return d


def pair_stakes(factors: tuple[Factor, ...], landlord: int, players: int,
                cap: int | None) -> tuple[PairStake, ...]:
    """Each peasant's settlement with the landlord, in seat order: the multiplier it settles
    at (the table's factors times its own, at most ``cap``) and, when the cap cut it, the
    product before the cap. The one computation behind :func:`settle` and what a seat sees of
    its own settlements (:func:`ddzspec.game.views.seat_stakes`)."""
    out = []
    for p in range(players):
        if p != landlord:
            raw = multiplier_of(factors, pair=p)
            mult = pair_multiplier(raw, cap)
            out.append(PairStake(p, mult, raw if mult != raw else None))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Result:
    """How a deal ended. ``winner``: :class:`Winner` (landlord or peasants); ``out_seat``: the
    seat that reached its target; ``base`` × ``multiplier`` (the product of the table's
    ``factors`` that count, at most the cap) = ``stake`` (S, points); ``scores``: points per
    seat (sum 0); ``spring`` / ``anti_spring`` flags. ``uncapped``: the table's product when
    ``cap multiplier`` cut it (else None); ``pairs``: each peasant's own multiplier, when some
    factor belongs to one pair (else empty: every peasant settles S)."""

    winner: Winner
    out_seat: int
    landlord: int
    base: int
    multiplier: int
    factors: tuple[Factor, ...]
    scores: tuple[int, ...]
    spring: bool
    anti_spring: bool
    uncapped: int | None = None
    pairs: tuple[PairStake, ...] = ()

    @property
    def stake(self) -> int:
        """S = base × multiplier."""
        return self.base * self.multiplier

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """``{"winner", "out_seat", "landlord", "base", "multiplier", "stake", "factors",
        "scores": {seat: points}, "spring", "anti_spring"}`` (seats as strings, JSON keys;
        the factors' cards in ``notation``: a record keeps English), plus ``"uncapped"`` when
        the cap cut the multiplier and ``"pairs"`` when a pair settles at its own multiplier."""
        d = {"winner": self.winner.value, "out_seat": self.out_seat,
             "landlord": self.landlord, "base": self.base, "multiplier": self.multiplier,
             "stake": self.stake, "factors": [f.to_json(notation) for f in self.factors],
             "scores": {str(s): p for s, p in enumerate(self.scores)},
             "spring": self.spring, "anti_spring": self.anti_spring}
        if self.uncapped is not None:
            d["uncapped"] = self.uncapped
        if self.pairs:
            d["pairs"] = [p.to_json() for p in self.pairs]
        return d


def settle(base: int, landlord: int, players: int, landlord_wins: bool,
           factors: tuple[Factor, ...], cap: int | None
           ) -> tuple[tuple[int, ...], int, int | None, tuple[PairStake, ...]]:
    """``per_peasant`` settlement: each peasant settles base × its pair's multiplier (the
    table's factors times its own, at most ``cap``) with the landlord, who gets or pays the
    sum (zero-sum). Returns the scores, the table's multiplier (capped), its product when the
    cap cut it, and the pairs' stakes when some factor belongs to one pair."""
    stakes = pair_stakes(factors, landlord, players, cap)
    mults = [0] * players
    for p in stakes:
        mults[p.seat] = p.multiplier
    scores = points(base, landlord, landlord_wins, mults)
    own = any(f.pair is not None for f in factors)
    table = multiplier_of(factors)
    capped = pair_multiplier(table, cap)
    return scores, capped, (table if capped != table else None), stakes if own else ()


def finish(state: GameState, seat: int) -> GameState:
    """``seat`` reached its target: the deal ends. Spring (the landlord goes out while no
    peasant has played a card) and anti-spring (a peasant goes out while the landlord has
    played only the opening lead) multiply when the rules list them (seeds 000/002); then
    ``per_peasant`` settlement (:func:`settle`): each peasant settles S = base × multiplier
    with the landlord, the multiplier of its own pair when some factor belongs to one."""
    assert state.landlord is not None and state.base is not None
    ll = state.landlord
    landlord_wins = seat == ll
    peasants = [s for s in range(state.players) if s != ll]
    spring = landlord_wins and all(state.plays[s] == 0 for s in peasants)
    anti = not landlord_wins and state.plays[ll] == 1
    factors = state.factors
    sc = state.rules.scoring
    if spring and "spring" in sc.double:
        factors = factors + (Factor("spring", sc.factor("spring")),)
    if anti and "anti_spring" in sc.double:
        factors = factors + (Factor("anti_spring", sc.factor("anti_spring")),)
    scores, mult, uncapped, pairs = settle(state.base, ll, state.players, landlord_wins,
                                           factors, sc.cap_multiplier)
    res = Result(Winner.LANDLORD if landlord_wins else Winner.PEASANTS, seat, ll, state.base,
                 mult, factors, scores, spring, anti, uncapped, pairs)
    return replace(state, factors=factors, result=res, phase=Phase.OVER, turn=None)

__all__ = ["Factor", "PairStake", "Result", "class_kinds", "counted_plays", "finish",
           "multiplier_of", "own_factor", "pair_stakes", "settle", "shape_factor", "talon_factor",
           "talon_matches", "wild_factor"]
