"""Game commands of the ``ddzspec`` CLI: ``moves`` (the Hint), ``play`` (computer self-play)
and ``replay`` (validate a record). :data:`ddzspec.cli.main` loads them when first called."""

from __future__ import annotations

import sys
from typing import Any

import click

from .cards import parse_cards
from .cli_common import FileName, common_options, emit_json, fail, progress_bar
from .rules import Rules


@click.command()
@click.argument("hand")
@click.option("--beat", "beat", metavar="MOVE", default=None,
              help="The move to answer (omit to list every lead).")
@common_options
def moves(hand: str, beat: str | None, rules: Rules, notation: str, as_json: bool) -> None:
    """List every legal move HAND can play (the Hint), smallest first.

    With --beat MOVE: every move that beats MOVE, and pass. JSON:
    {"moves": [{"cards", "type"}, …], "can_pass": bool}.
    """
    from .errors import DdzError
    from .moves import legal_moves, to_reading
    try:
        cards = parse_cards(hand, notation, deck=rules.deck).cards
    except DdzError as e:
        fail(f"HAND: {e}")
    prev = None
    if beat is not None:
        try:
            prev = to_reading(parse_cards(beat, notation, deck=rules.deck).cards, rules)
        except DdzError as e:
            fail(f"--beat: {e}")
    lm = legal_moves(cards, prev, rules)
    if as_json:
        emit_json({"moves": [{"cards": m.format(notation), "type": m.shape} for m in lm],
                   "can_pass": lm.can_pass})
        return
    for m in lm:
        click.echo(f"{m.format(notation):<20} {m.shape}")
    if lm.can_pass:
        click.echo("pass")
    if not lm.moves and not lm.can_pass:  # pragma: no cover - a non-empty hand always leads
        click.echo("(no move)")


# ----------------------------------------------------------------------------- play

def self_play(rules: Rules, seed: int | str, levels: tuple[int, ...] | None = None
              ) -> tuple[Any, list[tuple[Any, Any]]]:
    """One deal among computer players (``levels``: one per seat, default 2 each; seat ``s``
    plays with seed ``f"{seed}:{s}"``): (initial state, [(action, state after)])."""
    from .game import GameState
    from .players import player_for
    players = [player_for(lv, f"{seed}:{s}")
               for s, lv in enumerate(levels or (2,) * rules.deal.players)]
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
@click.option("--levels", "levels_text", default=None, metavar="L,L,L",
              help="Computer level (1-3) per seat, in seat order (default 2 for every seat).")
@common_options
def play(seed: int, games: int, save_path: str | None, levels_text: str | None, rules: Rules,
         notation: str, as_json: bool) -> None:
    """Play a full deal among computer players and print the transcript.

    --json prints the deal's record (its "result" holds winner, scores, multiplier, factors).
    --games K plays K deals and prints wins per side, average points and bombs per deal.
    --save FILE is checked before any deal is played (exit 2 when it cannot be written) and
    written atomically.
    """
    from .game.record import check_save_path, record_of, save, transcript
    from .players.arena import parse_levels
    try:
        levels = parse_levels("2" if levels_text is None else levels_text, rules.deal.players)
    except ValueError as e:
        fail(f"--levels: {e}")
    if save_path is not None:
        check_save_path(save_path)  # before playing: a bad path costs nothing
    if games == 1:
        initial, steps = self_play(rules, seed, levels)
        final = steps[-1][1]
        if save_path is not None:
            save(final, save_path)
        if as_json:
            click.echo(record_of(final).dumps())
        else:
            for line in transcript(initial, steps, notation):
                click.echo(line)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    tiered = {x.name for x in rules.shapes if x.tier > 0}
    wins = {"landlord": 0, "peasants": 0}
    points = [0] * rules.deal.players
    landlord_points = 0
    bombs = springs = anti = redeals = 0
    mults = 0
    with progress_bar(TextColumn(f"{rules.name}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn()) as prog:
        task = prog.add_task("deals", total=games)
        final = None
        for k in range(games):
            _, steps = self_play(rules, seed + k, levels)
            final = steps[-1][1]
            r = final.result
            wins[r.winner] += 1
            for s, p in enumerate(r.scores):
                points[s] += p
            landlord_points += r.scores[r.landlord]
            bombs += sum(1 for f in r.factors if f.kind in tiered)
            springs += r.spring
            anti += r.anti_spring
            redeals += final.attempt
            mults += r.multiplier
            prog.advance(task)
    if save_path is not None and final is not None:
        save(final, save_path)
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
@click.option("--notation", type=click.Choice(["en", "fr", "de"]), default="en",
              show_default=True, help="Card notation language.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def replay(file: str, rules_name: str | None, without: tuple[str, ...], notation: str,
           as_json: bool) -> None:
    """Validate a deal record action by action; print the transcript and the score breakdown,
    or the first invalid action with its index and reason (exit 1).

    The record carries its rules and replays under exactly them, on any machine. --rules and
    --without, when given, must resolve to exactly the recorded rules; a record whose rules
    cannot be reproduced exactly is refused (exit 2), never replayed under other rules.
    """
    from .errors import DdzError
    from .game.record import load, transcript
    from .game.record import replay as replay_fn
    from .rules import builtin_rules, load_rules
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
        if not rep.ok:
            click.echo(f"invalid action {rep.error_index}: {rep.error}")
    if not rep.ok:
        sys.exit(1)
