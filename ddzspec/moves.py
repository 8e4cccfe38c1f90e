"""Legal moves (the seeds' *Hint*, 003/004): every move a hand can play, fast.

Everything comes from the compiled move table (:mod:`ddzspec.table`); nothing enumerates subsets
of a hand. Per rules file an index is built once:

- answers: the table's moves grouped by (shape, card count), sorted by comparison key, so that
  answering a move scans only the candidates of that type and length above its key (a bisect),
  plus the higher tiers (bombs, rocket); containment in the hand is one integer operation (4-bit
  packed counts with a guard bit per rank: no borrow means every rank is held);
- leads: per shape, every body (run start, run length) of the shape; for a hand, only the bodies
  it holds are extended by the kicker units its remaining rank counts allow, and each candidate is
  kept only if the table holds it with exactly that reading — so leads agree with the table.

Order (what a hint button cycles through, smallest useful first): by tier (ordinary moves, then
bombs, then the rocket), then by body height, then shape order of the rules file, card count and
the kickers' heights. A hand that holds four 7s may still play 777+x: restriction 2 limits what is
played, not what is held (seeds 000/002).

>>> from ddzspec.rules import load_rules
>>> rules = load_rules("classic")
>>> [m.format() for m in legal_moves("77773", rules=rules)]
['3', '7', '77', '777', '777+3', '7777']
>>> lm = legal_moves("77773", "666+5", rules=rules)
>>> [m.format() for m in lm], lm.can_pass
(['777+3', '7777'], True)
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from .cards import N_RANKS, Cards, parse_cards
from .errors import GameError, IllegalMoveError
from .readings import Reading
from .rules import KIND_SIZE, Rules, load_rules
from .table import MoveTable, get_table

_GUARD = sum(8 << (4 * i) for i in range(N_RANKS))


def pack4(counts: Sequence[int]) -> int:
    """Pack counts 4 bits per rank (values 0 … 7): the containment-test form."""
    key = 0
    for i, c in enumerate(counts):
        key |= c << (4 * i)
    return key


def contains(hand4: int, move4: int) -> bool:
    """Whether a hand holds a move, both packed by :func:`pack4` (the hand with guard bits:
    ``pack4(hand) | GUARD``). One subtraction: no rank borrows iff every guard bit survives."""
    return (hand4 - move4) & _GUARD == _GUARD


@dataclass(frozen=True, slots=True)
class LegalMoves:
    """The answer of :func:`legal_moves`: ``moves`` (Readings, hint order, no duplicates) and
    ``can_pass`` (True when answering a move; the leader of a trick may not pass, seeds 000/002).
    Iterating, ``len`` and indexing go over ``moves``."""

    moves: tuple[Reading, ...]
    can_pass: bool

    def __iter__(self) -> Iterator[Reading]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    @overload
    def __getitem__(self, i: int) -> Reading: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Reading, ...]: ...

    def __getitem__(self, i: int | slice) -> Reading | tuple[Reading, ...]:
        return self.moves[i]


class MoveIndex:
    """The per-rules index of a move table used by :func:`legal_moves`. Build with
    :func:`move_index` (memoised per rules digest)."""

    def __init__(self, table: MoveTable) -> None:
        rules = table.rules
        self.table = table
        self.rules = rules
        self.shape_index = {s.name: i for i, s in enumerate(rules.shapes)}
        strength = rules.strength
        items = []
        for key, entry in table.entries.items():
            r = table.lookup(key)
            assert r is not None
            kick = tuple(sorted(strength[i] for i, c in enumerate(r.kickers.counts)
                                for _ in range(c)))
            items.append(((r.tier, r.key, entry[0], r.size, kick), key, r))
        items.sort(key=lambda x: x[0])
        #: packed key → position in hint order
        self.rank: dict[int, int] = {key: n for n, (_, key, _) in enumerate(items)}
        self.reading: dict[int, Reading] = {key: r for _, key, r in items}
        self.four: dict[int, int] = {key: pack4(r.cards.counts) for _, key, r in items}
        by_type: dict[tuple[int, int], list[tuple[int, int, Reading]]] = {}
        tiered: list[tuple[int, int, Reading]] = []
        for (tier, k, si, size, _), key, r in items:
            by_type.setdefault((si, size), []).append((k, self.four[key], r))
            if tier > 0:
                tiered.append((tier, self.four[key], r))
        #: (shape index, size) → (sorted keys, [(move4, Reading)]) in hint order
        self.by_type = {t: ([k for k, _, _ in v], [(m, r) for _, m, r in v])
                        for t, v in by_type.items()}
        self.tiered = tiered  # hint order: by tier then key
        self.tiers = [t for t, _, _ in tiered]
        # leads: every body of every shape, as (shape index, start, run, body counts, units, k)
        self.bodies: list[tuple[int, int, int, tuple[tuple[int, int], ...], int, int, int]] = []
        for si, shape in enumerate(rules.shapes):
            k = KIND_SIZE.get(shape.kicker_kind or "", 1)
            for run in range(shape.run_min, shape.run_max + 1):
                if shape.size(run) > rules.max_cards:
                    continue
                for start in range(len(shape.seq) - run + 1):
                    body = tuple((i, shape.copies) for i in shape.seq[start:start + run])
                    if any(rules.deck[i] < c for i, c in body):
                        continue
                    base = sum(c << (3 * i) for i, c in body)
                    self.bodies.append((si, start, run, body, shape.units(run), k, base))

    def leads(self, counts: Sequence[int]) -> list[Reading]:
        """Every table move contained in a hand (15 counts), hint order."""
        entries = self.table.entries
        found: list[int] = []
        for si, start, run, body, units, k, base in self.bodies:
            ok = True
            for i, c in body:
                if counts[i] < c:
                    ok = False
                    break
            if not ok:
                continue
            entry = (si, start, run)
            if units == 0:
                if entries.get(base) == entry:
                    found.append(base)
                continue
            avail = list(counts)
            for i, c in body:
                avail[i] -= c
            ranks = [i for i in range(N_RANKS) if avail[i] >= k]
            _kickers(ranks, avail, k, units, 0, base, entries, entry, found)
        rank = self.rank
        found.sort(key=rank.__getitem__)
        reading = self.reading
        return [reading[key] for key in found]

    def answers(self, counts: Sequence[int], previous: Reading) -> list[Reading]:
        """Every table move contained in a hand that beats ``previous``, hint order."""
        hand4 = pack4(counts) | _GUARD
        out: list[Reading] = []
        si = self.shape_index.get(previous.shape)
        if si is not None:
            got = self.by_type.get((si, previous.size))
            if got is not None:
                keys, moves = got
                for m4, r in moves[bisect_right(keys, previous.key):]:
                    if (hand4 - m4) & _GUARD == _GUARD:
                        out.append(r)
        for m4, r in ((m, r) for _, m, r in
                      self.tiered[bisect_right(self.tiers, previous.tier):]):
            if (hand4 - m4) & _GUARD == _GUARD:
                out.append(r)
        return out


def _kickers(ranks: list[int], avail: list[int], k: int, left: int, pos: int, key: int,
             entries: dict[int, tuple[int, int, int]], entry: tuple[int, int, int],
             found: list[int]) -> None:
    """Extend ``key`` by ``left`` kicker units of ``k`` cards from ``ranks[pos:]``; keep the
    candidates the table reads as ``entry``."""
    if left == 0:
        if entries.get(key) == entry:
            found.append(key)
        return
    n = len(ranks)
    if pos >= n:
        return
    r = ranks[pos]
    most = min(left, avail[r] // k)
    shift = 3 * r
    for m in range(most, -1, -1):
        _kickers(ranks, avail, k, left - m, pos + 1, key + ((m * k) << shift), entries, entry,
                 found)


_INDEXES: dict[str, MoveIndex] = {}


def move_index(rules: Rules) -> MoveIndex:
    """The (memoised) :class:`MoveIndex` of ``rules``; compiles the move table if needed."""
    idx = _INDEXES.get(rules.digest)
    if idx is None:
        idx = MoveIndex(get_table(rules))
        _INDEXES[rules.digest] = idx
    return idx


def _cards(x: str | Cards, rules: Rules, what: str) -> Cards:
    if isinstance(x, Cards):
        return x
    return parse_cards(x, "en", deck=rules.deck).cards


def to_reading(move: str | Cards | Reading, rules: Rules) -> Reading:
    """The Reading of a move (notation, Cards or Reading) from the table.
    Raises IllegalMoveError when it is no legal move, NotationError on bad notation."""
    if isinstance(move, Reading):
        return move
    cards = _cards(move, rules, "move")
    r = move_index(rules).table.lookup(cards)
    if r is None:
        from .readings import read
        v = read(cards, rules)
        raise IllegalMoveError(str(cards), v.reason or "ambiguous")
    return r


def legal_moves(hand: str | Cards, previous: str | Cards | Reading | None = None,
                rules: Rules | None = None) -> LegalMoves:
    """Every legal move ``hand`` can play (seeds 000/002: "même type, même nombre de cartes, plus
    fort", bombs, rocket).

    ``hand``: Cards or English notation (at most the largest hand, 20 cards). ``previous``: the
    move to beat (Reading, Cards or notation), or None to lead. ``rules``: default classic.
    Returns :class:`LegalMoves` — leads: every table move the hand holds; answers: every held
    move of the same type and card count with a higher body, every held bomb/rocket of a higher
    tier, and ``can_pass`` True. Exact sets, no duplicates, hint order (see the module doc).
    Raises NotationError on bad notation, IllegalMoveError when ``previous`` is no legal move,
    GameError when the hand has more cards than the largest hand.
    """
    rules = rules if rules is not None else load_rules("classic")
    cards = _cards(hand, rules, "hand")
    if len(cards) > rules.max_cards:
        raise GameError(f"a hand holds at most {rules.max_cards} cards, got {len(cards)}")
    idx = move_index(rules)
    if previous is None:
        return LegalMoves(tuple(idx.leads(cards.counts)), False)
    prev = to_reading(previous, rules)
    return LegalMoves(tuple(idx.answers(cards.counts, prev)), True)
