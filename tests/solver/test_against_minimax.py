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

from ddzspec.cards import N_RANKS, Cards, parse_cards
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


# ----------------------------------------------------------------------------- wild cards

LAIZI = load_rules("laizi")
#: laizi with ``reading declared``: every reading of a play is a move of its own
DECLARED = load_rules(str(Path(__file__).parents[2] / "examples" / "laizi-declared.rules"))
#: laizi.rules' wild section, as its comments state it (Baidu Baike's laizi article): the
#: bomb classes and the shapes above the bomb line, highest first, each class's factor, and the
#: type priority of a lead
WILD_ORDER = ("rocket", "pure", "hard", "soft")
WILD_FACTOR = {"soft": 2, "hard": 4, "pure": 4}
PRIORITY = ("rocket", "bomb", "four_two_pairs", "four_two_singles", "plane_pairs",
            "plane_singles", "plane", "pair_straight", "straight", "trio_pair", "trio_single",
            "trio", "pair", "single")


def test_the_wild_reference_reads_laizi_as_written() -> None:
    w = LAIZI.wild
    assert w is not None and w.order == WILD_ORDER and not w.restrictions
    assert {c.value: f for c, f in w.factors} == WILD_FACTOR and w.priority == PRIORITY


def wild_readings_of(play: tuple[int, ...], rank: int):
    """Every reading of a play (counts; those of rank index ``rank`` wild), brute force: each
    wild card stands for any non-joker rank (its own too), every multiset looked up in the
    move table; a play of wild cards only is itself (a pure bomb when four). Each reading:
    (the natural Reading, its bomb class or None)."""
    table = get_table(LAIZI)
    k = play[rank]
    natural = tuple(0 if i == rank else c for i, c in enumerate(play))
    if not any(natural):
        r = table.lookup(Cards(play))
        return [] if r is None else [(r, "pure" if r.shape == "bomb" else None)]
    out = []
    ranks = [i for i in range(N_RANKS) if LAIZI.deck[i] and i not in LAIZI.jokers]
    for sub in itertools.combinations_with_replacement(ranks, k):
        m = list(natural)
        for i in sub:
            m[i] += 1
        if any(c > d for c, d in zip(m, LAIZI.deck)):
            continue
        r = table.lookup(Cards(tuple(m)))
        if r is not None:
            out.append((r, ("soft" if k else "hard") if r.shape == "bomb" else None))
    return out


def wild_strength(reading):
    """(place above the bomb line, tier, key): how high a reading stands."""
    r, cls = reading
    name = cls or r.shape
    place = len(WILD_ORDER) - WILD_ORDER.index(name) if name in WILD_ORDER else 0
    return place, r.tier, r.key


def wild_beats(a, b) -> bool:
    """Above the bomb line by (class, tier, rank), below it the natural rule."""
    if a[0].tier or b[0].tier:
        return wild_strength(a) > wild_strength(b)
    return beats(a[0], b[0])[0]


def policy(readings, previous):
    """The reading a play is made with (reading strongest): leading, the type first in the
    priority, then the strongest; answering, among the readings that beat ``previous``, the
    strongest of its type and size, else the strongest bomb or rocket. None: it cannot."""
    if previous is None:
        if not readings:
            return None
        top = min(PRIORITY.index(r.shape) for r, _ in readings)
        return max((x for x in readings if PRIORITY.index(x[0].shape) == top), key=wild_strength)
    ok = [x for x in readings if wild_beats(x, previous)]
    same = [x for x in ok if x[0].shape == previous[0].shape and x[0].size == previous[0].size]
    pool = same or [x for x in ok if x[0].tier]
    return max(pool, key=wild_strength) if pool else None


def wild_move_text(play: tuple[int, ...], rank: int) -> str:
    natural = Cards(tuple(0 if i == rank else c for i, c in enumerate(play)))
    return (natural.format() if len(natural) else "") + "*" * play[rank]


def wild_reference(pos: Position):
    """As :func:`reference`, the plays being every sub-multiset of a hand with the reading
    :func:`policy` gives it, a bomb's factor its class's; moves named (play, shape, body)."""
    sc = LAIZI.scoring
    n, rank = pos.n_seats, pos.wild
    declared = pos.rules is DECLARED
    roles = pos.roles

    def settle(landlord_wins, product):
        sign = 1 if landlord_wins else -1
        scores = [0] * n
        for p in range(1, n):
            scores[p] = -sign * pos.base * pos.multiplier * product
            scores[0] += sign * pos.base * pos.multiplier * product
        return tuple(scores)

    @cache
    def readings_of(play):
        return tuple(wild_readings_of(play, rank))

    @cache
    def value(s, hands, last, passes, lp, pp, product):
        kids = [v for _, v in children(s, hands, last, passes, lp, pp, product)]
        return (max if roles[s] == "landlord" else min)(kids)

    def picks(play, last):
        """The readings ``play`` may be made with: the policy's, or (declared) every reading
        leading, every one that beats ``last`` answering."""
        if not declared:
            pick = policy(readings_of(play), last)
            return [] if pick is None else [pick]
        return [x for x in readings_of(play) if last is None or wild_beats(x, last)]

    def children(s, hands, last, passes, lp, pp, product):
        out = []
        is_ll = roles[s] == "landlord"
        for play, pick in ((p, x) for p in itertools.product(*(range(c + 1) for c in hands[s]))
                           if any(p) for x in picks(p, last)):
            r, cls = pick
            f = WILD_FACTOR[cls] if cls else sc.factor(r.shape)
            left = tuple(a - b for a, b in zip(hands[s], play))
            h2 = hands[:s] + (left,) + hands[s + 1:]
            if not any(left):
                end = f * product
                if is_ll and not pp:
                    end *= sc.factor("spring")
                if not is_ll and lp <= 1:
                    end *= sc.factor("anti_spring")
                v = settle(is_ll, end)
            else:
                v = value((s + 1) % n, h2, pick, 0, min(lp + 1, 2) if is_ll else lp,
                          pp or not is_ll, f * product)
            out.append(((wild_move_text(play, rank), r.shape, r.size, r.key), v))
        if last is not None:
            if passes + 1 >= n - 1:
                v = value((s + 1) % n, hands, None, 0, lp, pp, product)
            else:
                v = value((s + 1) % n, hands, last, passes + 1, lp, pp, product)
            out.append(("PASS", v))
        return out

    hands = tuple(h.counts for h in pos.hands)
    last = None
    if pos.on_table is not None:
        found = readings_of(pos.on_table.counts)
        last = policy(found, None) if pos.on_table_as is None else next(
            x for x in found if x[0].cards == pos.on_table_as)
    kids = children(pos.to_move, hands, last, pos.passes, pos.landlord_plays,
                    pos.peasants_played, 1)
    best = (max if roles[pos.to_move] == "landlord" else min)(v for _, v in kids)
    return best, {m: v[0] for m, v in kids}


def solver_move(text: str):
    """A solver's move ``33**=3333`` (a play without wild cards: ``333+4``) as (play, shape,
    size, body key), PASS as itself."""
    if text == "PASS":
        return text
    play, _, reading = text.partition("=")
    if not reading:
        play, reading = parse_cards(text).cards.format(), text
    r = get_table(LAIZI).lookup(parse_cards(reading).cards)
    assert r is not None, text
    return play, r.shape, r.size, r.key


def wild_check(pos: Position) -> None:
    ref, kids = wild_reference(pos)
    res = solve(pos, want="score")
    assert res.status == "solved"
    mover_is_ll = pos.roles[pos.to_move] == "landlord"
    assert res.winner == ("landlord" if ref[0] > 0 else "peasants"), pos.format()
    wins = {m for m, v in kids.items() if (v > 0) == mover_is_ll}
    assert {solver_move(m) for m in res.winning_moves} == wins, pos.format()
    best = {m for m, v in kids.items() if v == ref[0]}
    assert {solver_move(m) for m in res.best_moves} == best, pos.format()
    assert tuple(res.score.values()) == ref, pos.format()
    assert solve(pos).winner == res.winner


@st.composite
def wild_positions(draw, seats: int, max_cards: int, rules: Rules = LAIZI):
    """A small laizi position: a wild rank drawn, hands dealt from it and a few other ranks
    (a joker maybe), holding 1 to 4 wild cards together; maybe a move on the table (read as
    a lead; under ``reading declared`` as one of its readings, written after ``=``) and a
    spring state."""
    rank = draw(st.integers(0, 12))
    others = draw(st.lists(st.integers(0, 14).filter(lambda r: r != rank), min_size=3,
                           max_size=3, unique=True))
    deck = [i for i in [rank, *others] for _ in range(LAIZI.deck[i])]
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
    assume(1 <= sum(h.counts[rank] for h in hands.values()) <= 4)
    to_move = draw(st.sampled_from(names))
    on_table = played_by = on_table_as = None
    rest = [0] * N_RANKS
    for i in order[at:at + 3]:
        rest[i] += 1
    if any(rest) and draw(st.booleans()):
        plays = [p for p in itertools.product(*(range(c + 1) for c in rest))
                 if any(p) and policy(wild_readings_of(p, rank), None) is not None]
        if plays:
            on_table = Cards(draw(st.sampled_from(plays)))
            if rules is DECLARED:
                on_table_as = draw(st.sampled_from(
                    [r.cards for r, _ in wild_readings_of(on_table.counts, rank)]))
            played_by = draw(st.sampled_from([x for x in names if x != to_move]))
    fresh = to_move == "landlord" and on_table is None
    landlord_plays = draw(st.integers(0 if fresh else 1, 2))
    peasant_moved = (on_table is None and to_move != "landlord") or (
        played_by is not None and played_by != "landlord")
    peasants_played = landlord_plays > 0 and (peasant_moved or draw(st.booleans()))
    return make_position(rules, hands, to_move, on_table=on_table, played_by=played_by,
                         landlord_plays=landlord_plays, peasants_played=peasants_played,
                         wild=rank, on_table_as=on_table_as)


WILD = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@WILD
@given(wild_positions(2, 5))
def test_two_seats_with_wild_cards_against_minimax(pos: Position) -> None:
    wild_check(pos)


@WILD
@given(wild_positions(3, 3))
def test_three_seats_with_wild_cards_against_minimax(pos: Position) -> None:
    wild_check(pos)


@WILD
@given(wild_positions(2, 4, DECLARED))
def test_two_seats_with_declared_readings_against_minimax(pos: Position) -> None:
    wild_check(pos)


@WILD
@given(wild_positions(3, 3, DECLARED))
def test_three_seats_with_declared_readings_against_minimax(pos: Position) -> None:
    wild_check(pos)


def test_a_wild_card_completing_a_straight_turns_the_verdict() -> None:
    # 34569 v AA, landlord to lead. Natural (classic): five singles, each beaten by an A, and
    # the peasant leads its last A: the peasants win. With 9 wild: 3456 and the wild card as
    # 7 are the straight 34567, the whole hand: the landlord is out at once
    hands = {"landlord": "34569", "peasant": "AA"}
    assert solve(make_position(CLASSIC, hands, "landlord")).winner == "peasants"
    res = solve(make_position(LAIZI, hands, "landlord", wild="9"), want="all")
    assert res.winner == "landlord" and res.winning_moves == ("3456*=34567",)


def test_a_soft_bomb_doubles_the_score() -> None:
    # 3337 v AA with 7 wild: 333 and the wild card lead as the soft bomb 3333 (the priority
    # puts bomb before trio_single), x2: the landlord wins 2 (natural: the trio 333+7, 1)
    hands = {"landlord": "3337", "peasant": "AA"}
    assert dict(solve(make_position(CLASSIC, hands, "landlord"), want="score").score) == {
        "landlord": 1, "peasant": -1}
    res = solve(make_position(LAIZI, hands, "landlord", wild="7"), want="score")
    assert dict(res.score) == {"landlord": 2, "peasant": -2}
    assert res.best_moves == ("333*=3333",)


def test_a_declared_reading_may_answer_as_a_bomb() -> None:
    # 5557 (7 wild) answering the peasant's 444+3, the peasant holding a 3: laizi's policy
    # answers with the answered type and size first, 555+X, out at once, x1; declared, the
    # landlord may state 555*=5555, the soft bomb, out at once, x2 (factor soft 2)
    hands = {"landlord": "5557", "peasant": "3"}
    kw = {"on_table": "4443", "played_by": "peasant", "landlord_plays": 1,
          "peasants_played": True, "wild": "7"}
    strongest = solve(make_position(LAIZI, hands, "landlord", **kw), want="score")
    assert dict(strongest.score) == {"landlord": 1, "peasant": -1}
    declared = solve(make_position(DECLARED, hands, "landlord", **kw), want="score")
    assert dict(declared.score) == {"landlord": 2, "peasant": -2}
    assert declared.best_moves == ("555*=5555",)
