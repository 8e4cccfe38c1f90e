"""How two variants differ, move by move: ``ddzspec diff RULES_A RULES_B``.

Entry points: :func:`spec_differences` (the rules sections that differ, in rules-language
words) and :func:`diff_tables` (every multiset whose verdict differs between two compiled move
tables, counted per direction and type, with examples). What counts as a difference:
docs/rules-language.md, "Design notes, module by module".

>>> from ddzspec.rules import load_rules
>>> [d.what for d in spec_differences(load_rules("classic"), load_rules("kawu"))]
['restrictions', 'bidding']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import islice

from .cards import ALL_RANKS, N_RANKS, Cards, pack, parse_cards
from .errors import NotationError
from .readings import Reading
from .restrictions import holds
from .rules import Bidding, Deal, Rules, Scoring, Trick, Win
from .rules.model import ReadingPolicy
from .table import Entry, MoveTable, get_table
from .wildcheck import COLUMNS, WildCounts, WildReport

#: The three directions of a difference, in output order.
DIRECTIONS = ("only_a", "only_b", "changed")
#: Candidates looked at per (direction, type) when picking a few examples of distinct reasons.
SCAN = 1000
#: A verdict signature: the set of (type, packed body) of a multiset's readings; empty: illegal.
Signature = frozenset[tuple[str, int]]


@dataclass(frozen=True, slots=True)
class SpecDifference:
    """One section of the two rules files that differs, in plain words: ``what`` (deck, order,
    group chain, shape straight, restrictions, deal, bidding, trick, win, scoring), ``a`` and
    ``b`` (its statement under each file; "-" when absent)."""

    what: str
    a: str
    b: str


@dataclass(frozen=True, slots=True)
class Difference:
    """One multiset whose verdict differs. ``direction``: "only_a", "only_b" or "changed";
    ``a`` / ``b``: its readings under each file (empty: illegal there; several: ambiguous);
    ``type``: the type label counted in the summary (``four_two_singles``;
    ``plane -> ambiguous(plane/plane_singles)`` for a changed one); ``why``: plain words,
    why the side without a reading has none, or what each side reads."""

    cards: Cards
    direction: str
    type: str
    a: tuple[Reading, ...]
    b: tuple[Reading, ...]
    why: str


@dataclass(frozen=True, slots=True)
class Diff:
    """The result of :func:`diff_rules`. ``counts[direction][type]`` counts every difference
    (also those not listed); ``differences`` lists the examples chosen (all with ``limit=None``),
    grouped by direction then type, each group ordered smallest first (fewest cards, then lowest
    highest card). ``spec``: the sections that differ. ``compared``: multisets looked at (the
    union of both tables, or the moves of a ``--moves`` file)."""

    a: Rules
    b: Rules
    spec: tuple[SpecDifference, ...]
    counts: dict[str, dict[str, int]]
    differences: tuple[Difference, ...]
    compared: int
    #: the wild-card counts side by side, when either file has wild cards (:func:`wild_diff`)
    wild: WildDiff | None = None

    @property
    def total(self) -> dict[str, int]:
        """Differences per direction."""
        return {d: sum(self.counts[d].values()) for d in DIRECTIONS}

    @property
    def identical(self) -> bool:
        """True when no multiset differs."""
        return not any(self.total.values())


# --------------------------------------------------------------------------- wild cards

@dataclass(frozen=True, slots=True)
class WildSide:
    """One file's wild-card counts in a diff: its ``policy`` (None without wild cards), the
    wild restrictions it plays under (``restrictions``, words), the counts per wild rank symbol
    (English) under them and in total (:class:`~ddzspec.wildcheck.WildCounts`), and what the
    policy settles (:meth:`settles`)."""

    policy: ReadingPolicy | None
    restrictions: tuple[str, ...]
    per_rank: dict[str, WildCounts]
    total: WildCounts

    def settles(self) -> dict[str, int]:
        """How the file's policy makes one reading of the moves with several: ``declared``
        (the player states it: every such move), ``highest_body`` (strongest: several
        readings of one type) and ``priority`` (strongest, leading: several types); 0 for
        what the policy does not settle that way; all 0 without wild cards."""
        t = self.total
        several = t.one_type + t.types
        if self.policy is ReadingPolicy.DECLARED:
            return {"declared": several, "highest_body": 0, "priority": 0}
        if self.policy is ReadingPolicy.STRONGEST:
            return {"declared": 0, "highest_body": t.one_type, "priority": t.types}
        return {"declared": 0, "highest_body": 0, "priority": 0}


@dataclass(frozen=True, slots=True)
class WildDiff:
    """The wild-card counts of two files side by side (issue 26), each under its own file's
    wild restrictions: :class:`WildSide` ``a`` and ``b``; :attr:`ranks`: the wild rank
    symbols of either, low to high."""

    a: WildSide
    b: WildSide

    @property
    def ranks(self) -> tuple[str, ...]:
        """The wild rank symbols of either file, in rank order."""
        order = {r.symbol(): i for i, r in enumerate(ALL_RANKS)}
        return tuple(sorted({*self.a.per_rank, *self.b.per_rank}, key=order.__getitem__))

    def rows(self) -> list[tuple[str, WildCounts, WildCounts]]:
        """(wild rank symbol or ``total``, the counts under a, under b); a rank one file cannot
        draw counts zero there."""
        none = WildCounts()
        return [(r, self.a.per_rank.get(r, none), self.b.per_rank.get(r, none))
                for r in self.ranks] + [("total", self.a.total, self.b.total)]

    @property
    def same(self) -> bool:
        """True when both files count alike and their policies settle alike."""
        return all(x == y for _, x, y in self.rows()) and self.a.settles() == self.b.settles()


def wild_side(report: WildReport | None) -> WildSide:
    """The :class:`WildSide` of a wild report (:func:`ddzspec.wildcheck.wild_report`), under
    the file's own wild restrictions (``"file"``, else none); an empty side for None (a file
    without wild cards)."""
    if report is None:
        return WildSide(None, (), {}, WildCounts())
    variant = "file" if "file" in report.per_rank else "none"
    wild = report.rules.wild
    assert wild is not None
    return WildSide(wild.policy, tuple(map(str, report.restrictions[variant])),
                    {ALL_RANKS[r].symbol(): c for r, c in report.per_rank[variant].items()},
                    report.total(variant))


def wild_diff(a: WildReport | None, b: WildReport | None) -> WildDiff:
    """Two files' wild counts side by side (:class:`WildDiff`): per wild rank and in total,
    the playable wild moves, those with one reading, several of one type, of several types,
    on both sides of the bomb line, the largest choice set, and what each policy settles."""
    return WildDiff(wild_side(a), wild_side(b))


def _wild_json(w: WildDiff) -> dict[str, object]:
    def side(x: WildSide) -> dict[str, object]:
        return {"policy": None if x.policy is None else x.policy.value,
                "restrictions": list(x.restrictions), "settles": x.settles(),
                "total": x.total.to_json(),
                "per_rank": {r: c.to_json() for r, c in x.per_rank.items()}}
    return {"a": side(w.a), "b": side(w.b), "same": w.same}


def _wild_lines(w: WildDiff, a: str, b: str) -> list[str]:
    """The wild counts of both files in plain text: a row per wild rank and the total where
    they differ (``a -> b`` for each count that differs), then what each policy settles."""
    lines = [f"Wild moves (each under its file's wild restrictions: {a}: "
             f"{', '.join(w.a.restrictions) or 'none'}; {b}: "
             f"{', '.join(w.b.restrictions) or 'none'}):"]
    differing = [(r, x, y) for r, x, y in w.rows() if x != y]
    if not differing:
        lines.append("  the same counts for every wild rank")
    for r, x, y in differing:
        jx, jy = x.to_json(), y.to_json()
        parts = [f"{head} {jx[k]} -> {jy[k]}" for k, head in COLUMNS if jx[k] != jy[k]]
        lines.append(f"  {r:<5} " + "; ".join(parts))
    lines.append(f"  {w.a.total.playable} playable wild moves in {a}, "
                 f"{w.b.total.playable} in {b}")
    for name, side in ((a, w.a), (b, w.b)):
        s = side.settles()
        if side.policy is ReadingPolicy.DECLARED:
            lines.append(f"  {name}: reading declared: the player states the reading of "
                         f"{s['declared']} moves (largest choice set {side.total.largest})")
        elif side.policy is ReadingPolicy.STRONGEST:
            lines.append(f"  {name}: reading strongest: the highest body settles "
                         f"{s['highest_body']} moves, the type priority {s['priority']} "
                         f"({side.total.bomb_line} on both sides of the bomb line)")
        else:
            lines.append(f"  {name}: no wild cards")
    return lines


# --------------------------------------------------------------------------- signatures

class _Sig:
    """Signatures and readings of one table's multisets, memoising the packed body per entry."""

    def __init__(self, table: MoveTable) -> None:
        self.table = table
        self.rules = table.rules
        self._body: dict[Entry, tuple[str, int]] = {}

    def _entry_sig(self, entry: Entry) -> tuple[str, int]:
        got = self._body.get(entry)
        if got is None:
            s, start, run = entry
            shape = self.rules.shapes[s]
            counts = [0] * N_RANKS
            for i in shape.seq[start:start + run]:
                counts[i] = shape.copies
            got = self._body[entry] = (shape.name, pack(counts))
        return got

    def entries(self, key: int) -> tuple[Entry, ...]:
        e = self.table.entries.get(key)
        if e is not None:
            return (e,)
        return self.table.ambiguous.get(key, ())

    def signature(self, key: int) -> Signature:
        return frozenset(self._entry_sig(e) for e in self.entries(key))

    def readings(self, key: int) -> tuple[Reading, ...]:
        return tuple(self.table.reading_of(key, e) for e in self.entries(key))

    def keys(self) -> Iterable[int]:
        yield from self.table.entries
        yield from self.table.ambiguous


def type_label(readings: Sequence[Reading] | Signature) -> str:
    """``plane`` for one reading, ``ambiguous(plane/plane_singles)`` for several, ``illegal``
    for none. Takes readings or a signature (set of (type, packed body))."""
    names = [r[0] if isinstance(r, tuple) else r.shape for r in readings]
    if not names:
        return "illegal"
    if len(names) == 1:
        return names[0]
    return "ambiguous(" + "/".join(sorted(set(names))) + ")"


def _order_key(cards: Cards) -> tuple[int, tuple[int, ...]]:
    """Smallest first: fewest cards, then the multiset with the lowest highest card (colex)."""
    desc = tuple(i for i in range(N_RANKS - 1, -1, -1) for _ in range(cards.counts[i]))
    return len(cards), desc


# --------------------------------------------------------------------------- why

def why_not(reading: Reading, rules: Rules, notation: str = "en") -> str:
    """Why the multiset of ``reading`` (legal under another file) has no such reading under
    ``rules``: ranks its deck lacks, more cards than its largest hand, no shape of that name, a
    shape of that name with other bounds (chain ranks, run length, kickers), or the restrictions
    that rule it out. Several reasons are joined with "; ". Pure table arithmetic, no CSP."""
    def sym(i: int) -> str:
        return ALL_RANKS[i].symbol(notation)

    counts = reading.cards.counts
    reasons = []
    missing = [i for i in range(N_RANKS) if counts[i] and not rules.deck[i]]
    if missing:
        reasons.append(f"{rules.name}'s deck has no {' '.join(sym(i) for i in missing)}")
    over = [i for i in range(N_RANKS) if rules.deck[i] and counts[i] > rules.deck[i]]
    if over:
        reasons.append(f"{rules.name}'s deck holds fewer "
                       f"{' '.join(sym(i) for i in over)}")
    if reading.size > rules.max_cards:
        reasons.append(f"{reading.size} cards: more than {rules.name}'s largest hand "
                       f"({rules.max_cards})")
    try:
        shape = rules.shape(reading.shape)
    except KeyError:
        reasons.append(f"{rules.name} has no shape {reading.shape}")
        return "; ".join(reasons)
    body = [i for i in range(N_RANKS) if reading.body.counts[i]]
    fits = not missing
    outside = [i for i in body if rules.deck[i] and i not in shape.seq]
    if outside:
        where = f"group {shape.group} ({_span(shape.ring)})" if shape.group else "its order"
        reasons.append(f"{' '.join(sym(i) for i in outside)} not in {rules.name}'s {where}")
        fits = False
    elif all(i in shape.seq for i in body):
        # consecutive: the ranks of one chain of the shape (a chain order may wrap, or
        # hold a rank at both ends)
        n = len(body)
        if not any(set(shape.seq[s:s + n]) == set(body) for s in shape.starts(n)):
            reasons.append(f"{_ranks(body)}: not consecutive in {rules.name}'s "
                           f"{'group ' + shape.group if shape.group else 'order'}")
            fits = False
    if not shape.run_min <= reading.run <= shape.run_max:
        reasons.append(f"{rules.name}'s {shape.name} body is {shape.run_min}.."
                       f"{shape.run_max} ranks long, not {reading.run}")
        fits = False
    if shape.kicker_kind != reading.kicker_kind or \
            shape.size(reading.run) != reading.size or \
            any(reading.body.counts[i] != shape.copies for i in body):
        reasons.append(f"{rules.name}'s {shape.name} is {shape.describe()}")
        fits = False
    if fits and not over:
        rem = reading.kickers.counts
        bad = [r for r in rules.restrictions
               if not holds(r, rules, shape, counts, body, rem)]
        if bad:
            reasons.append(f"ruled out by {', '.join(str(r.name) for r in bad)} in {rules.name}")
    if not reasons:
        reasons.append(f"no reading under {rules.name}")
    return "; ".join(reasons)


def _describe(readings: Sequence[Reading], notation: str) -> str:
    if not readings:
        return "illegal"
    return " | ".join(r.describe(notation) for r in readings)


def _difference(key: int, direction: str, ra: tuple[Reading, ...], rb: tuple[Reading, ...],
                a: Rules, b: Rules, notation: str) -> Difference:
    cards = Cards.from_key(key)
    if direction == "only_a":
        label = type_label(ra)
        why = why_not(ra[0], b, notation)
    elif direction == "only_b":
        label = type_label(rb)
        why = why_not(rb[0], a, notation)
    else:
        label = f"{type_label(ra)} -> {type_label(rb)}"
        why = f"{a.name}: {_describe(ra, notation)}; {b.name}: {_describe(rb, notation)}"
    return Difference(cards, direction, label, ra, rb, why)


# --------------------------------------------------------------------------- spec

def _ranks(idx: Iterable[int]) -> str:
    return " ".join(ALL_RANKS[i].symbol() for i in idx)


def _span(seq: Sequence[int]) -> str:
    return f"{ALL_RANKS[seq[0]].symbol()}..{ALL_RANKS[seq[-1]].symbol()}" if seq else "empty"


def _deck_words(r: Rules) -> str:
    removed = [i for i in range(N_RANKS) if not r.deck[i] and i not in (13, 14)]
    s = f"{r.deck_size} cards: {_ranks(i for i in range(N_RANKS) if r.deck[i])}"
    return s + (f" (no {_ranks(removed)})" if removed else "")


def spec_differences(a: Rules, b: Rules) -> tuple[SpecDifference, ...]:
    """The sections of two loaded rules files that differ, each stated in plain words: deck,
    order, groups, each shape, restrictions, deal, bidding, trick, win, scoring, each round,
    the wild cards.
    Order: as in a rules file."""
    out: list[SpecDifference] = []

    def add(what: str, x: str, y: str) -> None:
        if x != y:
            out.append(SpecDifference(what, x, y))

    add("deck", _deck_words(a), _deck_words(b))
    add("order", _ranks(r.index for r in a.order), _ranks(r.index for r in b.order))
    ga, gb = dict(a.groups), dict(b.groups)

    def group(r: Rules, g: str, idx: dict[str, tuple[int, ...]]) -> str:
        if g not in idx:
            return "-"
        return (("chain order " if g in r.sequences else "") + _ranks(idx[g])
                + (", wrapping" if g in r.wrapping else ""))

    for g in dict.fromkeys([*ga, *gb]):
        add(f"group {g}", group(a, g, ga), group(b, g, gb))
    sa, sb = {s.name: s for s in a.shapes}, {s.name: s for s in b.shapes}
    for n in dict.fromkeys([*sa, *sb]):
        add(f"shape {n}", sa[n].describe() if n in sa else "-",
            sb[n].describe() if n in sb else "-")
    ra, rb = [str(r) for r in a.restrictions], [str(r) for r in b.restrictions]
    add("restrictions", ", ".join(r for r in ra if r not in rb) or "-",
        ", ".join(r for r in rb if r not in ra) or "-")
    for what in ("deal", "bidding", "trick", "win", "scoring"):
        add(what, *_fields(getattr(a, what), getattr(b, what)))
    rda, rdb = _rounds_by_kind(a), _rounds_by_kind(b)
    for kind in dict.fromkeys([*rda, *rdb]):
        add(f"round {kind}", rda.get(kind, "-"), rdb.get(kind, "-"))
    wa, wb = ([c for c in w.clauses() if c not in (o.clauses() if o else [])] if w else ["-"]
              for w, o in ((a.wild, b.wild), (b.wild, a.wild)))
    add("wild", ", ".join(wa) or "-", ", ".join(wb) or "-")
    return tuple(out)


def _rounds_by_kind(r: Rules) -> dict[str, str]:
    """Each kind of round of ``r``: its clauses, one round after another (``; ``) when the
    kind is played at several stages, in stage order."""
    out: dict[str, list[str]] = {}
    for rnd in r.rounds:
        out.setdefault(rnd.kind, []).append(", ".join(rnd.clauses()[1:]))
    return {k: "; ".join(v) for k, v in out.items()}


def _fields(x: Deal | Bidding | Trick | Win | Scoring,
            y: Deal | Bidding | Trick | Win | Scoring) -> tuple[str, str]:
    """The clauses (rules-language words) of two sections that differ, on each side."""
    cx, cy = x.clauses(), y.clauses()
    if cx[:1] != cy[:1] and isinstance(x, Bidding):  # another bidding system: all of it
        return ", ".join(cx), ", ".join(cy)
    return (", ".join(c for c in cx if c not in cy) or "-",
            ", ".join(c for c in cy if c not in cx) or "-")


# --------------------------------------------------------------------------- diff

def diff_tables(ta: MoveTable, tb: MoveTable, keys: Iterable[int] | None = None,
                limit: int | None = 5, notation: str = "en") -> Diff:
    """Compare two compiled move tables.

    ``keys``: packed multisets to compare (default: every multiset either table knows);
    ``limit``: examples kept per (direction, type), None for all. Counts always cover every
    difference. Runs in table time: one dict lookup per multiset and side; readings and
    reasons are built only for the examples kept.
    """
    a, b = ta.rules, tb.rules
    sa, sb = _Sig(ta), _Sig(tb)
    if keys is None:
        keys = dict.fromkeys([*sa.keys(), *sb.keys()])
    found: dict[tuple[str, str], list[int]] = {}
    counts: dict[str, Counter[str]] = {d: Counter() for d in DIRECTIONS}
    compared = 0
    for key in keys:
        compared += 1
        ga, gb = sa.signature(key), sb.signature(key)
        if ga == gb:
            continue
        direction = "only_a" if not gb else "only_b" if not ga else "changed"
        label = (type_label(ga) if direction == "only_a" else type_label(gb)
                 if direction == "only_b" else f"{type_label(ga)} -> {type_label(gb)}")
        counts[direction][label] += 1
        found.setdefault((direction, label), []).append(key)
    examples: list[Difference] = []
    for direction in DIRECTIONS:
        for label in sorted(counts[direction], key=lambda t: (-counts[direction][t], t)):
            group = sorted(found[(direction, label)], key=lambda k: _order_key(Cards.from_key(k)))
            made = (_difference(k, direction, sa.readings(k), sb.readings(k), a, b, notation)
                    for k in group)
            examples.extend(made if limit is None else _pick(made, limit))
    ordered = {d: dict(sorted(counts[d].items(), key=lambda kv: (-kv[1], kv[0])))
               for d in DIRECTIONS}
    return Diff(a, b, spec_differences(a, b), ordered, tuple(examples), compared)


def _pick(diffs: Iterable[Difference], limit: int) -> list[Difference]:
    """``limit`` examples from ``diffs`` (smallest first): every distinct reason once before
    any reason twice, so that e.g. classic vs duel shows the straights too long for duel's
    chain next to those with a 3. Looks at the first ``SCAN`` candidates at most (speed).
    Kept in the given order."""
    if limit <= 0:
        return []
    chosen: list[tuple[int, Difference]] = []
    spare: list[tuple[int, Difference]] = []
    seen: set[str] = set()
    for n, d in enumerate(islice(diffs, SCAN)):
        reason = d.why if d.direction != "changed" else d.type
        if reason not in seen:
            seen.add(reason)
            chosen.append((n, d))
            if len(chosen) == limit:
                break
        elif len(spare) < limit:
            spare.append((n, d))
    chosen += spare[:limit - len(chosen)]
    return [d for _, d in sorted(chosen, key=lambda x: x[0])]


def diff_rules(a: Rules, b: Rules, limit: int | None = 5,
               moves: Sequence[Cards] | None = None, notation: str = "en") -> Diff:
    """Diff two loaded rules files over every legal multiset (or only ``moves``), using their
    compiled tables (compiled and cached on first use, see :func:`ddzspec.table.get_table`).
    ``limit`` examples per (direction, type); None keeps every difference."""
    keys = None if moves is None else dict.fromkeys(c.key for c in moves)
    return diff_tables(get_table(a), get_table(b), keys, limit, notation)


def read_moves_file(text: str, path: str = "<moves>", notation: str = "en",
                    deck: Sequence[int] | None = None) -> list[Cards]:
    """The moves of a ``--moves`` file: one move per line in ``notation``; blank lines and
    ``#`` comments are skipped. ``deck``: copies per rank a move may hold (for a diff, the larger
    of the two decks, so that a move legal under one variant only is accepted); default the
    54-card deck. Raises NotationError located as ``path:line:column`` (unknown symbol, more
    copies than the deck holds, a wild card ``*``: a diff compares natural readings)."""
    if deck is None:
        deck = (4,) * 13 + (1, 1)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if not body:
            continue
        try:
            out.append(parse_cards(body, notation, deck=deck).cards)
        except NotationError as e:
            col = (e.column or 1) + line.index(body)
            why = e.message
            if e.offending == "*":  # a wild card: diff names no wild rank (issue 26)
                why = ("'*' is a wild card, but diff compares the moves' natural readings (it "
                       "names no wild rank): write each card as held, e.g. 4777; for the "
                       "readings with wild cards, read MOVE --rules FILE --wild RANK")
            raise NotationError(f"{path}:{n}:{col}: {why}", body) from None
    return out


def diff_json(d: Diff, notation: str = "en") -> dict[str, object]:
    """The JSON document of ``ddzspec diff --json``: ``a``, ``b`` (rules names), ``spec``
    (sections that differ), ``compared``, ``total`` and ``counts`` (per direction, per type),
    ``differences`` (cards, direction, type, a and b readings as lists of strings, why);
    ``wild`` when either file has wild cards: for ``a`` and ``b`` the policy, restrictions,
    ``settles`` (:meth:`WildSide.settles`), ``total`` and ``per_rank`` counts, and ``same``."""
    return {
        "a": d.a.name, "b": d.b.name,
        "spec": [{"what": s.what, "a": s.a, "b": s.b} for s in d.spec],
        "compared": d.compared,
        "total": d.total,
        "counts": d.counts,
        "differences": [{"cards": x.cards.format(notation), "direction": x.direction,
                         "type": x.type, "a": [r.describe(notation) for r in x.a],
                         "b": [r.describe(notation) for r in x.b], "why": x.why}
                        for x in d.differences],
        **({"wild": _wild_json(d.wild)} if d.wild is not None else {}),
    }


def diff_lines(d: Diff, notation: str = "en", shown_all: bool = False) -> list[str]:
    """Plain-text report: the sections that differ, counts per direction and type, then the
    examples (a few per type unless ``shown_all``)."""
    a, b = d.a.label, d.b.label
    if a == b and d.a.path != d.b.path:
        a, b = d.a.path, d.b.path
    head = {"only_a": f"readings only in {a}", "only_b": f"readings only in {b}",
            "changed": f"read differently ({a} -> {b})"}
    lines = [f"diff {a} {b}: {d.compared} multiset{'' if d.compared == 1 else 's'} compared"]
    if d.spec:
        lines.append("Rules that differ:")
        w = max(len(s.what) for s in d.spec)
        for s in d.spec:
            lines.append(f"  {s.what:<{w}}  {a}: {s.a}")
            lines.append(f"  {'':<{w}}  {b}: {s.b}")
    if d.wild is not None:
        lines += _wild_lines(d.wild, a, b)
    if d.identical:
        lines.append("No multiset differs: every move has the same verdict and reading"
                     + (" (without wild cards)." if d.wild is not None else "."))
        return lines
    for direction in DIRECTIONS:
        c = d.counts[direction]
        if not c:
            continue
        lines.append(f"{head[direction]}: {sum(c.values())}")
        w = max(len(t) for t in c)
        for t, n in c.items():
            lines.append(f"  {t:<{w}}  {n:>6}")
    if not d.differences:
        return lines
    lines.append("Examples" + ("" if shown_all else " (a few per type; --all lists every one)")
                 + ":")
    last = None
    for x in d.differences:
        if (x.direction, x.type) != last:
            last = (x.direction, x.type)
            lines.append(f"  {head[x.direction]}, {x.type}:")
        if x.direction == "changed":
            lines.append(f"    {x.cards.format(notation)}: {x.why}")
        else:
            lines.append(f"    {_describe(x.a or x.b, notation)}  ({x.why})")
    return lines
