"""Locate the top-level ``grammar/`` and ``rules/`` folders.

From a wheel they are packaged as ``ddzspec/_data/grammar`` and ``ddzspec/_data/rules``;
from a source tree or an editable install they are the repository's own top-level folders.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """Return the folder ``name`` ("grammar" or "rules"), packaged or in the source tree.

    Raises FileNotFoundError when neither exists (a broken install).
    """
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"ddzspec data folder {name!r} not found (broken install?)")


def grammar_text(filename: str) -> str:
    """Text of one grammar file, e.g. ``grammar_text("rules.lark")``."""
    return (data_dir("grammar") / filename).read_text(encoding="utf-8")
