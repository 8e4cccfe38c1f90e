"""Legal moves (the seeds' *Hint*, 003/004): every move a hand can play, fast.

Everything comes from the compiled move table (:mod:`ddzspec.table`); nothing enumerates
subsets of a hand. Entry points: :func:`legal_moves` (a hand's leads, or its answers to a move,
as :class:`LegalMoves` with ``can_pass``) and :func:`move_index`, the index per rules file that
it reads and the solver shares. Moves come smallest useful first, the order a hint button
cycles through (how the index answers and leads, and the order: docs/game.md, "Legal moves").

>>> from ddzspec.rules import load_rules
>>> rules = load_rules("classic")
>>> [m.format() for m in legal_moves("77773", rules=rules)]
['3', '7', '77', '777', '777+3', '7777']
>>> lm = legal_moves("77773", "666+5", rules=rules)
>>> [m.format() for m in lm], lm.can_pass
(['777+3', '7777'], True)
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import overload

from .cards import ALL_RANKS, KEY_BITS, KEY_GUARD, N_RANKS, Cards, pack, parse_cards
from .check import ambiguity_problem, refusal, require_lone_cards
from .errors import AmbiguousReadingError, GameError, IllegalMoveError, NotationError
from .readings import Reading, make_reading, read
from .rules import KIND_SIZE, KickerKind, Rules, load_rules
from .table import (
    Entry,
    MoveTable,
    body_key,
    body_kickers,
    cache_key,
    candidate_entries,
    get_table,
    kicker_caps,
    loaded_table,
    shape_bodies,
)

_GUARD = KEY_GUARD


def contains(hand4: int, move4: int) -> bool:
    """Whether a hand holds a move, both packed by :func:`pack` (the hand with guard bits:
    ``pack(hand) | GUARD``). One subtraction: no rank borrows iff every guard bit survives
    (exact while no count is above :data:`~ddzspec.cards.GUARDED_MAX`)."""
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


class TableIndex:
    """The fast path of :class:`MoveIndex` once a rules file's compiled table is in memory: the
    table's moves in hint order, grouped for leads and answers (see the module doc). A move of
    a last-play-only shape is left out of the groups and found only as the whole hand."""

    def __init__(self, table: MoveTable) -> None:
        rules = table.rules
        self.table = table
        self.rules = rules
        self.shape_index = {s.name: i for i, s in enumerate(rules.shapes)}
        items = _hint_items(table)
        #: packed key → position in hint order
        self.rank: dict[int, int] = {key: n for n, (_, key, _, _) in enumerate(items)}
        self.reading: dict[int, Reading] = {key: r for _, key, r, _ in items}
        self.four: dict[int, int] = {key: m4 for _, key, _, m4 in items}
        by_type: dict[tuple[int, int], list[tuple[int, int, Reading]]] = {}
        tiered: list[tuple[int, int, Reading]] = []
        #: shape indexes of the last-play-only shapes (``last_play``)
        self.last_only = frozenset(i for i, s in enumerate(rules.shapes) if s.last_play)
        #: whether a last-play-only shape is a bomb tier (then a whole hand may answer any move)
        self.last_tiered = any(s.last_play and s.tier > 0 for s in rules.shapes)
        for (tier, k, si, size, _), key, r, _ in items:
            if si in self.last_only:
                continue
            by_type.setdefault((si, size), []).append((k, self.four[key], r))
            if tier > 0:
                tiered.append((tier, self.four[key], r))
        #: (shape index, size) → (sorted body keys, [(body4, [(move4, Reading)…])]): for one
        #: shape and size the key fixes the body, so moves are grouped by body, in hint order
        self.by_type: dict[tuple[int, int], tuple[list[int], list[tuple[int, list[tuple[
            int, Reading]]]]]] = {}
        for t, v in by_type.items():
            keys: list[int] = []
            groups: list[tuple[int, list[tuple[int, Reading]]]] = []
            for k, m4, r in v:
                if not keys or keys[-1] != k:
                    keys.append(k)
                    groups.append((pack(r.body.counts), []))
                groups[-1][1].append((m4, r))
            self.by_type[t] = (keys, groups)
        self.tiered = tiered  # hint order: by tier then key
        self.tiers = [t for t, _, _ in tiered]
        # leads. A body of ``copies`` cards per rank is held iff its rank bits are all among
        # the hand's ranks with at least ``copies`` cards (a 15-bit mask). Bodies without
        # kickers are whole moves: kept only if the table reads them so; for each copies value
        # the held ones depend on that one mask only, so they are memoised per mask. Bodies
        # with kickers are extended by the kicker units the hand's remaining counts allow and
        # kept when the table holds the multiset with exactly that entry (``kcheck``).
        self.by_pos: list[Reading] = [r for _, _, r, _ in items]
        eid_shift = 16
        assert len(rules.shapes) < 256 and N_RANKS < 16  # entry ids fit in 16 bits
        plain: dict[int, list[tuple[int, int]]] = {}
        kicked: dict[int, list[tuple[int, tuple[int, ...], int, int, int, tuple[int, ...]]]] = {}
        entries = table.entries
        self.kcheck: dict[int, int] = {}
        for key, (si, start, run) in entries.items():
            if rules.shapes[si].kicker_kind is not None:
                eid = (si << 8) | (start << 4) | run
                self.kcheck[(key << eid_shift) | eid] = self.rank[key]
        for si, shape in enumerate(rules.shapes):
            if si in self.last_only:
                continue
            k = KIND_SIZE.get(shape.kicker_kind or "", 1)
            incs = tuple(k << (KEY_BITS * r + eid_shift) for r in range(N_RANKS))
            for run in range(shape.run_min, shape.run_max + 1):
                if shape.size(run) > rules.max_cards:
                    continue
                for start in shape.starts(run):
                    ranks = shape.seq[start:start + run]
                    if any(rules.deck[i] < shape.copies for i in ranks):
                        continue
                    counts = [0] * N_RANKS
                    for i in ranks:
                        counts[i] = shape.copies
                    base = pack(counts)
                    bmask = sum(1 << i for i in ranks)
                    units = shape.units(run)
                    if units == 0:
                        if entries.get(base) == (si, start, run):
                            plain.setdefault(shape.copies, []).append((bmask, self.rank[base]))
                        continue
                    eid = (si << 8) | (start << 4) | run
                    kicked.setdefault(shape.copies, []).append(
                        (bmask, tuple(ranks), units, k, (base << eid_shift) | eid, incs))
        self.max_copies = max(rules.deck)
        self.plain_groups: list[tuple[int, list[tuple[int, int]], dict[int, tuple[int, ...]]]] = \
            [(c, v, {}) for c, v in sorted(plain.items())]
        self.kicked_groups = sorted(kicked.items())

    def leads(self, counts: Sequence[int]) -> list[Reading]:
        """Every table move contained in a hand (15 counts), hint order."""
        masks = [0] * (self.max_copies + 1)
        for i, c in enumerate(counts):
            if c:
                bit = 1 << i
                for j in range(1, min(c, self.max_copies) + 1):
                    masks[j] |= bit
        found: list[int] = []
        for c, bodies, cache in self.plain_groups:
            if c > self.max_copies:
                continue
            m = masks[c]
            got = cache.get(m)
            if got is None:
                nm = ~m
                got = tuple(pos for bm, pos in bodies if not bm & nm)
                if len(cache) > 40_000:
                    cache.clear()
                cache[m] = got
            found.extend(got)
        kcheck = self.kcheck
        for c, kbodies in self.kicked_groups:
            if c > self.max_copies or not masks[c]:
                continue
            nm = ~masks[c]
            for bm, ranks_, units, k, ebase, incs in kbodies:
                if bm & nm:
                    continue
                avail = list(counts)
                for i in ranks_:
                    avail[i] -= c
                cand = [i for i in range(N_RANKS) if avail[i] >= k]
                if units == 1:
                    for r in cand:
                        p = kcheck.get(ebase + incs[r])
                        if p is not None:
                            found.append(p)
                elif units == 2:
                    for x, r in enumerate(cand):
                        kr = ebase + incs[r]
                        if avail[r] >= 2 * k:
                            p = kcheck.get(kr + incs[r])
                            if p is not None:
                                found.append(p)
                        for r2 in cand[x + 1:]:
                            p = kcheck.get(kr + incs[r2])
                            if p is not None:
                                found.append(p)
                else:
                    _kickers(cand, avail, k, units, 0, ebase, incs, kcheck, found)
        if self.last_only:
            whole = self._whole_hand(counts)
            if whole is not None:
                found.append(self.rank[whole.cards.key])
        found.sort()
        by_pos = self.by_pos
        return [by_pos[p] for p in found]

    def _whole_hand(self, counts: Sequence[int]) -> Reading | None:
        """The hand itself as a move of a last-play-only shape, or None."""
        r = self.reading.get(pack(counts))
        if r is None or self.shape_index[r.shape] not in self.last_only:
            return None
        return r

    def answers(self, counts: Sequence[int], previous: Reading) -> list[Reading]:
        """Every table move contained in a hand that beats ``previous``, hint order."""
        hand4 = pack(counts) | _GUARD
        g = _GUARD
        out: list[Reading] = []
        si = self.shape_index.get(previous.shape)
        if si is not None:
            got = self.by_type.get((si, previous.size))
            if got is not None:
                keys, groups = got
                for b in range(bisect_right(keys, previous.key), len(keys)):
                    body4, moves = groups[b]
                    if (hand4 - body4) & g != g:
                        continue
                    for m4, r in moves:
                        if (hand4 - m4) & g == g:
                            out.append(r)
        tiered = self.tiered
        for j in range(bisect_right(self.tiers, previous.tier), len(tiered)):
            _, m4, r = tiered[j]
            if (hand4 - m4) & g == g:
                out.append(r)
        # the whole hand answers as a last-play-only move of the previous move's type and size,
        # or of a higher tier: with no such tier, only a hand of the previous move's size can
        if self.last_only and (self.last_tiered or sum(counts) == previous.size):
            whole = self._whole_hand(counts)
            if whole is not None and (whole.tier > previous.tier or (
                    whole.shape == previous.shape and whole.size == previous.size
                    and whole.key > previous.key)):
                out.append(whole)
                out.sort(key=lambda x: self.rank[x.cards.key])  # hint order
        return out


def _hint_items(table: MoveTable) -> list[tuple[tuple[int, int, int, int, tuple[int, ...]], int,
                                                Reading, int]]:
    """Every move of ``table`` in hint order: ((tier, comparison key, shape index, size,
    kicker strengths ascending), packed key, Reading, :func:`pack` of the move), sorted by
    the first (stable: ties keep the table's order). The Readings equal
    :meth:`MoveTable.lookup`'s and are shared with its memo: built here once per move from the
    bodies and kicker multisets they share (a body or a kicker multiset is built once), the
    index of a large table is ready in a fraction of the time one lookup per move takes."""
    rules = table.rules
    strength = rules.strength
    memo = table._memo  # the table's memoised Readings: one object per move everywhere
    bodies: dict[Entry, tuple[int, Cards, int, tuple[str, int, int, int, int,
                                                     KickerKind | None, int, tuple[int, ...]]]] = {}
    kicks: dict[int, tuple[Cards, tuple[int, ...], int]] = {}
    items = []
    for key, entry in table.entries.items():
        b = bodies.get(entry)
        if b is None:
            si, start, run = entry
            shape = rules.shapes[si]
            body = [0] * N_RANKS
            for i in shape.seq[start:start + run]:
                body[i] = shape.copies
            bcards = Cards(tuple(body))
            top = shape.seq[start + run - 1]
            b = bodies[entry] = (bcards.key, bcards, pack(body), (
                shape.name, shape.tier, shape.height(strength, start, run), shape.size(run), run,
                shape.kicker_kind, top, shape.chain(start, run)))
        bkey, bcards, b4, (name, tier, height, size, run, kind, top, chain) = b
        kkey = key - bkey  # packed counts add up rank by rank
        kc = kicks.get(kkey)
        if kc is None:
            kcards = Cards.from_key(kkey)
            kc = kicks[kkey] = (kcards, tuple(sorted(
                strength[i] for i, c in enumerate(kcards.counts) for _ in range(c))),
                pack(kcards.counts))
        r = memo.get(key)
        if r is None:
            r = memo[key] = Reading(name, tier, bcards, kc[0], height, size, run, kind, top,
                                    chain)
        items.append(((tier, height, entry[0], size, kc[1]), key, r, b4 + kc[2]))
    items.sort(key=_first_of)
    return items


def _first_of(item: tuple[tuple[int, int, int, int, tuple[int, ...]], int, Reading, int]) \
        -> tuple[int, int, int, int, tuple[int, ...]]:
    return item[0]


def _kickers(ranks: list[int], avail: list[int], k: int, left: int, pos: int, key: int,
             incs: tuple[int, ...], kcheck: dict[int, int], found: list[int]) -> None:
    """Extend ``key`` (packed multiset and entry id) by ``left`` kicker units of ``k`` cards
    from ``ranks[pos:]``; keep the hint positions of the candidates the table holds."""
    if left == 0:
        p = kcheck.get(key)
        if p is not None:
            found.append(p)
        return
    if pos >= len(ranks):
        return
    r = ranks[pos]
    most = min(left, avail[r] // k)
    inc = incs[r]
    for m in range(most, -1, -1):
        _kickers(ranks, avail, k, left - m, pos + 1, key + m * inc, incs, kcheck, found)


#: Largest table (legal moves) worth indexing for the fast path; larger tables are never
#: loaded by legal moves (each hand is generated from its own cards).
FAST_PATH_MAX_MOVES = 200_000
#: Per-hand calls after which a small table is loaded (or compiled) for the fast path.
FAST_PATH_AFTER_CALLS = 32


def _count_kicker_sets(unit_caps: Sequence[int], units: int) -> int:
    """How many ways to pick ``units`` kicker units with at most ``unit_caps[r]`` of rank r."""
    ways = [1] + [0] * units
    for cap in unit_caps:
        if cap <= 0:
            continue
        new = [0] * (units + 1)
        for u in range(units + 1):
            if ways[u]:
                for m in range(min(cap, units - u) + 1):
                    new[u + m] += ways[u]
        ways = new
    return ways[units]


def estimate_moves(rules: Rules) -> int:
    """An upper bound on the legal moves of ``rules`` (candidates within the kicker caps),
    counted without enumerating them: decides whether the compiled table is small."""
    n = 0
    for si, shape in enumerate(rules.shapes):
        k = KIND_SIZE.get(shape.kicker_kind or "", 1)
        for start, run in shape_bodies(rules, si):
            units = shape.units(run)
            if units == 0:
                n += 1
                continue
            caps = kicker_caps(rules, shape, shape.seq[start:start + run], rules.deck)
            n += _count_kicker_sets([c // k for c in caps], units)
    return n


class MoveIndex:
    """The one move index of a rules file, shared by :func:`legal_moves`, the game and the
    solver. Build with :func:`move_index` (memoised per table cache key).

    - :meth:`hand_moves` / :meth:`leads` / :meth:`answers`: what one hand can play, generated
      from the hand itself (bodies the hand holds × kicker multisets from the rest of the hand,
      the restriction predicates of :mod:`ddzspec.restrictions`), grouped by multiset. Every
      reading of a sub-multiset of the hand is found this way, so each multiset's readings are
      complete and uniqueness is decided per hand, with no table: the cost is what the hand can
      play. A hand holding an ambiguous move raises :class:`AmbiguousReadingError`.
    - Once the compiled table is in memory and small (≤ :data:`FAST_PATH_MAX_MOVES`), or after
      :data:`FAST_PATH_AFTER_CALLS` calls when it is small, a :class:`TableIndex` answers the
      same questions faster, with the same results.
    - :meth:`lookup`: the unique reading of one multiset; :meth:`table_moves`: every legal move
      of the table (the solver's move ids).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._calls = 0
        self._fast: TableIndex | None = None
        self._small: bool | None = None
        self._readings: dict[int, Reading] = {}
        self._kick_cards: dict[int, Cards] = {}
        self._ambiguous4: list[tuple[int, int]] | None = None
        #: the last-play-only shapes (``last_play``): legal only when they empty the hand
        self.last_only = frozenset(s.name for s in rules.shapes if s.last_play)

    # ----------------------------------------------------------------- the compiled table

    @property
    def table(self) -> MoveTable:
        """The compiled move table (compiled, or read from the disk cache, on first use)."""
        return get_table(self.rules)

    def is_small(self) -> bool:
        """Whether the compiled table is small enough to index (see :func:`estimate_moves`)."""
        if self._small is None:
            self._small = estimate_moves(self.rules) <= FAST_PATH_MAX_MOVES
        return self._small

    def _fast_index(self) -> TableIndex | None:
        if self._fast is not None:
            return self._fast
        table = loaded_table(self.rules)
        if table is None and self._calls >= FAST_PATH_AFTER_CALLS and self.is_small():
            table = get_table(self.rules)
        if table is None or len(table) > FAST_PATH_MAX_MOVES:
            return None
        self._fast = TableIndex(table)
        self._ambiguous4 = [(pack(Cards.from_key(k).counts), k) for k in table.ambiguous]
        return self._fast

    def table_moves(self) -> Iterator[tuple[int, Entry, Reading]]:
        """Every legal move of the compiled table: (packed key, entry, Reading), table order."""
        table = self.table
        for key, entry in table.entries.items():
            r = table.lookup(key)
            assert r is not None
            yield key, entry, r

    # ----------------------------------------------------------------- one multiset

    def readings_of(self, cards: Cards) -> list[Reading]:
        """Every reading of one multiset (empty: illegal; several: ambiguous), generated from
        its own cards."""
        n = len(cards)
        out: list[Reading] = []
        for si in range(len(self.rules.shapes)):
            for key, entry in candidate_entries(self.rules, si, cards.counts, (n,)):
                if key == cards.key:
                    out.append(self._reading(key, entry))
        return out

    def lookup(self, cards: Cards) -> Reading | None:
        """The unique reading of a multiset, or None if it is illegal or ambiguous."""
        fast = self._fast_index()
        if fast is not None:
            return fast.table.lookup(cards)
        got = self.readings_of(cards)
        return got[0] if len(got) == 1 else None

    def _reading(self, key: int, entry: Entry) -> Reading:
        si, start, run = entry
        return make_reading(self.rules, self.rules.shapes[si], Cards.from_key(key).counts,
                            start, run)

    # ----------------------------------------------------------------- one hand

    def hand_moves(self, counts: Sequence[int]) -> list[Reading]:
        """Every move a hand (15 counts) holds, hint order, generated from the hand. Raises
        AmbiguousReadingError naming the first ambiguous move it holds (smallest first)."""
        enabled = gc.isenabled()
        gc.disable()  # thousands of small acyclic objects: no collection passes meanwhile
        try:
            return self._hand_moves(counts)
        finally:
            if enabled:
                gc.enable()

    def _hand_moves(self, counts: Sequence[int]) -> list[Reading]:
        rules = self.rules
        strength = rules.strength
        memo = self._readings
        if len(memo) > 20_000:
            memo.clear()
        kick_cards = self._kick_cards
        if len(kick_cards) > 20_000:
            kick_cards.clear()
        seen: dict[int, Entry] = {}
        ambiguous: dict[int, list[Entry]] = {}
        # (sort key, Reading): hint order is (tier, body height, shape order, size, kickers);
        # kickers come in hint order per body (see body_kickers), so a running number orders
        # them within a body, and the whole key packs into one int
        items: list[tuple[int, Reading]] = []
        n = 0
        for si, shape in enumerate(rules.shapes):
            name, tier, kind, copies = shape.name, shape.tier, shape.kicker_kind, shape.copies
            for start, run in shape_bodies(rules, si, counts):
                entry: Entry = (si, start, run)
                body = shape.seq[start:start + run]
                bkey = body_key(shape, start, run)
                bcards = _known_cards(tuple(copies if i in body else 0 for i in range(N_RANKS)),
                                      bkey)
                top = body[-1]
                height = shape.height(strength, start, run)
                chain = shape.chain(start, run)
                size = shape.size(run)
                bsort = (((tier * 16 + height) * 256 + si) * 32 + size) << 32
                for kkey, kick in body_kickers(rules, si, start, run, counts):
                    key = bkey + kkey
                    if key in seen:
                        ambiguous.setdefault(key, [seen[key]]).append(entry)
                        continue
                    seen[key] = entry
                    r = memo.get(key)
                    if r is None:
                        kc = kick_cards.get(kkey)
                        if kc is None:
                            kc = kick_cards[kkey] = _known_cards(tuple(kick), kkey)
                        r = memo[key] = Reading(name, tier, bcards, kc, height, size, run, kind,
                                                top, chain)
                    n += 1
                    items.append((bsort + n, r))
        if ambiguous:
            key = min(ambiguous, key=lambda k: (len(Cards.from_key(k)), k))
            raise _ambiguous(self, key, ambiguous[key])
        items.sort(key=_first)
        return [r for _, r in items]

    def _check_hand(self, counts: Sequence[int]) -> None:
        """Fast path: raise when the hand holds one of the table's ambiguous multisets."""
        if not self._ambiguous4:
            return
        h4 = pack(counts) | _GUARD
        held = [k for m4, k in self._ambiguous4 if (h4 - m4) & _GUARD == _GUARD]
        if held:
            assert self._fast is not None
            key = min(held, key=lambda k: (len(Cards.from_key(k)), k))
            raise _ambiguous(self, key, self._fast.table.ambiguous[key])

    def leads(self, counts: Sequence[int]) -> list[Reading]:
        """Every move a hand holds (15 counts), hint order (see the module doc)."""
        self._calls += 1
        fast = self._fast_index()
        if fast is not None:
            self._check_hand(counts)
            return fast.leads(counts)
        moves = self.hand_moves(counts)
        return self._last_play(moves, counts) if self.last_only else moves

    def answers(self, counts: Sequence[int], previous: Reading) -> list[Reading]:
        """Every move a hand holds that beats ``previous``: the same type and card count with a
        higher body, or a higher tier (bombs, rocket), hint order."""
        self._calls += 1
        fast = self._fast_index()
        if fast is not None:
            self._check_hand(counts)
            return fast.answers(counts, previous)
        moves = [r for r in self.hand_moves(counts)
                 if r.tier > previous.tier or (r.shape == previous.shape
                                               and r.size == previous.size
                                               and r.key > previous.key)]
        return self._last_play(moves, counts) if self.last_only else moves

    def _last_play(self, moves: list[Reading], counts: Sequence[int]) -> list[Reading]:
        """``moves`` without those of a last-play-only shape that would not empty the hand
        (house rule: "a bare trio only as the last play", lizhenghong66/open_spiel's game
        ``landlord``, isThreeNoAddMustLastPut)."""
        n, last = sum(counts), self.last_only
        return [r for r in moves if r.size == n or r.shape not in last]


def _first(item: tuple[int, Reading]) -> int:
    return item[0]


def _known_cards(counts: tuple[int, ...], key: int) -> Cards:
    """Cards from counts and their packed key, both known valid (skips the constructor's
    checks: this is the hot path of per-hand generation)."""
    c = object.__new__(Cards)
    object.__setattr__(c, "counts", counts)
    object.__setattr__(c, "key", key)
    return c


def _ambiguous(idx: MoveIndex, key: int, entries: Sequence[Entry]) -> AmbiguousReadingError:
    """The error for a hand holding an ambiguous move: the move and its readings."""
    return AmbiguousReadingError(str(Cards.from_key(key)),
                                 [idx._reading(key, e).describe() for e in entries])


def _located(err: AmbiguousReadingError, rules: Rules) -> AmbiguousReadingError:
    """``err`` with the message every refusal has: the rules file, what is wrong with an
    example move and its readings, and the ``ddzspec check`` command to run."""
    problem = ambiguity_problem(rules, Cards.parse(err.cards).key, err.readings)
    err.args = (f"{rules.path}: {refusal(rules, [problem])}",)
    return err


_INDEXES: dict[str, MoveIndex] = {}


def move_index(rules: Rules) -> MoveIndex:
    """The (memoised) :class:`MoveIndex` of ``rules``; cheap: nothing is compiled."""
    key = cache_key(rules)
    idx = _INDEXES.get(key)
    if idx is None:
        idx = _INDEXES[key] = MoveIndex(rules)
    return idx


#: id(rules) → (rules, its MoveIndex) for the rules objects :func:`legal_moves` has accepted
#: (Rules are frozen: a rules object accepted once stays acceptable).
_CHECKED: dict[int, tuple[Rules, MoveIndex]] = {}


def _checked_index(rules: Rules) -> MoveIndex:
    """:func:`move_index` of ``rules`` after :func:`require_lone_cards`, both done once per
    rules object (legal moves are asked for thousands of times per second)."""
    got = _CHECKED.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    require_lone_cards(rules)
    idx = move_index(rules)
    if len(_CHECKED) >= 64:
        _CHECKED.clear()
    _CHECKED[id(rules)] = (rules, idx)
    return idx


def _cards(x: str | Cards, rules: Rules, what: str) -> Cards:
    if isinstance(x, Cards):
        over = [i for i, c in enumerate(x.counts) if c > rules.deck[i]]
        if over:
            bad = ALL_RANKS[over[0]]
            held = rules.deck[over[0]]
            raise NotationError(f"{what} {x}: " + (f"the deck has no {bad.symbol()}" if not held
                                else f"more copies of {bad.symbol()} than the deck holds "
                                f"({held})"))
        return x
    return parse_cards(x, "en", deck=rules.deck).cards


def to_reading(move: str | Cards | Reading, rules: Rules) -> Reading:
    """The Reading of a move (notation, Cards or Reading) from the table.
    Raises IllegalMoveError when it is no legal move, NotationError on bad notation."""
    if isinstance(move, Reading):
        return move
    cards = _cards(move, rules, "move")
    r = move_index(rules).lookup(cards)
    if r is None:
        v = read(cards, rules)
        if v.ambiguous:
            raise IllegalMoveError(str(cards), "ambiguous, " + "; ".join(
                x.describe() for x in v.readings) + " (a defect of the rules file)")
        raise IllegalMoveError(str(cards), v.reason or "no reading")
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
    GameError when the hand has more cards than the largest hand, UnplayableRulesError when
    some rank has no one-card shape, AmbiguousReadingError when the hand holds a move with
    several readings (both: rules that ``ddzspec check`` flags, refused everywhere). Costs what the
    hand can play: the moves are generated from the hand (see :class:`MoveIndex`).
    """
    rules = rules if rules is not None else load_rules("classic")
    idx = _checked_index(rules)
    cards = _cards(hand, rules, "hand")
    if len(cards) > rules.max_cards:
        raise GameError(f"a hand holds at most {rules.max_cards} cards, got {len(cards)}")
    try:
        if previous is None:
            return LegalMoves(tuple(idx.leads(cards.counts)), False)
        prev = to_reading(previous, rules)
        return LegalMoves(tuple(idx.answers(cards.counts, prev)), True)
    except AmbiguousReadingError as e:
        raise _located(e, rules) from None
