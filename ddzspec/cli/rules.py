"""``ddzspec rules show FILE_OR_NAME``: the resolved rules of a file, after ``extends``;
``ddzspec rules overview NAME|PATH``: the rules in words (:func:`ddzspec.learn.rules_overview`).

A designer who writes ``rules house extends classic`` and restates one section sees here what
is actually checked: every section written out (inherited or not), shapes dropped by
``without`` (in the file or ``--without SHAPE``) left out, groups in restrictions expanded to
ranks. The output is itself a rules file: it loads back to the same rules. Bad input (a rules
file that does not load, an unknown shape) exits 2 with a located message, never a traceback.

This module imports nothing from :mod:`ddzspec.cli`; ``cli.py`` adds :data:`rules` to its group.
"""

from __future__ import annotations

import click

from ..errors import DdzError
from ..rules import load_rules, resolved_text
from .common import emit_json, fail


@click.group("rules")
def rules() -> None:
    """Show a rules file: resolved after extends (show), or in words (overview)."""


@rules.command("show")
@click.argument("name_or_path", metavar="FILE_OR_NAME")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape (repeatable), e.g. --without trio_pair.")
def show(name_or_path: str, without: tuple[str, ...]) -> None:
    """Print FILE_OR_NAME (a built-in name or a path) as one self-contained rules file: every
    section after extends, inherited ones included. It loads back to the same rules."""
    try:
        text = resolved_text(load_rules(name_or_path, without=without))
    except DdzError as e:
        fail(str(e))
    click.echo(text, nl=False)


@rules.command("overview")
@click.argument("name_or_path", metavar="NAME|PATH")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape (repeatable), e.g. --without trio_pair.")
@click.option("--notation", type=click.Choice(["en", "fr", "de"]), default="en",
              show_default=True, help="Card notation language.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def overview(name_or_path: str, without: tuple[str, ...], notation: str, as_json: bool) -> None:
    """Explain NAME|PATH (a built-in name or a rules file) in words: every shape with example
    moves, every restriction with readings it rules out, the deal, bidding, play and scoring.

    --json prints {"name", "title", "text", "shapes": [{"name", "description", "spec", "sizes",
    "tier", "examples"}], "restrictions": [{"name", "words", "ruled_out", "count",
    "count_alone", "examples"}], "deal", "bidding", "play", "scoring"}.
    """
    from ..learn import rules_overview
    try:
        view = rules_overview(load_rules(name_or_path, without=without), notation)
    except DdzError as e:
        fail(str(e))
    if as_json:
        emit_json(view.to_json())
        return
    for line in view.lines():
        click.echo(line)
