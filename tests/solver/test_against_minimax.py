"""Differential tests: the solver (transposition table, move ordering, cutoffs, move generation
from the packed table, MTD-style score) against a plain minimax on small random positions.

The reference enumerates every sub-multiset of a hand, reads it with the move table's lookup
and compares with :func:`ddzspec.readings.beats`; it scores by full minimax on the landlord's
payoff with the multiplier, spring and anti-spring tracked explicitly. It memoises on the exact
state only (a transparently correct cache).
"""

from __future__ import annotations

import itertools
from functools import cache

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
    """(landlord payoff in stake units, {move text or PASS: payoff}) by plain minimax."""
    rules = pos.rules
    n = pos.n_seats
    roles = pos.roles
    dbl = set(rules.scoring.double)
    table = get_table(rules)

    @cache
    def value(s, hands, last_key, passes, lp, pp):
        last = None if last_key is None else table.lookup(Cards(last_key))
        kids = children(s, hands, last, passes, lp, pp)
        vals = [v for _, v in kids]
        return max(vals) if roles[s] == "landlord" else min(vals)

    def children(s, hands, last, passes, lp, pp):
        out = []
        is_ll = roles[s] == "landlord"
        for r in sub_moves(rules, hands[s]):
            if last is not None and not beats(r, last)[0]:
                continue
            f = 2 if r.shape in dbl else 1
            left = tuple(a - b for a, b in zip(hands[s], r.cards.counts))
            h2 = hands[:s] + (left,) + hands[s + 1:]
            lp2 = min(lp + 1, 2) if is_ll else lp
            pp2 = pp or not is_ll
            if sum(left) <= pos.targets[s]:
                if is_ll:
                    v = f * (2 if (not pp and "spring" in dbl) else 1)
                else:
                    v = -f * (2 if (lp <= 1 and "anti_spring" in dbl) else 1)
            else:
                v = f * value((s + 1) % n, h2, r.cards.counts, 0, lp2, pp2)
            out.append((r.format(), v))
        if last is not None:
            if passes + 1 >= n - 1:
                v = value((s + 1) % n, hands, None, 0, lp, pp)
            else:
                v = value((s + 1) % n, hands, last.cards.counts, passes + 1, lp, pp)
            out.append(("PASS", v))
        return out

    hands = tuple(h.counts for h in pos.hands)
    last = None if pos.on_table is None else table.lookup(pos.on_table)
    kids = children(pos.to_move, hands, last, pos.passes, pos.landlord_plays,
                    pos.peasants_played)
    vals = [v for _, v in kids]
    root = max(vals) if roles[pos.to_move] == "landlord" else min(vals)
    return root, dict(kids)


@st.composite
def positions(draw, seats: int, max_cards: int, rules: Rules = CLASSIC,
              ranks: tuple[int, ...] | None = None):
    """A random small position: hands dealt from the deck (or from the given rank indices
    only: bombs and rockets then come often), maybe a move on the table, maybe a spring state
    and (duel) a handicap."""
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
    for i in order[at:at + 4] or order[:1]:
        rest[i] += 1
    if draw(st.booleans()):
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
                         peasants_played=peasants_played)


def check(pos: Position) -> None:
    ref, kids = reference(pos)
    res = solve(pos, want="score")
    assert res.status == "solved"
    mover_is_ll = pos.roles[pos.to_move] == "landlord"
    assert res.winner == ("landlord" if ref > 0 else "peasants"), pos.format()
    wins = {m for m, v in kids.items() if (v > 0) == mover_is_ll}
    assert set(res.winning_moves) == wins, pos.format()
    best = {m for m, v in kids.items() if v == ref}
    assert set(res.best_moves) == best, pos.format()
    unit = 2 if pos.n_seats == 3 else 1
    assert res.score["landlord"] == ref * unit * pos.base * pos.multiplier, pos.format()
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
