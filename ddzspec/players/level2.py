"""Level 2, the intermediate player (seed 003's second computer level): a hand-planning
heuristic. Deterministic: the same view gives the same action (it draws nothing).

Entry points: :class:`Level2` (the player), :func:`choose_move`, and :func:`plan`, the hand
split into its fewest plays (memoised per hand), with :func:`hand_strength` for bidding.
How it plans, leads, answers and bids: docs/game.md, "Design notes, module by module".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from math import comb

from ..cards import N_RANKS, Cards
from ..game import Action, SeatView
from ..readings import Reading
from ..rules import Rules
from .base import (
    BID_PHASES,
    check_view,
    dispatch,
    held_cards,
    legal_plays,
    opponents,
    plays_by_reading,
    same_side,
    to_go,
)
from .level1 import bid_by_count

# ----------------------------------------------------------------------------- planning


@dataclass(frozen=True, slots=True)
class Kit:
    """What the planner needs from a rules file. ``order``: rank indices low to high;
    ``chains``: (copies, shortest run, ranks in order) of every kickerless chain shape;
    ``trio_kick`` / ``plane_kick``: kicker kinds a 3 x 1 body / a 3 x N chain may take;
    ``bomb``: copies of the plain bomb (None without one); ``rocket``: its ranks (or ());
    ``strength``: the rules' strength per rank index (−1: not in the deck)."""

    order: tuple[int, ...]
    chains: tuple[tuple[int, int, tuple[int, ...]], ...]
    trio_kick: tuple[str, ...]
    plane_kick: tuple[str, ...]
    bomb: int | None
    rocket: tuple[int, ...]
    strength: tuple[int, ...]


#: One play of a plan: (kind, copies per rank of the body, ranks), kind one of "group"
#: (1–4 of one rank), "chain", "bomb", "rocket".
Unit = tuple[str, int, tuple[int, ...]]


#: Plans are memoised per kit; a memo is emptied when it holds this many hands (a pure
#: function: emptying it changes no result, only the time of the next calls).
MEMO_SIZE = 1 << 17


class _Planner:
    """The planner of one :class:`Kit`, with its memos: ``search`` (hand counts → the best
    split of the hand without its controls, with the additive parts of its cost) and
    ``plans`` (hand counts → :class:`Plan`)."""

    __slots__ = ("chains_at", "groups", "kit", "plans", "search", "top", "unit_stats", "units")

    def __init__(self, kit: Kit) -> None:
        self.kit = kit
        self.search: dict[tuple[int, ...], _Split] = {}
        self.plans: dict[tuple[int, ...], Plan] = {}
        self.top = len(kit.order)
        #: (kind, copies, ranks) → (slots, smalls, low term or None): a unit's share of _cost
        self.unit_stats: dict[Unit, tuple[int, int, float | None]] = {}
        #: (kind, copies, ranks) → (the unit, its stats): see :func:`_unit`
        self.units: dict[Unit, tuple[Unit, tuple[int, int, float | None]]] = {}
        #: groups[rank][copies]: the group unit and its stats (copies 0 unused)
        self.groups = [[_unit(self, "group", c, (r,)) for c in range(8)]
                       for r in range(N_RANKS)]
        #: rank index → the chains that rank can start: (copies, shortest run, ranks in
        #: order, the rank's position p in them, the chain units of every length from the
        #: shortest up — the unit ending before position q is at q − p − shortest run), in
        #: the kit's chain order
        self.chains_at: list[list[tuple[int, int, tuple[int, ...], int, list[
            tuple[Unit, tuple[int, int, float | None]]]]]] = [
            [(copies, run_min, seq, seq.index(r),
              [_unit(self, "chain", copies, seq[seq.index(r):q])
               for q in range(seq.index(r) + run_min, len(seq) + 1)])
             for copies, run_min, seq in kit.chains if r in seq] for r in range(N_RANKS)]


#: One searched split: (cost, units, slots, smalls, low terms in unit order) — the parts of
#: :func:`_cost` that add up unit by unit, so that a longer split's cost is computed from its
#: first unit and the split of the rest, with the very floating-point sums :func:`_cost` does.
_Split = tuple[float, tuple[Unit, ...], int, int, tuple[float, ...]]

_KITS: dict[int, tuple[Rules, _Planner]] = {}
#: One planner per distinct kit: rules files that plan alike (classic and kawu) share memos.
_PLANNERS: dict[Kit, _Planner] = {}


def _planner(rules: Rules) -> _Planner:
    """The :class:`_Planner` of ``rules`` (looked up once per rules object)."""
    got = _KITS.get(id(rules))
    if got is not None and got[0] is rules:
        return got[1]
    kit = _make_kit(rules)
    planner = _PLANNERS.get(kit)
    if planner is None:
        planner = _PLANNERS[kit] = _Planner(kit)
    if len(_KITS) >= 64:
        _KITS.clear()
    _KITS[id(rules)] = (rules, planner)
    return planner


def kit_of(rules: Rules) -> Kit:
    """The planner's :class:`Kit` for ``rules`` (cached per rules object)."""
    return _planner(rules).kit


def _make_kit(rules: Rules) -> Kit:
    chains, trio, plane = [], set(), set()
    bomb: int | None = None
    rocket: tuple[int, ...] = ()
    for sh in rules.shapes:
        if sh.tier > 0:
            if sh.group is not None and sh.run_min == sh.run_max == len(sh.seq) > 1:
                rocket = sh.seq
            elif sh.run_max == 1 and sh.kicker_kind is None:
                bomb = sh.copies if bomb is None else min(bomb, sh.copies)
            continue
        if sh.run_max > 1 and sh.kicker_kind is None and sh.run_min > 1:
            # a wrapping chain order: the circle but its last rank (the planner's chains run
            # forward from a start and never wrap; every one of them is a legal chain)
            chains.append((sh.copies, sh.run_min, sh.ring[:-1] if sh.wraps else sh.seq))
        if sh.copies == 3 and sh.kicker_kind is not None and not sh.kicker_each \
                and sh.kicker_count == 1 and sh.run_max == 1:
            trio.add(sh.kicker_kind)
        if sh.copies == 3 and sh.kicker_kind is not None and sh.kicker_each and sh.run_max > 1:
            plane.add(sh.kicker_kind)
    order = tuple(sorted((i for i in range(N_RANKS) if rules.strength[i] >= 0),
                         key=lambda i: rules.strength[i]))
    return Kit(order, tuple(chains), tuple(sorted(trio)), tuple(sorted(plane)), bomb, rocket,
               rules.strength)


def _cost(kit: Kit, units: Sequence[Unit]) -> float:
    """Plays left, minus the kickers trios and planes absorb (at most the low singles and
    pairs there are), plus 0.1 × (1 − strength / ranks) for each single or pair."""
    plays = float(len(units))
    slots = 0
    smalls = 0
    low = 0.0
    top = len(kit.order)
    for kind, copies, ranks in units:
        if kind == "group" and copies == 3 and kit.trio_kick:
            slots += 1
        elif kind == "chain" and copies == 3 and kit.plane_kick:
            slots += len(ranks)
        elif kind == "group" and copies <= 2:
            s = kit.strength[ranks[0]]
            if s < top - 3:
                smalls += 1
            low += 0.1 * (1 - s / top)
    return plays - min(slots, smalls) + low


def _stats(pl: _Planner, unit: Unit) -> tuple[int, int, float | None]:
    """``unit``'s share of :func:`_cost`: (slots, smalls, low term or None), memoised."""
    got = pl.unit_stats.get(unit)
    if got is None:
        kit = pl.kit
        kind, copies, ranks = unit
        got = (0, 0, None)
        if kind == "group" and copies == 3 and kit.trio_kick:
            got = (1, 0, None)
        elif kind == "chain" and copies == 3 and kit.plane_kick:
            got = (len(ranks), 0, None)
        elif kind == "group" and copies <= 2:
            s = kit.strength[ranks[0]]
            got = (0, int(s < pl.top - 3), 0.1 * (1 - s / pl.top))
        pl.unit_stats[unit] = got
    return got


def _unit(pl: _Planner, kind: str, copies: int, ranks: tuple[int, ...]) \
        -> tuple[Unit, tuple[int, int, float | None]]:
    """The unit (kind, copies, ranks) and its :func:`_stats`, one shared tuple per unit."""
    got = pl.units.get((kind, copies, ranks))
    if got is None:
        unit: Unit = (kind, copies, ranks)
        got = pl.units[unit] = (unit, _stats(pl, unit))
    return got


_EMPTY_SPLIT: _Split = (0.0, (), 0, 0, ())


def _search(pl: _Planner, counts: tuple[int, ...]) -> _Split:
    """The cheapest split of ``counts`` (no controls): the lowest rank held goes as one group,
    or starts a chain (each length from the shortest up, in the kit's chain order); the rest
    is split the same way (memoised per hand). A later option replaces the best so far only
    when it costs strictly less. Each option's cost is :func:`_cost` of its units, computed
    from the unit's :func:`_stats` and the split of the rest with the very same float
    operations (the low terms summed in unit order from 0.0; 0.0 + x is x)."""
    memo = pl.search
    got = memo.get(counts)
    if got is not None:
        return got
    first = -1
    for i in pl.kit.order:
        if counts[i]:
            first = i
            break
    if first < 0:
        return _EMPTY_SPLIT
    c = counts[first]
    rest = counts[:first] + (0,) + counts[first + 1:]
    best_unit = pl.groups[first][c]
    best_sub = memo.get(rest) or _search(pl, rest)
    slots, smalls, term = best_unit[1]
    low = 0.0 if term is None else term
    for x in best_sub[4]:
        low += x
    best = float(len(best_sub[1]) + 1) - min(slots + best_sub[2], smalls + best_sub[3]) + low
    for copies, run_min, seq, p, units in pl.chains_at[first]:
        if c < copies:
            continue
        left = list(counts)
        end = len(seq)
        q = p
        while q < end and counts[seq[q]] >= copies:
            left[seq[q]] -= copies
            q += 1
            if q - p >= run_min:
                t = tuple(left)
                sub = memo.get(t) or _search(pl, t)
                unit = units[q - p - run_min]
                slots, smalls, term = unit[1]
                low = 0.0 if term is None else term
                for x in sub[4]:
                    low += x
                cost = float(len(sub[1]) + 1) - min(slots + sub[2], smalls + sub[3]) + low
                if cost < best:
                    best, best_unit, best_sub = cost, unit, sub
    u, (slots, smalls, term) = best_unit
    split = (best, (u,) + best_sub[1], slots + best_sub[2], smalls + best_sub[3],
             best_sub[4] if term is None else (term,) + best_sub[4])
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[counts] = split
    return split


@dataclass(frozen=True, slots=True)
class Plan:
    """A hand split into plays: ``units`` (the searched plays), ``controls`` (bombs and the
    rocket, set apart) and ``cost`` (plays left after kickers, with a little per low card)."""

    units: tuple[Unit, ...]
    controls: tuple[Unit, ...]
    cost: float


def plan(counts: Sequence[int], rules: Rules, wild: int | None = None) -> Plan:
    """The fewest-plays split of a hand (15 counts per rank index) under ``rules``: the rocket
    and bombs set apart, the rest searched (see the module doc). Memoised per hand.

    ``wild``: the rank index whose cards are wild (laizi, issue 26), or None. The wild cards
    then complete the plan: the plan is the cheapest of the plans of the hand with its wild
    cards standing for other ranks (:func:`wild_plan`), its units in the ranks the wild cards
    stand for."""
    if wild is not None and counts[wild]:
        return wild_plan(counts, rules, wild)
    pl = _planner(rules)
    key = tuple(counts)
    got = pl.plans.get(key)
    if got is not None:
        return got
    kit = pl.kit
    c = list(key)
    controls: list[Unit] = []
    if kit.rocket and all(c[j] >= 1 for j in kit.rocket):
        controls.append(("rocket", 1, kit.rocket))
        for j in kit.rocket:
            c[j] -= 1
    if kit.bomb is not None:
        for i in kit.order:
            if c[i] >= kit.bomb:
                controls.append(("bomb", c[i], (i,)))
                c[i] = 0
    split = _search(pl, tuple(c))
    got = Plan(split[1], tuple(controls), split[0])
    if len(pl.plans) >= MEMO_SIZE:
        pl.plans.clear()
    pl.plans[key] = got
    return got


#: Wild plans are searched exactly over every assignment of the wild cards while there are at
#: most this many assignments (two wild cards), greedily one wild card at a time beyond.
WILD_EXACT = 128


def wild_plan(counts: Sequence[int], rules: Rules, wild: int) -> Plan:
    """The plan of a hand whose cards of rank index ``wild`` are wild cards (laizi, issue 26):
    of the hands made by letting each wild card stand for a non-joker rank (its own included;
    Baidu Baike's laizi article: a wild card stands for any non-joker rank inside a
    combination), the one whose :func:`plan` costs least, with its plan (units in the ranks
    the wild cards stand for, a bomb completed by a wild card among the controls). A wild
    card stands for another rank only where the hand holds a natural card of it or a chain
    may pass through it, and a plan is refused when a play of it would be made of wild cards
    standing for another rank alone (played alone, a wild card is its own rank). Ties keep
    the wild cards as their own rank, then the lowest ranks. Exact over every assignment
    while there are at most :data:`WILD_EXACT`; beyond, one wild card at a time, each the best
    rank given the ones fixed before (the rest kept as their own rank). Memoised per hand."""
    pl = _planner(rules)
    key = (*counts, 100 + wild)
    got = pl.plans.get(key)
    if got is not None:
        return got
    natural = list(counts)
    w, natural[wild] = natural[wild], 0
    kit = pl.kit
    chained = {r for _, _, seq in kit.chains for r in seq}
    ranks = [wild] + [r for r in kit.order if r != wild and r not in rules.jokers
                      and (natural[r] or r in chained)]

    def tried(stand: Sequence[int]) -> Plan | None:
        v = list(natural)
        for r in stand:
            v[r] += 1
            if v[r] > rules.deck[r]:
                return None
        p = plan(v, rules)
        for kind, _, rs in p.units + p.controls:
            if kind in ("group", "bomb") and rs[0] != wild and not natural[rs[0]]:
                return None  # wild cards alone standing for another rank
        return p

    best: Plan | None = None
    if _assignments(len(ranks), w) <= WILD_EXACT:
        for stand in combinations_with_replacement(ranks, w):
            p = tried(stand)
            if p is not None and (best is None or p.cost < best.cost):
                best = p
    else:
        fixed: list[int] = []
        for i in range(w):
            pick, pick_plan = wild, None
            for r in ranks:
                p = tried(fixed + [r] + [wild] * (w - i - 1))
                if p is not None and (pick_plan is None or p.cost < pick_plan.cost):
                    pick, pick_plan = r, p
            fixed.append(pick)
            best = pick_plan
    if best is None:  # not reached: every wild card as its own rank is always admissible
        best = plan(counts, rules)
    if len(pl.plans) >= MEMO_SIZE:
        pl.plans.clear()
    pl.plans[key] = best
    return best


def _assignments(ranks: int, wilds: int) -> int:
    """Multisets of ``wilds`` ranks among ``ranks``: C(ranks + wilds − 1, wilds)."""
    return comb(ranks + wilds - 1, wilds)


def unit_cards(*units: Unit) -> Cards:
    """The cards of plan units, together."""
    v = [0] * N_RANKS
    for u in units:
        for r in u[2]:
            v[r] += u[1]
    return Cards(tuple(v))


def _planned(p: Plan, counts: Sequence[int]) -> tuple[int, ...]:
    """The hand a plan splits: its units' and controls' cards (under wild rules, the wild
    cards as the ranks they stand for); ``counts`` when the plan holds other cards."""
    return unit_cards(*p.units, *p.controls).counts if p.units or p.controls else tuple(counts)


def hand_strength(counts: Sequence[int], rules: Rules) -> float:
    """High-card strength of a hand: big joker 4, small joker 3, each card of the highest
    ordinary rank (the 2) 2, of the next (the ace) 0.5, each four of a rank 4."""
    kit = kit_of(rules)
    s = 0.0
    jokers = sorted(rules.jokers, key=lambda i: -rules.strength[i])
    for j, w in zip(jokers, (4.0, 3.0)):
        s += w * counts[j]
    plain = [i for i in kit.order if i not in rules.jokers]
    if plain:
        s += 2.0 * counts[plain[-1]]
    if len(plain) > 1:
        s += 0.5 * counts[plain[-2]]
    s += 4.0 * sum(1 for i in plain if counts[i] == 4)
    return s


# ----------------------------------------------------------------------------- the player


def _play(seat: int, m: Reading, held: Mapping[Reading, Action]) -> Action:
    """The play of ``m`` (``held``: under wild rules, the action of each reading,
    :func:`~ddzspec.players.base.plays_by_reading`; empty under natural rules)."""
    return held[m] if held else Action.play(seat, m.cards)


def _left(counts: Sequence[int], m: Reading,
          held: Mapping[Reading, Action]) -> tuple[int, ...]:
    """The hand's counts after playing ``m`` (body and kickers, without building m.cards;
    under wild rules the held cards it is played from)."""
    if held:
        return tuple(a - b for a, b in zip(counts, held_cards(m, held).counts))
    return tuple(a - b - k for a, b, k in zip(counts, m.body.counts, m.kickers.counts))


@dataclass(frozen=True, slots=True)
class Level2:
    """The intermediate player (see the module doc). ``seed`` is unused: level 2 draws
    nothing, so it is deterministic."""

    seed: int | str = 0
    level: int = 2

    def decide(self, view: SeatView) -> Action:
        """The action of the seat on turn (bid or move)."""
        return dispatch(self, view)

    def decide_bid(self, view: SeatView) -> Action:
        """Bid / call / rob on strength: high cards plus a plan term."""
        rules = check_view(view, BID_PHASES)
        counts = view.hand.counts
        p = plan(counts, rules, view.wild[0] if view.wild else None)
        s = hand_strength(_planned(p, counts) if view.wild else counts, rules) \
            + max(-3.0, min(3.0, (7.0 - p.cost) * 0.6))
        return bid_by_count(view, round(2 * s), (22, 16, 11), 10, 16, 5)

    def decide_move(self, view: SeatView) -> Action:
        """A play or a pass by the plan (see the module doc)."""
        rules = check_view(view, "play")
        return choose_move(view, rules)


def choose_move(view: SeatView, rules: Rules) -> Action:
    """Level 2's trick-play decision for the seat on turn (see the module doc): a pass or the
    play of held cards (under wild rules, the wild cards as cards of the wild rank)."""
    seat = view.seat
    prev = None if view.last is None else view.last[1]
    moves = legal_plays(view, rules)
    held = plays_by_reading(view, rules)
    wild = view.wild[0] if view.wild else None
    need = to_go(view, seat)
    outs = [m for m in moves if m.size >= need]
    if outs:
        return _play(seat, max(outs, key=lambda m: (m.size, -m.tier)), held)
    opp = opponents(view)
    close = min((to_go(view, s) for s in opp), default=99)
    if prev is None:
        return _lead(view, rules, moves, close, held)
    assert view.last is not None
    last_seat = view.last[0]
    counts = view.hand.counts
    if same_side(view, last_seat, seat):
        low = len(rules.order) // 2
        for m in moves:
            if m.tier == 0 and prev.key < low - 2 and m.key <= low and \
                    to_go(view, last_seat) > 2 and \
                    all(c == 0 or c == counts[i] for i, c in
                        enumerate(held_cards(m, held).counts)):
                return _play(seat, m, held)
        return Action.pass_(seat)
    now = plan(counts, rules, wild)
    base = now.cost
    urgency = to_go(view, last_seat)
    allowance = 0.25 if close > 4 else 1.25 if close > 2 else 99.0
    best: tuple[tuple[float, ...], Reading] | None = None
    bombs = []
    n_bombs = len(now.controls)
    chase = urgency <= 2 and prev.size <= 2
    for m in moves:
        if m.tier > 0:
            bombs.append(m)
            continue
        after = plan(_left(counts, m, held), rules, wild)
        delta = after.cost - (base - 1)
        if len(after.controls) < n_bombs:
            delta += 2.0  # a bomb broken for an ordinary answer
        if delta > allowance:
            continue
        cost: tuple[float, ...] = (-m.key,) if chase else (delta, m.key)
        if best is None or cost < best[0]:
            best = (cost, m)
    if best is not None:
        return _play(seat, best[1], held)
    if bombs:
        b = min(bombs, key=lambda m: (m.tier, m.key))
        left = plan(_left(counts, b, held), rules, wild)
        if close <= 3 or len(left.units) <= 1:
            return _play(seat, b, held)
    return Action.pass_(seat)


def _lead(view: SeatView, rules: Rules, moves: Sequence[Reading], close: int,
          held: Mapping[Reading, Action]) -> Action:
    seat = view.seat
    counts = view.hand.counts
    wild = view.wild[0] if view.wild else None
    p = plan(counts, rules, wild)

    def find(cards: Cards) -> Reading | None:
        # m.cards == cards, without building m.cards: packed keys add up rank by rank
        n, key = len(cards), cards.key
        return next((m for m in moves if m.size == n and m.body.key + m.kickers.key == key),
                    None)
    if p.controls and len(p.units) <= 1:
        for u in sorted(p.controls, key=lambda u: (u[0] == "rocket", u[2])):
            m = find(unit_cards(u))
            if m is not None:
                return _play(seat, m, held)
    kit = kit_of(rules)
    top = len(kit.order)
    smalls = sorted((u for u in p.units if u[0] == "group" and u[1] <= 2
                     and kit.strength[u[2][0]] < top - 3),
                    key=lambda u: kit.strength[u[2][0]])

    def rank_key(u: Unit) -> tuple[float, ...]:
        size = u[1] * len(u[2])
        risky = (close == 1 and size == 1) or (close == 2 and size == 2)
        s = kit.strength[u[2][0]]
        return (int(risky), -s if risky else s, -size)

    for u in sorted(p.units, key=rank_key):
        cards = unit_cards(u)
        kick_kinds = kit.trio_kick if (u[0] == "group" and u[1] == 3) else \
            kit.plane_kick if (u[0] == "chain" and u[1] == 3) else ()
        want = len(u[2])
        for kind in kick_kinds:
            k = 1 if kind == "single" else 2
            pool = [s for s in smalls if s[1] == k][:want]
            if len(pool) == want:
                m = find(cards + unit_cards(*pool))
                if m is not None:
                    return _play(seat, m, held)
        m = find(cards)
        if m is not None:
            return _play(seat, m, held)
    # the plan's plays are not moves of these rules: the lead that costs the plan least
    best = min(moves, key=lambda m: (m.tier, plan(_left(counts, m, held), rules, wild).cost,
                                     m.key))
    return _play(seat, best, held)

