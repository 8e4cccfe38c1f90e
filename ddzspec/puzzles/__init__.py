"""Endgame puzzles: the shipped catalogue, play against the solver, and generation.

- :mod:`.catalogue` — the shipped puzzles (``ddzspec/data/puzzles.jsonl``), reading puzzle
  files and position files as puzzles, checking puzzle files against the solver
  (:func:`builtin_puzzles`, :func:`puzzle_by_id`, :func:`load_puzzle`, :func:`check`);
- :mod:`.game` — a puzzle played against the solver's perfect defence (:class:`PuzzleGame`);
- :mod:`.generation` — generating puzzles with one answer (:func:`generate`).

The names below load from their modules on first use, so importing one module of the
package does not import the others (nor the solver). ``ddzspec puzzles`` and the web
table's Puzzle tab use them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

#: Names loaded on first use: name → module of this package.
_LAZY = {
    **dict.fromkeys(("Problem", "Puzzle", "PuzzleError", "builtin_puzzles", "check",
                     "load_puzzle", "position_of", "puzzle_by_id", "read_puzzles"),
                    "catalogue"),
    **dict.fromkeys(("LINE_PLIES", "MoveVerdict", "PuzzleGame"), "game"),
    **dict.fromkeys(("MAX_COUNT", "SOURCES", "Difficulty", "after", "candidate_task",
                     "difficulty", "generate", "make_puzzle", "random_candidate", "record",
                     "selfplay_candidate"), "generation"),
}

__all__ = ["LINE_PLIES", "MAX_COUNT", "SOURCES", "Difficulty", "MoveVerdict", "Problem", "Puzzle",
           "PuzzleError", "PuzzleGame", "after", "builtin_puzzles", "candidate_task", "check",
           "difficulty", "generate", "load_puzzle", "make_puzzle", "position_of",
           "puzzle_by_id", "random_candidate", "read_puzzles", "record", "selfplay_candidate"]

if TYPE_CHECKING:  # what type checkers and editors see; at run time: __getattr__
    from .catalogue import (
        Problem,
        Puzzle,
        PuzzleError,
        builtin_puzzles,
        check,
        load_puzzle,
        position_of,
        puzzle_by_id,
        read_puzzles,
    )
    from .game import LINE_PLIES, MoveVerdict, PuzzleGame
    from .generation import (
        MAX_COUNT,
        SOURCES,
        Difficulty,
        after,
        candidate_task,
        difficulty,
        generate,
        make_puzzle,
        random_candidate,
        record,
        selfplay_candidate,
    )


def __getattr__(name: str) -> Any:
    """Load one of the package's names (:data:`__all__`) from its module on first use.

    Raises AttributeError for any other name, as a module does."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
