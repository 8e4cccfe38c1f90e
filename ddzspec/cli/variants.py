"""The Variants topic of the ``ddzspec`` command line: ``check`` (a rules file, move by
move), ``diff RULES_A RULES_B``, ``balance`` (variant balance from computer deals, on
:mod:`ddzspec.execute`) and ``rules show`` / ``rules overview``; loaded by
:mod:`ddzspec.cli.group` when first called.

``diff`` follows diff(1): 0 when nothing differs, 1 when a multiset or a rules section does,
2 on bad input (a rules file that does not load, an unknown shape for ``--without``, a bad
line in a ``--moves`` file), never a traceback. ``rules show`` prints a rules file resolved
after ``extends``: every section written out, shapes dropped by ``without`` left out, groups
in restrictions expanded to ranks; it loads back to the same rules.
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from ..errors import DdzError, RulesError
from ..rules import Rules, load_rules, resolved_text
from .common import (
    FileName,
    check_output,
    common_options,
    emit_json,
    fail,
    finite_seconds,
    force_option,
    json_option,
    notation_option,
    output_error,
    read_text,
    report_with_progress,
    run_options,
    table_with_progress,
    task_progress,
    wild_report_with_progress,
    without_option,
)
from .exits import ExitCode

if TYPE_CHECKING:
    from rich.console import Console

    from ..wildcheck import WildReport

# ----------------------------------------------------------------------------- check

#: Ambiguous moves ``check`` prints (smallest first); ``--json`` lists every one.
_SHOWN_AMBIGUOUS = 200


@click.command()
@click.argument("rules_path", required=False, metavar="[RULES]")
@common_options
def check(rules_path: str | None, rules: Rules, notation: str,
          as_json: bool) -> None:
    """Check a rules file exhaustively: every legal move, one reading each.

    Prints the number of legal moves, the count per type, every ambiguous multiset with all
    its readings, and the last-play-only shapes. Exit 1 if any move is ambiguous, a shape has
    no legal move, or a rank of the deck cannot be played as a lone card (a leader could be
    stuck): play and solve refuse such rules. Give the rules as RULES or --rules, not both.
    """
    from click.core import ParameterSource
    if rules_path is not None:
        if click.get_current_context().get_parameter_source("rules_name") \
                is not ParameterSource.DEFAULT:
            fail(f"the rules are given twice: RULES {rules_path!r} and --rules; give one")
        rules = load_rules(rules_path, without=rules.without)
    table = report_with_progress(rules, quiet=as_json)
    from ..check import lone_card_problem, never_played_problem
    lone = lone_card_problem(rules)
    n_amb = len(table.ambiguous)
    amb = table.ambiguous_readings(None if as_json else _SHOWN_AMBIGUOUS)
    never = table.never_played()
    last_only = [s.name for s in rules.shapes if s.last_play]
    wild = None if rules.wild is None else wild_report_with_progress(rules, quiet=as_json)
    if as_json:
        doc = {"rules": rules.name, "without": list(rules.without), "moves": len(table),
               "by_type": table.by_type(), "never_played": never,
               "last_play_only": last_only,
               "unplayable": [lone] if lone else [],
               "ambiguous": [{"cards": c.format(notation),
                              "readings": [x.describe(notation) for x in rs]}
                             for c, rs in amb]}
        if wild is not None:
            from ..wildcheck import wild_json
            doc["wild"] = wild_json(wild, notation)
        emit_json(doc)
    else:
        from rich.console import Console
        from rich.table import Table
        console = Console(highlight=False)
        click.echo(f"{rules.label}: {rules.title}")
        t = Table(show_footer=True)
        t.add_column("type", footer="legal moves")
        t.add_column("moves", justify="right", footer=str(len(table)))
        for name, n in table.by_type().items():
            t.add_row(name, str(n))
        console.print(t)
        if last_only:
            click.echo(f"Last-play-only: {', '.join(last_only)} (legal only as the move that "
                       "empties the hand; counted above as moves)")
        if amb:
            click.echo(f"{n_amb} ambiguous moves (a defect of the rules file: every legal "
                       "move must have exactly one reading):")
            for c, rs in amb:
                click.echo(f"  {c.format(notation)}: "
                           + "; ".join(x.describe(notation) for x in rs))
            if n_amb > len(amb):
                click.echo(f"  ... and {n_amb - len(amb)} more (--json lists them all)")
        if never:
            click.echo(f"{never_played_problem(never)}: a defect of the rules file (play and "
                       "solve refuse it); drop the shape or loosen the restrictions")
        if lone:
            click.echo(f"{lone}: a defect of the rules file (play and solve refuse it); add a "
                       "one-card shape over every rank (e.g. single = 1 x 1)")
        if not amb and not never and not lone:
            click.echo(f"OK: {len(table)} legal moves, each with exactly one reading.")
        if wild is not None:
            _print_wild(console, wild, notation)
    if amb or never or lone:
        sys.exit(ExitCode.FINDING)


def _print_wild(console: Console, report: WildReport, notation: str) -> None:
    """The wild-card counts of ``check``: one table per restriction set, a row per wild rank
    and the total, then what the reading policy makes of them."""
    from rich.table import Table

    from ..wildcheck import COLUMNS, policy_words
    from ..wildcheck import rank_symbols as symbols
    for variant, per in report.per_rank.items():
        cut = ", ".join(map(str, report.restrictions[variant])) or "no wild restriction"
        t = Table(title=f"wild moves ({cut})", show_footer=True)
        total = report.total(variant).to_json()
        t.add_column("wild rank", footer="total")
        for key, head in COLUMNS:
            t.add_column(head, justify="right", footer=str(total[key]))
        for r, sym in symbols(report, notation).items():
            row = per[r].to_json()
            t.add_row(sym, *(str(row[k]) for k, _ in COLUMNS))
        console.print(t)
        click.echo(policy_words(report, variant))


# ----------------------------------------------------------------------------- diff

def _load_pair(name_a: str, name_b: str, without: tuple[str, ...]) -> tuple[Rules, Rules]:
    """Load both files; drop each ``--without`` shape from the files that have it. A name that
    neither file has is an error (RulesError)."""
    a, b = load_rules(name_a), load_rules(name_b)
    names_a, names_b = {s.name for s in a.shapes}, {s.name for s in b.shapes}
    for n in without:
        if n not in names_a and n not in names_b:
            known = ", ".join(dict.fromkeys([s.name for s in a.shapes + b.shapes]))
            raise RulesError(f"--without {n}: no such shape in {a.name} or {b.name} "
                             f"(shapes: {known})", f"{name_a}, {name_b}")
    a = a.without_shapes(tuple(n for n in without if n in names_a))
    b = b.without_shapes(tuple(n for n in without if n in names_b))
    return a, b


@click.command("diff")
@click.argument("rules_a", metavar="RULES_A")
@click.argument("rules_b", metavar="RULES_B")
@click.option("--all", "show_all", is_flag=True, help="List every differing move.")
@click.option("--examples", type=click.IntRange(min=0), default=5, show_default=True,
              metavar="N", help="Examples listed per direction and type.")
@click.option("--moves", "moves_file", metavar="FILE", default=None,
              help="Diff only the moves listed in FILE, one per line ('-': stdin).")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape from both files (repeatable), e.g. --without trio_pair.")
@notation_option
@json_option
def diff(rules_a: str, rules_b: str, show_all: bool, examples: int, moves_file: str | None,
         without: tuple[str, ...], notation: str, as_json: bool) -> None:
    """Every multiset whose verdict differs between RULES_A and RULES_B.

    A multiset differs when it is legal in one file only, or read as a different type or body
    (an ambiguous multiset has several readings). Prints the rules sections that differ, the
    counts per direction and type, then a few examples per type (--all: every one). With
    --moves FILE only the listed moves are compared, and every difference among them is listed.
    With wild cards (laizi): the wild moves' counts of both files per wild rank and in total
    (as ``check`` counts them, each under its file's wild restrictions) and what each reading
    policy settles.
    Exit 0 if nothing differs, 1 if a multiset or a rules section does, 2 on bad input.
    """
    from ..diff import diff_json, diff_lines, diff_rules, read_moves_file, wild_diff
    try:
        a, b = _load_pair(rules_a, rules_b, without)
        moves = None
        if moves_file is not None:
            deck = tuple(max(x, y) for x, y in zip(a.deck, b.deck))
            shown = "<stdin>" if moves_file == "-" else moves_file
            moves = read_moves_file(read_text(moves_file), shown, notation, deck)
        limit = None if show_all or moves is not None else examples
        for r in (a, b):
            table_with_progress(r, quiet=as_json)
        result = diff_rules(a, b, limit=limit, moves=moves, notation=notation)
        if a.wild is not None or b.wild is not None:  # issue 26: the wild counts side by side
            reports = [None if r.wild is None else wild_report_with_progress(r, quiet=as_json)
                       for r in (a, b)]
            result = replace(result, wild=wild_diff(*reports))
    except DdzError as e:
        fail(str(e))
        return
    if as_json:
        emit_json(diff_json(result, notation))
    else:
        for line in diff_lines(result, notation, shown_all=limit is None):
            click.echo(line)
    if not result.identical or result.spec:  # a rules section differs: a difference too
        sys.exit(ExitCode.FINDING)


# ----------------------------------------------------------------------------- rules

@click.group("rules")
def rules() -> None:
    """Show a rules file: resolved after extends (show), or in words (overview)."""


@rules.command("show")
@click.argument("name_or_path", metavar="FILE_OR_NAME")
@without_option
def show(name_or_path: str, without: tuple[str, ...]) -> None:
    """Print FILE_OR_NAME (a built-in name or a path) as one self-contained rules file: every
    section after extends, inherited ones included. It loads back to the same rules."""
    try:
        text = resolved_text(load_rules(name_or_path, without=without))
    except DdzError as e:
        fail(str(e))
    click.echo(text, nl=False)


@rules.command("overview")
@click.argument("name_or_path", metavar="NAME|PATH")
@without_option
@notation_option
@json_option
def overview(name_or_path: str, without: tuple[str, ...], notation: str, as_json: bool) -> None:
    """Explain NAME|PATH (a built-in name or a rules file) in words: every shape with example
    moves, every restriction with readings it rules out, the deal, bidding, play and scoring.

    --json prints {"name", "title", "text", "shapes": [{"name", "description", "spec", "sizes",
    "tier", "examples"}], "restrictions": [{"name", "words", "ruled_out", "count",
    "count_alone", "examples"}], "deal", "bidding", "play", "scoring"}.
    """
    from ..learn import rules_overview
    try:
        view = rules_overview(load_rules(name_or_path, without=without), notation)
    except DdzError as e:
        fail(str(e))
    if as_json:
        emit_json(view.to_json())
        return
    for line in view.lines():
        click.echo(line)


# ----------------------------------------------------------------------------- balance

@click.command()
@click.argument("variants", nargs=-1, required=True, metavar="RULES_A [RULES_B ...]")
@click.option("--games", default=200, show_default=True, type=click.IntRange(1),
              help="Deals per variant (the same shuffles where the decks match).")
@click.option("--levels", "levels_text", default="2", show_default=True, metavar="A[,B[,C]]",
              help="Computer level (1-3) per seat; fewer than the seats repeat the last; an "
                   "N-seat variant uses the first N (each variant's levels are printed).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals.")
@click.option("--budget", default=0.5, show_default=True,
              type=click.FloatRange(min=0.001, max=3600.0), callback=finite_seconds,
              help="Level 3's time per move, seconds.")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape from every variant (repeatable).")
@click.option("--plot", "plot_path", type=FileName(), metavar="FILE.png|FILE.svg",
              help="Draw the main rates per variant (needs matplotlib: ddzspec[plot]).")
@run_options("Write each block of deals' facts there as it completes; rerun with the same "
             "options to resume.")
@force_option("--plot FILE")
@json_option
def balance(variants: tuple[str, ...], games: int, levels_text: str, seed: int, budget: float,
            without: tuple[str, ...], plot_path: str | None, workers: int | None,
            scheduler: str | None, output: str | None, force: bool, as_json: bool) -> None:
    """Play deals per rules variant between computer players and report its balance.

    Each RULES is a built-in name or a rules file. Every variant plays deals 0 … N−1 of
    --seed: where two variants have the same deck and seats they are the same shuffles
    (duplicate deals), so their differences are measured deal by deal. Reports, each with a
    95 % interval: the landlord's win rate, points per deal for each role, spring and
    anti-spring rates, bombs and rockets per deal, the average multiplier, all-pass redeals,
    the deal length, and the share of deals per bid and per number of robs. A variant with
    robs, rounds or a cap adds (only then): deals with a rob and robs per deal, per role the
    share of its decisions in the doubling rounds that chose each of its choices above 1,
    named after them (happy: double and super; hebei: a peasant's kick, the landlord's
    counter), the shown hands (of seat-deals), the deals cut by the cap and the average
    stake (base × the multiplier a peasant settles at, capped). For two or more variants
    every difference (later minus earlier) and whether it is significant.

    --levels is per seat; an N-seat variant plays its first N (`balance classic duel
    --levels 3,2,2`: classic 3,2,2, duel 3,2), and each variant's levels are printed.

    \b
    --json: {"games", "seed", "variants": [{"rules", "levels", "deals",
    "figures": {name: {"n", "mean", "low", "high"}}, "bids", "robs"}],
    "differences": [{"a", "b", "paired", "figures": {name: {..., "significant"}}}]}.
    """
    from ..balance import BLOCK, FACTS_VERSION, deal_task, summarize
    from ..balance import plot as plot_fn
    from ..execute import ExecuteError, RunStats, Task, rules_ref, run
    from ..game.state import accept_rules
    from ..players.arena import parse_levels

    if plot_path is not None:
        if not plot_path.lower().endswith((".png", ".svg")):
            fail(f"--plot {plot_path}: the plot is a .png or .svg file")
        check_output(plot_path, force)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib: pip install 'ddzspec[plot]'")
    rules, levels = [], []
    for name in variants:
        try:
            r = accept_rules(load_rules(name, without=without))
            seats = r.deal.players  # an N-seat variant plays the first N levels given
            levels.append(parse_levels(",".join(levels_text.split(",")[:seats]), seats))
        except DdzError as e:
            fail(str(e))
        except ValueError as e:
            fail(f"--levels: {e}")
        rules.append(r)
    if len({r.name for r in rules}) != len(rules):
        fail("a variant is named twice")
    refs = [rules_ref(r) for r in rules]
    tasks = [Task.of(f"{i}:{r.name} deals {k:08d}", deal_task, rules=ref, levels=list(lv),
                     seed=seed, k=k, budget=budget, count=min(BLOCK, games - k))
             for i, (r, ref, lv) in enumerate(zip(rules, refs, levels))
             for k in range(0, games, BLOCK)]
    header = {"command": "balance", "variants": refs, "levels": [list(lv) for lv in levels],
              "seed": seed, "budget": budget, "games": games, "block": BLOCK,
              "facts": FACTS_VERSION}
    t0 = time.perf_counter()
    stats = RunStats()
    try:
        rows = run(tasks, workers=workers, scheduler=scheduler, output=output, header=header,
                   label=f"blocks of {BLOCK} deals", stats=stats, progress=task_progress)
    except ExecuteError as e:
        fail(str(e))
    blocks = len(tasks) // len(rules)
    per_variant = [[d for row in rows[i * blocks:(i + 1) * blocks] for d in row["deals"]]
                   for i in range(len(rules))]
    res = summarize(rules, levels, games, seed, per_variant)
    if plot_path is not None:
        try:
            plot_fn(res, plot_path, overwrite=force)
        except OSError as e:
            fail(output_error(plot_path, e.strerror or str(e)))
    if as_json:
        emit_json({**res.to_json(), "seconds": time.perf_counter() - t0})
        return
    for line in res.lines():
        click.echo(line)
    click.echo(f"run: {stats.line()}")
