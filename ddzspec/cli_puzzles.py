"""``ddzspec puzzles``: the shipped endgame puzzles (``list``) and playing one against the
solver in the terminal (``play``), loaded lazily by :mod:`ddzspec.cli`.

``puzzles`` is a group; ``generate`` and ``check`` join it from :mod:`.cli_puzzlegen`.
This module imports nothing from :mod:`ddzspec.cli`; the library is
:mod:`ddzspec.puzzle_play`.
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING

import click

from .cli_common import FileName, emit_json, fail
from .errors import DdzError
from .rules import DEFAULT_RULES

if TYPE_CHECKING:
    from .puzzles import PuzzleGame


@click.group("puzzles")
def puzzles() -> None:
    """Endgame puzzles: list the shipped ones, play one against the solver, generate new
    ones with a single answer, check a puzzle file."""


@puzzles.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def list_puzzles(as_json: bool) -> None:
    """List the shipped puzzles, fewest cards first: id, seats, cards per seat, the seat to
    move, the winner with best play (the seat, landlord or peasant, with two seats; the side,
    landlord or peasants, with three) and the public source. --json prints a list of
    {"id", "source", "seats", "cards", "position", "to_move", "winner", "winning_moves"}."""
    from .puzzles import builtin_puzzles
    items = builtin_puzzles()
    if as_json:
        emit_json([p.to_json() for p in items])
        return
    for p in items:
        cards = "+".join(map(str, p.cards))
        click.echo(f"{p.id}  {p.seats} seats  {cards:<8}  {p.to_move:<8} to move  "
                   f"winner {p.winner:<8}  {p.source}")


def _seconds(seconds: float) -> float:
    if not math.isfinite(seconds):
        raise click.BadParameter(f"{seconds} is not a number of seconds")
    return seconds


HELP = ("type a move (e.g. 55, 333+4, or pass), 'hint' (every winning move), 'moves' (every "
        "legal move), 'undo' (take back your last move), 'quit'")


def _show(game: PuzzleGame, notation: str) -> None:
    data = game.to_json(notation)
    for seat in game.seats:
        mark = " (you)" if seat in game.human_seats else ""
        click.echo(f"  {seat}{mark}: {data['hands'][seat] or '-'}")
    table = data["on_table"]
    click.echo(f"  on the table: {table[1] + ' by ' + table[0] if table else '-'}")
    for seat, t in game.targets().items():  # the duel handicap: said where it matters
        click.echo(f"  {seat} wins at {t} card{'' if t == 1 else 's'} left (its target)")
    if game.over:
        click.echo(f"Game over: {game.winner} won"
                   f"{' — you win!' if game.human_wins_with_best_play else '.'}")
        return
    verdict = {True: "you win with best play", False: "you lose with best play",
               None: "who wins is unknown"}[game.human_wins_with_best_play]
    click.echo(f"{game.to_move} to move ({verdict}).")


def _computer(game: PuzzleGame, notation: str) -> PuzzleGame:
    for g in game.replies():
        for line in g.lines:
            click.echo(line)
        game = g
    return game


@puzzles.command("play")
@click.argument("puzzle", metavar="ID|FILE", type=FileName())
@click.option("--side", default=None, metavar="landlord|peasants|SEAT",
              help="The side you play (default: the side to move).")
@click.option("--seconds", default=10.0, show_default=True,
              type=click.FloatRange(min=0.001, max=3600.0), callback=lambda _c, _p, v:
              _seconds(v), help="Time limit of each solver call, in seconds.")
@click.option("--notation", type=click.Choice(["en", "fr", "de"]), default="en",
              show_default=True, help="Card notation language.")
@click.option("--rules", "rules_name", default=DEFAULT_RULES, show_default=True,
              metavar="NAME|PATH",
              help="The rules of a position FILE with no 'rules' line (as solve --rules).")
def play(puzzle: str, side: str | None, seconds: float, notation: str,
         rules_name: str) -> None:
    """Play puzzle ID (see 'puzzles list') or a position FILE against the solver.

    You play one side (with three seats: the landlord, or both peasants); the solver plays
    the other with perfect defence: a winning move when it wins, the longest resistance when
    it is lost. At the prompt type a move, 'hint', 'moves', 'pass', 'undo' or 'quit'. A move
    that throws the win away is flagged at once with the computer's winning reply.
    """
    from .puzzles import PuzzleGame, load_puzzle
    from .rules import load_rules
    try:
        pz = load_puzzle(puzzle, load_rules(rules_name))
        pos = pz.position()
        if side is None:
            mover = pos.seats[pos.to_move]
            side = mover if pos.n_seats == 2 or mover == "landlord" else "peasants"
        game = PuzzleGame.start(pos, side, seconds=seconds, notation=notation)
    except DdzError as e:
        fail(str(e))
    others = [s for s in game.seats if s not in game.human_seats]
    click.echo(f"{pz.id} ({pz.source}): you play {', '.join(game.human_seats)}; the solver "
               f"plays {', '.join(others)} with perfect defence.")
    click.echo(HELP)
    for line in game.lines:
        click.echo(line)
    game = _computer(game, notation)
    _show(game, notation)
    while not game.over:
        click.echo("> ", nl=False)
        raw = sys.stdin.readline()
        if not raw:  # end of input
            click.echo()
            return
        cmd = raw.strip()
        word = cmd.lower()
        try:
            # not "q": a lone queen is a move (cards may be typed in lower case)
            if word in ("quit", "exit"):
                return
            if word in ("help", "?", ""):
                click.echo(HELP)
            elif word == "hint":
                hint = game.to_json(notation)["hint"]
                if hint:
                    click.echo("winning moves: " + ", ".join(hint))
                elif game.hint_unknown:  # the verdict may be known, the moves not
                    click.echo(f"unknown in {seconds:g} s: no hint (the solver could not "
                               "list the winning moves in time)")
                else:
                    click.echo("no winning move: you lose with best play")
            elif word == "moves":
                click.echo("legal moves: " + ", ".join(game.to_json(notation)["legal_moves"]))
            elif word in ("undo", "takeback", "take back"):
                game = game.take_back()
                click.echo(game.lines[0])
                _show(game, notation)
            else:
                game, verdict = game.play(cmd, notation)
                for line in verdict.lines:
                    click.echo(line)
                game = _computer(game, notation)
                _show(game, notation)
        except DdzError as e:
            click.echo(f"error: {e}")


def _attach_generation() -> None:
    """``puzzles generate`` and ``puzzles check`` live in :mod:`.cli_puzzlegen`."""
    from .cli_puzzlegen import puzzles_check, puzzles_generate
    puzzles.add_command(puzzles_generate)
    puzzles.add_command(puzzles_check)


_attach_generation()
