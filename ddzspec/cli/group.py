"""The ``ddzspec`` command line (click). ``python -m ddzspec`` is the same.

Every command takes ``--rules NAME|PATH`` (default classic), ``--without SHAPE`` (repeatable),
``--notation en|fr|de`` and ``--json``. Bad input (notation, rules files) exits 2 with a located
message, never a traceback; a usage error (a missing argument, an unknown command or option, a
bad option value, an empty file name) exits 2 with one ``ddzspec: error:`` line naming the
command; an output that cannot be written (a full disk) exits 74 with one line on stderr.

``read``, ``beats``, ``explain`` and ``check`` are defined here; the other commands live in
their own modules (:data:`LAZY_COMMANDS`), which import :mod:`ddzspec.cli_common` and never this
module, and are imported only when called or listed, so start-up stays fast. Packages outside
ddzspec add commands through the ``ddzspec.commands`` entry point.
"""

from __future__ import annotations

import errno
import os
import sys
import warnings
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any, NoReturn

import click

from .. import _entry
from ..errors import DdzWarning
from ..rules import Rules, load_rules
from .common import common_options, emit_json, fail, one_line_error, report_with_progress

__all__ = ["EXIT_OUTPUT_FAILED", "LAZY_COMMANDS", "common_options", "emit_json", "fail", "main"]

#: Commands defined in other modules: name → (module, attribute), imported on first use.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "moves": ("ddzspec.cli.game", "moves"),
    "play": ("ddzspec.cli.game", "play"),
    "replay": ("ddzspec.cli.game", "replay"),
    "arena": ("ddzspec.cli.players", "arena"),
    "balance": ("ddzspec.cli.balance", "balance"),
    "diff": ("ddzspec.cli.variants", "diff"),
    "rules": ("ddzspec.cli.rules", "rules"),
    "puzzles": ("ddzspec.cli.puzzles", "puzzles"),
    "solve": ("ddzspec.solver.cli", "solve"),
    "serve": ("ddzspec.cli.web", "serve"),
}

#: What each command is for, by topic, as ``ddzspec --help`` lists them (a plugin's command is
#: listed under "Other commands" with the first line of its help).
COMMAND_TOPICS: dict[str, dict[str, str]] = {
    "Moves": {
        "read": "each move's cards, type, body and kickers; or illegal and why",
        "beats": "does a move beat another, and why",
        "explain": "the unique-interpretation rules behind a move's reading",
        "moves": "every legal move of a hand (the hint), or every answer to a move",
    },
    "Variants": {
        "check": "every legal move of a rules file, one reading each",
        "diff": "every move whose verdict differs between two rules files",
        "balance": "variant balance from computer deals, with 95 % intervals and differences",
        "rules": "a rules file resolved after extends (show), or in words (overview)",
    },
    "Game": {
        "play": "computer self-play: a deal's transcript, or many deals' figures",
        "replay": "validate a deal record action by action; its score breakdown",
        "arena": "computer levels against each other on duplicate deals, with 95 % intervals",
    },
    "Endgames": {
        "solve": "open-hand endgame solver: winner, every winning move, exact score",
        "puzzles": "the shipped endgame puzzles; play one against the solver (puzzles play)",
    },
    "Table": {
        "serve": "the web table: play deals, puzzles and the rules in a browser",
    },
}

#: Exit code when the output cannot be written (a full disk): sysexits' EX_IOERR.
EXIT_OUTPUT_FAILED = 74


def _output_failed(e: OSError) -> NoReturn:
    """Report an OSError escaping a command (typically a write to a full device) in one line
    and exit :data:`EXIT_OUTPUT_FAILED`; a closed pipe (``| head``) exits
    :data:`EXIT_CLOSED_PIPE` silently. Standard output is pointed at the null device first,
    so that the interpreter's final flush of what is still buffered cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass
    if e.errno == errno.EPIPE:
        sys.exit(EXIT_CLOSED_PIPE)
    # an error without a file name comes from click.echo, which flushes standard output
    where = f"{e.filename}" if e.filename else "cannot write to standard output"
    try:
        click.echo(f"ddzspec: error: {where}: {e.strerror or e}", err=True)
    except OSError:
        pass
    sys.exit(EXIT_OUTPUT_FAILED)


#: Exit code after Ctrl-C (128 + SIGINT, as shells report it; the entry point's too).
EXIT_INTERRUPTED = _entry.EXIT_INTERRUPTED

#: Exit code when standard output is a closed pipe (``| head``): 128 + SIGPIPE, as shells
#: report a process killed by it; no message.
EXIT_CLOSED_PIPE = 141
_PYTHON_SHOWWARNING = warnings.showwarning


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A :class:`~ddzspec.errors.DdzWarning` as one ``ddzspec: warning: …`` line on stderr
    (no source path or code line); any other warning as Python shows it."""
    if issubclass(category, DdzWarning):
        text = str(message).removeprefix("ddzspec: ")
        click.echo(f"ddzspec: warning: {text}", err=True)
    else:
        _PYTHON_SHOWWARNING(message, category, filename, lineno, file, line)


class _Main(click.Group):
    """The ``ddzspec`` group: loads :data:`LAZY_COMMANDS` and the ``ddzspec.commands`` entry
    points when first listed or called, not at import time; turns an OSError (a full disk)
    into a one-line error, and a usage error of any command (a missing argument, an unknown
    command, a bad option value) into one ``ddzspec: error:`` line (:func:`one_line_error`)
    instead of click's usage block; help shown for no arguments stays help."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.ClickException as e:
            one_line_error(e)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # Ctrl-C: one line and the shell's code for SIGINT
            click.echo("\nddzspec: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except BrokenPipeError as e:  # before click's own handler, which exits 1
            _output_failed(e)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.ClickException as e:
            one_line_error(e)

    _plugins_loaded = False

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        for ep in entry_points(group="ddzspec.commands"):
            if ep.name in self.commands or ep.name in LAZY_COMMANDS:
                continue
            try:
                self.add_command(ep.load(), ep.name)
            except ModuleNotFoundError:  # an entry point whose package is not installed
                pass

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_plugins()
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            if cmd_name in LAZY_COMMANDS:
                module, attr = LAZY_COMMANDS[cmd_name]
                self.add_command(getattr(import_module(module), attr), cmd_name)
            else:
                self._load_plugins()
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands by topic (:data:`COMMAND_TOPICS`) without importing them."""
        names = self.list_commands(ctx)
        known = {n for topic in COMMAND_TOPICS.values() for n in topic}
        for topic, commands in COMMAND_TOPICS.items():
            with formatter.section(f"{topic} commands"):
                formatter.write_dl([(n, h) for n, h in commands.items() if n in names])
        others = []
        for n in names:
            cmd = self.get_command(ctx, n) if n not in known else None
            if cmd is not None and not cmd.hidden:
                others.append((n, cmd.get_short_help_str(formatter.width - 6 - len(n))))
        if others:
            with formatter.section("Other commands"):
                formatter.write_dl(others)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line; flush standard output before exiting so that a write error
        is reported here, in one line, not as a traceback at interpreter exit. ddzspec's own
        warnings (an untrusted cache file) are one ``ddzspec: warning:`` line each."""
        warnings.showwarning = _show_warning
        try:
            try:
                return super().main(*args, **kwargs)
            except OSError as e:  # click handles a closed pipe itself; anything else lands here
                _output_failed(e)
            finally:
                sys.stdout.flush()
        except OSError as e:
            _output_failed(e)


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ddzspec")
def main() -> None:
    """ddzspec: Dou Dizhu and its variants as a declarative spec, one rules file a variant.

    \b
    Most commands take --rules NAME|PATH (built in: classic, kawu, duel,
    duel-literal), --without SHAPE, --notation en|fr|de and --json;
    `ddzspec COMMAND --help` says more.

    \b
    Exit codes: 0 done; 1 a finding (ambiguous moves, a difference, an invalid
    record action, a batch answer differing from the expected one); 2 bad input;
    3 unknown (a solver limit stopped the search); 74 the output could not be
    written (a full disk); 130 interrupted (Ctrl-C); 141 standard output was a
    closed pipe (`| head`; no message).
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
    from ..errors import NotationError
    from ..readings import read as read_move
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
    from ..errors import NotationError
    from ..readings import beats as beats_fn
    from ..readings import read as read_move
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
        ok = False
        why = (f"{a.cards.format(notation)} is not a legal move: "
               f"{reading_json(a, notation)['reason']}")
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
    from ..explain import explain as explain_fn
    ex = explain_fn(move, rules, notation)
    if as_json:
        emit_json({**reading_json(ex.verdict, notation),
                   "near_misses": [{"reading": c.reading.describe(notation),
                                    "ruled_out_by": [r.name for r in c.violated]}
                                   for c in ex.near_misses],
                   "elsewhere": [{"rules": n, **reading_json(v, notation)}
                                 for n, v in ex.elsewhere],
                   "nearest": ex.to_json(notation)["nearest"],
                   "explanation": list(ex.lines)})
        return
    for line in ex.lines:
        click.echo(line)


# ----------------------------------------------------------------------------- check

#: Ambiguous moves ``check`` prints (smallest first); ``--json`` lists every one.
_SHOWN_AMBIGUOUS = 200

@main.command()
@click.argument("rules_path", required=False, metavar="[RULES]")
@common_options
def check(rules_path: str | None, rules: Rules, notation: str,
          as_json: bool) -> None:
    """Check a rules file exhaustively: every legal move, one reading each.

    Prints the number of legal moves, the count per type, and every ambiguous multiset with all
    its readings. Exit 1 if any move is ambiguous, a shape has no legal move, or a rank of the
    deck cannot be played as a lone card (a leader could be stuck): play and solve refuse such
    rules. Give the rules as RULES or --rules, not both.
    """
    from click.core import ParameterSource
    if rules_path is not None:
        if click.get_current_context().get_parameter_source("rules_name") \
                is not ParameterSource.DEFAULT:
            fail(f"the rules are given twice: RULES {rules_path!r} and --rules; give one")
        rules = load_rules(rules_path, without=rules.without)
    table = report_with_progress(rules, quiet=as_json)
    from ..check import lone_card_problem, never_played_problem
    lone = lone_card_problem(rules)
    n_amb = len(table.ambiguous)
    amb = table.ambiguous_readings(None if as_json else _SHOWN_AMBIGUOUS)
    never = table.never_played()
    if as_json:
        emit_json({"rules": rules.name, "without": list(rules.without), "moves": len(table),
                   "by_type": table.by_type(), "never_played": never,
                   "unplayable": [lone] if lone else [],
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
            click.echo(f"{n_amb} ambiguous moves (a defect of the rules file: every legal "
                       "move must have exactly one reading):")
            for c, rs in amb:
                click.echo(f"  {c.format(notation)}: "
                           + "; ".join(x.describe(notation) for x in rs))
            if n_amb > len(amb):
                click.echo(f"  ... and {n_amb - len(amb)} more (--json lists them all)")
        if never:
            click.echo(f"{never_played_problem(never)}: a defect of the rules file (play and "
                       "solve refuse it); drop the shape or loosen the restrictions")
        if lone:
            click.echo(f"{lone}: a defect of the rules file (play and solve refuse it); add a "
                       "one-card shape over every rank (e.g. single = 1 x 1)")
        if not amb and not never and not lone:
            click.echo(f"OK: {len(table)} legal moves, each with exactly one reading.")
    if amb or never or lone:
        sys.exit(1)
