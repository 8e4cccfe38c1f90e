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
from ..rules.model import ReadingPolicy
from ..wild import parse_wild

if TYPE_CHECKING:
    from ..solver import Position

#: Per rules (by id, the rules kept so the id stays theirs): whether the solver takes its
#: positions, once its move set is built.
_WARM: dict[int, tuple[Rules, bool]] = {}


def warm_up(rules: Rules) -> bool:
    """Build the solver's per-rules move set once (a trivial two-card position is solved),
    so that the first real endgame search fits its time limit. Returns whether the solver
    takes positions of ``rules``: under wild rules (issue 26) the trivial position has the
    first rank of the wild draw wild, and the solver's refusal (PositionError: e.g. two wild
    ranks; solver/position.py) means no: level 3 then rolls out to the last card. Under
    ``reading declared`` also no: :func:`winning_plays` gives held cards, not the reading a
    winning move states."""
    got = _WARM.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    if rules.wild is not None and rules.wild.policy is ReadingPolicy.DECLARED:
        _WARM[id(rules)] = (rules, False)
        return False
    from ..solver import PositionError, make_position, solve
    ranks = [i for i in range(N_RANKS) if rules.deck[i]][:2]
    hands = {}
    for name, r in zip(("landlord", "peasant"), ranks):
        v = [0] * N_RANKS
        v[r] = 1
        hands[name] = Cards(tuple(v))
    wild = None if rules.wild is None else rules.wild.draws[0].ranks[0]
    try:
        pos = make_position(rules, hands, "landlord", wild=wild)
    except PositionError:
        _WARM[id(rules)] = (rules, False)
        return False
    solve(pos, line=False)
    _WARM[id(rules)] = (rules, True)
    return True


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
    table = None if last is None else last[1].cards
    if last is not None and state.last_wild is not None:  # the held cards, as they were played
        table = next(a.cards for a in reversed(state.log) if a.kind == "play")
    own = {name_of[s]: own_factor(state.factors, s) for s in order[1:]}
    return make_position(
        state.rules, {name_of[s]: state.hands[s] for s in order}, name_of[state.turn],
        on_table=table,
        played_by=None if last is None else name_of[last[0]],
        targets={name_of[s]: state.target(s) for s in order},
        base=state.base or 1, multiplier=state.multiplier,
        landlord_plays=min(2, state.plays[state.landlord]),
        peasants_played=any(state.plays[s] for s in order[1:]),
        pairs=own if any(f != 1 for f in own.values()) else None,
        bombs=counted_plays(state) if state.rules.scoring.cap_bombs is not None else None,
        shown=[name_of[s] for s in state.shown],
        wild=state.wild[0] if state.wild else None,
        on_table_as=None if last is None or state.last_wild is None
        else state.last_wild.reading.cards)


def winning_plays(state: GameState, seconds: float) -> frozenset[Cards | None] | None:
    """The winning moves of the seat on turn in ``state`` with every hand open: a set of Cards
    (None stands for a pass; under wild rules the held cards played, the wild cards as cards of
    the wild rank — with ``reading strongest`` the held cards fix the reading); empty when the
    seat's side loses whatever it plays; None when the solver did not finish within
    ``seconds`` or cannot pose the position. Only during play."""
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
        if m == PASS:
            out.add(None)
        elif state.wild:  # '55K*=555+K': the held cards, '*' a wild card
            out.add(parse_wild(m.partition("=")[0], state.wild[0], state.rules).cards)
        else:
            out.add(parse_cards(m, deck=state.rules.deck).cards)
    return frozenset(out)
