"""ddzspec's endgame solver: open-hand Dou Dizhu positions (2 seats, or the 3-seat team game)
under any rules file — the winner, every winning move, the exact score, a line of best play.

>>> from ddzspec.solver import parse_position, solve
>>> p = parse_position("rules classic\\nlandlord: QQTT\\npeasant: A3\\nto_move: landlord\\n")
>>> r = solve(p, want="all")
>>> r.winner, sorted(r.winning_moves)
('landlord', ['QQ', 'TT'])

Depends on the rest of :mod:`ddzspec`, which never imports it. Its modules live in the
repository's top-level ``solver/`` folder: a wheel installs them here, as ``ddzspec/solver/``;
in a source tree or an editable install this package's ``__path__`` is extended to that folder,
so ``ddzspec.solver`` is the one import name either way (``solver`` alone is another project).
"""

from pathlib import Path as _Path

_here = _Path(__file__).resolve().parent
_source = _here.parents[1] / "solver"
if not (_here / "search.py").is_file() and (_source / "search.py").is_file():
    __path__.append(str(_source))
del _Path, _here, _source

from .position import Position, PositionError, make_position, parse_position, position_from_puzzle
from .search import PASS, Limit, Play, SolveResult, solve

__all__ = ["PASS", "Limit", "Play", "Position", "PositionError", "SolveResult", "make_position",
           "parse_position", "position_from_puzzle", "solve"]
