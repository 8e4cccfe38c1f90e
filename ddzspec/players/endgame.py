"""The exact endgame solver, as level 3 uses it: the one place ddzspec.players imports the
solver package (``solver``, open-hand search; see solver/__init__.py).

:func:`winning_plays` turns a determinized deal (a :class:`~ddzspec.game.GameState` whose hidden
hands were sampled by level 3 — never the real deal) into a solver position and returns the
winning moves of the seat on turn.
"""

from __future__ import annotations

from ..cards import N_RANKS, Cards, parse_cards
from ..game import GameState, next_seat
from ..rules import Rules

_WARM: dict[int, Rules] = {}


def warm_up(rules: Rules) -> None:
    """Build the solver's per-rules move set once (a trivial two-card position is solved),
    so that the first real endgame search fits its time limit."""
    if _WARM.get(id(rules)) is rules:
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


def winning_plays(state: GameState, seconds: float) -> frozenset[Cards | None] | None:
    """The winning moves of the seat on turn in ``state`` with every hand open: a set of Cards
    (None stands for a pass); empty when the seat's side loses whatever it plays; None when the
    solver did not finish within ``seconds`` or cannot pose the position. Only during play."""
    from ..solver import PASS, Limit, PositionError, make_position, solve
    if state.phase != "play" or state.landlord is None or state.turn is None or seconds <= 0:
        return None
    n = state.players
    order = [state.landlord]
    for _ in range(n - 1):
        order.append(next_seat(state.rules, order[-1]))
    names = ("landlord", "peasant") if n == 2 else ("landlord", "peasant1", "peasant2")
    if n not in (2, 3):
        return None
    name_of = {seat: nm for seat, nm in zip(order, names)}
    last = state.last
    ll_plays = state.plays[state.landlord]
    try:
        pos = make_position(
            state.rules, {name_of[s]: state.hands[s] for s in order}, name_of[state.turn],
            on_table=None if last is None else last[1].cards,
            played_by=None if last is None else name_of[last[0]],
            targets={name_of[s]: state.target(s) for s in order},
            base=state.base or 1, multiplier=state.multiplier,
            landlord_plays=min(2, ll_plays),
            peasants_played=any(state.plays[s] for s in order[1:]))
    except PositionError:
        return None
    res = solve(pos, want="all", limit=Limit(seconds=seconds), line=False)
    if res.status != "solved" or res.winning_moves is None:
        return None
    out: set[Cards | None] = set()
    for m in res.winning_moves:
        out.add(None if m == PASS else parse_cards(m, deck=state.rules.deck).cards)
    return frozenset(out)
