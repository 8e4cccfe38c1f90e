"""The exact endgame solver, as level 3 uses it: the one place ddzspec.players imports the
solver package (``solver``, open-hand search; see solver/__init__.py).

:func:`position_of` turns a deal in play into a solver position (the one place a
:class:`~ddzspec.game.GameState` becomes one; puzzle generation uses it too);
:func:`winning_plays` does so with a determinized deal (one whose hidden hands were sampled by
level 3 — never the real deal) and returns the winning moves of the seat on turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import N_RANKS, Cards, parse_cards
from ..game import GameState, next_seat
from ..game.scoring import counted_plays, own_factor
from ..rules import Rules

if TYPE_CHECKING:
    from ..solver import Position

_WARM: dict[int, Rules] = {}


def warm_up(rules: Rules) -> None:
    """Build the solver's per-rules move set once (a trivial two-card position is solved),
    so that the first real endgame search fits its time limit. Nothing for rules with wild
    cards: level 3 does not use the solver under them (issue 26)."""
    if _WARM.get(id(rules)) is rules or rules.wild is not None:
        return
    from ..solver import make_position, solve
    ranks = [i for i in range(N_RANKS) if rules.deck[i]][:2]
    hands = {}
    for name, r in zip(("landlord", "peasant"), ranks):
        v = [0] * N_RANKS
        v[r] = 1
        hands[name] = Cards(tuple(v))
    solve(make_position(rules, hands, "landlord"), line=False)
    _WARM[id(rules)] = rules


def position_of(state: GameState) -> Position:
    """The solver position of ``state`` during play: the seats named from the landlord in play
    order (landlord, peasant / landlord, peasant1, peasant2), the move to beat, the targets,
    the stake so far (base, the table's multiplier, each peasant's own factor, the multiplying
    plays counted towards ``cap bombs``), the spring flags and the shown hands. Raises
    ValueError when the deal is not in play with 2 or 3 seats; PositionError when the solver
    cannot pose it."""
    from ..solver import make_position
    n = state.players
    if state.phase != "play" or state.landlord is None or state.turn is None or n not in (2, 3):
        raise ValueError("a solver position is a deal in play, with 2 or 3 seats")
    order = [state.landlord]
    for _ in range(n - 1):
        order.append(next_seat(state.rules, order[-1]))
    names = ("landlord", "peasant") if n == 2 else ("landlord", "peasant1", "peasant2")
    name_of = {seat: nm for seat, nm in zip(order, names)}
    last = state.last
    own = {name_of[s]: own_factor(state.factors, s) for s in order[1:]}
    return make_position(
        state.rules, {name_of[s]: state.hands[s] for s in order}, name_of[state.turn],
        on_table=None if last is None else last[1].cards,
        played_by=None if last is None else name_of[last[0]],
        targets={name_of[s]: state.target(s) for s in order},
        base=state.base or 1, multiplier=state.multiplier,
        landlord_plays=min(2, state.plays[state.landlord]),
        peasants_played=any(state.plays[s] for s in order[1:]),
        pairs=own if any(f != 1 for f in own.values()) else None,
        bombs=counted_plays(state) if state.rules.scoring.cap_bombs is not None else None,
        shown=[name_of[s] for s in state.shown])


def winning_plays(state: GameState, seconds: float) -> frozenset[Cards | None] | None:
    """The winning moves of the seat on turn in ``state`` with every hand open: a set of Cards
    (None stands for a pass); empty when the seat's side loses whatever it plays; None when the
    solver did not finish within ``seconds`` or cannot pose the position. Only during play."""
    from ..solver import PASS, Limit, PositionError, solve
    if state.phase != "play" or state.landlord is None or state.turn is None or seconds <= 0:
        return None
    try:
        pos = position_of(state)
    except (PositionError, ValueError):
        return None
    res = solve(pos, want="all", limit=Limit(seconds=seconds), line=False)
    if res.status != "solved" or res.winning_moves is None:
        return None
    out: set[Cards | None] = set()
    for m in res.winning_moves:
        out.add(None if m == PASS else parse_cards(m, deck=state.rules.deck).cards)
    return frozenset(out)
