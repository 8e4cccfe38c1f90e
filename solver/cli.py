"""``ddzspec solve``: the endgame solver on the command line (``ddzspec.solver.cli``, loaded by
:mod:`ddzspec.cli.group` when first called; its options and helpers are
:mod:`ddzspec.cli.common`'s).

Owns the ``solve`` command: one position (a file, ``-``, or ``--landlord`` / ``--peasant`` /
``--to-move``), root splitting (``--workers N``, :mod:`ddzspec.solver.split`) and batches
(``--batch FILE.jsonl``, on :mod:`ddzspec.execute`, each line run by :func:`batch_task`);
their text and ``--json`` output; the position format its help shows (:data:`POSITION_FORMAT`);
the exit codes (:class:`~ddzspec.cli.exits.ExitCode`; :func:`batch_exit_code` for a batch):
0 solved, 1 a batch answer differs from the expected one, 2 bad input, 3 a limit stopped the
search.

Every option and output: docs/solver.md ("Options, JSON and batches", and "Design notes,
module by module").
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from ddzspec._resources import data_dir
from ddzspec.cards import Cards, parse_cards
from ddzspec.cli.common import (
    FileName,
    common_options,
    emit_json,
    fail,
    finite_seconds,
    read_text,
    task_progress,
)
from ddzspec.cli.exits import ExitCode
from ddzspec.errors import DdzError, NotationError
from ddzspec.rules import Rules
from ddzspec.solver import COMPILED

from .position import (
    Position,
    PositionError,
    make_position,
    parse_position,
    position_from_puzzle,
    read_cards,
    seat_index,
    side_of_winner,
)
from .search import SolveResult
from .search import solve as solve_position
from .split import solve_split

#: The position format, as ``solve --help`` shows it (``\b``: click keeps the lines).
POSITION_FORMAT = """\b
Position format (one statement a line, # comments):
  rules NAME|PATH [without SHAPE, ...]   notation en|fr|de (before any cards)
    (a relative PATH is found from the position file's folder)
  landlord: CARDS   peasant: CARDS       (three seats: peasant1: and peasant2:)
  to_move: SEAT
  on_table: CARDS by SEAT   passes: 0|1  (optional: the move to beat)
  target SEAT: N|robs   robs N   base N   multiplier N
  played landlord: none|lead|more   played peasants: no|yes   (spring)
  pair SEAT: N   (a peasant's own factor)   bombs N   (counted, cap bombs)
  shown SEAT ...   (the seats that showed their hands)
  wild RANK   (the drawn wild rank, rules with wild cards; a * in the cards is a card
    of it; on_table: 8887=888+7 by SEAT says what a wild move on the table reads as, and
    so does --on-table 8887=888+7)"""


def result_json(pos: Position, res: SolveResult) -> dict[str, Any]:
    """The JSON of one solved position: :meth:`SolveResult.to_json`, plus ``"shown"`` (the
    seats that showed their hands, by name) when the position records any."""
    out = res.to_json()
    if pos.shown:
        out["shown"] = [pos.seats[i] for i in pos.shown]
    return out


def _print_result(pos: Position, res: SolveResult, show_all: bool, score: bool) -> None:
    if pos.shown:
        click.echo("shown: " + ", ".join(pos.seats[i] for i in pos.shown))
    if res.status != "solved":
        click.echo(f"unknown: {res.reason} (nodes {res.nodes:,}, {res.seconds:.2f} s)")
        return
    mover = pos.seats[pos.to_move]
    click.echo(f"winner: {res.winner} ({mover}, to move, "
               f"{'wins' if res.to_move_wins else 'loses'})")
    if res.winning_moves is not None:
        if res.winning_moves:
            if show_all:  # every one, in the solver's order (singles first, weakest first)
                click.echo("winning moves: " + ", ".join(res.winning_moves))
            else:  # the one the printed line starts with
                first = res.winning_moves[0]
                if res.line and res.line[0].cards in res.winning_moves:
                    first = res.line[0].cards
                click.echo(f"winning move: {first}")
            if not show_all and len(res.winning_moves) > 1:
                click.echo(f"  ({len(res.winning_moves) - 1} more: --all lists them)")
            elif not show_all:
                click.echo("  (--all lists every one)")
        else:
            click.echo("winning moves: none")
    if res.score is not None:
        click.echo("score: " + ", ".join(f"{s} {v:+d}" for s, v in res.score.items()))
        if res.best_moves:
            click.echo("best moves for the score: " + ", ".join(res.best_moves))
    if res.line:
        click.echo("line: " + " · ".join(f"{p.seat} {p.cards}" for p in res.line))
    click.echo(f"nodes {res.nodes:,}, table entries {res.table_entries:,}, "
               f"{res.seconds:.3f} s")


def _batch_one(item: tuple[str, str, str, float | None, Rules, str, str | None]
               ) -> dict[str, Any]:
    """Solve one batch line in a worker process: (id, JSON line, want, seconds, rules used when
    a position has no rules line and for puzzle records, notation, the folder a relative
    rules path of a position is resolved from: the batch file's) → JSON."""
    ident, line, want, seconds, rules, notation, base = item
    try:
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            return {"id": ident, "status": "error", "error": f"not JSON: {e}"}
        if not isinstance(rec, dict):
            return {"id": ident, "status": "error",
                    "error": "a line must be a JSON object: a puzzle record or "
                             '{"id", "position"}'}
        if "position" in rec:
            if not isinstance(rec["position"], str):
                return {"id": ident, "status": "error",
                        "error": '"position" must be the text of a position'}
            pos = parse_position(rec["position"], source=f"position {ident}",
                                 rules=rules, notation=notation, base=base)
        else:
            if rec.get("seats", 2) != 2 or "third" in rec.get("hands", {}):
                return {"id": ident, "status": "error",
                        "error": "a puzzle record has two seats (first, second); write a "
                                 'three-seat position as {"id", "position"}'}
            pos = position_from_puzzle(rec, rules)
        if "position" in rec and "winner" in rec:
            rec = {**rec, "winner": side_of_winner(rec["winner"], pos.n_seats)}
        words = _SIDE_WORDS["position" if "position" in rec else "puzzle"]
        expect = _expectation(rec, words, pos.notation)  # checked before the (long) search
        res = solve_position(pos, want=want, seconds=seconds)  # type: ignore[arg-type]
        out = {"id": ident, **result_json(pos, res)}
        if expect is not None:
            winner, moves = expect
            mine = None if res.winning_moves is None else _move_set(res.winning_moves, pos.notation)
            # in the solver's words (landlord, peasants), as the row's own winner
            side = next(k for k, v in words.items() if v == winner)
            out["expected"] = {"winner": side, "winning_moves": rec["winning_moves"]}
            out["expected_agrees"] = (res.status == "solved"
                                      and words.get(res.winner or "") == winner
                                      and (mine is None or mine == moves))
        return out
    except (DdzError, ValueError, KeyError, TypeError, AttributeError) as e:
        return {"id": ident, "status": "error", "error": str(e)}


#: The words a batch line names the winning side with: a ``{"id", "position"}`` line uses the
#: solver's own sides; a shared puzzle record names its seats ``first`` (the landlord's seat)
#: and ``second``.
_SIDE_WORDS = {"position": {"landlord": "landlord", "peasants": "peasants"},
               "puzzle": {"landlord": "first", "peasants": "second"}}


class ExpectationError(ValueError):
    """A batch line's expected answer is partial or badly typed (the line is an error row)."""


def _move_set(moves: Sequence[str], notation: str) -> list[tuple[int, ...] | tuple[str]]:
    """Moves as sorted rank counts (``PASS`` kept as is), to compare regardless of order."""
    return sorted((("PASS",) if m == "PASS" else parse_cards(m, notation).cards.counts
                   for m in moves), key=repr)


def _expectation(rec: dict[str, Any], words: dict[str, str], notation: str
                 ) -> tuple[str, list[tuple[int, ...] | tuple[str]]] | None:
    """The expected answer of a batch line: (winner word, winning moves as :func:`_move_set`),
    or None when the line states none. ``winner`` and ``winning_moves`` go together: one
    without the other, a winner not in ``words`` or moves that are not a list of card strings
    raise :class:`ExpectationError`."""
    has_w, has_m = "winner" in rec, "winning_moves" in rec
    if not has_w and not has_m:
        return None
    if has_w != has_m:
        given, lacking = ("winner", "winning_moves") if has_w else ("winning_moves", "winner")
        raise ExpectationError(f'expected answer: "{given}" given without "{lacking}" '
                               "(give both, or neither)")
    sides = sorted(set(words.values()))
    if rec["winner"] not in sides:
        raise ExpectationError(f'expected answer: "winner" must be {" or ".join(map(repr, sides))}'
                               f", not {json.dumps(rec['winner'])[:40]}")
    moves = rec["winning_moves"]
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ExpectationError('expected answer: "winning_moves" must be a list of card '
                               'strings ("PASS" for a pass), e.g. ["33", "PASS"]')
    return rec["winner"], _move_set(moves, notation)


def row_status(row: dict[str, Any]) -> int:
    """The exit code one batch row stands for: 2 a line that cannot be read or solved, 1 an
    answer differing from the record's expected one, 3 unknown (a limit), 0 solved."""
    if row["status"] == "error":
        return ExitCode.BAD_INPUT
    if row.get("expected_agrees") is False:
        return ExitCode.FINDING
    if row["status"] != "solved":
        return ExitCode.UNKNOWN
    return ExitCode.DONE


def batch_exit_code(rows: list[dict[str, Any]]) -> int:
    """The worst status among a batch's rows, worst first: 2 (a bad line) > 1 (an answer
    differs from the expected one) > 3 (unknown) > 0 (all solved); 0 for an empty batch.

    >>> batch_exit_code([{"status": "solved"}, {"status": "unknown"}])
    3
    >>> batch_exit_code([{"status": "unknown"}, {"status": "solved", "expected_agrees": False}])
    1
    """
    order = (ExitCode.DONE, ExitCode.UNKNOWN, ExitCode.FINDING, ExitCode.BAD_INPUT)
    return int(max((row_status(r) for r in rows), key=order.index, default=ExitCode.DONE))


def batch_task(ident: str, line: str, want: str, seconds: float | None,
               rules: dict[str, Any], notation: str, base: str | None = None
               ) -> dict[str, Any]:
    """One batch line as a task of :mod:`ddzspec.execute` (JSON-able arguments; ``rules`` as
    :func:`ddzspec.execute.rules_ref` writes them; ``base``: the batch file's folder, where a
    relative rules path of a position is found): the row :func:`_batch_one` returns."""
    from ddzspec.execute import rules_of
    return _batch_one((ident, line, want, seconds, rules_of(rules), notation, base))


def _run_batch(path: str, workers: int, want: str, seconds: float | None,
               as_json: bool, rules: Rules, notation: str, scheduler: str | None = None,
               output: str | None = None) -> None:

    from ddzspec.execute import ROW_KEY, ExecuteError, Task, rules_ref, run
    text = read_text(path)
    ref = rules_ref(rules)
    base = None if path == "-" else str(Path(path).resolve().parent)
    tasks = []
    first_line: dict[str, int] = {}  # id → the line it first appears on
    duplicates: dict[str, str] = {}  # task id → the error of a line (a reused or bad id)
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            continue
        ident = f"line {i}"
        try:
            obj = json.loads(line)
            if isinstance(obj, dict) and "id" in obj:
                if isinstance(obj["id"], str) or (isinstance(obj["id"], int)
                                                  and not isinstance(obj["id"], bool)):
                    ident = str(obj["id"])
                else:
                    duplicates[f"line {i:08d}"] = (f'line {i}: "id" must be a string (or a '
                                                   f"whole number), not "
                                                   f"{json.dumps(obj['id'])[:40]}")
        except (json.JSONDecodeError, RecursionError):
            pass  # reported on its own row
        if ident in first_line:
            duplicates[f"line {i:08d}"] = (f"line {i}: duplicate id {ident!r} (first on line "
                                           f"{first_line[ident]}); ids must be unique")
        first_line.setdefault(ident, i)
        tasks.append(Task.of(f"line {i:08d}", batch_task, ident=ident, line=line, want=want,
                             seconds=seconds, rules=ref, notation=notation, base=base))
    header = {"command": "solve --batch", "sha256": hashlib.sha256(text.encode()).hexdigest(),
              "want": want, "limit_seconds": seconds, "rules": ref, "notation": notation}
    try:
        rows = run(tasks, workers=workers, scheduler=scheduler, output=output, header=header,
                   label="solving", progress=task_progress)
    except ExecuteError as e:
        fail(str(e))
    results = [{"id": r["id"], "status": "error", "error": duplicates[r[ROW_KEY]]}
               if r[ROW_KEY] in duplicates else {k: v for k, v in r.items() if k != ROW_KEY}
               for r in rows]
    code = batch_exit_code(results)
    if as_json:
        for r in results:
            emit_json(r)
        sys.exit(code)
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table
    t = Table(title=f"{len(results)} positions")
    for col in ("id", "status", "winner", "winning moves", "nodes", "seconds", "expected"):
        t.add_column(col, justify="right" if col in ("nodes", "seconds") else "left")
    total_s = 0.0
    for r in results:
        if r["status"] == "error":
            t.add_row(escape(r["id"]), "error", "", "", "", "", "")
            continue
        total_s += r["seconds"]
        exp = r.get("expected_agrees")
        shown = "" if exp is None else "agrees" if exp else "DIFFERS"
        if exp is False and isinstance(r.get("expected"), dict):
            answer = r["expected"]
            shown += (f": expected {answer.get('winner')}, "
                      f"{', '.join(map(str, answer.get('winning_moves') or [])) or 'no move'}")
        t.add_row(escape(r["id"]), r["status"], r["winner"] or "-",
                  escape(", ".join(r["winning_moves"] or [])), f"{r['nodes']:,}",
                  f"{r['seconds']:.3f}", escape(shown))
    Console(width=None if sys.stdout.isatty() else 160).print(t)
    errors = [r for r in results if r["status"] == "error"]
    for r in errors:
        click.echo(f"error in {r['id']}: {r['error']}")
    solved = sum(r["status"] == "solved" for r in results)
    bad = sum(r.get("expected_agrees") is False for r in results)
    unknown = sum(r["status"] == "unknown" for r in results)
    click.echo(f"solved {solved}/{len(results)}; total search time {total_s:.2f} s"
               + (f"; {unknown} unknown (limit reached)" if unknown else "")
               + (f"; {bad} differ from the expected answer" if bad else "")
               + (f"; {len(errors)} line(s) in error" if errors else ""))
    sys.exit(code)


def _check_file_options(file: str, pos: Position, rules: Rules, notation: str) -> None:
    """Exit 2 when --rules/--without or --notation were given but the position FILE names its
    own rules or notation (its lines win: the options would be ignored without a word)."""
    ctx = click.get_current_context()
    file = "the position on stdin" if file == "-" else file
    given = {name for name in ("rules_name", "without", "notation")
             if ctx.get_parameter_source(name) is not ParameterSource.DEFAULT}
    if given & {"rules_name", "without"} and pos.rules is not rules:
        fail(f"{file} names its rules on its 'rules' line: --rules/--without do not apply to it "
             "(drop them, or change that line, e.g. 'rules classic without trio_pair')")
    if "notation" in given and pos.notation != notation:
        fail(f"{file} has a 'notation {pos.notation}' line: --notation {notation} does not apply "
             "to it (drop the option, or change that line)")


def _cards_option(option: str, text: str, rules: Rules, notation: str,
                  wild: str | None = None, within: str | None = None) -> Cards:
    """The cards given to ``option`` (e.g. ``--peasant``; a ``*``: a card of the ``--wild``
    rank); ``within``: the whole value when ``text`` is what a wild move on the table reads
    as, after its ``=`` (natural ranks only). A notation error or a bad wild rank exits 2
    naming the option and its value (the column in the whole value)."""
    try:
        return read_cards(text, rules, notation, wild, reading=within is not None)
    except NotationError as e:
        if within is not None:
            by = len(within) - len(text)
            e = NotationError(e.message, within, None if e.column is None else e.column + by,
                              e.offending)
        fail(f"{option} {within if within is not None else text!r}: {e}")
    except PositionError as e:
        fail(f"--wild {wild!r}: {e}")


def _seat_option(option: str, seat: str, seats: tuple[str, ...],
                 named: tuple[str, ...] | None = None) -> str:
    """A seat given to ``option`` (``--to-move``, ``--played-by``), checked against ``seats``
    as a position file's seat is (:func:`~ddzspec.solver.position.seat_index`: ``peasant1``
    and ``peasant2`` are refused with two seats); exits 2 naming the option and the seats
    expected (``named``, when the option takes only some of them: ``--pair`` the peasants)."""
    try:
        return seats[seat_index(seat, seats)]
    except PositionError as e:  # a peasant of the wrong count of seats: the rule's message
        why = str(e) if seat in ("peasant", "peasant1", "peasant2") else (
            f"unknown seat; expected one of {', '.join(named or seats)}")
        fail(f"{option} {seat!r}: {why}")


@click.command("solve", epilog=POSITION_FORMAT + "\n\n\b\nFull grammar: "
               + str(data_dir("grammar") / "position.lark") + "\nSolver core: "
               + ("compiled (mypyc)" if COMPILED else "pure Python"))
@click.argument("file", required=False, metavar="[FILE|-]")
@click.option("--landlord", metavar="CARDS", help="The landlord's hand (quick use).")
@click.option("--peasant", "peasants", multiple=True, metavar="CARDS",
              help="A peasant's hand; twice for three seats (peasant1, then peasant2).")
@click.option("--to-move", metavar="SEAT",
              help="landlord | peasant | peasant1 | peasant2.")
@click.option("--on-table", metavar="CARDS", help="The move to beat (mid-trick).")
@click.option("--played-by", metavar="SEAT", help="Who played the move on the table.")
@click.option("--robs", type=int, help="Duel: robs (the peasant's handicap and multiplier); "
              "other rules carry robs in --multiplier.")
@click.option("--base", type=int, default=1, show_default=True, help="Base of the deal.")
@click.option("--multiplier", type=int, help="Multiplier so far.")
@click.option("--pair", "pairs", multiple=True, metavar="SEAT:N",
              help="A peasant's own factor (its settlement alone); once per peasant.")
@click.option("--bombs", type=int, help="Multiplying plays counted so far (cap bombs).")
@click.option("--shown", multiple=True, metavar="SEAT", help="A seat that showed its hand.")
@click.option("--wild", metavar="RANK",
              help="The drawn wild rank (rules with wild cards, e.g. --rules laizi --wild 7): "
                   "the cards of that rank in the hands are wild.")
@click.option("--all", "show_all", is_flag=True,
              help="List every winning move (without it: the first one proven).")
@click.option("--score", is_flag=True, help="Also the exact score under best play.")
@click.option("--limit-seconds", type=click.FloatRange(min=0, min_open=True, max=1e9),
              metavar="S", callback=finite_seconds,
              help="Give up after S seconds: the answer is 'unknown' (exit 3).")
@click.option("--batch", metavar="FILE.jsonl",
              help="Solve many positions (one JSON per line; ids unique: a repeated id is an "
                   "error row).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes: --batch solves positions in parallel (a Dask local cluster "
                   "when Dask is installed); one position is split at its root, each move "
                   "solved in a process (not with --score). 1: one search in this process.")
@click.option("--scheduler", metavar="tcp://HOST:PORT",
              help="Run --batch, or one position split at its root, on a running Dask "
                   "scheduler and its workers.")
@click.option("--output", type=FileName(), metavar="FILE.jsonl",
              help="--batch: also write each row there as it completes; rerun to resume.")
@common_options
def solve(file: str | None, landlord: str | None, peasants: tuple[str, ...],
          to_move: str | None, on_table: str | None, played_by: str | None,
          robs: int | None, base: int, multiplier: int | None, pairs: tuple[str, ...],
          bombs: int | None, shown: tuple[str, ...], wild: str | None, show_all: bool,
          score: bool,
          limit_seconds: float | None, batch: str | None, workers: int,
          scheduler: str | None, output: str | None, rules: Rules,
          notation: str, as_json: bool) -> None:
    """Solve an open-hand endgame: the winner, the winning moves, the line of best play.

    FILE (or - for stdin) holds a position in the format shown below; or give the hands with
    --landlord/--peasant and --to-move. The winner is a side: landlord or peasants (also
    with one peasant), in text and JSON alike.

    \b
    Exit codes: 0 solved; 2 bad input; 3 a limit stopped the search (the answer
    is "unknown"). --batch exits with the worst status of its rows: 2 if a line
    cannot be read or solved, else 1 if an answer differs from the one the line
    expects (its "winner"/"winning_moves"), else 3 if a position is unknown, else 0.
    """
    want = "score" if score else "all" if show_all else "one"
    if not batch and output is not None:
        fail("--output can only go with --batch (it writes its rows)")
    if file is not None or batch:
        # a position's own options: a file (or a batch line) has its own lines for them, and
        # the options would be ignored without a word
        ctx = click.get_current_context()
        named = [f"--{n.replace('_', '-')}" for n in ("to_move", "on_table", "played_by",
                                                      "robs", "base", "multiplier", "pairs",
                                                      "bombs", "shown", "wild")
                 if ctx.get_parameter_source(n) is not ParameterSource.DEFAULT]
        if named:
            fail(f"{', '.join(named).replace('--pairs', '--pair')} go with --landlord/--peasant "
                 "(a position file has its own 'to_move', 'on_table', 'robs', 'base', "
                 "'multiplier', 'pair', 'bombs', 'shown' and 'wild' lines)")
    split = not batch and (workers > 1 or scheduler is not None)
    if split and score:
        fail("--score is solved in one process: drop --workers/--scheduler (or use --batch)")
    if batch:
        if file is not None or landlord is not None or peasants:
            fail("--batch takes no position FILE, --landlord or --peasant")
        _run_batch(batch, workers, "score" if score else "all", limit_seconds, as_json, rules,
                   notation, scheduler, output)
        return
    if file is not None:
        if landlord is not None or peasants:
            fail("give a position FILE or --landlord/--peasant, not both")
        text = read_text(file)
        pos = parse_position(text, source="<stdin>" if file == "-" else file,
                             notation=notation, rules=rules,
                             base=None if file == "-" else Path(file).parent)
        _check_file_options(file, pos, rules, notation)
    else:
        # an empty value is given, not missing: _cards_option / _seat_option name it
        if landlord is None or not peasants or to_move is None:
            fail("give a position FILE, or --landlord, --peasant (once or twice) and --to-move")
            return
        if len(peasants) > 2:
            fail("at most two --peasant hands")
        names = ("peasant",) if len(peasants) == 1 else ("peasant1", "peasant2")
        hands = {"landlord": _cards_option("--landlord", landlord, rules, notation, wild),
                 **{n: _cards_option("--peasant", h, rules, notation, wild)
                    for n, h in zip(names, peasants)}}
        if (on_table is None) != (played_by is None):
            fail("--on-table and --played-by go together")
        seats = ("landlord", *names)
        _seat_option("--to-move", to_move, seats)
        table = read_as = None
        if on_table is not None and played_by is not None:
            # 8887=888+7: the cards played, then what they read as (as a position file's)
            played, eq, read = on_table.partition("=")
            table = _cards_option("--on-table", played if eq else on_table, rules, notation,
                                  wild)
            if eq:
                read_as = _cards_option("--on-table", read, rules, notation, wild, on_table)
            _seat_option("--played-by", played_by, seats)
        own: dict[str, int] = {}
        for given in pairs:
            seat, _, factor = given.partition(":")
            if not factor.isdigit():
                fail(f"--pair {given!r}: expected SEAT:N, e.g. peasant1:2")
            name = _seat_option("--pair", seat, seats, seats[1:])
            if name in own:
                fail(f"--pair: the factor of {name} given twice")
            own[name] = int(factor)
        pos = make_position(rules, hands, to_move, on_table=table, played_by=played_by,
                            robs=robs, base=base, multiplier=multiplier, notation=notation,
                            pairs=own, bombs=bombs,
                            shown=[_seat_option("--shown", s, seats) for s in shown],
                            wild=wild, on_table_as=read_as)
    if split:
        from ddzspec.execute import ExecuteError
        try:
            res = solve_split(pos, want=want,  # type: ignore[arg-type]
                              workers=workers, scheduler=scheduler, seconds=limit_seconds)
        except ExecuteError as e:
            fail(str(e))
    else:
        res = solve_position(pos, want=want, seconds=limit_seconds)  # type: ignore[arg-type]
    if as_json:
        emit_json(result_json(pos, res))
    else:
        _print_result(pos, res, show_all, score)
    if res.status != "solved":
        sys.exit(ExitCode.UNKNOWN)
