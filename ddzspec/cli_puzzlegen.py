"""``ddzspec puzzles generate`` and ``ddzspec puzzles check`` (:mod:`ddzspec.puzzlegen`): two
plain click commands, :data:`puzzles_generate` and :data:`puzzles_check`, attached to the
``puzzles`` group by :mod:`ddzspec.cli`."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import click

from .cli_common import FileName, check_output, fail, force_option, run_options, write_output
from .puzzles import MAX_COUNT
from .rules import DEFAULT_RULES


def _seconds(v: float | None) -> float | None:
    """``--limit-seconds``: a number of seconds (click's range lets NaN through)."""
    if v is not None and not math.isfinite(v):
        raise click.BadParameter(f"{v} is not a number of seconds")
    return v


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


def _load(rules_name: str, without: tuple[str, ...]) -> Any:
    from .errors import DdzError
    from .rules import load_rules
    try:
        return load_rules(rules_name, without=without)
    except DdzError as e:
        fail(str(e))


_rules_option = click.option("--rules", "rules_name", default=DEFAULT_RULES, show_default=True,
                             metavar="NAME|PATH", help="Rules file: a built-in name or a path.")
_without_option = click.option("--without", "without", multiple=True, metavar="SHAPE",
                               help="Drop a shape (repeatable), e.g. --without trio_pair.")
_limit_option = click.option("--limit-seconds", type=click.FloatRange(min=0, min_open=True),
                             default=10.0, show_default=True, metavar="S",
                             callback=lambda _c, _p, v: _seconds(v),
                             help="The solver's time limit per position.")


@click.command("generate")
@_rules_option
@_without_option
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
    from .execute import ExecuteError
    from .puzzles import generate
    rules = _load(rules_name, without)
    sizes = _sizes(cards_text)
    if output is not None:
        check_output(output, force)
    from .errors import DdzError
    try:
        puzzles, tried = generate(rules, seats=seats, cards=sizes, count=count, seed=seed,
                                  source=source, min_difficulty=min_difficulty,
                                  seconds=limit_seconds, max_candidates=max_candidates,
                                  workers=workers, scheduler=scheduler, quiet=False)
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


@click.command("check")
@click.argument("file", type=FileName(), metavar="FILE|-")
@_rules_option
@_without_option
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
    from ._io import read_input
    from .puzzles import check
    rules = _load(rules_name, without)
    try:
        text = read_input(file)
    except OSError as e:
        fail(f"cannot read {file}: {e.strerror}")
    except UnicodeDecodeError as e:
        fail(f"{file}: not a UTF-8 text file (byte {e.start})")
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
    sys.exit(1 if problems else 0)
