"""Computer-player commands of the ``ddzspec`` CLI: ``arena`` (duplicate-deal matches between
levels, seed 003's three computer levels), loaded lazily by :mod:`ddzspec.cli`."""

from __future__ import annotations

import math

import click

from .cli_common import common_options, emit_json, fail, progress_bar
from .rules import Rules


def _finite(seconds: float) -> float:
    """``--budget``: a number of seconds (click's range lets NaN through)."""
    if not math.isfinite(seconds):
        raise click.BadParameter(f"{seconds} is not a number of seconds")
    return seconds


@click.command()
@click.option("--levels", "levels_text", required=True, metavar="A,B[,C]",
              help="Level (1-3) per seat; fewer than the seats repeat the last (2,1 = 2,1,1).")
@click.option("--games", default=100, show_default=True, type=click.IntRange(1),
              help="Duplicate deals (each played once per seat rotation).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals.")
@click.option("--budget", default=0.5, show_default=True,
              type=click.FloatRange(min=0.001, max=3600.0), callback=lambda _c, _p, v: _finite(v),
              help="Level 3's time per move, seconds.")
@common_options
def arena(levels_text: str, games: int, seed: int, budget: float, rules: Rules,
          notation: str, as_json: bool) -> None:
    """Play duplicate deals between computer levels and print their strength.

    Each deal is played again with the levels rotated over the seats, so the luck of the
    cards cancels; bidding is played too. Prints the landlord win rate, and per level and
    role (landlord, peasant) the side's win rate and the average points per deal with 95 %
    confidence intervals, and the difference between levels per role. --json prints the
    same figures: {"rules", "levels", "games", "seed", "deals_played", "landlord_win_rate",
    "by_level_role": [{"level", "role", "win_rate", "points"}], "comparisons": [{"higher",
    "lower", "role", "win_rate", "points"}], "seconds"}, each estimate as {"n", "mean", "low",
    "high"}.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from .players.arena import arena as arena_fn
    from .players.arena import parse_levels
    try:
        levels = parse_levels(levels_text, rules.deal.players)
    except ValueError as e:
        fail(f"--levels: {e}")
        return
    n = rules.deal.players
    with progress_bar(TextColumn(f"{rules.name} {','.join(map(str, levels))}"), BarColumn(),
                      MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn()) as prog:
        task = prog.add_task("deals", total=games * n)
        res = arena_fn(rules, levels, games, seed, budget=budget,
                       progress=lambda k: prog.update(task, completed=k))
    if as_json:
        emit_json(res.to_json())
        return
    for line in res.lines():
        click.echo(line)
