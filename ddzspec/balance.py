"""Variant balance: many computer deals per rules variant, and figures with 95 % intervals.

Entry point: :func:`balance` (variants, levels per variant, games, seed), a
:class:`BalanceResult` of :class:`VariantFigures` and :class:`VariantDifference` s, drawn by
:func:`plot`. Deal ``k`` is the same shuffle under every variant with the same deck and seats
(duplicate deals), so differences are paired deal by deal; each deal's facts come from its
record (:func:`deal_facts`), the figures (:data:`FIGURES`) are their means with intervals.

The facts, figures and intervals: docs/scaling.md, "Design notes, module by module".
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._io import write_atomic
from .game import GameState
from .players.arena import play_deal
from .players.levels import player_for
from .rules import Rules
from .rules.model import BiddingSystem, BombClass, RoundKind
from .stats import RATE, Estimate, difference, estimate

#: The figures of a variant: name → (label, bounds). Rates lie in 0 … 1.
FIGURES: dict[str, tuple[str, tuple[float, float]]] = {
    "landlord_win_rate": ("landlord win rate", RATE),
    "landlord_points": ("landlord points per deal", (-math.inf, math.inf)),
    "peasant_points": ("peasant points per deal", (-math.inf, math.inf)),
    "spring_rate": ("spring rate", RATE),
    "anti_spring_rate": ("anti-spring rate", RATE),
    "bombs": ("bombs per deal", (0.0, math.inf)),
    "rockets": ("rockets per deal", (0.0, math.inf)),
    "multiplier": ("average multiplier", (1.0, math.inf)),
    "redeals": ("all-pass redeals per deal", (0.0, math.inf)),
    "redeal_rate": ("deals redealt at least once", RATE),
    "length": ("deal length (plays and passes)", (0.0, math.inf)),
}

#: The figures of a variant's robs, rounds and cap (issue 25 §4), shown only for a variant whose
#: deals' facts have them (:func:`deal_facts`: a call-and-rob bidding, a show round, a cap on
#: the multiplier): name → (label, bounds, the fact that must be present). A doubling round's
#: figures are named after its choices (:func:`choice_figure`), after the robs'.
EXTRA_FIGURES: dict[str, tuple[str, tuple[float, float], str]] = {
    "rob_rate": ("deals with a rob", RATE, "robbed"),
    "robs_per_deal": ("robs per deal", (0.0, math.inf), "robbed"),
    "show_rate": ("shown hands (of seat-deals)", RATE, "shows"),
    "cap_rate": ("deals cut by the cap", RATE, "capped"),
    "stake": ("average stake (peasant settles)", (0.0, math.inf), "stake"),
}

#: The figures of a variant with wild cards (issue 26), shown only for such a variant, after
#: the others: the bombs of each class per deal (:class:`~ddzspec.rules.model.BombClass`:
#: soft, hard, pure; ``bombs per deal`` counts them all). Name → (label, bounds); each is
#: the mean of the deals' fact of the same name (:func:`deal_facts`).
WILD_FIGURES: dict[str, tuple[str, tuple[float, float]]] = {
    f"{c.value}_bombs": (f"{c.value} bombs per deal", (0.0, math.inf)) for c in BombClass}

#: Every fixed figure's label and bounds, the extra ones included (a choice's:
#: :func:`figure_label`).
ALL_FIGURES: dict[str, tuple[str, tuple[float, float]]] = {
    **FIGURES, **{k: (label, b) for k, (label, b, _) in EXTRA_FIGURES.items()},
    **WILD_FIGURES}

#: The roles whose choices in a doubling round are counted: the fact of each, and its name.
_ROLES = {"landlord_doubles": "landlord", "peasant_doubles": "peasant"}
_CHOSE = "_chose_"


def choice_figure(role: str, choice: str) -> str:
    """The name of the figure "share of ``role``'s decisions in the doubling rounds that chose
    ``choice``" (a choice above 1 of that role: happy's double and super, hebei's kick for a
    peasant and counter for the landlord).

    >>> choice_figure("peasant", "kick"), figure_label("peasant_chose_kick")
    ('peasant_chose_kick', ('peasant kick (of decisions)', (0.0, 1.0)))
    """
    return f"{role}{_CHOSE}{choice}"


def figure_label(name: str) -> tuple[str, tuple[float, float]]:
    """The label and bounds of figure ``name``: :data:`ALL_FIGURES`, or a choice's
    (:func:`choice_figure`; a rate)."""
    if name in ALL_FIGURES:
        return ALL_FIGURES[name]
    role, choice = name.split(_CHOSE, 1)
    return f"{role} {choice} (of decisions)", RATE

#: The per-deal fact behind each figure.
_FACT = {"landlord_win_rate": "landlord_won", "landlord_points": "landlord_points",
         "peasant_points": "peasant_points", "spring_rate": "spring",
         "anti_spring_rate": "anti_spring", "bombs": "bombs", "rockets": "rockets",
         "multiplier": "multiplier", "redeals": "redeals", "length": "length"}


#: The form of :func:`deal_facts`' rows: a run's output carries it in its header, so that rows
#: written in another form are refused when the run is resumed, never misread (2: a doubling
#: round's decisions counted per choice name; 3: the bombs of each class under wild rules).
FACTS_VERSION = 3


def deal_seed(seed: int, k: int) -> str:
    """The shuffle seed of deal ``k``: the same under every variant (duplicate deals)."""
    return f"balance:{seed}:{k}"


def deal_facts(state: GameState) -> dict[str, Any]:
    """The facts of a finished deal (module doc) as a JSON-able dict: ``landlord_won``,
    ``landlord_points``, ``peasant_points`` (the peasants' mean), ``spring``, ``anti_spring``,
    ``bombs``, ``rockets``, ``multiplier``, ``robs``, ``redeals``, ``length``; ``bid`` (the
    winning bid, the base) under an auction, ``landlord_by`` under call and rob (``caller``:
    the seat that called ended landlord; ``robber``: a robber did; ``no_call``: nobody
    called and the first speaker is landlord, seed 003); and only where the rules have them
    (:data:`EXTRA_FIGURES`): ``robbed`` (a rob in the deal; call-and-rob bidding),
    ``landlord_doubles`` / ``peasant_doubles`` (``{"asked": decisions, "chose": {choice:
    count}}`` of the role, by the deal's final landlord, in the doubling rounds: each choice
    above 1 the rounds give the role, by name, with how many of its decisions chose it; a
    doubling round), ``shows`` (``[seats, seats that showed]`` in any show round,
    before or after the deal; a show round), ``capped`` (the cap cut
    the table's or a pair's multiplier; a cap on the multiplier) and ``stake`` (with any of
    these: the peasants' mean of base × the multiplier each settles at, capped). Only the
    deal's last attempt counts (a redealt one is void). Raises ValueError when the deal is
    not over."""
    from .game.bidding import current_round
    from .game.enums import ActionKind
    from .game.record import record_of, replay
    res = state.result
    if res is None:
        raise ValueError("the deal is not over")
    rules = state.rules
    doubles: dict[bool, dict[str, Any]] = {ll: {"asked": 0, "chose": {
        c.name: 0 for r in rules.rounds if r.kind is RoundKind.DOUBLE
        for c in r.choices_of(ll) if c.times > 1}} for ll in (True, False)}
    showed: set[int] = set()
    caller = None
    bombs = rockets = length = 0
    classes = dict.fromkeys(BombClass, 0)
    rep = replay(record_of(state), rules)
    before = rep.initial
    for step in rep.steps:
        prev, before = before, step.state
        if step.state.attempt != state.attempt:
            continue  # a voided attempt (all-pass)
        kind = step.action.kind
        if kind is ActionKind.DOUBLE:
            rnd = current_round(prev)
            assert rnd is not None
            ll = step.action.seat == res.landlord
            doubles[ll]["asked"] += 1
            for c in rnd.choices_of(ll):
                if c.times == step.action.value and c.times > 1:
                    doubles[ll]["chose"][c.name] += 1
        elif kind is ActionKind.SHOW and step.action.value > 1:
            showed.add(step.action.seat)
        elif kind is ActionKind.CALL and step.action.value and caller is None:
            caller = step.action.seat
        if kind in (ActionKind.PLAY, ActionKind.PASS):
            length += 1
        if kind is ActionKind.PLAY and step.state.last is not None:
            reading = step.state.last[1]
            if reading.tier == state.rules.rocket_tier:
                rockets += 1
            elif reading.tier > 0:
                bombs += 1
            wild = step.state.last_wild
            if wild is not None and wild.bomb_class is not None:
                classes[wild.bomb_class] += 1
    peasants = [p for s, p in enumerate(res.scores) if s != res.landlord]
    facts: dict[str, Any] = {
        "landlord_won": res.winner.value == "landlord",
        "landlord_points": res.scores[res.landlord],
        "peasant_points": sum(peasants) / len(peasants),
        "spring": res.spring, "anti_spring": res.anti_spring, "bombs": bombs,
        "rockets": rockets, "multiplier": res.multiplier,
        "robs": state.robs, "redeals": state.attempt, "length": length}
    extra = False
    if rules.bidding.system is BiddingSystem.AUCTION:
        facts["bid"] = res.base
    else:
        facts["robbed"], extra = state.robs > 0, True
        facts["landlord_by"] = ("no_call" if caller is None else
                                "caller" if caller == res.landlord else "robber")
    if any(r.kind is RoundKind.DOUBLE for r in rules.rounds):
        facts["landlord_doubles"], facts["peasant_doubles"] = doubles[True], doubles[False]
        extra = True
    if any(r.kind is RoundKind.SHOW for r in rules.rounds):
        facts["shows"], extra = [state.players, len(showed)], True
    if rules.scoring.cap_multiplier is not None:
        facts["capped"] = res.uncapped is not None or any(
            p.uncapped is not None for p in res.pairs)
        extra = True
    if rules.wild is not None:
        facts.update({f"{c.value}_bombs": n for c, n in classes.items()})
    if extra:
        own = {p.seat: p.multiplier for p in res.pairs}
        stakes = [res.base * own.get(s, res.multiplier)
                  for s in range(len(res.scores)) if s != res.landlord]
        facts["stake"] = sum(stakes) / len(stakes)
    return facts


def play_balance_deal(rules: Rules, levels: Sequence[int], seed: int, k: int,
                      budget: float | None = None) -> dict[str, Any]:
    """Deal ``k`` of ``seed`` under ``rules``, seat ``s`` played by level ``levels[s]`` (player
    seed ``f"balance:{seed}:{k}:{s}"``, the same under every variant): its
    :func:`deal_facts`."""
    players = [player_for(lv, f"balance:{seed}:{k}:{s}", budget=budget)
               for s, lv in enumerate(levels)]
    return deal_facts(play_deal(rules, players, deal_seed(seed, k)))


#: Deals per task of the command: a deal takes a few hundredths of a second, too little to be
#: worth a round trip to a worker on its own. Fixed (not tied to the number of workers), so
#: that a run resumes whatever runs it.
BLOCK = 10


def deal_task(rules: dict[str, Any], levels: list[int], seed: int, k: int,
              budget: float | None = None, count: int = 1) -> dict[str, Any]:
    """Deals ``k`` … ``k + count − 1`` (:func:`play_balance_deal`) as one task of
    :mod:`ddzspec.execute` (``rules`` as :func:`ddzspec.execute.rules_ref` writes them):
    ``{"first": k, "deals": [facts, ...]}`` in deal order."""
    from .execute import rules_of
    r = rules_of(rules)
    return {"first": k, "deals": [play_balance_deal(r, levels, seed, j, budget)
                                  for j in range(k, k + count)]}


@dataclass(frozen=True, slots=True)
class VariantFigures:
    """One variant's figures: ``rules`` (name), ``levels`` (per seat), ``deals``, ``figures``
    (name → Estimate: the keys of :data:`FIGURES`, then the :data:`EXTRA_FIGURES` and
    :data:`WILD_FIGURES` the deals have), ``bids`` (the winning bid: an auction's), ``robs``
    and ``landlord_by`` (who ended landlord: call and rob's ``caller``, ``robber``,
    ``no_call``): value → share of deals, an Estimate; empty when the bidding has none."""

    rules: str
    levels: tuple[int, ...]
    deals: int
    figures: Mapping[str, Estimate]
    bids: Mapping[int, Estimate]
    robs: Mapping[int, Estimate]
    landlord_by: Mapping[str, Estimate] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "levels", "deals", "figures": {name: estimate}, "bids": {value: estimate},
        "robs": {...}, "landlord_by": {...}}``, each estimate as ``{"n", "mean", "low",
        "high"}``."""
        return {"rules": self.rules, "levels": list(self.levels), "deals": self.deals,
                "figures": {k: e.to_json() for k, e in self.figures.items()},
                "bids": {str(k): e.to_json() for k, e in self.bids.items()},
                "robs": {str(k): e.to_json() for k, e in self.robs.items()},
                "landlord_by": {k: e.to_json() for k, e in self.landlord_by.items()}}


@dataclass(frozen=True, slots=True)
class VariantDifference:
    """Variant ``b`` minus variant ``a``, figure by figure (name → Estimate); ``paired``: deal
    by deal over duplicate deals (same deck and seats), else independent samples."""

    a: str
    b: str
    paired: bool
    figures: Mapping[str, Estimate]

    def to_json(self) -> dict[str, Any]:
        """``{"a", "b", "paired", "figures": {name: {"n", "mean", "low", "high",
        "significant"}}}``."""
        return {"a": self.a, "b": self.b, "paired": self.paired,
                "figures": {k: {**e.to_json(), "significant": e.significant}
                            for k, e in self.figures.items()}}


@dataclass(frozen=True, slots=True)
class BalanceResult:
    """What :func:`summarize` measured: ``variants`` in the order given, ``differences``
    of every later variant against every earlier one; ``games`` per variant, ``seed``."""

    games: int
    seed: int
    variants: tuple[VariantFigures, ...]
    differences: tuple[VariantDifference, ...]

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON-ready data (what the text output shows)."""
        return {"games": self.games, "seed": self.seed,
                "variants": [v.to_json() for v in self.variants],
                "differences": [d.to_json() for d in self.differences]}

    def lines(self) -> list[str]:
        """The figures as text lines."""
        out = []
        for v in self.variants:
            out.append(f"{v.rules}: {v.deals} deals, levels {','.join(map(str, v.levels))},"
                       f" seed {self.seed}")
            for name, e in v.figures.items():
                out.append(f"  {figure_label(name)[0]:<32} {_fmt(name, e)}")
            dists: tuple[tuple[str, Mapping[Any, Estimate]], ...] = (
                ("bid", v.bids), ("landlord (call and rob)", v.landlord_by), ("robs", v.robs))
            for label, dist in dists:
                if len(dist) > 1 or (label != "robs" and dist):
                    out.append(f"  {label:<32} " + "; ".join(
                        f"{k}: {_fmt('rate', e, rate=True)}" for k, e in dist.items()))
        for d in self.differences:
            how = "paired by deal" if d.paired else "independent samples"
            out.append(f"{d.b} - {d.a} ({how}):")
            for name, e in d.figures.items():
                sig = "significant" if e.significant else "not significant"
                out.append(f"  {figure_label(name)[0]:<32} {_fmt(name, e, signed=True)}"
                           f" ({sig})")
        return out


def _fmt(name: str, e: Estimate, rate: bool = False, signed: bool = False) -> str:
    """An estimate as text; rates (``rate`` or a rate figure: :func:`figure_label`) as
    percentages, with a sign when ``signed`` (a difference)."""
    if not (rate or figure_label(name)[1] == RATE):
        return str(e)
    sign = "+" if signed else ""
    if not math.isfinite(e.half):
        return f"{100 * e.mean:{sign}.1f}% [interval unknown: n={e.n}]"
    return f"{100 * e.mean:{sign}.1f}% [{100 * e.low:{sign}.1f}, {100 * e.high:{sign}.1f}]"


def _per_decision(name: str) -> bool:
    """Whether figure ``name`` is counted per decision (a seat's choice in a round), not per
    deal."""
    return name == "show_rate" or _CHOSE in name


def _values(rows: Sequence[Mapping[str, Any]], name: str) -> list[float]:
    """The sample behind figure ``name``: one value per deal, or per decision (a seat's
    choice in a round: :func:`_per_decision`), 1.0 for yes and 0.0 for no.

    >>> rows = [{"peasant_doubles": {"asked": 2, "chose": {"double": 1, "super": 0}}},
    ...         {"peasant_doubles": {"asked": 2, "chose": {"double": 1, "super": 1}}}]
    >>> _values(rows, "peasant_chose_double"), _values(rows, "peasant_chose_super")
    ([1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 1.0, 0.0])
    """
    if name == "redeal_rate":
        return [float(r["redeals"] > 0) for r in rows]
    if name == "show_rate":
        return [float(j < r["shows"][1]) for r in rows for j in range(r["shows"][0])]
    if _CHOSE in name:
        role, choice = name.split(_CHOSE, 1)
        fact = f"{role}_doubles"
        return [float(j < r[fact]["chose"][choice]) for r in rows
                for j in range(r[fact]["asked"])]
    if name == "rob_rate":
        return [float(r["robbed"]) for r in rows]
    if name == "robs_per_deal":
        return [float(r["robs"]) for r in rows]
    if name == "cap_rate":
        return [float(r["capped"]) for r in rows]
    if name == "stake" or name in WILD_FIGURES:
        return [float(r[name]) for r in rows]
    return [float(r[_FACT[name]]) for r in rows]


def _figures_of(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The figures these rows give: :data:`FIGURES`, then the :data:`EXTRA_FIGURES` whose
    fact every row has, a doubling round's choices (:func:`choice_figure`) after the robs',
    then the :data:`WILD_FIGURES` when every row has them (wild rules)."""
    extra = [k for k, (_, _, fact) in EXTRA_FIGURES.items()
             if rows and all(fact in r for r in rows)]
    robs = sum(EXTRA_FIGURES[k][2] == "robbed" for k in extra)
    chosen = [choice_figure(role, c) for fact, role in _ROLES.items()
              if rows and all(fact in r for r in rows) for c in rows[0][fact]["chose"]]
    wild = [k for k in WILD_FIGURES if rows and all(k in r for r in rows)]
    return list(FIGURES) + extra[:robs] + chosen + extra[robs:] + wild


def _shares(rows: Sequence[Mapping[str, Any]], key: str) -> dict[Any, Estimate]:
    """Each value of the fact ``key`` (sorted): its share of the deals; empty when a deal
    lacks the fact (``bid`` under call and rob, ``landlord_by`` under an auction)."""
    if not rows or any(key not in r for r in rows):
        return {}
    values = sorted({r[key] for r in rows})
    return {v: estimate([float(r[key] == v) for r in rows], RATE) for v in values}


def variant_figures(name: str, levels: Sequence[int], rows: Sequence[Mapping[str, Any]]
                    ) -> VariantFigures:
    """The figures of one variant from its deals' facts (:func:`deal_facts` rows)."""
    return VariantFigures(name, tuple(levels), len(rows),
                          {f: estimate(_values(rows, f), figure_label(f)[1])
                           for f in _figures_of(rows)},
                          _shares(rows, "bid"), _shares(rows, "robs"),
                          _shares(rows, "landlord_by"))


def same_deals(a: Rules, b: Rules) -> bool:
    """Whether deal ``k`` is the same shuffle under ``a`` and ``b``: the same deck, seats, hand
    and talon sizes (the shuffle depends on nothing else)."""
    return a.deck == b.deck and a.jokers == b.jokers and a.deal == b.deal


def compare(a: str, rows_a: Sequence[Mapping[str, Any]], b: str,
            rows_b: Sequence[Mapping[str, Any]], paired: bool) -> VariantDifference:
    """``b`` minus ``a`` per figure. ``paired``: the rows are the same deals in the same
    order (duplicate deals), and the difference is the mean of the per-deal differences
    with its interval; else the difference of independent means. Rates' differences lie
    in −1 … 1. An extra figure (:data:`EXTRA_FIGURES`) is compared when both variants have it;
    one counted per decision (a doubling or show rate) is compared as independent samples
    (the decisions are not paired deal by deal)."""
    figs = {}
    have_b = set(_figures_of(rows_b))
    for f in (f for f in _figures_of(rows_a) if f in have_b):
        bounds = figure_label(f)[1]
        db = (-1.0, 1.0) if bounds == RATE else (-math.inf, math.inf)
        va, vb = _values(rows_a, f), _values(rows_b, f)
        if paired and not _per_decision(f):
            figs[f] = estimate([y - x for x, y in zip(va, vb, strict=True)], db)
        else:
            figs[f] = difference(vb, va, db)
    return VariantDifference(a, b, paired, figs)


def summarize(variants: Sequence[Rules], levels: Sequence[Sequence[int]], games: int,
              seed: int, rows: Sequence[Sequence[Mapping[str, Any]]]) -> BalanceResult:
    """The :class:`BalanceResult` from ``rows[i]``, the facts of deals 0 … games−1 of
    ``variants[i]`` played by ``levels[i]`` (one per seat), in deal order."""
    figs = tuple(variant_figures(r.name, lv, rs)
                 for r, lv, rs in zip(variants, levels, rows, strict=True))
    diffs = []
    for i, ra in enumerate(variants):
        for j in range(i + 1, len(variants)):
            rb = variants[j]
            diffs.append(compare(ra.name, rows[i], rb.name, rows[j], same_deals(ra, rb)))
    return BalanceResult(games, seed, figs, tuple(diffs))


def balance(variants: Sequence[Rules], levels: Sequence[Sequence[int]], games: int,
            seed: int = 0, budget: float | None = None) -> BalanceResult:
    """Play ``games`` deals per variant in this process, ``levels[i]`` (one per seat) for
    ``variants[i]`` (the command runs the deals on :mod:`ddzspec.execute`), and summarize
    them. Raises ValueError for a bad ``games``."""
    if games < 1:
        raise ValueError(f"games {games}: at least 1")
    rows = [[play_balance_deal(r, lv, seed, k, budget) for k in range(games)]
            for r, lv in zip(variants, levels, strict=True)]
    return summarize(variants, levels, games, seed, rows)


#: The rates :func:`plot` draws, per variant.
PLOTTED = ("landlord_win_rate", "spring_rate", "anti_spring_rate", "redeal_rate")


def plot(result: BalanceResult, path: str | Path, overwrite: bool = True) -> None:
    """Draw the main rates (:data:`PLOTTED`) per variant, as bars with their 95 % intervals,
    into ``path`` (``.png`` or ``.svg``; matplotlib, the ``ddzspec[plot]`` extra). The file is
    written atomically (:func:`ddzspec._io.write_atomic`: replaced whole or left as it was;
    ``overwrite=False``: an existing file is refused). Raises ValueError for another suffix,
    ImportError without matplotlib, OSError when it cannot be written (FileExistsError)."""
    p = Path(path)
    fmt = p.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise ValueError(f"{p}: the plot is a .png or .svg file")
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    fig, ax = plt.subplots(figsize=(2 + 2.2 * len(PLOTTED), 4))
    width = 0.8 / len(result.variants)
    for i, v in enumerate(result.variants):
        es = [v.figures[f] for f in PLOTTED]
        xs = [j + (i - (len(result.variants) - 1) / 2) * width for j in range(len(PLOTTED))]
        means = [100 * e.mean for e in es]
        errs = [[100 * (e.mean - e.low) if math.isfinite(e.half) else 0 for e in es],
                [100 * (e.high - e.mean) if math.isfinite(e.half) else 0 for e in es]]
        ax.bar(xs, means, width, yerr=errs, capsize=3, label=f"{v.rules} ({v.deals} deals)")
    ax.set_xticks(range(len(PLOTTED)), [FIGURES[f][0] for f in PLOTTED])
    ax.set_ylabel("% of deals (95 % interval)")
    ax.set_title(f"Variant balance, seed {result.seed}")
    ax.legend()
    fig.tight_layout()
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format=fmt)
    finally:
        plt.close(fig)
    write_atomic(p, buf.getvalue(), overwrite=overwrite)


__all__ = ["ALL_FIGURES", "EXTRA_FIGURES", "FIGURES", "WILD_FIGURES", "BalanceResult",
           "VariantDifference", "VariantFigures", "balance", "compare", "deal_facts", "deal_seed",
           "deal_task", "play_balance_deal", "plot", "same_deals", "summarize",
           "variant_figures"]
