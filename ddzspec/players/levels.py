"""The level factory: :func:`player_for` (a level, 1 to 3, and a seed: every level is
deterministic given its seed) and :data:`LEVELS`.

The three levels: docs/game.md, "Design notes, module by module".

>>> from ddzspec.rules import load_rules
>>> from ddzspec.game import GameState
>>> g = GameState.new(load_rules("classic"), seed=7)
>>> p = player_for(2, seed=0)
>>> a = p.decide(g.view(g.turn))
>>> str(a.kind), a in g.legal_actions()
('bid', True)
"""

from __future__ import annotations

from .base import Player
from .level1 import Level1
from .level2 import Level2
from .level3 import Level3

#: The computer levels: 1 (beginner), 2 (intermediate), 3 (expert).
LEVELS = (1, 2, 3)


#: The longest time per move level 3 accepts, seconds (an hour: NaN and infinity are refused).
MAX_BUDGET = 3600.0


def player_for(level: int, seed: int | str = 0, *, budget: float | None = None) -> Player:
    """The computer player of ``level`` (1, 2 or 3), deterministic given ``seed``.

    ``budget``: level 3's time per move in seconds (default 0.5; ignored by levels 1–2).
    Raises ValueError for another level or a budget that is not a number in 0 < b ≤ 3600."""
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"level {level!r}: the levels are 1 (beginner), 2 (intermediate) and "
                         "3 (expert)")
    if level == 1:
        return Level1(seed)
    if level == 2:
        return Level2(seed)
    if budget is None:
        return Level3(seed)
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) \
            or not 0 < budget <= MAX_BUDGET:
        raise ValueError(f"budget {budget!r}: a time per move in seconds, > 0 and at most "
                         f"{MAX_BUDGET:g}")
    return Level3(seed, budget=float(budget))
