"""Endgame positions: open hands, roles, the trick in progress, targets and scoring state.

A position is read from the text format of ``grammar/position.lark`` (:func:`parse_position`),
built from arguments (:func:`make_position`, the CLI's quick options) or from a shared puzzle
record (:func:`position_from_puzzle`); every problem is a located :class:`PositionError`, never
a traceback. Seats are in play order; the seats and the format: docs/solver.md.

>>> p = parse_position('''
... rules classic
... landlord: KK5543
... peasant:  225543
... to_move: landlord
... ''')
>>> p.seats, str(p.hands[1]), p.to_move
(('landlord', 'peasant'), '345522', 0)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.tree import Meta

from ddzspec._resources import grammar_text
from ddzspec.cards import ALL_RANKS, N_RANKS, Cards, parse_cards
from ddzspec.check import require_playable
from ddzspec.errors import DdzError, NotationError, excerpt
from ddzspec.larkerrors import SyntaxProblem, Vocabulary, parse_located
from ddzspec.rules import RoundKind, RoundOrder, Rules, Scope, load_rules
from ddzspec.rules.model import ReadingPolicy
from ddzspec.table import get_table
from ddzspec.wild import violated, wild_readings
from ddzspec.wildmoves import split_hand, wild_legal_moves

#: The most digits of a number in a position file (a base, a multiplier, a target …).
MAX_DIGITS = 100
#: The most characters of a position's text: its hands (at most 16 characters a card, see
#: :data:`ddzspec.cards.CHARS_PER_CARD`), a dozen short lines, and room for comments.
MAX_POSITION_CHARS = 64 * 1024

SEATS_2 = ("landlord", "peasant")
SEATS_3 = ("landlord", "peasant1", "peasant2")


class PositionError(DdzError):
    """A position that cannot be read or cannot occur: ``line:column: message``.

    Attributes: ``message``, ``line`` and ``column`` (1-based, None when not from a text);
    ``field``: the statement the problem is about, named as the text format's duplicate check
    names it (``"base"``, ``"passes"``, ``"on_table"``, ``"hand of landlord"``, ``"target of
    peasant"`` …; None: the position as a whole), so a position file locates it.
    """

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 source: str = "<position>", field: str | None = None) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.field = field
        if line is not None:
            where = f"{source}:{line}:{column or 1}: "
        else:
            where = "" if source == "<position>" else f"{source}: "
        super().__init__(where + message)


@dataclass(frozen=True, slots=True)
class Position:
    """An open-hand endgame position.

    - ``rules``: the loaded variant (its shapes, comparison and restrictions; ``without`` bans
      are part of it). ``notation``: the card notation used for output ("en", "fr", "de").
    - ``seats``: seat names in play order; ``roles[i]`` is "landlord" or "peasant".
    - ``hands``: one :class:`Cards` per seat. ``to_move``: index of the seat to move.
    - ``on_table``: the move to beat (None at a lead), ``played_by`` its seat, ``passes``: passes
      since it was played (always 0 with two seats).
    - ``targets``: per seat, the cards left at which it has won after its own move (0 normally;
      the duel peasant's handicap). ``base`` and ``multiplier``: the stake so far.
    - ``landlord_plays``: plays the landlord has made so far, capped at 2 (0 or 1 keeps an
      anti-spring possible); ``peasants_played``: whether a peasant has played a card (False
      keeps a spring possible). The defaults (2, True) rule both out.
    - ``pairs``: per seat, the product of the factors of that peasant's settlement with the
      landlord alone (a peasant's own doubling, ``scope pair``; 1 for the landlord's seat);
      empty: none. ``bombs``: the plays of a multiplying shape counted so far towards ``cap
      bombs``. ``shown``: the seats whose hands were shown (show cards), in seat order: a
      record only (every hand is open to the solver; the show factor is in ``multiplier``).
    - ``wild``: under rules with wild cards, the rank index of the drawn wild rank (every card
      of that rank in a hand is a wild card; issue 26); None without. ``on_table_as``: then
      the cards the move on the table reads as (``on_table: 8887=8888`` in the text format:
      what it was played as); None: as a lead reads it (:func:`ddzspec.wild.strongest`).
    """

    rules: Rules
    seats: tuple[str, ...]
    roles: tuple[str, ...]
    hands: tuple[Cards, ...]
    to_move: int
    on_table: Cards | None = None
    played_by: int | None = None
    passes: int = 0
    targets: tuple[int, ...] = (0, 0)
    base: int = 1
    multiplier: int = 1
    landlord_plays: int = 2
    peasants_played: bool = True
    notation: str = "en"
    pairs: tuple[int, ...] = ()
    bombs: int = 0
    shown: tuple[int, ...] = ()
    wild: int | None = None
    on_table_as: Cards | None = None

    @property
    def n_seats(self) -> int:
        """2 or 3."""
        return len(self.seats)

    def pair_factor(self, seat: int) -> int:
        """The factor of ``seat``'s own settlement with the landlord (:attr:`pairs`; 1 when
        none)."""
        return self.pairs[seat] if self.pairs else 1

    def seat_index(self, name: str) -> int:
        """Index of a seat name (:func:`seat_index`). Raises PositionError for a seat not in
        :attr:`seats`."""
        return seat_index(name, self.seats)

    def format(self) -> str:
        """This position in the text format (parses back to an equal position)."""
        r = self.rules
        lines = [f"rules {r.name}" + (" without " + ", ".join(r.without) if r.without else "")]
        if self.notation != "en":
            lines.append(f"notation {self.notation}")
        if self.wild is not None:
            lines.append(f"wild {ALL_RANKS[self.wild].symbol(self.notation)}")
        for s, h in zip(self.seats, self.hands):
            lines.append(f"{s}: {h.format(self.notation) or '-'}")
        lines.append(f"to_move: {self.seats[self.to_move]}")
        if self.on_table is not None and self.played_by is not None:
            read_as = "" if self.on_table_as is None else "=" + self.on_table_as.format(
                self.notation)
            lines.append(f"on_table: {self.on_table.format(self.notation)}{read_as} by "
                         f"{self.seats[self.played_by]}")
            if self.n_seats == 3:
                lines.append(f"passes: {self.passes}")
        for s, t in zip(self.seats, self.targets):
            if t:
                lines.append(f"target {s}: {t}")
        if self.base != 1:
            lines.append(f"base {self.base}")
        if self.multiplier != 1:
            lines.append(f"multiplier {self.multiplier}")
        if self.landlord_plays < 2:
            lines.append(f"played landlord: {('none', 'lead')[self.landlord_plays]}")
        if not self.peasants_played:
            lines.append("played peasants: no")
        for s, f in zip(self.seats, self.pairs):
            if f != 1:
                lines.append(f"pair {s}: {f}")
        if self.bombs:
            lines.append(f"bombs {self.bombs}")
        if self.shown:
            lines.append("shown " + " ".join(self.seats[i] for i in self.shown))
        return "\n".join(lines) + "\n"


def side_of_winner(word: object, n_seats: int) -> object:
    """A position record's expected ``"winner"`` as a side, "landlord" or "peasants": with two
    seats the seat name "peasant" (as ``puzzles list`` shows a two-seat winner) names the
    peasants' side. Any other value is returned as it is (the caller reports it)."""
    return "peasants" if word == "peasant" and n_seats == 2 else word


def seat_index(name: str, seats: tuple[str, ...]) -> int:
    """Index of seat ``name`` in ``seats`` (:data:`SEATS_2` or :data:`SEATS_3`), the one
    rule for every place a seat is named (a position file, :func:`make_position`, the CLI's
    options): with two seats ``peasant1`` and ``peasant2`` are refused (there is one peasant),
    with three ``peasant`` (which one?). Raises PositionError naming the expected seats."""
    if name in seats:
        return seats.index(name)
    if len(seats) == 2 and name in SEATS_3[1:]:
        raise PositionError(f"with two seats say peasant (seats: landlord, peasant), not "
                            f"{name}")
    if len(seats) == 3 and name == "peasant":
        raise PositionError("with three seats say peasant1 (plays right after the landlord) "
                            "or peasant2")
    raise PositionError(f"unknown seat {name!r}: expected one of {', '.join(seats)}")


def _require_round(rules: Rules, what: str, field: str, kind: RoundKind | None = None,
                   scope: Scope | None = None) -> None:
    """The one rule for what a round leaves in a position (``shown SEAT``: a ``show`` round;
    ``pair SEAT: N``: a round of ``scope pair``): it exists only under rules that have one."""
    if not any((kind is None or r.kind is kind) and (scope is None or r.scope is scope)
               for r in rules.rounds):
        need = (f"no {kind.value} round" if kind is not None
                else "no round whose factor is a pair's own (scope pair)")
        raise PositionError(f"{what}: {rules.label} has {need}", field=field)


def pair_factors(rules: Rules) -> frozenset[int]:
    """The factors a peasant's own settlement with the landlord can reach (:attr:`Position.pairs`)
    under ``rules``, from its rounds as the deal records them
    (:func:`ddzspec.game.bidding.round_factors`): in each round once the landlord is known, the
    peasant's own choice under ``scope pair``, times, when it chose above 1, the landlord's
    answer ``for doublers`` given after the peasants; the product over the rounds. Happy: no,
    double or super (1, 2, 4; the landlord's own double is the table's): {1, 2, 4}."""
    out = {1}
    for rnd in rules.rounds:
        if rnd.stage.before_bidding or rnd.order is RoundOrder.LANDLORD:
            continue  # no landlord yet, or no peasant speaks: nothing of a pair's own
        answers = {c.times for c in rnd.choices_of(True)} if rnd.answers and (
            rnd.answer_scope is Scope.DOUBLERS) and rnd.order in (
            RoundOrder.PEASANTS_LANDLORD, RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED) else {1}
        own = {1 if p == 1 else (p if rnd.scope is Scope.PAIR else 1) * a
               for p in (c.times for c in rnd.choices_of(False)) for a in answers}
        out = {x * y for x in out for y in own}
    return frozenset(out)


def _require_robs(rules: Rules, what: str, field: str) -> None:
    """The one rule for robs in a position (``robs N``, ``--robs``, ``target SEAT: robs``):
    they exist only under rules whose win target or multiplier depends on them (duel)."""
    if "robs" not in (rules.win.landlord, rules.win.peasant) and \
            "rob" not in rules.scoring.double:
        raise PositionError(f"{what}: {rules.label} has no robs (neither a target nor the "
                            "multiplier depends on them)", field=field)


def make_position(rules: Rules, hands: Mapping[str, Cards | str], to_move: str, *,
                  on_table: Cards | str | None = None, played_by: str | None = None,
                  passes: int | None = None,
                  targets: Mapping[str, int | str] | None = None,
                  robs: int | None = None, base: int = 1, multiplier: int | None = None,
                  landlord_plays: int = 2, peasants_played: bool | None = None,
                  notation: str = "en", pairs: Mapping[str, int] | None = None,
                  bombs: int | None = None, shown: Sequence[str] = (),
                  wild: int | str | None = None,
                  on_table_as: Cards | str | None = None) -> Position:
    """Build and validate a position from seat names (see the module doc) to hands.

    ``hands``: ``{"landlord": …, "peasant": …}`` or ``{"landlord", "peasant1", "peasant2"}``
    (Cards or notation strings). ``targets`` overrides per-seat targets (a number, or
    ``"robs"``: the number of robs, only under rules that have robs); ``robs`` gives the
    duel handicap (the peasant's target when the rules' win target is ``robs``) and, when a
    rob multiplies, the multiplier (the rob's factor)^robs unless ``multiplier`` is given.
    ``landlord_plays``: the landlord's plays so far (0, 1 or 2: 2 stands for "two or more"),
    ``peasants_played``: whether a peasant has played (the spring and anti-spring; None: as
    the landlord's plays imply, no before the landlord's first lead, else yes).
    ``pairs``: per peasant seat, the factor of its own settlement with the landlord (only under
    rules with a round of ``scope pair``); ``bombs``: the plays of a multiplying shape counted
    so far (only under ``cap bombs N``: 0 to N; None: not given, 0); ``shown``: the seats
    that showed their hands (only under rules with a ``show`` round); ``wild``: the drawn wild
    rank (a rank index, or one card's notation such as ``"7"``; needed exactly under rules with
    wild cards, one of the ranks their draw can give); ``on_table_as``: with a wild rank, the
    cards the move on the table reads as (None: as a lead reads it).
    Raises PositionError (impossible positions, a flag or count of the wrong kind) or
    NotationError (bad cards).
    """
    for name, value in (("robs", robs), ("passes", passes), ("landlord_plays", landlord_plays),
                        ("bombs", bombs)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise PositionError(f"{name} {value!r}: must be a whole number", field=name)
    if not 0 <= landlord_plays <= 2:
        raise PositionError(f"landlord_plays {landlord_plays}: must be 0, 1 or 2 (2: two or "
                            "more)", field="landlord_plays")
    if peasants_played is None:
        peasants_played = landlord_plays > 0
    if not isinstance(peasants_played, bool):
        raise PositionError(f"peasants_played {peasants_played!r}: must be True or False",
                            field="peasants_played")
    names = tuple(hands)
    seats: tuple[str, ...]
    if len(names) == 2:
        seats = SEATS_2
        for name in names:
            if name in SEATS_3[1:]:  # peasant1 or peasant2 of two seats
                _seat_of(name, seats, f"hand of {name}")
    elif len(names) == 3:
        seats = SEATS_3
    else:
        raise PositionError(f"a position has 2 or 3 hands, got {len(names)}")
    if set(hands) != set(seats):
        raise PositionError(f"the hands must be {', '.join(seats)}; got {', '.join(names)}")
    require_playable(rules)  # UnplayableRulesError for rules `ddzspec check` flags
    if not rules.lone_cards_playable:
        raise PositionError(f"{rules.label} cannot be played out: no shape plays a lone card of "
                            "every rank, so a leader could be left unable to play")
    if len(seats) > rules.deal.players:
        raise PositionError(f"{rules.label} is a {rules.deal.players}-player variant: a "
                            f"position has at most {rules.deal.players} hands, got {len(seats)}")
    if robs is not None:
        _require_robs(rules, f"robs {robs}", "robs")
        if rules.bidding.max_robs <= 0 and robs:  # robs that only double the stake (happy)
            raise PositionError(f"robs {robs}: robs give the duel's handicap (only there does "
                                "a win target depend on the number of robs); under "
                                f"{rules.label} robs only multiply the stake: give them in "
                                "the multiplier (--multiplier, or 'multiplier N' in a position "
                                "file; e.g. 2 robs doubling: multiplier 4)", field="robs")
        if not 0 <= robs <= max(rules.bidding.max_robs, 0):
            raise PositionError(f"robs {robs}: {rules.label} allows 0 to "
                                f"{rules.bidding.max_robs} robs", field="robs")
    for s in seats:
        if not isinstance(hands[s], Cards | str):
            raise PositionError(f"the hand of {s}: {type(hands[s]).__name__} given; a hand is "
                                "Cards or a string of cards", field=f"hand of {s}")
    cards = tuple(h if isinstance(h, Cards) else read_cards(h, rules, notation, wild)
                  for h in (hands[s] for s in seats))
    tm = seat_index(to_move, seats)
    table = None if on_table is None else (
        on_table if isinstance(on_table, Cards)
        else read_cards(on_table, rules, notation, wild))
    pb = None if played_by is None else seat_index(played_by, seats)
    read_as = None if on_table_as is None else (
        on_table_as if isinstance(on_table_as, Cards)
        else read_cards(on_table_as, rules, notation, wild, reading=True))
    if read_as is not None and (wild is None or table is None):
        raise PositionError("what the move on the table reads as ('on_table: 8887=8888') goes "
                            "with a wild rank and a move on the table", field="on_table")
    tg = [0] * len(seats)
    for i in range(len(seats)):
        target = rules.win.landlord if i == 0 else rules.win.peasant
        tg[i] = (robs or 0) if target == "robs" else target
    for s, t in (targets or {}).items():
        if t == "robs":  # the same rule as --robs / 'robs N': only where robs exist
            _require_robs(rules, f"target {s}: robs", f"target of {s}")
        elif isinstance(t, bool) or not isinstance(t, int):
            raise PositionError(f"target {s}: {t!r}: a target is a whole number of cards or "
                                '"robs"', field=f"target of {s}")
        tg[seat_index(s, seats)] = (robs or 0) if t == "robs" else int(t)
    mult = multiplier
    rob_mult = rules.scoring.factor("rob") ** (robs or 0)
    if mult is None:
        mult = rob_mult
    elif mult % rob_mult and rules.scoring.cap_multiplier is None:  # a cap may have cut it
        raise PositionError(f"multiplier {mult} is the multiplier so far, robs included: with "
                            f"{robs} robs it is a multiple of {rob_mult}", field="multiplier")
    pos = Position(rules, seats, ("landlord",) + ("peasant",) * (len(seats) - 1), cards, tm,
                   table, pb, 0 if passes is None else passes, tuple(tg), base, mult,
                   landlord_plays, peasants_played, notation,
                   _pairs_of(rules, seats, pairs or {}), _bombs_of(rules, bombs),
                   _shown_of(rules, seats, shown), _wild_of(rules, wild, notation), read_as)
    return validate(pos, passes_given=passes is not None)


def read_cards(text: str, rules: Rules, notation: str = "en", wild: int | str | None = None,
               reading: bool = False) -> Cards:
    """The cards of a hand or a played move in ``notation``. Under rules with wild cards and
    the drawn wild rank ``wild`` (as :func:`make_position` takes it), a ``*`` is a card of
    that rank (``333*`` with 7 wild: 3337). ``reading``: the text says what a wild move reads
    as (after ``=``): natural ranks only. Raises NotationError (located: a ``*`` with no wild
    rank named or in a reading, more cards of the wild rank than the deck holds) or
    PositionError (a bad wild rank)."""
    star = text.find("*")
    if star >= 0 and rules.wild is not None and (reading or wild is None):
        raise NotationError("'*' in what a wild move reads as: write the rank each wild card "
                            "stands for (8887=888+7)" if reading else
                            "'*' is a card of the drawn wild rank: name that rank first "
                            "('wild 7' in a position file, --wild 7 on the command line)",
                            text, star + 1, "*")
    parsed = parse_cards(text, notation, rules.deck, wild=star >= 0 and not reading
                         and rules.wild is not None)
    if not parsed.wilds:
        return parsed.cards
    index = _wild_of(rules, wild, notation)
    assert index is not None
    counts = list(parsed.cards.counts)
    counts[index] += len(parsed.wilds)
    if counts[index] > rules.deck[index]:
        raise NotationError(f"{counts[index]} cards of the wild rank "
                            f"{ALL_RANKS[index].symbol(notation)} (each '*' is one): the deck "
                            f"holds {rules.deck[index]}", text, parsed.wilds[-1], "*")
    return Cards(tuple(counts))


def _pairs_of(rules: Rules, seats: tuple[str, ...], given: Mapping[str, int]) -> tuple[int, ...]:
    """:attr:`Position.pairs` from ``{peasant seat: factor}`` (empty when none is given)."""
    if not given:
        return ()
    out = [1] * len(seats)
    done: set[int] = set()
    for name, f in given.items():
        field = f"pair of {name}"
        _require_round(rules, f"pair {name}", field, scope=Scope.PAIR)
        i = _seat_of(name, seats, field)
        if i in done:
            raise PositionError(f"pair {name}: the factor of {seats[i]} given twice",
                                field=field)
        done.add(i)
        if i == 0:
            raise PositionError("pair landlord: a pair's own factor belongs to a peasant's "
                                "settlement with the landlord (pair peasant1, pair peasant2)",
                                field=field)
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 2**40:
            raise PositionError(f"pair {name}: {f!r}: a factor is a whole number from 1 to 2^40",
                                field=field)
        if f not in (reachable := pair_factors(rules)):
            raise PositionError(f"pair {name}: {f}: no deal under {rules.label} gives a pair "
                                "that factor (it is one of "
                                f"{', '.join(map(str, sorted(reachable)))})", field=field)
        out[i] = f
    return tuple(out)


def _seat_of(name: str, seats: tuple[str, ...], field: str) -> int:
    """:func:`seat_index`, its error about the statement ``field``."""
    try:
        return seat_index(name, seats)
    except PositionError as e:
        raise PositionError(e.message, field=field) from None


def _wild_of(rules: Rules, wild: int | str | None, notation: str) -> int | None:
    """:attr:`Position.wild`: the rank index of ``wild`` (an index, or one card in
    ``notation``); required exactly under rules with a wild section, one of the ranks its draw
    gives (``draw laizi after deal from 3 .. 2``). Only one wild rank (``count 1``) is solved
    so far, under either reading policy, without last-play-only shapes (issue 26)."""
    w = rules.wild
    if w is None:
        if wild is not None:
            raise PositionError(f"wild {wild}: {rules.label} has no wild cards", field="wild")
        return None
    if wild is None:
        raise PositionError(f"{rules.label} has wild cards: give the drawn wild rank ('wild 7' "
                            "in a position file, --wild 7 on the command line)", field="rules")
    if w.count != 1:
        raise PositionError(f"{rules.label} draws {w.count} wild ranks: the solver plays one "
                            "wild rank only so far", field="wild")
    if any(shape.last_play for shape in rules.shapes):
        raise PositionError(f"{rules.label} has wild cards and a last-play-only shape: the "
                            "solver does not play the two together yet", field="rules")
    if isinstance(wild, str):
        try:
            counts = parse_cards(wild, notation, rules.deck).cards.counts
        except NotationError as e:
            raise PositionError(f"wild {wild}: {e.message}", field="wild") from None
        if sum(counts) != 1:
            raise PositionError(f"wild {wild}: give one rank (one card, e.g. 7)", field="wild")
        index = counts.index(1)
    elif isinstance(wild, bool) or not isinstance(wild, int) or not 0 <= wild < N_RANKS:
        raise PositionError(f"wild {wild!r}: a rank index 0-{N_RANKS - 1} or a card",
                            field="wild")
    else:
        index = wild
    ranks = {i for d in w.draws for i in d.ranks}
    if index not in ranks:
        shown = ALL_RANKS[index].symbol(notation)
        drawn = " ".join(ALL_RANKS[i].symbol(notation) for i in sorted(ranks))
        raise PositionError(f"wild {shown}: {rules.label} never draws that rank as wild (it "
                            f"draws one of {drawn})", field="wild")
    return index


def _bombs_of(rules: Rules, bombs: int | None) -> int:
    """:attr:`Position.bombs`: 0 when not given (None); given, only under ``cap bombs N``
    (any value, 0 too, is refused without one), from 0 to N."""
    cap = rules.scoring.cap_bombs
    if bombs is None:
        return 0
    if cap is None:
        raise PositionError(f"bombs {bombs}: {rules.label} has no cap bombs (the count of "
                            "multiplying plays matters only under one)", field="bombs")
    if cap is not None and not 0 <= bombs <= cap:
        raise PositionError(f"bombs {bombs}: under cap bombs {cap} from 0 to {cap} plays count",
                            field="bombs")
    return bombs


def _shown_of(rules: Rules, seats: tuple[str, ...], shown: Sequence[str]) -> tuple[int, ...]:
    """:attr:`Position.shown` (seat indices in seat order) from seat names."""
    if isinstance(shown, str):
        raise PositionError(f"shown {shown!r}: give the seats as a list of names",
                            field="shown")
    out: set[int] = set()
    for name in shown:
        _require_round(rules, f"shown {name}", "shown", kind=RoundKind.SHOW)
        i = _seat_of(name, seats, "shown")
        if i in out:
            raise PositionError(f"shown: {seats[i]} named twice", field="shown")
        out.add(i)
    return tuple(sorted(out))


def validate(pos: Position, passes_given: bool = True) -> Position:
    """Check a position can occur; return it (with ``passes`` inferred when not given).

    Checks: card conservation against the deck (hands plus the move on the table), hand sizes,
    the move on the table is a legal move (not of a last-play-only shape: its seat would be
    out) and who played it fits the seat to move and the passes, every hand is above its
    target (the deal is not over), base and multiplier ≥ 1.
    Under wild rules the move on the table is a play of the hand's cards (the wild rank's
    cards wild) with a lead's reading (:func:`ddzspec.wildmoves.wild_legal_moves`).
    Raises PositionError.
    """
    rules = pos.rules
    if (rules.wild is None) != (pos.wild is None):
        _wild_of(rules, pos.wild, pos.notation)  # raises: a wild rank missing or not expected
    n = pos.n_seats
    total = [0] * N_RANKS
    for h in pos.hands + ((pos.on_table,) if pos.on_table is not None else ()):
        for i, c in enumerate(h.counts):
            total[i] += c
    for i, c in enumerate(total):
        if c > rules.deck[i]:
            sym = ALL_RANKS[i].symbol(pos.notation)
            raise PositionError(f"{c} cards of rank {sym} in the position, but the "
                                f"{rules.name} deck holds {rules.deck[i]}")
    for s, h, t in zip(pos.seats, pos.hands, pos.targets):
        if len(h) > rules.max_cards:
            raise PositionError(f"{s} holds {len(h)} cards, more than a hand can "
                                f"({rules.max_cards})", field=f"hand of {s}")
        if t < 0:
            raise PositionError(f"{s}: a target must be 0 or more, got {t}",
                                field=f"target of {s}")
        if len(h) <= t:
            raise PositionError(f"{s} holds {len(h)} card(s), at or below its target {t}: "
                                "the deal is already over", field=f"hand of {s}")
    for key, value, top, shown in (("base", pos.base, 10**9, "10^9"),
                                   ("multiplier", pos.multiplier, 2**40, "2^40")):
        if isinstance(value, bool) or not isinstance(value, int):
            raise PositionError(f"{key} {value!r}: must be a whole number", field=key)
        if not 1 <= value <= top:
            raise PositionError(f"{key} {value}: must be between 1 and {shown}", field=key)
    if pos.landlord_plays == 0 and (pos.to_move != 0 or pos.on_table is not None):
        raise PositionError("played landlord: none means the landlord has not led yet, so the "
                            "landlord is to move with nothing on the table (the landlord "
                            "leads first)", field="played landlord")
    if pos.landlord_plays == 0 and pos.peasants_played:
        raise PositionError("played peasants: yes, but played landlord: none: the landlord "
                            "leads first, so no peasant has played yet", field="played peasants")
    peasant_leads = pos.on_table is None and pos.roles[pos.to_move] != "landlord"
    if not pos.peasants_played and (peasant_leads or (
            pos.played_by is not None and pos.roles[pos.played_by] != "landlord")):
        raise PositionError("played peasants: no, but " + (
            "a peasant is to lead: a peasant leads only after a trick that a peasant's move "
            "won" if peasant_leads else "the move on the table is a peasant's"),
            field="played peasants")
    passes = pos.passes
    if pos.on_table is None:
        if pos.played_by is not None:
            raise PositionError("played_by given without a move on the table")
        if passes:
            raise PositionError("passes given without a move on the table", field="passes")
    elif pos.wild is not None:
        _wild_table_move(pos)
    if pos.on_table is not None:
        reading = None if pos.wild is not None else get_table(rules).lookup(pos.on_table)
        if reading is None and pos.wild is None:
            raise PositionError(f"the move on the table, {pos.on_table.format(pos.notation)}, "
                                f"is not a legal move of {rules.name}", field="on_table")
        if reading is not None and rules.shape(reading.shape).last_play:
            raise PositionError(f"the move on the table, {pos.on_table.format(pos.notation)}, "
                                f"is a {reading.shape}: {rules.name} allows it only as a "
                                "hand's last play, so the deal would be over",
                                field="on_table")
        if pos.played_by is None:
            raise PositionError("a move on the table needs the seat that played it ('by SEAT')")
        if pos.played_by == pos.to_move:
            raise PositionError(f"{pos.seats[pos.to_move]} is to move and cannot answer its "
                                "own move: the trick would be closed", field="on_table")
        inferred = (pos.to_move - pos.played_by - 1) % n
        if passes_given and passes != inferred:
            raise PositionError(f"{pos.seats[pos.played_by]} played and "
                                f"{pos.seats[pos.to_move]} is to move: that means {inferred} "
                                f"pass(es), not {passes}", field="passes")
        passes = inferred
    return replace(pos, passes=passes)


def _wild_table_move(pos: Position) -> None:
    """Under wild rules: the move on the table must be a legal lead of its cards (the wild
    rank's cards wild), not of a last-play-only shape. Raises PositionError."""
    assert pos.on_table is not None and pos.wild is not None
    whole = [p for p in wild_legal_moves(pos.on_table, pos.wild, pos.rules)
             if p.move.cards == pos.on_table]
    if pos.on_table_as is not None:
        natural, wilds = split_hand(pos.on_table, pos.wild)
        w = pos.rules.wild
        assert w is not None
        if not any(r.reading.cards == pos.on_table_as and not violated(w, r)
                   for r in wild_readings(natural, wilds, pos.wild, pos.rules)):
            raise PositionError(f"the move on the table, {pos.on_table.format(pos.notation)}, "
                                f"does not read as {pos.on_table_as.format(pos.notation)} with "
                                f"{ALL_RANKS[pos.wild].symbol(pos.notation)} wild",
                                field="on_table")
    if (pos.on_table_as is None and len(whole) > 1
            and pos.rules.wild is not None and pos.rules.wild.policy is ReadingPolicy.DECLARED):
        raise PositionError(f"the move on the table, {pos.on_table.format(pos.notation)}, has "
                            f"{len(whole)} readings under 'reading declared': write the one it "
                            f"was played as after '=' ({whole[0].move.format(pos.notation)}="
                            f"{whole[0].reading.reading.format(pos.notation)})",
                            field="on_table")
    if not whole:
        raise PositionError(f"the move on the table, {pos.on_table.format(pos.notation)}, is "
                            f"not a legal move of {pos.rules.name} with "
                            f"{ALL_RANKS[pos.wild].symbol(pos.notation)} wild", field="on_table")
    if pos.rules.shape(whole[0].reading.reading.shape).last_play:
        raise PositionError(f"the move on the table, {pos.on_table.format(pos.notation)}, is a "
                            f"{whole[0].reading.reading.shape}: {pos.rules.name} allows it only "
                            "as a hand's last play, so the deal would be over", field="on_table")


# ----------------------------------------------------------------------------- text format

@cache
def _parser() -> Lark:
    return Lark(grammar_text("position.lark"), parser="lalr", propagate_positions=True)


#: A hand line whose seat name is misspelt (``peasant3: 44``), and the seat names.
_SEATLIKE = re.compile(r"\s*((?:landlord|peasant)\w*)\s*:")
_SEAT = re.compile(r"landlord|peasants|peasant[12]?")

_VOCABULARY = Vocabulary(
    names={"SEAT": "a seat (landlord, peasant, peasant1, peasant2)", "_COLON": "':'",
           "HAND": "cards", "TABLE_CARDS": "cards", "ESCAPED_STRING": "a quoted string",
           "INT": "a number", "NUMBER": "a number",
           "WORD": "a word", "RULES_NAME": "a rules name or path",
           "SHAPE_NAME": "a shape name", "_WITHOUT": "'without'", "_COMMA": "','",
           "RANK_WORD": "a rank"},
    end="end of input", newline="_NL")


@dataclass(frozen=True, slots=True)
class _Word:
    """A token as written: its text, terminal type and 1-based place."""

    text: str
    type: str
    line: int | None
    column: int | None


@dataclass(frozen=True, slots=True)
class _Line:
    """One statement of a position, with its place (1-based line and column)."""

    line: int | None
    column: int | None


@dataclass(frozen=True, slots=True)
class _RulesLine(_Line):
    name: _Word
    without: tuple[_Word, ...]


@dataclass(frozen=True, slots=True)
class _Notation(_Line):
    word: _Word


@dataclass(frozen=True, slots=True)
class _Hand(_Line):
    seat: _Word
    cards: _Word


@dataclass(frozen=True, slots=True)
class _ToMove(_Line):
    seat: _Word


@dataclass(frozen=True, slots=True)
class _OnTable(_Line):
    cards: _Word
    by: _Word


@dataclass(frozen=True, slots=True)
class _WildLine(_Line):
    rank: _Word


@dataclass(frozen=True, slots=True)
class _Number(_Line):
    """``passes``, ``robs``, ``base``, ``multiplier`` or ``bombs`` and its value."""

    key: str
    value: _Word


@dataclass(frozen=True, slots=True)
class _Target(_Line):
    seat: _Word
    value: _Word


@dataclass(frozen=True, slots=True)
class _Played(_Line):
    who: _Word
    what: _Word


@dataclass(frozen=True, slots=True)
class _Pair(_Target):
    """``pair SEAT: N`` (a :class:`_Target`'s words: the builder tells them apart first)."""


@dataclass(frozen=True, slots=True)
class _Shown(_Line):
    seats: tuple[_Word, ...]

    @classmethod
    def of(cls, line: int | None, column: int | None, *seats: _Word) -> _Shown:
        return cls(line, column, seats)


@v_args(meta=True)
class _Statements(Transformer[Token, list[_Line]]):
    """Parse tree → the statements in order, each a small frozen :class:`_Line`."""

    @staticmethod
    def _place(meta: Meta) -> tuple[int | None, int | None]:
        return (None, None) if meta.empty else (meta.line, meta.column)

    def __default_token__(self, token: Token) -> _Word:
        return _Word(str(token), token.type, token.line, token.column)

    def start(self, meta: Meta, children: list[Any]) -> list[_Line]:
        return [c for c in children if isinstance(c, _Line)]

    def rules_stmt(self, meta: Meta, ch: list[_Word]) -> _RulesLine:
        return _RulesLine(*self._place(meta), ch[0], tuple(ch[1:]))

    def __default__(self, data: Any, children: list[_Word], meta: Meta) -> _Line:
        if data in _NUMBERS:
            return _Number(*self._place(meta), _NUMBERS[data], children[0])
        return _KINDS[data](*self._place(meta), *children)


#: Grammar rule -> the statement it builds from its words (in order).
_KINDS: dict[str, Callable[..., _Line]] = {
    "notation_stmt": _Notation, "hand_stmt": _Hand, "to_move_stmt": _ToMove,
    "table_stmt": _OnTable, "target_stmt": _Target, "played_stmt": _Played,
    "pair_stmt": _Pair, "shown_stmt": _Shown.of, "wild_stmt": _WildLine}
#: Grammar rule -> the key of a one-number statement.
_NUMBERS = {"passes_stmt": "passes", "robs_stmt": "robs", "base_stmt": "base",
            "mult_stmt": "multiplier", "bombs_stmt": "bombs"}

_Located = _Word | _Line | None


def parse_position(text: str, source: str = "<position>", notation: str | None = None,
                   rules: Rules | None = None, base: str | Path | None = None) -> Position:
    """Parse the position text format (``grammar/position.lark``); see the module doc.

    ``notation``: the card notation when the text has no ``notation`` line (default "en").
    ``rules``: used when the text has no ``rules`` line (otherwise a ``rules`` line is needed).
    ``base``: the folder a relative path on the ``rules`` line is resolved from first — the
    position file's own folder, as a rules file's ``extends`` is resolved from the rules file
    (:func:`ddzspec.rules.merge.resolve_path`); None (text not read from a file): the working
    folder. A built-in name (``rules classic``) always means the shipped rules.
    Raises PositionError with ``source:line:column`` and what was expected (a text over
    :data:`MAX_POSITION_CHARS` characters: at the first character past it, before it is
    parsed); TypeError when ``text`` is not a str (e.g. bytes: decode them first).
    """
    if not isinstance(text, str):
        raise TypeError(f"a position is text (str), not {type(text).__name__}")
    if len(text) > MAX_POSITION_CHARS:  # refused before Lark parses it (10 MB: 137 s, 1.4 GB)
        line = text.count("\n", 0, MAX_POSITION_CHARS) + 1
        column = MAX_POSITION_CHARS - text.rfind("\n", 0, MAX_POSITION_CHARS)
        raise PositionError(f"too long for a position: {len(text)} characters, at most "
                            f"{MAX_POSITION_CHARS}", line, column, source)
    try:
        tree = parse_located(_parser(), text if text.endswith("\n") else text + "\n",
                             _VOCABULARY)
    except SyntaxProblem as e:
        lines = text.splitlines()
        bad = lines[e.line - 1] if e.line and 0 < e.line <= len(lines) else ""
        m = _SEATLIKE.match(bad)
        if m is not None and not _SEAT.fullmatch(m.group(1)):  # peasant3: 44
            raise PositionError(f"unknown seat {m.group(1)!r} (seats: landlord, peasant with "
                                "two seats; landlord, peasant1, peasant2 with three)",
                                e.line, m.start(1) + 1, source) from None
        raise PositionError(e.message, e.line, e.column, source) from None
    return _Builder(_Statements().transform(tree), source, notation, rules, base).build()


class _Builder:
    def __init__(self, stmts: list[_Line], source: str, notation: str | None,
                 rules: Rules | None, base: str | Path | None = None) -> None:
        self.stmts = stmts
        self.source = source
        self.notation = notation or "en"
        self.rules = rules
        self.base = base
        self.seen: dict[str, _Line] = {}
        #: the ``wild`` line (a ``*`` in a hand is a card of its rank, before or after it)
        self.wild_line = next((st for st in stmts if isinstance(st, _WildLine)), None)

    def err(self, msg: str, node: _Located) -> PositionError:
        line = col = None
        if node is not None:
            line, col = node.line, node.column
        return PositionError(msg, line, col, self.source)

    def once(self, key: str, st: _Line) -> None:
        if key in self.seen:
            prev = self.seen[key]
            where = f" (first given on line {prev.line})" if prev.line is not None else ""
            raise self.err(f"{key} given twice{where}", st)
        self.seen[key] = st

    def unquote(self, tok: _Word) -> str:
        """The text of a quoted word (JSON's string syntax); PositionError at the word for a
        control character or a bad escape in it."""
        try:
            text: str = json.loads(tok.text)
        except json.JSONDecodeError as e:
            what = "a control character" if "control character" in e.msg else "a bad escape"
            raise PositionError(f"{what} in the quoted text {tok.text!r} (write it unquoted, "
                                f"or quote it with JSON's escapes)", tok.line,
                                (tok.column or 1) + e.pos, self.source) from None
        return text

    def cards(self, tok: _Word, rules: Rules, reading: bool = False) -> Cards:
        """The cards of ``tok`` (a ``*``: a card of the ``wild`` line's rank, wherever that
        line is; ``reading``: what a wild move reads as, natural ranks only); PositionError
        located at the card at fault (or at the ``wild`` line, a bad rank)."""
        text, offset = tok.text.rstrip(), 0  # a hand runs to the end of the line
        if tok.type == "ESCAPED_STRING":
            text, offset = self.unquote(tok), 1
        wild = self.wild_line
        try:
            return read_cards(text, rules, self.notation, None if wild is None
                              else wild.rank.text, reading)
        except PositionError as e:  # the wild line's rank
            raise self.err(e.message, None if wild is None else wild.rank) from None
        except NotationError as e:
            col = (tok.column or 1) + offset + ((e.column or 1) - 1)
            shown = excerpt(text, (e.column or 1) - 1)[0]  # a long line is cut around it
            raise PositionError(e.message + f" (in {shown!r})", tok.line, col,
                                self.source) from None

    def number(self, tok: _Word) -> int:
        """A number's value; PositionError at it beyond :data:`MAX_DIGITS` digits (Python
        refuses to convert over 4300 digits)."""
        if len(tok.text) > MAX_DIGITS:
            raise self.err(f"{tok.text[:6]}…({len(tok.text)} digits): too large (a number in "
                           f"a position has at most {MAX_DIGITS} digits)", tok)
        return int(tok.text)

    def build(self) -> Position:
        stmts = self.stmts
        rules = self.rules
        card_seen: _Line | None = None
        for st in stmts:
            if isinstance(st, (_Hand, _OnTable)) and card_seen is None:
                card_seen = st
            if isinstance(st, _Notation) and card_seen is not None:
                raise self.err("notation must come before any cards (cards on line "
                               f"{card_seen.line} were read as {self.notation})", st)
        for st in stmts:
            if isinstance(st, _Notation):
                self.once("notation", st)
                if st.word.text not in ("en", "fr", "de"):
                    raise self.err(f"unknown notation {st.word.text!r}; expected en, fr or de",
                                   st.word)
                self.notation = st.word.text
            elif isinstance(st, _RulesLine):
                self.once("rules", st)
                name = st.name.text
                if name.startswith('"'):
                    name = self.unquote(st.name)
                try:
                    rules = load_rules(name, without=tuple(t.text for t in st.without),
                                       base=self.base)
                except DdzError as e:
                    raise self.err(str(e), st.name) from None
        if rules is None:
            raise PositionError("the position needs a 'rules NAME' line (e.g. rules classic)",
                                1, 1, self.source)
        hands: dict[str, Cards] = {}
        hand_stmts: dict[str, _Hand] = {}
        to_move: _Word | None = None
        played_by: _Word | None = None
        on_table = None
        numbers: dict[str, int] = {}
        targets: dict[str, int | str] = {}
        landlord_plays: int = 2
        peasants_played: bool | None = None  # None: as the landlord's plays imply
        pairs: dict[str, int] = {}
        shown: list[str] = []
        wild: str | None = None
        on_table_as: Cards | None = None
        for st in stmts:
            if isinstance(st, _Hand):
                seat = st.seat.text
                if seat == "peasants":
                    raise self.err("a hand belongs to one seat: landlord, peasant, peasant1 "
                                   "or peasant2", st.seat)
                self.once(f"hand of {seat}", st)
                hands[seat] = self.cards(st.cards, rules)
                hand_stmts[seat] = st
            elif isinstance(st, _ToMove):
                self.once("to_move", st)
                to_move = st.seat
            elif isinstance(st, _OnTable):
                self.once("on_table", st)
                played, eq, read = st.cards.text.partition("=")
                if eq and st.cards.type != "ESCAPED_STRING":  # what a wild move reads as
                    on_table = self.cards(replace(st.cards, text=played), rules)
                    on_table_as = self.cards(replace(
                        st.cards, text=read, column=(st.cards.column or 1) + len(played) + 1),
                        rules, reading=True)
                else:
                    on_table = self.cards(st.cards, rules)
                played_by = st.by
            elif isinstance(st, _Number):
                self.once(st.key, st)
                numbers[st.key] = self.number(st.value)
                if st.key == "passes" and not 0 <= numbers["passes"] <= 1:
                    raise self.err("passes is 0 or 1 (two passes close a trick)", st.value)
            elif isinstance(st, _Pair):  # before _Target, its base class
                self.once(f"pair of {st.seat.text}", st)
                pairs[st.seat.text] = int(st.value.text)
            elif isinstance(st, _Target):
                seat, val = st.seat.text, st.value
                self.once(f"target of {seat}", st)
                if val.text == "robs":
                    targets[seat] = "robs"  # make_position checks the rules have robs
                elif val.type == "INT":
                    targets[seat] = self.number(val)
                else:
                    raise self.err(f"a target is a number or 'robs', not {val.text!r}", val)
            elif isinstance(st, _WildLine):
                self.once("wild", st)
                wild = st.rank.text
            elif isinstance(st, _Shown):
                self.once("shown", st)
                shown = [w.text for w in st.seats]
            elif isinstance(st, _Played):
                who, what = st.who.text, st.what.text
                self.once(f"played {who}", st)
                if who == "landlord":
                    vals = {"none": 0, "lead": 1, "more": 2}
                    if what not in vals:
                        raise self.err("played landlord: expected none, lead or more, not "
                                       f"{what!r}", st.what)
                    landlord_plays = vals[what]
                elif who == "peasants":
                    vals = {"no": 0, "yes": 1}
                    if what not in vals:
                        raise self.err(f"played peasants: expected no or yes, not {what!r}",
                                       st.what)
                    peasants_played = what == "yes"
                else:
                    raise self.err(f"played: expected landlord or peasants, not {who!r}",
                                   st.who)
        passes, robs = numbers.get("passes"), numbers.get("robs")
        base, multiplier = numbers.get("base", 1), numbers.get("multiplier")
        bombs = numbers.get("bombs")
        if not hands:
            raise PositionError("no hands given (e.g. 'landlord: 33', 'peasant: 44')",
                                None, None, self.source)
        if "landlord" not in hands:
            raise PositionError("no landlord hand given", None, None, self.source)
        if len(hands) == 2:
            for seat in hands:
                if seat not in SEATS_2:
                    try:
                        seat_index(seat, SEATS_2)
                    except PositionError as e:
                        raise self.err(e.message, hand_stmts[seat].seat) from None
        if len(hands) == 3 and "peasant" in hands:
            raise self.err("with three seats name the peasants peasant1 (plays right after "
                           "the landlord) and peasant2", hand_stmts["peasant"])
        if len(hands) not in (2, 3):
            raise PositionError(f"a position has 2 or 3 hands, got {len(hands)}",
                                None, None, self.source)
        if to_move is None:
            raise PositionError("no 'to_move: SEAT' line", None, None, self.source)
        seats = SEATS_2 if len(hands) == 2 else SEATS_3
        if set(hands) != set(seats):
            raise PositionError(f"the hands must be {', '.join(seats)}; got "
                                f"{', '.join(hands)}", None, None, self.source)
        for tok in (to_move, played_by):
            if tok is not None:
                try:
                    seat_index(tok.text, seats)
                except PositionError as e:
                    raise self.err(e.message, tok) from None
        tg: dict[str, int | str] = {}
        for given, t in targets.items():
            try:
                s = seats[seat_index(given, seats)]
            except PositionError as e:
                raise self.err(e.message, self.seen[f"target of {given}"]) from None
            tg[s] = t
            self.seen.setdefault(f"target of {s}", self.seen[f"target of {given}"])
        try:
            return make_position(rules, dict(hands), to_move.text, on_table=on_table,
                                 played_by=None if played_by is None else played_by.text,
                                 passes=passes, targets=tg, robs=robs, base=base,
                                 multiplier=multiplier, landlord_plays=landlord_plays,
                                 peasants_played=peasants_played, notation=self.notation,
                                 pairs=pairs, bombs=bombs, shown=shown, wild=wild,
                                 on_table_as=on_table_as)
        except PositionError as e:
            if e.line is None:  # located at the statement it is about, when there is one
                raise self.err(e.message, self.seen.get(e.field or "")) from None
            raise


def position_from_puzzle(record: dict[str, Any], rules: Rules | None = None) -> Position:
    """A shared puzzle record (``tests/data/puzzles/two_seat.jsonl``: hands ``first``/``second``,
    ``to_move`` first, ``on_table`` null or ``{"cards", "by"}``) as a 2-seat position: the
    first seat is named ``landlord``, the second ``peasant`` (targets 0, no scoring state).
    Raises PositionError on a malformed record."""
    def bad(what: str) -> PositionError:
        return PositionError(f"malformed puzzle record: {what}")
    hands = record.get("hands")
    if not isinstance(hands, dict) or set(hands) != {"first", "second"}:
        raise bad('"hands" must be {"first": CARDS, "second": CARDS}')
    if not all(isinstance(h, str) for h in hands.values()):
        raise bad("each hand must be a card string, e.g. \"KK5543\"")
    to_move = record.get("to_move", "first")
    if to_move not in ("first", "second"):
        raise bad('"to_move" must be "first" or "second"')
    table = record.get("on_table")
    if table is not None and (not isinstance(table, dict) or not isinstance(
            table.get("cards"), str) or table.get("by") not in ("first", "second")):
        raise bad('"on_table" must be null or {"cards": CARDS, "by": "first"|"second"}')
    rename = {"first": "landlord", "second": "peasant"}
    rules = rules or load_rules()
    return make_position(rules, {"landlord": hands["first"], "peasant": hands["second"]},
                         rename[to_move],
                         on_table=None if table is None else table["cards"],
                         played_by=None if table is None else rename[table["by"]])
