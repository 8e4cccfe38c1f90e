"""Load a rules file (``grammar/rules.lark``) into frozen dataclasses.

A rules file declares one variant: deck, order, rank groups, deal, bidding, shapes, precedence,
restrictions, trick, win and scoring (see ``rules/classic.rules``, which cites seeds 000/002).
``extends NAME`` starts from another file; sections then replace the parent's, except
``shapes``, ``group`` and ``restrictions``, which merge by name (``without NAME`` drops a shape,
``NAME off`` switches a restriction off).

>>> r = load_rules("classic")
>>> [s.name for s in r.shapes][:3], r.max_cards
(['single', 'pair', 'trio'], 20)
>>> load_rules("classic", without=("nope",))
Traceback (most recent call last):
...
ddzspec.errors.RulesError: classic: --without nope: no such shape (shapes: single, pair, trio, trio_single, trio_pair, straight, pair_straight, plane, plane_singles, plane_pairs, four_two_singles, four_two_pairs, bomb, rocket)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from .._resources import data_dir, grammar_text
from ..cards import ALL_RANKS, N_RANKS, Rank
from ..errors import RulesError

#: Restrictions the language knows, with the parameter each takes (None: a switch).
#: Each maps to one constraint in :mod:`ddzspec.readings`.
KNOWN_RESTRICTIONS: dict[str, str | None] = {
    "quad_block": None,
    "kicker_not_body_rank": None,
    "kicker_rank_max": "N",
    "jokers_not_both_kickers": None,
    "distinct_kicker_ranks": None,
}
#: Events that may double the multiplier besides shapes (which are named by shape name).
DOUBLE_EVENTS = ("spring", "anti_spring", "rob")
_RANK_OF_SYMBOL = {"10": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING,
                   "A": Rank.ACE, "2": Rank.TWO, "B": Rank.SMALL_JOKER, "R": Rank.BIG_JOKER,
                   **{str(i): Rank(i) for i in range(3, 10)}}
KIND_SIZE = {"single": 1, "pair": 2}


@dataclass(frozen=True, slots=True)
class Shape:
    """One combination type: a body of ``copies`` cards per rank over a run of consecutive ranks
    of ``seq`` (``run_min`` … ``run_max`` ranks long), plus optional kickers.

    ``kicker_kind``: None, "single" or "pair"; ``kicker_count``: fixed number of kicker units, or
    with ``kicker_each`` one unit per body rank. ``tier``: 0 for ordinary shapes; higher tiers
    (bomb 1, rocket 2 in classic) beat every lower tier. ``seq``: rank indices (0 … 14) in order.
    """

    name: str
    copies: int
    run_min: int
    run_max: int
    group: str | None
    seq: tuple[int, ...]
    kicker_kind: str | None = None
    kicker_count: int = 0
    kicker_each: bool = False
    tier: int = 0

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
        run = str(self.run_min) if self.run_min == self.run_max else f"{self.run_min}..{self.run_max}"
        s = f"{self.copies} x {run}" + (f" in {self.group}" if self.group else "")
        if self.kicker_kind:
            s += f" + {'each' if self.kicker_each else self.kicker_count} {self.kicker_kind}"
        return s


@dataclass(frozen=True, slots=True)
class Restriction:
    """A named restriction switched on in a rules file; ``param`` for ``kicker_rank_max N``."""

    name: str
    param: int | None = None

    def __str__(self) -> str:
        return self.name if self.param is None else f"{self.name} {self.param}"


@dataclass(frozen=True, slots=True)
class Deal:
    """Seats and cards dealt: ``players`` seats of ``hand`` cards, ``talon`` to the landlord,
    ``undealt`` never dealt (duel: 9). ``turn``: "counterclockwise" or "clockwise"."""

    players: int
    hand: int
    talon: int
    undealt: int
    turn: str = "counterclockwise"

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        return [f"players {self.players}", f"hand {self.hand}", f"talon {self.talon}",
                f"undealt {self.undealt}", f"turn {self.turn}"]


@dataclass(frozen=True, slots=True)
class Bidding:
    """``system`` "auction" (bids 1/2/3, one turn each) or "call_rob" (duel).

    ``first_speaker``: "random"; ``all_pass_first_bidder``: after an all-pass redeal, "random"
    (classic) or "next" (kawu). ``max_robs`` and ``no_call_first_speaker_landlord`` for call_rob.
    """

    system: str
    first_speaker: str = "random"
    bids: tuple[int, ...] = ()
    ends_at: int | None = None
    all_pass_first_bidder: str | None = None
    max_robs: int = 0
    no_call_first_speaker_landlord: bool = False

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        out = [self.system, f"first_speaker {self.first_speaker}"]
        if self.system == "auction":
            out.append("bids " + " ".join(map(str, self.bids)))
            if self.ends_at is not None:
                out.append(f"ends_at {self.ends_at}")
            out.append(f"all_pass redeal first_bidder {self.all_pass_first_bidder}")
        else:
            out.append(f"max_robs {self.max_robs}")
            if self.no_call_first_speaker_landlord:
                out.append("no_call landlord first_speaker")
        return out


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
    An int (0: empty hand) or "robs" (the duel handicap = number of robs)."""

    landlord: int | str = 0
    peasant: int | str = 0

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        return [f"target landlord {self.landlord}", f"target peasant {self.peasant}"]


@dataclass(frozen=True, slots=True)
class Scoring:
    """``base``: an int or "bid"; ``double``: shape names and events (spring, anti_spring, rob)
    that double the multiplier; ``settle``: "per_peasant" (each peasant settles base × multiplier
    with the landlord: classic landlord ±2S, each peasant ∓S; duel winner ±S)."""

    base: int | str
    double: tuple[str, ...]
    settle: str = "per_peasant"

    def clauses(self) -> list[str]:
        """The section in rules-language words, one clause each."""
        return [f"base {self.base}", "double " + " ".join(self.double),
                f"settle {self.settle}"]


@dataclass(frozen=True, slots=True)
class Rules:
    """A loaded variant. Build with :func:`load_rules`.

    ``deck``: copies per rank (15 counts, index ``Rank.index``); ``order``: ranks low to high;
    ``strength``: per rank index its position in ``order`` (−1 if not in the deck);
    ``groups``: (name, rank indices) pairs; ``max_cards``: largest hand (hand + talon), the cap
    on a move's size. ``digest``: sha256 of the resolved table-relevant spec (cache key).
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
        ranks = {i for i in range(N_RANKS) if self.deck[i]}
        for s in self.shapes:
            if s.copies == 1 and s.run_min == 1 and s.kicker_kind is None:
                ranks -= set(s.seq)
        return not ranks

    @property
    def label(self) -> str:
        """The name plus any shapes dropped on the fly: ``classic without trio_pair``."""
        return self.name + (f" without {', '.join(self.without)}" if self.without else "")

    @property
    def deck_size(self) -> int:
        """Cards in the deck (classic 54, duel 46)."""
        return sum(self.deck)

    def without_shapes(self, names: Sequence[str]) -> Rules:
        """A copy with the named shapes dropped (puzzles posed under bans: "no trio + pair").
        Raises RulesError for an unknown shape name."""
        known = [s.name for s in self.shapes]
        for n in names:
            if n not in known:
                raise RulesError(f"--without {n}: no such shape (shapes: {', '.join(known)})",
                                 self.name)
        if not names:
            return self
        kept = tuple(s for s in self.shapes if s.name not in names)
        new = replace(self, shapes=kept, without=tuple(sorted(set(self.without) | set(names))))
        return replace(new, digest=_digest(new))

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
    symbol = {r: t for t, r in _RANK_OF_SYMBOL.items()}  # the rules language writes 10

    def ranks(idx: Sequence[int]) -> str:
        return " ".join(symbol[ALL_RANKS[i]] for i in idx)

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
    out += [f"group {g} = {ranks(idx)}" for g, idx in rules.groups]

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
    return "\n".join(out) + "\n"


def _digest(r: Rules) -> str:
    spec = repr((r.deck, r.jokers, r.order, r.shapes, r.restrictions, r.max_cards))
    return hashlib.sha256(spec.encode()).hexdigest()[:20]


# --------------------------------------------------------------------------- parsing

@cache
def _parser() -> Lark:
    return Lark(grammar_text("rules.lark"), parser="lalr", propagate_positions=True, cache=True)


_READABLE = {
    "NAME": "a name", "INT": "a number", "RANK": "a rank (3-9, 10, J, Q, K, A, 2, B, R)",
    "STRING": "a quoted title", "LBRACE": "'{'", "RBRACE": "'}'", "EQUAL": "'='",
    "EACH": "each", "SWITCH": "on or off", "YESNO": "yes or no",
    "PLUS": "'+'", "__ANON_0": "'..'", "DOTDOT": "'..'", "ROLE": "landlord or peasant",
    "BIDDING_SYSTEM": "auction or call_rob", "DIRECTION": "counterclockwise or clockwise",
    "FIRST_BIDDER": "random or next", "SETTLE": "per_peasant", "MORETHAN": "'>'",
    "X": "'x'", "COLON": "':'",
    "$END": "end of file",
}


def _expected(names: set[str]) -> str:
    words = sorted({_READABLE.get(n, n.lower().strip("_").replace("__anon_", "")) for n in names})
    if len(words) > 16:
        words = words[:16] + ["…"]
    return ", ".join(words)


def _parse(text: str, path: str) -> Tree[Any]:
    try:
        return _parser().parse(text)
    except UnexpectedCharacters as e:
        bad = text[e.pos_in_stream] if e.pos_in_stream is not None else "?"
        if bad == '"':
            raise RulesError("unterminated quoted title (close the quote on the same line)",
                             path, e.line, e.column) from None
        raise RulesError(f"unexpected {bad!r}; expected {_expected(set(e.allowed or ()))}",
                         path, e.line, e.column) from None
    except UnexpectedToken as e:
        got = "end of file" if e.token.type == "$END" else repr(str(e.token))
        # the interactive parser knows exactly what this state accepts (LALR lookahead sets
        # of merged states are wider)
        ip = getattr(e, "interactive_parser", None)
        accepted = set(ip.accepts()) if ip is not None else set(e.expected)
        raise RulesError(f"unexpected {got}; expected {_expected(accepted or set(e.expected))}",
                         path, e.line, e.column) from None
    except UnexpectedEOF as e:
        raise RulesError(f"unexpected end of file; expected {_expected(set(e.expected))}",
                         path) from None


@dataclass
class _Pos:
    line: int | None
    column: int | None


def _pos(node: Tree[Any] | Token) -> _Pos:
    if isinstance(node, Token):
        return _Pos(node.line, node.column)
    meta = node.meta
    return _Pos(getattr(meta, "line", None), getattr(meta, "column", None))


@dataclass
class _Raw:
    """Sections of a rules file as written, with positions, before validation."""

    path: str
    name: str = ""
    title: str = ""
    parents: list[str] = field(default_factory=list)
    extends_at: tuple[int | None, int | None] = (None, None)
    sections: dict[str, tuple[Any, _Pos]] = field(default_factory=dict)
    groups: dict[str, tuple[Any, _Pos]] = field(default_factory=dict)
    shapes: dict[str, tuple[Any, _Pos]] = field(default_factory=dict)
    restrictions: dict[str, tuple[Any, _Pos]] = field(default_factory=dict)


def _rank(tok: Tree[Any] | Token) -> tuple[Rank, _Pos]:
    t = tok.children[0] if isinstance(tok, Tree) else tok
    assert isinstance(t, Token)
    return _RANK_OF_SYMBOL[str(t)], _pos(t)


def _ints(children: list[Any]) -> list[int]:
    return [int(c) for c in children if isinstance(c, Token)]


def resolve_path(name_or_path: str, base: Path | None = None) -> Path:
    """Find a rules file. A bare built-in name ("classic", "kawu", "duel", "duel-literal")
    always means the shipped file, whatever lies in the working folder; anything else is a path
    (``.rules`` may be left off), relative to ``base`` when given (an ``extends`` in a file).
    Raises RulesError listing the built-in names when nothing matches."""
    if not name_or_path.strip():
        raise RulesError("empty rules name (give a built-in name or a path)", "<rules>")
    builtin = data_dir("rules") / f"{name_or_path}.rules"
    if "/" not in name_or_path and not name_or_path.endswith(".rules") and builtin.is_file():
        return builtin
    p = Path(name_or_path)
    candidates = [p] if p.suffix == ".rules" else [p, p.parent / (p.name + ".rules")]
    if base is not None and not p.is_absolute():
        candidates = [base / c for c in candidates] + candidates
    for c in candidates:
        if c.is_file():
            return c
    if p.is_dir():
        raise RulesError("is a folder, not a rules file", name_or_path)
    names = ", ".join(builtin_rules())
    raise RulesError(f"no rules file {name_or_path!r} (built in: {names})", name_or_path)


def builtin_rules() -> list[str]:
    """Names of the shipped rules files."""
    return sorted(x.stem for x in data_dir("rules").glob("*.rules"))


def _read_raw(path: Path, seen: tuple[Path, ...] = ()) -> _Raw:
    shown = str(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as e:
        raise RulesError(f"cannot read: {e.strerror}", shown) from None
    except UnicodeDecodeError as e:
        raise RulesError(f"not UTF-8 text (byte {e.start}: {e.object[e.start:e.start + 1]!r})",
                         shown) from None
    tree = _parse(text, shown)
    header = tree.children[0]
    assert isinstance(header, Tree)
    raw = _Raw(path=shown)
    name_tok = header.children[0]
    raw.name = str(name_tok)
    for ch in header.children[1:]:
        if isinstance(ch, Token) and ch.type == "STRING":
            raw.title = str(ch)[1:-1]
        elif isinstance(ch, Tree) and ch.data == "extends":
            tok = ch.children[0]
            target = str(tok).strip('"')
            try:
                parent_path = resolve_path(target, path.parent)
            except RulesError as e:
                raise RulesError(e.message, shown, *_lc(tok)) from None
            chain = seen + (path.resolve(),)
            if parent_path.resolve() in chain:
                names = " -> ".join([p.name for p in chain] + [parent_path.name])
                raise RulesError(f"a cycle of extends: {names}", shown, *_lc(tok))
            parent = _read_raw(parent_path, chain)
            raw.extends_at = _lc(tok)
            raw.parents = [parent.name] + parent.parents
            raw.sections = dict(parent.sections)
            raw.groups = dict(parent.groups)
            raw.shapes = dict(parent.shapes)
            raw.restrictions = dict(parent.restrictions)
            raw.title = raw.title or parent.title
    seen_here: dict[str, str] = {}
    for st in tree.children[1:]:
        assert isinstance(st, Tree)
        kind = st.data
        if kind in ("deck", "order", "deal", "bidding", "precedence", "trick", "win", "scoring"):
            if kind in seen_here:
                raise RulesError(f"section {kind!r} given twice", shown, *_lc(st))
            seen_here[kind] = kind
            raw.sections[kind] = (_mark(st, shown), _pos(st))
        elif kind == "group":
            gname = str(st.children[0])
            if gname in seen_here:
                raise RulesError(f"group {gname!r} declared twice", shown, *_lc(st))
            seen_here[gname] = "group"
            raw.groups[gname] = (_mark(st, shown), _pos(st))
        elif kind == "shapes":
            for item in st.children:
                assert isinstance(item, Tree)
                sname = str(item.children[0])
                if item.data == "shape_without":
                    if sname not in raw.shapes:
                        raise RulesError(f"without {sname}: no such shape", shown, *_lc(item))
                    del raw.shapes[sname]
                    continue
                if ("shape", sname) in seen_here.items() or seen_here.get(sname) == "shape":
                    raise RulesError(f"duplicate shape name {sname!r}", shown, *_lc(item))
                seen_here[sname] = "shape"
                raw.shapes[sname] = (_mark(item, shown), _pos(item))
        elif kind == "without":
            for tok in st.children:
                sname = str(tok)
                if sname not in raw.shapes:
                    raise RulesError(f"without {sname}: no such shape", shown, *_lc(tok))
                del raw.shapes[sname]
        elif kind == "restrictions":
            for item in st.children:
                assert isinstance(item, Tree)
                rname = str(item.children[0])
                if rname not in KNOWN_RESTRICTIONS:
                    raise RulesError(f"unknown restriction {rname!r} (known: "
                                     f"{', '.join(KNOWN_RESTRICTIONS)})", shown, *_lc(item))
                if seen_here.get(f"restriction {rname}"):
                    raise RulesError(f"restriction {rname!r} given twice", shown, *_lc(item))
                seen_here[f"restriction {rname}"] = "restriction"
                raw.restrictions[rname] = (_mark(item, shown), _pos(item))
    return raw


def _mark(tree: Tree[Any], path: str) -> Tree[Any]:
    """Remember the file a section comes from (errors in inherited sections name the parent)."""
    tree.meta.ddz_path = path  # type: ignore[attr-defined]
    return tree


def _lc(node: Tree[Any] | Token) -> tuple[int | None, int | None]:
    p = _pos(node)
    return p.line, p.column


# --------------------------------------------------------------------------- validation

class _Builder:
    def __init__(self, raw: _Raw) -> None:
        self.raw = raw

    def at(self, tree: Tree[Any]) -> None:
        """Errors from now on are located in the file ``tree`` (a section) comes from."""
        self.cur = getattr(tree.meta, "ddz_path", self.raw.path)

    def err(self, msg: str, pos: _Pos | None = None) -> RulesError:
        cur = getattr(self, "cur", self.raw.path)
        line, col = (pos.line, pos.column) if pos else (None, None)
        if cur != self.raw.path:
            # found in a section this file inherits: the conflict comes from this file, so
            # locate it at this file's `extends` and say where the inherited section is
            where = f"{Path(cur).name}:{line}:{col or 1}" if line else Path(cur).name
            return RulesError(f"{msg} (in the section inherited from {where}; this file "
                              "changes what it depends on)", self.raw.path, *self.raw.extends_at)
        return RulesError(msg, cur, line, col)

    def section(self, name: str) -> tuple[Tree[Any], _Pos]:
        if name not in self.raw.sections:
            self.cur = self.raw.path
            raise self.err(f"missing section {name!r}")
        self.at(self.raw.sections[name][0])
        return self.raw.sections[name]

    def build(self) -> Rules:
        deck, jokers = self.deck()
        order, strength = self.order(deck)
        groups = self.groups(order)
        deal = self.deal(deck)
        self.deck_counts, self.the_deal = deck, deal
        max_cards = deal.hand + deal.talon
        shapes = self.shapes(groups, order, max_cards)
        shapes = self.precedence(shapes)
        restrictions = self.restrictions()
        bidding = self.bidding()
        trick = self.trick()
        win = self.win()
        if "robs" in (win.landlord, win.peasant) and bidding.system != "call_rob":
            st, pos = self.section("win")
            raise self.err("a target of 'robs' needs call_rob bidding (only robs make a "
                           "handicap)", pos)
        scoring = self.scoring(shapes, bidding)
        r = Rules(name=self.raw.name, title=self.raw.title or self.raw.name, path=self.raw.path,
                  deck=deck, jokers=jokers, order=order, strength=strength,
                  groups=tuple((k, v) for k, v in groups.items()), deal=deal, bidding=bidding,
                  shapes=shapes, restrictions=restrictions, trick=trick, win=win,
                  scoring=scoring, max_cards=max_cards, parents=tuple(self.raw.parents))
        return replace(r, digest=_digest(r))

    def deck(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        st, pos = self.section("deck")
        counts = [0] * N_RANKS
        copies = None
        ranks: list[tuple[Rank, _Pos]] = []
        jokers: list[tuple[Rank, _Pos]] = []
        remove: list[tuple[Rank, _Pos]] = []
        for item in st.children:
            assert isinstance(item, Tree)
            if item.data == "deck_copies":
                copies = int(str(item.children[0]))
                if not 1 <= copies <= 7:
                    raise self.err("copies must be between 1 and 7", _pos(item))
            elif item.data == "deck_ranks":
                ranks += [_rank(c) for c in item.children]
            elif item.data == "deck_jokers":
                jokers += [_rank(c) for c in item.children]
            elif item.data == "deck_remove":
                remove += [_rank(c) for c in item.children]
        if copies is None:
            raise self.err("deck needs 'copies N'", pos)
        for r, p in ranks:
            if counts[r.index]:
                raise self.err(f"rank {r.symbol()} listed twice in the deck", p)
            counts[r.index] = copies
        for r, p in jokers:
            if counts[r.index]:
                raise self.err(f"joker {r.symbol()} listed twice in the deck", p)
            counts[r.index] = 1
        for r, p in remove:
            if not counts[r.index]:
                raise self.err(f"remove {r.symbol()}: not in the deck", p)
            counts[r.index] = 0
        return tuple(counts), tuple(r.index for r, _ in jokers if counts[r.index])

    def order(self, deck: tuple[int, ...]) -> tuple[tuple[Rank, ...], tuple[int, ...]]:
        st, pos = self.section("order")
        order: list[Rank] = []
        for c in st.children:
            r, p = _rank(c)
            if not deck[r.index]:
                raise self.err(f"rank {r.symbol()} is used in order but is not in the deck", p)
            if r in order:
                raise self.err(f"rank {r.symbol()} appears twice in order", p)
            order.append(r)
        missing = [ALL_RANKS[i].symbol() for i in range(N_RANKS) if deck[i] and
                   ALL_RANKS[i] not in order]
        if missing:
            raise self.err(f"order lacks deck ranks: {' '.join(missing)}", pos)
        strength = [-1] * N_RANKS
        for i, r in enumerate(order):
            strength[r.index] = i
        return tuple(order), tuple(strength)

    def groups(self, order: tuple[Rank, ...]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for gname, (st, pos) in self.raw.groups.items():
            self.at(st)
            body = st.children[1:]
            if len(body) == 1 and isinstance(body[0], Tree) and body[0].data == "rank_range":
                (lo, plo), (hi, phi) = _rank(body[0].children[0]), _rank(body[0].children[1])
                for r, p in ((lo, plo), (hi, phi)):
                    if r not in order:
                        raise self.err(f"group {gname}: rank {r.symbol()} is not in the deck", p)
                a, b = order.index(lo), order.index(hi)
                if a > b:
                    raise self.err(f"group {gname}: {lo.symbol()} .. {hi.symbol()} runs "
                                   "backwards in the order", pos)
                out[gname] = tuple(r.index for r in order[a:b + 1])
            else:
                ranks = []
                for c in body:
                    r, p = _rank(c)
                    if r not in order:
                        raise self.err(f"group {gname}: rank {r.symbol()} is not in the deck", p)
                    ranks.append(r)
                idx = sorted(order.index(r) for r in ranks)
                if idx != list(range(idx[0], idx[0] + len(idx))):
                    raise self.err(f"group {gname}: ranks must be consecutive in the order", pos)
                out[gname] = tuple(order[i].index for i in idx)
        return out

    def deal(self, deck: tuple[int, ...]) -> Deal:
        st, pos = self.section("deal")
        vals: dict[str, Any] = {}
        for item in st.children:
            assert isinstance(item, Tree)
            v = item.children[0]
            vals[item.data[5:]] = str(v) if item.data == "deal_turn" else int(str(v))
        for k in ("players", "hand", "talon"):
            if k not in vals:
                raise self.err(f"deal needs '{k} N'", pos)
        d = Deal(players=vals["players"], hand=vals["hand"], talon=vals["talon"],
                 undealt=vals.get("undealt", 0), turn=vals.get("turn", "counterclockwise"))
        if d.players < 2:
            raise self.err("a deal needs at least 2 players", pos)
        if d.hand < 1:
            raise self.err("hand must be at least 1 card", pos)
        total = d.players * d.hand + d.talon + d.undealt
        if total != sum(deck):
            deck_tree, deck_pos = self.raw.sections["deck"]
            if getattr(deck_tree.meta, "ddz_path", None) == self.raw.path != self.cur:
                self.at(deck_tree)  # the deck changed here, the deal was inherited
                pos = deck_pos
            raise self.err(f"hand sizes do not add up to the deck: {d.players} players x "
                           f"{d.hand} + talon {d.talon} + undealt {d.undealt} = {total}, "
                           f"but the deck has {sum(deck)} cards", pos)
        return d

    def shapes(self, groups: dict[str, tuple[int, ...]], order: tuple[Rank, ...],
               max_cards: int) -> tuple[Shape, ...]:
        if not self.raw.shapes:
            self.cur = self.raw.path
            raise self.err("no shapes declared")
        out = []
        all_ranks = tuple(r.index for r in order)
        for sname, (st, pos) in self.raw.shapes.items():
            self.at(st)
            body = st.children[1]
            kicker = st.children[2] if len(st.children) > 2 else None
            assert isinstance(body, Tree)
            copies = int(str(body.children[0]))
            run = body.children[1]
            assert isinstance(run, Tree)
            lo = int(str(run.children[0]))
            hi: int | None
            if run.data == "run_exact":
                hi = lo
            else:
                hi = int(str(run.children[1])) if len(run.children) > 1 and \
                    run.children[1] is not None else None
            gname = str(body.children[2]) if len(body.children) > 2 and \
                body.children[2] is not None else None
            if gname is not None and gname not in groups:
                raise self.err(f"shape {sname}: unknown group {gname!r} (groups: "
                               f"{', '.join(groups) or 'none'})", _pos(body.children[2]))
            seq = groups[gname] if gname else all_ranks
            if copies < 1:
                raise self.err(f"shape {sname}: copies must be at least 1", pos)
            if lo < 1:
                raise self.err(f"shape {sname}: a run is at least 1 rank long", _pos(run))
            if hi is not None and lo > hi:
                raise self.err(f"shape {sname}: impossible run bounds {lo}..{hi} "
                               "(min > max)", _pos(run))
            if (hi or lo) > 1 and gname is None:
                raise self.err(f"shape {sname}: a run longer than 1 rank needs 'in GROUP' "
                               "(the ranks that may form chains)", pos)
            if lo > len(seq):
                raise self.err(f"shape {sname}: a run of {lo} is longer than group "
                               f"{gname} ({len(seq)} ranks)", _pos(run))
            if hi is not None and hi > len(seq):
                raise self.err(f"shape {sname}: run bound {hi} is longer than group "
                               f"{gname} ({len(seq)} ranks)", _pos(run))
            kind, count, each = None, 0, False
            if kicker is not None:
                assert isinstance(kicker, Tree)
                n, k = kicker.children
                kind = str(k)
                if kind not in KIND_SIZE:
                    raise self.err(f"shape {sname}: unknown kicker kind {kind!r} (kinds: "
                                   f"{', '.join(KIND_SIZE)})", _pos(k))
                if str(n) == "each":
                    each = True
                else:
                    count = int(str(n))
                    if count < 1:
                        raise self.err(f"shape {sname}: kicker count must be at least 1", pos)
            shape = Shape(sname, copies, lo, hi if hi is not None else len(seq), gname, seq,
                          kind, count, each)
            # cap the run by the largest hand (a move never has more cards than a hand)
            top = shape.run_max
            while top >= lo and shape.size(top) > max_cards:
                top -= 1
            if top < lo:
                raise self.err(f"shape {sname}: even the shortest run needs {shape.size(lo)} "
                               f"cards, more than the largest hand ({max_cards})", pos)
            most = max((self.deck_counts[i] for i in seq), default=0)
            if copies > most:
                raise self.err(f"shape {sname}: can never be formed: its body needs {copies} "
                               f"cards of a rank, but the deck holds at most {most} of any "
                               f"rank in {gname or 'the order'}", pos)
            fit = [i for i in range(len(seq) - lo + 1)
                   if all(self.deck_counts[j] >= copies for j in seq[i:i + lo])]
            if not fit:
                raise self.err(f"shape {sname}: can never be formed: no run of {lo} ranks of "
                               f"{gname or 'the order'} has {copies} cards of each rank", pos)
            out.append(replace(shape, run_max=top))
        return tuple(out)

    def precedence(self, shapes: tuple[Shape, ...]) -> tuple[Shape, ...]:
        if "precedence" not in self.raw.sections:
            return shapes
        st, pos = self.raw.sections["precedence"]
        self.at(st)
        names = [t for t in st.children if isinstance(t, Token)]
        tiers: dict[str, int] = {}
        for i, tok in enumerate(names):
            n = str(tok)
            if n not in {s.name for s in shapes}:
                raise self.err(f"precedence: no shape named {n!r}", _pos(tok))
            if n in tiers:
                raise self.err(f"precedence: {n} is listed twice", _pos(tok))
            tiers[n] = len(names) - i
        return tuple(replace(s, tier=tiers.get(s.name, 0)) for s in shapes)

    def restrictions(self) -> tuple[Restriction, ...]:
        out = []
        for rname, (st, pos) in self.raw.restrictions.items():
            self.at(st)
            param = None
            on = True
            for tok in st.children[1:]:
                if isinstance(tok, Token) and tok.type == "INT":
                    param = int(tok)
                elif isinstance(tok, Token) and tok.type == "SWITCH":
                    on = str(tok) == "on"
            need = KNOWN_RESTRICTIONS[rname]
            if on and need and param is None:
                raise self.err(f"restriction {rname} needs a number ({rname} N)", pos)
            if on and not need and param is not None:
                raise self.err(f"restriction {rname} takes no number", pos)
            if on and need and param is not None and param < 1:
                raise self.err(f"restriction {rname} {param}: N must be at least 1 (to allow "
                               "no kicker at all, drop the shapes that carry kickers)", pos)
            if on:
                out.append(Restriction(rname, param))
        return tuple(out)

    def bidding(self) -> Bidding:
        st, pos = self.section("bidding")
        system = str(st.children[0])
        vals: dict[str, Any] = {}
        for item in st.children[1:]:
            assert isinstance(item, Tree)
            if item.data == "bid_values":
                vals["bids"] = tuple(_ints(item.children))
            elif item.data == "bid_ends_at":
                vals["ends_at"] = int(str(item.children[0]))
            elif item.data == "bid_all_pass":
                vals["all_pass_first_bidder"] = str(item.children[0])
            elif item.data == "bid_first_speaker":
                vals["first_speaker"] = str(item.children[0])
            elif item.data == "bid_max_robs":
                vals["max_robs"] = int(str(item.children[0]))
            elif item.data == "bid_no_call":
                vals["no_call_first_speaker_landlord"] = True
        b = Bidding(system=system, **vals)
        if system == "auction":
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
        st, pos = self.section("trick")
        close, may = None, False
        for item in st.children:
            assert isinstance(item, Tree)
            if item.data == "trick_close_after":
                close = int(str(item.children[0]))
            else:
                may = str(item.children[0]) == "yes"
        if close is None or close < 1:
            raise self.err("trick needs 'close_after N passes' (N ≥ 1)", pos)
        players = self.the_deal.players
        if close > players - 1:
            raise self.err(f"close_after {close} passes: with {players} players at most "
                           f"{players - 1} others can pass in a row", pos)
        if may:
            raise self.err("leader_may_pass yes: the deal could never end (the leader must "
                           "play; seeds 000/002)", pos)
        return Trick(close, may)

    def win(self) -> Win:
        st, pos = self.section("win")
        t: dict[str, int | str] = {}
        for item in st.children:
            assert isinstance(item, Tree)
            role, val = str(item.children[0]), item.children[1]
            if role in t:
                raise self.err(f"target {role} given twice", _pos(item))
            target: int | str = str(val) if str(val) == "robs" else int(str(val))
            t[role] = target
            hand = self.the_deal.hand + (self.the_deal.talon if role == "landlord" else 0)
            if isinstance(target, int) and target >= hand:
                raise self.err(f"target {role} {target}: a {role} holds {hand} cards, so the "
                               "deal would be won before it starts", _pos(item))
        return Win(t.get("landlord", 0), t.get("peasant", 0))

    def scoring(self, shapes: tuple[Shape, ...], bidding: Bidding) -> Scoring:
        st, pos = self.section("scoring")
        base: int | str = 1
        double: list[str] = []
        settle = "per_peasant"
        names = {s.name for s in shapes}
        for item in st.children:
            assert isinstance(item, Tree)
            if item.data == "score_base":
                v = str(item.children[0])
                base = v if v == "bid" else int(str(v))
                if isinstance(base, int) and base < 1:
                    raise self.err("base must be at least 1 (or 'bid')", _pos(item))
                if base == "bid" and bidding.system != "auction":
                    raise self.err("base bid needs auction bidding", _pos(item))
            elif item.data == "score_double":
                for tok in item.children:
                    n = str(tok)
                    if n not in names and n not in DOUBLE_EVENTS:
                        raise self.err(f"double {n}: neither a shape nor an event "
                                       f"({', '.join(DOUBLE_EVENTS)})", _pos(tok))
                    if n == "rob" and bidding.system != "call_rob":
                        raise self.err("double rob needs call_rob bidding", _pos(tok))
                    double.append(n)
            else:
                settle = str(item.children[0])
        return Scoring(base, tuple(double), settle)


@cache
def _load_cached(path: str, mtime: float) -> Rules:
    return _Builder(_read_raw(Path(path))).build()


def load_rules(name_or_path: str = "classic", without: Sequence[str] = ()) -> Rules:
    """Load a rules file by built-in name ("classic", "kawu", "duel", "duel-literal") or path,
    optionally dropping shapes (``without=("trio_pair",)``).

    Returns frozen :class:`Rules`. Raises RulesError with file:line:column.
    """
    p = resolve_path(name_or_path)
    rules = _load_cached(str(p), p.stat().st_mtime)
    return rules.without_shapes(tuple(without))


def load_rules_text(text: str, path: str = "<rules>") -> Rules:
    """Load rules from a string (tests, tools); ``extends`` resolves built-in names."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "inline.rules"
        f.write_text(text, encoding="utf-8")
        try:
            return _Builder(_read_raw(f)).build()
        except RulesError as e:
            raise RulesError(e.message, path, e.line, e.column) from None
