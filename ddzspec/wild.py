"""Readings with wild cards (laizi; issue 26), derived from the natural readings.

A played multiset is its natural cards plus ``w`` wild cards of the wild rank (every card of
that rank is wild, so the natural cards hold none of it). A *substitution* gives each wild card
a non-joker rank of the deck, its own included. The move's readings are the readings of every
substituted multiset that is legal under the natural rules (exactly one reading there, by the
CSP of :mod:`ddzspec.readings`: no second reading engine), each with the ranks the wild cards
stand for and, for the ``wild bomb`` shape, its :class:`~ddzspec.rules.model.BombClass`. A
multiset of wild cards only reads as itself (Baidu Baike's laizi article: "单独出时只能是本牌").
The wild restrictions of the rules file then cut readings (:func:`violated`).

>>> from ddzspec.cards import Rank, parse_cards
>>> from ddzspec.rules import load_rules
>>> rules = load_rules("laizi")
>>> rs = wild_readings(parse_cards("4").cards, 3, Rank.SEVEN.index, rules)
>>> sorted({r.reading.shape for r in rs})
['bomb', 'trio_single']
>>> [r.describe() for r in rs if r.bomb_class]
['bomb 4444 (soft; wild cards as 444)']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from .cards import ALL_RANKS, N_RANKS, Cards, parse_cards
from .errors import NotationError
from .readings import Reading, beats, solve_readings
from .rules import Rules
from .rules.model import (
    BombClass,
    BombKey,
    ReadingPolicy,
    Wild,
    WildDraw,
    WildRestriction,
    WildRestrictionKind,
)

#: The natural readings of a multiset (15 counts): every reading the natural rules give it.
NaturalReadings = Callable[[tuple[int, ...]], Sequence[Reading]]


@dataclass(frozen=True, slots=True)
class WildReading:
    """One reading of a move with wild cards: the natural ``reading`` of the substituted
    multiset, the ranks the wild cards stand for (``stands_for``, ``w`` cards; for a move of
    wild cards only, their own rank) and the ``bomb_class`` of a reading of the wild ``bomb``
    shape (None for any other shape)."""

    reading: Reading
    stands_for: Cards
    bomb_class: BombClass | None = None
    all_wild: bool = False

    def describe(self, notation: str = "en") -> str:
        """``bomb 4444 (soft; wild cards as 444)``, ``pair 77 (wild cards as themselves)``."""
        words = [self.bomb_class.value] if self.bomb_class else []
        if self.all_wild or len(self.stands_for):
            as_ = "themselves" if self.all_wild else self.stands_for.format(notation)
            words.append(f"wild cards as {as_}")
        return self.reading.describe(notation) + (f" ({'; '.join(words)})" if words else "")

    def to_json(self, notation: str = "en", cut: Sequence[object] = ()) -> dict[str, Any]:
        """As JSON: ``type``, ``cards``, ``body``, ``kickers`` (units joined by "+", as
        ``read`` writes them), ``bomb_class``, ``wild_as`` (the ranks the wild cards stand
        for, "themselves", or "" for none) and ``ruled_out_by`` (the restrictions ``cut``)."""
        x = self.reading
        return {"type": x.shape, "cards": x.format(notation), "body": x.body_text(notation),
                "kickers": "+".join(u.format(notation) for u in x.units()),
                "bomb_class": self.bomb_class.value if self.bomb_class else None,
                "wild_as": "themselves" if self.all_wild else
                self.stands_for.format(notation) if len(self.stands_for) else "",
                "ruled_out_by": [str(c) for c in cut]}


_NATURAL: dict[str, dict[tuple[int, ...], tuple[Reading, ...]]] = {}


def natural_readings(rules: Rules) -> NaturalReadings:
    """The CSP readings of :func:`~ddzspec.readings.solve_readings` under ``rules``, cached by
    multiset (per rules digest: the wild section does not change them)."""
    cache = _NATURAL.setdefault(rules.digest, {})

    def get(counts: tuple[int, ...]) -> tuple[Reading, ...]:
        got = cache.get(counts)
        if got is None:
            got = cache[counts] = tuple(solve_readings(counts, rules))
        return got
    return get


def require_wild(rules: Rules) -> Wild:
    """The rules' wild section; ValueError for rules without wild cards."""
    if rules.wild is None:
        raise ValueError(f"{rules.name} has no wild cards (no wild section)")
    return rules.wild


def wild_rank_named(text: str, rules: Rules, notation: str = "en") -> int:
    """The rank index ``text`` names as the wild rank of ``rules`` (one card in ``notation``,
    e.g. ``7``). Raises NotationError (a bad symbol, located) or ValueError: rules without wild
    cards or drawing other than one wild rank, not one card, a joker (never wild), a rank the
    file's draw cannot draw."""
    wild = require_wild(rules)
    if len(wild.draws) != 1:
        raise ValueError(f"{rules.name} draws {len(wild.draws)} wild ranks "
                         f"({', '.join(d.name for d in wild.draws)}): name one for each, "
                         "e.g. 7,Q")
    return _drawn_rank(text, wild.draws[0], rules, notation)


def wild_ranks_named(text: str, rules: Rules, notation: str = "en") -> WildRanks:
    """The wild ranks ``text`` names: one rank (``7``) on a file of one draw (the rank index,
    as :func:`wild_rank_named`), one per draw separated by commas (``9,Q``: tiandi laizi's
    sky and earth) on a file of several (a tuple of rank indices, in the draws' order).
    Raises NotationError or ValueError: the wrong number of ranks, a rank named twice (a
    draw never repeats an earlier one), or what :func:`wild_rank_named` refuses."""
    wild = require_wild(rules)
    if len(wild.draws) == 1:
        return wild_rank_named(text, rules, notation)
    parts = text.split(",")
    if len(parts) != len(wild.draws):
        raise ValueError(f"{rules.name} draws {len(wild.draws)} wild ranks "
                         f"({', '.join(d.name for d in wild.draws)}): name one for each, "
                         f"separated by commas, e.g. 7,Q (got {len(parts)})")
    out: list[int] = []
    for part, draw in zip(parts, wild.draws):
        rank = _drawn_rank(part.strip(), draw, rules, notation)
        if rank in out:
            raise ValueError(f"{ALL_RANKS[rank].symbol(notation)} named twice: the {draw.name} "
                             "draw never repeats an earlier draw's rank")
        out.append(rank)
    return tuple(out)


def _drawn_rank(text: str, draw: WildDraw, rules: Rules, notation: str) -> int:
    """The rank index ``text`` names, one the draw ``draw`` can draw (see
    :func:`wild_rank_named`)."""
    cards = parse_cards(text, notation).cards
    if len(cards) != 1:
        raise ValueError(f"one rank, e.g. 7 (got {len(cards)} cards)")
    rank = next(i for i, c in enumerate(cards.counts) if c)
    if rank in rules.jokers:
        raise ValueError(f"a joker is never wild ({rules.name}: {draw})")
    if rank not in draw.ranks:
        raise ValueError(f"{rules.name}: the {draw.name} draw cannot draw "
                         f"{ALL_RANKS[rank].symbol(notation)} ({draw})")
    return rank


#: The drawn wild ranks a move is read under: a rank index (one draw, laizi) or a tuple of
#: them (several draws, tiandi laizi's sky and earth).
WildRanks = int | tuple[int, ...]


def ranks_of(rank: WildRanks) -> tuple[int, ...]:
    """The drawn wild ranks as a tuple (``7`` and ``(7,)`` alike)."""
    return (rank,) if isinstance(rank, int) else rank


def bomb_class(wild: Wild, reading: Reading, stands_for: Sequence[int],
               all_wild: bool = False) -> BombClass | None:
    """The class of a reading of the wild ``bomb`` shape: ``pure`` for wild cards only,
    ``hard`` for natural cards only, else ``soft``; None for any other shape."""
    if reading.shape != wild.bomb:
        return None
    if all_wild:
        return BombClass.PURE
    return BombClass.SOFT if any(stands_for) else BombClass.HARD


def wild_readings(natural: Cards, wilds: int, rank: int, rules: Rules,
                  readings: NaturalReadings | None = None) -> tuple[WildReading, ...]:
    """Every reading of ``natural`` plus ``wilds`` wild cards of rank index ``rank`` (before
    the wild restrictions), in substitution order: :func:`readings_with` of one wild rank.
    ``readings``: the natural readings (default :func:`natural_readings`). Raises ValueError
    when ``natural`` holds a card of ``rank`` or a substitution would exceed the deck (more
    wild cards than the rank has)."""
    counts = [0] * N_RANKS
    counts[rank] = wilds
    return readings_with(natural, Cards(tuple(counts)), (rank,), rules, readings)


def readings_with(natural: Cards, wild_cards: Cards, ranks: Sequence[int], rules: Rules,
                  readings: NaturalReadings | None = None) -> tuple[WildReading, ...]:
    """Every reading of ``natural`` plus the wild cards ``wild_cards`` (cards of the drawn
    wild ranks ``ranks``: laizi one, tiandi laizi's sky and earth two), before the wild
    restrictions, in substitution order. Each wild card stands for any non-joker rank, so
    only their number counts; wild cards alone read as themselves (a sky and an earth card
    together are two singles: no reading). A substituted multiset of one rank whose length
    is a longer bomb of the file (``bomb bomb 4 .. 12``) reads as that ``soft`` bomb
    (:func:`long_bomb`: the natural table knows no more than the deck's copies); any other
    multiset beyond the deck has no reading. Raises ValueError: ``natural`` holds a wild
    rank's card, a wild card outside ``ranks``, more of a rank than the deck has."""
    wild = require_wild(rules)
    get = readings or natural_readings(rules)
    if any(natural.counts[r] for r in ranks):
        held = next(r for r in ranks if natural.counts[r])
        raise ValueError(f"the natural cards hold the wild rank {ALL_RANKS[held].symbol()}")
    for i, c in enumerate(wild_cards.counts):
        if c and i not in ranks:
            raise ValueError(f"{ALL_RANKS[i].symbol()} is not a wild rank")
        if c > rules.deck[i]:
            raise ValueError(f"{c} wild cards: the deck holds {rules.deck[i]}")
    wilds = len(wild_cards)
    if not len(natural):
        own = wild_cards.counts
        rs = get(own) if wilds else ()
        return tuple(WildReading(r, Cards(own), bomb_class(wild, r, own, True), True)
                     for r in rs[:1] if len(rs) == 1)
    subs = [i for i in range(N_RANKS) if rules.deck[i] and i not in rules.jokers]
    out: list[WildReading] = []
    for sub in combinations_with_replacement(subs, wilds):
        s = [0] * N_RANKS
        for i in sub:
            s[i] += 1
        m = tuple(c + x for c, x in zip(natural.counts, s))
        long = long_bomb(rules, m)
        if long is not None:
            out.append(WildReading(long, Cards(tuple(s)), BombClass.SOFT))
            continue
        if any(c > d for c, d in zip(m, rules.deck)):
            continue
        rs = get(m)
        if len(rs) == 1:  # legal under the natural rules: exactly one reading
            out.append(WildReading(rs[0], Cards(tuple(s)), bomb_class(wild, rs[0], s)))
    return tuple(out)


def long_bomb(rules: Rules, counts: Sequence[int]) -> Reading | None:
    """The reading of ``counts`` (15 counts) as a bomb longer than the wild ``bomb`` shape's
    size (tiandi laizi: 5 to 12 cards of one rank, natural and wild cards): the shape's name
    and tier, ``size`` its length, ``key`` its rank's strength; None when ``counts`` is not
    one rank at such a length. The ladder (:func:`strength`) compares it.

    >>> from ddzspec.rules import load_rules
    >>> r = long_bomb(load_rules("tiandi"), (6,) + (0,) * 14)  # six 3s
    >>> (r.shape, r.size, r.format()) if r else None
    ('bomb', 6, '333333')
    >>> long_bomb(load_rules("tiandi"), (4,) + (0,) * 14) is None  # the natural table's
    True
    """
    wild = require_wild(rules)
    held = [i for i, c in enumerate(counts) if c]
    if len(held) != 1 or counts[held[0]] not in wild.lengths[1:]:
        return None
    shape = next(x for x in rules.shapes if x.name == wild.bomb)
    r = held[0]
    return Reading(shape.name, shape.tier, Cards(tuple(counts)), Cards((0,) * N_RANKS),
                   rules.strength[r], counts[r], 1, None, r)


def violated(wild: Wild, r: WildReading,
             restrictions: Sequence[WildRestriction] | None = None) -> tuple[WildRestriction, ...]:
    """The wild restrictions (default: the file's) that cut the reading ``r``. A move of wild
    cards only reads as itself and is never cut."""
    if r.all_wild:
        return ()
    out = []
    for x in wild.restrictions if restrictions is None else restrictions:
        if x.kind is WildRestrictionKind.NO_WILD_KICKER:
            body = r.reading.body.counts
            if any(s > b for s, b in zip(r.stands_for.counts, body)):
                out.append(x)
        elif (r.bomb_class is BombClass.SOFT and x.param is not None
              and r.reading.size - len(r.stands_for) < x.param):
            out.append(x)
    return tuple(out)


def allowed(natural: Cards, wilds: int, rank: int, rules: Rules,
            readings: NaturalReadings | None = None) -> tuple[WildReading, ...]:
    """The readings of :func:`wild_readings` that no wild restriction of the file cuts."""
    wild = require_wild(rules)
    return tuple(r for r in wild_readings(natural, wilds, rank, rules, readings)
                 if not violated(wild, r))


def strength(wild: Wild, r: WildReading) -> tuple[int, ...]:
    """How high a reading stands: (its place in the wild ``order``, counted from the bottom,
    for a bomb's class or a shape above the bomb, else 0; its tier; its body's key). Above the
    bomb line a higher tuple beats a lower one (``rocket > pure > hard > soft``, then the
    rank); below it only the key of the same type and size compares. Under a ladder with
    ``length`` (tiandi laizi) a bomb stands at (1, then its ``ladder`` keys: length, class
    place, rank key, in the declared order): above every shape below the bomb line, below
    every shape above the bomb (their places come first in such a file's ``order``)."""
    name = r.bomb_class.value if r.bomb_class else r.reading.shape
    place = len(wild.order) - wild.order.index(name) if name in wild.order else 0
    if r.bomb_class is None or BombKey.LENGTH not in wild.ladder:
        return place, r.reading.tier, r.reading.key
    value = {BombKey.LENGTH: r.reading.size, BombKey.CLASS: place,
             BombKey.RANK: r.reading.key}
    return (1, *(value[k] for k in wild.ladder))


def outranks(wild: Wild, play: WildReading, previous: WildReading) -> bool:
    """Whether ``play`` beats ``previous``: above the bomb line by :func:`strength` (the
    classes in the declared order, then the rank), below it the natural rule
    (:func:`ddzspec.readings.beats`: the same type and size, a higher body)."""
    if play.reading.tier or previous.reading.tier:
        return strength(wild, play) > strength(wild, previous)
    return beats(play.reading, previous.reading)[0]


@lru_cache(maxsize=64)
def _priority(wild: Wild) -> dict[str, int]:
    """Each shape's place in the ``priority`` of ``wild`` (0 first), memoised per Wild value."""
    return {s: i for i, s in enumerate(wild.priority)}


def strongest_key(wild: Wild, r: WildReading,
                  answering: WildReading | None = None) -> tuple[int, ...] | None:
    """Where the ``strongest`` policy ranks the reading ``r``, lower first (the one
    definition of the policy: :func:`strongest` takes the first reading of the lowest key;
    the fast generator of :mod:`ddzspec.wildmoves` orders by it). Leading: (its type's place
    in the ``priority``, then :func:`strength` highest first). Answering: 0 for the
    answered type and size, 1 for a reading above the bomb line, then :func:`strength`
    highest first; None for any other reading (the policy never takes it)."""
    down = tuple(-x for x in strength(wild, r))
    if answering is None:
        rank = _priority(wild)
        return (rank.get(r.reading.shape, len(rank)), *down)
    prev = answering.reading
    if r.reading.shape == prev.shape and r.reading.size == prev.size:
        return (0, *down)
    return (1, *down) if r.reading.tier else None


def strongest(wild: Wild, readings: Sequence[WildReading],
              answering: WildReading | None = None) -> WildReading | None:
    """The reading the ``strongest`` policy takes (issue 26): answering a move, a reading of
    its type and size with the highest body, else the strongest above the bomb line (a bomb
    answers anything); leading, the type first in the ``priority``, then the highest body
    (:func:`strongest_key`). Ties (readings that differ only in their kickers) go to the
    first in the order given. None when no reading qualifies."""
    best, best_key = None, None
    for r in readings:
        k = strongest_key(wild, r, answering)
        if k is not None and (best_key is None or k < best_key):
            best, best_key = r, k
    return best


#: How a wild card is written, in every notation (a card of the wild rank is one too).
WILD_MARK = "*"
#: Why a wild move has no reading: what a wild card may stand for (any non-joker rank inside a
#: combination: Baidu Baike's laizi article, as rules/laizi.rules cites it).
NO_READING = "not a legal move, whatever rank (but a joker) each wild card stands for"


@dataclass(frozen=True, slots=True)
class WildMove:
    """A played multiset with wild cards: its ``natural`` cards (none of a wild rank) and
    ``wilds`` wild cards of the rank index ``rank``; with several drawn wild ranks (tiandi
    laizi), ``split`` holds the wild cards by rank (``rank`` is then the first drawn) and
    ``drawn`` the drawn ranks."""

    natural: Cards
    wilds: int
    rank: int
    split: Cards | None = None
    drawn: tuple[int, ...] = ()

    @property
    def wild_cards(self) -> Cards:
        """The wild cards as cards of their ranks."""
        if self.split is not None:
            return self.split
        return Cards(tuple(self.wilds if i == self.rank else 0 for i in range(N_RANKS)))

    @property
    def ranks(self) -> tuple[int, ...]:
        """The drawn wild ranks (one: ``rank``)."""
        return self.drawn or (self.rank,)

    @property
    def cards(self) -> Cards:
        """The cards played as held: the natural cards and the wild cards as cards of their
        wild ranks."""
        return self.natural + self.wild_cards

    def format(self, notation: str = "en") -> str:
        """``4***``: the natural cards, then one ``*`` per wild card; with several drawn
        ranks the wild cards as their ranks (``77779Q``, as :func:`parse_wild` reads them)."""
        head = self.natural.format(notation) if len(self.natural) else ""
        if self.split is not None:
            return head + (self.split.format(notation) if self.wilds else "")
        return head + WILD_MARK * self.wilds


def move_readings(move: WildMove, rules: Rules,
                  readings: NaturalReadings | None = None) -> tuple[WildReading, ...]:
    """Every reading of ``move`` (:func:`readings_with`, under its drawn wild ranks)."""
    return readings_with(move.natural, move.wild_cards, move.ranks, rules, readings)


def parse_wild(text: str, rank: WildRanks, rules: Rules, notation: str = "en") -> WildMove:
    """Read ``4***`` (wild rank index ``rank``): the cards in ``notation``, each ``*`` a wild
    card; a card of the wild rank written out is a wild card too (every card of that rank is
    wild). With several drawn ranks (a tuple, tiandi laizi) every card of them is wild and is
    written as its rank (``7777 9 Q``): a ``*`` would not say which card leaves the hand.
    Raises NotationError, located (a bad symbol, more wild cards than the rank has, a ``*``
    with several wild ranks)."""
    ranks = ranks_of(rank)
    parsed = parse_cards(text, notation, deck=rules.deck, wild=True)
    counts = list(parsed.cards.counts)
    if len(ranks) > 1:
        if parsed.wilds:
            raise NotationError(f"{len(ranks)} wild ranks ("
                                + ", ".join(ALL_RANKS[r].symbol(notation) for r in ranks)
                                + f"): write each wild card as its rank, not '{WILD_MARK}'",
                                text, parsed.wilds[0], WILD_MARK)
        split = tuple(counts[i] if i in ranks else 0 for i in range(N_RANKS))
        natural = Cards(tuple(0 if i in ranks else c for i, c in enumerate(counts)))
        return WildMove(natural, sum(split), ranks[0], Cards(split), ranks)
    (one,) = ranks
    wilds = len(parsed.wilds) + counts[one]
    counts[one] = 0
    if wilds > rules.deck[one]:
        raise NotationError(f"{wilds} wild cards: the deck holds {rules.deck[one]} cards of "
                            f"the wild rank {ALL_RANKS[one].symbol(notation)}", text,
                            parsed.wilds[-1] if parsed.wilds else None, WILD_MARK)
    natural = Cards(tuple(counts))
    return WildMove(natural, wilds, one)


def parse_declared(text: str, rank: WildRanks, rules: Rules, notation: str = "en"
                   ) -> WildReading:
    """The reading a player declares (policy ``declared``): ``333*=3333``, the cards played,
    ``=``, then what they make (the wild cards replaced by the ranks they stand for). Raises
    NotationError, located: no ``=``, a bad symbol on either side, a right side the cards
    cannot make (other natural cards, a joker for a wild card, another number of cards), or one
    that is no reading of the move under the rules (illegal, or cut by a wild restriction); an
    empty right side, or a ``*`` in it (it names natural ranks only)."""
    left, eq, right = text.partition("=")
    if not eq:
        raise NotationError("a declared reading needs '=' and what the cards make (333*=3333)",
                            text, len(text) + 1, "")
    start = len(left) + 2  # the right side's first column
    try:
        move = parse_wild(left, rank, rules, notation)
    except NotationError as e:
        raise _moved(e, text, 0) from None
    if not right.strip():
        raise NotationError("the declared reading after '=' is empty: write what the cards "
                            "make (333*=3333)", text, start, "")
    if WILD_MARK in right:
        raise NotationError("the declared reading names natural ranks only: write the rank "
                            f"each wild card stands for, not '{WILD_MARK}' (333*=3333)", text,
                            start + right.index(WILD_MARK), WILD_MARK)
    try:
        target = parse_cards(right, notation, deck=rules.deck).cards
    except NotationError as e:
        raise _moved(e, text, start - 1) from None
    shown = right.strip()

    def refuse(why: str) -> NotationError:
        return NotationError(f"{shown}: {why}", text, start + len(right) - len(right.lstrip()),
                             shown)
    stands = [t - n for t, n in zip(target.counts, move.natural.counts)]
    if any(x < 0 for x in stands) or sum(stands) != move.wilds:
        raise refuse(f"the cards {move.format(notation)} cannot make it (their natural cards "
                     f"and {move.wilds} wild card{'s' if move.wilds != 1 else ''})")
    if any(stands[i] for i in rules.jokers):
        raise refuse("a wild card never stands for a joker")
    wild = require_wild(rules)
    for r in move_readings(move, rules):
        if r.reading.cards == target and r.stands_for.counts == tuple(stands):
            cut = violated(wild, r)
            if cut:
                raise refuse("ruled out by " + ", ".join(map(str, cut)))
            return r
    if not len(move.natural):
        raise refuse("wild cards alone are themselves")
    raise refuse("no legal move under the rules")


def parse_play(text: str, rank: WildRanks, rules: Rules, notation: str = "en"
               ) -> tuple[WildMove, WildReading | None]:
    """A wild move as a player writes it: ``4***`` (:func:`parse_wild`), or under the
    ``declared`` policy ``333*=3333`` (:func:`parse_declared`); the move and the reading
    declared (None when none is). Raises NotationError, located: what the two raise, and an
    ``=`` under another policy (the file takes the reading itself)."""
    if "=" not in text:
        return parse_wild(text, rank, rules, notation), None
    policy = require_wild(rules).policy
    if policy is not ReadingPolicy.DECLARED:
        raise NotationError(f"'=' declares a reading, but {rules.name} takes the {policy.value} "
                            "reading (write the cards only)", text, text.index("=") + 1, "=")
    declared = parse_declared(text, rank, rules, notation)
    return parse_wild(text.partition("=")[0], rank, rules, notation), declared


def _moved(e: NotationError, text: str, by: int) -> NotationError:
    """``e`` said of the whole ``text``, its column moved right by ``by``."""
    return NotationError(e.message, text, None if e.column is None else e.column + by,
                         e.offending)


@dataclass(frozen=True, slots=True)
class WildExplanation:
    """Why a wild move reads as it does under the file's policy: every reading with the wild
    restrictions that cut it (``readings``: pairs; empty tuple: kept), under ``strongest``
    the reading a lead takes (``lead``), under ``declared`` the reading the player stated
    (``declared``, None when none was)."""

    move: WildMove
    readings: tuple[tuple[WildReading, tuple[WildRestriction, ...]], ...]
    lead: WildReading | None
    declared: WildReading | None = None

    @property
    def kept(self) -> tuple[WildReading, ...]:
        """The readings no wild restriction cuts."""
        return tuple(r for r, cut in self.readings if not cut)

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """``{"cards", "legal", "readings"}`` (each :meth:`WildReading.to_json`, with the
        restrictions that cut it) and ``"declared"`` (what the declared reading makes) when
        one was declared."""
        return {"cards": self.move.format(notation), "legal": bool(self.kept),
                "readings": [r.to_json(notation, cut) for r, cut in self.readings],
                **({"declared": self.declared.reading.format(notation)}
                   if self.declared is not None else {})}

    def lines(self, rules: Rules, notation: str = "en") -> list[str]:
        """The explanation in plain words, one line each (the readings indented)."""
        wild = require_wild(rules)
        kept = self.kept
        types = list(dict.fromkeys(r.reading.shape for r in kept))
        sides = {r.reading.tier > 0 for r in kept}
        wild_ranks = ", ".join(ALL_RANKS[r].symbol(notation) for r in self.move.ranks)
        head = (f"{self.move.format(notation)} (wild {wild_ranks}"
                f"): {len(kept)} reading{'s' if len(kept) != 1 else ''}")
        if len(types) > 1:
            head += f" of {len(types)} types ({', '.join(types)})"
        if len(sides) == 2:
            head += "; on both sides of the bomb line (the multiplier depends on the reading)"
        out = [head]
        for r, cut in self.readings:
            why = f"  (ruled out by {', '.join(map(str, cut))})" if cut else ""
            mark = "  <- declared" if r == self.declared else ""
            out.append(f"  {r.describe(notation)}{why}{mark}")
        if not self.readings:
            out.append(f"no reading: {NO_READING}")
        elif not kept:
            out.append("no reading: the wild restrictions rule out every one")
        elif self.declared is not None:
            out.append(f"declared: {self.move.format(notation)}="
                       f"{self.declared.reading.format(notation)} is taken, "
                       f"{self.declared.describe(notation)}")
        elif len(kept) == 1:
            out.append("one reading: no choice to make")
        elif wild.policy is ReadingPolicy.DECLARED:
            out.append(f"reading declared: the player states which, e.g. "
                       f"{self.move.format(notation)}={kept[0].reading.format(notation)}")
        elif self.lead is not None:
            out.append(f"reading strongest: leading, {self.lead.describe(notation)} "
                       f"({self.lead.reading.shape} comes first in the priority of these "
                       f"types); answering, the reading of the answered type and size with "
                       "the highest body, else a bomb")
        return out


def explain_wild(move: WildMove, rules: Rules,
                 declared: WildReading | None = None) -> WildExplanation:
    """Every reading of ``move`` with the wild restrictions that cut it, and the reading the
    ``strongest`` policy takes when leading (None under ``declared``); ``declared``: the
    reading the player stated (:func:`parse_declared`), kept as said."""
    wild = require_wild(rules)
    readings = tuple((r, violated(wild, r)) for r in move_readings(move, rules))
    kept = [r for r, cut in readings if not cut]
    lead = strongest(wild, kept) if wild.policy is ReadingPolicy.STRONGEST else None
    return WildExplanation(move, readings, lead, declared)
