"""The ``ddzspec`` command group (click). ``python -m ddzspec`` is the same.

Most commands take ``--rules NAME|PATH`` (default classic), ``--without SHAPE`` (repeatable),
``--notation en|fr|de`` and ``--json``. Bad input (notation, rules files) exits 2 with a located
message, never a traceback; a usage error (a missing argument, an unknown command or option, a
bad option value, an empty file name) exits 2 with one ``ddzspec: error:`` line naming the
command; an output that cannot be written (a full disk) exits 74 with one line on stderr
(:class:`~ddzspec.cli.exits.ExitCode`).

Every command is a record of :data:`COMMANDS` (name, help topic, ``module:function``, summary);
its module (one per topic, importing :mod:`ddzspec.cli.common` and never this module) is
imported only when the command is called, so ``ddzspec --help`` and start-up stay fast.
"""

from __future__ import annotations

import errno
import os
import sys
import warnings
from dataclasses import dataclass
from importlib import import_module
from typing import Any, NoReturn

import click

from ..errors import DdzWarning
from .common import one_line_error
from .exits import ExitCode

__all__ = ["COMMANDS", "Command", "main"]


@dataclass(frozen=True)
class Command:
    """One command of the group: its ``name``, its help ``topic``, where it is defined
    (``target``: ``"module:function"``) and the one-line ``summary`` ``--help`` shows."""

    name: str
    topic: str
    target: str
    summary: str

    def load(self) -> click.Command:
        """The click command, its module imported (on first use)."""
        module, _, attr = self.target.partition(":")
        command: click.Command = getattr(import_module(module), attr)
        return command


#: Every command, in the order ``ddzspec --help`` lists them under their topics.
COMMANDS: tuple[Command, ...] = (
    Command("read", "Moves", "ddzspec.cli.moves:read",
            "each move's cards, type, body and kickers; or illegal and why"),
    Command("beats", "Moves", "ddzspec.cli.moves:beats", "does a move beat another, and why"),
    Command("explain", "Moves", "ddzspec.cli.moves:explain",
            "the unique-interpretation rules behind a move's reading"),
    Command("moves", "Moves", "ddzspec.cli.moves:moves",
            "every legal move of a hand (the hint), or every answer to a move"),
    Command("check", "Variants", "ddzspec.cli.variants:check",
            "every legal move of a rules file, one reading each"),
    Command("diff", "Variants", "ddzspec.cli.variants:diff",
            "every move whose verdict differs between two rules files"),
    Command("balance", "Variants", "ddzspec.cli.variants:balance",
            "variant balance from computer deals, with 95 % intervals and differences"),
    Command("rules", "Variants", "ddzspec.cli.variants:rules",
            "a rules file resolved after extends (show), or in words (overview)"),
    Command("play", "Game", "ddzspec.cli.game:play",
            "computer self-play: a deal's transcript, or many deals' figures"),
    Command("replay", "Game", "ddzspec.cli.game:replay",
            "validate a deal record action by action; its score breakdown"),
    Command("arena", "Game", "ddzspec.cli.players:arena",
            "computer levels against each other on duplicate deals, with 95 % intervals"),
    Command("solve", "Endgames", "ddzspec.solver.cli:solve",
            "open-hand endgame solver: winner, every winning move, exact score"),
    Command("puzzles", "Endgames", "ddzspec.cli.puzzles:puzzles",
            "the shipped endgame puzzles; play one against the solver (puzzles play)"),
    Command("serve", "Table", "ddzspec.cli.web:serve",
            "the web table: play deals, puzzles and the rules in a browser"),
)

_BY_NAME = {c.name: c for c in COMMANDS}


def _closed_streams() -> None:
    """A standard stream closed when ddzspec started (``>&-``, ``<&-``: Python makes it None):
    a closed standard error or input becomes the null device (input then ends at once, as an
    empty file would), a closed standard output is one ``ddzspec: error:`` line and
    ``ExitCode.OUTPUT_FAILED`` before any work."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the run
    if sys.stdin is None:
        sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - for the run
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the run
        sys.stderr.write("ddzspec: error: standard output is closed\n")
        sys.exit(ExitCode.OUTPUT_FAILED)


def _output_failed(e: OSError) -> NoReturn:
    """Report an OSError escaping a command (typically a write to a full device) in one line
    and exit ``ExitCode.OUTPUT_FAILED``; a closed pipe (``| head``) exits
    ``ExitCode.CLOSED_PIPE`` silently. Standard output is pointed at the null device first,
    so that the interpreter's final flush of what is still buffered cannot fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass
    if e.errno == errno.EPIPE:
        sys.exit(ExitCode.CLOSED_PIPE)
    # an error without a file name comes from click.echo, which flushes standard output
    where = f"{e.filename}" if e.filename else "cannot write to standard output"
    try:
        click.echo(f"ddzspec: error: {where}: {e.strerror or e}", err=True)
    except OSError:
        pass
    sys.exit(ExitCode.OUTPUT_FAILED)


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
    """The ``ddzspec`` group: loads a command of :data:`COMMANDS` when it is called, not at
    import time; turns an OSError (a full disk) into a one-line error, and a usage error of
    any command (a missing argument, an unknown command, a bad option value) into one
    ``ddzspec: error:`` line (:func:`one_line_error`) instead of click's usage block; help
    shown for no arguments stays help."""

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
            sys.exit(ExitCode.INTERRUPTED)
        except BrokenPipeError as e:  # before click's own handler, which exits 1
            _output_failed(e)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.ClickException as e:
            one_line_error(e)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(_BY_NAME))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in _BY_NAME:
            self.add_command(_BY_NAME[cmd_name].load(), cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands by topic (:data:`COMMANDS`) without importing them."""
        for topic in dict.fromkeys(c.topic for c in COMMANDS):
            with formatter.section(f"{topic} commands"):
                formatter.write_dl([(c.name, c.summary) for c in COMMANDS if c.topic == topic])

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command line; flush standard output before exiting so that a write error
        is reported here, in one line, not as a traceback at interpreter exit. ddzspec's own
        warnings (an untrusted cache file) are one ``ddzspec: warning:`` line each."""
        warnings.showwarning = _show_warning
        _closed_streams()
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
    duel-literal, happy, hebei, laizi, tiandi), --without SHAPE, --notation
    en|fr|de and --json; `ddzspec COMMAND --help` says more.

    \b
    Exit codes: 0 done; 1 a finding (ambiguous moves, a difference, an invalid
    record action, a batch answer differing from the expected one); 2 bad input;
    3 unknown (a solver limit stopped the search); 74 the output could not be
    written (a full disk); 130 interrupted (Ctrl-C); 141 standard output was a
    closed pipe (`| head`; no message).
    """
