"""ddzspec's endgame solver: open-hand Dou Dizhu positions (2 seats, or the 3-seat team game)
under any rules file — the winner, every winning move, the exact score, a line of best play;
:func:`solve_split` splits one position's search over processes or a Dask cluster.

>>> from ddzspec.solver import parse_position, solve
>>> p = parse_position("rules classic\\nlandlord: QQTT\\npeasant: A3\\nto_move: landlord\\n")
>>> r = solve(p, want="all")
>>> r.winner, sorted(r.winning_moves)
('landlord', ['QQ', 'TT'])

It sits on the move and execution layers. Its modules live in the repository's top-level
``solver/`` folder, imported as ``ddzspec.solver`` either way (this package's ``__path__``; the
layers and who imports it: docs/architecture.md). :data:`COMPILED` says whether ``search``
and ``movegen`` are the extension modules mypyc built (``hatch_build.py``) or the pure-Python
ones, with the same answers (docs/solver.md).
"""

import sys
from pathlib import Path as _Path

_here = _Path(__file__).resolve().parent
_source = _here.parents[1] / "solver"
if not (_here / "search.py").is_file() and (_source / "search.py").is_file():
    __path__.append(str(_source))
del _Path, _here, _source

# movegen before search: a compiled module imported by another one (movegen, by search) would
# get a __file__ mypyc derives from its shared library's folder, here a path that does not exist
__import__(f"{__name__}.movegen")

from .position import Position, PositionError, make_position, parse_position, position_from_puzzle
from .search import PASS, Limit, Play, SolveResult, solve
from .split import solve_split


def _compiled() -> bool:
    from importlib.machinery import EXTENSION_SUFFIXES

    files = (sys.modules[f"{__name__}.{m}"].__file__ for m in ("search", "movegen"))
    return all(str(f).endswith(tuple(EXTENSION_SUFFIXES)) for f in files)


#: True when ``search`` and ``movegen`` are mypyc's extension modules, False when pure Python
COMPILED: bool = _compiled()
del _compiled

__all__ = ["COMPILED", "PASS", "Limit", "Play", "Position", "PositionError", "SolveResult",
           "make_position", "parse_position", "position_from_puzzle", "solve", "solve_split"]
