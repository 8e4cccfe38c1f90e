"""Legal moves with wild cards (laizi; issue 26): every play a hand can make, with its reading
under the rules file's policy, derived from the natural move generation of :mod:`ddzspec.moves`
(no CSP per substitution).

A hand is its natural cards plus ``w`` wild cards (every card of the drawn wild rank). A play is
a sub-multiset of the natural cards plus ``k <= w`` wild cards; its readings are those of
:func:`ddzspec.wild.wild_readings` (every substitution of the wild cards that makes a move legal
under the natural rules). Backwards, as :mod:`ddzspec.wildcheck` does for the whole table: the
natural legal multisets ``m`` that the natural cards plus ``w`` cards of any non-joker rank can
hold are generated body by body from the natural shapes (the restriction predicates of the move
table, a body's kickers bounded by the wild cards the body leaves); each ``m`` whose *deficit*
(the cards the natural hand lacks) is at most ``w`` is then split every way into natural cards
held and wild cards (the deficit, plus any held cards played as wild instead). A play of wild
cards only reads as itself (Baidu Baike's laizi article: "单独出时只能是本牌").

The policy (``reading`` of the wild section) picks what is legal:

- ``strongest``: each distinct play once, with the reading the policy takes
  (:func:`ddzspec.wild.strongest`): leading, the type first in the priority, the highest body;
  answering, among the readings that beat the move (:func:`ddzspec.wild.outranks`), one of the
  answered type and size with the highest body, else the strongest bomb;
- ``declared``: every (play, reading) pair (the player states the reading); answering, the
  pairs whose reading beats the move.

>>> from ddzspec.cards import Rank, parse_cards
>>> from ddzspec.rules import load_rules
>>> rules = load_rules("laizi")
>>> lm = wild_legal_moves(parse_cards("3377").cards, Rank.SEVEN.index, rules)
>>> [p.describe() for p in lm if p.move.format() == "33**"]
['33**: bomb 3333 (soft; wild cards as 33)']
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import add, sub

from .cards import KEY_BITS, KEY_GUARD, KEY_MASK, N_RANKS, Cards, pack, unpack
from .readings import Reading, make_reading
from .rules import Rules
from .rules.model import BombClass, ReadingPolicy, Wild
from .table import body_key, body_kickers, get_table, shape_bodies
from .wild import (
    WildMove,
    WildReading,
    bomb_class,
    outranks,
    require_wild,
    strength,
    strongest,
    strongest_key,
    violated,
)


@dataclass(frozen=True, slots=True)
class WildPlay:
    """One legal play: the cards played (``move``: natural cards and wild cards) and the
    reading it is played as."""

    move: WildMove
    reading: WildReading

    def describe(self, notation: str = "en") -> str:
        """``33**: bomb 3333 (soft; wild cards as 33)``."""
        return f"{self.move.format(notation)}: {self.reading.describe(notation)}"


#: (natural cards' key, wild cards) → the play's readings, before the wild restrictions
PlayReadings = dict[tuple[int, int], list[WildReading]]


def split_hand(hand: Cards, rank: int) -> tuple[Cards, int]:
    """A hand as (its natural cards, its number of wild cards): every card of rank index
    ``rank`` is wild."""
    counts = list(hand.counts)
    wilds, counts[rank] = counts[rank], 0
    return Cards(tuple(counts)), wilds


def play_readings(natural: Cards, wilds: int, rank: int, rules: Rules,
                  answering: Reading | None = None) -> PlayReadings:
    """Every play of ``natural`` plus up to ``wilds`` wild cards of rank index ``rank`` that has
    a reading, with every reading (:func:`ddzspec.wild.wild_readings` of each play, before the
    wild restrictions), derived backwards from the natural moves (see the module doc). With
    ``answering`` (the natural reading of a move to beat), only the readings that could beat
    it: its shape and size, and the shapes above the bomb line. A reading of a
    last-play-only shape is kept only when the play empties the hand. Raises ValueError when
    ``natural`` holds a card of ``rank``."""
    wild = require_wild(rules)
    if natural.counts[rank]:
        raise ValueError("the natural cards hold a card of the wild rank")
    h = natural.counts
    jokers = set(rules.jokers)
    out: PlayReadings = {}
    whole = (natural.key, wilds)
    own = {k: pack(tuple(k if i == rank else 0 for i in range(N_RANKS)))
           for k in range(1, wilds + 1)}
    memo = _READINGS.setdefault(rules.digest, {})
    if len(memo) > _MEMO_MAX:
        memo.clear()
    wmemo = _WILD_READINGS.setdefault((rules.digest, wild.bomb), {})
    if len(wmemo) > _MEMO_MAX:
        wmemo.clear()
    for mkey, m, entry in _natural_moves(h, wilds, jokers, rules, answering):
        reading = memo.get((mkey, entry))
        if reading is None:
            reading = memo[mkey, entry] = make_reading(rules, rules.shapes[entry[0]], m,
                                                       entry[1], entry[2])
        last_only = rules.shapes[entry[0]].last_play
        by_stand = wmemo.get((mkey, entry))
        if by_stand is None:
            by_stand = wmemo[mkey, entry] = {}
        for k, skey in _splits(m, h, wilds, jokers):
            if skey == mkey and own[k] != skey:
                continue  # wild cards only read as themselves, nothing else
            key = (mkey - skey, k)
            if last_only and key != whole:
                continue
            wr = by_stand.get(skey)
            if wr is None:
                all_wild = skey == mkey
                s = _cards(skey)
                wr = by_stand[skey] = WildReading(
                    reading, s, bomb_class(wild, reading, s.counts, all_wild), all_wild)
            got = out.get(key)
            if got is None:
                got = out[key] = []
            got.append(wr)
    return out


#: packed key → its Cards, across calls (Cards are immutable: one object serves every play
#: that holds the same cards); cleared past _MEMO_MAX
_CARDS: dict[int, Cards] = {}


def _cards(key: int) -> Cards:
    """``Cards.from_key(key)``, memoised in :data:`_CARDS`."""
    c = _CARDS.get(key)
    if c is None:
        if len(_CARDS) > _MEMO_MAX:
            _CARDS.clear()
        c = _CARDS[key] = Cards.from_key(key)
    return c


#: :func:`pack` key → its Cards, as :data:`_CARDS`
_CARDS4: dict[int, Cards] = {}


def _cards4(key4: int) -> Cards:
    """``Cards(unpack(key4))``, memoised in :data:`_CARDS4` (counts up to 9).

    >>> _cards4(pack([1, 0, 3] + [0] * 11 + [1])).counts == (1, 0, 3) + (0,) * 11 + (1,)
    True
    """
    c = _CARDS4.get(key4)
    if c is None:
        if len(_CARDS4) > _MEMO_MAX:
            _CARDS4.clear()
        # the counts are the key's hex digits, lowest rank last (each count is below 10)
        c = _CARDS4[key4] = Cards(tuple(map(int, f"{key4:0{N_RANKS}x}"[::-1])))
    return c


#: rules digest → (packed multiset, entry) → its natural Reading, across calls (a player asks
#: for the legal moves of similar hands many times); cleared past _MEMO_MAX
_READINGS: dict[str, dict[tuple[int, tuple[int, int, int]], Reading]] = {}
#: (rules digest, the wild ``bomb`` shape) → (packed multiset, entry) → packed ranks the wild
#: cards stand for → its WildReading, across calls; cleared past _MEMO_MAX
_WILD_READINGS: dict[tuple[str, str],
                     dict[tuple[int, tuple[int, int, int]], dict[int, WildReading]]] = {}
_MEMO_MAX = 200_000
_ZEROS = (0,) * N_RANKS


def _natural_moves(h: Sequence[int], wilds: int, jokers: set[int], rules: Rules,
                   answering: Reading | None = None
                   ) -> Iterator[tuple[int, tuple[int, ...], tuple[int, int, int]]]:
    """Every multiset legal under the natural rules (one reading) that ``h`` plus ``wilds``
    cards of any non-joker rank can make: (its packed key, its 15 counts, its entry); with
    ``answering``, of its shape and size or above the bomb line only (the natural rules give a
    multiset one reading at most, as ``check`` requires: the shapes left out hide no second
    reading)."""
    deck = rules.deck
    # spread[k]: what h plus k wild cards can hold of each rank (a joker is never substituted)
    spread = [tuple(h[i] if i in jokers else min(deck[i], h[i] + k) for i in range(N_RANKS))
              for k in range(wilds + 1)]
    reach = spread[wilds]
    seen: dict[int, tuple[tuple[int, ...], tuple[int, int, int]] | None] = {}
    for si, shape in enumerate(rules.shapes):
        sizes: set[int] | None = None
        if answering is not None and not shape.tier:
            if shape.name != answering.shape:
                continue
            sizes = {answering.size}
        c = shape.copies
        for start, run in shape_bodies(rules, si, reach, sizes):
            body = shape.seq[start:start + run]
            need = 0
            for i in body:
                if c > h[i]:
                    need += c - h[i]
            if need > wilds:
                continue
            left = wilds - need
            # the kickers may use the natural cards the body leaves and the wild cards left
            avail = list(spread[left])
            base = [0] * N_RANKS
            for i in body:
                base[i] = c
                if i not in jokers:
                    avail[i] = min(deck[i], max(h[i], c) + left)
            bkey = body_key(shape, start, run)
            for kkey, kick in body_kickers(rules, si, start, run, avail):
                m = tuple(map(add, base, kick))
                if sum(map(max, _ZEROS, map(sub, m, h))) > wilds:  # the deficit
                    continue
                key = bkey + kkey
                seen[key] = None if key in seen else (m, (si, start, run))  # twice: ambiguous
    for key, got in seen.items():
        if got is not None:
            yield key, got[0], got[1]


def _splits(m: Sequence[int], h: Sequence[int], wilds: int, jokers: set[int]
            ) -> Iterator[tuple[int, int]]:
    """Every way to play ``m`` from natural cards ``h`` and at most ``wilds`` wild cards:
    (the number of wild cards, the packed ranks they stand for; the natural cards are the
    rest of ``m``). The wild cards stand for the deficit (what ``h`` lacks), and for any held
    non-joker card besides."""
    need = dkey = 0
    room: list[tuple[int, int]] = []  # (rank, the held cards of m a wild card may stand for)
    for i in range(N_RANKS):
        c = m[i]
        if not c:
            continue
        d = c - h[i]
        if d > 0:
            if i in jokers:
                return
            need += d
            dkey |= d << (KEY_BITS * i)
            if c > d:
                room.append((i, c - d))
        elif i not in jokers:
            room.append((i, c))
    spare = wilds - need
    if spare <= 0:
        if not spare:
            yield need, dkey
        return
    for extra, more in _extras(tuple(room), spare):
        yield need + extra, dkey + more


#: (ranks with room, spare wild cards) → _extras' answer, across calls; cleared past _MEMO_MAX
_EXTRAS: dict[tuple[tuple[tuple[int, int], ...], int], tuple[tuple[int, int], ...]] = {}


def _extras(room: tuple[tuple[int, int], ...], spare: int) -> tuple[tuple[int, int], ...]:
    """The held cards up to ``spare`` wild cards may stand for besides the deficit: (how many,
    their packed ranks), from ``room`` ((rank, at most this many), ranks ascending); by count,
    then in the order of :func:`itertools.combinations_with_replacement` of the ranks (the
    lowest rank's count descending first)."""
    got = _EXTRAS.get((room, spare))
    if got is None:
        if len(_EXTRAS) > _MEMO_MAX:
            _EXTRAS.clear()
        # by_count[e]: the picks of e cards from the ranks seen so far (the highest first),
        # each rank's count descending, then the picks of the ranks above it
        by_count: list[list[int]] = [[0]] + [[] for _ in range(spare)]
        for i, cap in reversed(room):
            by_count = [[(n << (KEY_BITS * i)) + rest for n in range(min(e, cap), -1, -1)
                         for rest in by_count[e - n]] for e in range(spare + 1)]
        got = _EXTRAS[room, spare] = tuple(
            (extra, more) for extra in range(spare + 1) for more in by_count[extra])
    return got


def choose(wild: Wild, readings: Sequence[WildReading],
           previous: WildReading | None = None) -> tuple[WildReading, ...]:
    """The readings a play may be played as under the file's policy, after the wild
    restrictions: under ``strongest`` the one the policy takes (none if the play cannot lead
    or beat ``previous``), under ``declared`` every reading (those that beat ``previous``)."""
    kept = [r for r in readings if not violated(wild, r)] if wild.restrictions else list(readings)
    if previous is not None:
        kept = [r for r in kept if outranks(wild, r, previous)]
    if wild.policy is ReadingPolicy.DECLARED or len(kept) < 2:
        return tuple(kept)
    best = strongest(wild, kept, previous)
    return (best,) if best is not None else ()


def wild_legal_moves(hand: Cards, rank: int, rules: Rules,
                     previous: WildReading | None = None) -> tuple[WildPlay, ...]:
    """Every legal play of ``hand`` (its cards of rank index ``rank`` are the wild cards):
    leads, or answers that beat ``previous``, each with its reading under the file's policy
    (see the module doc; ``strongest``: each play once; ``declared``: one per reading). Order:
    the hint's, smallest useful first (below the bomb line by the body's height, then the shape
    order of the file and the size; above it by class and rank), then fewer wild cards. Raises
    ValueError on rules without wild cards, or drawing several wild ranks (tiandi laizi: not
    generated yet).

    Under ``strongest`` a fast path (below) finds the same plays, readings and order as
    :func:`chosen_moves`, the policy applied to every reading of :func:`play_readings`
    (docs/scaling.md, "Wild cards", has the figures)."""
    wild = require_wild(rules)
    if wild.count > 1:
        raise ValueError(f"{rules.name} draws {wild.count} wild ranks: legal moves with several "
                         "wild ranks are not generated yet (one wild rank: laizi)")
    pol = _policy(rules, wild) if wild.policy is ReadingPolicy.STRONGEST else None
    if pol is not None and pol.fast and (previous is None or not pol.odd_order):
        return _fast_moves(hand, rank, rules, wild, previous)
    return chosen_moves(hand, rank, rules, previous)


def chosen_moves(hand: Cards, rank: int, rules: Rules,
                 previous: WildReading | None = None) -> tuple[WildPlay, ...]:
    """:func:`wild_legal_moves` by :func:`choose` on every reading of every play of
    :func:`play_readings` (the path of the ``declared`` policy, and of files the fast path
    leaves alone; the reference the fast path is measured against in bench/wild_moves.py).
    Raises ValueError on rules without wild cards."""
    wild = require_wild(rules)
    natural, wilds = split_hand(hand, rank)
    shapes = {s.name: i for i, s in enumerate(rules.shapes)}
    out: list[WildPlay] = []
    found = play_readings(natural, wilds, rank, rules,
                          previous.reading if previous is not None else None)
    for (nkey, k), readings in found.items():
        move = WildMove(_cards(nkey), k, rank)
        out.extend(WildPlay(move, r) for r in choose(wild, readings, previous))

    def order(p: WildPlay) -> tuple[tuple[int, ...], int, int, int, int, int]:
        r = p.reading.reading
        return ((0, 0, 0) if not r.tier else strength(wild, p.reading), r.key,
                shapes[r.shape], r.size, p.move.wilds, p.move.natural.key)
    return tuple(sorted(out, key=order))


# --- the fast path of the strongest policy -------------------------------------------------
# A play's readings depend on the play only, never on the rest of the hand. The legal
# multisets ``m`` of the move table whose deficit against the hand is at most ``w`` are met
# body by body in the order of :func:`_natural_moves` (shape, body, kicker); each split of
# each ``m`` (as :func:`_splits` orders them) is scored in place (the policy as one tuple,
# lower first; the first of equal scores wins, as ``max`` does in
# :func:`ddzspec.wild.strongest`), and WildReading objects are built for the readings kept
# only. Multisets are packed 4 bits per rank (:func:`~ddzspec.cards.pack`), so the deficit of
# ``m`` against a hand is one subtraction with guard bits (:func:`_deficit4`); they are also
# held in *unary* form (``c`` low bits set in a field of ``width`` bits per rank), so the
# number of cards the hand lacks is ``(m & ~hand).bit_count()``.


@dataclass(frozen=True, slots=True)
class _Body:
    """One body of the move table: its entry, its cards in unary form, the shape's tier and
    size, whether it plays only as a whole hand, and its legal multisets (:func:`pack` key,
    unary key) in kicker order."""

    entry: tuple[int, int, int]
    unary: int
    tier: int
    size: int
    last_only: bool
    moves: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class _Index:
    """The move table of one rules digest by :class:`_Body`, in generation order, and by
    (shape index, size) with the tiered bodies apart (answers); ``jokers4``: the joker ranks'
    fields of a :func:`pack` key."""

    width: int
    full: int
    jokers4: int
    bodies: tuple[_Body, ...]
    by_type: dict[tuple[int, int], tuple[_Body, ...]]
    tiered: tuple[_Body, ...]


#: rules digest → its :class:`_Index` (the wild section leaves the natural moves alone)
_INDEX: dict[str, _Index] = {}


def _unary(counts: Sequence[int], width: int) -> int:
    """``counts`` in unary form: ``c`` low bits set in each rank's field of ``width`` bits."""
    u = 0
    for i, c in enumerate(counts):
        u |= ((1 << c) - 1) << (width * i)
    return u


def _index(rules: Rules) -> _Index:
    """The :class:`_Index` of ``rules``, built once per digest from its move table."""
    got = _INDEX.get(rules.digest)
    if got is not None:
        return got
    entries = get_table(rules).entries
    width = max(rules.deck)
    bodies: list[_Body] = []
    for si, shape in enumerate(rules.shapes):
        for start, run in shape_bodies(rules, si):
            entry = (si, start, run)
            bkey = body_key(shape, start, run)
            keys = [bkey + kk for kk, _ in body_kickers(rules, si, start, run)]
            moves = tuple((pack(unpack(key)), _unary(unpack(key), width)) for key in keys
                          if entries.get(key) == entry)
            if moves:
                bodies.append(_Body(entry, _unary(unpack(bkey), width), shape.tier,
                                    shape.size(run), shape.last_play, moves))
    by_type: dict[tuple[int, int], list[_Body]] = {}
    for b in bodies:
        if not b.tier:
            by_type.setdefault((b.entry[0], b.size), []).append(b)
    got = _INDEX[rules.digest] = _Index(
        width, (1 << (width * N_RANKS)) - 1, sum(KEY_MASK << (KEY_BITS * j) for j in rules.jokers),
        tuple(bodies), {k: tuple(v) for k, v in by_type.items()},
        tuple(b for b in bodies if b.tier))
    return got


def _deficit4(m4: int, h4: int) -> int:
    """What ``m`` holds beyond ``h`` rank by rank (``max(0, m - h)``), all :func:`pack` keys
    of counts up to 7: a guard bit per field survives ``(m | G) - h`` iff ``m >= h``.

    >>> _deficit4(pack([3, 1, 2] + [0] * 12), pack([1, 2, 2] + [0] * 12)) == pack([2])
    True
    """
    x = (m4 | KEY_GUARD) - h4
    keep = x & KEY_GUARD
    return x & (keep - (keep >> 3))


#: The score of a reading: lower is taken first (:func:`_lead_score`, :func:`_answer_score`).
Score = tuple[int, ...]


class _Policy:
    """What the fast path memoises per (rules digest, wild section): the natural Reading and
    the WildReading of a multiset with the ranks its wild cards stand for (:func:`pack`
    keys), the lead scores, the extras of a held part, and each kept play with its hint-order
    key."""

    def __init__(self, rules: Rules, wild: Wild) -> None:
        self.rules = rules
        self.wild = wild
        self.place = {s: i for i, s in enumerate(wild.priority)}
        self.shape_index = {s.name: i for i, s in enumerate(rules.shapes)}
        self.natural: dict[int, Reading] = {}
        self.table = get_table(rules)
        #: m4 << 64 | s4 → its WildReading
        self.readings: dict[int, WildReading] = {}
        self.cut: dict[tuple[int, int], bool] = {}
        #: held cards (:func:`pack`) << 3 | spare wild cards → :meth:`extra`'s answer
        self.extras: dict[int, tuple[tuple[int, int], ...]] = {}
        #: (play key << 64 | s4) << 4 | wild rank → the play and its hint-order key
        self.plays: dict[int, tuple[int, WildPlay]] = {}
        #: m4 << 64 | s4 → :meth:`ordered`'s answer
        self.orders: dict[int, tuple[WildReading, int]] = {}
        self.lead_scores: dict[tuple[tuple[int, int, int], BombClass | None], Score] = {}
        #: a type below the bomb line that the wild order ranks: answers to a bomb are then
        #: left to :func:`choose`
        self.odd_order = any(not s.tier and s.name in wild.order for s in rules.shapes)
        #: whether the fast path serves the file: the priority ranks every shape (else two
        #: shapes tie on it, and a bomb's class could order them) and no rank has more than
        #: 7 cards (the guard bit of :func:`_deficit4`); else :func:`chosen_moves` does
        self.fast = all(s.name in self.place for s in rules.shapes) and max(rules.deck) <= 7
        self.lead_bodies: tuple[_Body, ...] | None = None
        self.by_type: dict[tuple[str, int], list[tuple[int, _Body]]] = {}

    def leads(self, index: _Index) -> tuple[_Body, ...]:
        """The bodies in the order the lead takes their readings (:func:`_lead_score`;
        stable): the first reading met of a play is then the one the policy takes. A play has
        one reading of the wild bomb at most (its natural cards are the body), so a bomb's
        class never reorders it against another bomb."""
        if self.lead_bodies is None:
            self.lead_bodies = tuple(sorted(
                index.bodies, key=lambda b: _lead_score(self, b.moves[0][0], b.entry, None)))
        return self.lead_bodies

    def above(self, index: _Index, prev: Reading) -> list[_Body]:
        """The bodies of the type and size of ``prev`` (below the bomb line) with a higher
        body, the highest first (stable): each of their readings beats ``prev``."""
        got = self.by_type.get((prev.shape, prev.size))
        if got is None:
            bodies = index.by_type.get((self.shape_index.get(prev.shape, -1), prev.size), ())
            got = self.by_type[prev.shape, prev.size] = sorted(
                ((self.natural_reading(b.moves[0][0]).key, b) for b in bodies),
                key=lambda kb: -kb[0])
        return [b for key, b in got if key > prev.key]

    def natural_reading(self, m4: int) -> Reading:
        """The natural Reading of the legal multiset ``m4``: the move table's (one object
        per move, shared with :mod:`ddzspec.moves`)."""
        r = self.natural.get(m4)
        if r is None:
            r = self.table.lookup(m4)
            assert r is not None  # a legal multiset of the table
            self.natural[m4] = r
        return r

    def reading(self, m4: int, s4: int) -> WildReading:
        """The WildReading of the legal multiset ``m4`` with wild cards standing
        for ``s4`` (all of it: wild cards only)."""
        wr = self.readings.get((m4 << 64) | s4)
        if wr is None:
            r = self.natural_reading(m4)
            all_wild = s4 == m4
            s = _cards4(s4)
            wr = self.readings[(m4 << 64) | s4] = WildReading(
                r, s, bomb_class(self.wild, r, s.counts, all_wild), all_wild)
        return wr

    def allowed(self, m4: int, s4: int) -> bool:
        """Whether no wild restriction cuts the reading (memoised)."""
        got = self.cut.get((m4, s4))
        if got is None:
            got = self.cut[m4, s4] = not violated(self.wild, self.reading(m4, s4))
        return got

    def extra(self, room4: int, spare: int) -> tuple[tuple[int, int], ...]:
        """The picks of :func:`_extras` from the held cards ``room4``, packed 4 bits per rank
        (:func:`pack`), in the same order: (their key << 3 minus how many, their key): a
        play's key (natural cards << 3 | wild cards) less the first is the play with the
        picked cards played as wild cards instead."""
        got = self.extras.get((room4 << 3) | spare)
        if got is None:
            by_count: list[list[int]] = [[0]] + [[] for _ in range(spare)]
            for i in range(N_RANKS - 1, -1, -1):
                cap = (room4 >> (KEY_BITS * i)) & KEY_MASK
                if cap:
                    by_count = [[(n << (KEY_BITS * i)) + rest for n in range(min(e, cap), -1, -1)
                                 for rest in by_count[e - n]] for e in range(spare + 1)]
            got = self.extras[(room4 << 3) | spare] = tuple(
                ((more << 3) - e, more) for e in range(spare + 1) for more in by_count[e])
        return got

    def play(self, rank: int, pkey: int, s4: int) -> tuple[int, WildPlay]:
        """The play ``pkey`` (natural cards' :func:`pack` key << 3 | wild cards) with the
        wild cards standing for ``s4``, and its place in hint order: the key
        :func:`chosen_moves` sorts by, its fields packed into one int (the reading's part
        from :meth:`ordered`, then the wild cards, then the natural cards' key)."""
        memo_key = (((pkey << 64) | s4) << 4) | rank  # m4 is (pkey >> 3) + s4
        got = self.plays.get(memo_key)
        if got is None:
            wr, order = self.ordered((pkey >> 3) + s4, s4)
            n4, k = pkey >> 3, pkey & 7
            # n4 orders as natural.key does: both pack the counts with the top rank highest
            got = self.plays[memo_key] = (
                (((order << 32) | k) << 64) | n4, WildPlay(WildMove(_cards4(n4), k, rank), wr))
        return got

    def ordered(self, m4: int, s4: int) -> tuple[WildReading, int]:
        """:meth:`reading` and the reading's part of the hint order (:func:`chosen_moves`:
        the strength above the bomb line, the body key, the shape, the size), one int of 32
        bits a field (memoised)."""
        got = self.orders.get((m4 << 64) | s4)
        if got is None:
            wr = self.reading(m4, s4)
            r = wr.reading
            order = 0
            for x in ((0, 0, 0) if not r.tier else strength(self.wild, wr)) + (
                    r.key, self.shape_index[r.shape], r.size):
                assert 0 <= x < 1 << 32  # keys, tiers and sizes are small counts
                order = (order << 32) | x
            got = self.orders[(m4 << 64) | s4] = (wr, order)
        return got


_POLICIES: dict[tuple[str, Wild], _Policy] = {}


def _policy(rules: Rules, wild: Wild) -> _Policy:
    """The :class:`_Policy` memo of ``rules`` (renewed past _MEMO_MAX plays or readings)."""
    got = _POLICIES.get((rules.digest, wild))
    if got is None or max(len(got.plays), len(got.readings), len(got.orders),
                          len(got.extras)) > _MEMO_MAX:
        got = _POLICIES[rules.digest, wild] = _Policy(rules, wild)
    return got


def _fast_moves(hand: Cards, rank: int, rules: Rules, wild: Wild,
                previous: WildReading | None) -> tuple[WildPlay, ...]:
    """:func:`wild_legal_moves` under the ``strongest`` policy (see the fast path's note)."""
    enabled = gc.isenabled()
    gc.disable()  # thousands of small acyclic objects: no collection passes meanwhile
    try:
        return _fast_plays(hand, rank, rules, wild, previous)
    finally:
        if enabled:
            gc.enable()


def _fast_plays(hand: Cards, rank: int, rules: Rules, wild: Wild,
                previous: WildReading | None) -> tuple[WildPlay, ...]:
    """:func:`_fast_moves` with the garbage collector off. Leading, the bodies go in
    :meth:`_Policy.leads` order and the first reading met of a play is the one the policy
    takes; answering a move below the bomb line, the bodies of its type and size with a
    higher body come first, highest first (the answered type and size are taken before any
    bomb), then the tiered readings are scored (:func:`_answer_score`)."""
    index = _index(rules)
    pol = _policy(rules, wild)
    natural, wilds = split_hand(hand, rank)
    h4 = pack(natural.counts)
    nh = index.full & ~_unary(natural.counts, index.width)
    taken: Taken = {}
    if previous is None:
        _claim(pol, index, pol.leads(index), h4, nh, wilds, rank, taken)
    else:
        if not previous.reading.tier:
            _claim(pol, index, pol.above(index, previous.reading), h4, nh, wilds, rank, taken)
        _scored(pol, index, h4, nh, wilds, rank, previous, taken)
    out = [pol.play(rank, pkey, s4) for pkey, s4 in taken.items()]
    out.sort(key=_first)
    return tuple(p for _, p in out)


#: a play (natural cards' :func:`pack` key << 3 | wild cards) → the reading taken: the ranks
#: its wild cards stand for (:func:`pack`; the multiset read is the play's natural cards
#: plus those)
Taken = dict[int, int]


def _claim(pol: _Policy, index: _Index, bodies: Sequence[_Body], h4: int, nh: int,
           wilds: int, rank: int, taken: Taken) -> None:
    """Add to ``taken`` the first reading met of each play of a hand (``h4``: its natural
    cards, :func:`pack`; ``nh``: the complement of their unary form) among ``bodies``, in
    order, that no wild restriction cuts."""
    own = [k << (4 * rank) for k in range(wilds + 1)]
    jokers4, held_ok, guard = index.jokers4, ~index.jokers4, KEY_GUARD
    memo = pol.extras
    allowed = pol.allowed if pol.wild.restrictions else None
    for body in bodies:
        if (body.unary & nh).bit_count() > wilds:
            continue
        if body.last_only or allowed is not None:
            for pkey, m4, s4 in _body_pairs(body, index, h4, nh, wilds, rank, pol):
                if pkey not in taken and (allowed is None or allowed(m4, s4)):
                    taken[pkey] = s4
            continue
        for m4, mu in body.moves:
            need = (mu & nh).bit_count()
            if need > wilds:
                continue
            x = (m4 | guard) - h4  # _deficit4, inline
            keep = x & guard
            d4 = x & (keep - (keep >> 3))
            if d4 & jokers4:
                continue  # a wild card never stands for a joker
            held = m4 - d4
            base = (held << 3) | need
            if need == wilds:
                if base not in taken and (base > 7 or m4 == own[need]):
                    taken[base] = d4
                continue
            picks = memo.get(((held & held_ok) << 3) | (wilds - need))
            if picks is None:
                picks = pol.extra(held & held_ok, wilds - need)
            for delta, x4 in picks:
                pkey = base - delta
                if pkey not in taken and (pkey > 7 or m4 == own[pkey]):
                    taken[pkey] = d4 + x4


def _body_pairs(body: _Body, index: _Index, h4: int, nh: int, wilds: int, rank: int,
                pol: _Policy) -> Iterator[tuple[int, int, int]]:
    """Every split of the body's multisets against a hand (see :func:`_lead_plays`): (the
    play, the multiset, the ranks the wild cards stand for), as :func:`_splits` orders them;
    a play of wild cards only when it reads as itself; of a last-play-only shape only the
    whole hand."""
    whole = (h4 << 3) | wilds
    for m4, mu in body.moves:
        need = (mu & nh).bit_count()
        if need > wilds:
            continue
        d4 = _deficit4(m4, h4)
        if d4 & index.jokers4:
            continue  # a wild card never stands for a joker
        held = m4 - d4
        base = (held << 3) | need
        picks = pol.extra(held & ~index.jokers4, wilds - need) if need < wilds else ((0, 0),)
        for delta, x4 in picks:
            pkey = base - delta
            if pkey <= 7 and m4 != (pkey << (4 * rank)):
                continue  # wild cards only read as themselves, nothing else
            if body.last_only and pkey != whole:
                continue
            yield pkey, m4, d4 + x4


def _scored(pol: _Policy, index: _Index, h4: int, nh: int, wilds: int, rank: int,
            previous: WildReading, taken: Taken) -> None:
    """Add to ``taken`` the tiered answers to ``previous`` of a hand (see :func:`_claim`)
    for the plays not taken yet: of each play the reading that beats ``previous`` with the
    lowest :func:`_answer_score` (the first of equal ones), none cut by a wild restriction."""
    restricted = bool(pol.wild.restrictions)
    done = set(taken)
    best: dict[int, Score] = {}
    for body in index.tiered:
        if (body.unary & nh).bit_count() > wilds:
            continue
        for pkey, m4, s4 in _body_pairs(body, index, h4, nh, wilds, rank, pol):
            if pkey in done or (restricted and not pol.allowed(m4, s4)):
                continue
            s = _answer_score(pol, m4, s4, previous)
            if s is not None and (pkey not in best or s < best[pkey]):
                best[pkey] = s
                taken[pkey] = s4


def _first(item: tuple[int, WildPlay]) -> int:
    return item[0]


def _lead_score(pol: _Policy, m4: int, entry: tuple[int, int, int],
                cls: BombClass | None) -> Score:
    """:func:`~ddzspec.wild.strongest_key` of a lead, memoised per entry and bomb class (it
    depends on nothing else)."""
    got = pol.lead_scores.get((entry, cls))
    if got is None:
        wr = WildReading(pol.natural_reading(m4), _cards4(0), cls)
        key = strongest_key(pol.wild, wr)
        assert key is not None  # leading, every reading has a key
        got = pol.lead_scores[entry, cls] = key
    return got


def _answer_score(pol: _Policy, m4: int, s4: int, previous: WildReading) -> Score | None:
    """:func:`~ddzspec.wild.strongest_key` of an answer to ``previous``; None for a reading
    that does not beat it (:func:`~ddzspec.wild.outranks`) or that the policy never takes."""
    wr = pol.reading(m4, s4)
    if not outranks(pol.wild, wr, previous):
        return None
    return strongest_key(pol.wild, wr, previous)
