"""The ``ddzspec`` command line (click). ``python -m ddzspec`` is the same.

Every command takes ``--rules NAME|PATH`` (default classic), ``--without SHAPE`` (repeatable),
``--notation en|fr|de`` and ``--json``. Bad input (notation, rules files) exits 2 with a located
message, never a traceback. Commands of other modules register themselves on :data:`main`;
packages outside ddzspec (the solver) add commands through the ``ddzspec.commands`` entry point.
"""

from __future__ import annotations

import sys
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

import click

from .cli_common import common_options, emit_json, fail
from .rules import Rules, load_rules

__all__ = ["main", "common_options", "emit_json", "fail"]


class _Main(click.Group):
    """The ``ddzspec`` group: commands of other packages (the solver) are loaded from the
    ``ddzspec.commands`` entry point when first listed or called, not at import time."""

    _plugins_loaded = False

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for ep in entry_points(group="ddzspec.commands"):
            if ep.name in self.commands:
                continue
            try:
                self.add_command(ep.load(), ep.name)
            except ModuleNotFoundError:  # an entry point whose package is not installed
                pass

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_plugins()
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            self._load_plugins()
        return super().get_command(ctx, cmd_name)

@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ddzspec")
def main() -> None:
    """ddzspec: Dou Dizhu rules as a declarative spec.

    Read moves, compare them, explain the unique-interpretation rules, check and diff variants.
    """


# ----------------------------------------------------------------------------- read

def reading_json(verdict: Any, notation: str) -> dict[str, Any]:
    """The JSON object of one read move: cards, legal, type, body, kickers, key, reason.
    ``kickers`` lists the kicker units joined by "+" ("5+5": two singles; "55": one pair)."""
    if verdict.legal:
        r = verdict.reading
        return {"cards": r.format(notation), "legal": True, "type": r.shape,
                "body": r.body.format(notation),
                "kickers": "+".join(u.format(notation) for u in r.units()),
                "key": r.key, "reason": None}
    out = {"cards": verdict.cards.format(notation), "legal": False, "type": None,
           "body": None, "kickers": None, "key": None, "reason": verdict.reason}
    if verdict.ambiguous:
        out["reason"] = "ambiguous: " + "; ".join(x.describe(notation) for x in verdict.readings)
        out["readings"] = [x.describe(notation) for x in verdict.readings]
    return out


@main.command()
@click.argument("moves", nargs=-1, required=True)
@common_options
def read(moves: tuple[str, ...], rules: Rules, notation: str, as_json: bool) -> None:
    """Read each MOVE: canonical cards, type, body, kickers; or illegal and why.

    A notation error in one MOVE is reported with its position among the arguments; the other
    moves are still read (text output), and the exit code is 2.
    """
    from .errors import NotationError
    from .readings import read as read_move
    verdicts: list[Any] = []
    errors: list[str] = []
    for n, m in enumerate(moves, 1):
        try:
            verdicts.append(read_move(m, rules, notation))
        except NotationError as e:
            errors.append(f"move {n} ({m!r}): {e}" if len(moves) > 1 else str(e))
            verdicts.append(None)
    if as_json:
        if errors:
            fail("\n".join(errors))
        emit_json([reading_json(v, notation) for v in verdicts])
        return
    rows = []
    for v in verdicts:
        if v is None:
            continue
        if v.legal:
            r = v.reading
            kick = "+".join(u.format(notation) for u in r.units()) or "-"
            rows.append((r.format(notation), r.shape,
                         f"body {r.body.format(notation)}  kickers {kick}"))
        elif v.ambiguous:
            rows.append((v.cards.format(notation), "AMBIGUOUS",
                         "; ".join(x.describe(notation) for x in v.readings)))
        else:
            rows.append((v.cards.format(notation), "illegal", v.reason))
    if rows:
        w0 = max(16, *(len(r[0]) + 1 for r in rows))
        w1 = max(len(r[1]) + 1 for r in rows)
        for a, b, c in rows:
            click.echo(f"{a:<{w0}} {b:<{w1}} {c}")
    if errors:
        fail("\n".join(errors))


# ----------------------------------------------------------------------------- beats

@main.command()
@click.argument("play")
@click.argument("previous")
@common_options
def beats(play: str, previous: str, rules: Rules, notation: str, as_json: bool) -> None:
    """Does PLAY beat PREVIOUS? yes/no and why."""
    from .readings import beats as beats_fn
    from .readings import read as read_move
    from .errors import NotationError
    try:
        a = read_move(play, rules, notation)
    except NotationError as e:
        fail(f"PLAY: {e}")
    try:
        b = read_move(previous, rules, notation)
    except NotationError as e:
        fail(f"PREVIOUS: {e}")
    if not b.legal:
        fail(f"PREVIOUS {b.cards.format(notation)} is not a legal move under {rules.label}, so "
             f"nothing can be compared with it: {reading_json(b, notation)['reason']}")
    if not a.legal:
        ok, why = False, f"{a.cards.format(notation)} is not a legal move: {reading_json(a, notation)['reason']}"
    else:
        ok, why = beats_fn(a.reading, b.reading, notation)
        why = f"{a.reading.describe(notation)} vs {b.reading.describe(notation)}: {why}"
    if as_json:
        emit_json({"beats": ok, "reason": why})
    else:
        click.echo(("yes: " if ok else "no: ") + why)


# ----------------------------------------------------------------------------- explain

@main.command()
@click.argument("move")
@common_options
def explain(move: str, rules: Rules, notation: str, as_json: bool) -> None:
    """Explain MOVE for teaching: its reading and the readings the restrictions rule out."""
    from .explain import explain as explain_fn
    ex = explain_fn(move, rules, notation)
    if as_json:
        emit_json({**reading_json(ex.verdict, notation),
                   "near_misses": [{"reading": c.reading.describe(notation),
                                    "ruled_out_by": [r.name for r in c.violated]}
                                   for c in ex.near_misses],
                   "elsewhere": [{"rules": n, **reading_json(v, notation)}
                                 for n, v in ex.elsewhere],
                   "explanation": list(ex.lines)})
        return
    for line in ex.lines:
        click.echo(line)


# ----------------------------------------------------------------------------- check

def table_with_progress(rules: Rules, quiet: bool = False) -> Any:
    """The move table of ``rules``, with a rich progress bar while compiling cold."""
    from .table import get_table, is_cached
    if quiet or is_cached(rules):
        return get_table(rules)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    with Progress(TextColumn("compiling {task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total} shapes"), TimeElapsedColumn(),
                  transient=True, console=_stderr_console()) as prog:
        task = prog.add_task(rules.name, total=len(rules.shapes))
        return get_table(rules, progress=lambda done, total, name: prog.update(
            task, completed=done, description=f"{rules.name}: {name}"))


def _stderr_console() -> Any:
    from rich.console import Console
    return Console(stderr=True)


@main.command()
@click.argument("rules_path", required=False, metavar="[RULES]")
@common_options
def check(rules_path: str | None, rules: Rules, notation: str,
          as_json: bool) -> None:
    """Check a rules file exhaustively: every legal move, one reading each.

    Prints the number of legal moves, the count per type, and every ambiguous multiset with all
    its readings. Exit 1 if any move is ambiguous. RULES overrides --rules.
    """
    if rules_path:
        rules = load_rules(rules_path, without=rules.without)
    table = table_with_progress(rules, quiet=as_json)
    amb = table.ambiguous_readings()
    if as_json:
        emit_json({"rules": rules.name, "without": list(rules.without), "moves": len(table),
                   "by_type": table.by_type(),
                   "ambiguous": [{"cards": c.format(notation),
                                  "readings": [x.describe(notation) for x in rs]}
                                 for c, rs in amb]})
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
        if amb:
            click.echo(f"{len(amb)} ambiguous moves (a defect of the rules file: every legal "
                       "move must have exactly one reading):")
            for c, rs in amb:
                click.echo(f"  {c.format(notation)}: "
                           + "; ".join(x.describe(notation) for x in rs))
        else:
            click.echo(f"OK: {len(table)} legal moves, each with exactly one reading.")
        never = [name for name, n in table.by_type().items() if n == 0]
        if never:
            click.echo(f"warning: no legal move has type {', '.join(never)} (the restrictions "
                       "rule out every candidate)")
    if amb:
        sys.exit(1)


# ----------------------------------------------------------------------------- plugins

for _mod in ("ddzspec.cli_variants", "ddzspec.cli_game", "ddzspec.cli_players"):
    try:
        import_module(_mod)
    except ModuleNotFoundError as _e:
        if _e.name != _mod:
            raise
