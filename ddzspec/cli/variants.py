"""``ddzspec diff RULES_A RULES_B``: how two variants differ, move by move.

:data:`ddzspec.cli.main` loads it when first called. Exit codes follow diff(1): 0 when nothing
differs, 1 when a multiset or a rules section does, 2 on bad input (a rules file that does not
load, an unknown shape for ``--without``, a bad line in a ``--moves`` file), never a traceback.
"""

from __future__ import annotations

import sys

import click

from ..errors import DdzError, RulesError
from ..rules import Rules, load_rules
from .common import emit_json, fail, table_with_progress


def _load_pair(name_a: str, name_b: str, without: tuple[str, ...]) -> tuple[Rules, Rules]:
    """Load both files; drop each ``--without`` shape from the files that have it. A name that
    neither file has is an error (RulesError)."""
    a, b = load_rules(name_a), load_rules(name_b)
    names_a, names_b = {s.name for s in a.shapes}, {s.name for s in b.shapes}
    for n in without:
        if n not in names_a and n not in names_b:
            known = ", ".join(dict.fromkeys([s.name for s in a.shapes + b.shapes]))
            raise RulesError(f"--without {n}: no such shape in {a.name} or {b.name} "
                             f"(shapes: {known})", f"{name_a}, {name_b}")
    a = a.without_shapes(tuple(n for n in without if n in names_a))
    b = b.without_shapes(tuple(n for n in without if n in names_b))
    return a, b


@click.command("diff")
@click.argument("rules_a", metavar="RULES_A")
@click.argument("rules_b", metavar="RULES_B")
@click.option("--all", "show_all", is_flag=True, help="List every differing move.")
@click.option("--examples", type=click.IntRange(min=0), default=5, show_default=True,
              metavar="N", help="Examples listed per direction and type.")
@click.option("--moves", "moves_file", metavar="FILE", default=None,
              help="Diff only the moves listed in FILE, one per line ('-': stdin).")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape from both files (repeatable), e.g. --without trio_pair.")
@click.option("--notation", type=click.Choice(["en", "fr", "de"]), default="en",
              show_default=True, help="Card notation language.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def diff(rules_a: str, rules_b: str, show_all: bool, examples: int, moves_file: str | None,
         without: tuple[str, ...], notation: str, as_json: bool) -> None:
    """Every multiset whose verdict differs between RULES_A and RULES_B.

    A multiset differs when it is legal in one file only, or read as a different type or body
    (an ambiguous multiset has several readings). Prints the rules sections that differ, the
    counts per direction and type, then a few examples per type (--all: every one). With
    --moves FILE only the listed moves are compared, and every difference among them is listed.
    Exit 0 if nothing differs, 1 if a multiset or a rules section does, 2 on bad input.
    """
    from ..diff import diff_json, diff_lines, diff_rules, read_moves_file
    try:
        a, b = _load_pair(rules_a, rules_b, without)
        moves = None
        if moves_file is not None:
            deck = tuple(max(x, y) for x, y in zip(a.deck, b.deck))
            shown = "<stdin>" if moves_file == "-" else moves_file
            moves = read_moves_file(_read_text(moves_file), shown, notation, deck)
        limit = None if show_all or moves is not None else examples
        for r in (a, b):
            table_with_progress(r, quiet=as_json)
        result = diff_rules(a, b, limit=limit, moves=moves, notation=notation)
    except DdzError as e:
        fail(str(e))
        return
    if as_json:
        emit_json(diff_json(result, notation))
    else:
        for line in diff_lines(result, notation, shown_all=limit is None):
            click.echo(line)
    if not result.identical or result.spec:  # a rules section differs: a difference too
        sys.exit(1)


def _read_text(path: str) -> str:
    """A text file's content ("-": standard input); a file that cannot be read exits 2."""
    from .._io import read_input
    try:
        return read_input(path)
    except OSError as e:
        fail(f"{path}: cannot read: {e.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}: not a UTF-8 text file")
