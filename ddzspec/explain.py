"""Teaching: why a move reads as it does (seeds 000/002 restrictions 1–4, 004, 003).

:func:`explain` returns the reading, the writer's split when it differs, what the move is *not*
(a higher-tier shape such as the bomb whose body it contains), and every reading that would exist
if restrictions were lifted, each naming the restrictions that rule it out, in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass

from .readings import Candidate, Reading, Verdict, candidates, read
from .restrictions import words
from .rules import Rules, load_rules


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


def _not_higher_tier(reading: Reading, rules: Rules, notation: str) -> list[str]:
    out = []
    counts = reading.cards.counts
    for shape in rules.shapes:
        if shape.tier <= reading.tier or shape.name == reading.shape:
            continue
        contains = any(all(counts[i] >= shape.copies for i in shape.seq[s:s + run])
                       for run in range(shape.run_min, shape.run_max + 1)
                       for s in range(len(shape.seq) - run + 1))
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


def explain(move: str, rules: Rules, notation: str = "en") -> Explanation:
    """Explain ``move`` under ``rules``. Raises NotationError on a bad string."""
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
                     + f"; compares by its highest body rank, "
                     f"{rules.order[r.key].symbol(notation)}).")
        if v.parsed is not None and len(v.parsed.groups) > 1:
            written = v.parsed.groups[0]
            if written != r.body:
                lines.append(f"You wrote {written.format(notation)} as the body; the split "
                             "does not matter: the reading is derived from the cards alone, "
                             f"and its body is {r.body.format(notation)}.")
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
    return Explanation(v, near, tuple(lines), tuple(elsewhere))
