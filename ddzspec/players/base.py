"""The computer-player interface: a :class:`Player` decides from one seat's view only.

A player is handed a :class:`~ddzspec.game.SeatView` — its own hand, the public history, the
unseen-card counter, the cards left per seat and the rules — never the
:class:`~ddzspec.game.GameState`, so the hidden hands are out of reach by construction.
Entry points: :class:`Player`, :func:`prepare`, which builds a rules file's move table and
legal-move index once, before play, so that no decision pays for it, and the helpers every
level shares (:func:`check_view`, :func:`dispatch`, …). The levels are built by
:func:`ddzspec.players.levels.player_for`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from ..cards import EMPTY, N_RANKS, Cards
from ..game import Action, GameState, SeatView
from ..game.enums import ActionKind
from ..moves import legal_moves, move_index
from ..readings import Reading
from ..rules import Rules
from ..rules.model import ReadingPolicy
from ..wild import WildReading, require_wild
from ..wildmoves import WildPlay, wild_legal_moves


@runtime_checkable
class Player(Protocol):
    """A computer player. ``level``: 1, 2 or 3.

    :meth:`decide` returns the action of the seat on turn from its view alone: a bid, call or
    rob during the bidding, or a doubling round's choice (:meth:`decide_bid`), a play or a
    pass during trick play (:meth:`decide_move`). The action is always one of the deal's
    legal actions. Raises ValueError when the view is not of the seat on turn or carries no rules.
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


#: The phases whose decisions ``decide_bid`` takes: the bidding and the rounds (show cards,
#: blind landlord, doubling).
BID_PHASES = ("showing", "bidding", "blind", "doubling")


def check_view(view: SeatView, phase: str | tuple[str, ...] | None = None) -> Rules:
    """The view's rules, after checking the view is of the seat on turn (and in ``phase``, or
    one of the phases ``phase`` lists). Raises TypeError for something that is not a
    SeatView, ValueError saying what is wrong with a view."""
    if not isinstance(view, SeatView):
        raise TypeError(f"a player decides from a SeatView, got {type(view).__name__}")
    if view.rules is None:
        raise ValueError("the view carries no rules: build it with GameState.view(seat)")
    if view.turn != view.seat:
        raise ValueError(f"it is not seat {view.seat}'s turn (turn: {view.turn})")
    phases = (phase,) if isinstance(phase, str) else phase
    if phases is not None and view.phase not in phases:
        raise ValueError(f"seat {view.seat} is asked to decide in the {' or '.join(phases)} "
                         f"phase, but the deal is in its {view.phase} phase")
    return view.rules


def dispatch(player: Player, view: SeatView) -> Action:
    """``decide`` in terms of ``decide_bid`` / ``decide_move``: by the view's phase."""
    check_view(view)
    if view.phase in BID_PHASES:
        return player.decide_bid(view)
    if view.phase == "play":
        return player.decide_move(view)
    raise ValueError(f"the deal is {view.phase}: nothing to decide")


# ----------------------------------------------------------------------------- public facts

#: Wild legal plays by (id of the rules, seat, hand, wild rank, reading to beat), with the action
#: of each reading (:func:`plays_by_reading`): one decision lists them for its readings and
#: again for the action it takes (emptied at :data:`_WILD_MEMO_SIZE`)
_WILD_PLAYS: dict[tuple[int, int, Cards, int, WildReading | None],
                  tuple[Rules, tuple[WildPlay, ...], dict[Reading, Action]]] = {}
_WILD_MEMO_SIZE = 256


def _wild(view: SeatView, rules: Rules) -> tuple[Rules, tuple[WildPlay, ...],
                                                 dict[Reading, Action]]:
    key = (id(rules), view.seat, view.hand, view.wild[0], view.last_wild)
    got = _WILD_PLAYS.get(key)
    if got is not None and got[0] is rules:
        return got
    plays = wild_legal_moves(view.hand, view.wild[0], rules, view.last_wild)
    declared = require_wild(rules).policy is ReadingPolicy.DECLARED
    actions: dict[Reading, Action] = {}
    for p in plays:
        r = p.reading.reading
        if r not in actions:
            actions[r] = Action.play(view.seat, p.move.cards, r.cards if declared else None)
    if len(_WILD_PLAYS) >= _WILD_MEMO_SIZE:
        _WILD_PLAYS.clear()
    got = _WILD_PLAYS[key] = (rules, plays, actions)
    return got


def _wild_plays(view: SeatView, rules: Rules) -> tuple[WildPlay, ...]:
    return _wild(view, rules)[1]


def legal_plays(view: SeatView, rules: Rules) -> tuple[Reading, ...]:
    """The seat's legal plays now, as readings, in the hint's order: the natural legal moves
    (:func:`~ddzspec.moves.legal_moves`), or under wild rules the readings of
    :func:`~ddzspec.wildmoves.wild_legal_moves` (the cards the wild cards make; a reading
    two plays make once). Turn a chosen reading into its play with :func:`as_played`, or
    with :func:`plays_by_reading` under wild rules."""
    if not view.wild:
        prev = None if view.last is None else view.last[1]
        return legal_moves(view.hand, prev, rules).moves
    return tuple(plays_by_reading(view, rules))


def plays_by_reading(view: SeatView, rules: Rules) -> dict[Reading, Action]:
    """Under wild rules, each legal play's reading (in the hint's order) → the action that
    plays it: the held cards of the play with that reading and the fewest wild cards (the
    hint's order; a wild card is kept when natural cards make the same combination), the
    reading stated under ``reading declared``. Empty under natural rules (a reading's cards
    are the held cards). Shared (memoised): do not change it."""
    return _wild(view, rules)[2] if view.wild else {}


def held_cards(reading: Reading, plays: Mapping[Reading, Action]) -> Cards:
    """The held cards the legal play ``reading`` is played from: its action's in ``plays``
    (:func:`plays_by_reading`), or the reading's own cards when ``plays`` is empty (natural
    rules)."""
    cards = plays[reading].cards if plays else reading.cards
    assert cards is not None
    return cards


def as_played(view: SeatView, rules: Rules, action: Action) -> Action:
    """``action`` as the seat plays it: under wild rules a play chosen among
    :func:`legal_plays` by the cards its reading makes becomes the play of the held cards
    with that reading (the one with the fewest wild cards: the hint's order), the reading
    stated under ``reading declared`` (the computer levels choose among every reading of
    every play, so the reading is theirs); any other action is itself."""
    if not view.wild or action.kind is not ActionKind.PLAY:
        return action
    declared = require_wild(rules).policy is ReadingPolicy.DECLARED
    for p in _wild_plays(view, rules):
        if p.reading.reading.cards == action.cards:
            return Action.play(view.seat, p.move.cards, action.cards if declared else None)
    raise ValueError(f"no legal play of seat {view.seat} reads as {action.cards}")


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
    from ..table import get_table
    if move_index(rules).is_small():
        get_table(rules)
    legal_moves(EMPTY, None, rules)  # builds the index over the table now in memory
    if endgame:  # under rules the solver refuses, warm_up builds nothing
        from .endgame import warm_up
        warm_up(rules)
