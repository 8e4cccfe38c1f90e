"""``ddzspec balance``: variant balance from computer deals (:mod:`ddzspec.balance`), on the
execution layer (:mod:`ddzspec.execute`); loaded lazily by :mod:`ddzspec.cli`."""

from __future__ import annotations

import math

import click

from .cli_common import (
    FileName,
    check_output,
    emit_json,
    fail,
    force_option,
    output_error,
    run_options,
)


def _finite(seconds: float) -> float:
    """``--budget``: a number of seconds (click's range lets NaN through)."""
    if not math.isfinite(seconds):
        raise click.BadParameter(f"{seconds} is not a number of seconds")
    return seconds


@click.command()
@click.argument("variants", nargs=-1, required=True, metavar="RULES_A [RULES_B ...]")
@click.option("--games", default=200, show_default=True, type=click.IntRange(1),
              help="Deals per variant (the same shuffles where the decks match).")
@click.option("--levels", "levels_text", default="2", show_default=True, metavar="A[,B[,C]]",
              help="Computer level (1-3) per seat; fewer than the seats repeat the last; an "
                   "N-seat variant uses the first N (each variant's levels are printed).")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the deals.")
@click.option("--budget", default=0.5, show_default=True,
              type=click.FloatRange(min=0.001, max=3600.0), callback=lambda _c, _p, v: _finite(v),
              help="Level 3's time per move, seconds.")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape from every variant (repeatable).")
@click.option("--plot", "plot_path", type=FileName(), metavar="FILE.png|FILE.svg",
              help="Draw the main rates per variant (needs matplotlib: ddzspec[plot]).")
@run_options("Write each block of deals' facts there as it completes; rerun with the same "
             "options to resume.")
@force_option("--plot FILE")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def balance(variants: tuple[str, ...], games: int, levels_text: str, seed: int, budget: float,
            without: tuple[str, ...], plot_path: str | None, workers: int | None,
            scheduler: str | None, output: str | None, force: bool, as_json: bool) -> None:
    """Play deals per rules variant between computer players and report its balance.

    Each RULES is a built-in name or a rules file. Every variant plays deals 0 … N−1 of
    --seed: where two variants have the same deck and seats they are the same shuffles
    (duplicate deals), so their differences are measured deal by deal. Reports, each with a
    95 % interval: the landlord's win rate, points per deal for each role, spring and
    anti-spring rates, bombs and rockets per deal, the average multiplier, all-pass redeals,
    the deal length, and the share of deals per bid and per number of robs; for two or more
    variants every difference (later minus earlier) and whether it is significant.

    --levels is per seat; an N-seat variant plays its first N (`balance classic duel
    --levels 3,2,2`: classic 3,2,2, duel 3,2), and each variant's levels are printed.

    \b
    --json: {"games", "seed", "variants": [{"rules", "levels", "deals",
    "figures": {name: {"n", "mean", "low", "high"}}, "bids", "robs"}],
    "differences": [{"a", "b", "paired", "figures": {name: {..., "significant"}}}]}.
    """
    import time

    from .balance import BLOCK, deal_task, summarize
    from .balance import plot as plot_fn
    from .errors import DdzError
    from .execute import ExecuteError, RunStats, Task, rules_ref, run
    from .game.state import accept_rules
    from .players.arena import parse_levels
    from .rules import load_rules

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
              "seed": seed, "budget": budget, "games": games, "block": BLOCK}
    t0 = time.perf_counter()
    stats = RunStats()
    try:
        rows = run(tasks, workers=workers, scheduler=scheduler, output=output, header=header,
                   label=f"blocks of {BLOCK} deals", stats=stats)
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
