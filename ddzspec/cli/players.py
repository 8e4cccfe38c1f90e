"""Computer players on the ``ddzspec`` command line: ``arena`` (duplicate-deal matches between
the three computer levels), loaded by :mod:`ddzspec.cli.group` when first called."""

from __future__ import annotations

import time

import click

from ..rules import Rules
from .common import (
    emit_json,
    fail,
    finite_seconds,
    rules_json_options,
    run_options,
    task_progress,
)


@click.command()
@click.option("--levels", "levels_text", required=True, metavar="A,B[,C]",
              help="Level (1-3) per seat; fewer than the seats repeat the last (2,1 = 2,1,1).")
@click.option("--games", default=100, show_default=True, type=click.IntRange(1),
              help="Duplicate deals (each played once per seat rotation).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals.")
@click.option("--budget", default=0.5, show_default=True,
              type=click.FloatRange(min=0.001, max=3600.0), callback=finite_seconds,
              help="Level 3's time per move, seconds.")
@run_options("Write each duplicate deal's seat-deals there as it completes; rerun with the "
             "same options to resume.")
@rules_json_options
def arena(levels_text: str, games: int, seed: int, budget: float, workers: int | None,
          scheduler: str | None, output: str | None, rules: Rules, as_json: bool) -> None:
    """Play duplicate deals between computer levels and print their strength.

    Each deal is played again with the levels rotated over the seats, so the luck of the
    cards cancels; bidding is played too. Prints the landlord win rate, and per level and
    role (landlord, peasant) the side's win rate and the average points per deal with 95 %
    confidence intervals (Wilson for rates), clustered by duplicate deal: n counts the deals
    in which the level held the role, each deal one value (the mean of that level's
    seat-deals in the role); and the difference between levels per role. --json prints the
    same figures: {"rules", "levels", "games", "seed", "deals_played", "landlord_win_rate",
    "by_level_role": [{"level", "role", "win_rate", "points"}], "comparisons": [{"higher",
    "lower", "role", "win_rate", "points"}], "seconds"}, each estimate as {"n", "mean", "low",
    "high"}.

    The deals run on worker processes (--workers), or on a Dask cluster (--scheduler); the
    figures are the same whatever runs them. --output keeps every deal's seat-deals (JSONL,
    one row per deal) so that a stopped run resumes where it was.
    """
    from ..errors import DdzError
    from ..execute import ExecuteError, Task, rules_ref, run
    from ..game.state import accept_rules
    from ..players.arena import deal_task, parse_levels, seat_deals_of, summarize
    try:  # rules that cannot be played out are refused before any worker starts
        accept_rules(rules)
    except DdzError as e:
        fail(str(e))
    try:
        levels = parse_levels(levels_text, rules.deal.players)
    except ValueError as e:
        fail(f"--levels: {e}")
        return
    ref = rules_ref(rules)
    tasks = [Task.of(f"deal {k:08d}", deal_task, rules=ref, levels=list(levels), seed=seed,
                     k=k, budget=budget) for k in range(games)]
    header = {"command": "arena", "rules": ref, "levels": list(levels), "seed": seed,
              "budget": budget}
    t0 = time.perf_counter()
    try:
        rows = run(tasks, workers=workers, scheduler=scheduler, output=output, header=header,
                   label=f"{rules.name} {','.join(map(str, levels))}: deals",
                   progress=task_progress)
    except ExecuteError as e:
        fail(str(e))
    records = [r for row in rows for r in seat_deals_of(row)]
    res = summarize(rules.name, levels, games, seed, records, time.perf_counter() - t0)
    if as_json:
        emit_json(res.to_json())
        return
    for line in res.lines():
        click.echo(line)
