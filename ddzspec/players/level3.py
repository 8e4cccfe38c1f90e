"""Level 3, the expert (seed 003's third computer level): search on top of level 2.

For a trick-play decision :class:`Level3` samples hidden hands consistent with everything
public (:func:`sample_deal`), plays each candidate move on every sample — finishing the deal
with level-2 players (:func:`rollout`), or with the exact endgame solver when few cards are
left — and plays the best mean, within ``budget`` seconds a decision (default 0.5), counted in
rollout steps so that the decision depends on the view and the seed alone. A round's choice
made with cards seen (double / super double, kick, counter-kick, blind landlord, show cards) is
decided the same way: each choice played out by level 2 on sampled deals
(:meth:`Level3.estimate`), then :func:`pick_factor` (it doubles when its side wins more often
than not). Bids, calls and robs are level 2's (calls and robs by rollouts on request:
``rollout_bids``).

The four steps, the rounds' rule and the budget's wall-clock guard: docs/game.md, "Design
notes, module by module".
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..cards import EMPTY, N_RANKS, Cards
from ..errors import GameError
from ..game import Action, GameState, Phase, SeatView
from ..moves import legal_moves
from ..readings import Reading
from ..rules import BiddingSystem, Rules
from ..wild import WildReading
from .base import (
    BID_PHASES,
    check_view,
    dispatch,
    held_cards,
    known_talon_left,
    played_by_seat,
    plays_by_reading,
    prepare,
    to_go,
)
from .level2 import Level2, choose_move, plan

_L2 = Level2()


def sample_deal(view: SeatView, rng: random.Random) -> GameState:
    """A deal consistent with ``view``, the hidden hands drawn uniformly from the unseen cards:
    the state reached by replaying the public bids, round choices and plays on it. Its public
    view for ``view.seat`` equals ``view``. A shown hand (show cards, ``view.shown``) is taken
    as shown, never drawn; once the talon is shown the landlord keeps the talon cards it has
    not played; before that (the bidding, a round before the talon: show cards after the
    deal, blind landlord) the talon is drawn too, the undealt cards (duel) are the rest.
    Raises ValueError when the seat holds no cards yet (nothing seen to sample from) or the
    deal is over."""
    state = _replay(view, *_draw(view, rng), ())
    assert state is not None
    return state


def infer_deal(view: SeatView, rng: random.Random, tries: int) -> tuple[GameState, int]:
    """A deal as :func:`sample_deal` draws it, on which level 2 would have made every bid,
    call, rob and round choice the seats with drawn hands made (bidding inference: a seat
    that bid high or doubled is likely strong, one that passed likely weak), sought among up
    to ``tries`` draws; the last draw when none agrees. Returns (the deal, the draws made).
    Raises as :func:`sample_deal`."""
    n = check_view(view).deal.players
    drawn = tuple(s for s in range(n) if s != view.seat and s not in dict(view.shown))
    k = 0
    while True:
        k += 1
        state = _replay(view, *_draw(view, rng), drawn if k < tries else ())
        if state is not None:
            return state, k


def _draw(view: SeatView, rng: random.Random) -> tuple[list[Cards], Cards, int, tuple[int, ...]]:
    """The initial hands, the talon, the first speaker and the wild ranks of a deal drawn for
    :func:`sample_deal`: the wild ranks shown (``view.wild``) are kept, a draw not shown yet
    (a later stage's) is drawn from its ranks."""
    rules = check_view(view)
    if view.phase == "over" or not len(view.hand):
        raise ValueError("hidden hands are sampled once the seat holds its cards, before the "
                         "deal is over")
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
    talon = view.talon
    if talon is None:  # still face down: drawn from the rest (the undealt cards after it)
        v = [0] * N_RANKS
        for i in pool[at:at + rules.deal.talon]:
            v[i] += 1
        talon = Cards(tuple(v))
    initial = []
    for s in range(n):
        h = hands[s] + played[s]
        if s == view.landlord and view.talon is not None:
            h = h - talon
        initial.append(h)
    first = view.bids[0].seat if view.bids else view.turn
    assert first is not None
    wild = view.wild
    if rules.wild is not None:
        wild += tuple(rng.choice(d.ranks) for d in rules.wild.draws[len(wild):])
    return initial, talon, first, wild


def _replay(view: SeatView, initial: list[Cards], talon: Cards, first: int,
            wild: tuple[int, ...], check: tuple[int, ...]) -> GameState | None:
    """The deal of ``initial`` hands and ``talon`` (and ``wild``, its wild ranks) with the
    view's public actions replayed; None when level 2 on the hand of a seat in ``check``
    would have bid or chosen otherwise than that seat did."""
    rules = check_view(view)
    state = GameState.new(rules, hands=initial, talon=talon, first=first)
    if wild:  # the known wild ranks, not the explicit deal's own draw
        state = replace(state, wild=wild)
    for a in view.bids:
        if a.seat in check and _L2.decide_bid(state.view(a.seat)) != a:
            return None
        state = state.apply(a)
    for a in view.history:
        state = state.apply(a)
    return state


#: The position trick play starts from in a rollout: hands, landlord, seat on turn, robs, the
#: move to beat, the passes since and the wild reading of the move to beat (all level 2's plays
#: depend on).
Position = tuple[tuple[Cards, ...], int | None, int | None, int, tuple[int, Reading] | None, int,
                 WildReading | None]
#: Level 2's trick play from a :data:`Position`: the plays it made, reused by :func:`play_out`.
Plays = dict[Position, tuple[Action, ...]]


def play_out(state: GameState, deadline: float,
             memo: Plays | None = None) -> tuple[GameState | None, int]:
    """Finish ``state`` with level-2 players from any phase: (the final state, work steps).
    Bids, calls, robs and round choices are level 2's (``Level2.decide_bid`` on the seat's
    view), trick play is level 2's (:func:`choose_move`); one step a decision. With ``memo``,
    trick play that starts from a :data:`Position` already played out (level 2's plays read
    nothing else) replays its plays instead, one step per
    four plays replayed (a replayed play costs a fifth of a decision: 0.02 ms against 0.12 ms
    measured on happy deals), and a new one is recorded. None for the state when the clock
    passed ``deadline`` (a ``time.perf_counter()`` value) first, or when the deal was void
    (nobody called or bid: a redeal is another deal, not this one's outcome)."""
    steps = 0
    rules = state.rules
    attempt = state.attempt
    targets: tuple[int, ...] | None = None
    recording: list[Action] | None = None
    key: Position | None = None
    while not state.over:
        if time.perf_counter() >= deadline:
            return None, steps
        t = state.turn
        assert t is not None
        if state.phase is not Phase.PLAY:
            state = state.apply(_L2.decide_bid(state.view(t)))
            steps += 1
            if state.attempt != attempt:
                return None, steps
            continue
        if targets is None:
            targets = tuple(state.target(s) for s in range(state.players))
            if memo is not None:
                key = (state.hands, state.landlord, state.turn, state.robs, state.last,
                       state.passes, state.last_wild)
                got = memo.get(key)
                if got is not None:
                    for a in got:
                        state = state.apply(a)
                    return state, steps + len(got) // 4 + 1
                recording = []
        # a reduced view: what level 2 reads (hand, move to beat, cards left, targets,
        # landlord), without the counter and history it never uses — the rollout is
        # level 3's own simulation of a sampled deal
        view = SeatView(t, None, state.hands[t], Phase.PLAY, t, tuple(map(len, state.hands)),
                        state.landlord, None, (), state.robs, None, (), state.last,
                        state.base, 1, (), targets, EMPTY, (), None, rules,
                        wild=state.wild_shown, last_wild=state.last_wild)
        action = choose_move(view, rules)
        state = state.apply(action)
        steps += 1
        if recording is not None:
            recording.append(action)
    if memo is not None and key is not None and recording is not None:
        memo[key] = tuple(recording)
    return state, steps


def rollout(state: GameState, seat: int, deadline: float) -> tuple[float | None, int]:
    """Finish ``state`` (trick play) with level-2 players: (value for ``seat``, steps taken).
    Value: 1 when the seat's side wins, else 0, plus its points / (100 × base); None when the
    clock passed ``deadline`` (a ``time.perf_counter()`` value) first."""
    final, steps = play_out(state, deadline)
    if final is None:
        return None, steps
    res = final.result
    assert res is not None
    won = (res.winner == "landlord") == (seat == res.landlord)
    return float(won) + res.scores[seat] / (100.0 * max(1, res.base)), steps


def _action(seat: int, m: Reading | None, held: Mapping[Reading, Action]) -> Action:
    """The pass (None) or the play of ``m`` (``held``: under wild rules, the action of each
    reading, :func:`~ddzspec.players.base.plays_by_reading`; empty under natural rules)."""
    if m is None:
        return Action.pass_(seat)
    return held[m] if held else Action.play(seat, m.cards)


#: The phases of the rounds (show cards, blind landlord, doubling): a choice of factor.
ROUND_PHASES = tuple(p for p in BID_PHASES if p != "bidding")


def pick_factor(factors: Sequence[int], p: float, points: Sequence[float]) -> int:
    """Level 3's rule for a round's choice: the index in ``factors`` (the seat's choices) to
    take, given ``p``, the estimated rate at which the seat's side wins, and ``points``, the
    mean settlement of each choice. With the choices above the lowest factor in increasing
    order, the k-th of them (k = 1, 2, …) is allowed when ``p`` > 1 − 1/2^k: the first
    (double, kick, counter-kick, show, blind) when the side wins more often than not, the
    second (super double ×4) when it loses at most one deal in four, each further one halving
    the losing chance allowed. The highest allowed choice whose mean settlement is not below
    the lowest factor's is taken (a factor multiplies losses as well as wins: a hand that
    wins often but loses big is not doubled); else the lowest factor. Raises ValueError for
    no choices or ``points`` of another length.

    >>> pick_factor([1, 2, 4], 0.5, [0.0, 0.0, 0.0])  # not more often than not: no
    0
    >>> pick_factor([1, 2, 4], 0.6, [0.5, 1.0, 2.0])  # double, not yet super double
    1
    >>> pick_factor([1, 2, 4], 0.8, [0.6, 1.2, 2.4])  # super double
    2
    >>> pick_factor([1, 2, 4], 0.8, [0.5, -0.2, -1.0])  # wins often, loses big: no
    0
    """
    if not factors or len(points) != len(factors):
        raise ValueError(f"{len(factors)} choices and {len(points)} settlements: one per "
                         "choice, at least one")
    order = sorted(range(len(factors)), key=lambda i: (factors[i], i))
    low = order[0]
    for k in range(len(order) - 1, 0, -1):
        i = order[k]
        if factors[i] > factors[low] and p > 1 - 0.5 ** k and points[i] >= points[low]:
            return i
    return low


@dataclass(frozen=True, slots=True)
class Level3:
    """The expert (see the module doc). ``seed``: its random draws; ``budget``: seconds per
    decision; ``width``: candidates kept; ``solve_cards``: cards left (all seats) at or below
    which a sample is solved exactly; ``steps_per_second``: rollout steps counted per second of
    budget (the deterministic work measure); ``margin``: another candidate replaces level 2's
    choice only when its mean value is higher by more than ``margin / √samples``;
    ``rollout_bids``: calls and robs (call_rob) by rollouts too (:meth:`decide_call`; off by
    default, so that the duel's level 3 bids as level 2 does, as before); ``infer_tries``:
    draws per sample of a bid or round decision to find hands on which level 2 would have
    bid as the other seats did (:func:`infer_deal`; 1: no inference); ``round_margin``: the
    standard errors taken off the estimated win rate of a round's choice
    (:meth:`decide_round`); ``wild_step_cost``: under wild rules (issue 26) the step budget
    of a trick-play decision is divided by this (a laizi step of a level-3 decision cost 4.0
    to 5.7 times a classic one in CPU time, measured with the wild fast path: docs/game.md),
    so the work stays a deterministic count that fits the budget."""

    seed: int | str = 0
    budget: float = 0.5
    width: int = 6
    solve_cards: int = 14
    steps_per_second: int = 3000
    margin: float = 0.5
    rollout_bids: bool = False
    infer_tries: int = 16
    round_margin: float = 1.0
    wild_step_cost: int = 5
    level: int = 3

    def decide(self, view: SeatView) -> Action:
        """The action of the seat on turn (bid or move)."""
        return dispatch(self, view)

    def decide_bid(self, view: SeatView) -> Action:
        """A round's choice with cards seen (double / super double, kick, the landlord's
        answer, blind landlord, show cards after the deal) by rollouts (:meth:`decide_round`);
        with ``rollout_bids``, a call or rob (call_rob) by rollouts too; other bids, calls and
        robs are level 2's (and the endgame solver's one-time set-up for these rules, so that
        no trick-play decision pays for it)."""
        rules = check_view(view, BID_PHASES)
        from .endgame import warm_up
        warm_up(rules)
        prepare(rules)  # the fast index of legal moves, built once per process
        if view.phase in ROUND_PHASES and len(view.hand):
            return self.decide_round(view)
        if self.rollout_bids and rules.bidding.system is BiddingSystem.CALL_ROB:
            return self.decide_call(view)
        return _L2.decide_bid(view)

    def decide_round(self, view: SeatView) -> Action:
        """A round's choice by rollouts (:meth:`estimate`), then :func:`pick_factor` on the
        seat's side's win rate, less ``round_margin`` standard errors (√(p(1 − p)/n)), and the
        mean settlement of each choice. Level 2's choice when no sample could be played
        out."""
        check_view(view, ROUND_PHASES)
        choices, p, n, points = self.estimate(view)
        if p is None:
            return _L2.decide_bid(view)
        # less ``round_margin`` standard errors: a choice made on an estimate just above its
        # threshold is made on the noise of ~30 samples more often than on the hand
        p -= self.round_margin * (p * (1 - p) / n) ** 0.5
        return choices[pick_factor([c.value for c in choices], p, points)]

    def decide_call(self, view: SeatView) -> Action:
        """A call or rob (call_rob) by rollouts (:meth:`estimate`): the choice with the higher
        mean settlement (a void deal, nobody calling, settles 0); level 2's on a tie or when no
        sample could be played out."""
        check_view(view, "bidding")
        default = _L2.decide_bid(view)
        choices, _, _, points = self.estimate(view)
        if not choices:
            return default
        best = max(range(len(choices)), key=lambda i: (points[i], choices[i] == default))
        return choices[best]

    def estimate(self, view: SeatView) -> tuple[list[Action], float | None, int, list[float]]:
        """Rollouts of every choice of the seat on turn outside trick play: on deals sampled
        consistent with the view and, as far as ``infer_tries`` draws find one, with the other
        seats' bids and round choices (:func:`infer_deal`; shown hands and a shown talon
        fixed), each choice (the sample's legal actions) is applied and the deal played out
        by level-2 players (:func:`play_out`; trick play from the same position, which no
        factor changes, is played once per sample and replayed for the other choices; a draw
        counts one step). Returns the
        choices, ``p`` — the rate at which the seat's side won, as the lowest-valued choice
        played the samples out (None when no sample was played out to a result) —, the number
        of samples ``p`` is over, and the mean settlement of the seat per choice (a void deal
        settles 0). Within the step budget
        (``steps_per_second`` × ``budget``; a deterministic work measure) and the wall-clock
        guard of :meth:`decide_move`."""
        start = time.perf_counter()
        seat = view.seat
        wall = start + 0.85 * self.budget
        work = int(self.steps_per_second * self.budget)
        rng = random.Random(f"ddzspec-l3r:{self.seed}:{seat}:{view.phase}:{len(view.bids)}:"
                            f"{view.hand.counts}")
        choices: list[Action] = []
        low = 0
        wins = 0.0
        decided = 0
        done = 0
        points: list[float] = []
        memo: Plays = {}
        while work > 0 and time.perf_counter() < wall:
            try:
                sample, draws = infer_deal(view, rng, self.infer_tries)
            except (GameError, ValueError):
                break
            work -= draws
            if not choices:
                choices = sample.legal_actions()
                points = [0.0] * len(choices)
                low = min(range(len(choices)), key=lambda i: (choices[i].value, i))
            outcome: list[tuple[bool, int] | None] = []
            for c in choices:
                final, steps = play_out(sample.apply(c), wall, memo)
                work -= steps + 1
                if final is None:
                    if time.perf_counter() >= wall:
                        break
                    outcome.append(None)  # a void deal (redeal): no points, no side won
                    continue
                res = final.result
                assert res is not None
                outcome.append(((res.winner == "landlord") == (seat == res.landlord),
                                res.scores[seat]))
            if len(outcome) < len(choices):
                break
            for i, o in enumerate(outcome):
                if o is not None:
                    points[i] += o[1]
            done += 1
            base = outcome[low]
            if base is not None:
                wins += base[0]
                decided += 1
            memo.clear()  # the next sample's hands differ: nothing to reuse
        if done == 0:
            return choices, None, 0, points
        return (choices, wins / decided if decided else None, decided,
                [x / done for x in points])

    def decide_move(self, view: SeatView) -> Action:
        """The candidate with the best mean value over the sampled deals (module doc)."""
        start = time.perf_counter()
        rules = check_view(view, "play")
        seat = view.seat
        prev = None if view.last is None else view.last[1]
        if view.wild:  # issue 26: the wild plays, each with the held cards it is played from
            held = plays_by_reading(view, rules)
            moves, can_pass = tuple(held), view.last is not None
        else:
            held = {}
            lm = legal_moves(view.hand, prev, rules)
            moves, can_pass = lm.moves, lm.can_pass
        default = choose_move(view, rules)
        cands = self._candidates(view, rules, moves, can_pass, default, held)
        if len(cands) == 1:
            return _action(seat, cands[0], held)
        need = to_go(view, seat)
        if any(m is not None and m.size >= need for m in cands):
            return default
        wall = start + 0.85 * self.budget
        work = int(self.steps_per_second * self.budget / (self.wild_step_cost if view.wild
                                                           else 1))
        rng = random.Random(f"ddzspec-l3:{self.seed}:{seat}:{len(view.history)}:"
                            f"{view.hand.counts}:{len(view.bids)}")
        totals = [0.0] * len(cands)
        done = 0
        # the exact solver where it takes these rules' positions (under wild rules: one wild
        # rank, ``reading strongest``; issue 26), else rollouts to the last card
        from .endgame import warm_up, winning_plays
        small = sum(view.cards_left) <= self.solve_cards and warm_up(rules)
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
                    values = [float((None if m is None else held_cards(m, held)) in win)
                              for m in cands]
            if values is None:
                values = []
                for m in cands:
                    v, steps = rollout(sample.apply(_action(seat, m, held)), seat, wall)
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
        return _action(seat, cands[best], held)

    def _candidates(self, view: SeatView, rules: Rules, moves: tuple[Reading, ...],
                    can_pass: bool, default: Action,
                    held: Mapping[Reading, Action]) -> list[Reading | None]:
        """Level 2's choice first, then the pass, then the plays cheapest for the plan (under
        wild rules, ``held``: the held cards of each play, and the wild plan)."""
        first: Reading | None = None
        if default.kind == "play":
            first = next(m for m in moves if _action(view.seat, m, held) == default)
        out: list[Reading | None] = [first]
        if can_pass and first is not None:
            out.append(None)
        counts = view.hand.counts
        room = max(0, self.width - len(out))

        def by_plan(wild: int | None) -> Callable[[Reading], tuple[int, float, int]]:
            def key(m: Reading) -> tuple[int, float, int]:
                left = [a - b for a, b in zip(counts, held_cards(m, held).counts)]
                return m.tier, plan(left, rules, wild).cost, m.key
            return key
        rest = sorted((m for m in moves if m is not first), key=by_plan(None))
        if view.wild:
            # the wild plan of every play is too slow for a lead of hundreds of plays (a
            # second or more): the plain plan ranks them, the wild plan the best few
            rest = sorted(rest[:3 * room], key=by_plan(view.wild[0]))
        out.extend(rest[:room])
        return out
