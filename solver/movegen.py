"""Move generation for the solver, from the one move index of a rules file
(:func:`ddzspec.moves.move_index`, shared with ``legal_moves``; never from subsets).

Every legal move of a rules file (:meth:`ddzspec.moves.MoveIndex.table_moves`) gets a small
integer id and flat per-id arrays: its cards packed 4 bits per rank (``mk``), size, tier, a
comparison class (shape, size), the strength of its body and whether it doubles the multiplier.

Hands are packed 4 bits per rank too, so "move ``m`` fits in hand ``h``" is one subtraction
with a guard bit per rank: ``((h | G) - mk[m]) & G == G`` where ``G`` sets bit 3 of every field.
The moves of a hand are computed once per distinct hand (from the moves of a hand that contains
it), then cached: the legal leads sorted by size (largest first), grouped by comparison class
for answering a move, plus the higher-tier moves (bombs, rocket) that beat any lower tier.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from librt.vecs import vec
from mypy_extensions import i64, mypyc_attr, u8

from ddzspec.cards import KEY_BITS, KEY_GUARD, KEY_MASK, Cards, pack, unpack
from ddzspec.moves import MoveIndex, move_index
from ddzspec.readings import Reading
from ddzspec.rules import Rules

GUARD = KEY_GUARD


class ByteTable:
    """Exact keys (ints in 1 .. 2^63 - 1; never a hash: a hit is the same key) → one byte each
    (0-255), in a vector of 64-bit ints and one of bytes, in buckets of two slots: the
    search's transposition table (:class:`~ddzspec.solver.search.Searcher`) and the memo of
    :meth:`MoveSet.plays`. A byte's upper seven bits rank its entry: a new entry takes the
    first slot of its bucket when its rank is at least the first's (which moves to the
    second), else the second; so the highest ranks stay, the newest beside them, and nothing
    is emptied wholesale. 9 bytes a slot; starts at ``start`` slots and grows 4 times whenever
    half are filled, up to ``slots`` (powers of two, at least 2). 0 marks an empty slot. The
    vectors are ``librt.vecs`` ``vec[i64]`` and ``vec[u8]`` (mypyc's runtime library):
    compiled, a look-up is a few machine instructions and makes no Python object (measured on
    DDZ2-05: a dict's get and set with their boxed keys cost ~600 instructions a node)."""

    __slots__ = ("cap", "filled", "keys", "mask", "size", "start", "vals")

    def __init__(self, slots: int, start: int) -> None:
        self.cap: i64 = slots
        self.start: i64 = min(slots, start)
        self.filled: i64 = 0
        self.size: i64 = 0
        self.mask: i64 = 0
        self.keys: vec[i64] = vec[i64]()
        self.vals: vec[u8] = vec[u8]()
        self._alloc(self.start)

    def _alloc(self, size: i64) -> None:
        self.size = size
        self.mask = (size - 1) & ~1
        self.keys = vec[i64]([0] * size)
        self.vals = vec[u8](bytes(size))
        self.filled = 0

    def clear(self) -> None:
        """Forget every entry (back to ``start`` slots)."""
        self._alloc(self.start)

    def _index(self, key: i64) -> i64:
        """The bucket's first slot: the key's 30-bit pieces multiplied by odd constants
        (products under 2^62: machine words), middle bits of the mix."""
        a = key & 0x3FFFFFFF
        b = (key >> 30) & 0x3FFFFFFF
        return (((a * 0x2545F491) ^ (b * 0x1B873593) ^ (key >> 60)) >> 20) & self.mask

    def get(self, key: i64) -> i64:
        """The byte stored for ``key``; -1 when it is not in the table."""
        i = self._index(key)
        keys = self.keys
        if keys[i] == key:
            return i64(self.vals[i])
        if keys[i + 1] == key:
            return i64(self.vals[i + 1])
        return -1

    def put(self, key: i64, val: i64) -> None:
        """Store the byte ``val`` (0-255; its upper seven bits its rank) for ``key``."""
        v = u8(val)
        i = self._index(key)
        keys, vals = self.keys, self.vals
        k0 = keys[i]
        if k0 == 0:
            self.filled += 1
            keys[i] = key
            vals[i] = v
        elif k0 == key:
            vals[i] = v
        elif keys[i + 1] == key:
            vals[i + 1] = v
        else:
            if keys[i + 1] == 0:
                self.filled += 1
            if vals[i] >> 1 <= v >> 1:  # the higher rank takes the first slot
                keys[i + 1] = k0
                vals[i + 1] = vals[i]
                keys[i] = key
                vals[i] = v
            else:
                keys[i + 1] = key
                vals[i + 1] = v
        if self.filled * 2 > self.size and self.size < self.cap:
            self._grow()

    def _grow(self) -> None:
        keys, vals = self.keys, self.vals
        self._alloc(min(self.cap, self.size * 4))
        for i in range(len(keys)):
            k = keys[i]
            if k:
                self.put(k, i64(vals[i]))


class HandInfo:
    """The moves of one hand (ids): ``leads`` sorted by size, largest first, then weaker
    bodies first; ``by_class``: comparison class → ids (weakest body first); ``top``: per
    comparison class the strength of the strongest body held (-1: none; a vector of machine
    words read in one step where a dict's look-up cost ~100 instructions); ``tiered``: ids
    of tier > 0, weakest first. ``hand``: the hand (4 bits per rank); ``count``: its cards.
    ``max_tier``: the highest tier held (0 without bomb or rocket); ``n_doubling``: an upper
    bound on the plays from this hand that double the multiplier (the bombs and rocket held,
    see :class:`MoveSet`). ``ordered``: ``leads`` in the search's order
    (None until the search asks) and ``ordered_plays`` the plays the rest of the hand needs
    after each of them (:meth:`MoveSet.plays`); ``class_order``: comparison class → its ids
    in the search's order and their plays, ``tiered_order`` the same of ``tiered`` (filled
    by the search). Cached per hand. A plain class (not a dataclass): compiled, its
    constructor is native (a dataclass's generated ``__init__`` stays interpreted: measured
    ~9,000 instructions a hand, frame and collector included)."""

    __slots__ = ("by_class", "class_order", "count", "hand", "leads", "max_tier",
                 "n_doubling", "ordered", "ordered_plays", "tiered", "tiered_order", "top")

    def __init__(self, hand: int, count: int, leads: tuple[int, ...],
                 by_class: dict[int, list[int]], top: vec[i64], tiered: tuple[int, ...],
                 max_tier: int, n_doubling: int) -> None:
        self.hand = hand
        self.count = count
        self.leads = leads
        self.by_class = by_class
        self.top = top
        self.tiered = tiered
        self.max_tier = max_tier
        self.n_doubling = n_doubling
        self.ordered: tuple[int, ...] | None = None
        self.ordered_plays: tuple[int, ...] = ()
        self.class_order: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        self.tiered_order: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    def __repr__(self) -> str:
        return f"HandInfo(hand={self.hand:#x}, count={self.count}, leads={len(self.leads)})"


def _chunk(k3: int) -> tuple[int, int]:
    counts = [(k3 >> (KEY_BITS * i)) & KEY_MASK for i in range(_CHUNK)]
    return (sum(1 << i for i, c in enumerate(counts) if c), sum(counts))


#: Ranks per chunk of :func:`_repack`, and each chunk's value: (support, cards).
_CHUNK: Final = 3
_CHUNK_BITS: Final = KEY_BITS * _CHUNK
_CHUNKS = [_chunk(k) for k in range(1 << _CHUNK_BITS)]


def _repack(k3: int) -> tuple[int, int, int]:
    """A table key (:func:`~ddzspec.cards.pack`) as (the same key, ranks used as bits, cards)
    … three ranks at a time through :data:`_CHUNKS` (set-up speed)."""
    k4 = k3
    support = size = 0
    shift = 0
    while k3:
        b, n = _CHUNKS[k3 & ((1 << _CHUNK_BITS) - 1)]
        support |= b << shift
        size += n
        k3 >>= _CHUNK_BITS
        shift += _CHUNK
    return k4, support, size


class MoveSet:
    """Every legal move of ``rules`` as flat arrays indexed by move id (see the module doc).

    ``mk[i]``: cards (4-bit packed); ``size``, ``tier``, ``cls`` (comparison class id),
    ``strength`` (body's highest rank strength), ``doubles`` (the shape multiplies the
    multiplier under the rules' scoring), ``times`` (by what: its factor, 1 when it does not),
    ``key3[i]``: the table's own packed key (the same as ``mk[i]``: one packing).
    """

    def __init__(self, rules: Rules, index: MoveIndex | None = None,
                 natural: bool = True) -> None:
        """``natural`` False: no move yet (a :class:`WildHook` fills the arrays and calls
        :meth:`derive`)."""
        self.rules = rules
        #: the wild-card moves of a position (None: the natural moves of the rules)
        self.wild: WildHook | None = None
        self.index = index if index is not None else move_index(rules)
        classes: dict[tuple[int, int], int] = {}
        self.mk: list[int] = []
        self.key3: list[int] = []
        self.size: list[int] = []
        self.tier: list[int] = []
        self.cls: list[int] = []
        self.strength: list[int] = []
        self.doubles: list[bool] = []
        #: the factor of the move's shape under the rules' scoring (1: it does not multiply)
        self.times: list[int] = []
        #: a last-play-only shape (``last_play``): legal only as the whole hand
        self.last_only: list[bool] = []
        self.by_key4: dict[int, int] = {}
        #: ranks used (bit i: rank index i) → ids of the moves using exactly those ranks
        self.by_support: dict[int, list[int]] = {}
        dbl = set(rules.scoring.double)
        # the table's entries, not its Readings: a Reading is built only for a move shown
        # (:meth:`text`), so setting up a search stays cheap (it counts against its time limit)
        for k3, (si, start, run) in (self.index.table.entries.items() if natural else ()):
            shape = rules.shapes[si]
            k4, support, size = _repack(k3)
            c = classes.setdefault((si, size), len(classes))
            self.by_key4[k4] = len(self.mk)
            self.by_support.setdefault(support, []).append(len(self.mk))
            self.mk.append(k4)
            self.key3.append(k3)
            self.size.append(size)
            self.tier.append(shape.tier)
            self.cls.append(c)
            self.strength.append(shape.height(rules.strength, start, run))
            self.doubles.append(shape.name in dbl)
            self.times.append(rules.scoring.factor(shape.name))
            self.last_only.append(shape.last_play)
        self.derive(len(classes), None)

    def derive(self, n_classes: int, single_use: bool | None) -> None:
        """Set the arrays and figures derived from the moves (``n_moves``, ``canon``, ``low``,
        the doubling bounds, the caches): at the end of the constructor, and again after a
        :class:`WildHook` has filled the arrays with its moves. ``n_classes``: the comparison
        classes used; ``single_use``: whether every doubling move is played at most once from
        a hand (None: from the moves' cards, each using all the deck's copies of its ranks)."""
        rules = self.rules
        self.n_moves = len(self.mk)
        self.any_last_only = any(self.last_only)
        #: comparison classes (one shape, one size): ``cls`` is below this
        self.n_classes = n_classes
        #: move id → the first id of the same comparison class and strength: the moves that
        #: beat a move depend on nothing else, so the search keys a move to beat by it
        first: dict[tuple[int, int], int] = {}
        self.canon: list[int] = [first.setdefault((self.cls[i], self.strength[i]), i)
                                 for i in range(self.n_moves)]
        #: the canonical moves (``canon``'s distinct values, 308 in the classic rules against
        #: 24,639 moves) in order, and move id → the index of its canonical move there: the
        #: search's state holds that index, 9 bits instead of 15
        self.canons: list[int] = sorted(set(self.canon))
        at = {c: i for i, c in enumerate(self.canons)}
        self.canon_index: list[int] = [at[c] for c in self.canon]
        #: move id → the low bits of the search's state after it (``(canon_index + 1) << 3``,
        #: see :class:`~ddzspec.solver.search.Searcher`; the seat to move is or-ed in)
        self.low: vec[i64] = vec[i64]([(c + 1) << 3 for c in self.canon_index])
        # How many doubling plays a hand can still make: when every doubling move uses all
        # the deck's copies of each rank in it (bomb, rocket) each is played at most once, so
        # the moves held bound it; otherwise cards // smallest doubling size.
        self.doubling_single_use = all(
            all(c in (0, rules.deck[r]) for r, c in enumerate(unpack(self.key3[i])))
            for i in range(self.n_moves) if self.doubles[i]) if single_use is None \
            else single_use
        self.min_doubling_size = min((self.size[i] for i in range(self.n_moves)
                                      if self.doubles[i]), default=1)
        #: the factors of the multiplying shapes met, and the largest (1: none)
        self.factors: tuple[int, ...] = tuple(sorted({self.times[i] for i in range(self.n_moves)
                                                      if self.doubles[i]}))
        self.max_factor = max(self.factors, default=1)
        #: :func:`hand_key` of a packed hand → its :class:`HandInfo` (filled by :meth:`info`)
        self.hands: dict[int, HandInfo] = {}
        #: packed hand → twice the fewest moves that play it out (:meth:`plays`; a cache of at
        #: most 2^20 slots, 9 MiB)
        self.plays_known = ByteTable(_PLAYS_SLOTS, 1 << 12)

    # -------------------------------------------------------------------------- hands

    def info(self, hand: int, parent: HandInfo | None = None) -> HandInfo:
        """The cached :class:`HandInfo` of a 4-bit packed hand. ``parent``: the info of a hand
        that contains ``hand`` (its moves are a superset), to filter instead of the whole table."""
        hk = hand_key(hand)
        got = self.hands.get(hk)
        if got is not None:
            return got
        if self.wild is not None:
            got = self.wild.info(self, hand, parent)
            self.hands[hk] = got
            return got
        pool: Sequence[int]
        if parent is not None:
            pool = parent.leads
        else:  # the moves whose ranks are all in the hand: every sub-mask of its rank mask
            mask = sum(1 << i for i, c in enumerate(unpack(hand)) if c)
            pool = []
            sub = mask
            while sub:
                pool.extend(self.by_support.get(sub, ()))
                sub = (sub - 1) & mask
        g = GUARD
        hg = hand | g
        mk = self.mk
        ids = [i for i in pool if (hg - mk[i]) & g == g]
        if self.any_last_only:  # such a move only as the whole hand: at most one, the largest
            last_only = self.last_only
            ids = [i for i in ids if not last_only[i]]
            whole = self.by_key4.get(hand, -1)
            if whole >= 0 and last_only[whole]:
                ids.insert(0, whole)
        size, strength, tier, cls, doubles = (self.size, self.strength, self.tier, self.cls,
                                              self.doubles)
        if parent is None:  # a parent's leads are in this order already (a subset keeps it)
            ids.sort(key=lambda i: (-size[i], strength[i]))
        # within a class (one shape, one size) the leads' order is by strength already
        by_class: dict[int, list[int]] = {}
        top = vec[i64]([-1] * self.n_classes)
        tiered: list[int] = []
        n_doubling = 0
        max_tier = 0
        for i in ids:
            c = cls[i]
            lst = by_class.get(c)
            if lst is None:
                by_class[c] = [i]
            else:
                lst.append(i)
            top[c] = max(top[c], strength[i])
            ti = tier[i]
            if ti > 0:
                tiered.append(i)
                max_tier = max(max_tier, ti)
            if doubles[i]:
                n_doubling += 1
        if len(tiered) > 1:
            tiered.sort(key=lambda i: (tier[i], strength[i]))
        count = 0
        h = hand
        while h:
            count += h & KEY_MASK
            h >>= KEY_BITS
        if n_doubling and not self.doubling_single_use:
            n_doubling = max(n_doubling, count // self.min_doubling_size)
        got = HandInfo(hand, count, tuple(ids), by_class, top, tuple(tiered), max_tier,
                       n_doubling)
        self.hands[hk] = got
        return got

    def plays(self, hand: int, pool: Sequence[int]) -> int:
        """The fewest legal moves that play out ``hand`` (4 bits per rank) exactly: 0 for no
        cards, 99 when no sequence of moves does. ``pool``: move ids that include every move
        fitting in the hand (e.g. the leads of a hand that contains it). Only the moves holding
        a card of the hand's lowest rank are tried (some move must play it); memoised
        per hand in :attr:`plays_known` (emptied by :meth:`clear`)."""
        if not hand:
            return 0
        memo = self.plays_known
        got = memo.get(hand)
        if got >= 0:
            return got >> 1
        g, mk = GUARD, self.mk
        hg = hand | g
        fit = [m for m in pool if (hg - mk[m]) & g == g]
        if self.any_last_only:  # a last-play-only move only as the whole hand
            last_only = self.last_only
            whole = self.by_key4.get(hand, -1)
            if whole >= 0 and last_only[whole]:
                memo.put(hand, 1 << 1)
                return 1
            fit = [m for m in fit if not last_only[m]]
        shift = ((hand & -hand).bit_length() - 1) & ~(KEY_BITS - 1)  # the lowest rank's field
        best = 99
        for m in fit:
            if (mk[m] >> shift) & KEY_MASK:
                v = 1 + self.plays(hand - mk[m], fit)
                if v < best:
                    best = v
                    if best == 1:
                        break
        memo.put(hand, best << 1)  # ranked by the plays: the costlier to find stay
        return best

    def answers(self, info: HandInfo, last: int) -> list[int]:
        """Ids of the moves of a hand that beat move ``last`` (same class and a higher body;
        or a higher tier), larger bodies first, bombs and rocket last. Wild moves: the
        :class:`WildHook`'s answers."""
        if self.wild is not None:
            return self.wild.answers(self, info, last)
        s = self.strength[last]
        t = self.tier[last]
        strength, tier, cls = self.strength, self.tier, self.cls
        out = [i for i in info.by_class.get(cls[last], ()) if strength[i] > s]
        if info.tiered:
            out.extend(i for i in info.tiered if tier[i] > t)
        return out

    # -------------------------------------------------------------------------- conversion

    def move_id(self, cards: Cards) -> int | None:
        """The id of the legal move with exactly these cards, or None if not a legal move."""
        return self.by_key4.get(pack(cards.counts))

    def text(self, m: int, notation: str = "en") -> str:
        """Canonical notation of move id ``m`` (body then kickers, e.g. ``888+3``; a wild
        move as its :class:`WildHook` writes it)."""
        if self.wild is not None:
            return self.wild.text(m, notation)
        return self.reading(m).format(notation)

    def shown_order(self, m: int) -> tuple[int, int, int, int, int]:
        """The key that orders moves where they are listed to a person (winning moves, legal
        moves, hints): smaller moves first, then lower bodies, then shapes in the rules'
        order, then lower cards (kickers: 444+3 before 444+8); ``m`` -1 (the pass) last."""
        if m < 0:
            return (1, 0, 0, 0, 0)
        return (0, self.size[m], self.strength[m], self.cls[m], self.mk[m])

    def reading(self, m: int) -> Reading:
        """The Reading of move id ``m`` (built on first use and memoised by the table)."""
        got = self.index.table.lookup(self.key3[m])
        assert got is not None  # every move id comes from the table's entries
        return got

    def clear(self) -> None:
        """Forget the cached hands, their answers and plays (memory)."""
        self.hands.clear()
        self.plays_known.clear()


@mypyc_attr(allow_interpreted_subclasses=True)
class WildHook:
    """The moves of a position with wild cards (issue 26), as a :class:`MoveSet` asks for
    them once its ``wild`` is set: each move id is one play (its cards, ``mk``, the wild cards
    as cards of the wild rank) with one reading, whose comparison class, tier and strength
    are the reading's; a hand's leads hold each play once, with the reading it leads as.
    Implemented by :class:`ddzspec.solver.wildgen.WildMoves` (interpreted)."""

    def info(self, ms: MoveSet, hand: int, parent: HandInfo | None) -> HandInfo:
        """The :class:`HandInfo` of ``hand`` (4 bits per rank): ``leads`` one id per play,
        ``by_class``, ``top``, ``tiered``, ``max_tier`` over every (play, reading) held."""
        raise NotImplementedError

    def answers(self, ms: MoveSet, info: HandInfo, last: int) -> list[int]:
        """The ids of the plays of the hand of ``info`` that beat move ``last``, each with the
        reading it answers as."""
        raise NotImplementedError

    def held(self, ms: MoveSet, info: HandInfo) -> list[int]:
        """Every move id (every play with each of its readings) of the hand of ``info``."""
        raise NotImplementedError

    def text(self, m: int, notation: str) -> str:
        """Move id ``m`` as shown."""
        raise NotImplementedError


def hand_key(hand: int) -> int:
    """A packed hand (4 bits per rank, under 2^60) as the key of the hand caches: one to one
    (so exact), every rank's count mixed into the low bits. A Python int hashes to itself and
    a dict probes first by its low bits, which in a packed hand are the few counts of the
    lowest ranks (24 distinct values in the 10 low bits of 559 hands of a puzzle: 6 probes a
    look-up, measured 400 instructions). Three Feistel rounds on the 30-bit halves, each
    XOR-ing into one half the middle bits of the other times an odd constant (products under
    2^62: machine words when compiled)."""
    lo = hand & 0x3FFFFFFF
    hi = hand >> 30
    lo ^= ((hi * 0x2545F491) >> 20) & 0x3FFFFFFF
    hi ^= ((lo * 0x1B873593) >> 20) & 0x3FFFFFFF
    lo ^= ((hi * 0x2545F491) >> 20) & 0x3FFFFFFF
    return (hi << 30) | lo


#: The most slots of a move set's :meth:`MoveSet.plays` memo (a power of two)
_PLAYS_SLOTS = 1 << 20

_SETS: dict[tuple[str, tuple[str, ...], tuple[tuple[str, int], ...]], MoveSet] = {}


def move_set(rules: Rules) -> MoveSet:
    """The :class:`MoveSet` of ``rules``, built once per rules digest and multiplying shapes
    with their factors (the digest covers only what the move table depends on, not the
    scoring)."""
    key = (rules.digest, rules.scoring.double, rules.scoring.times)
    got = _SETS.get(key)
    if got is None:
        got = _SETS[key] = MoveSet(rules)
    return got
