"""Readings: what a played multiset *is* under a rules file, derived by constraint solving.

For each shape a small CSP (python-constraint2) is built over two variables with pre-pruned
domains — ``start`` (index of the body's lowest rank in the shape's rank sequence) and ``run``
(body length in ranks, only lengths whose card count matches) — with one named constraint for the
body fitting the cards, one for the kickers' form, and one per switched-on restriction. The
kickers are the remainder of the multiset. Exactly one solution over all shapes: the reading.
None: illegal (the restrictions that cut the near-miss readings say why). Several: ambiguous, a
defect of the rules file (seeds 000/002: "une pose n'a jamais qu'une seule lecture").

>>> from ddzspec.rules import load_rules
>>> rules = load_rules("classic")
>>> read("444455", rules).reading.shape
'four_two_singles'
>>> read("44445555", rules).legal
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from constraint import FunctionConstraint, Problem

from .cards import ALL_RANKS, N_RANKS, Cards, ParsedCards, parse_cards
from .restrictions import holds
from .rules import KIND_SIZE, KickerKind, Restriction, Rules, Shape
from .rules.model import kickers_in_line


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a move: its ``shape`` (type name), ``body`` and ``kickers`` (Cards),
    comparison ``key`` (the rules' strength of the body's highest rank), ``tier`` (0 ordinary,
    higher for bomb / rocket), ``size`` (cards) and ``run`` (body length in ranks).
    ``body_top`` is the rank index (0 … 14) of the body's highest rank. ``chain``: under a
    declared chain order, the body's ranks in that order (written so: ``A2345``, not ``345A2``);
    empty otherwise. It follows from the rest, so it is no part of equality."""

    shape: str
    tier: int
    body: Cards
    kickers: Cards
    key: int
    size: int
    run: int
    kicker_kind: KickerKind | None
    body_top: int = 0
    chain: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @property
    def cards(self) -> Cards:
        """The whole multiset played."""
        return self.body + self.kickers

    def units(self) -> list[Cards]:
        """Kicker units, low to high: singles or pairs."""
        if self.kicker_kind is None:
            return []
        k = KIND_SIZE[self.kicker_kind]
        out = []
        for i, c in enumerate(self.kickers.counts):
            for _ in range(c // k):
                v = [0] * N_RANKS
                v[i] = k
                out.append(Cards(tuple(v)))
        return out

    def format(self, notation: str = "en", split_units: bool = False) -> str:
        """Canonical notation, body then kickers: ``333444+57`` (or ``333444+5+7``)."""
        body = self.body_text(notation)
        if not len(self.kickers):
            return body
        if split_units:
            return "+".join([body] + [u.format(notation) for u in self.units()])
        return body + "+" + self.kickers.format(notation)

    def body_text(self, notation: str = "en") -> str:
        """The body in ``notation``, low to high; a body of a declared chain order in that
        order (``A2345``)."""
        if not self.chain:
            return self.body.format(notation)
        return Cards.format_in_order(self.chain, self.body.counts[self.chain[0]], notation)

    def __str__(self) -> str:
        return self.format()

    def describe(self, notation: str = "en") -> str:
        """``four_two_singles 4444+5+5`` — type then the split into body and kicker units."""
        return f"{self.shape} {self.format(notation, split_units=True)}"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A structural candidate (shape, start, run) with the restrictions it violates."""

    reading: Reading
    violated: tuple[Restriction, ...]


def make_reading(rules: Rules, shape: Shape, counts: Sequence[int], start: int,
                 run: int) -> Reading:
    """Build the Reading of ``counts`` as ``shape`` with body ``seq[start:start+run]``."""
    body = [0] * N_RANKS
    for i in shape.seq[start:start + run]:
        body[i] = shape.copies
    kick = tuple(c - b for c, b in zip(counts, body))
    top = shape.seq[start + run - 1]
    return Reading(shape.name, shape.tier, Cards(tuple(body)), Cards(kick),
                   shape.height(rules.strength, start, run), shape.size(run), run,
                   shape.kicker_kind, top, shape.chain(start, run))


def _structure(shape: Shape, counts: Sequence[int]):  # type: ignore[no-untyped-def]
    """The two structural constraints of a shape over (start, run)."""
    seq, copies = shape.seq, shape.copies
    k = KIND_SIZE.get(shape.kicker_kind or "", 1)

    def body_fits(start: int, run: int) -> bool:
        if start + run > len(seq):
            return False
        return all(counts[i] >= copies for i in seq[start:start + run])

    def kickers_form(start: int, run: int) -> bool:
        if k == 1 and not shape.kickers_consecutive:
            return True
        body = seq[start:start + run]
        rem = [c - (copies if i in body else 0) for i, c in enumerate(counts)]
        if any(c % k for c in rem):
            return False
        return not shape.kickers_consecutive or kickers_in_line(shape, rem)

    return body_fits, kickers_form


def _restriction_constraint(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int]):  # type: ignore[no-untyped-def]
    seq, copies = shape.seq, shape.copies

    def constraint(start: int, run: int) -> bool:
        body = seq[start:start + run]
        rem = [c - (copies if i in body else 0) for i, c in enumerate(counts)]
        return holds(r, rules, shape, counts, body, rem)

    constraint.__name__ = r.name
    return constraint


def _domains(shape: Shape, counts: Sequence[int], n: int) -> tuple[list[int], list[int]]:
    runs = [L for L in range(shape.run_min, shape.run_max + 1) if shape.size(L) == n]
    if not runs:
        return [], []
    places = shape.starts(1)  # every place a body may start (a longer run fits or not)
    starts = [i for i in places if counts[shape.seq[i]] >= shape.copies]
    return runs, starts


def solve_readings(counts: Sequence[int], rules: Rules,
                   restrictions: Sequence[Restriction] | None = None) -> list[Reading]:
    """All readings of a multiset (15 counts) under ``rules`` by CSP; ``restrictions`` defaults
    to the rules' own. An empty list: illegal; more than one: ambiguous."""
    n = sum(counts)
    if n == 0 or n > rules.max_cards:
        return []
    active = rules.restrictions if restrictions is None else restrictions
    out: list[Reading] = []
    for shape in rules.shapes:
        runs, starts = _domains(shape, counts, n)
        if not runs or not starts:
            continue
        p = Problem()
        p.addVariable("run", runs)
        p.addVariable("start", starts)
        for c in _structure(shape, counts):
            p.addConstraint(FunctionConstraint(c), ["start", "run"])
        for r in active:
            if not r.binds(shape.name):
                continue
            p.addConstraint(FunctionConstraint(_restriction_constraint(r, rules, shape, counts)),
                            ["start", "run"])
        for sol in sorted(p.getSolutions(), key=lambda s: (s["run"], s["start"])):
            out.append(make_reading(rules, shape, counts, sol["start"], sol["run"]))
    return out


def candidates(counts: Sequence[int], rules: Rules) -> list[Candidate]:
    """Every structural reading (restrictions lifted), each with the restrictions it violates."""
    out = []
    for reading in solve_readings(counts, rules, restrictions=()):
        shape = rules.shape(reading.shape)
        body = [i for i, c in enumerate(reading.body.counts) if c]
        violated = tuple(r for r in rules.restrictions
                         if not holds(r, rules, shape, counts, body, reading.kickers.counts))
        out.append(Candidate(reading, violated))
    return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of reading one multiset: ``reading`` when legal, else ``readings`` (several:
    ambiguous) or ``reason`` (illegal). ``parsed`` keeps the writer's split."""

    cards: Cards
    readings: tuple[Reading, ...]
    reason: str | None
    parsed: ParsedCards | None = None

    @property
    def legal(self) -> bool:
        return len(self.readings) == 1

    @property
    def ambiguous(self) -> bool:
        return len(self.readings) > 1

    @property
    def reading(self) -> Reading:
        """The unique reading; raises IllegalMoveError / AmbiguousReadingError otherwise."""
        from .errors import AmbiguousReadingError, IllegalMoveError
        if len(self.readings) == 1:
            return self.readings[0]
        if self.readings:
            raise AmbiguousReadingError(str(self.cards), [r.describe() for r in self.readings])
        raise IllegalMoveError(str(self.cards), self.reason or "no reading")


def illegal_reason(counts: Sequence[int], rules: Rules, notation: str = "en") -> str:
    """Why a multiset has no reading: the near-miss readings and the restrictions that cut them,
    or that no shape has this pattern / size."""
    n = sum(counts)
    if n > rules.max_cards:
        return f"{n} cards: more than the largest hand ({rules.max_cards})"
    near = [c for c in candidates(counts, rules) if c.violated]
    if not near:
        return f"matches no combination of {rules.label} ({n} card{'s' if n != 1 else ''})"
    parts = [f"{c.reading.shape} {c.reading.format(notation, split_units=True)} is ruled out by "
             + ", ".join(str(r.name) for r in c.violated) for c in near]
    return "; ".join(parts)


def read(move: str | Cards, rules: Rules, notation: str = "en") -> Verdict:
    """Read a move (notation string or Cards) under ``rules``.

    Raises NotationError on a bad string (including more copies than the deck holds and ranks
    the deck lacks). Returns a :class:`Verdict` (legal, illegal with reason, or ambiguous).
    """
    parsed = None
    if isinstance(move, str):
        parsed = parse_cards(move, notation, deck=rules.deck)
        cards = parsed.cards
    else:
        cards = move
    readings = tuple(solve_readings(cards.counts, rules))
    reason = None if readings else illegal_reason(cards.counts, rules, notation)
    return Verdict(cards, readings, reason, parsed)


def beats(play: Reading, previous: Reading, notation: str = "en") -> tuple[bool, str]:
    """Whether ``play`` beats ``previous``, and why (seeds 000/002, "Il n'existe que deux
    exceptions"): the same type and card count with a higher body; a higher tier (bomb, rocket)
    beats every lower tier; within a tier above 0, the same shape compares by body.

    Returns (bool, reason in plain words, ranks in ``notation``).

    >>> from ddzspec.rules import load_rules
    >>> rules = load_rules("classic")
    >>> beats(read("KKK+3", rules).reading, read("QQQ+R", rules).reading)
    (True, 'same type and length, higher body (K over Q; kickers never count)')
    """
    if play.tier != previous.tier:
        if play.tier > previous.tier:
            return True, f"a {play.shape} beats any {previous.shape}"
        return False, f"a {play.shape} never beats a {previous.shape}"
    if play.shape != previous.shape:
        return False, (f"different types: {play.shape} against {previous.shape} "
                       "(only the same type with the same number of cards compares)")
    if play.size != previous.size:
        return False, (f"different lengths: {play.size} cards against {previous.size} "
                       f"(a {play.shape} must have the same number of cards)")
    if play.key > previous.key:
        return True, (f"same type and length, higher body ({_top(play, notation)} over "
                      f"{_top(previous, notation)}; kickers never count)")
    if play.key == previous.key:
        return False, f"same body height ({_top(play, notation)}): a move must be strictly higher"
    return False, f"lower body ({_top(play, notation)} under {_top(previous, notation)})"


def _top(r: Reading, notation: str = "en") -> str:
    """Symbol of the body's highest rank (the one whose strength is ``r.key``)."""
    return ALL_RANKS[r.body_top].symbol(notation)
