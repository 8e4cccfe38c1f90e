"""Options and helpers shared by every ``ddzspec`` command, the solver's ``solve`` too:
``--rules``/``--without``/``--notation``/``--json``, the validators (:func:`finite_seconds`,
:func:`read_text`), the error exit, JSON output, the compile progress bar. Command modules
import this module, never :mod:`ddzspec.cli.group` (which loads them): importing it registers
nothing and loads no command, so it may be imported at any time."""

from __future__ import annotations

import functools
import json
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from ..errors import DdzError
from ..rules import DEFAULT_RULES, Rules, load_rules
from .exits import ExitCode

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, ProgressColumn

    from ..check import CheckReport
    from ..table import MoveTable
    from ..wildcheck import WildReport

F = Callable[..., Any]


#: ``--notation en|fr|de``, passed as ``notation``.
notation_option = click.option("--notation", type=click.Choice(["en", "fr", "de"]),
                               default="en", show_default=True, help="Card notation language.")
#: ``--json``, passed as ``as_json``.
json_option = click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
#: ``--rules NAME|PATH``, passed as ``rules_name`` (not loaded).
rules_option = click.option("--rules", "rules_name", default=DEFAULT_RULES, show_default=True,
                            metavar="NAME|PATH", help="Rules file: a built-in name or a path.")
#: ``--without SHAPE`` (repeatable), passed as ``without``.
without_option = click.option("--without", "without", multiple=True, metavar="SHAPE",
                              help="Drop a shape (repeatable), e.g. --without trio_pair.")


def _rules_command(func: F, notation: bool) -> F:
    """``func`` with --rules, --without, [--notation,] --json (in that order in its help)."""

    @functools.wraps(func)
    def wrapper(*args: Any, rules_name: str, without: tuple[str, ...], **kw: Any) -> Any:
        try:
            rules = load_rules(rules_name, without=without)
            return func(*args, rules=rules, **kw)
        except DdzError as e:
            fail(str(e))
    wrapper = json_option(wrapper)
    if notation:
        wrapper = notation_option(wrapper)
    return rules_option(without_option(wrapper))


def rules_json_options(func: F) -> F:
    """Add --rules, --without and --json to a command; pass ``rules`` (loaded) and
    ``as_json``; turn every DdzError into a clean exit 2. For a command that shows no cards
    (``arena``); the others take :func:`common_options`."""
    return _rules_command(func, notation=False)


def common_options(func: F) -> F:
    """Add --rules, --without, --notation, --json to a command; pass ``rules`` (loaded),
    ``notation`` and ``as_json``; turn every DdzError into a clean exit 2."""
    return _rules_command(func, notation=True)


class FileName(click.types.StringParamType):
    """A file name given on the command line: the empty string is refused where the option is
    parsed (``--save ""`` would write nothing, ``replay ""`` would read the working folder).
    Use as ``type=FileName()``; the value stays a string."""

    name = "file"

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = super().convert(value, param, ctx)
        if not text:
            self.fail("an empty file name", param, ctx)
        return text


def one_line_error(e: click.ClickException) -> NoReturn:
    """Report a click error (a usage error: a missing argument, an unknown command, a bad
    option value) as one ``ddzspec: error:`` line naming the command, like :func:`fail`, and
    exit with its code (2 for usage errors)."""
    message = " ".join(e.format_message().split()).removesuffix(".")
    ctx = getattr(e, "ctx", None)
    if ctx is not None:  # the command's path, named "ddzspec" whatever the program's name
        names = []
        while ctx.parent is not None:
            names.append(ctx.info_name or "")
            ctx = ctx.parent
        sub = " ".join(reversed(names))
        message = (f"{sub}: " if sub else "") + message + \
            f" (see 'ddzspec {sub + ' ' if sub else ''}--help')"
    click.echo(f"ddzspec: error: {message}", err=True)
    sys.exit(e.exit_code)


def progress_bar(*columns: str | ProgressColumn, quiet: bool = False) -> Progress:
    """A transient rich Progress on standard error (:func:`stderr_console`), shown only when
    standard error is a terminal and not ``quiet``: redirected, it writes nothing at all (not
    even a blank line)."""
    from rich.progress import Progress
    console = stderr_console()
    return Progress(*columns, console=console, transient=True,
                    disable=quiet or not console.is_terminal)


@contextmanager
def task_progress(label: str, total: int) -> Iterator[Callable[[], None]]:
    """The progress bar of a run of ``total`` tasks (the ``progress`` of
    :func:`ddzspec.execute.run`): ``label``, tasks done, elapsed and remaining time
    (:func:`progress_bar`); yields the function counting one more task done."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    with progress_bar(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn()) as prog:
        bar = prog.add_task(label, total=total)
        yield lambda: prog.advance(bar)




def run_options(output_help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Click options of a command that runs tasks (:mod:`ddzspec.execute`): ``--workers N``
    (default: the number of cores), ``--scheduler tcp://HOST:PORT`` and ``--output
    FILE.jsonl`` (its help: ``output_help``), passed as ``workers``, ``scheduler``,
    ``output``."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        func = click.option("--output", type=FileName(), metavar="FILE.jsonl",
                            help=output_help)(func)
        func = click.option("--scheduler", metavar="tcp://HOST:PORT",
                            help="Run on a running Dask scheduler and its workers.")(func)
        return click.option(
            "--workers", type=click.IntRange(1, 256), metavar="N",
            help="Worker processes (default: the number of cores; 1: in this process)."
        )(func)
    return decorate


def force_option(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The ``--force`` flag (passed as ``force``) of a command that writes ``what`` (e.g.
    "--save FILE"): without it an existing file is refused (:func:`check_output`)."""
    return click.option("--force", is_flag=True,
                        help=f"Overwrite {what} if it exists (refused otherwise).")


def output_error(path: str | Path, why: str) -> str:
    """The one line saying an output file cannot be written: ``PATH: cannot write: WHY``;
    for an existing file (:data:`ddzspec._io.EXISTS`), how to overwrite it."""
    from .._io import EXISTS
    return f"{path}: cannot write: {why}" + \
        ("; give --force to overwrite it" if why == EXISTS else "")


def check_output(path: str | Path, force: bool) -> None:
    """Check a command's output file before the work (a bad path costs nothing): exit 2 with
    :func:`output_error`'s line when it could not be written (a folder, a missing or
    read-only folder, a read-only file: :func:`ddzspec._io.write_problem`), or when it exists
    and ``force`` is false. Write it with ``write_atomic(path, ..., overwrite=force)``."""
    from .._io import write_problem
    problem = write_problem(path, overwrite=force)
    if problem is not None:
        fail(output_error(path, problem))


def write_output(path: str | Path, text: str, force: bool) -> None:
    """Write a command's output file atomically (:func:`ddzspec._io.write_atomic`; an existing
    file only when ``force``); exit 2 with :func:`output_error`'s line when it cannot be."""
    from .._io import write_atomic
    try:
        write_atomic(path, text, overwrite=force)
    except OSError as e:
        fail(output_error(path, e.strerror or str(e)))


def finite_seconds(ctx: click.Context | None, param: click.Parameter | None,
                   value: float | None) -> float | None:
    """A click callback for an option in seconds: click's ``FloatRange`` lets NaN through (and
    infinity, unbounded); such a value is a usage error (exit 2), ``VALUE is not a number of
    seconds``. None (the option not given) passes."""
    if value is not None and not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds")
    return value


def read_text(path: str) -> str:
    """A text file's content (``-``: standard input); exits 2 with ``PATH: cannot read: WHY``
    when it cannot be read, or ``PATH: not a UTF-8 text file (byte N)``."""
    from .._io import read_input
    try:
        return read_input(path)
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror or e}")
    except UnicodeDecodeError as e:
        fail(f"{path}: not a UTF-8 text file (byte {e.start})")


def fail(message: str, code: int = ExitCode.BAD_INPUT) -> NoReturn:
    """Print ``ddzspec: error: MESSAGE`` to stderr and exit with ``code`` (2: bad input)."""
    click.echo(f"ddzspec: error: {message}", err=True)
    sys.exit(code)


def emit_json(obj: Any) -> None:
    """Print one JSON document."""
    click.echo(json.dumps(obj, ensure_ascii=False, indent=None))


def stderr_console() -> Console:
    """A rich Console writing to standard error (progress bars never mix with the output)."""
    from rich.console import Console
    return Console(stderr=True)


def table_with_progress(rules: Rules, quiet: bool = False) -> MoveTable:
    """The move table of ``rules``, with a rich progress
    bar on standard error while it compiles cold; ``quiet``: no bar."""
    from ..table import get_table, is_cached
    if quiet or is_cached(rules):
        return get_table(rules)
    with _progress(rules) as update:
        return get_table(rules, progress=update)


@contextmanager
def _progress(rules: Rules, doing: str = "compiling",
              unit: str = "bodies") -> Iterator[Callable[[int, int, str], None]]:
    """A rich progress bar on stderr, advanced per body (a shape's run start and length), so
    one huge shape shows progress too (or per ``unit``); yields the ``progress(done, total,
    shape)`` callback."""
    from rich.progress import BarColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
    with progress_bar(TextColumn(doing + " {task.description}"), BarColumn(),
                      TextColumn("{task.completed}/{task.total} " + unit), TimeElapsedColumn(),
                      TimeRemainingColumn()) as prog:
        task = prog.add_task(rules.name, total=None)
        yield lambda done, total, name: prog.update(
            task, completed=done, total=total, description=f"{rules.name}: {name}")


def wild_report_with_progress(rules: Rules, quiet: bool = False) -> WildReport:
    """The wild-card counts of ``rules`` (:mod:`ddzspec.wildcheck`, cached on disk), with a
    progress bar on standard error while they are computed cold; ``quiet``: no bar."""
    from ..wildcheck import report_path, wild_report
    if quiet or report_path(rules).is_file():
        return wild_report(rules)
    with _progress(rules, "wild cards of", "natural moves") as update:
        return wild_report(rules, progress=update)


def report_with_progress(rules: Rules, quiet: bool = False) -> CheckReport:
    """The check report of ``rules`` (counts per type,
    ambiguous moves, in bounded memory), with a progress bar on standard error while it is
    computed cold; ``quiet``: no bar."""
    from ..check import check_rules, report_path
    if quiet or report_path(rules).is_file():
        return check_rules(rules)
    with _progress(rules) as update:
        return check_rules(rules, progress=update)
