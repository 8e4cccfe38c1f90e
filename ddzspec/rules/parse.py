"""Parse one rules file (``grammar/rules.lark``) into located sections, nothing merged yet.

Lark parses the text (syntax errors located by :mod:`ddzspec.larkerrors`); the transformer
``_Sections`` turns the tree into small frozen values, each remembering where it was written
(:class:`At`): :class:`Section` (a section that replaces the parent's, by its clauses),
:class:`Group`, and :class:`Block` (``shapes``, ``restrictions``, ``without``, which merge by
name). Entry point: :func:`parse` (text and the name its errors carry → :class:`File`).
A new clause of a replacing section is one line of ``_CLAUSES``; a new section, a method.

>>> parse("rules x extends classic\\n", "x.rules").header.extends.text
'classic'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache
from typing import Any, TypeVar

from lark import Lark, Token, Transformer, v_args
from lark.tree import Meta

from .._resources import grammar_text
from ..cards import Rank
from ..errors import RulesError
from ..larkerrors import SyntaxProblem, Vocabulary, parse_located
from .model import RANK_OF_SYMBOL, BiddingSystem, FirstBidder, RobOrder, Settle, Turn


@cache
def _parser() -> Lark:
    return Lark(grammar_text("rules.lark"), parser="lalr", propagate_positions=True, cache=True)


_E = TypeVar("_E", bound=StrEnum)


def _either(words: type[StrEnum]) -> str:
    """The words of a closed vocabulary, for a syntax error: ``random or next``."""
    return " or ".join(w.value for w in words)


_VOCABULARY = Vocabulary(
    names={"NAME": "a lower-case name", "INT": "a number",
           "RANK": "a rank (3-9, 10, J, Q, K, A, 2, B, R)",
           "STRING": "a quoted title", "EACH": "each", "SWITCH": "on or off",
           "CONSECUTIVE": "consecutive", "LAST_PLAY": "last_play", "WRAPS": "wraps",
           "YESNO": "yes or no", "ROLE": "landlord or peasant",
           "BIDDING_SYSTEM": _either(BiddingSystem), "DIRECTION": _either(Turn),
           "FIRST_BIDDER": _either(FirstBidder), "ROB_ORDER": _either(RobOrder),
           "SETTLE": _either(Settle), "X": "'x'"},
    end="end of file",
    chars={'"': "unterminated quoted title (close the quote on the same line)"})


@dataclass(frozen=True, slots=True)
class At:
    """Where something was written: file, 1-based line and column (None: unknown)."""

    path: str
    line: int | None
    column: int | None


@dataclass(frozen=True, slots=True)
class Word:
    """A name or number as written, with its place."""

    text: str
    at: At


@dataclass(frozen=True, slots=True)
class RankAt:
    rank: Rank
    at: At


@dataclass(frozen=True, slots=True)
class TalonItem:
    """One talon pattern as written: its name, the rank of ``of RANK`` and its factor."""

    pattern: Word
    rank: RankAt | None
    times: Word


@dataclass(frozen=True, slots=True)
class Header:
    name: str
    title: str | None
    extends: Word | None


@dataclass(frozen=True, slots=True)
class Setting:
    """One clause of a section (``copies 4``, ``players 3``, ``bids 1 2 3``): ``key``, its
    value (int, str, tuple of ranks or ints, True for a bare flag) and its place."""

    key: str
    value: Any
    at: At


@dataclass(frozen=True, slots=True)
class Section:
    """A section that replaces the parent's (deck, order, deal, bidding, precedence, trick,
    win, scoring): ``kind``, the word after it (bidding system), its clauses in order."""

    kind: str
    at: At
    settings: tuple[Setting, ...] = ()
    head: str = ""

    def values(self) -> dict[str, Any]:
        """The clauses as a dict (a repeated clause: the last one)."""
        return {s.key: s.value for s in self.settings}


#: One item of a ``sequence``: a rank, or a span ``LO .. HI`` (along the order).
SeqItem = RankAt | tuple[RankAt, RankAt]


@dataclass(frozen=True, slots=True)
class Group:
    """``group NAME = …``: ranks (``span``: written LO .. HI, ``ranks`` holds LO and HI), or
    with ``sequence`` a declared chain order, its ``items`` as written (``wraps``: the word
    ``wraps`` closes it, where it was written)."""

    name: str
    at: At
    ranks: tuple[RankAt, ...]
    span: bool  # written LO .. HI (ranks holds LO and HI)
    sequence: bool = False
    items: tuple[SeqItem, ...] = ()
    wraps: At | None = None


@dataclass(frozen=True, slots=True)
class ShapeDecl:
    name: str
    at: At
    copies: int
    run_lo: int
    run_hi: int | None  # None: open (MIN..)
    run_at: At
    group: Word | None
    kicker_count: int | None  # None: each
    kicker_kind: Word | None
    consecutive: Word | None = None  # + each pair consecutive
    last_play: bool = False


@dataclass(frozen=True, slots=True)
class Drop:
    """``without NAME`` (inside ``shapes`` or as a statement)."""

    name: str
    at: At


@dataclass(frozen=True, slots=True)
class RestrictionDecl:
    name: str
    at: At
    numbers: tuple[Word, ...]
    ranks: tuple[RankAt, ...]
    groups: tuple[Word, ...]
    on: bool
    shapes: tuple[Word, ...] = ()  # for SHAPE, SHAPE (empty: every shape)


@dataclass(frozen=True, slots=True)
class Block:
    """The items of a ``shapes``, ``restrictions`` or ``without`` statement."""

    kind: str
    at: At
    items: tuple[ShapeDecl | Drop | RestrictionDecl, ...]


Statement = Section | Group | Block


@dataclass(frozen=True, slots=True)
class File:
    header: Header
    statements: tuple[Statement, ...]


@dataclass(frozen=True, slots=True)
class _For:
    """The shape names of a restriction's ``for`` clause (while parsing)."""

    names: tuple[Word, ...]


def _int(ch: list[Any]) -> int:
    return int(ch[0])


def _member(words: type[_E]) -> Callable[[list[Any]], _E]:
    """A clause's one word as a member of ``words`` (the grammar admits no other word)."""
    return lambda ch: words(str(ch[0]))


def _int_or_word(ch: list[Any]) -> int | str:
    return int(ch[0]) if ch[0].type == "INT" else str(ch[0])


#: The clauses of the sections that replace the parent's: grammar alias -> (key, value of the
#: children). Keys of bidding clauses are :class:`Bidding` fields.
_CLAUSES: dict[str, tuple[str, Callable[[list[Any]], Any]]] = {
    "deck_ranks": ("ranks", tuple), "deck_jokers": ("jokers", tuple),
    "deck_remove": ("remove", tuple), "deck_copies": ("copies", _int),
    "deal_players": ("players", _int), "deal_hand": ("hand", _int),
    "deal_talon": ("talon", _int), "deal_undealt": ("undealt", _int),
    "deal_turn": ("turn", _member(Turn)),
    "bid_values": ("bids", lambda ch: tuple(int(c) for c in ch)),
    "bid_ends_at": ("ends_at", _int),
    "bid_all_pass": ("all_pass_first_bidder", _member(FirstBidder)),
    "bid_first_speaker": ("first_speaker", _member(FirstBidder)),
    "bid_max_robs": ("max_robs", _int),
    "bid_no_call": ("no_call_first_speaker_landlord", lambda ch: True),
    "bid_rob_order": ("rob_order", _member(RobOrder)),
    "bid_first_to_show": ("first_to_show_speaks_first", lambda ch: True),
    "trick_close_after": ("close_after", _int),
    "trick_leader_may_pass": ("leader_may_pass", lambda ch: str(ch[0]) == "yes"),
    "score_base": ("base", _int_or_word), "score_settle": ("settle", _member(Settle)),
}


@v_args(meta=True)
class _Sections(Transformer[Token, File]):
    """Parse tree of one file → :class:`File` (every node located in ``path``)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def _at(self, meta: Meta) -> At:
        return At(self.path, getattr(meta, "line", None), getattr(meta, "column", None))

    def _tok(self, tok: Token) -> At:
        return At(self.path, tok.line, tok.column)

    def _word(self, tok: Token) -> Word:
        return Word(str(tok), self._tok(tok))

    def start(self, meta: Meta, ch: list[Any]) -> File:
        return File(ch[0], tuple(ch[1:]))

    def header(self, meta: Meta, ch: list[Any]) -> Header:
        title = next((str(c)[1:-1] for c in ch[1:] if isinstance(c, Token)), None)
        ext = next((c for c in ch[1:] if isinstance(c, Word)), None)
        return Header(str(ch[0]), title, ext)

    def extends(self, meta: Meta, ch: list[Token]) -> Word:
        return Word(str(ch[0]), self._tok(ch[0]))  # quotes kept: a quoted name is a path

    def rank(self, meta: Meta, ch: list[Token]) -> RankAt:
        return RankAt(RANK_OF_SYMBOL[str(ch[0])], self._tok(ch[0]))

    # sections that replace the parent's: a kind and its clauses
    def _section(self, kind: str, meta: Meta, ch: list[Any], head: str = "") -> Section:
        return Section(kind, self._at(meta), tuple(c for c in ch if isinstance(c, Setting)),
                        head)

    def deck(self, meta: Meta, ch: list[Any]) -> Section:
        return self._section("deck", meta, ch)

    def order(self, meta: Meta, ch: list[RankAt]) -> Section:
        return Section("order", self._at(meta), (Setting("ranks", tuple(ch), self._at(meta)),))

    def deal(self, meta: Meta, ch: list[Any]) -> Section:
        return self._section("deal", meta, ch)

    def bidding(self, meta: Meta, ch: list[Any]) -> Section:
        return self._section("bidding", meta, ch[1:], head=str(ch[0]))

    def round(self, meta: Meta, ch: list[Any]) -> Section:
        """``round NAME { … }``: the section ``round NAME STAGE`` (``round show before
        deal``; one round of a kind per stage in a file, and a file's rounds of a kind replace
        every round of that kind of its parent: :func:`~ddzspec.rules.merge.read_raw`); its
        words are checked when building."""
        when = [c for c in ch[1:] if isinstance(c, Setting) and c.key in ("after", "before")]
        stage = f" {when[0].key} {when[0].value.text}" if when else ""
        return self._section(f"round {ch[0]}{stage}", meta, ch[1:], head=str(ch[0]))

    def round_after(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting("after", self._word(ch[0]), self._at(meta))

    def round_before(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting("before", self._word(ch[0]), self._at(meta))

    def round_order(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting("order", tuple(self._word(t) for t in ch), self._at(meta))

    def round_choices(self, meta: Meta, ch: list[tuple[Word, Word]]) -> Setting:
        return Setting("choices", tuple(ch), self._at(meta))

    def round_answer(self, meta: Meta, ch: list[Any]) -> Setting:
        """``answer CHOICE … [for SCOPE]``: (the choices, the scope word or None)."""
        reach = self._word(ch[-1]) if isinstance(ch[-1], Token) else None
        choices = tuple(c for c in ch if isinstance(c, tuple))
        return Setting("answer", (choices, reach), self._at(meta))

    def round_scope(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting("scope", self._word(ch[0]), self._at(meta))

    def choice(self, meta: Meta, ch: list[Token]) -> tuple[Word, Word]:
        return self._word(ch[0]), self._word(ch[1])

    def precedence(self, meta: Meta, ch: list[Token]) -> Section:
        names = tuple(self._word(t) for t in ch)
        return Section("precedence", self._at(meta), (Setting("names", names, self._at(meta)),))

    def trick(self, meta: Meta, ch: list[Any]) -> Section:
        return self._section("trick", meta, ch)

    def win(self, meta: Meta, ch: list[Any]) -> Section:
        return self._section("win", meta, ch)

    def scoring(self, meta: Meta, ch: list[Any]) -> Section:
        return self._section("scoring", meta, ch)

    # clauses: one Setting each, by the table _CLAUSES (grammar alias -> key, value)
    def __default__(self, data: Any, children: list[Any], meta: Meta) -> Setting:
        if data not in _CLAUSES:  # a grammar rule without a method: a defect of this module
            raise NotImplementedError(f"rules.lark rule {data!r} has no transformer")
        key, value = _CLAUSES[data]
        return Setting(key, value(children), self._at(meta))

    def win_item(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting(str(ch[0]), _int_or_word(ch[1:]), self._at(meta))

    def score_double(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting("double", tuple(self._word(t) for t in ch), self._at(meta))

    def score_factor(self, meta: Meta, ch: list[Token]) -> Setting:
        """``factor NAME N …``: (name, factor) pairs, as written."""
        pairs = tuple((self._word(ch[i]), self._word(ch[i + 1])) for i in range(0, len(ch), 2))
        return Setting("factor", pairs, self._at(meta))

    def score_cap(self, meta: Meta, ch: list[Token]) -> Setting:
        """``cap WHAT N``: what is capped and the cap, as written."""
        return Setting("cap", (self._word(ch[0]), self._word(ch[1])), self._at(meta))

    def score_talon(self, meta: Meta, ch: list[TalonItem]) -> Setting:
        return Setting("talon", tuple(ch), self._at(meta))

    def talon_item(self, meta: Meta, ch: list[Any]) -> TalonItem:
        rank = next((RankAt(RANK_OF_SYMBOL[str(c)], self._tok(c)) for c in ch[1:-1]), None)
        return TalonItem(self._word(ch[0]), rank, self._word(ch[-1]))

    # wild cards: one section that replaces the parent's; its words are checked when building
    def wild(self, meta: Meta, ch: list[Any]) -> Section:
        return self._section("wild", meta, ch)

    def _words(self, key: str, meta: Meta, ch: list[Any]) -> Setting:
        return Setting(key, tuple(self._word(t) for t in ch), self._at(meta))

    def wild_count(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting("count", self._word(ch[0]), self._at(meta))

    def _draw(self, moment: str, meta: Meta, ch: list[Any]) -> Setting:
        ranks = ch[2] if len(ch) > 2 else None
        return Setting("draw", (self._word(ch[0]), moment, self._word(ch[1]), ranks),
                       self._at(meta))

    def wild_draw_before(self, meta: Meta, ch: list[Any]) -> Setting:
        return self._draw("before", meta, ch)

    def wild_draw_after(self, meta: Meta, ch: list[Any]) -> Setting:
        return self._draw("after", meta, ch)

    def wild_from(self, meta: Meta, ch: list[Any]) -> tuple[bool, tuple[RankAt, ...]]:
        """``from RANKS`` or ``from LO .. HI``: (a span?, the ranks as written)."""
        if len(ch) == 1 and isinstance(ch[0], tuple):
            return True, ch[0]
        return False, tuple(ch)

    def wild_bomb(self, meta: Meta, ch: list[Any]) -> Setting:
        """``bomb SHAPE [LO [.. HI]]``: (the shape's word, the length words or None)."""
        return Setting("bomb", (self._word(ch[0]), ch[1] if len(ch) > 1 else None),
                       self._at(meta))

    def wild_lengths(self, meta: Meta, ch: list[Token]) -> tuple[Word, ...]:
        return tuple(self._word(t) for t in ch)

    def wild_ladder(self, meta: Meta, ch: list[Token]) -> Setting:
        return self._words("ladder", meta, ch)

    def wild_order(self, meta: Meta, ch: list[Token]) -> Setting:
        return self._words("order", meta, ch)

    def wild_factor(self, meta: Meta, ch: list[Token]) -> Setting:
        pairs = tuple((self._word(ch[i]), self._word(ch[i + 1])) for i in range(0, len(ch), 2))
        return Setting("factor", pairs, self._at(meta))

    def wild_reading(self, meta: Meta, ch: list[Token]) -> Setting:
        return Setting("reading", self._word(ch[0]), self._at(meta))

    def wild_priority(self, meta: Meta, ch: list[Token]) -> Setting:
        return self._words("priority", meta, ch)

    def wild_restrict(self, meta: Meta, ch: list[tuple[Word, Word | None]]) -> Setting:
        return Setting("restrict", tuple(ch), self._at(meta))

    def wild_restriction(self, meta: Meta, ch: list[Token]) -> tuple[Word, Word | None]:
        return self._word(ch[0]), (self._word(ch[1]) if len(ch) > 1 else None)

    # sections that merge by name
    def group(self, meta: Meta, ch: list[Any]) -> Group:
        rest = ch[1:]
        if len(rest) == 1 and isinstance(rest[0], Group):  # a sequence
            return replace(rest[0], name=str(ch[0]), at=self._at(meta))
        # ``wraps`` after a plain list: kept, for the builder's located "only a sequence wraps"
        wraps = self._tok(rest.pop()) if isinstance(rest[-1], Token) else None
        if len(rest) == 1 and isinstance(rest[0], tuple):
            return Group(str(ch[0]), self._at(meta), rest[0], True, wraps=wraps)
        return Group(str(ch[0]), self._at(meta), tuple(rest), False, wraps=wraps)

    def rank_range(self, meta: Meta, ch: list[RankAt]) -> tuple[RankAt, ...]:
        return tuple(ch)

    def sequence(self, meta: Meta, ch: list[Any]) -> Group:
        wraps = next((self._tok(c) for c in ch if isinstance(c, Token)), None)  # WRAPS
        items = tuple(c if isinstance(c, RankAt) else (c[0], c[1]) for c in ch
                      if not isinstance(c, Token))
        return Group("", self._at(meta), (), False, True, items, wraps)

    def shapes(self, meta: Meta, ch: list[Any]) -> Block:
        return Block("shapes", self._at(meta), tuple(ch))

    def shape(self, meta: Meta, ch: list[Any]) -> ShapeDecl:
        (copies, lo, hi, run_at, group) = ch[1]
        last = bool(ch) and isinstance(ch[-1], Token) and ch[-1].type == "LAST_PLAY"
        kicker = next((c for c in ch[2:] if isinstance(c, tuple)), None)
        count, kind, consecutive = kicker if kicker is not None else (0, None, None)
        return ShapeDecl(str(ch[0]), self._at(meta), copies, lo, hi, run_at, group, count,
                          kind, consecutive, last)

    def shape_without(self, meta: Meta, ch: list[Token]) -> Drop:
        return Drop(str(ch[0]), self._at(meta))

    def body(self, meta: Meta, ch: list[Any]) -> tuple[int, int, int | None, At, Word | None]:
        lo, hi, run_at = ch[1]
        group = self._word(ch[2]) if len(ch) > 2 and ch[2] is not None else None
        return int(ch[0]), lo, hi, run_at, group

    def run_exact(self, meta: Meta, ch: list[Token]) -> tuple[int, int | None, At]:
        return int(ch[0]), int(ch[0]), self._at(meta)

    def run_range(self, meta: Meta, ch: list[Token | None]) -> tuple[int, int | None, At]:
        hi = ch[1] if len(ch) > 1 else None
        return int(str(ch[0])), None if hi is None else int(hi), self._at(meta)

    def kicker(self, meta: Meta, ch: list[Token]) -> tuple[int | None, Word, Word | None]:
        n = str(ch[0])
        consecutive = self._word(ch[2]) if len(ch) > 2 else None
        return (None if n == "each" else int(n)), self._word(ch[1]), consecutive

    def without(self, meta: Meta, ch: list[Token]) -> Block:
        return Block("without", self._at(meta), tuple(Drop(str(t), self._tok(t)) for t in ch))

    def restrictions(self, meta: Meta, ch: list[RestrictionDecl]) -> Block:
        return Block("restrictions", self._at(meta), tuple(ch))

    def restriction(self, meta: Meta, ch: list[Any]) -> RestrictionDecl:
        shapes = next((c for c in ch[1:] if isinstance(c, _For)), _For(()))
        args = [c for c in ch[1:] if not isinstance(c, _For)]
        on = not (args and isinstance(args[-1], Token) and args[-1].type == "SWITCH"
                  and str(args[-1]) == "off")
        return RestrictionDecl(
            str(ch[0]), self._at(meta),
            numbers=tuple(self._word(a) for a in args if isinstance(a, Token) and a.type == "INT"),
            ranks=tuple(RankAt(RANK_OF_SYMBOL[str(a)], self._tok(a)) for a in args
                        if isinstance(a, Token) and a.type == "RANK"),
            groups=tuple(a for a in args if isinstance(a, Word)), on=on, shapes=shapes.names)

    def restriction_for(self, meta: Meta, ch: list[Token]) -> _For:
        return _For(tuple(self._word(t) for t in ch))

    def restriction_group(self, meta: Meta, ch: list[Token]) -> Word:
        return self._word(ch[0])


#: The largest number a rules file may write (any clause; each clause checks its own range too).
MAX_NUMBER = 1000


def parse(text: str, path: str) -> File:
    try:
        tree = parse_located(_parser(), text, _VOCABULARY)
    except SyntaxProblem as e:
        raise RulesError(e.message, path, e.line, e.column) from None
    for tok in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "INT"):
        if len(tok) > 4 or int(tok) > MAX_NUMBER:
            shown = tok if len(tok) <= 12 else f"{tok[:6]}...({len(tok)} digits)"
            raise RulesError(f"{shown}: too large (a number in a rules file is at most "
                             f"{MAX_NUMBER})", path, tok.line, tok.column)
    return _Sections(path).transform(tree)
