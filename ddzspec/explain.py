"""Teaching: why a move reads as it does (seeds 000/002 restrictions 1–4, 004, 003).

:func:`explain` returns the reading, the writer's split when it differs, what the move is *not*
(a higher-tier shape such as the bomb whose body it contains), and every reading that would exist
if restrictions were lifted, each naming the restrictions that rule it out, in plain words.

For a move that matches no shape, :func:`nearest` names the nearest shape and what breaks it
(``JQKA2`` -> "2 is not a chain rank"; ``3456`` -> "a straight needs at least 5
cards"; ``3344`` -> "a pair straight needs at least 3 pairs"; ``333444555777`` -> "the trios
are not consecutive"), generated from the rules file's shape descriptions
(``COPIES x RUN [in GROUP] [+ kickers]``): each broken condition is a :class:`Condition`,
and the nearness measure (:attr:`Diagnosis.score`) is what the move looks like first, then
where and how long its body is, then the fewest cards to add, remove or change.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .cards import ALL_RANKS, N_RANKS, Cards
from .readings import Candidate, Reading, Verdict, candidates, read, solve_readings
from .restrictions import words
from .rules import KIND_SIZE, Rules, Shape, load_rules


@dataclass(frozen=True, slots=True)
class Explanation:
    """``verdict``: the reading(s); ``near_misses``: candidates cut by restrictions;
    ``lines``: the explanation in plain words, one sentence per line;
    ``elsewhere``: (rules name, verdict) for the move under the parent/classic rules when it
    is illegal here."""

    verdict: Verdict
    near_misses: tuple[Candidate, ...]
    lines: tuple[str, ...]
    elsewhere: tuple[tuple[str, Verdict], ...] = ()
    #: for an illegal move: the nearest shapes it has no reading of, and what breaks each
    nearest: tuple[Diagnosis, ...] = ()

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """JSON-ready: ``{"move": canonical cards, "legal": bool, "readings": [{"shape",
        "body", "kickers", "key", "tier", "text"}] (the reading; every reading when ambiguous;
        none when illegal), "lines": [...], "near_misses": [{"reading", "ruled_out_by"}],
        "nearest": [{"shape", "failures": [{"condition", "words"}], "distance", "example",
        "text"}]}``; cards in ``notation``, kickers as units joined by "+"."""
        v = self.verdict
        move = v.reading.format(notation) if v.legal else v.cards.format(notation)
        return {
            "move": move, "legal": v.legal,
            "readings": [{"shape": r.shape, "body": r.body_text(notation),
                          "kickers": "+".join(u.format(notation) for u in r.units()),
                          "key": r.key, "tier": r.tier, "text": r.describe(notation)}
                         for r in v.readings],
            "lines": list(self.lines),
            "near_misses": [{"reading": c.reading.describe(notation),
                             "ruled_out_by": [r.name for r in c.violated]}
                            for c in self.near_misses],
            "nearest": [{"shape": d.shape, "distance": d.distance,
                         "example": None if d.example is None else d.example.format(notation),
                         "failures": [{"condition": f.condition.value, "words": f.words}
                                      for f in d.failures],
                         "text": d.text(notation)} for d in self.nearest],
        }


def _not_higher_tier(reading: Reading, rules: Rules, notation: str) -> list[str]:
    out = []
    counts = reading.cards.counts
    for shape in rules.shapes:
        if shape.tier <= reading.tier or shape.name == reading.shape:
            continue
        contains = any(all(counts[i] >= shape.copies for i in shape.seq[s:s + run])
                       for run in range(shape.run_min, shape.run_max + 1)
                       for s in shape.starts(run))
        if not contains:
            continue
        doubles = ""
        if shape.name in rules.scoring.double and reading.shape not in rules.scoring.double:
            doubles = ", and it does not double the multiplier"
        out.append(f"Not a {shape.name}: a {shape.name} is exactly {shape.describe()} "
                   f"({shape.size(shape.run_min)} cards) with nothing added (restriction 1, "
                   f"seeds 000/002). This move has {reading.size} cards, so it is a "
                   f"{reading.shape}: it beats only a {reading.shape} of {reading.size} cards "
                   f"with a lower body, never another type{doubles}.")
    return out


def _compares_by(r: Reading, rules: Rules, notation: str) -> str:
    """How a legal move compares: by its highest body rank, or under a declared chain order
    by its top's place in the sequence (A2345 the lowest straight, 10JQKA the highest)."""
    shape = rules.shape(r.shape)
    if not shape.chain_order:
        return f"compares by its highest body rank, {rules.order[r.key].symbol(notation)}"
    return (f"compares by its top, {ALL_RANKS[r.body_top].symbol(notation)}, at place "
            f"{r.key + 1} of the chain order {_sequence(shape, notation)}")


def _sequence(shape: Shape, notation: str) -> str:
    """A shape's declared chain order in words: ``A 2 3 4 5 6 7 8 9 10 J Q K A``; a circle
    ends ``, wrapping`` (``3 4 … 2, wrapping``: after 2 comes 3 again)."""
    return (" ".join(ALL_RANKS[i].symbol(notation) for i in shape.ring)
            + (", wrapping" if shape.wraps else ""))


def explain(move: str | Cards, rules: Rules, notation: str = "en") -> Explanation:
    """Explain ``move`` (notation or Cards) under ``rules``. Raises NotationError on a bad
    string."""
    v = read(move, rules, notation)
    counts = v.cards.counts
    near = tuple(c for c in candidates(counts, rules) if c.violated)
    shown = v.cards.format(notation)
    lines: list[str] = []
    elsewhere: list[tuple[str, Verdict]] = []
    if v.legal:
        r = v.reading
        shown = r.format(notation)
        lines.append(f"{shown} under {rules.label}: {r.shape} {r.format(notation, True)} "
                     f"(body {r.format(notation).split('+')[0]}"
                     + (f", kickers {'+'.join(u.format(notation) for u in r.units())}"
                        if r.kickers.counts != (0,) * 15 else "")
                     + f"; {_compares_by(r, rules, notation)}).")
        if v.parsed is not None and len(v.parsed.groups) > 1:
            written = v.parsed.groups[0]
            if written != r.body:
                lines.append(f"You wrote {written.format(notation)} as the body; the split "
                             "does not matter: the reading is derived from the cards alone, "
                             f"and its body is {r.body_text(notation)}.")
        lines.extend(_not_higher_tier(r, rules, notation))
    elif v.ambiguous:
        lines.append(f"{shown} under {rules.label}: AMBIGUOUS, {len(v.readings)} readings — a "
                     "defect of the rules file (every move must have one reading):")
        lines.extend(f"  {x.describe(notation)}" for x in v.readings)
    else:
        lines.append(f"{shown} under {rules.label}: illegal.")
        if not near:
            reason = v.reason or ""
            said = f"It {reason}" if reason.startswith("matches") else \
                reason[:1].upper() + reason[1:]
            lines.append(f"{said}; no restriction is involved.")
    if near:
        lines.append("Readings that would exist if restrictions were lifted:")
        cited: dict[str, str] = {}
        for c in near:
            names = ", ".join(x.name for x in c.violated)
            lines.append(f"  {c.reading.describe(notation)}: ruled out by {names}")
            for x in c.violated:
                cited.setdefault(x.name, words(x))
        lines.append("The restrictions, in plain words:")
        lines.extend(f"  {name}: {text}" for name, text in cited.items())
    elif v.legal:
        lines.append("No other reading would exist even with every restriction lifted.")
    diagnoses: tuple[Diagnosis, ...] = ()
    if not v.legal and not v.ambiguous:
        # with near misses the restrictions explain it; a shape helps only if it looks alike
        diagnoses = nearest(counts, rules, notation, looks_alike=bool(near))
        head = "Nearest shape" if not near else "Nearest shape it has no reading of"
        for d in diagnoses:
            lines.append(f"{head}: {d.text(notation)}.")
    if not v.legal and (rules.name != "classic" or rules.without):
        for other in dict.fromkeys([*rules.parents, "classic"]):
            try:
                ov = read(v.cards, load_rules(other), notation)
            except Exception:
                continue
            elsewhere.append((other, ov))
            if ov.legal:
                lines.append(f"Under {other} it would be {ov.reading.describe(notation)}.")
            break
    return Explanation(v, near, tuple(lines), tuple(elsewhere), diagnoses)


# --------------------------------------------------------------------------- nearest shape

class Condition(enum.Enum):
    """One structural condition of a shape (a rules file's ``COPIES x RUN [in GROUP] [+ kickers]``)
    that a move may break. ``COPIES`` and ``KICKERS`` are the move's *pattern* (cards per rank,
    what is added); ``GROUP``, ``CONSECUTIVE`` and ``RUN`` are *where and how long* its body is."""

    COPIES = "copies"            #: cards per body rank (kicker-less: every rank of the move)
    KICKERS = "kickers"          #: what remains after the body is not the shape's kickers
    GROUP = "group"              #: a body rank outside the shape's group (chain: 3..A)
    CONSECUTIVE = "consecutive"  #: the body's ranks are not consecutive in the group
    RUN = "run"                  #: the body is shorter or longer than the shape allows

    @property
    def of_pattern(self) -> bool:
        """Whether the condition is about the move's pattern (copies, kickers)."""
        return self in (Condition.COPIES, Condition.KICKERS)


@dataclass(frozen=True, slots=True)
class Failure:
    """One broken condition of a shape, in plain words: ``condition`` (:class:`Condition`),
    ``words`` ("2 is not a chain rank (chain: 3..A)") and ``ranks`` (rank indices 0 … 14 the
    words name: the rank outside the group, the missing ranks, the ranks with wrong copies)."""

    condition: Condition
    words: str
    ranks: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Why a move is not a ``shape`` (restrictions lifted): the broken conditions
    (``failures``, at least one) for the best choice of body, and how far the move is from the
    shape: ``distance``, the fewest cards to add, remove or change (a change counts once) to
    reach a move of the shape, ``removed`` the cards that takes away, and ``example`` such a
    move (a legal move of the rules when one is that near, else None)."""

    shape: str
    failures: tuple[Failure, ...]
    distance: int
    removed: int
    example: Cards | None = None

    def text(self, notation: str = "en") -> str:
        """``straight (10JQKA is 1 card away): 2 is not a chain rank (chain: 3..A)``."""
        near = ""
        if self.example is not None:
            n = self.distance
            near = f" ({self.example.format(notation)} is {n} card{'s' if n != 1 else ''} away)"
        return f"{self.shape}{near}: " + "; ".join(f.words for f in self.failures)

    @property
    def score(self) -> tuple[int, int, int, int]:
        """The nearness order, fewer first: broken pattern conditions (copies, kickers: what
        the move looks like), broken body conditions (group, consecutive ranks, length),
        distance, cards removed."""
        pattern = sum(1 for f in self.failures if f.condition.of_pattern)
        return pattern, len(self.failures) - pattern, self.distance, self.removed

    @property
    def looks_alike(self) -> bool:
        """Whether the move has the shape's pattern (no broken copies or kickers condition):
        only its ranks or its length are wrong."""
        return not any(f.condition.of_pattern for f in self.failures)


_UNIT = {1: "card", 2: "pair", 3: "trio", 4: "quad"}


def _unit(copies: int, n: int = 2) -> str:
    """``pair``/``pairs``: the name of ``copies`` cards of one rank, ``n`` of them."""
    word = _UNIT.get(copies, f"{copies}-of-a-kind")
    return word if n == 1 else word + "s"


def _a(name: str) -> str:
    return ("an " if name[:1] in "aeiou" else "a ") + name


def _syms(ranks: Sequence[int], notation: str) -> str:
    return " ".join(ALL_RANKS[i].symbol(notation) for i in ranks)


def _is(ranks: Sequence[int]) -> str:
    return "is" if len(ranks) == 1 else "are"


def _failures(rules: Rules, shape: Shape, counts: Sequence[int], body: Sequence[int],
              notation: str) -> list[Failure]:
    """The conditions of ``shape`` that ``counts`` breaks with ``body`` (rank indices with at
    least ``copies`` cards each, for a shape with kickers; every rank of the move otherwise)."""
    name, c = shape.name.replace("_", " "), shape.copies
    out: list[Failure] = []
    pos = {r: p for p, r in enumerate(shape.ring)}
    if shape.kicker_kind is None:
        bad = [i for i in body if counts[i] != c]
        if bad:
            have = sorted({counts[i] for i in bad})
            verb = "has" if len(bad) == 1 else "have"
            out.append(Failure(Condition.COPIES, f"{_a(name)} has {c} card{'s' if c > 1 else ''} "
                               f"of each rank; {_syms(bad, notation)} {verb} "
                               f"{' or '.join(map(str, have))}", tuple(bad)))
    elif not body:  # no body at all: the copies, and so the kickers, are wrong
        out.append(Failure(Condition.COPIES, f"{_a(name)} needs {c} cards of one rank as its "
                           f"body; no rank here has {c}"))
    outside = [i for i in body if i not in pos]
    if outside:
        group = shape.group or "order"
        span = (_sequence(shape, notation) if shape.chain_order else
                f"{ALL_RANKS[shape.seq[0]].symbol(notation)}.."
                f"{ALL_RANKS[shape.seq[-1]].symbol(notation)}")
        out.append(Failure(Condition.GROUP, f"{_syms(outside, notation)} {_is(outside)} not "
                           f"{'a ' if len(outside) == 1 else ''}{group} rank"
                           f"{'s' if len(outside) > 1 else ''} ({group}: {span})",
                           tuple(outside)))
    inside = sorted(pos[i] for i in body if i in pos)
    if shape.wraps and inside:
        # a circle: the body's places read on from the one after the widest gap between them
        size, n = len(shape.ring), len(inside)
        gaps = [(inside[(k + 1) % n] - inside[k]) % size for k in range(n)]
        first = inside[(max(range(n), key=gaps.__getitem__) + 1) % n]
        inside = sorted(p if p >= first else p + size for p in inside)
    ends = shape.seq[0]
    if inside and len(shape.seq) > 1 and shape.seq[-1] == ends and ends in body:
        # a rank at both ends of a chain order: take the place that keeps the run shortest
        low = sorted(0 if i == ends else pos[i] for i in body if i in pos)
        if low[-1] - low[0] < inside[-1] - inside[0]:
            inside = low
    if shape.run_max > 1 and inside and inside[-1] - inside[0] + 1 != len(inside):
        missing = [shape.seq[p] for p in range(inside[0], inside[-1]) if p not in inside]
        out.append(Failure(Condition.CONSECUTIVE, f"the {_unit(c)} are not consecutive: "
                           f"{_syms(missing, notation)} {_is(missing)} missing", tuple(missing)))
    run = len(body)
    # the length counts the ranks outside the group (named above) or not, whichever fits
    if body and not any(shape.run_min <= x <= shape.run_max for x in (run, len(inside))):
        units = _unit(c)
        if shape.run_max == 1 and shape.kicker_kind:
            text = f"{_a(name)} has one {_unit(c, 1)} as its body (this has {run})"
        elif shape.run_max == 1:
            text = (f"{_a(name)} is one card" if c == 1 else
                    f"{_a(name)} is {c} cards of one rank") + f" (this has {run} ranks)"
        elif run < shape.run_min:
            text = f"{_a(name)} needs at least {shape.run_min} {units} (this has {run})"
        else:
            text = f"{_a(name)} has at most {shape.run_max} {units} (this has {run})"
        if shape.run_min == shape.run_max > 1:
            text = f"{_a(name)} has exactly {shape.run_min} {units} (this has {run})"
        out.append(Failure(Condition.RUN, text))
    if shape.kicker_kind is not None:
        n_units = shape.units(run)
        rem = [x - (c if i in body else 0) for i, x in enumerate(counts)]
        k = KIND_SIZE[shape.kicker_kind]
        odd = [i for i, x in enumerate(rem) if x % k]
        n_have = sum(rem) // k
        if odd or n_have != n_units:
            kind = shape.kicker_kind + ("s" if n_units != 1 else "")
            what = (f"{_a(name)} with {run} {_unit(c, run)}" if shape.kicker_each
                    else f"{_a(name)}")
            if odd:
                tail = (f"{_syms(odd, notation)} "
                        + ("is not a pair" if len(odd) == 1 else "are not pairs"))
            else:
                tail = f"this has {n_have}"
            out.append(Failure(Condition.KICKERS, f"{what} takes {n_units} {kind} as "
                               f"kicker{'s' if n_units != 1 else ''}; "
                               f"{tail}", tuple(odd)))
    return out


def _bodies(shape: Shape, counts: Sequence[int]) -> list[tuple[int, ...]]:
    """The body choices tried for a shape: every rank of the move (kicker-less shapes); for a
    shape with kickers, every run of consecutive ranks of its group with at least ``copies``
    cards each and a length the shape allows, and the set of all ranks with ``copies`` cards
    when it is not a run of the group or no such run exists (so that a rank outside the group,
    a gap or a wrong length is named)."""
    ranks = tuple(i for i, x in enumerate(counts) if x)
    if shape.kicker_kind is None:
        return [ranks]
    heavy = tuple(i for i in ranks if counts[i] >= shape.copies)
    seq = shape.seq
    out = []
    for s in shape.starts(shape.run_min):
        for n in range(shape.run_min, min(len(seq) - s, shape.run_max) + 1):
            if all(counts[i] >= shape.copies for i in seq[s:s + n]):
                out.append(tuple(sorted(seq[s:s + n])))
    pos = sorted(seq.index(i) for i in heavy if i in seq)
    run = len(pos) == len(heavy) and bool(pos) and pos[-1] - pos[0] + 1 == len(pos)
    if not run or not out:
        out.append(heavy)
    return out


def _distance(rules: Rules, shape: Shape, counts: Sequence[int]
              ) -> tuple[int, int, list[Cards]]:
    """The fewest cards to add, remove or change (a change counts once: max of added and
    removed) to turn ``counts`` into a move of ``shape`` (restrictions lifted, the deck's copies
    respected): (distance, cards removed, the nearest moves, one per body)."""
    best: tuple[int, int] | None = None
    found: list[Cards] = []
    k = KIND_SIZE.get(shape.kicker_kind or "", 1)
    order = sorted(range(N_RANKS), key=rules.strength.__getitem__)
    for run in range(shape.run_min, shape.run_max + 1):
        if shape.size(run) > rules.max_cards:
            break
        units = shape.units(run)
        for start in shape.starts(run):
            body = shape.seq[start:start + run]
            target = [0] * N_RANKS
            for i in body:
                target[i] = shape.copies
            if units:
                left = [max(0, x - t) for x, t in zip(counts, target)]
                need = units
                for i in order:  # keep the move's own cards as kickers first
                    while need and left[i] >= k and target[i] + k <= rules.deck[i]:
                        target[i] += k
                        left[i] -= k
                        need -= 1
                if k == 2:  # then complete an odd card into a pair
                    for i in order:
                        if need and left[i] == 1 and target[i] + 2 <= rules.deck[i]:
                            target[i] += 2
                            left[i] -= 1
                            need -= 1
                for i in order:  # then add new cards, ranks not yet played first
                    if need and counts[i] == 0 and i not in body and rules.deck[i] >= k:
                        target[i] += k
                        need -= 1
                for i in order:
                    while need and target[i] + k <= rules.deck[i]:
                        target[i] += k
                        need -= 1
                if need:
                    continue
            added = sum(max(0, t - x) for x, t in zip(counts, target))
            removed = sum(max(0, x - t) for x, t in zip(counts, target))
            key = (max(added, removed), removed)
            if best is None or key < best:
                best, found = key, []
            if key == best:
                found.append(Cards(tuple(target)))
    if best is None:
        return rules.max_cards + 1, 0, []
    return best[0], best[1], found


def diagnose(counts: Sequence[int], rules: Rules, shape: Shape, notation: str = "en",
             example: bool = True) -> Diagnosis:
    """Why ``counts`` (15 per rank) is not a move of ``shape`` even with every restriction
    lifted: the conditions it breaks for the body choice that breaks fewest (pattern
    conditions first, see :attr:`Diagnosis.score`), and its distance to the shape.
    ``example``: look for a legal move that near (a few CSP reads). A move that *is* a
    structural reading of the shape gets no failures (its restrictions are :func:`explain`'s
    business)."""
    options = [_failures(rules, shape, counts, b, notation) for b in _bodies(shape, counts)]
    fails = min(options, key=lambda f: (sum(1 for x in f if x.condition.of_pattern), len(f)))
    dist, removed, near = _distance(rules, shape, counts)
    shown = None
    for t in near[:40] if example else ():
        if len(solve_readings(t.counts, rules)) == 1:
            shown = t
            break
    return Diagnosis(shape.name, tuple(fails), dist, removed, shown)


def nearest(counts: Sequence[int], rules: Rules, notation: str = "en", limit: int = 2,
            looks_alike: bool = False) -> tuple[Diagnosis, ...]:
    """The shapes nearest to an illegal move among those it has no reading of even with every
    restriction lifted, with what breaks each (:func:`diagnose`). Nearest first: the fewest
    broken pattern conditions (copies per rank, kickers: what the move looks like), then the
    fewest broken body conditions (group, consecutive ranks, length), then the fewest cards to
    add, remove or change, then the fewest removed (the cards played are kept). Only the
    shapes tied for nearest are returned, at most ``limit``. ``looks_alike``: only shapes whose
    pattern the move has (only its ranks or its length are wrong). Empty for an empty move,
    one larger than the largest hand, or when the move has a reading of every shape.

    >>> from ddzspec.rules import load_rules
    >>> [d.text() for d in nearest(Cards.parse("JQKA2").counts, load_rules("classic"))]
    ['straight (TJQKA is 1 card away): 2 is not a chain rank (chain: 3..A)']
    """
    n = sum(counts)
    if n == 0 or n > rules.max_cards:
        return ()
    have = {c.reading.shape for c in candidates(counts, rules)}
    found = [diagnose(counts, rules, s, notation, example=False)
             for s in rules.shapes if s.name not in have]
    found = [d for d in found if d.failures and (d.looks_alike or not looks_alike)]
    if not found:
        return ()
    best = min(d.score for d in found)
    return tuple(diagnose(counts, rules, rules.shape(d.shape), notation)
                 for d in found if d.score == best)[:limit]
