"""The Game topic of the ``ddzspec`` command line: ``play`` (computer self-play) and
``replay`` (validate a record), loaded by :mod:`ddzspec.cli.group` when first called.

``play --seat N`` puts a person at one seat, at a terminal prompt (:mod:`ddzspec.cli.seat`)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from ..rules import Rules, builtin_rules, load_rules
from .common import (
    FileName,
    check_output,
    common_options,
    emit_json,
    fail,
    force_option,
    json_option,
    notation_option,
    progress_bar,
)
from .exits import ExitCode

if TYPE_CHECKING:
    from ..game import Action, GameState

# ----------------------------------------------------------------------------- play

def self_play(rules: Rules, seed: int | str, levels: tuple[int, ...] | None = None
              ) -> tuple[GameState, list[tuple[Action, GameState]]]:
    """One deal among computer players (``levels``: one per seat, default 2 each; seat ``s``
    plays with seed ``f"{seed}:{s}"``): (initial state, [(action, state after)])."""
    from ..game import GameState
    from ..players import player_for
    from ..players.base import prepare
    levels = levels or (2,) * rules.deal.players
    prepare(rules, endgame=3 in levels)  # one-time set-up, before any decision
    players = [player_for(lv, f"{seed}:{s}") for s, lv in enumerate(levels)]
    state = GameState.new(rules, seed=seed)
    initial, steps = state, []
    while not state.over:
        assert state.turn is not None
        action = players[state.turn].decide(state.view(state.turn))
        state = state.apply(action)
        steps.append((action, state))
    return initial, steps


@click.command()
@click.option("--seed", default=0, show_default=True, help="Shuffle seed (first deal).")
@click.option("--games", default=1, show_default=True, type=click.IntRange(1),
              help="Play K deals (seeds N, N+1, …) and print aggregate results.")
@click.option("--save", "save_path", default=None, metavar="FILE", type=FileName(),
              help="Write the record of the (last) deal to FILE.")
@force_option("--save FILE")
@click.option("--levels", "levels_text", default=None, metavar="L,L,L",
              help="Computer level (1-3) per seat, in seat order; fewer than the seats repeat "
                   "the last (2,3 for 3 seats: 2,3,3; default 2 for every seat).")
@click.option("--seat", type=click.IntRange(0), default=None, metavar="N",
              help="Take seat N yourself and play in the terminal (the others are computers).")
@click.option("--resume", "resume_path", default=None, metavar="FILE", type=FileName(),
              help="Continue the --seat deal saved in FILE (and keep saving to it), at the "
                   "seat and levels it was started with; --seat, --levels, --seed, --rules "
                   "and --without, if given, must agree with it.")
@common_options
def play(seed: int, games: int, save_path: str | None, force: bool, levels_text: str | None,
         seat: int | None, resume_path: str | None, rules: Rules, notation: str,
         as_json: bool) -> None:
    """Play a full deal among computer players and print the transcript; with --seat N, take
    seat N yourself in the terminal.

    --json prints the deal's record (its "result" holds winner, scores, multiplier, factors).
    --games K plays K deals and prints wins per side, average points and bombs per deal.
    --save FILE is checked before any deal is played (exit 2 when it cannot be written, or
    exists and --force is not given) and written atomically.

    \b
    --seat N: at your turn the prompt shows your hand, the cards left per
    seat (one-card/two-card warnings), the trick so far and the multiplier;
    type cards in the chosen notation, hint, pass, counter, help or quit
    (bidding: the legal bids, or call/rob yes/no). The record is saved after
    every action to --save FILE, or to a file in your data folder (printed);
    --resume FILE continues it. End of input or quit stops, the deal saved.
    """
    from click.core import ParameterSource

    from ..game.record import record_of, save, transcript
    from ..players.arena import parse_levels
    ctx = click.get_current_context()

    def given(param: str) -> bool:
        return ctx.get_parameter_source(param) is not ParameterSource.DEFAULT
    if seat is not None and (games != 1 or as_json):
        fail("--seat: the terminal seat plays one deal; --games and --json do not apply")
    players = rules.deal.players
    saved_levels = None
    if resume_path is not None:
        from ..errors import DdzError
        from ..game.record import load, record_rules
        try:
            rec = load(resume_path)
            players = record_rules(rec).deal.players
        except DdzError as e:
            if seat is None:  # with --seat, terminal_seat reports it (rules given, too)
                fail(f"{resume_path}: {e}" if not str(e).startswith(resume_path) else str(e))
            rec = None
        if rec is not None:
            # the "terminal" field is type-checked on reading; whether its seat and levels
            # fit the record's own variant is checked here, before any computer plays
            if rec.terminal_seat is not None and not 0 <= rec.terminal_seat < players:
                fail(f"{resume_path}: \"terminal\" \"seat\" is {rec.terminal_seat}, not a "
                     f"seat of the record's rules (0 to {players - 1}): the record was "
                     "altered")
            if rec.terminal_levels is not None and len(rec.terminal_levels) != players:
                fail(f"{resume_path}: \"terminal\" \"levels\" holds "
                     f"{len(rec.terminal_levels)} level(s), not one per seat ({players}): "
                     "the record was altered")
            if seat is None:
                seat = rec.terminal_seat
            elif rec.terminal_seat is not None and seat != rec.terminal_seat:
                fail(f"--seat {seat}: the deal in {resume_path} was started with --seat "
                     f"{rec.terminal_seat} (leave --seat out to resume it)")
            if given("seed") and seed != rec.seed:
                fail(f"--seed {seed}: the deal in {resume_path} was dealt from seed "
                     f"{json.dumps(rec.seed)} (leave --seed out to resume it)")
            saved_levels = rec.terminal_levels
        if seat is None and rec is not None and rec.result is not None:
            fail(f"--resume: the deal in {resume_path} is over, there is nothing to resume "
                 f"(`ddzspec replay {resume_path}` shows it move by move)")
        if seat is None:
            fail(f"--resume: {resume_path} does not say which seat is yours (not saved by "
                 f"`play --seat`, or by an older ddzspec): give --seat N (0 to {players - 1}) "
                 "to take a seat in it")
    try:
        levels = parse_levels("2" if levels_text is None else levels_text, players)
    except ValueError as e:
        fail(f"--levels: {e}")
    if saved_levels is not None:
        if levels_text is not None and levels != saved_levels:
            fail(f"--levels {levels_text}: the deal in {resume_path} was started with "
                 f"--levels {','.join(map(str, saved_levels))} (leave --levels out to resume "
                 "it)")
        levels = saved_levels
    if seat is not None:
        from .seat import terminal_seat
        terminal_seat(rules, seat, seed, levels, save_path, resume_path, notation,
                      given("rules_name") or given("without"), force)
        return
    if save_path is not None:
        check_output(save_path, force)  # before playing: a bad path costs nothing
    if games == 1:
        initial, steps = self_play(rules, seed, levels)
        final = steps[-1][1]
        if save_path is not None:
            save(final, save_path, overwrite=force)
        if as_json:
            click.echo(record_of(final).dumps())
        else:
            for line in transcript(initial, steps, notation):
                click.echo(line)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    from ..balance import deal_facts
    wins = {"landlord": 0, "peasants": 0}
    points = [0] * rules.deal.players
    landlord_points = 0
    bombs = springs = anti = redeals = 0
    mults = 0
    with progress_bar(TextColumn(f"{rules.name}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn()) as prog:
        task = prog.add_task("deals", total=games)
        last: GameState | None = None
        for k in range(games):
            _, steps = self_play(rules, seed + k, levels)
            last = final = steps[-1][1]
            facts = deal_facts(final)
            wins["landlord" if facts["landlord_won"] else "peasants"] += 1
            assert final.result is not None  # the deal is over
            for s, p in enumerate(final.result.scores):
                points[s] += p
            landlord_points += facts["landlord_points"]
            bombs += facts["bombs"] + facts["rockets"]
            springs += facts["spring"]
            anti += facts["anti_spring"]
            redeals += facts["redeals"]
            mults += facts["multiplier"]
            prog.advance(task)
    if save_path is not None and last is not None:
        save(last, save_path, overwrite=force)
    agg = {"rules": rules.name, "games": games, "first_seed": seed, "wins": wins,
           "landlord_win_rate": wins["landlord"] / games,
           "average_points": {str(s): p / games for s, p in enumerate(points)},
           "average_landlord_points": landlord_points / games,
           "bombs_per_deal": bombs / games, "average_multiplier": mults / games,
           "springs": springs, "anti_springs": anti, "redeals": redeals}
    if as_json:
        emit_json(agg)
        return
    click.echo(f"{rules.title}: {games} deals, seeds {seed}…{seed + games - 1}")
    click.echo(f"  wins: landlord {wins['landlord']}, peasants {wins['peasants']} "
               f"(landlord {100 * wins['landlord'] / games:.1f}%)")
    click.echo("  average points per seat: " + ", ".join(
        f"seat {s} {p / games:+.2f}" for s, p in enumerate(points))
        + f"; landlord {landlord_points / games:+.2f}")
    click.echo(f"  bombs/rockets per deal: {bombs / games:.3f}; average multiplier "
               f"{mults / games:.2f}; springs {springs}, anti-springs {anti}; "
               f"all-pass redeals {redeals}")


# ----------------------------------------------------------------------------- replay

@click.command()
@click.argument("file", type=FileName())
@click.option("--rules", "rules_name", default=None, metavar="NAME|PATH",
              help="Replay under these rules (a built-in name or a path); they must be exactly "
                   "the record's. Default: the rules the record carries.")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape (repeatable); with --rules, or for a record of a built-in.")
@notation_option
@json_option
def replay(file: str, rules_name: str | None, without: tuple[str, ...], notation: str,
           as_json: bool) -> None:
    """Validate a deal record action by action; print the transcript and the score breakdown,
    or the first invalid action with its index and reason (exit 1).

    The record carries its rules and replays under exactly them, on any machine. --rules and
    --without, when given, must resolve to exactly the recorded rules; a record whose rules
    cannot be reproduced exactly is refused (exit 2), never replayed under other rules.
    """
    from ..errors import DdzError
    from ..game.record import load, transcript
    from ..game.record import replay as replay_fn
    try:
        rec = load(file)
        given = None
        if rules_name is not None:
            given = load_rules(rules_name, without=without)
        elif without:
            if rec.rules_name not in builtin_rules():
                fail(f"--without: the record's rules {rec.rules_name!r} are not built in; "
                     "give --rules as well")
            given = load_rules(rec.rules_name, without=without)
        rep = replay_fn(rec, given)
    except DdzError as e:
        fail(str(e))
        return
    state = rep.state
    if as_json:
        emit_json({"valid": rep.ok, "actions": len(rep.steps),
                   "error": None if rep.ok else {"index": rep.error_index,
                                                 "reason": rep.error},
                   "warnings": list(rep.warnings), "phase": state.phase,
                   "result": None if state.result is None else state.result.to_json()})
    else:
        for w in rep.warnings:
            click.echo(f"warning: {w}", err=True)
        for line in transcript(rep.initial, rep.steps, notation):
            click.echo(line)
        if rep.problem is not None:  # the recorded result is not an action: no "invalid"
            click.echo(("invalid " if rep.error_index is not None else "") + rep.problem)
    if not rep.ok:
        sys.exit(ExitCode.FINDING)
