"""House rules on shapes in readings, the move table, legal moves and the solver's move set
(sources in each example file): low A-2 chains (examples/low-straights.rules),
last-play-only shapes (examples/last-play-trio.rules), plane wings without 2s or jokers
(examples/wings-no-twos.rules), wings as consecutive pairs (examples/consecutive-wings.rules),
wrap-around chains (examples/wrap-straights.rules).
Counts are worked out here by hand from the rules as written, not from ddzspec.
"""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from ddzspec.solver.movegen import move_set

from ddzspec.cards import Cards, pack
from ddzspec.moves import legal_moves
from ddzspec.readings import beats, read
from ddzspec.rules import Rules, load_rules
from ddzspec.table import get_table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: the declared chain order of low-straights: the ace at both ends, no wrap
SEQUENCE = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def example(name: str) -> Rules:
    return load_rules(str(EXAMPLES / f"{name}.rules"))


def windows(seq: list[str], lo: int, hi: int) -> list[list[str]]:
    """Every run of ``lo`` .. ``hi`` consecutive entries of ``seq``."""
    return [seq[s:s + n] for n in range(lo, hi + 1) for s in range(len(seq) - n + 1)]


@pytest.fixture(scope="module")
def low() -> Rules:
    return example("low-straights")


def test_a2345_is_the_lowest_straight_and_10jqka_the_highest(low: Rules) -> None:
    fives = ["".join(w) for w in windows(SEQUENCE, 5, 5)]
    assert fives[0] == "A2345" and fives[-1] == "10JQKA" and len(fives) == 10
    readings = [read(m, low).reading for m in fives]
    assert all(r.shape == "straight" for r in readings)
    assert [r.key for r in readings] == sorted(r.key for r in readings)  # strictly rising
    assert len({r.key for r in readings}) == 10
    for lower, higher in pairwise(readings):
        assert beats(higher, lower)[0] and not beats(lower, higher)[0]
    assert beats(read("23456", low).reading, read("A2345", low).reading) == (
        True, "same type and length, higher body (6 over 5; kickers never count)")


@pytest.mark.parametrize("move", ["QKA23", "KA234", "JQKA2", "KA2345"])
def test_no_wrap_and_no_ace_in_the_middle(low: Rules, move: str) -> None:
    assert not read(move, low).legal


def test_classic_is_unchanged() -> None:
    classic = load_rules("classic")
    assert not read("A2345", classic).legal and read("10JQKA", classic).legal


def test_chain_counts_by_hand(low: Rules) -> None:
    # straight 5..12, pair_straight 3.. (20 cards: at most 10 pairs), plane 3 x 2.. (at most
    # 6 trios), over the 14 places of A 2 3 .. K A; no window holds a rank twice at these
    # lengths (that needs all 14 places)
    by_type = get_table(low).by_type()
    assert by_type["straight"] == len(windows(SEQUENCE, 5, 12)) == 52
    assert by_type["pair_straight"] == len(windows(SEQUENCE, 3, 10)) == 68
    assert by_type["plane"] == len(windows(SEQUENCE, 2, 6)) == 55
    assert all(len(set(w)) == len(w) for w in windows(SEQUENCE, 2, 12))


def test_legal_straights_of_a_hand(low: Rules) -> None:
    hand = ["A", "2", "3", "4", "5", "6", "7", "8", "9"]
    moves = legal_moves("".join(hand), None, low)
    straights = [m for m in moves if m.shape == "straight"]
    # runs of 5..9 within the hand's places A 2 .. 9: 5 + 4 + 3 + 2 + 1
    expected = [w for w in windows(SEQUENCE, 5, 12) if set(w) <= set(hand)]
    assert len(straights) == len(expected) == 15
    # answering A2345: every straight of five above it that the hand holds
    answers = legal_moves("".join(hand), "A2345", low)
    assert [m.format() for m in answers if m.shape == "straight"] == [
        "".join(w).replace("10", "T") for w in windows(SEQUENCE, 5, 5)[1:5]]


def test_the_solver_ranks_chains_by_the_sequence(low: Rules) -> None:
    ms = move_set(low)
    ids = [ms.move_id(Cards.parse(m)) for m in ("A2345", "23456", "910JQK", "10JQKA")]
    assert None not in ids
    strength = [ms.strength[i] for i in ids if i is not None]
    assert strength[0] < strength[1] and strength[3] > strength[1]
    info = ms.info(pack(Cards.parse("23456789").counts))
    beaten = {ms.text(m) for m in ms.answers(info, ids[0] or 0)}
    assert {"23456", "34567", "45678", "56789"} <= beaten
    assert ms.text(ids[0] or 0) == "A2345"


# ----------------------------------------------------------------------------- wrap-around

#: the chain order of wrap-straights: a circle, after the 2 comes the 3 again
CIRCLE = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]


def arcs(lo: int, hi: int) -> list[list[str]]:
    """Every run of ``lo`` .. ``hi`` consecutive ranks of the circle (each start once)."""
    return [(CIRCLE * 2)[s:s + n] for n in range(lo, hi + 1) for s in range(len(CIRCLE))]


def multisets(size: int, ranks: int, most: int = 2) -> int:
    """Multisets of ``size`` cards over ``ranks`` ranks, at most ``most`` of each."""
    ways = [1] + [0] * size
    for _ in range(ranks):
        ways = [sum(ways[k - c] for c in range(most + 1) if k >= c) for k in range(size + 1)]
    return ways[size]


@pytest.fixture(scope="module")
def wrap() -> Rules:
    return example("wrap-straights")


def test_wrapped_straights_rank_by_their_top_in_the_circle(wrap: Rules) -> None:
    fives = ["".join(a) for a in arcs(5, 5)]
    assert fives[8:] == ["JQKA2", "QKA23", "KA234", "A2345", "23456"]
    readings = {m: read(m, wrap).reading for m in fives}
    assert all(r is not None and r.shape == "straight" for r in readings.values())
    # the top's place in the circle: QKA23 ends on 3 (place 0), JQKA2 on 2 (place 12)
    keys = {m: r.key for m, r in readings.items() if r is not None}
    assert keys["QKA23"] == 0 and keys["KA234"] == 1 and keys["A2345"] == 2
    assert keys["23456"] == 3 and keys["34567"] == 4 and keys["JQKA2"] == 12
    assert sorted(keys.values()) == list(range(13))  # no two fives tie
    low, top = readings["QKA23"], readings["JQKA2"]
    assert low is not None and top is not None
    for m, r in readings.items():
        assert r is not None
        assert m == "QKA23" or (beats(r, low)[0] and not beats(low, r)[0])
        assert m == "JQKA2" or (beats(top, r)[0] and not beats(r, top)[0])
    assert beats(read("34567", wrap).reading, low) == (  # type: ignore[arg-type]
        True, "same type and length, higher body (7 over 3; kickers never count)")
    # a pair straight and a plane wrap too
    assert read("KKAA2233", wrap).reading.shape == "pair_straight"  # type: ignore[union-attr]
    assert read("222333", wrap).reading.shape == "plane"  # type: ignore[union-attr]


@pytest.mark.parametrize("move", ["QKA24", "3456789TJQKA2", "JQK23", "A2"])
def test_what_still_is_no_chain(wrap: Rules, move: str) -> None:
    # a gap, all 13 ranks of the circle (12 at most), and a run of 2 singles
    assert not read(move, wrap).legal


def test_classic_does_not_wrap() -> None:
    classic = load_rules("classic")
    assert not read("QKA23", classic).legal and not read("JQKA2", classic).legal


def test_check_counts_by_hand(wrap: Rules, cli: Any) -> None:
    """``ddzspec check`` on the example: each count from the rules as written (classic's
    shapes, restrictions and 20-card cap; chains over the circle of 13 ranks)."""
    code, out, _ = cli("check", str(EXAMPLES / "wrap-straights.rules"), "--json")
    assert code == 0, out
    got = json.loads(out)
    # straight 5..12, pair_straight 3..10 (20 cards), plane 2..6 (18 cards): 13 starts each
    chains = {"straight": len(arcs(5, 12)), "pair_straight": len(arcs(3, 10)),
              "plane": len(arcs(2, 6))}
    assert chains == {"straight": 104, "pair_straight": 104, "plane": 65}
    assert len({frozenset(a) for a in arcs(2, 12)}) == len(arcs(2, 12))  # no arc twice
    # wings: n trios (4n <= 20 with singles, 5n <= 20 with pairs) carry n singles or pairs of
    # the 13 - n other plain ranks, at most 2 of a rank (kicker_rank_max 2, not the body's
    # rank), or one joker with n - 1 of them (never both jokers)
    singles = sum(13 * (multisets(n, 13 - n) + 2 * multisets(n - 1, 13 - n))
                  for n in range(2, 6))
    pairs = sum(13 * multisets(n, 13 - n, most=1) for n in range(2, 5))
    expected = {
        "single": 15, "pair": 13, "trio": 13,
        "trio_single": 13 * 14,  # any of the 12 other plain ranks or a joker
        "trio_pair": 13 * 12,
        **chains,
        "plane_singles": singles, "plane_pairs": pairs,
        # two singles of the 12 other plain ranks (a pair of one allowed), or one joker and one
        "four_two_singles": 13 * (multisets(2, 12) + 2 * 12),
        "four_two_pairs": 13 * multisets(2, 12, most=1),
        "bomb": 13, "rocket": 1}
    assert expected["plane_singles"] == 28210 and expected["plane_pairs"] == 3913
    assert got["by_type"] == expected
    assert got["moves"] == sum(expected.values()) == 34973 and got["ambiguous"] == []


def test_legal_wrapped_straights_of_a_hand(wrap: Rules) -> None:
    hand = ["Q", "K", "A", "2", "3", "4", "5"]
    moves = legal_moves("".join(hand), None, wrap)
    straights = {m.format() for m in moves if m.shape == "straight"}
    # the hand is the arc Q .. 5 of the circle: 3 fives, 2 sixes, 1 seven
    expected = {"".join(a) for a in arcs(5, 12) if set(a) <= set(hand)}
    assert straights == expected == {"QKA23", "KA234", "A2345", "QKA234", "KA2345",
                                     "QKA2345"}
    # answering QKA23, the lowest five: the hand's other fives, in hint order (by height)
    answers = legal_moves("".join(hand), "QKA23", wrap)
    assert [m.format() for m in answers if m.shape == "straight"] == ["KA234", "A2345"]
    assert [m.format() for m in legal_moves("".join(hand), "34567", wrap)
            if m.shape == "straight"] == []


def test_the_solver_ranks_wrapped_chains_by_the_circle(wrap: Rules) -> None:
    ms = move_set(wrap)
    ids = [ms.move_id(Cards.parse(m)) for m in ("QKA23", "A2345", "34567", "JQKA2")]
    assert None not in ids
    strength = [ms.strength[i] for i in ids if i is not None]
    assert strength == sorted(strength) and len(set(strength)) == 4
    info = ms.info(pack(Cards.parse("QKA2345").counts))
    assert {ms.text(m) for m in ms.answers(info, ids[0] or 0)} >= {"KA234", "A2345"}
    assert "QKA23" in {ms.text(m) for m in info.leads}


# ----------------------------------------------------------------------------- last play

@pytest.fixture(scope="module")
def last() -> Rules:
    return example("last-play-trio")


def test_a_trio_only_as_the_whole_hand(last: Rules) -> None:
    classic = load_rules("classic")
    assert "777" in [m.format() for m in legal_moves("77735", None, classic)]
    got = [m.format() for m in legal_moves("77735", None, last)]
    assert got == ["3", "5", "7", "77", "777+3", "777+5"]
    assert [m.format() for m in legal_moves("777", None, last)] == ["7", "77", "777"]
    # answers: a trio beats a trio only when it empties the hand
    assert [m.format() for m in legal_moves("KKK", "QQQ", last)] == ["KKK"]
    assert [m.format() for m in legal_moves("KKK5", "QQQ", last)] == []
    # four with two likewise; the bomb stays a bomb
    assert [m.format() for m in legal_moves("999945", None, last)][-2:] == ["9999+45", "9999"]
    assert "9999+45" not in [m.format() for m in legal_moves("9999456", None, last)]
    assert "9999+45" in [m.format() for m in legal_moves("9999456", None, classic)]


def test_the_solver_offers_a_trio_only_as_the_whole_hand(last: Rules) -> None:
    ms = move_set(last)
    whole = ms.info(pack(Cards.parse("777").counts))
    assert "777" in {ms.text(m) for m in whole.leads}
    more = ms.info(pack(Cards.parse("77735").counts))
    assert {ms.text(m) for m in more.leads} == {"3", "5", "7", "77", "777+3", "777+5"}
    # a sub-hand built from a larger hand's moves still finds its whole-hand trio
    sub = ms.info(pack(Cards.parse("777").counts) + 0, more)
    assert "777" in {ms.text(m) for m in sub.leads}
    # two plays for 77735 (777+3, 5); a trio in the middle of a split never counts
    assert ms.plays(pack(Cards.parse("77735").counts), more.leads) == 2
    assert ms.plays(pack(Cards.parse("7773").counts), more.leads) == 1


def test_check_names_the_last_play_shapes(cli: object) -> None:
    res = cli("check", str(EXAMPLES / "last-play-trio.rules"))  # type: ignore[operator]
    assert res.exit_code == 0, res.output
    assert ("Last-play-only: trio, four_two_singles, four_two_pairs (legal only as the move "
            "that empties the hand" in res.output)
    res = cli("check", "--json", str(EXAMPLES / "last-play-trio.rules"))  # type: ignore[operator]
    assert json.loads(res.output)["last_play_only"] == ["trio", "four_two_singles",
                                                        "four_two_pairs"]
    res = cli("check", "--json", "classic")  # type: ignore[operator]
    assert json.loads(res.output)["last_play_only"] == []


# ----------------------------------------------------------------------------- wings

def test_wings_without_twos_bind_only_planes() -> None:
    classic, nokick, wings = load_rules("classic"), example("../examples/nokick"), \
        example("wings-no-twos")
    cb, nb, wb = (get_table(r).by_type() for r in (classic, nokick, wings))
    for shape in ("plane_singles", "plane_pairs"):
        assert wb[shape] == nb[shape] < cb[shape]
    for shape in ("trio_single", "trio_pair", "four_two_singles", "four_two_pairs"):
        assert wb[shape] == cb[shape] > nb[shape]
    assert read("333+2", wings).legal and read("333+B", wings).legal
    assert not read("333444+2+5", wings).legal and not read("333444+B+5", wings).legal
    assert read("333444+6+5", wings).legal
    assert "kicker_not_in" in (read("333444+25", wings).reason or "")


def test_consecutive_wings_by_hand() -> None:
    r = example("consecutive-wings")
    chain = 12  # 3 .. A
    # t trios at b..b+t-1 and t pairs at w..w+t-1, both runs of the chain, disjoint (a
    # kicker never has a body rank); 5t cards, at most 20
    expected = sum(1 for t in range(2, 5) for b in range(chain - t + 1)
                   for w in range(chain - t + 1) if abs(w - b) >= t)
    assert get_table(r).by_type()["plane_pairs"] == expected
    assert read("333444+5566", r).legal and read("333444+8899", r).legal
    assert not read("333444+5588", r).legal and not read("333444+2255", r).legal
    assert not read("KKKAAA+QQ22", r).legal  # 2 is not in the chain


def test_the_table_index_and_per_hand_generation_agree(last: Rules) -> None:
    """Both paths of legal moves (the compiled table's index, and generation from the hand)
    leave out a last-play-only move unless it is the whole hand, in the same hint order."""
    from random import Random

    from ddzspec.moves import MoveIndex, TableIndex
    fast, slow = TableIndex(get_table(last)), MoveIndex(last)
    rng = Random(5)
    deck = [i for i in range(15) for _ in range(last.deck[i])]
    hands = ["777", "77735", "KKK", "999945", "33334444"]
    for n in (3, 4, 6, 8, 12, 20) * 8:
        pick = rng.sample(deck, n)
        hands.append(Cards(tuple(pick.count(i) for i in range(15))).format())
    for text in hands:
        counts = Cards.parse(text).counts
        leads = slow._last_play(slow.hand_moves(counts), counts)
        assert fast.leads(counts) == leads, text
        for prev in ("QQQ", "5", "333+4", "3333", "4444+56"):
            p = read(prev, last).reading
            want = [r for r in leads if r.tier > p.tier or (
                r.shape == p.shape and r.size == p.size and r.key > p.key)]
            assert fast.answers(counts, p) == want, (text, prev)


@pytest.mark.parametrize("name", ["low-straights", "wings-no-twos", "consecutive-wings",
                                  "wrap-straights"])
def test_the_csp_and_the_table_agree(name: str) -> None:
    """Every table entry sampled has exactly the CSP's one reading; random multisets near
    the house rules' shapes are legal under the table iff the CSP reads them once."""
    from random import Random

    from ddzspec.readings import solve_readings
    rules = example(name)
    table = get_table(rules)
    rng = Random(11)
    for key in rng.sample(list(table.entries), 1500):
        got = solve_readings(Cards.from_key(key).counts, rules)
        assert got == [table.lookup(key)], Cards.from_key(key)
        assert got[0].format() == table.lookup(key).format()  # type: ignore[union-attr]
    for _ in range(1500):
        counts = [0] * 15
        start, run, copies = rng.randrange(13), rng.randint(2, 6), rng.randint(1, 3)
        for i in range(start, start + run):  # a run across 2 and the ace, as in A2345
            counts[(i + 11) % 13] = copies
        for _ in range(rng.randint(0, 4)):
            i = rng.randrange(15)
            counts[i] = min(counts[i] + rng.randint(1, 2), rules.deck[i])
        if sum(counts) > rules.max_cards:
            continue
        csp = solve_readings(counts, rules)
        assert (len(csp) == 1) == (table.lookup(Cards(tuple(counts))) is not None), counts
