"""The Endgames topic of the ``ddzspec`` command line, but ``solve`` (``ddzspec.solver.cli``):
the ``puzzles`` group, loaded by :mod:`ddzspec.cli.group` when first called. ``list`` the
shipped puzzles, ``play`` one against the solver in the terminal (:mod:`ddzspec.puzzles`),
``generate`` puzzles with one answer and ``check`` a puzzle file (:mod:`ddzspec.puzzles`).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import DdzError
from ..puzzles import MAX_COUNT
from ..rules import DEFAULT_RULES, Rules, load_rules
from .common import (
    FileName,
    check_output,
    emit_json,
    fail,
    finite_seconds,
    force_option,
    json_option,
    notation_option,
    read_text,
    rules_option,
    run_options,
    task_progress,
    without_option,
    write_output,
)
from .exits import ExitCode

if TYPE_CHECKING:
    from ..puzzles import PuzzleGame


@click.group("puzzles")
def puzzles() -> None:
    """Endgame puzzles: list the shipped ones, play one against the solver, generate new
    ones with a single answer, check a puzzle file."""


@puzzles.command("list")
@json_option
def list_puzzles(as_json: bool) -> None:
    """List the shipped puzzles, fewest cards first: id, seats, cards per seat, the seat to
    move, the winner with best play (the seat, landlord or peasant, with two seats; the side,
    landlord or peasants, with three) and the public source. --json prints a list of
    {"id", "source", "seats", "cards", "position", "to_move", "winner", "winning_moves"}."""
    from ..puzzles.catalogue import builtin_puzzles
    items = builtin_puzzles()
    if as_json:
        emit_json([p.to_json() for p in items])
        return
    for p in items:
        cards = "+".join(map(str, p.cards))
        click.echo(f"{p.id}  {p.seats} seats  {cards:<8}  {p.to_move:<8} to move  "
                   f"winner {p.winner:<8}  {p.source}")


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
@click.argument("record", metavar="[ID]", required=False)
@click.option("--side", default=None, metavar="landlord|peasants|SEAT",
              help="The side you play (default: the side to move).")
@click.option("--seconds", default=10.0, show_default=True,
              type=click.FloatRange(min=0.001, max=3600.0), callback=finite_seconds,
              help="Time limit of each solver call, in seconds.")
@notation_option
@click.option("--rules", "rules_name", default=DEFAULT_RULES, show_default=True,
              metavar="NAME|PATH",
              help="The rules of a position FILE with no 'rules' line (as solve --rules).")
def play(puzzle: str, record: str | None, side: str | None, seconds: float, notation: str,
         rules_name: str) -> None:
    """Play puzzle ID (see 'puzzles list'), a position FILE, or puzzle ID of a FILE.jsonl
    of puzzle records ('puzzles generate' writes them; ID may be left out when the file holds
    one) against the solver.

    You play one side (with three seats: the landlord, or both peasants); the solver plays
    the other with perfect defence: a winning move when it wins, the longest resistance when
    it is lost. At the prompt type a move, 'hint', 'moves', 'pass', 'undo' or 'quit'. A move
    that throws the win away is flagged at once with the computer's winning reply.
    """
    from ..puzzles.catalogue import load_puzzle
    from ..puzzles.game import PuzzleGame
    try:
        pz = load_puzzle(puzzle, load_rules(rules_name), record)
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


# ----------------------------------------------------------------------------- generate, check

def _difficulty(v: float) -> float:
    """``--min-difficulty``: a finite number, at least 0 (NaN would keep no puzzle, ever)."""
    if not math.isfinite(v) or v < 0:
        raise click.BadParameter(f"{v} is not a difficulty (a finite number, at least 0)")
    return v


def _sizes(text: str) -> tuple[int, ...]:
    """``--cards 10,9[,9]``: hand sizes, the seat to move (the landlord's) first."""
    try:
        sizes = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise click.BadParameter(f"{text!r}: hand sizes such as 10,9 or 8,6,6") from None
    return sizes


def _load(rules_name: str, without: tuple[str, ...]) -> Rules:
    try:
        return load_rules(rules_name, without=without)
    except DdzError as e:
        fail(str(e))


_limit_option = click.option("--limit-seconds", type=click.FloatRange(min=0, min_open=True),
                             default=10.0, show_default=True, metavar="S",
                             callback=finite_seconds,
                             help="The solver's time limit per position.")


@puzzles.command("generate")
@rules_option
@without_option
@click.option("--seats", type=click.IntRange(2, 3), default=2, show_default=True,
              help="Hands in a puzzle.")
@click.option("--cards", "cards_text", default="10,9", show_default=True, metavar="A,B[,C]",
              help="Hand sizes, the seat to move first (one per seat).")
@click.option("--count", type=click.IntRange(1, MAX_COUNT), default=10, show_default=True,
              help="Puzzles to keep.")
@click.option("--min-difficulty", type=float, default=0.0, show_default=True, metavar="D",
              callback=lambda _c, _p, v: _difficulty(v),
              help="Keep puzzles rated at least D (only-moves + line/4 + log10 nodes).")
@click.option("--seed", type=int, default=0, show_default=True, help="The generator's seed.")
@click.option("--source", type=click.Choice(["random", "selfplay"]), default="random",
              show_default=True,
              help="random: splits of a shuffled deck; selfplay: computer deals cut at a move.")
@click.option("--max-candidates", type=click.IntRange(1), metavar="N",
              help="Give up after N candidates (default 50 x --count).")
@_limit_option
@run_options("Write the puzzles there (JSONL) instead of standard output.")
@force_option("--output FILE")
def puzzles_generate(rules_name: str, without: tuple[str, ...], seats: int, cards_text: str,
                     count: int, min_difficulty: float, seed: int, source: str,
                     max_candidates: int | None, limit_seconds: float | None,
                     workers: int | None, scheduler: str | None, output: str | None,
                     force: bool) -> None:
    """Generate endgame puzzles with one answer, as JSONL.

    Candidate positions (random splits of a shuffled deck, or self-play deals cut at a move)
    are solved; those whose side to move wins with exactly one first move, not a pass, are
    kept, with the winning line and a difficulty from the solve (nodes searched, length of
    the forced line, only-moves along it). Each record names its rules and the generator's
    seed; the same seed gives the same puzzles whatever --workers.
    """
    from ..execute import ExecuteError
    from ..puzzles.generation import generate
    rules = _load(rules_name, without)
    sizes = _sizes(cards_text)
    if output is not None:
        check_output(output, force)
    try:
        puzzles, tried = generate(rules, seats=seats, cards=sizes, count=count, seed=seed,
                                  source=source, min_difficulty=min_difficulty,
                                  seconds=limit_seconds, max_candidates=max_candidates,
                                  workers=workers, scheduler=scheduler,
                                  progress=task_progress)
    except ExecuteError as e:
        fail(str(e))
    except (DdzError, ValueError) as e:
        fail(str(e))
    text = "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in puzzles)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_output(output, text, force)
    click.echo(f"kept {len(puzzles)} of {tried} candidates ({rules.label}, seed {seed})",
               err=True)


@puzzles.command("check")
@click.argument("file", type=FileName(), metavar="FILE|-")
@rules_option
@without_option
@_limit_option
def puzzles_check(file: str, rules_name: str, without: tuple[str, ...],
                  limit_seconds: float | None) -> None:
    """Re-solve every puzzle of a JSONL file and report any whose answer differs.

    A puzzle is reported when its winner or its set of winning moves differs from the
    solver's, or when it cannot be read. Uniqueness is required only of records that claim a
    single winning move (generated puzzles): their move must be the only one (and, in a
    generated puzzle, not a pass); records listing several winning moves are checked for the
    exact set. A record with no expected answer (no "winner", no "winning_moves") is solved
    and shown as information ("no expected answer: solved as ..."), not as a problem.
    Records that name a built-in rules file (and bans, "without") are solved under it;
    others under --rules. Exit 0 when every puzzle is right, 1 when one is not, 2 when the
    file cannot be read.
    """
    from ..puzzles.catalogue import check
    rules = _load(rules_name, without)
    text = read_text(file)
    records = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            records.append((f"line {i}", json.loads(line)))
        except (json.JSONDecodeError, RecursionError) as e:
            fail(f"{file}, line {i}: not JSON: {e}")
    found = check(records, rules, seconds=limit_seconds,
                  base=None if file == "-" else Path(file).parent)
    for p in found:
        click.echo(f"{p.id}: {p.reason}")
    problems = [p for p in found if not p.info]
    click.echo(f"{len(records)} puzzles checked, {len(problems)} with a problem")
    sys.exit(ExitCode.FINDING if problems else ExitCode.DONE)
