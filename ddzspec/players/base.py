"""The computer-player interface: a :class:`Player` decides from one seat's view only.

A player is handed a :class:`~ddzspec.game.SeatView` — its own hand, the public history of the
deal (``view.history``: every play and pass; ``view.bids``), the counter of unseen cards
(``view.unseen``, seed 003), the cards left per seat and the rules — never the
:class:`~ddzspec.game.GameState`. The hidden hands are therefore out of reach by construction:
two deals that look the same from a seat give the same decision (``tests/players/test_levels.py``
reshuffles the hidden hands to check it).

Levels (seed 003 offers three computer levels):

- 1, beginner (:mod:`.level1`): the smallest legal lead or answer, no plan; bids on a count of
  high cards.
- 2, intermediate (:mod:`.level2`): plans the hand into the fewest plays, keeps bombs and the
  rocket for when they matter, lets a partner's trick stand, chases a side about to go out.
- 3, expert (:mod:`.level3`): samples hidden hands consistent with the public information and
  evaluates its candidate moves with level-2 rollouts and the exact endgame solver, within a
  per-move time budget.

Every level is deterministic given its seed: the same view gives the same decision.

Speed (issue 9: levels 1–2 within 1 ms per decision): :func:`prepare` builds a rules file's
move table and legal-move index once, before play, so that no decision pays for it; level 2
memoises its hand plans per hand (:func:`ddzspec.players.level2.plan`).

>>> from ddzspec.rules import load_rules
>>> from ddzspec.game import GameState
>>> g = GameState.new(load_rules("classic"), seed=7)
>>> p = player_for(2, seed=0)
>>> a = p.decide(g.view(g.turn))
>>> str(a.kind), a in g.legal_actions()
('bid', True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..cards import EMPTY, N_RANKS, Cards
from ..game import Action, GameState, SeatView
from ..rules import Rules

LEVELS = (1, 2, 3)


@runtime_checkable
class Player(Protocol):
    """A computer player. ``level``: 1, 2 or 3.

    :meth:`decide` returns the action of the seat on turn from its view alone: a bid, call or
    rob during the bidding (:meth:`decide_bid`), a play or a pass during trick play
    (:meth:`decide_move`). The action is always one of the deal's legal actions. Raises
    ValueError when the view is not of the seat on turn or carries no rules.
    """

    @property
    def level(self) -> int:
        """1, 2 or 3."""
        ...

    def decide(self, view: SeatView) -> Action:
        """The action of ``view.seat`` (on turn) in either phase."""
        ...

    def decide_bid(self, view: SeatView) -> Action:
        """A bid (auction, seeds 000/002/004) or a call / rob (call_rob, seed 003)."""
        ...

    def decide_move(self, view: SeatView) -> Action:
        """A play or a pass (trick play)."""
        ...


def check_view(view: SeatView, phase: str | None = None) -> Rules:
    """The view's rules, after checking the view is of the seat on turn (and in ``phase``).
    Raises TypeError for something that is not a SeatView, ValueError saying what is wrong
    with a view."""
    if not isinstance(view, SeatView):
        raise TypeError(f"a player decides from a SeatView, got {type(view).__name__}")
    if view.rules is None:
        raise ValueError("the view carries no rules: build it with GameState.view(seat)")
    if view.turn != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn (turn: {view.turn})")
    if phase is not None and view.phase != phase:
        raise ValueError(f"seat {view.seat} is asked to decide in the {phase} phase, but the "
                         f"deal is in its {view.phase} phase")
    return view.rules


def dispatch(player: Player, view: SeatView) -> Action:
    """``decide`` in terms of ``decide_bid`` / ``decide_move``: by the view's phase."""
    check_view(view)
    if view.phase == "bidding":
        return player.decide_bid(view)
    if view.phase == "play":
        return player.decide_move(view)
    raise ValueError(f"the deal is {view.phase}: nothing to decide")


# ----------------------------------------------------------------------------- public facts

def played_by_seat(view: SeatView) -> tuple[Cards, ...]:
    """Cards each seat has played so far, from the public history."""
    rules = check_rules(view)
    played = [[0] * N_RANKS for _ in range(rules.deal.players)]
    for a in view.history:
        if a.kind == "play" and a.cards is not None:
            for i, c in enumerate(a.cards.counts):
                played[a.seat][i] += c
    return tuple(Cards(tuple(p)) for p in played)


def known_talon_left(view: SeatView, played: Sequence[Cards]) -> Cards:
    """The talon cards the landlord must still hold (shown to all, seeds 000/002/003/004): per
    rank, the talon's copies minus the landlord's plays of that rank (a played card of a rank
    the talon showed may be that very card). EMPTY before the talon is shown."""
    if view.talon is None or view.landlord is None:
        return EMPTY
    p = played[view.landlord].counts
    return Cards(tuple(max(0, t - x) for t, x in zip(view.talon.counts, p)))


def transcript(state: GameState) -> str:
    """A deal's actions as text, one line per action of ``state.log`` (all-pass redeals
    included): ``seat kind value cards`` (``-`` for no cards), then ``result WINNER LANDLORD
    [scores]`` once the deal is over. Two runs of the same players on the same deal give the
    same text exactly when every decision was the same (``bench/decisions.py``)."""
    lines = []
    for a in state.log:
        lines.append(f"{a.seat} {a.kind} {a.value} {'-' if a.cards is None else a.cards}")
    res = state.result
    if res is not None:
        lines.append(f"result {res.winner} {res.landlord} {list(res.scores)}")
    return "\n".join(lines) + "\n"


def check_rules(view: SeatView) -> Rules:
    """``view.rules``; ValueError when the view carries none."""
    if view.rules is None:
        raise ValueError("the view carries no rules: build it with GameState.view(seat)")
    return view.rules


def target_of(view: SeatView, seat: int) -> int:
    """Cards left at which ``seat`` wins (0 before the bidding ends)."""
    return 0 if view.targets is None else view.targets[seat]


def to_go(view: SeatView, seat: int) -> int:
    """Cards ``seat`` still has to shed to win: cards left minus its target."""
    return view.cards_left[seat] - target_of(view, seat)


def same_side(view: SeatView, a: int, b: int) -> bool:
    """Whether seats ``a`` and ``b`` play on the same side (two peasants, or one seat)."""
    if a == b:
        return True
    return view.landlord is not None and view.landlord not in (a, b)


def opponents(view: SeatView) -> list[int]:
    """The seats playing against ``view.seat``."""
    return [s for s in range(len(view.cards_left)) if not same_side(view, s, view.seat)]


def prepare(rules: Rules, *, endgame: bool = False) -> None:
    """Build, once per process and rules, what the players' decisions would otherwise build
    on first use: the compiled move table in memory (read from the disk cache, or compiled)
    and the fast index of legal moves over it (:class:`ddzspec.moves.TableIndex`; without this
    call :func:`~ddzspec.moves.legal_moves` builds it on its 33rd call, inside a decision:
    0.2–0.4 s for classic). Calling it before play keeps that one-time cost out of every
    decision; it changes no decision (both paths give the same moves). Rules whose table is
    too large to index (:func:`~ddzspec.moves.estimate_moves`) are left to per-hand
    generation. ``endgame``: also build the exact solver's move set that level 3 uses in small
    endgames (:func:`ddzspec.players.endgame.warm_up`; 0.1–0.5 s for classic, much more for
    very large rules files), which level 3's first bid would otherwise build. Raises what
    :func:`~ddzspec.moves.legal_moves` raises for unplayable rules."""
    from ..moves import legal_moves, move_index
    from ..table import get_table
    if move_index(rules).is_small():
        get_table(rules)
    legal_moves(EMPTY, None, rules)  # builds the index over the table now in memory
    if endgame:
        from .endgame import warm_up
        warm_up(rules)


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
        from .level1 import Level1
        return Level1(seed)
    if level == 2:
        from .level2 import Level2
        return Level2(seed)
    from .level3 import Level3
    if budget is None:
        return Level3(seed)
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) \
            or not 0 < budget <= MAX_BUDGET:
        raise ValueError(f"budget {budget!r}: a time per move in seconds, > 0 and at most "
                         f"{MAX_BUDGET:g}")
    return Level3(seed, budget=float(budget))
