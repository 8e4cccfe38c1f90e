"""The bidding phase, from the rules file's ``bidding``: the transitions behind
:meth:`GameState.apply` for ``bid``, ``call`` and ``rob`` actions, the all-pass redeal and the
hand-over of the talon to the landlord.

- ``auction`` (seeds 000/002/004): one turn each, a bid strictly above the current one or pass;
  the top bid ends it at once; all pass: the deal is void and redealt, nothing carried over, the
  first bidder drawn at random again (classic) or the next player (kawu, seed 004).
- ``call_rob`` (seed 003): call or not; after a call the others rob or decline in turn; a
  decline fixes the candidate; the ``max_robs``-th robber is landlord at once; no call: the
  first speaker is landlord with zero robs.

Each function takes the state before, the action (already checked for phase, turn and seat)
and the log including it, and returns the state after, or raises InvalidBidError.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ..errors import InvalidBidError
from .actions import Action
from .dealing import next_seat, shuffle_deal
from .enums import Phase
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
    if len(bids) == state.players:
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
    if a.value:
        return replace(state, bids=bids, called=True, candidate=a.seat,
                       turn=next_seat(state.rules, a.seat), log=log)
    if len(bids) == state.players:  # nobody called
        if state.rules.bidding.no_call_first_speaker_landlord:
            return to_landlord(state, state.first, log, bids=bids)
        return redeal(state, log)
    return replace(state, bids=bids, turn=next_seat(state.rules, a.seat), log=log)


def rob(state: GameState, a: Action, log: tuple[Action, ...]) -> GameState:
    """Rob (``a.value`` 1) or decline (seed 003); each rob doubles when the rules say so."""
    bids = state.bids + (a,)
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


def to_landlord(state: GameState, seat: int, log: tuple[Action, ...], **kw: Any) -> GameState:
    """Bidding over: the talon is shown and added to the landlord, who leads; the base is the
    winning bid or the rules' number."""
    st = replace(state, log=log, **kw)
    base = st.rules.scoring.base
    hands = list(st.hands)
    hands[seat] = hands[seat] + st.talon
    talon = talon_factor(st.rules, st.talon)  # the talon's pattern, when the rules list it
    factors = st.factors if talon is None else st.factors + (talon,)
    return replace(st, landlord=seat, candidate=seat, phase=Phase.PLAY, turn=seat,
                   leader=seat, hands=tuple(hands), factors=factors,
                   base=st.high if base == "bid" else int(base))


__all__ = ["bid", "call", "redeal", "rob", "to_landlord"]
