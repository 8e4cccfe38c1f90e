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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import add, sub

from .cards import KEY_BITS, N_RANKS, Cards, pack
from .readings import Reading, make_reading
from .rules import Rules
from .rules.model import ReadingPolicy, Wild
from .table import body_key, body_kickers, shape_bodies
from .wild import (
    WildMove,
    WildReading,
    bomb_class,
    outranks,
    require_wild,
    strength,
    strongest,
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
    ValueError on rules without wild cards."""
    wild = require_wild(rules)
    natural, wilds = split_hand(hand, rank)
    shapes = {s.name: i for i, s in enumerate(rules.shapes)}
    out: list[WildPlay] = []
    found = play_readings(natural, wilds, rank, rules,
                          previous.reading if previous is not None else None)
    for (nkey, k), readings in found.items():
        move = WildMove(_cards(nkey), k, rank)
        out.extend(WildPlay(move, r) for r in choose(wild, readings, previous))

    def order(p: WildPlay) -> tuple[tuple[int, int, int], int, int, int, int, int]:
        r = p.reading.reading
        return ((0, 0, 0) if not r.tier else strength(wild, p.reading), r.key,
                shapes[r.shape], r.size, p.move.wilds, p.move.natural.key)
    return tuple(sorted(out, key=order))
