"""ddzspec's endgame solver: open-hand Dou Dizhu positions (2 seats, or the 3-seat team game)
under any rules file — the winner, every winning move, the exact score, a line of best play.

>>> from solver import parse_position, solve
>>> p = parse_position("rules classic\\nlandlord: QQTT\\npeasant: A3\\nto_move: landlord\\n")
>>> r = solve(p, want="all")
>>> r.winner, sorted(r.winning_moves)
('landlord', ['QQ', 'TT'])

Depends on :mod:`ddzspec`; ddzspec never imports it.
"""

from .position import Position, PositionError, make_position, parse_position, position_from_puzzle
from .search import PASS, Limit, Play, SolveResult, solve

__all__ = ["PASS", "Limit", "Play", "Position", "PositionError", "SolveResult", "make_position",
           "parse_position", "position_from_puzzle", "solve"]
