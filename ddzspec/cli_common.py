"""Options and helpers shared by every ``ddzspec`` command, ours and plugins' (the solver):
``--rules``/``--without``/``--notation``/``--json``, the error exit, JSON output. Importing this
module registers nothing and loads no plugin, so a plugin may import it at any time."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any

import click

from .errors import DdzError
from .rules import load_rules

F = Callable[..., Any]


def common_options(func: F) -> F:
    """Add --rules, --without, --notation, --json to a command; pass ``rules`` (loaded),
    ``notation`` and ``as_json``; turn every DdzError into a clean exit 2."""

    @click.option("--rules", "rules_name", default="classic", show_default=True,
                  metavar="NAME|PATH", help="Rules file: a built-in name or a path.")
    @click.option("--without", "without", multiple=True, metavar="SHAPE",
                  help="Drop a shape (repeatable), e.g. --without trio_pair.")
    @click.option("--notation", type=click.Choice(["en", "fr", "de"]), default="en",
                  show_default=True, help="Card notation language.")
    @click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
    @functools.wraps(func)
    def wrapper(*args: Any, rules_name: str, without: tuple[str, ...], **kw: Any) -> Any:
        try:
            rules = load_rules(rules_name, without=without)
            return func(*args, rules=rules, **kw)
        except DdzError as e:
            fail(str(e))
    return wrapper


def fail(message: str, code: int = 2) -> None:
    """Print an error to stderr and exit (2: bad input)."""
    click.echo(f"ddzspec: error: {message}", err=True)
    sys.exit(code)


def emit_json(obj: Any) -> None:
    """Print one JSON document."""
    click.echo(json.dumps(obj, ensure_ascii=False, indent=None))
