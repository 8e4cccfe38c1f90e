"""Level 3, the expert (seed 003's third computer level): search on top of level 2.

For a trick-play decision :class:`Level3` samples hidden hands consistent with everything
public (:func:`sample_deal`), plays each candidate move on every sample — finishing the deal
with level-2 players (:func:`rollout`), or with the exact endgame solver when few cards are
left — and plays the best mean, within ``budget`` seconds a decision (default 0.5), counted in
rollout steps so that the decision depends on the view and the seed alone. Bidding is level 2's.

The four steps and the budget's wall-clock guard: docs/game.md, "Design notes, module by module".
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from ..cards import EMPTY, N_RANKS, Cards
from ..errors import GameError
from ..game import Action, GameState, Phase, SeatView
from ..moves import legal_moves
from ..readings import Reading
from ..rules import Rules
from .base import (
    BID_PHASES,
    check_view,
    dispatch,
    known_talon_left,
    played_by_seat,
    prepare,
    to_go,
)
from .level2 import Level2, choose_move, plan

_L2 = Level2()


def sample_deal(view: SeatView, rng: random.Random) -> GameState:
    """A deal consistent with ``view`` (trick play only), the hidden hands drawn uniformly from
    the unseen cards (a shown hand is taken as shown): the state reached by replaying the
    public bids and plays on it. Its public view for ``view.seat`` equals ``view``. Raises
    ValueError outside trick play."""
    rules = check_view(view)
    if view.phase != "play" or view.landlord is None or view.talon is None or not view.bids:
        raise ValueError("hidden hands are sampled during trick play only")
    n = rules.deal.players
    played = played_by_seat(view)
    known = known_talon_left(view, played)
    pool = [i for i, c in enumerate(view.unseen.counts) for _ in range(c)]
    rng.shuffle(pool)
    hands: list[Cards] = []
    at = 0
    shown = dict(view.shown)
    for s in range(n):
        if s == view.seat:
            hands.append(view.hand)
            continue
        if s in shown:  # a shown hand is public (show cards): no sampling
            hands.append(shown[s])
            continue
        base = known if s == view.landlord else Cards((0,) * N_RANKS)
        k = view.cards_left[s] - len(base)
        v = list(base.counts)
        for i in pool[at:at + k]:
            v[i] += 1
        at += k
        hands.append(Cards(tuple(v)))
    initial = []
    for s in range(n):
        h = hands[s] + played[s]
        if s == view.landlord:
            h = h - view.talon
        initial.append(h)
    state = GameState.new(rules, hands=initial, talon=view.talon, first=view.bids[0].seat)
    for a in view.bids:
        state = state.apply(a)
    for a in view.history:
        state = state.apply(a)
    return state


def rollout(state: GameState, seat: int, deadline: float) -> tuple[float | None, int]:
    """Finish ``state`` with level-2 players: (value for ``seat``, steps taken). Value: 1 when
    the seat's side wins, else 0, plus its points / (100 × base); None when the clock passed
    ``deadline`` (a ``time.perf_counter()`` value) first."""
    steps = 0
    rules = state.rules
    targets = tuple(state.target(s) for s in range(state.players))
    while not state.over:
        if time.perf_counter() >= deadline:
            return None, steps
        t = state.turn
        assert t is not None
        # a reduced view: what level 2 reads (hand, move to beat, cards left, targets,
        # landlord), without the counter and history it never uses — the rollout is
        # level 3's own simulation of a sampled deal
        view = SeatView(t, None, state.hands[t], Phase.PLAY, t, tuple(map(len, state.hands)),
                        state.landlord, None, (), state.robs, None, (), state.last,
                        state.base, 1, (), targets, EMPTY, (), None, rules)
        state = state.apply(choose_move(view, rules))
        steps += 1
    res = state.result
    assert res is not None
    won = (res.winner == "landlord") == (seat == res.landlord)
    return float(won) + res.scores[seat] / (100.0 * max(1, res.base)), steps


def _action(seat: int, m: Reading | None) -> Action:
    return Action.pass_(seat) if m is None else Action.play(seat, m.cards)


@dataclass(frozen=True, slots=True)
class Level3:
    """The expert (see the module doc). ``seed``: its random draws; ``budget``: seconds per
    decision; ``width``: candidates kept; ``solve_cards``: cards left (all seats) at or below
    which a sample is solved exactly; ``steps_per_second``: rollout steps counted per second of
    budget (the deterministic work measure); ``margin``: another candidate replaces level 2's
    choice only when its mean value is higher by more than ``margin / √samples``."""

    seed: int | str = 0
    budget: float = 0.5
    width: int = 6
    solve_cards: int = 14
    steps_per_second: int = 3000
    margin: float = 0.5
    level: int = 3

    def decide(self, view: SeatView) -> Action:
        """The action of the seat on turn (bid or move)."""
        return dispatch(self, view)

    def decide_bid(self, view: SeatView) -> Action:
        """Level 2's bid / call / rob (and the endgame solver's one-time set-up for these
        rules, so that no trick-play decision pays for it)."""
        rules = check_view(view, BID_PHASES)
        from .endgame import warm_up
        warm_up(rules)
        prepare(rules)  # the fast index of legal moves, built once per process
        return _L2.decide_bid(view)

    def decide_move(self, view: SeatView) -> Action:
        """The candidate with the best mean value over the sampled deals (module doc)."""
        start = time.perf_counter()
        rules = check_view(view, "play")
        seat = view.seat
        prev = None if view.last is None else view.last[1]
        lm = legal_moves(view.hand, prev, rules)
        default = choose_move(view, rules)
        cands = self._candidates(view, rules, lm.moves, lm.can_pass, default)
        if len(cands) == 1:
            return _action(seat, cands[0])
        need = to_go(view, seat)
        if any(m is not None and m.size >= need for m in cands):
            return default
        wall = start + 0.85 * self.budget
        work = int(self.steps_per_second * self.budget)
        rng = random.Random(f"ddzspec-l3:{self.seed}:{seat}:{len(view.history)}:"
                            f"{view.hand.counts}:{len(view.bids)}")
        totals = [0.0] * len(cands)
        done = 0
        small = sum(view.cards_left) <= self.solve_cards
        from .endgame import warm_up, winning_plays
        if small:
            warm_up(rules)
        # one sample is enough when the view pins the hidden cards down (a single hidden hand)
        known = len(known_talon_left(view, played_by_seat(view)))
        hidden = [view.cards_left[s] - (known if s == view.landlord else 0)
                  for s in range(len(view.cards_left)) if s != seat]
        hidden.append(len(view.unseen) - sum(hidden))  # undealt (duel: 9, seed 003)
        unique = sum(1 for h in hidden if h > 0) <= 1
        while work > 0 and time.perf_counter() < wall:
            try:
                sample = sample_deal(view, rng)
            except (GameError, ValueError):
                break
            values: list[float] | None = None
            if small:
                win = winning_plays(sample, wall - time.perf_counter() if unique
                                    else min(wall - time.perf_counter(), self.budget / 4))
                work -= 50
                if win is not None:
                    values = [float((None if m is None else m.cards) in win) for m in cands]
            if values is None:
                values = []
                for m in cands:
                    v, steps = rollout(sample.apply(_action(seat, m)), seat, wall)
                    work -= steps + 1
                    if v is None:
                        break
                    values.append(v)
                if len(values) < len(cands):
                    break
            for i, v in enumerate(values):
                totals[i] += v
            done += 1
            if unique:
                break
        if done == 0:
            return default
        best = max(range(len(cands)), key=lambda i: (totals[i], i == 0))
        if not unique and (totals[best] - totals[0]) / done < self.margin / done ** 0.5:
            best = 0  # not clearly better than level 2's choice on so few samples
        return _action(seat, cands[best])

    def _candidates(self, view: SeatView, rules: Rules, moves: tuple[Reading, ...],
                    can_pass: bool, default: Action) -> list[Reading | None]:
        """Level 2's choice first, then the pass, then the plays cheapest for the plan."""
        first: Reading | None = None
        if default.kind == "play":
            first = next(m for m in moves if m.cards == default.cards)
        out: list[Reading | None] = [first]
        if can_pass and first is not None:
            out.append(None)
        counts = view.hand.counts
        rest = sorted((m for m in moves if m is not first),
                      key=lambda m: (m.tier, plan([a - b for a, b in
                                                   zip(counts, m.cards.counts)], rules).cost,
                                     m.key))
        out.extend(rest[:max(0, self.width - len(out))])
        return out
