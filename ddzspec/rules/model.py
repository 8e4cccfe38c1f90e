"""The loaded rules as frozen values: :class:`Rules` and its parts (deck, order, groups,
:class:`Deal`, :class:`Bidding`, :class:`Shape` s, :class:`Restriction` s, :class:`Trick`,
:class:`Win`, :class:`Scoring`), and :func:`resolved_text`, which writes them back as one
self-contained rules file. Loading lives in :mod:`ddzspec.rules.load` (parse, merge, build).
A closed vocabulary of the language is a ``StrEnum`` or a ``Literal`` (:class:`BiddingSystem`,
:data:`KickerKind`, …; which is which: docs/rules-language.md), written back as its word.
A rules file declares one variant (see ``rules/classic.rules``, which cites seeds 000/002).

>>> from ddzspec.rules import load_rules
>>> r = load_rules("classic")
>>> [s.name for s in r.shapes][:3], r.max_cards
(['single', 'pair', 'trio'], 20)
>>> load_rules("classic", without=("nope",))
Traceback (most recent call last):
ddzspec.errors.RulesError: classic: --without nope: no such shape (shapes: single, pair, ...)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal

from ..cards import ALL_RANKS, N_RANKS, Rank
from ..errors import RulesError

#: Events that may double the multiplier besides shapes (which are named by shape name).
DOUBLE_EVENTS = ("spring", "anti_spring", "rob")
#: Rank symbols of the rules language (English notation, ``10`` for ten).
RANK_OF_SYMBOL = {"10": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING,
                  "A": Rank.ACE, "2": Rank.TWO, "B": Rank.SMALL_JOKER, "R": Rank.BIG_JOKER,
                  **{str(i): Rank(i) for i in range(3, 10)}}
_SYMBOL_OF_RANK = {r: t for t, r in RANK_OF_SYMBOL.items()}
#: A kicker unit: one card or a pair. A ``Literal``, not an enum: a shape's ``repr`` is part of
#: the rules digest that records and cached tables carry.
KickerKind = Literal["single", "pair"]
_KICKER_KINDS: tuple[KickerKind, ...] = ("single", "pair")
#: Cards per kicker unit, by kicker kind.
KIND_SIZE: dict[str, int] = dict(zip(_KICKER_KINDS, (1, 2), strict=True))
#: A win target: a number of cards left, or ``"robs"`` (the duel handicap: the number of robs).
Target = int | Literal["robs"]
#: The base of the score: a number, or ``"bid"`` (the winning bid).
Base = int | Literal["bid"]


def kicker_kind(word: str) -> KickerKind | None:
    """The kicker kind ``word`` names (``single`` or ``pair``), or None."""
    return next((k for k in _KICKER_KINDS if k == word), None)


class Turn(StrEnum):
    """The direction of play around the table."""

    COUNTERCLOCKWISE = "counterclockwise"
    CLOCKWISE = "clockwise"


class BiddingSystem(StrEnum):
    """How the landlord is chosen: an ``auction`` (bids, one turn each) or ``call_rob`` (call
    and rob, duel)."""

    AUCTION = "auction"
    CALL_ROB = "call_rob"


class RobOrder(StrEnum):
    """Who may rob after a call in ``call_rob``: ``take_turns`` (the duel, seed 003: robs
    alternate until one is declined or ``max_robs`` is reached) or ``each_once_caller_last``
    (Happy Dou Dizhu, the QQ rules: each other seat that did not decline to call robs or not
    once, in order; if anyone robbed, the caller has one last word)."""

    TAKE_TURNS = "take_turns"
    EACH_ONCE_CALLER_LAST = "each_once_caller_last"


class RoundKind(StrEnum):
    """The rounds a rules file may add to a deal: ``double`` (a doubling round, 加倍), ``show``
    (show cards, 明牌: a seat that chooses a factor above 1 plays face up) and ``blind`` (blind
    landlord, 闷: a choice made before the talon is shown)."""

    DOUBLE = "double"
    SHOW = "show"
    BLIND = "blind"


class RoundStage(StrEnum):
    """When a round is played, in the order a deal meets them (the enum's order): ``before
    deal`` (before the hands are dealt: a seat decides without seeing its cards; a hand shown
    then is face up as soon as it is dealt), ``after deal`` (once the hands are dealt, before
    the bidding), ``after landlord`` (once the landlord is known, before the talon is shown
    and taken) or ``after talon`` (after the landlord took the talon, before play). The bidding
    comes between ``after deal`` and ``after landlord``."""

    BEFORE_DEAL = "before_deal"
    DEAL = "deal"
    LANDLORD = "landlord"
    TALON = "talon"

    @property
    def clause(self) -> str:
        """The stage as the rules language writes it: ``before deal``, ``after talon``."""
        return "before deal" if self is RoundStage.BEFORE_DEAL else f"after {self.value}"

    @property
    def words(self) -> str:
        """The stage in plain words: ``before the deal``, ``after the talon``, ``once the
        landlord is known`` (``after landlord``)."""
        if self is RoundStage.LANDLORD:
            return "once the landlord is known"
        when, what = self.clause.split()
        return f"{when} the {what}"

    @property
    def before_bidding(self) -> bool:
        """Whether the stage comes before the bidding (there is no landlord yet)."""
        return self in (RoundStage.BEFORE_DEAL, RoundStage.DEAL)


class RoundOrder(StrEnum):
    """Who speaks in a round, once each: ``landlord peasants`` (the landlord, then the peasants
    in turn order), ``peasants landlord``, ``peasants landlord_if_doubled`` (the peasants,
    then the landlord only if a peasant chose a factor above 1: kick and counter-kick, 踢/反踢),
    ``landlord`` (the landlord alone) or ``all`` (every seat in turn order from the first
    speaker, or from the landlord once there is one; the only order before the bidding)."""

    LANDLORD_PEASANTS = "landlord peasants"
    PEASANTS_LANDLORD = "peasants landlord"
    PEASANTS_LANDLORD_IF_DOUBLED = "peasants landlord_if_doubled"
    LANDLORD = "landlord"
    ALL = "all"


class Scope(StrEnum):
    """What a seat's round factor multiplies: ``table`` (every settlement) or ``pair`` (a
    peasant's factor only its own settlement with the landlord; the landlord's every one).
    The landlord's answer (``answer … for doublers``) may instead reach only ``doublers``:
    the settlements of the peasants who chose a factor above 1 earlier in the round (the
    counter-kick, 反踢, answers the kickers only)."""

    TABLE = "table"
    PAIR = "pair"
    DOUBLERS = "doublers"


class FirstBidder(StrEnum):
    """Who speaks first: a ``random`` seat, or the ``next`` seat (after an all-pass redeal)."""

    RANDOM = "random"
    NEXT = "next"


class Settle(StrEnum):
    """How a deal's score is settled: ``per_peasant`` (each peasant with the landlord)."""

    PER_PEASANT = "per_peasant"


class Cap(StrEnum):
    """What a ``cap`` clause bounds (封顶, Happy Dou Dizhu): the ``multiplier`` a pair settles
    at, or the number of ``bombs`` (plays of a multiplying shape) that multiply."""

    MULTIPLIER = "multiplier"
    BOMBS = "bombs"


class TalonPattern(StrEnum):
    """A pattern of the talon that multiplies the stake when the landlord takes it (底牌翻倍):
    a ``joker`` in it, every joker of the deck (``rocket``), a ``pair`` or ``trio`` (cards of
    one rank), a ``straight`` (every card of another rank, consecutive in group ``chain``).
    Cards have no suits here, so a flush cannot be stated."""

    JOKER = "joker"
    ROCKET = "rocket"
    PAIR = "pair"
    TRIO = "trio"
    STRAIGHT = "straight"


@dataclass(frozen=True, slots=True)
class TalonFactor:
    """``pattern`` (of the rank index ``rank`` when given: ``pair of 2``) multiplies by
    ``times``. ``str()`` is the item in the rules language: ``pair of 2 2``."""

    pattern: TalonPattern
    times: int
    rank: int | None = None

    def __str__(self) -> str:
        of = "" if self.rank is None else f" of {rank_symbol(self.rank)}"
        return f"{self.pattern.value}{of} {self.times}"


@dataclass(frozen=True, slots=True)
class Shape:
    """One combination type: a body of ``copies`` cards per rank over a run of consecutive ranks
    of ``seq`` (``run_min`` … ``run_max`` ranks long), plus optional kickers.

    ``kicker_kind``: None, "single" or "pair"; ``kicker_count``: fixed number of kicker units, or
    with ``kicker_each`` one unit per body rank. ``tier``: 0 for ordinary shapes; higher tiers
    (bomb 1, rocket 2 in classic) beat every lower tier. ``seq``: rank indices (0 … 14) in order.

    House rules on shapes (left out of ``repr`` when off, so the seeds' digests stay as they
    were; :func:`_digest` adds them when on): ``chain_order``: ``seq`` is a declared chain
    order (``group NAME = sequence …``), a body's height is its top's place in ``seq``, not
    the top's strength; ``kickers_consecutive``: the kicker units stand on consecutive ranks
    of ``seq`` (``+ each pair consecutive``); ``last_play``: played only as the hand's last
    play (it must empty the hand); ``wraps``: the declared chain order is a circle
    (``sequence 3 .. 2 wraps``): ``seq`` holds the circle then its ranks again but the last,
    so that every chain is a slice ``seq[start:start+run]`` with ``start`` in
    :meth:`starts` (the one place chains are enumerated).
    """

    name: str
    copies: int
    run_min: int
    run_max: int
    group: str | None
    seq: tuple[int, ...]
    kicker_kind: KickerKind | None = None
    kicker_count: int = 0
    kicker_each: bool = False
    tier: int = 0
    chain_order: bool = field(default=False, repr=False)
    kickers_consecutive: bool = field(default=False, repr=False)
    last_play: bool = field(default=False, repr=False)
    wraps: bool = field(default=False, repr=False)

    def house(self) -> tuple[str, ...]:
        """The house-rule flags switched on, as words (empty for every seed's shape)."""
        return tuple(w for w, on in (("chain_order", self.chain_order),
                                     ("kickers_consecutive", self.kickers_consecutive),
                                     ("last_play", self.last_play),
                                     ("wraps", self.wraps)) if on)

    @property
    def ring(self) -> tuple[int, ...]:
        """The ranks of ``seq`` once each, in order: the circle of a wrapping chain order,
        else ``seq`` itself."""
        return self.seq[:(len(self.seq) + 1) // 2] if self.wraps else self.seq

    def starts(self, run: int) -> range:
        """Where a body ``run`` ranks long may start in ``seq``: every place whose body fits
        in ``seq``, or with ``wraps`` every place of the circle (a chain past the circle's
        last rank goes on from its first: ``QKA23`` under ``sequence 3 .. 2 wraps``); each
        body's ranks are ``seq[start:start+run]``.

        >>> from ddzspec.rules import load_rules_text
        >>> r = load_rules_text("rules w extends classic\\ngroup chain = sequence 3 .. 2 wraps\\n")
        >>> s = r.shape("straight")
        >>> len(s.starts(5)), [rank_symbol(i) for i in s.seq[11:16]]
        (13, ['A', '2', '3', '4', '5'])
        """
        return chain_starts(self.seq, run, self.wraps)

    def height(self, strength: Sequence[int], start: int, run: int) -> int:
        """The comparison key of the body ``seq[start:start+run]``: the strength of its top
        rank, or under a declared chain order the top's place in the sequence (A2345 below
        23456 when the sequence is ``A 2 3 .. A``; with ``wraps`` the place in the circle of
        the rank the chain ends on, so under ``sequence 3 .. 2 wraps`` QKA23, its top 3 at
        the first place, is the lowest straight and JQKA2 the highest)."""
        top = start + run - 1
        if not self.chain_order:
            return strength[self.seq[top]]
        return top % len(self.ring) if self.wraps else top

    def chain(self, start: int, run: int) -> tuple[int, ...]:
        """The body's ranks in the declared chain order (``chain_order``), else empty."""
        return self.seq[start:start + run] if self.chain_order else ()

    def units(self, run: int) -> int:
        """Kicker units (singles or pairs) for a body ``run`` ranks long."""
        if self.kicker_kind is None:
            return 0
        return run if self.kicker_each else self.kicker_count

    def size(self, run: int) -> int:
        """Cards in a move of this shape with a body ``run`` ranks long."""
        return self.copies * run + self.units(run) * KIND_SIZE.get(self.kicker_kind or "", 0)

    def describe(self) -> str:
        """Plain words: ``3 x 2..5 in chain + each single``."""
        run = (str(self.run_min) if self.run_min == self.run_max
               else f"{self.run_min}..{self.run_max}")
        s = f"{self.copies} x {run}" + (f" in {self.group}" if self.group else "")
        if self.kicker_kind:
            s += f" + {'each' if self.kicker_each else self.kicker_count} {self.kicker_kind}"
            if self.kickers_consecutive:
                s += " consecutive"
        return s + (" last_play" if self.last_play else "")


@dataclass(frozen=True, slots=True)
class Restriction:
    """A named restriction switched on in a rules file (its meaning: the registry entry of
    :mod:`ddzspec.restrictions`). ``param``: the number of ``kicker_rank_max N``; ``ranks``:
    rank indices (0 … 14) of ``kicker_not_in 2 B R``, a group already expanded; ``shapes``:
    the shapes it binds (``for plane_singles, plane_pairs``; empty: every shape; left out of
    ``repr`` when empty, so the seeds' digests stay as they were).
    ``str()`` is the restriction in the rules language."""

    name: str
    param: int | None = None
    ranks: tuple[int, ...] = ()
    shapes: tuple[str, ...] = field(default=(), repr=False)

    def binds(self, shape: str) -> bool:
        """Whether the restriction applies to the shape called ``shape``."""
        return not self.shapes or shape in self.shapes

    def __str__(self) -> str:
        words = [self.name] + ([] if self.param is None else [str(self.param)])
        words += [rank_symbol(i) for i in self.ranks]
        return " ".join(words) + (" for " + ", ".join(self.shapes) if self.shapes else "")


def around(ring: tuple[int, ...]) -> tuple[int, ...]:
    """A wrapping chain order as chains read it: the circle ``ring``, then its ranks again
    but the last, so that every chain of fewer ranks than the circle is one slice
    (``sequence 3 .. 2 wraps``: ``3 .. 2 3 .. A``; QKA23 is ``[9:14]``)."""
    return ring + ring[:-1]


def chain_starts(seq: Sequence[int], run: int, wraps: bool) -> range:
    """Where a chain ``run`` ranks long may start in ``seq`` (a chain order, :func:`around`
    of its circle when it ``wraps``): every place where it fits, or every place of the
    circle. The one place chains are enumerated: :meth:`Shape.starts`, the talon's
    straight (:func:`ddzspec.game.scoring.talon_matches`)."""
    if wraps:
        return range((len(seq) + 1) // 2)
    return range(len(seq) - run + 1)


def kickers_in_line(shape: Shape, kickers: Sequence[int]) -> bool:
    """Whether the kickers (15 counts) are one unit per rank on consecutive ranks of the
    shape's ``seq`` (``+ each pair consecutive``: plane wings as consecutive pairs, the
    two-deck game: smeteor/dou-zero-4p's spec, "plane wings are consecutive pairs")."""
    unit = KIND_SIZE.get(shape.kicker_kind or "", 1)
    ranks = {i for i, c in enumerate(kickers) if c}
    if any(kickers[i] != unit for i in ranks):
        return False
    n, seq = len(ranks), shape.seq
    return any(set(seq[s:s + n]) == ranks for s in range(len(seq) - n + 1))


def rank_symbol(index: int) -> str:
    """The rules-language symbol of a rank index (0 … 14): ``3`` … ``10`` … ``A``, ``2``,
    ``B``, ``R``."""
    return _SYMBOL_OF_RANK[ALL_RANKS[index]]


@dataclass(frozen=True, slots=True)
class Deal:
    """Seats and cards dealt: ``players`` seats of ``hand`` cards, ``talon`` to the landlord,
    ``undealt`` never dealt (duel: 9). ``turn``: the direction of play."""

    players: int
    hand: int
    talon: int
    undealt: int
    turn: Turn = Turn.COUNTERCLOCKWISE

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        return [f"players {self.players}", f"hand {self.hand}", f"talon {self.talon}",
                f"undealt {self.undealt}", f"turn {self.turn.value}"]


@dataclass(frozen=True, slots=True)
class Bidding:
    """``system``: an auction (bids 1/2/3, one turn each) or call_rob (duel).

    ``first_speaker``: random; ``all_pass_first_bidder``: after an all-pass redeal, random
    (classic) or next (kawu). ``max_robs``, ``no_call_first_speaker_landlord`` and
    ``rob_order`` (:class:`RobOrder`; the duel's ``take_turns`` unless declared) for call_rob.
    ``first_to_show_speaks_first`` (``first_to_show speaks_first``): the first seat that
    showed its hand in a show round before the bidding is the first speaker (Happy Dou
    Dizhu's rule pages: "the first player to show cards bids first"); when none showed, the
    first speaker stays the drawn one.
    """

    system: BiddingSystem
    first_speaker: FirstBidder = FirstBidder.RANDOM
    bids: tuple[int, ...] = ()
    ends_at: int | None = None
    all_pass_first_bidder: FirstBidder | None = None
    max_robs: int = 0
    no_call_first_speaker_landlord: bool = False
    rob_order: RobOrder = RobOrder.TAKE_TURNS
    first_to_show_speaks_first: bool = False

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        out = [self.system.value, f"first_speaker {self.first_speaker.value}"]
        if self.first_to_show_speaks_first:
            out.append("first_to_show speaks_first")
        if self.system is BiddingSystem.AUCTION:
            out.append("bids " + " ".join(map(str, self.bids)))
            if self.ends_at is not None:
                out.append(f"ends_at {self.ends_at}")
            out.append(f"all_pass redeal first_bidder {self.all_pass_first_bidder}")
        else:
            if self.rob_order is RobOrder.TAKE_TURNS:
                out.append(f"max_robs {self.max_robs}")
            else:
                out.append(f"rob_order {self.rob_order.value}")
            if self.no_call_first_speaker_landlord:
                out.append("no_call landlord first_speaker")
        return out


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of a round: its ``name`` (``no``, ``double``, ``super``) and the factor it
    multiplies the stake by (``times`` ≥ 1; 1: no change)."""

    name: str
    times: int

    def __str__(self) -> str:
        return f"{self.name} {self.times}"


@dataclass(frozen=True, slots=True)
class Round:
    """A round every seat named by ``order`` speaks in once, at ``stage``, choosing one of
    ``choices`` (the landlord's answer under ``peasants landlord_if_doubled``: ``answers``,
    else ``choices``); a factor above 1 is recorded with the seat and its ``scope``
    (:class:`Scope`; the landlord's answer with ``answer_scope``: ``table``, or ``doublers``,
    the pairs of the peasants who chose a factor above 1 in this round); in a ``show`` round
    such a seat's hand is shown to every seat (before the deal: as soon as it is dealt), and
    a seat whose hand is already shown is not asked again. Source:
    the Happy Dou Dizhu doubling round (加倍 ×2, 超级加倍 ×4) and show cards (明牌), the kick /
    counter-kick rooms of regional rules (4399 mini-games rule pages)."""

    kind: RoundKind
    stage: RoundStage
    order: RoundOrder
    choices: tuple[Choice, ...]
    answers: tuple[Choice, ...] = ()
    scope: Scope = Scope.TABLE
    answer_scope: Scope = Scope.TABLE

    def choices_of(self, landlord: bool) -> tuple[Choice, ...]:
        """The choices of the landlord (``landlord``) or of a peasant."""
        answering = landlord and self.order is RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED
        return self.answers if answering and self.answers else self.choices

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each (the first: the kind)."""
        out = [self.kind.value, self.stage.clause, f"order {self.order.value}",
               "choices " + " ".join(map(str, self.choices))]
        if self.answers:
            reach = "" if self.answer_scope is Scope.TABLE else f" for {self.answer_scope}"
            out.append("answer " + " ".join(map(str, self.answers)) + reach)
        return out + [f"scope {self.scope.value}"]


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick closes after ``close_after`` passes in a row; the leader may not pass."""

    close_after: int
    leader_may_pass: bool = False

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        return [f"close_after {self.close_after} passes",
                f"leader_may_pass {'yes' if self.leader_may_pass else 'no'}"]


@dataclass(frozen=True, slots=True)
class Win:
    """Targets: a seat wins when, after its own move, its cards left ≤ its target.
    A number (0: empty hand) or ``"robs"`` (the duel handicap = number of robs)."""

    landlord: Target = 0
    peasant: Target = 0

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        return [f"target landlord {self.landlord}", f"target peasant {self.peasant}"]


@dataclass(frozen=True, slots=True)
class Scoring:
    """``base``: a number or ``"bid"``; ``double``: every shape name and event (spring,
    anti_spring, rob) that multiplies the multiplier, those by 2 first; ``times``: (name,
    factor) of those that multiply by another factor (``factor spring 3``); ``settle``:
    per_peasant (each peasant settles base × multiplier with the landlord: classic landlord
    ±2S, each peasant ∓S; duel winner ±S; a factor of one pair multiplies only that pair's).
    ``cap_multiplier``: the most a pair's multiplier may reach (封顶); ``cap_bombs``: the most
    plays of a multiplying shape that multiply; ``talon``: the talon's patterns and factors
    (the highest matched applies). Sources: Happy Dou Dizhu's rule pages (the caps, talon
    doubling), house rules for spring ×3."""

    base: Base
    double: tuple[str, ...]
    settle: Settle = Settle.PER_PEASANT
    times: tuple[tuple[str, int], ...] = ()
    cap_multiplier: int | None = None
    cap_bombs: int | None = None
    talon: tuple[TalonFactor, ...] = ()

    def __repr__(self) -> str:  # the seeds' repr, unchanged: the later fields only when set
        extra = "".join(f", {f}={getattr(self, f)!r}" for f in _SCORING_EXTRAS
                        if getattr(self, f) != _SCORING_DEFAULTS[f])
        return (f"Scoring(base={self.base!r}, double={self.double!r}, "
                f"settle={self.settle!r}{extra})")

    def factor(self, name: str) -> int:
        """The factor of the shape or event ``name``: 2 for ``double``, N for ``factor NAME
        N``, 1 when it does not multiply."""
        if name not in self.double:
            return 1
        return dict(self.times).get(name, 2)

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        other = dict(self.times)
        by2 = [d for d in self.double if d not in other]
        double = ["double " + " ".join(by2)] if by2 else []
        if self.times:
            double.append("factor " + " ".join(f"{n} {t}" for n, t in self.times))
        if self.cap_multiplier is not None:
            double.append(f"cap {Cap.MULTIPLIER.value} {self.cap_multiplier}")
        if self.cap_bombs is not None:
            double.append(f"cap {Cap.BOMBS.value} {self.cap_bombs}")
        if self.talon:
            double.append("talon " + ", ".join(map(str, self.talon)))
        return [f"base {self.base}", *double, f"settle {self.settle.value}"]


_SCORING_EXTRAS = ("times", "cap_multiplier", "cap_bombs", "talon")
_SCORING_DEFAULTS = {"times": (), "cap_multiplier": None, "cap_bombs": None, "talon": ()}


class BombClass(StrEnum):
    """How wild cards made a bomb (癞子斗地主): ``soft`` (natural and wild cards), ``hard``
    (natural cards only), ``pure`` (wild cards only, read as themselves)."""

    SOFT = "soft"
    HARD = "hard"
    PURE = "pure"


class BombKey(StrEnum):
    """What two wild bombs are compared by, most significant first (the ``ladder`` clause):
    ``length`` (cards in the bomb; tiandi laizi's bombs of 4 to 12 cards), ``class`` (their
    :class:`BombClass` in the wild ``order``), ``rank`` (the bomb's rank)."""

    LENGTH = "length"
    CLASS = "class"
    RANK = "rank"


class ReadingPolicy(StrEnum):
    """How a wild move with several readings gets one (issue 26): ``declared`` (the player
    states the reading) or ``strongest`` (answering: the answered type and size, highest
    body; leading: the declared type ``priority``)."""

    DECLARED = "declared"
    STRONGEST = "strongest"


class WildRestrictionKind(StrEnum):
    """A restriction that cuts wild readings: ``no_wild_kicker`` (a wild card stands only in
    the body: never a kicker, neither substituted nor as itself) and ``bomb_min_natural N``
    (a bomb read with wild cards holds at least N natural cards; cocosDemo's "minimum natural
    cards" per same-rank pattern). All-wild moves read as themselves and are never cut."""

    NO_WILD_KICKER = "no_wild_kicker"
    BOMB_MIN_NATURAL = "bomb_min_natural"


@dataclass(frozen=True, slots=True)
class WildDraw:
    """One wild rank of a deal: drawn at random (never a joker) from the rank indices
    ``ranks`` at ``stage`` (the rounds' stages: ``before deal`` for tiandi laizi's sky rank,
    ``after deal``, ``after landlord``, ``after talon``), shown to every seat; ``name``: how
    records and the table call it (``laizi``; tiandi's ``sky``, ``earth``)."""

    name: str
    stage: RoundStage
    ranks: tuple[int, ...]

    def __str__(self) -> str:
        return (f"draw {self.name} {self.stage.clause} from "
                + " ".join(rank_symbol(i) for i in self.ranks))


@dataclass(frozen=True, slots=True)
class WildRestriction:
    """A wild restriction switched on: its kind and its number (``bomb_min_natural 2``)."""

    kind: WildRestrictionKind
    param: int | None = None

    def __str__(self) -> str:
        return self.kind.value + ("" if self.param is None else f" {self.param}")


@dataclass(frozen=True, slots=True)
class Wild:
    """Wild cards (laizi, tiandi laizi; issue 26, sources in ``rules/laizi.rules``): the
    ``draws`` (one per wild rank; ``count`` of them), the shape whose readings get a
    :class:`BombClass` (``bomb``), the ``order`` of the classes and the shapes above them,
    highest first (``rocket > pure > hard > soft``), each class's factor (``factors``), the
    reading ``policy`` with its type ``priority`` (highest first; every shape), and the
    ``restrictions`` that cut readings. A wild card stands for any non-joker rank, its own
    included, inside a combination; a move of wild cards only reads as itself.

    ``lengths``: the bomb's lengths in cards, ascending (``bomb bomb 4 .. 12``; empty: the
    shape's own size only, laizi); ``ladder``: how two bombs compare, most significant key
    first (``ladder length > class > rank``; laizi's ``class > rank``); ``long_factor``: the
    factor of a bomb longer than the shape's size (``factor … long 6``; 1 when there is none).
    A bomb longer than the shape is always ``soft``: no rank has more copies than the shape's
    size, and wild cards alone read as themselves, so it holds natural and wild cards."""

    count: int
    draws: tuple[WildDraw, ...]
    bomb: str
    order: tuple[str, ...]
    factors: tuple[tuple[BombClass, int], ...]
    policy: ReadingPolicy
    priority: tuple[str, ...] = ()
    restrictions: tuple[WildRestriction, ...] = ()
    lengths: tuple[int, ...] = ()
    ladder: tuple[BombKey, ...] = (BombKey.CLASS, BombKey.RANK)
    long_factor: int = 1

    def factor(self, cls: BombClass, length: int | None = None) -> int:
        """The factor of a bomb of class ``cls`` (1 when none is declared); of ``length``
        cards beyond the shortest declared length: ``long_factor``."""
        if length is not None and self.lengths and length > self.lengths[0]:
            return self.long_factor
        return dict(self.factors).get(cls, 1)

    def restriction(self, kind: WildRestrictionKind) -> WildRestriction | None:
        """The restriction ``kind`` if switched on, else None."""
        return next((r for r in self.restrictions if r.kind is kind), None)

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        bomb = f"bomb {self.bomb}"
        if self.lengths:
            bomb += f" {self.lengths[0]} .. {self.lengths[-1]}"
        out = [f"count {self.count}", *map(str, self.draws), bomb,
               "order " + " > ".join(self.order)]
        if self.ladder != (BombKey.CLASS, BombKey.RANK):
            out.append("ladder " + " > ".join(self.ladder))
        if self.factors:
            out.append("factor " + " ".join(f"{c.value} {n}" for c, n in self.factors)
                       + (f" long {self.long_factor}" if self.lengths else ""))
        out.append(f"reading {self.policy.value}")
        if self.priority:
            out.append("priority " + " > ".join(self.priority))
        if self.restrictions:
            out.append("restrict " + ", ".join(map(str, self.restrictions)))
        return out


@dataclass(frozen=True, slots=True)
class Rules:
    """A loaded variant. Build with :func:`load_rules`.

    ``deck``: copies per rank (15 counts, index ``Rank.index``); ``order``: ranks low to high;
    ``strength``: per rank index its position in ``order`` (−1 if not in the deck);
    ``groups``: (name, rank indices) pairs; ``max_cards``: largest hand (hand + talon), the cap
    on a move's size. ``sequences``: the groups declared as a chain order (``group chain =
    sequence A 2 3 .. A``: their ranks as written, not in ``order``); ``wrapping``: those of
    them that are a circle (``sequence 3 .. 2 wraps``). ``digest``: sha256 of the
    resolved table-relevant spec (cache key).
    """

    name: str
    title: str
    path: str
    deck: tuple[int, ...]
    jokers: tuple[int, ...]
    order: tuple[Rank, ...]
    strength: tuple[int, ...]
    groups: tuple[tuple[str, tuple[int, ...]], ...]
    deal: Deal
    bidding: Bidding
    shapes: tuple[Shape, ...]
    restrictions: tuple[Restriction, ...]
    trick: Trick
    win: Win
    scoring: Scoring
    max_cards: int
    parents: tuple[str, ...] = ()
    without: tuple[str, ...] = ()
    sequences: tuple[str, ...] = ()
    #: the rounds played besides the bidding and trick play, in the order a deal meets them:
    #: by stage (:class:`RoundStage`), rounds of one stage in the order written
    rounds: tuple[Round, ...] = ()
    #: the sequences that wrap (``group chain = sequence 3 .. 2 wraps``): a circle
    wrapping: tuple[str, ...] = ()
    #: wild cards (laizi); None: every card is natural (the seeds: "pas de carte joker libre")
    wild: Wild | None = None
    digest: str = field(default="", compare=False)

    def shape(self, name: str) -> Shape:
        """The shape called ``name``; KeyError if absent."""
        for s in self.shapes:
            if s.name == name:
                return s
        raise KeyError(name)

    def restriction(self, name: str) -> Restriction | None:
        """The restriction ``name`` if switched on, else None."""
        for r in self.restrictions:
            if r.name == name:
                return r
        return None

    @property
    def lone_cards_playable(self) -> bool:
        """Whether every rank of the deck can be played as a lone card (a shape of one card
        per rank, run 1, no kickers, over every rank). Without it a hand could be left unable
        to lead, and a deal could never end (seeds 000/002: the leader must play)."""
        return not self.lone_card_gaps()

    def lone_card_gaps(self) -> tuple[int, ...]:
        """The rank indices of the deck that no shape plays as a lone card at any time (a
        last-play-only shape plays it only to go out), low to high."""
        covered = {i for s in self.shapes if s.copies == 1 and s.run_min == 1
                   and s.kicker_kind is None and not s.last_play for i in s.seq}
        return tuple(i for i in range(N_RANKS) if self.deck[i] and i not in covered)

    @property
    def rocket_tier(self) -> int | None:
        """The rocket's tier: the top of a precedence of two tiers or more, the one move that
        beats every bomb (classic's ``rocket > bomb > others``: 2), whatever the rules file
        calls it; None when the precedence has fewer tiers."""
        top = max((s.tier for s in self.shapes), default=0)
        return top if top >= 2 else None

    @property
    def label(self) -> str:
        """The name plus any shapes dropped on the fly: ``classic without trio_pair``."""
        return self.name + (f" without {', '.join(self.without)}" if self.without else "")

    @property
    def deck_size(self) -> int:
        """Cards in the deck (classic 54, duel 46)."""
        return sum(self.deck)

    def without_shapes(self, names: Sequence[str]) -> Rules:
        """A copy with the named shapes dropped (puzzles posed under bans: "no trio + pair"),
        from precedence and ``double`` too: the same mechanism as ``without NAME`` in a rules
        file (:func:`ddzspec.rules.load.rules_without`). Raises RulesError for an unknown
        shape name."""
        from .load import rules_without
        return rules_without(self, tuple(names))

    def with_restrictions(self, restrictions: Sequence[Restriction]) -> Rules:
        """A copy with another restriction set (used by checks and explain)."""
        new = replace(self, restrictions=tuple(restrictions))
        return replace(new, digest=_digest(new))


def resolved_text(rules: Rules) -> str:
    """The resolved rules of ``rules`` as one self-contained rules file: every section written
    out, no ``extends``, shapes dropped by ``without`` left out. Loading it gives back rules
    equal to ``rules`` in every field but ``path``, ``parents`` and ``without``::

        replace(load_rules_text(resolved_text(r)), path=r.path, parents=r.parents,
                without=r.without) == r

    This is what a record carries (it replays on another machine) and what ``ddzspec rules
    show`` prints."""
    def ranks(idx: Sequence[int]) -> str:
        return " ".join(rank_symbol(i) for i in idx)

    plain = [i for i in range(N_RANKS) if rules.deck[i] and i not in rules.jokers]
    copies = {rules.deck[i] for i in plain}
    if len(copies) != 1:  # the language gives every non-joker rank the same copies
        raise RulesError("cannot write this deck in the rules language", rules.name)
    title = rules.title.replace('"', "'")
    out = [f'rules {rules.name} "{title}"', "", "deck {",
           f"    ranks {ranks(plain)}", f"    copies {copies.pop()}"]
    if rules.jokers:
        out.append(f"    jokers {ranks(rules.jokers)}")
    out += ["}", "order " + ranks([r.index for r in rules.order])]
    out += [f"group {g} = {'sequence ' if g in rules.sequences else ''}{ranks(idx)}"
            f"{' wraps' if g in rules.wrapping else ''}" for g, idx in rules.groups]

    def block(head: str, clauses: Sequence[str]) -> None:
        out.extend(["", head + " {"] + [f"    {c}" for c in clauses] + ["}"])

    block("deal", rules.deal.clauses())
    bid = rules.bidding.clauses()
    block(f"bidding {bid[0]}", bid[1:])
    width = max(len(s.name) for s in rules.shapes)
    block("shapes", [f"{s.name:<{width}} = {s.describe()}" for s in rules.shapes])
    tiered = sorted((s for s in rules.shapes if s.tier), key=lambda s: -s.tier)
    if tiered:
        out += ["", "precedence " + " > ".join([s.name for s in tiered] + ["others"])]
    block("restrictions", [str(r) for r in rules.restrictions])
    block("trick", rules.trick.clauses())
    block("win", rules.win.clauses())
    block("scoring", rules.scoring.clauses())
    for rnd in rules.rounds:
        words = rnd.clauses()
        block(f"round {words[0]}", words[1:])
    if rules.wild is not None:
        block("wild", rules.wild.clauses())
    return "\n".join(out) + "\n"


def _digest(r: Rules) -> str:
    spec = repr((r.deck, r.jokers, r.order, r.shapes, r.restrictions, r.max_cards))
    # house rules on shapes and per-shape restrictions: only when some are on, so every
    # digest written before them (records, cached tables, the seeds') is unchanged
    house = [(s.name, s.house()) for s in r.shapes if s.house()]
    house += [(x.name, x.shapes) for x in r.restrictions if x.shapes]
    if house:
        spec += repr(house)
    return hashlib.sha256(spec.encode()).hexdigest()[:20]
