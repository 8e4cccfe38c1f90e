"""Differential tests: the solver (transposition table, move ordering, cutoffs, move generation
from the packed table, MTD-style score) against a plain minimax on small random positions.

The reference enumerates every sub-multiset of a hand, reads it with the move table's lookup
and compares with :func:`ddzspec.readings.beats`; it scores by full minimax on the landlord's
points, settled at each end as the rules say, written here: the product of the factors met
(each play of a multiplying shape times its factor while ``cap bombs`` still counts, the
spring's or anti-spring's), times the position's multiplier and each peasant's own factor,
capped at ``cap multiplier`` per pair, each peasant ∓ base × its multiplier, the landlord the
sum. It memoises on the exact state only (a transparently correct cache).
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path

from ddzspec.solver.position import Position
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ddzspec.cards import N_RANKS, Cards
from ddzspec.readings import beats
from ddzspec.rules import Rules, load_rules
from ddzspec.solver import make_position, solve
from ddzspec.table import get_table

CLASSIC = load_rules("classic")
DUEL = load_rules("duel")


def sub_moves(rules: Rules, counts: tuple[int, ...]):
    """Every legal move contained in a hand: all sub-multisets, looked up in the table."""
    table = get_table(rules)
    out = []
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        if any(sub):
            r = table.lookup(Cards(tuple(sub)))
            if r is not None:
                out.append(r)
    return out


def reference(pos: Position):
    """(the points per seat of the best outcome, {move text or PASS: the landlord's points})
    by plain minimax on the landlord's points."""
    rules = pos.rules
    sc = rules.scoring
    n = pos.n_seats
    roles = pos.roles
    table = get_table(rules)
    own = [pos.pairs[i] if pos.pairs else 1 for i in range(n)]

    def settle(landlord_wins, product):
        sign = 1 if landlord_wins else -1
        scores = [0] * n
        for p in range(1, n):
            mult = pos.multiplier * product * own[p]
            if sc.cap_multiplier is not None:
                mult = min(mult, sc.cap_multiplier)
            scores[p] = -sign * pos.base * mult
            scores[0] += sign * pos.base * mult
        return tuple(scores)

    @cache
    def value(s, hands, last_key, passes, lp, pp, counted, product):
        last = None if last_key is None else table.lookup(Cards(last_key))
        kids = [v for _, v in children(s, hands, last, passes, lp, pp, counted, product)]
        return (max if roles[s] == "landlord" else min)(kids)

    def children(s, hands, last, passes, lp, pp, counted, product):
        out = []
        is_ll = roles[s] == "landlord"
        for r in sub_moves(rules, hands[s]):
            if last is not None and not beats(r, last)[0]:
                continue
            f, c2 = sc.factor(r.shape), counted
            if f > 1:
                if sc.cap_bombs is not None and counted >= sc.cap_bombs:
                    f = 1
                else:
                    c2 += 1
            left = tuple(a - b for a, b in zip(hands[s], r.cards.counts))
            h2 = hands[:s] + (left,) + hands[s + 1:]
            lp2 = min(lp + 1, 2) if is_ll else lp
            pp2 = pp or not is_ll
            if sum(left) <= pos.targets[s]:
                end = f * product
                if is_ll and not pp:
                    end *= sc.factor("spring")
                if not is_ll and lp <= 1:
                    end *= sc.factor("anti_spring")
                v = settle(is_ll, end)
            else:
                v = value((s + 1) % n, h2, r.cards.counts, 0, lp2, pp2, c2, f * product)
            out.append((r.format(), v))
        if last is not None:
            if passes + 1 >= n - 1:
                v = value((s + 1) % n, hands, None, 0, lp, pp, counted, product)
            else:
                v = value((s + 1) % n, hands, last.cards.counts, passes + 1, lp, pp, counted,
                          product)
            out.append(("PASS", v))
        return out

    hands = tuple(h.counts for h in pos.hands)
    last = None if pos.on_table is None else table.lookup(pos.on_table)
    kids = children(pos.to_move, hands, last, pos.passes, pos.landlord_plays,
                    pos.peasants_played, pos.bombs, 1)
    best = (max if roles[pos.to_move] == "landlord" else min)(v for _, v in kids)
    return best, {m: v[0] for m, v in kids}


@st.composite
def positions(draw, seats: int, max_cards: int, rules: Rules = CLASSIC,
              ranks: tuple[int, ...] | None = None, stakes: bool = False):
    """A random small position: hands dealt from the deck (or from the given rank indices
    only: bombs and rockets then come often), maybe a move on the table, maybe a spring state
    and (duel) a handicap. ``stakes``: also a multiplier so far, each peasant's own factor
    (rules with a pair's round) and the plays counted (``cap bombs``)."""
    deck = [i for i in (ranks if ranks is not None else range(N_RANKS))
            for _ in range(rules.deck[i])]
    order = draw(st.permutations(deck))
    sizes = [draw(st.integers(1, max_cards)) for _ in range(seats)]
    names = ("landlord", "peasant") if seats == 2 else ("landlord", "peasant1", "peasant2")
    hands, at = {}, 0
    for name, k in zip(names, sizes):
        c = [0] * N_RANKS
        for i in order[at:at + k]:
            c[i] += 1
        hands[name] = Cards(tuple(c))
        at += k
    to_move = draw(st.sampled_from(names))
    on_table = played_by = None
    rest = [0] * N_RANKS
    for i in order[at:at + 4]:  # cards no hand holds (none when the hands hold the deck)
        rest[i] += 1
    if any(rest) and draw(st.booleans()):
        moves = sub_moves(rules, tuple(rest))
        if moves:
            on_table = draw(st.sampled_from(moves)).cards
            others = [x for x in names if x != to_move]
            played_by = draw(st.sampled_from(others))
    robs = draw(st.integers(0, 2)) if rules is DUEL else None
    if robs:
        assume(sizes[1] > robs)
    # "played landlord: none" only at the very start: the landlord leads first, so no
    # peasant has played; a peasant has when it leads or its move is on the table
    fresh = to_move == "landlord" and on_table is None
    landlord_plays = draw(st.integers(0 if fresh else 1, 2))
    peasant_moved = (on_table is None and to_move != "landlord") or (
        played_by is not None and played_by != "landlord")
    peasants_played = (landlord_plays > 0 and (peasant_moved or draw(st.booleans())))
    return make_position(rules, hands, to_move, on_table=on_table, played_by=played_by,
                         robs=robs, landlord_plays=landlord_plays,
                         peasants_played=peasants_played,
                         **(draw(stakes_of(rules, names)) if stakes else {}))


@st.composite
def stakes_of(draw, rules: Rules, names: tuple[str, ...],
              multipliers: tuple[int, ...] = (1, 3, 8, 16, 32)):
    """make_position's scoring state: a multiplier so far (one of ``multipliers``), each
    peasant's own factor (rules with a pair's round) and the multiplying plays counted (``cap
    bombs``)."""
    out = {"multiplier": draw(st.sampled_from(multipliers))}
    if any(r.scope == "pair" for r in rules.rounds):
        out["pairs"] = {name: draw(st.sampled_from((1, 2, 4))) for name in names[1:]}
    if rules.scoring.cap_bombs is not None:  # no bomb counted any more, one, or all
        out["bombs"] = max(0, rules.scoring.cap_bombs - draw(st.sampled_from((0, 1, 3))))
    return out


@st.composite
def bomb_positions(draw, seats: int, rules: Rules):
    """Hands of two whole bombs (the rocket maybe) and one single card each, the landlord to
    lead, with :func:`stakes_of`'s scoring state at a multiplier of 8 to 32: plays that
    multiply are in most lines, so a multiplier cap and a bombs cap bite."""
    names = ("landlord", "peasant") if seats == 2 else ("landlord", "peasant1", "peasant2")
    bombs = draw(st.lists(st.integers(0, 12), min_size=2, max_size=2, unique=True))
    singles = draw(st.lists(st.integers(0, 12).filter(lambda r: r not in bombs),
                            min_size=seats, max_size=seats, unique=True))
    counts = [[0] * N_RANKS for _ in names]
    for r in bombs:
        counts[draw(st.integers(0, seats - 1))][r] = 4
    rocket = draw(st.integers(-1, seats - 1))  # -1: nobody holds it
    if rocket >= 0:
        counts[rocket][13] = counts[rocket][14] = 1
    for i, r in enumerate(singles):
        counts[i % seats][r] += 1
    hands = {name: Cards(tuple(c)) for name, c in zip(names, counts)}
    fresh = draw(st.booleans())  # the landlord's first lead: a spring still possible
    return make_position(rules, hands, "landlord", landlord_plays=0 if fresh else 2,
                         **draw(stakes_of(rules, names, (8, 16, 32))))


def check(pos: Position) -> None:
    ref, kids = reference(pos)
    res = solve(pos, want="score")
    assert res.status == "solved"
    mover_is_ll = pos.roles[pos.to_move] == "landlord"
    assert res.winner == ("landlord" if ref[0] > 0 else "peasants"), pos.format()
    wins = {m for m, v in kids.items() if (v > 0) == mover_is_ll}
    assert set(res.winning_moves) == wins, pos.format()
    best = {m for m, v in kids.items() if v == ref[0]}
    assert set(res.best_moves) == best, pos.format()
    assert tuple(res.score.values()) == ref, pos.format()
    assert sum(res.score.values()) == 0
    # the winner-only answer agrees with the full one
    assert solve(pos).winner == res.winner


SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(positions(2, 5))
def test_two_seats_against_minimax(pos: Position) -> None:
    check(pos)


@SETTINGS
@given(positions(3, 3))
def test_three_seats_against_minimax(pos: Position) -> None:
    check(pos)


@SETTINGS
@given(positions(2, 5, DUEL))
def test_duel_handicap_against_minimax(pos: Position) -> None:
    check(pos)


@SETTINGS
@given(positions(2, 6, CLASSIC, ranks=(0, 1, 2, 11, 12, 13, 14)))
def test_bombs_and_rockets_against_minimax(pos: Position) -> None:
    check(pos)


@SETTINGS
@given(positions(2, 6, DUEL, ranks=(2, 3, 12, 13, 14)))
def test_duel_bombs_at_the_handicap_against_minimax(pos: Position) -> None:
    check(pos)


@SETTINGS
@given(positions(3, 4, CLASSIC, ranks=(0, 1, 12, 13, 14)))
def test_three_seats_bombs_against_minimax(pos: Position) -> None:
    check(pos)


def _pairs_double() -> Rules:
    from ddzspec.rules import load_rules_text
    return load_rules_text("rules pairs_double extends classic\nscoring {\n    base 1\n"
                           "    double pair bomb rocket spring anti_spring\n"
                           "    settle per_peasant\n}\n")


PAIRS_DOUBLE = _pairs_double()


@SETTINGS
@given(positions(2, 5, PAIRS_DOUBLE, ranks=(0, 1, 2, 12, 13, 14)))
def test_score_when_a_repeatable_shape_doubles(pos: Position) -> None:
    # a pair can be played twice from four of a rank: the stake bound must allow for it
    check(pos)


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SPRING_X3 = load_rules(str(EXAMPLES / "spring-x3.rules"))
CAPPED = load_rules(str(EXAMPLES / "capped.rules"))
HAPPY = load_rules("happy")
FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: whole bombs make the reference's trees large: fewer of them
BOMBS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FEW
@given(positions(3, 3, SPRING_X3, ranks=(0, 1, 2, 12, 13, 14)))
def test_spring_x3_against_minimax(pos: Position) -> None:
    check(pos)


@FEW
@given(positions(2, 4, CAPPED, ranks=(0, 1, 13, 14), stakes=True))
def test_caps_against_minimax(pos: Position) -> None:
    check(pos)


@BOMBS
@given(bomb_positions(2, CAPPED))
def test_caps_biting_against_minimax(pos: Position) -> None:
    # multipliers up to 32 and bombs in every hand: the cap of 64 and the 3 bombs counted bite
    check(pos)


@FEW
@given(positions(3, 3, HAPPY, ranks=(0, 1, 12, 13, 14), stakes=True))
def test_pair_factors_against_minimax(pos: Position) -> None:
    # each peasant's own factor (1, 2 or 4) under happy's cap of 64
    check(pos)


@BOMBS
@given(bomb_positions(3, HAPPY))
def test_pair_factors_at_the_cap_against_minimax(pos: Position) -> None:
    check(pos)
