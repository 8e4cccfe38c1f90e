"""Load a rules file (``grammar/rules.lark``) into :class:`~ddzspec.rules.model.Rules`.

Three steps: *parse* (Lark, then a ``Transformer`` into frozen sections that remember where
they were written), *merge* the ``extends`` chain (sections replace the parent's; shapes,
groups and restrictions merge by name) and *validate and build*. Every problem raises
:class:`~ddzspec.errors.RulesError` with ``file:line:column``. Entry points: :func:`load_rules`
(a built-in name or a path, kept in memory keyed by the content of every file of the chain),
:func:`load_rules_text`, :func:`builtin_rules`, :func:`rules_without` and :func:`drop_shape`
(``without`` and ``--without``, one mechanism).

The three steps in detail: docs/rules-language.md, "Design notes, module by module".

>>> load_rules("kawu").parents
('classic',)
>>> load_rules_text("rules x extends classic\\nrestrictions { kicker_not_in 2 group jokers }\\n"
...                 ).restriction("kicker_not_in").ranks
(12, 13, 14)
"""

from __future__ import annotations

import errno
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, v_args
from lark.tree import Meta

from .. import restrictions as registry
from .._resources import data_dir, grammar_text
from ..cards import ALL_RANKS, N_RANKS, Rank
from ..errors import RulesError, shorten
from ..larkerrors import SyntaxProblem, Vocabulary, parse_located
from .model import (
    DOUBLE_EVENTS,
    KIND_SIZE,
    RANK_OF_SYMBOL,
    Bidding,
    Deal,
    Restriction,
    Rules,
    Scoring,
    Shape,
    Trick,
    Win,
    _digest,
    resolved_text,
)

# --------------------------------------------------------------------------- parsing


@cache
def _parser() -> Lark:
    return Lark(grammar_text("rules.lark"), parser="lalr", propagate_positions=True, cache=True)


_VOCABULARY = Vocabulary(
    names={"NAME": "a lower-case name", "INT": "a number",
           "RANK": "a rank (3-9, 10, J, Q, K, A, 2, B, R)",
           "STRING": "a quoted title", "EACH": "each", "SWITCH": "on or off",
           "YESNO": "yes or no", "ROLE": "landlord or peasant",
           "BIDDING_SYSTEM": "auction or call_rob", "DIRECTION": "counterclockwise or clockwise",
           "FIRST_BIDDER": "random or next", "SETTLE": "per_peasant", "X": "'x'"},
    end="end of file",
    chars={'"': "unterminated quoted title (close the quote on the same line)"})


@dataclass(frozen=True, slots=True)
class _At:
    """Where something was written: file, 1-based line and column (None: unknown)."""

    path: str
    line: int | None
    column: int | None


@dataclass(frozen=True, slots=True)
class _Word:
    """A name or number as written, with its place."""

    text: str
    at: _At


@dataclass(frozen=True, slots=True)
class _RankAt:
    rank: Rank
    at: _At


@dataclass(frozen=True, slots=True)
class _Header:
    name: str
    title: str | None
    extends: _Word | None


@dataclass(frozen=True, slots=True)
class _Setting:
    """One clause of a section (``copies 4``, ``players 3``, ``bids 1 2 3``): ``key``, its
    value (int, str, tuple of ranks or ints, True for a bare flag) and its place."""

    key: str
    value: Any
    at: _At


@dataclass(frozen=True, slots=True)
class _Section:
    """A section that replaces the parent's (deck, order, deal, bidding, precedence, trick,
    win, scoring): ``kind``, the word after it (bidding system), its clauses in order."""

    kind: str
    at: _At
    settings: tuple[_Setting, ...] = ()
    head: str = ""

    def values(self) -> dict[str, Any]:
        """The clauses as a dict (a repeated clause: the last one)."""
        return {s.key: s.value for s in self.settings}


@dataclass(frozen=True, slots=True)
class _Group:
    name: str
    at: _At
    ranks: tuple[_RankAt, ...]
    span: bool  # written LO .. HI (ranks holds LO and HI)


@dataclass(frozen=True, slots=True)
class _ShapeDecl:
    name: str
    at: _At
    copies: int
    run_lo: int
    run_hi: int | None  # None: open (MIN..)
    run_at: _At
    group: _Word | None
    kicker_count: int | None  # None: each
    kicker_kind: _Word | None


@dataclass(frozen=True, slots=True)
class _Drop:
    """``without NAME`` (inside ``shapes`` or as a statement)."""

    name: str
    at: _At


@dataclass(frozen=True, slots=True)
class _RestrictionDecl:
    name: str
    at: _At
    numbers: tuple[_Word, ...]
    ranks: tuple[_RankAt, ...]
    groups: tuple[_Word, ...]
    on: bool


@dataclass(frozen=True, slots=True)
class _Block:
    """The items of a ``shapes``, ``restrictions`` or ``without`` statement."""

    kind: str
    at: _At
    items: tuple[_ShapeDecl | _Drop | _RestrictionDecl, ...]


_Statement = _Section | _Group | _Block


@dataclass(frozen=True, slots=True)
class _File:
    header: _Header
    statements: tuple[_Statement, ...]


def _int(ch: list[Any]) -> int:
    return int(ch[0])


def _str(ch: list[Any]) -> str:
    return str(ch[0])


def _int_or_word(ch: list[Any]) -> int | str:
    return int(ch[0]) if ch[0].type == "INT" else str(ch[0])


#: The clauses of the sections that replace the parent's: grammar alias -> (key, value of the
#: children). Keys of bidding clauses are :class:`Bidding` fields.
_CLAUSES: dict[str, tuple[str, Callable[[list[Any]], Any]]] = {
    "deck_ranks": ("ranks", tuple), "deck_jokers": ("jokers", tuple),
    "deck_remove": ("remove", tuple), "deck_copies": ("copies", _int),
    "deal_players": ("players", _int), "deal_hand": ("hand", _int),
    "deal_talon": ("talon", _int), "deal_undealt": ("undealt", _int),
    "deal_turn": ("turn", _str),
    "bid_values": ("bids", lambda ch: tuple(int(c) for c in ch)),
    "bid_ends_at": ("ends_at", _int), "bid_all_pass": ("all_pass_first_bidder", _str),
    "bid_first_speaker": ("first_speaker", _str), "bid_max_robs": ("max_robs", _int),
    "bid_no_call": ("no_call_first_speaker_landlord", lambda ch: True),
    "trick_close_after": ("close_after", _int),
    "trick_leader_may_pass": ("leader_may_pass", lambda ch: str(ch[0]) == "yes"),
    "score_base": ("base", _int_or_word), "score_settle": ("settle", _str),
}


@v_args(meta=True)
class _Sections(Transformer[Token, _File]):
    """Parse tree of one file → :class:`_File` (every node located in ``path``)."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def _at(self, meta: Meta) -> _At:
        return _At(self.path, getattr(meta, "line", None), getattr(meta, "column", None))

    def _tok(self, tok: Token) -> _At:
        return _At(self.path, tok.line, tok.column)

    def _word(self, tok: Token) -> _Word:
        return _Word(str(tok), self._tok(tok))

    def start(self, meta: Meta, ch: list[Any]) -> _File:
        return _File(ch[0], tuple(ch[1:]))

    def header(self, meta: Meta, ch: list[Any]) -> _Header:
        title = next((str(c)[1:-1] for c in ch[1:] if isinstance(c, Token)), None)
        ext = next((c for c in ch[1:] if isinstance(c, _Word)), None)
        return _Header(str(ch[0]), title, ext)

    def extends(self, meta: Meta, ch: list[Token]) -> _Word:
        return _Word(str(ch[0]), self._tok(ch[0]))  # quotes kept: a quoted name is a path

    def rank(self, meta: Meta, ch: list[Token]) -> _RankAt:
        return _RankAt(RANK_OF_SYMBOL[str(ch[0])], self._tok(ch[0]))

    # sections that replace the parent's: a kind and its clauses
    def _section(self, kind: str, meta: Meta, ch: list[Any], head: str = "") -> _Section:
        return _Section(kind, self._at(meta), tuple(c for c in ch if isinstance(c, _Setting)),
                        head)

    def deck(self, meta: Meta, ch: list[Any]) -> _Section:
        return self._section("deck", meta, ch)

    def order(self, meta: Meta, ch: list[_RankAt]) -> _Section:
        return _Section("order", self._at(meta), (_Setting("ranks", tuple(ch), self._at(meta)),))

    def deal(self, meta: Meta, ch: list[Any]) -> _Section:
        return self._section("deal", meta, ch)

    def bidding(self, meta: Meta, ch: list[Any]) -> _Section:
        return self._section("bidding", meta, ch[1:], head=str(ch[0]))

    def precedence(self, meta: Meta, ch: list[Token]) -> _Section:
        names = tuple(self._word(t) for t in ch)
        return _Section("precedence", self._at(meta), (_Setting("names", names, self._at(meta)),))

    def trick(self, meta: Meta, ch: list[Any]) -> _Section:
        return self._section("trick", meta, ch)

    def win(self, meta: Meta, ch: list[Any]) -> _Section:
        return self._section("win", meta, ch)

    def scoring(self, meta: Meta, ch: list[Any]) -> _Section:
        return self._section("scoring", meta, ch)

    # clauses: one _Setting each, by the table _CLAUSES (grammar alias -> key, value)
    def __default__(self, data: Any, children: list[Any], meta: Meta) -> _Setting:
        if data not in _CLAUSES:  # a grammar rule without a method: a defect of this module
            raise NotImplementedError(f"rules.lark rule {data!r} has no transformer")
        key, value = _CLAUSES[data]
        return _Setting(key, value(children), self._at(meta))

    def win_item(self, meta: Meta, ch: list[Token]) -> _Setting:
        return _Setting(str(ch[0]), _int_or_word(ch[1:]), self._at(meta))

    def score_double(self, meta: Meta, ch: list[Token]) -> _Setting:
        return _Setting("double", tuple(self._word(t) for t in ch), self._at(meta))

    # sections that merge by name
    def group(self, meta: Meta, ch: list[Any]) -> _Group:
        rest = ch[1:]
        if len(rest) == 1 and isinstance(rest[0], tuple):
            return _Group(str(ch[0]), self._at(meta), rest[0], True)
        return _Group(str(ch[0]), self._at(meta), tuple(rest), False)

    def rank_range(self, meta: Meta, ch: list[_RankAt]) -> tuple[_RankAt, ...]:
        return tuple(ch)

    def shapes(self, meta: Meta, ch: list[Any]) -> _Block:
        return _Block("shapes", self._at(meta), tuple(ch))

    def shape(self, meta: Meta, ch: list[Any]) -> _ShapeDecl:
        (copies, lo, hi, run_at, group), kicker = ch[1], (ch[2] if len(ch) > 2 else None)
        count, kind = kicker if kicker is not None else (0, None)
        return _ShapeDecl(str(ch[0]), self._at(meta), copies, lo, hi, run_at, group, count,
                          kind)

    def shape_without(self, meta: Meta, ch: list[Token]) -> _Drop:
        return _Drop(str(ch[0]), self._at(meta))

    def body(self, meta: Meta, ch: list[Any]) -> tuple[int, int, int | None, _At, _Word | None]:
        lo, hi, run_at = ch[1]
        group = self._word(ch[2]) if len(ch) > 2 and ch[2] is not None else None
        return int(ch[0]), lo, hi, run_at, group

    def run_exact(self, meta: Meta, ch: list[Token]) -> tuple[int, int | None, _At]:
        return int(ch[0]), int(ch[0]), self._at(meta)

    def run_range(self, meta: Meta, ch: list[Token | None]) -> tuple[int, int | None, _At]:
        hi = ch[1] if len(ch) > 1 else None
        return int(str(ch[0])), None if hi is None else int(hi), self._at(meta)

    def kicker(self, meta: Meta, ch: list[Token]) -> tuple[int | None, _Word]:
        n = str(ch[0])
        return (None if n == "each" else int(n)), self._word(ch[1])

    def without(self, meta: Meta, ch: list[Token]) -> _Block:
        return _Block("without", self._at(meta), tuple(_Drop(str(t), self._tok(t)) for t in ch))

    def restrictions(self, meta: Meta, ch: list[_RestrictionDecl]) -> _Block:
        return _Block("restrictions", self._at(meta), tuple(ch))

    def restriction(self, meta: Meta, ch: list[Any]) -> _RestrictionDecl:
        args = ch[1:]
        on = not (args and isinstance(args[-1], Token) and args[-1].type == "SWITCH"
                  and str(args[-1]) == "off")
        return _RestrictionDecl(
            str(ch[0]), self._at(meta),
            numbers=tuple(self._word(a) for a in args if isinstance(a, Token) and a.type == "INT"),
            ranks=tuple(_RankAt(RANK_OF_SYMBOL[str(a)], self._tok(a)) for a in args
                        if isinstance(a, Token) and a.type == "RANK"),
            groups=tuple(a for a in args if isinstance(a, _Word)), on=on)

    def restriction_group(self, meta: Meta, ch: list[Token]) -> _Word:
        return self._word(ch[0])


#: The largest number a rules file may write (any clause; each clause checks its own range too).
MAX_NUMBER = 1000


def _parse(text: str, path: str) -> _File:
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


# --------------------------------------------------------------------------- merging

@dataclass
class _Raw:
    """The merged sections of a file and its parents, as written, before validation.
    ``files``: every file read (this one and its parents), for the in-memory cache key."""

    path: str
    name: str = ""
    title: str = ""
    parents: list[str] = field(default_factory=list)
    extends_at: tuple[int | None, int | None] = (None, None)
    sections: dict[str, _Section] = field(default_factory=dict)
    groups: dict[str, _Group] = field(default_factory=dict)
    shapes: dict[str, _ShapeDecl] = field(default_factory=dict)
    restrictions: dict[str, _RestrictionDecl] = field(default_factory=dict)
    #: shapes dropped by ``without`` (in this file, a parent or ``--without``): where
    dropped: dict[str, _At] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)


def resolve_path(name_or_path: str, base: Path | None = None, as_path: bool = False) -> Path:
    """Find a rules file. A bare built-in name ("classic", "kawu", "duel", "duel-literal")
    always means the shipped file, whatever lies in the working folder; anything else is a path
    (``.rules`` may be left off), relative to ``base`` when given (an ``extends`` in a file,
    a position file's ``rules`` line) and then only to it, else to the working folder.
    ``as_path``: always a path, never a built-in (a quoted ``extends "classic"`` means the file
    ``classic.rules`` next to the file saying it). Raises RulesError naming the files tried
    (and the built-in names, for a bare name) when nothing matches."""
    if not name_or_path.strip():
        raise RulesError("empty rules name (give a built-in name or a path)", "<rules>")
    try:
        return _find_rules_file(name_or_path, base, as_path)
    except OSError as e:  # a name the system refuses to look up (ENAMETOOLONG, ELOOP, EACCES)
        why = " (a name in a path is at most 255 bytes)" if e.errno == errno.ENAMETOOLONG else ""
        raise RulesError(f"cannot be looked up: {e.strerror}{why}", shorten(name_or_path)) \
            from None


def _find_rules_file(name_or_path: str, base: Path | None, as_path: bool) -> Path:
    """:func:`resolve_path`'s search; raises OSError as looking a name up does."""
    builtin = data_dir("rules") / f"{name_or_path}.rules"
    bare = "/" not in name_or_path and not name_or_path.endswith(".rules")
    if bare and not as_path and builtin.is_file():
        return builtin
    p = Path(name_or_path)
    candidates = [p] if p.suffix == ".rules" else [p, p.parent / (p.name + ".rules")]
    if base is not None and not p.is_absolute():
        # only from ``base``: a file of the same name in the working folder is never taken
        # instead (the answer would depend on where the command is run)
        candidates = [base / c for c in candidates]
    for c in candidates:
        if c.is_file():
            return c
    if p.is_dir():
        raise RulesError("is a folder, not a rules file", name_or_path)
    for c in candidates:  # exists, but neither a file nor a folder (/dev/null, a pipe)
        if c.exists():
            raise RulesError("is not a regular file (a device, a pipe or a socket), not a "
                             "rules file", str(c))
    tried = ", ".join(dict.fromkeys(str(c.resolve()) for c in candidates))
    names = "" if as_path or not bare else f"; built in: {', '.join(builtin_rules())}"
    raise RulesError(f"no rules file {name_or_path!r} (tried {tried}{names})", name_or_path)


def builtin_rules() -> list[str]:
    """Names of the shipped rules files."""
    return sorted(x.stem for x in data_dir("rules").glob("*.rules"))


#: The largest rules file (or rules text) read, in bytes: the shipped files are under 8 KiB, so
#: anything near this is no rules file (a device, a log); it is refused before being read whole.
MAX_RULES_BYTES = 1024 * 1024
#: The most files an ``extends`` chain may hold (the file itself and its parents): a longer one
#: is refused at the ``extends`` that passes it, before its parent is read.
MAX_EXTENDS_DEPTH = 64


def _too_large(shown: str) -> RulesError:
    return RulesError(f"larger than {MAX_RULES_BYTES // 1024} KiB (the most a rules file may "
                      "hold): not a rules file", shown)


def _read_bytes(path: Path) -> bytes:
    """The bytes of the rules file ``path``, never more than :data:`MAX_RULES_BYTES` read.
    Raises RulesError naming the file (unreadable, or over the cap)."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_RULES_BYTES + 1)
    except OSError as e:
        raise RulesError(f"cannot read: {e.strerror}", str(path)) from None
    if len(data) > MAX_RULES_BYTES:
        raise _too_large(str(path))
    return data


def _read_raw(path: Path, seen: tuple[Path, ...] = ()) -> _Raw:
    """The rules file at ``path`` with its ``extends`` chain merged (``seen``: the files of the
    chain below it, for cycles and :data:`MAX_EXTENDS_DEPTH`)."""
    shown = str(path)
    data = _read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RulesError(f"not UTF-8 text (byte {e.start}: {e.object[e.start:e.start + 1]!r})",
                         shown) from None
    raw = _raw_of_text(text, shown, path.parent, seen + (path.resolve(),))
    raw.files[str(path.resolve())] = data
    return raw


def _raw_of_text(text: str, shown: str, base: Path | None, chain: tuple[Path, ...],
                 resolve: bool = True) -> _Raw:
    """The rules ``text`` (named ``shown`` in errors) with its ``extends`` chain merged: a
    parent path is resolved from ``base`` (None: the working folder); ``chain``: the files
    read so far, this one last when it is a file. ``resolve=False``: the text must stand
    alone; an ``extends`` is refused at its place and no file is read."""
    if len(text) > MAX_RULES_BYTES or len(text.encode("utf-8")) > MAX_RULES_BYTES:
        raise _too_large(shown)
    parsed = _parse(text, shown)
    raw = _Raw(path=shown, name=parsed.header.name, title=parsed.header.title or "")
    ext = parsed.header.extends
    if ext is not None:
        loc = (ext.at.line, ext.at.column)
        if not resolve:
            raise RulesError(f"extends {ext.text}: refused: these rules must stand alone (as a "
                             "record carries them: resolved, with no extends), so no other "
                             "file is read", shown, *loc)
        if len(chain) >= MAX_EXTENDS_DEPTH:
            raise RulesError(f"extends {ext.text}: an extends chain of more than "
                             f"{MAX_EXTENDS_DEPTH} files (is it generated?)", shown, *loc)
        try:
            parent_path = resolve_path(ext.text.strip('"'), base,
                                       as_path=ext.text.startswith('"'))
        except RulesError as e:
            raise RulesError(e.message, shown, *loc) from None
        if parent_path.resolve() in chain:
            names = " -> ".join([p.name for p in chain] + [parent_path.name])
            raise RulesError(f"a cycle of extends: {names}", shown, *loc)
        parent = _read_raw(parent_path, chain)
        raw.extends_at = loc
        raw.parents = [parent.name] + parent.parents
        raw.sections = dict(parent.sections)
        raw.groups = dict(parent.groups)
        raw.shapes = dict(parent.shapes)
        raw.restrictions = dict(parent.restrictions)
        raw.dropped = dict(parent.dropped)
        raw.title = raw.title or parent.title
        raw.files = dict(parent.files)
    seen_here: set[tuple[str, str]] = set()

    def once(kind: str, name: str, message: str, at: _At) -> None:
        if (kind, name) in seen_here:
            raise RulesError(message, shown, at.line, at.column)
        seen_here.add((kind, name))

    for st in parsed.statements:
        if isinstance(st, _Section):
            once("section", st.kind, f"section {st.kind!r} given twice", st.at)
            raw.sections[st.kind] = st
        elif isinstance(st, _Group):
            once("group", st.name, f"group {st.name!r} declared twice", st.at)
            raw.groups[st.name] = st
        else:
            # one shapes, restrictions and without statement per file, like every section
            once("section", st.kind, f"section {st.kind!r} given twice (write all its items "
                 "in one block)", st.at)
            for item in st.items:
                if isinstance(item, _Drop):
                    if ("shape", item.name) in seen_here:
                        raise RulesError(f"without {item.name}: this file also declares shape "
                                         f"{item.name} (drop it or declare it, not both)", shown,
                                         item.at.line, item.at.column)
                    drop_shape(raw, item)
                elif isinstance(item, _ShapeDecl):
                    once("shape", item.name, f"duplicate shape name {item.name!r}", item.at)
                    gone = raw.dropped.pop(item.name, None)
                    if gone is not None and gone.path == shown:
                        raise RulesError(f"shape {item.name}: this file also drops it (without "
                                         f"{item.name} at {gone.line}:{gone.column}; drop it or "
                                         "declare it, not both)", shown, item.at.line,
                                         item.at.column)
                    raw.shapes[item.name] = item
                else:
                    if item.name not in registry.REGISTRY:
                        raise RulesError(f"unknown restriction {item.name!r} (known: "
                                         f"{', '.join(registry.REGISTRY)})", shown,
                                         item.at.line, item.at.column)
                    once("restriction", item.name, f"restriction {item.name!r} given twice",
                         item.at)
                    raw.restrictions[item.name] = item
    return raw


def drop_shape(raw: _Raw, drop: _Drop) -> None:
    """Drop one shape from merged sections: the one mechanism behind ``without NAME`` in a
    file and ``--without NAME`` (:func:`rules_without`). The shape goes, and so does its name
    in ``precedence`` and ``double`` (the builder skips names in ``raw.dropped``, renumbering
    the tiers left). Raises RulesError, located at the drop, for a shape not declared."""
    if drop.name not in raw.shapes:
        known = ", ".join(raw.shapes) or "none"
        raise RulesError(f"without {drop.name}: no such shape (shapes: {known})", drop.at.path,
                         drop.at.line, drop.at.column)
    del raw.shapes[drop.name]
    raw.dropped[drop.name] = drop.at


# --------------------------------------------------------------------------- validation

class _Builder:
    """Validate the merged sections of a file against each other and build :class:`Rules`."""

    def __init__(self, raw: _Raw) -> None:
        self.raw = raw
        self.cur = raw.path

    def at(self, path: str) -> None:
        """Errors from now on are located in ``path`` (the file a section comes from)."""
        self.cur = path

    def err(self, msg: str, pos: _At | None = None) -> RulesError:
        line, col = (pos.line, pos.column) if pos else (None, None)
        if self.cur != self.raw.path:
            # found in a section this file inherits: the conflict comes from this file, so
            # locate it at this file's `extends` and say where the inherited section is
            where = f"{Path(self.cur).name}:{line}:{col or 1}" if line else Path(self.cur).name
            return RulesError(f"{msg} (in the section inherited from {where}; this file "
                              "changes what it depends on)", self.raw.path, *self.raw.extends_at)
        return RulesError(msg, self.cur, line, col)

    def section(self, name: str) -> _Section:
        if name not in self.raw.sections:
            self.cur = self.raw.path
            raise self.err(f"missing section {name!r}")
        sec = self.raw.sections[name]
        self.at(sec.at.path)
        return sec

    def build(self) -> Rules:
        deck, jokers = self.deck()
        order, strength = self.order(deck)
        groups = self.groups(order)
        deal = self.deal(deck)
        self.deck_counts, self.the_deal = deck, deal
        max_cards = deal.hand + deal.talon
        shapes = self.shapes(groups, order, max_cards)
        shapes = self.precedence(shapes)
        restrictions = self.restrictions(groups)
        bidding = self.bidding()
        trick = self.trick()
        win = self.win()
        if "robs" in (win.landlord, win.peasant) and bidding.system != "call_rob":
            sec = self.section("win")
            raise self.err("a target of 'robs' needs call_rob bidding (only robs make a "
                           "handicap)", sec.at)
        scoring = self.scoring(shapes, bidding)
        r = Rules(name=self.raw.name, title=self.raw.title or self.raw.name, path=self.raw.path,
                  deck=deck, jokers=jokers, order=order, strength=strength,
                  groups=tuple((k, v) for k, v in groups.items()), deal=deal, bidding=bidding,
                  shapes=shapes, restrictions=restrictions, trick=trick, win=win,
                  scoring=scoring, max_cards=max_cards, parents=tuple(self.raw.parents))
        return replace(r, digest=_digest(r))

    def deck(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        sec = self.section("deck")
        counts = [0] * N_RANKS
        copies = None
        ranks: list[_RankAt] = []
        jokers: list[_RankAt] = []
        remove: list[_RankAt] = []
        for item in sec.settings:
            if item.key == "copies":
                copies = item.value
                if not 1 <= item.value <= 7:
                    raise self.err("copies must be between 1 and 7", item.at)
            else:
                {"ranks": ranks, "jokers": jokers, "remove": remove}[item.key].extend(item.value)
        if copies is None:
            raise self.err("deck needs 'copies N'", sec.at)
        for r in ranks:
            if counts[r.rank.index]:
                raise self.err(f"rank {r.rank.symbol()} listed twice in the deck", r.at)
            counts[r.rank.index] = copies
        for r in jokers:
            if counts[r.rank.index]:
                raise self.err(f"joker {r.rank.symbol()} listed twice in the deck", r.at)
            counts[r.rank.index] = 1
        for r in remove:
            if not counts[r.rank.index]:
                raise self.err(f"remove {r.rank.symbol()}: not in the deck", r.at)
            counts[r.rank.index] = 0
        return tuple(counts), tuple(r.rank.index for r in jokers if counts[r.rank.index])

    def order(self, deck: tuple[int, ...]) -> tuple[tuple[Rank, ...], tuple[int, ...]]:
        sec = self.section("order")
        order: list[Rank] = []
        for ra in sec.values()["ranks"]:
            r = ra.rank
            if not deck[r.index]:
                raise self.err(f"rank {r.symbol()} is used in order but is not in the deck",
                               ra.at)
            if r in order:
                raise self.err(f"rank {r.symbol()} appears twice in order", ra.at)
            order.append(r)
        missing = [ALL_RANKS[i].symbol() for i in range(N_RANKS) if deck[i] and
                   ALL_RANKS[i] not in order]
        if missing:
            raise self.err(f"order lacks deck ranks: {' '.join(missing)}", sec.at)
        strength = [-1] * N_RANKS
        for i, r in enumerate(order):
            strength[r.index] = i
        return tuple(order), tuple(strength)

    def groups(self, order: tuple[Rank, ...]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for gname, g in self.raw.groups.items():
            self.at(g.at.path)
            for ra in g.ranks:
                if ra.rank not in order:
                    raise self.err(f"group {gname}: rank {ra.rank.symbol()} is not in the deck",
                                   ra.at)
            if g.span:
                lo, hi = g.ranks[0].rank, g.ranks[1].rank
                a, b = order.index(lo), order.index(hi)
                if a > b:
                    raise self.err(f"group {gname}: {lo.symbol()} .. {hi.symbol()} runs "
                                   "backwards in the order", g.at)
                out[gname] = tuple(r.index for r in order[a:b + 1])
            else:
                idx = sorted(order.index(ra.rank) for ra in g.ranks)
                if idx != list(range(idx[0], idx[0] + len(idx))):
                    raise self.err(f"group {gname}: ranks must be consecutive in the order",
                                   g.at)
                out[gname] = tuple(order[i].index for i in idx)
        return out

    def deal(self, deck: tuple[int, ...]) -> Deal:
        sec = self.section("deal")
        vals = sec.values()
        for k in ("players", "hand", "talon"):
            if k not in vals:
                raise self.err(f"deal needs '{k} N'", sec.at)
        d = Deal(players=vals["players"], hand=vals["hand"], talon=vals["talon"],
                 undealt=vals.get("undealt", 0), turn=vals.get("turn", "counterclockwise"))
        if d.players < 2:
            raise self.err("a deal needs at least 2 players", sec.at)
        if d.hand < 1:
            raise self.err("hand must be at least 1 card", sec.at)
        total = d.players * d.hand + d.talon + d.undealt
        if total != sum(deck):
            pos = sec.at
            deck_sec = self.raw.sections["deck"]
            if deck_sec.at.path == self.raw.path != self.cur:
                self.at(deck_sec.at.path)  # the deck changed here, the deal was inherited
                pos = deck_sec.at
            raise self.err(f"hand sizes do not add up to the deck: {d.players} players x "
                           f"{d.hand} + talon {d.talon} + undealt {d.undealt} = {total}, "
                           f"but the deck has {sum(deck)} cards", pos)
        return d

    def shapes(self, groups: dict[str, tuple[int, ...]], order: tuple[Rank, ...],
               max_cards: int) -> tuple[Shape, ...]:
        if not self.raw.shapes:
            self.cur = self.raw.path
            raise self.err("no shapes declared")
        return tuple(self.shape(d, groups, tuple(r.index for r in order), max_cards)
                     for d in self.raw.shapes.values())

    def shape(self, d: _ShapeDecl, groups: dict[str, tuple[int, ...]],
              all_ranks: tuple[int, ...], max_cards: int) -> Shape:
        self.at(d.at.path)
        sname, lo, hi, copies = d.name, d.run_lo, d.run_hi, d.copies
        gname = d.group.text if d.group else None
        if d.group is not None and d.group.text not in groups:
            raise self.err(f"shape {sname}: unknown group {d.group.text!r} (groups: "
                           f"{', '.join(groups) or 'none'})", d.group.at)
        seq = groups[gname] if gname else all_ranks
        if copies < 1:
            raise self.err(f"shape {sname}: copies must be at least 1", d.at)
        if lo < 1:
            raise self.err(f"shape {sname}: a run is at least 1 rank long", d.run_at)
        if hi is not None and lo > hi:
            raise self.err(f"shape {sname}: impossible run bounds {lo}..{hi} (min > max)",
                           d.run_at)
        if (hi or lo) > 1 and gname is None:
            raise self.err(f"shape {sname}: a run longer than 1 rank needs 'in GROUP' "
                           "(the ranks that may form chains)", d.at)
        if lo > len(seq):
            raise self.err(f"shape {sname}: a run of {lo} is longer than group "
                           f"{gname} ({len(seq)} ranks)", d.run_at)
        if hi is not None and hi > len(seq):
            raise self.err(f"shape {sname}: run bound {hi} is longer than group "
                           f"{gname} ({len(seq)} ranks)", d.run_at)
        kind, count, each = None, 0, False
        if d.kicker_kind is not None:
            kind = d.kicker_kind.text
            if kind not in KIND_SIZE:
                raise self.err(f"shape {sname}: unknown kicker kind {kind!r} (kinds: "
                               f"{', '.join(KIND_SIZE)})", d.kicker_kind.at)
            if d.kicker_count is None:
                each = True
            else:
                count = d.kicker_count
                if count < 1:
                    raise self.err(f"shape {sname}: kicker count must be at least 1", d.at)
        shape = Shape(sname, copies, lo, hi if hi is not None else len(seq), gname, seq,
                      kind, count, each)
        # an open run (MIN..) stops at the largest hand (a move never has more cards than a
        # hand); a bound written out must be playable: cutting it silently would hide a mistake
        top = shape.run_max
        while top >= lo and shape.size(top) > max_cards:
            top -= 1
        if top < lo:
            raise self.err(f"shape {sname}: even the shortest run needs {shape.size(lo)} "
                           f"cards, more than the largest hand ({max_cards})", d.at)
        if hi is not None and top < hi:
            raise self.err(f"shape {sname}: a run of {hi} needs {shape.size(hi)} cards, more "
                           f"than the largest hand ({max_cards}); the longest playable run is "
                           f"{top} (write {lo}..{top}, or {lo}.. for 'as long as a hand "
                           "allows')", d.run_at)
        most = max((self.deck_counts[i] for i in seq), default=0)
        if copies > most:
            raise self.err(f"shape {sname}: can never be formed: its body needs {copies} "
                           f"cards of a rank, but the deck holds at most {most} of any "
                           f"rank in {gname or 'the order'}", d.at)
        fit = [i for i in range(len(seq) - lo + 1)
               if all(self.deck_counts[j] >= copies for j in seq[i:i + lo])]
        if not fit:
            raise self.err(f"shape {sname}: can never be formed: no run of {lo} ranks of "
                           f"{gname or 'the order'} has {copies} cards of each rank", d.at)
        return replace(shape, run_max=top)

    def kept(self, what: str, w: _Word) -> bool:
        """Whether the shape name ``w`` of a ``precedence`` or ``double`` clause stays: False
        for a shape dropped by ``without`` in a parent file or by ``--without`` (the clause
        loses the name); an error for one dropped by the clause's own file (a contradiction)."""
        gone = self.raw.dropped.get(w.text)
        if gone is None:
            return True
        if gone.path == w.at.path:
            raise self.err(f"{what} {w.text}: this file drops {w.text} (without at "
                           f"{gone.line}:{gone.column})", w.at)
        return False

    def precedence(self, shapes: tuple[Shape, ...]) -> tuple[Shape, ...]:
        if "precedence" not in self.raw.sections:
            return shapes
        names: tuple[_Word, ...] = self.section("precedence").values()["names"]
        listed: list[str] = []
        for w in names:
            if w.text in listed:
                raise self.err(f"precedence: {w.text} is listed twice", w.at)
            if not self.kept("precedence", w):
                continue
            if w.text not in {s.name for s in shapes}:
                raise self.err(f"precedence: no shape named {w.text!r}", w.at)
            listed.append(w.text)
        tiers = {n: len(listed) - i for i, n in enumerate(listed)}
        return tuple(replace(s, tier=tiers.get(s.name, 0)) for s in shapes)

    def restrictions(self, groups: dict[str, tuple[int, ...]]) -> tuple[Restriction, ...]:
        out = []
        for rname, d in self.raw.restrictions.items():
            self.at(d.at.path)
            if d.on:
                out.append(self.restriction(d, registry.REGISTRY[rname].param, groups))
        return tuple(out)

    def restriction(self, d: _RestrictionDecl, need: registry.Param,
                    groups: dict[str, tuple[int, ...]]) -> Restriction:
        """One switched-on restriction, its parameter checked against its registry entry."""
        rname, pos = d.name, d.at
        if need is registry.Param.COUNT:
            if not d.numbers:
                raise self.err(f"restriction {rname} needs a number ({rname} N)", pos)
            if len(d.numbers) > 1 or d.ranks or d.groups:
                raise self.err(f"restriction {rname} takes one number ({rname} N)", pos)
            param = int(d.numbers[0].text)
            most = max(self.deck_counts)
            if param > most:
                raise self.err(f"restriction {rname} {param}: N is at most {most} (no rank has "
                               f"more than {most} cards; a larger N bars nothing)", pos)
            if param < 1:
                raise self.err(f"restriction {rname} {param}: N must be at least 1 (to allow "
                               "no kicker at all, drop the shapes that carry kickers)", pos)
            return Restriction(rname, param)
        if need is registry.Param.NONE:
            if d.numbers:
                raise self.err(f"restriction {rname} takes no number", pos)
            if d.ranks or d.groups:
                raise self.err(f"restriction {rname} takes no ranks", pos)
            return Restriction(rname)
        ranks: set[int] = set()
        for w in d.numbers:  # digits lex as numbers: 2, 3 … 10 are ranks here
            if w.text not in RANK_OF_SYMBOL:
                raise self.err(f"restriction {rname}: {w.text} is not a rank (ranks: 3-9, 10, "
                               "J, Q, K, A, 2, B, R)", w.at)
            ranks.add(RANK_OF_SYMBOL[w.text].index)
        ranks.update(ra.rank.index for ra in d.ranks)
        for g in d.groups:
            if g.text not in groups:
                raise self.err(f"restriction {rname}: unknown group {g.text!r} (groups: "
                               f"{', '.join(groups) or 'none'})", g.at)
            ranks.update(groups[g.text])
        if not ranks:
            raise self.err(f"restriction {rname} needs ranks or a group ({rname} 2 B R, "
                           f"{rname} group jokers)", pos)
        missing = [ALL_RANKS[i].symbol() for i in sorted(ranks) if not self.deck_counts[i]]
        if missing:
            raise self.err(f"restriction {rname}: {' '.join(missing)} not in the deck", pos)
        return Restriction(rname, ranks=tuple(sorted(ranks)))

    def bidding(self) -> Bidding:
        sec = self.section("bidding")
        b = Bidding(system=sec.head, **sec.values())
        pos = sec.at
        if b.system == "auction":
            if not b.bids or list(b.bids) != sorted(set(b.bids)) or b.bids[0] < 1:
                raise self.err("auction needs 'bids' as increasing positive numbers", pos)
            if b.all_pass_first_bidder is None:
                raise self.err("auction needs 'all_pass redeal first_bidder random|next'", pos)
            if b.ends_at is not None and b.ends_at not in b.bids:
                raise self.err(f"ends_at {b.ends_at} is not one of the bids "
                               f"({' '.join(map(str, b.bids))})", pos)
        elif b.max_robs < 1:
            raise self.err("call_rob needs 'max_robs N' (N ≥ 1)", pos)
        return b

    def trick(self) -> Trick:
        sec = self.section("trick")
        vals = sec.values()
        close, may = vals.get("close_after"), vals.get("leader_may_pass", False)
        if close is None or close < 1:
            raise self.err("trick needs 'close_after N passes' (N ≥ 1)", sec.at)
        players = self.the_deal.players
        if close != players - 1:
            raise self.err(f"close_after {close} passes: with {players} players a trick closes "
                           f"when the {players - 1} other(s) have passed in a row (close_after "
                           f"{players - 1} passes; seeds 000/002)", sec.at)
        if may:
            raise self.err("leader_may_pass yes: the deal could never end (the leader must "
                           "play; seeds 000/002)", sec.at)
        return Trick(close, may)

    def win(self) -> Win:
        sec = self.section("win")
        t: dict[str, int | str] = {}
        for item in sec.settings:
            role, target = item.key, item.value
            if role in t:
                raise self.err(f"target {role} given twice", item.at)
            t[role] = target
            hand = self.the_deal.hand + (self.the_deal.talon if role == "landlord" else 0)
            if isinstance(target, int) and target >= hand:
                raise self.err(f"target {role} {target}: a {role} holds {hand} cards, so the "
                               "deal would be won before it starts", item.at)
        return Win(t.get("landlord", 0), t.get("peasant", 0))

    def scoring(self, shapes: tuple[Shape, ...], bidding: Bidding) -> Scoring:
        sec = self.section("scoring")
        base: int | str = 1
        double: list[str] = []
        settle = "per_peasant"
        names = {s.name for s in shapes}
        for item in sec.settings:
            if item.key == "base":
                base = item.value
                if isinstance(base, int) and base < 1:
                    raise self.err("base must be at least 1 (or 'bid')", item.at)
                if base == "bid" and bidding.system != "auction":
                    raise self.err("base bid needs auction bidding", item.at)
            elif item.key == "double":
                for w in item.value:
                    if w.text in double:
                        raise self.err(f"double {w.text}: listed twice", w.at)
                    if w.text not in DOUBLE_EVENTS and not self.kept("double", w):
                        continue
                    if w.text not in names and w.text not in DOUBLE_EVENTS:
                        raise self.err(f"double {w.text}: neither a shape nor an event "
                                       f"({', '.join(DOUBLE_EVENTS)})", w.at)
                    if w.text == "rob" and bidding.system != "call_rob":
                        raise self.err("double rob needs call_rob bidding", w.at)
                    double.append(w.text)
            else:
                settle = item.value
        return Scoring(base, tuple(double), settle)


# --------------------------------------------------------------------------- loading

_DROP_AT = _At("--without", None, None)


@lru_cache(maxsize=64)
def rules_without(rules: Rules, names: tuple[str, ...]) -> Rules:
    """``rules`` with the shapes ``names`` dropped, through the loader's one mechanism
    (:func:`drop_shape`, as ``without NAME`` in a file): the resolved rules are read back, the
    shapes dropped, and precedence and ``double`` lose their names too, so the result's
    :func:`~ddzspec.rules.model.resolved_text` loads back to it. ``path`` and ``parents`` stay;
    ``without`` records the names (``rules.label``). Raises RulesError naming ``--without``
    for an unknown shape or rules left unplayable (no shape at all)."""
    known = [s.name for s in rules.shapes]
    for n in names:
        if n not in known:
            raise RulesError(f"--without {n}: no such shape (shapes: {', '.join(known)})",
                             rules.name)
    if not names:
        return rules
    raw = _raw_of_text(resolved_text(rules), f"{rules.name}.rules", None, (), resolve=False)
    try:
        for n in dict.fromkeys(names):
            drop_shape(raw, _Drop(n, _DROP_AT))
        built = _Builder(raw).build()
    except RulesError as e:
        raise RulesError(f"--without {', '.join(names)}: {e.message}", rules.name) from None
    return replace(built, path=rules.path, parents=rules.parents,
                   without=tuple(sorted(set(rules.without) | set(names))))


#: Loaded rules by resolved path: (the bytes of every file of the extends chain, the rules).
_CACHE: dict[str, tuple[dict[str, bytes], Rules]] = {}
_CACHE_LOCK = threading.Lock()


def _unchanged(files: dict[str, bytes]) -> bool:
    """Whether every file of a cached chain still holds the bytes it was loaded from."""
    for name, data in files.items():
        try:
            if _read_bytes(Path(name)) != data:
                return False
        except RulesError:
            return False
    return True


#: The rules used where none are named: every command's ``--rules`` default, a position with
#: no ``rules`` line (the CLI and the web table alike), a record of the shared puzzle form.
DEFAULT_RULES = "classic"


def load_rules(name_or_path: str = DEFAULT_RULES, without: Sequence[str] = (),
               base: str | Path | None = None) -> Rules:
    """Load a rules file by built-in name ("classic", "kawu", "duel", "duel-literal") or path,
    optionally dropping shapes (``without=("trio_pair",)``). ``base``: the folder a relative
    path is resolved from (the folder of the file naming it, as for ``extends``: see
    :func:`resolve_path`); None: the working folder.

    Returns frozen :class:`Rules`. Loaded rules are kept in memory and served again only
    while every file of their ``extends`` chain holds the same bytes (an edited parent is seen
    by its child). Raises RulesError with file:line:column.
    """
    p = resolve_path(name_or_path, None if base is None else Path(base))
    key = str(p.resolve())
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None and _unchanged(hit[0]):
        rules = hit[1]
    else:
        raw = _read_raw(p)
        rules = _Builder(raw).build()
        with _CACHE_LOCK:
            _CACHE[key] = (raw.files, rules)
    return rules.without_shapes(tuple(without))


def load_rules_text(text: str, path: str = "<rules>", *, resolve: bool = True) -> Rules:
    """Load rules from a string; errors are located in ``path`` (it is never read). The text
    is parsed as it is, no file written. ``extends`` resolves a built-in name, or a path
    relative to the working folder; ``resolve=False`` (text from a record, a request or
    another machine): the text must stand alone, and an ``extends`` is refused (RulesError
    at it) before any file is touched. Raises RulesError, also for a text over
    :data:`MAX_RULES_BYTES`."""
    return _Builder(_raw_of_text(text, path, None, (), resolve=resolve)).build()
