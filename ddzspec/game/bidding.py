"""The bidding phase and the rounds, from the rules file's ``bidding`` and ``round`` sections:
the transitions behind :meth:`GameState.apply` for ``bid``, ``call``, ``rob`` and the rounds'
actions, the all-pass redeal and the hand-over of the talon to the landlord.

- ``auction`` (seeds 000/002/004) and ``call_rob`` (seed 003, the duel's robs in turn;
  ``rob_order each_once_caller_last``: Happy Dou Dizhu's, each other seat that did not decline
  to call robs once, then the caller's last word): :func:`bid`, :func:`call`, :func:`rob`.
- rounds before or after the deal, after the bidding or the talon (:func:`start_rounds`,
  :func:`round_choice`): the seats of the round's order choose a factor once each; a factor
  above 1 is a :class:`Factor` of the seat (with the round's scope); a show round shows the
  seat's hand (before the deal: once dealt) and does not ask a seat already shown; with
  ``first_to_show speaks_first`` the first seat that showed opens the bidding.

Each transition takes the state before, the action (already checked for phase, turn and seat)
and the log including it, and returns the state after, or raises InvalidBidError. The rules
in words: docs/rules-language.md and docs/game.md.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import InvalidBidError
from ..rules import RobOrder, Round, RoundKind, RoundOrder, RoundStage, Scope
from .actions import Action
from .dealing import next_seat, shuffle_deal
from .enums import ActionKind, Phase
from .scoring import Factor, talon_factor

if TYPE_CHECKING:
    from .state import GameState


def bid(state: GameState, a: Action, log: tuple[Action, ...]) -> GameState:
    """An auction bid or pass (``a.value`` 0)."""
    b = state.rules.bidding
    if not isinstance(a.value, int) or isinstance(a.value, bool):
        raise InvalidBidError(f"bid {a.value!r}: a bid is a whole number: pass (0) or "
                              f"{', '.join(map(str, b.bids))}")
    if a.value != 0:
        if a.value not in b.bids:
            raise InvalidBidError(f"bid {a.value}: the bids are pass (0) or "
                                  f"{', '.join(map(str, b.bids))}")
        if a.value <= state.high:
            raise InvalidBidError(f"bid {a.value}: a bid must be strictly above the "
                                  f"current bid ({state.high})")
    bids = state.bids + (a,)
    high, high_seat = (a.value, a.seat) if a.value > state.high else (state.high,
                                                                      state.high_seat)
    top = b.ends_at if b.ends_at is not None else max(b.bids)
    if a.value and a.value >= top:
        return to_landlord(state, a.seat, log, bids=bids, high=high, high_seat=high_seat)
    if sum(1 for x in bids if x.kind is ActionKind.BID) == state.players:
        if high_seat is None:
            return redeal(state, log)
        return to_landlord(state, high_seat, log, bids=bids, high=high, high_seat=high_seat)
    return replace(state, bids=bids, high=high, high_seat=high_seat,
                   turn=next_seat(state.rules, a.seat), log=log)


def redeal(state: GameState, log: tuple[Action, ...]) -> GameState:
    """All passed: the deal is void; reshuffle and redeal, nothing carried over (seeds
    000/002); the first bidder drawn again or the next player (seed 004)."""
    attempt = state.attempt + 1
    seed = state.seed if state.seed is not None else 0
    h, t, u, f = shuffle_deal(state.rules, seed, attempt, state.first)
    return type(state).deal_state(state.rules, state.start, state.setup, attempt, (h, t, u, f),
                                  log)


def call(state: GameState, a: Action, log: tuple[Action, ...]) -> GameState:
    """Call the landlord (``a.value`` 1) or not (seed 003)."""
    bids = state.bids + (a,)
    if state.rules.bidding.rob_order is RobOrder.EACH_ONCE_CALLER_LAST:
        return _each_once(state, bids, log)
    if a.value:
        return replace(state, bids=bids, called=True, candidate=a.seat,
                       turn=next_seat(state.rules, a.seat), log=log)
    if sum(1 for x in bids if x.kind is ActionKind.CALL) == state.players:  # nobody called
        if state.rules.bidding.no_call_first_speaker_landlord:
            return to_landlord(state, state.first, log, bids=bids)
        return redeal(state, log)
    return replace(state, bids=bids, turn=next_seat(state.rules, a.seat), log=log)


def rob(state: GameState, a: Action, log: tuple[Action, ...]) -> GameState:
    """Rob (``a.value`` 1) or decline (seed 003); each rob doubles when the rules say so."""
    bids = state.bids + (a,)
    if state.rules.bidding.rob_order is RobOrder.EACH_ONCE_CALLER_LAST:
        return _each_once(state, bids, log)
    if not a.value:
        assert state.candidate is not None
        return to_landlord(state, state.candidate, log, bids=bids)
    robs = state.robs + 1
    factors = state.factors
    if "rob" in state.rules.scoring.double:
        factors = factors + (Factor("rob", state.rules.scoring.factor("rob"), a.seat),)
    if robs >= state.rules.bidding.max_robs:
        return to_landlord(state, a.seat, log, bids=bids, robs=robs, factors=factors)
    return replace(state, bids=bids, candidate=a.seat, robs=robs, factors=factors,
                   turn=next_seat(state.rules, a.seat), log=log)


def _each_once(state: GameState, bids: tuple[Action, ...],
               log: tuple[Action, ...]) -> GameState:
    """Call and rob in the QQ order (``rob_order each_once_caller_last``), from the actions of
    this attempt ``bids`` (the last one just taken)."""
    rules, last = state.rules, bids[-1]
    robs, factors = state.robs, state.factors
    if last.kind is ActionKind.ROB and last.value:
        robs += 1
        if "rob" in rules.scoring.double:
            factors = factors + (Factor("rob", rules.scoring.factor("rob"), last.seat),)
    calls = [b for b in bids if b.kind is ActionKind.CALL]
    caller = next((b.seat for b in calls if b.value), None)
    if caller is None:
        if len(calls) < state.players:
            return replace(state, bids=bids, turn=next_seat(rules, last.seat), log=log)
        if rules.bidding.no_call_first_speaker_landlord:
            return to_landlord(state, state.first, log, bids=bids)
        return redeal(state, log)
    declined = {b.seat for b in calls if not b.value}
    robbers = [s for s in _after(state, caller) if s not in declined]
    asked = [b for b in bids if b.kind is ActionKind.ROB]
    robbed = [b.seat for b in asked[:len(robbers)] if b.value]
    kw: dict[str, Any] = {"bids": bids, "called": True, "robs": robs, "factors": factors}
    if len(asked) < len(robbers):  # the lap of robs goes on
        return replace(state, candidate=robbed[-1] if robbed else caller,
                       turn=robbers[len(asked)], log=log, **kw)
    if robbed and len(asked) == len(robbers):  # the caller's last word
        return replace(state, candidate=robbed[-1], turn=caller, log=log, **kw)
    if len(asked) > len(robbers):
        return to_landlord(state, caller if asked[-1].value else robbed[-1], log, **kw)
    return to_landlord(state, caller, log, **kw)


def _after(state: GameState, seat: int) -> list[int]:
    """The other seats, in turn order from the one after ``seat``."""
    out, s = [], next_seat(state.rules, seat)
    while s != seat:
        out.append(s)
        s = next_seat(state.rules, s)
    return out


#: The phase of each round kind, and the kind of action a seat takes in it.
ROUND_PHASE = {RoundKind.DOUBLE: Phase.DOUBLING, RoundKind.SHOW: Phase.SHOWING,
               RoundKind.BLIND: Phase.BLIND}
ROUND_ACTION = {RoundKind.DOUBLE: ActionKind.DOUBLE, RoundKind.SHOW: ActionKind.SHOW,
                RoundKind.BLIND: ActionKind.BLIND}


def current_round(state: GameState) -> Round | None:
    """The round the deal is in, or None."""
    return state.round


def talon_taken(state: GameState) -> bool:
    """Whether the landlord has taken the talon (shown to every seat): once there is a
    landlord and no round before the talon (stage ``landlord``, blind landlord) is on."""
    rnd = current_round(state)
    return state.landlord is not None and (rnd is None or rnd.stage is not RoundStage.LANDLORD)


def round_seats(state: GameState, rnd: Round, spoken: tuple[Action, ...]) -> list[int]:
    """The seats asked in ``rnd`` (the round on, begun at ``state.round_from``), in order,
    once ``spoken`` (its choices so far) are made: the landlord first or last, last only when
    a peasant chose a factor above 1, alone, or every seat from the first speaker (from the
    landlord once there is one). A show round skips a seat whose hand was shown before it."""
    ll = state.landlord
    if rnd.order is RoundOrder.ALL:
        start = state.first if ll is None else ll
        seats = [start] + _after(state, start)
    else:
        assert ll is not None
        peasants = _after(state, ll)
        doubled = any(b.value > 1 for b in spoken if b.seat != ll)
        seats = {RoundOrder.LANDLORD: [ll], RoundOrder.LANDLORD_PEASANTS: [ll] + peasants,
                 RoundOrder.PEASANTS_LANDLORD: peasants + [ll],
                 RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED: peasants + ([ll] if doubled else [])
                 }[rnd.order]
    if rnd.kind is RoundKind.SHOW:
        before = {b.seat for b in state.bids[:state.round_from]
                  if b.kind is ActionKind.SHOW and b.value > 1}
        seats = [s for s in seats if s not in before]
    return seats


def start_rounds(state: GameState, stage: RoundStage, after: Round | None = None) -> GameState:
    """The first round of ``stage`` (after the round ``after``, when given) as the deal's
    phase and round, its first seat on turn; with none left, the deal goes on: the rounds
    after the deal (stage before deal), the bidding (stage deal: from the first speaker, or
    the first seat that showed under ``first_to_show speaks_first``), the talon taken
    (stage landlord) or trick play from the landlord (stage talon)."""
    rounds = [r for r in state.rules.rounds if r.stage is stage]
    if after is not None:
        rounds = rounds[rounds.index(after) + 1:]
    for rnd in rounds:
        st = replace(state, round=rnd, round_from=len(state.bids))
        seats = round_seats(st, rnd, ())
        if seats:
            return replace(st, phase=ROUND_PHASE[rnd.kind], turn=seats[0])
    state = replace(state, round=None, round_from=0)
    if stage is RoundStage.BEFORE_DEAL:
        return start_rounds(state, RoundStage.DEAL)
    if stage is RoundStage.DEAL:
        first = state.first
        if state.rules.bidding.first_to_show_speaks_first:
            first = next((b.seat for b in state.bids
                          if b.kind is ActionKind.SHOW and b.value > 1), first)
        return replace(state, phase=Phase.BIDDING, first=first, turn=first)
    if stage is RoundStage.LANDLORD:
        return _take_talon(state)
    return replace(state, phase=Phase.PLAY, turn=state.landlord)


def round_choice(state: GameState, a: Action, log: tuple[Action, ...]) -> GameState:
    """A round's choice (``double``, ``show`` or ``blind``): ``a.value`` is the factor of one
    of the round's choices for this seat's role; a factor above 1 is recorded as
    :class:`Factor` s (:func:`round_factors`) and, in a show round, shows the seat's hand.
    The last seat's choice starts the next round or the next phase. Raises InvalidBidError
    for a factor that is not a choice."""
    rnd = current_round(state)
    assert rnd is not None
    landlord = a.seat == state.landlord
    choices = rnd.choices_of(landlord)
    chosen = next((c for c in choices if c.times == a.value), None)
    if chosen is None:
        said = ", ".join(f"{c.name} ({c.times})" for c in choices)
        raise InvalidBidError(f"{a.kind} {a.value}: the choices are {said}")
    factors, shown = state.factors, state.shown
    if chosen.times > 1:
        factors = factors + round_factors(state, rnd, a, chosen.name, chosen.times)
        if rnd.kind is RoundKind.SHOW:
            shown = tuple(sorted(shown + (a.seat,)))
    bids = state.bids + (a,)
    spoken = bids[state.round_from:]
    st = replace(state, bids=bids, factors=factors, shown=shown, log=log)
    seats = round_seats(st, rnd, spoken)
    if len(spoken) < len(seats):
        return replace(st, turn=seats[len(spoken)])
    return start_rounds(st, rnd.stage, rnd)


def round_factors(state: GameState, rnd: Round, a: Action, name: str,
                  times: int) -> tuple[Factor, ...]:
    """The factors of a choice above 1, by the round's declared scopes. Under ``scope pair``
    a peasant's multiplies its own settlement with the landlord (``pair``), under ``scope
    table`` every settlement; the landlord's answer under ``answer … for doublers`` (the
    counter-kick) multiplies each settlement of a peasant who chose a factor above 1 earlier
    in this round, and nobody else's; any other choice of the landlord's, and every choice
    before there is a landlord, the whole table's."""
    ll = state.landlord
    if ll is None:
        return (Factor(name, times, a.seat),)
    if a.seat != ll:
        return (Factor(name, times, a.seat, pair=a.seat if rnd.scope is Scope.PAIR else None),)
    if rnd.answers and rnd.answer_scope is Scope.DOUBLERS:
        doubled = sorted({b.seat for b in state.bids[state.round_from:]
                          if b.seat != ll and b.value > 1})
        return tuple(Factor(name, times, a.seat, pair=p) for p in doubled)
    return (Factor(name, times, a.seat),)


def to_landlord(state: GameState, seat: int, log: tuple[Action, ...], **kw: Any) -> GameState:
    """Bidding over: the talon is shown and added to the landlord, who leads; the base is the
    winning bid or the rules' number. A round before the talon (blind landlord) comes first,
    a round after it before the first lead."""
    st = replace(state, log=log, **kw)
    base = st.rules.scoring.base
    st = replace(st, landlord=seat, candidate=seat, phase=Phase.PLAY, turn=seat, leader=seat,
                 base=st.high if base == "bid" else int(base))
    return start_rounds(st, RoundStage.LANDLORD)


def _take_talon(state: GameState) -> GameState:
    """The talon is shown and added to the landlord's hand; then the rounds after the talon."""
    assert state.landlord is not None
    hands = list(state.hands)
    hands[state.landlord] = hands[state.landlord] + state.talon
    talon = talon_factor(state.rules, state.talon)  # the talon's pattern, when the rules list it
    factors = state.factors if talon is None else state.factors + (talon,)
    return start_rounds(replace(state, hands=tuple(hands), factors=factors), RoundStage.TALON)


__all__ = ["ROUND_ACTION", "ROUND_PHASE", "bid", "call", "current_round", "redeal", "rob",
           "round_choice", "round_factors", "round_seats", "start_rounds", "talon_taken",
           "to_landlord"]
