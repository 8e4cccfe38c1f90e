"""A simple, sensible heuristic computer player (not random, not strong): enough for
``ddzspec play`` and self-play benchmarks. Deterministic: the same state gives the same action.

- Bidding: a hand strength from the high cards and bombs (jokers, 2s, aces, four of a rank)
  decides the bid (auction, seeds 000/002/004) or whether to call / rob (call_rob, seed 003:
  each rob must be paid for by a stronger hand, since it lowers the opponent's target).
- Leading: finish if one move reaches the target; otherwise play the move that leaves the
  fewest rank groups in hand (long chains, trios with kickers), lowest first; bombs and the
  rocket are kept.
- Answering: finish if possible; a peasant does not beat its partner; otherwise the cheapest
  answer that does not break a four of a rank; bombs and the rocket only when an opponent is
  close to its target or the bomb leaves this hand close to its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .game import Action, GameState
from .moves import legal_moves
from .readings import Reading


def hand_strength(counts: Sequence[int], jokers: Sequence[int], strength: Sequence[int]) -> float:
    """High-card strength of a hand (15 counts): big joker 4, small joker 3, each card of the
    second-highest ordinary rank (the 2) 2, of the third (the ace) 0.5, each four of a rank 4."""
    s = 0.0
    order = sorted((i for i in range(len(counts)) if strength[i] >= 0), key=lambda i: strength[i])
    plain = [i for i in order if i not in jokers]
    for j, w in zip(sorted(jokers, key=lambda i: -strength[i]), (4.0, 3.0)):
        s += w * counts[j]
    if plain:
        s += 2.0 * counts[plain[-1]]
    if len(plain) > 1:
        s += 0.5 * counts[plain[-2]]
    s += 4.0 * sum(1 for i in plain if counts[i] == 4)
    return s


def _groups(counts: Sequence[int]) -> int:
    return sum(1 for c in counts if c)


@dataclass(frozen=True, slots=True)
class HeuristicPlayer:
    """The computer player of one ``seat``; :meth:`choose` picks its action in a state."""

    seat: int

    def choose(self, state: GameState) -> Action:
        """The action this player takes in ``state`` (it must be this seat's turn).
        Raises ValueError when it is not."""
        if state.turn != self.seat:
            raise ValueError(f"not seat {self.seat}'s turn")
        rules = state.rules
        hand = state.hands[self.seat]
        if state.phase == "bidding":
            s = hand_strength(hand.counts, rules.jokers, rules.strength)
            b = rules.bidding
            if b.system == "auction":
                want = 0
                for v, need in zip(sorted(b.bids, reverse=True), (11.0, 8.0, 5.5)):
                    if s >= need:
                        want = v
                        break
                return Action.bid(self.seat, want if want > state.high else 0)
            if not state.called:
                return Action.call(self.seat, s >= 5.0)
            return Action.rob(self.seat, s >= 8.0 + 2.5 * state.robs)
        return self._play(state)

    def _play(self, state: GameState) -> Action:
        rules = state.rules
        seat = self.seat
        hand = state.hands[seat]
        prev = None if state.last is None else state.last[1]
        moves = legal_moves(hand, prev, rules).moves
        n = len(hand)
        target = state.target(seat)
        for m in moves:  # finish at once when one move reaches the target
            if n - m.size <= target:
                return Action.play(seat, m.cards)
        opp_close = any(len(state.hands[s]) - state.target(s) <= 3
                        for s in range(state.players)
                        if s != seat and (state.role(s) != state.role(seat)
                                          or state.role(s) == "landlord"))
        counts = hand.counts
        if prev is not None and state.last is not None:
            last_seat = state.last[0]
            if state.role(seat) == "peasant" and state.role(last_seat) == "peasant" \
                    and last_seat != seat:
                # a partner's move: let it stand, unless it is low and a low answer of whole
                # rank groups sheds cards for free
                low = len(rules.order) // 2
                for m in moves:
                    mc = m.cards.counts
                    if m.tier == 0 and prev.key < low - 2 and m.key <= low and \
                            all(c == 0 or c == counts[i] for i, c in enumerate(mc)):
                        return Action.play(seat, m.cards)
                return Action.pass_(seat)
        # an opponent with one (two) cards to go: do not lead singles (pairs) if avoidable,
        # and answer them with the highest card
        danger = {len(state.hands[s]) - state.target(s) for s in range(state.players)
                  if s != seat and (state.role(s) != state.role(seat)
                                    or state.role(s) == "landlord")}
        best: tuple[tuple[float, ...], Reading] | None = None
        for m in moves:
            mc = m.cards.counts
            rem = [a - b for a, b in zip(counts, mc)]
            breaks_four = any(counts[i] == 4 and 0 < mc[i] < 4 for i in range(len(mc)))
            if m.tier == 0 and m.kickers and any(counts[i] == 4 and mc[i] == 4
                                                 for i in range(len(mc))):
                breaks_four = True  # a four spent with kickers is a bomb lost
            if m.tier > 0:
                if not (opp_close or _groups(rem) <= 2):
                    continue
                cost: tuple[float, ...] = (1, m.tier, m.key)
            else:
                if breaks_four and not opp_close:
                    continue
                high = 0 if prev is None else m.key
                risky = m.size in danger and m.size <= 2 and m.shape in ("single", "pair")
                if risky:
                    high = -m.key  # if we must, play the highest
                cost = (0, int(risky), _groups(rem) + (0.5 * m.key / 15 if prev is None else 0),
                        high, -m.size)
            if best is None or cost < best[0]:
                best = (cost, m)
        if best is None:
            if prev is None:  # the leader must play: the lowest move
                return Action.play(seat, moves[0].cards)
            return Action.pass_(seat)
        return Action.play(seat, best[1].cards)
