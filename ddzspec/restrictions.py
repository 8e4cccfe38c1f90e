"""The named restrictions: one registry entry each — name, parameter, plain-words wording and
predicate in one place. The loader accepts exactly the names of :data:`REGISTRY` and checks
each parameter against its entry; the CSP (:mod:`ddzspec.readings`), the table compiler
(:mod:`ddzspec.table`) and ``diff`` ask :func:`holds`; ``explain`` prints :func:`words`.

Each predicate sees one *candidate reading* — the restriction as written, the rules, the shape,
the played counts (15 per rank), the body's rank indices and the remainder (the kickers'
counts) — and says whether it holds. A restriction written ``for SHAPE, …`` holds trivially
for any other shape (:func:`holds`).
Seeds: 000/002 (classic: restrictions 1–4), 004 (kawu: distinct kicker ranks), 003 (duel);
``kicker_not_in`` is a house rule ("no jokers and no 2s among kickers").

>>> from ddzspec.rules import Restriction
>>> REGISTRY["kicker_rank_max"].param
<Param.COUNT: 'N'>
>>> words(Restriction("kicker_not_in", ranks=(12, 13, 14)))
'no kicker is a 2, B or R (house rule)'
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import ALL_RANKS

if TYPE_CHECKING:
    from .rules.model import Restriction, Rules, Shape

#: ``predicate(restriction, rules, shape, counts, body, rem) -> bool``.
Predicate = Callable[["Restriction", "Rules", "Shape", Sequence[int], Sequence[int],
                      Sequence[int]], bool]


class Param(enum.Enum):
    """What a restriction takes after its name in a rules file."""

    NONE = ""        #: a switch: ``quad_block``
    COUNT = "N"      #: a number ≥ 1: ``kicker_rank_max 2``
    RANKS = "RANKS"  #: ranks and/or ``group NAME``: ``kicker_not_in 2 group jokers``


@dataclass(frozen=True, slots=True)
class RestrictionKind:
    """One registry entry. ``wording``: plain words for ``explain``, a format string over
    ``{n}`` (the number) and ``{ranks}`` (the ranks, "2, B or R"); ``predicate``: see the
    module doc."""

    name: str
    param: Param
    wording: str
    predicate: Predicate
    #: what the restriction bars: the kickers only (True) or the whole move (False)
    on_kickers: bool = True

    def words(self, r: Restriction) -> str:
        """Plain-words statement of ``r`` (a restriction of this kind)."""
        syms = [ALL_RANKS[i].symbol() for i in r.ranks]
        ranks = ", ".join(syms[:-1]) + " or " + syms[-1] if len(syms) > 1 else "".join(syms)
        text = self.wording.format(n=r.param, ranks=ranks)
        return text + (f", for {', '.join(r.shapes)} only" if r.shapes else "")


def _quad_block(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
                body: Sequence[int], rem: Sequence[int]) -> bool:
    for i, c in enumerate(counts):
        if c >= 4 and (shape.copies != 4 or i not in body):
            return False
    jk = rules.jokers  # both jokers played: both in the body (the rocket)
    return len(jk) < 2 or not all(counts[j] for j in jk) or all(j in body for j in jk)


def _kicker_not_body_rank(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
                          body: Sequence[int], rem: Sequence[int]) -> bool:
    return all(rem[i] == 0 for i in body)


def _kicker_rank_max(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
                     body: Sequence[int], rem: Sequence[int]) -> bool:
    return r.param is not None and max(rem) <= r.param


def _jokers_not_both_kickers(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
                             body: Sequence[int], rem: Sequence[int]) -> bool:
    jk = rules.jokers
    return len(jk) < 2 or sum(1 for j in jk if rem[j]) < len(jk)


def _distinct_kicker_ranks(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
                           body: Sequence[int], rem: Sequence[int]) -> bool:
    unit = 2 if shape.kicker_kind == "pair" else 1
    return all(c <= unit for c in rem)


def _kicker_not_in(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
                   body: Sequence[int], rem: Sequence[int]) -> bool:
    return all(rem[i] == 0 for i in r.ranks)


_ENTRIES = (
    RestrictionKind(
        "quad_block", Param.NONE,
        "four cards of a rank are played only as one whole four-card body, and the two jokers "
        "together only as the rocket (restrictions 1-2, seeds 000/002)", _quad_block,
        on_kickers=False),
    RestrictionKind(
        "kicker_not_body_rank", Param.NONE,
        "a kicker never has the rank of the body (restriction 3, seeds 000/002)",
        _kicker_not_body_rank),
    RestrictionKind(
        "kicker_rank_max", Param.COUNT,
        "no rank appears more than {n} times among the kickers (restriction 4, seeds 000/002)",
        _kicker_rank_max),
    RestrictionKind(
        "jokers_not_both_kickers", Param.NONE,
        "the two jokers are never both kickers (restriction 4, seeds 000/002)",
        _jokers_not_both_kickers),
    RestrictionKind(
        "distinct_kicker_ranks", Param.NONE,
        "the kickers of one move all have different ranks (seed 004, kawu)",
        _distinct_kicker_ranks),
    RestrictionKind(
        "kicker_not_in", Param.RANKS, "no kicker is a {ranks} (house rule)", _kicker_not_in),
)

#: Every restriction the rules language knows, by name, in the order the loader lists them.
REGISTRY: Mapping[str, RestrictionKind] = {k.name: k for k in _ENTRIES}


def words(r: Restriction) -> str:
    """Plain-words statement of a restriction (KeyError for a name not in the registry)."""
    return REGISTRY[r.name].words(r)


def idle_for(r: Restriction, shape: Shape, deck: Sequence[int],
             jokers: Sequence[int]) -> str | None:
    """Why ``r``, bound to ``shape`` by name (``for SHAPE``), could never bar one of its moves
    (None: it could), in words for a loader's error; ``deck``: copies per rank (15 counts),
    ``jokers``: the jokers' rank indices. A restriction on kickers binds nothing for a shape
    without kickers, nor when the shape's kickers cannot break it: ``distinct_kicker_ranks``
    with one kicker unit, ``kicker_rank_max N`` when no rank can reach N + 1 kicker cards,
    ``jokers_not_both_kickers`` when the two jokers can never both be kickers,
    ``kicker_not_in`` when none of its ranks can be a kicker, ``kicker_not_body_rank`` when
    the body leaves no card of its ranks for a kicker; ``quad_block`` for a shape without
    kickers of at most 4 cards a rank (every card is the body's).

    >>> from ddzspec.rules import Restriction, load_rules
    >>> classic = load_rules("classic")
    >>> idle_for(Restriction("kicker_not_in", ranks=(12,)), classic.shape("bomb"),
    ...          classic.deck, classic.jokers)
    'shape bomb has no kicker'
    """
    name = shape.name
    if r.name == "quad_block":
        # without kickers every card is the body's: at most 4 of a rank, in the body; both
        # jokers only in the body (the rocket)
        if shape.kicker_kind is None and shape.copies <= 4:
            return (f"shape {name} has no kicker and {shape.copies} card"
                    f"{'s' if shape.copies > 1 else ''} of each body rank")
        return None
    if not REGISTRY[r.name].on_kickers:
        return None
    if shape.kicker_kind is None:
        return f"shape {name} has no kicker"
    unit = 2 if shape.kicker_kind == "pair" else 1
    units = shape.units(shape.run_max)
    kind = f"{shape.kicker_kind}{'s' if units > 1 else ''}"
    kickable = [i for i, c in enumerate(deck) if c >= unit]
    if r.name == "distinct_kicker_ranks" and units < 2:
        return f"shape {name} carries one kicker unit (its kickers never share a rank)"
    if r.name == "kicker_rank_max":
        most = max(min(units * unit, deck[i] // unit * unit) for i in kickable)
        if most <= (r.param or 0):
            return (f"shape {name}'s kickers ({units} {kind} at most) hold at most {most} "
                    f"card{'s' if most > 1 else ''} of one rank")
    if r.name == "jokers_not_both_kickers" and (
            len(jokers) < 2 or units < len(jokers) or any(j not in kickable for j in jokers)):
        return f"shape {name}'s kickers ({units} {kind} at most) can never hold both jokers"
    if r.name == "kicker_not_in" and not set(r.ranks) & set(kickable):
        return (f"shape {name}'s kickers are {shape.kicker_kind}s and no listed rank has "
                f"{unit} cards")
    if r.name == "kicker_not_body_rank" and all(
            deck[i] - shape.copies < unit for i in set(shape.seq)):
        return (f"shape {name}'s body takes every card of its rank{'s' if shape.group else ''}"
                f" (the deck holds {max(deck[i] for i in shape.seq)})")
    return None


def holds(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
          body: Sequence[int], rem: Sequence[int]) -> bool:
    """Whether restriction ``r`` holds for one candidate reading: ``counts`` the played cards
    (15 per rank), ``body`` the body's rank indices, ``rem`` the kickers' counts. A restriction
    bound to other shapes (``for …``) holds."""
    if r.shapes and shape.name not in r.shapes:
        return True
    return REGISTRY[r.name].predicate(r, rules, shape, counts, body, rem)
