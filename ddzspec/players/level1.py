"""Level 1, the beginner (seed 003's first computer level): simple, fast, no plan.

- Bidding: a plain count of high cards — each joker, each card of the highest ordinary rank
  (the 2) and each four of a rank count one; under wild rules (issue 26) the wild cards first
  complete fours (:func:`wild_fours`). Auction (seeds 000/002/004): 5 or more bids the
  top bid, 4 the middle one, 3 the lowest, when it is above the current bid; else pass.
  call_rob (seed 003): call with 3 or more, rob with 4 plus one per rob already made.
  A round (show cards, doubling): the lowest factor above 1 with 4 or more, the next one with
  5 or more; before the deal (no card seen yet) always x1.
- Leading: the smallest legal lead (the first of the hint order: fewest cards, lowest body).
  The leader never passes (seeds 000/002).
- Answering: the smallest ordinary answer; a bomb or the rocket only when there is no other;
  pass when nothing beats the trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game import Action, ActionKind, Role, SeatView
from ..rules import BiddingSystem, RoundStage
from .base import BID_PHASES, as_played, check_view, dispatch, legal_plays

#: The action of each round's phase.
_ROUND_ACTION = {"showing": ActionKind.SHOW, "blind": ActionKind.BLIND,
                 "doubling": ActionKind.DOUBLE}


def wild_fours(counts: Sequence[int], plain: Sequence[int], wild: int) -> list[int]:
    """``counts`` with the cards of the wild rank index ``wild`` (issue 26: each stands for any
    non-joker rank in a combination, Baidu Baike's laizi article) completing fours: the
    ranks of ``plain`` (non-joker rank indices) with the most cards first (ties: the higher
    rank), each taking the 4 − its count wild cards it needs while enough are left; the wild
    cards not used stay cards of their own rank (four of them are a bomb themselves)."""
    out = list(counts)
    w = out[wild]
    if w == 4 or not w:
        return out
    out[wild] = 0
    for i in sorted((i for i in plain if i != wild and out[i]),
                    key=lambda i: (-out[i], -plain.index(i))):
        if 4 - out[i] <= w:
            w -= 4 - out[i]
            out[i] = 4
    out[wild] = w
    return out


def high_card_count(view: SeatView) -> int:
    """Jokers + cards of the highest ordinary rank + fours of a rank in ``view.hand``; under
    wild rules the wild cards first complete fours (:func:`wild_fours`), so a soft bomb counts
    as a four, and a top-rank card counts as itself (wild 2s: those left alone)."""
    rules = check_view(view)
    counts: Sequence[int] = view.hand.counts
    plain = [i for i in sorted(range(len(counts)), key=lambda i: rules.strength[i])
             if rules.strength[i] >= 0 and i not in rules.jokers]
    fours = wild_fours(counts, plain, view.wild[0]) if view.wild else counts
    n = sum(counts[j] for j in rules.jokers)
    if plain:  # the top rank's own cards (a wild card standing for one counts in its four)
        top = plain[-1]
        n += fours[top] if view.wild and top == view.wild[0] else counts[top]
    n += sum(1 for i in plain if fours[i] == 4)
    return n


def bid_by_count(view: SeatView, count: int, need: tuple[float, float, float],
                 call: float, rob: float, rob_step: float) -> Action:
    """The bidding action for a hand scored ``count``: auction bids from the top down where
    ``count`` reaches ``need`` (top, middle, lowest bid), only above the current bid; call_rob
    calls at ``call`` and robs at ``rob + rob_step × robs so far``; in a round, the
    choices from ×1 up, one step at ``rob`` and one more per ``rob_step`` above it (a simple
    rule from hand strength), ×1 before the deal (a hand not seen cannot be judged).
    Shared by levels 1–3."""
    rules = check_view(view, BID_PHASES)
    if view.phase in _ROUND_ACTION:
        kind = _ROUND_ACTION[view.phase]
        rnd = view.round or next(r for r in rules.rounds if r.kind == kind.value)
        choices = sorted(rnd.choices_of(view.role is Role.LANDLORD), key=lambda c: c.times)
        step = 0 if count < rob else 1 + int((count - rob) // rob_step)
        if rnd.stage is RoundStage.BEFORE_DEAL:
            step = 0
        return Action(kind, view.seat, choices[min(step, len(choices) - 1)].times)
    b = rules.bidding
    seat = view.seat
    if b.system is BiddingSystem.AUCTION:
        high = max((a.value for a in view.bids if a.kind == "bid"), default=0)
        bids = sorted(b.bids, reverse=True)
        want = 0
        for v, n in zip(bids, need):
            if count >= n:
                want = v
                break
        return Action.bid(seat, want if want > high else 0)
    called = any(a.kind == "call" and a.value for a in view.bids)
    if not called:
        return Action.call(seat, count >= call)
    return Action.rob(seat, count >= rob + rob_step * view.robs)


@dataclass(frozen=True, slots=True)
class Level1:
    """The beginner (see the module doc). ``seed`` is unused: level 1 draws nothing."""

    seed: int | str = 0
    level: int = 1

    def decide(self, view: SeatView) -> Action:
        """The action of the seat on turn (bid or move)."""
        return dispatch(self, view)

    def decide_bid(self, view: SeatView) -> Action:
        """Bid, call, rob or double on the high-card count."""
        return bid_by_count(view, high_card_count(view), (5, 4, 3), 3, 4, 1)

    def decide_move(self, view: SeatView) -> Action:
        """The smallest lead, or the smallest answer (a bomb only when nothing else beats)."""
        rules = check_view(view, "play")
        moves = legal_plays(view, rules)
        if view.last is None:
            return as_played(view, rules, Action.play(view.seat, moves[0].cards))
        plain = [m for m in moves if m.tier == 0]
        pick = plain[0] if plain else (moves[0] if moves else None)
        if pick is None:
            return Action.pass_(view.seat)
        return as_played(view, rules, Action.play(view.seat, pick.cards))
