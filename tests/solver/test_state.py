"""The solver's packed state: hands numbered in mixed radix, exact keys, small with
two seats; the searcher's caches and the paused garbage collector never change an answer.

Hand-worked numbering: a seat starting with 3 3 4 (two 3s, one 4) has (2+1)·(1+1) = 6 hands,
numbered by "count of 3s + 3 · count of 4s": {} 0, {3} 1, {33} 2, {4} 3, {34} 4, {334} 5.
"""

from __future__ import annotations

import gc
import itertools

import pytest
from ddzspec.solver.movegen import move_set
from ddzspec.solver.search import Searcher, gc_paused
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cards import KEY_BITS, KEY_MASK, N_RANKS, Cards, pack, parse_cards
from ddzspec.rules import load_rules
from ddzspec.solver import Limit, make_position, solve

CLASSIC = load_rules("classic")


def _searcher(hands: dict[str, str], to_move: str = "landlord") -> Searcher:
    return Searcher(make_position(CLASSIC, hands, to_move))


def test_hand_numbers_worked_by_hand() -> None:
    S = _searcher({"landlord": "334", "peasant": "5"})
    hands = ["", "3", "33", "4", "34", "334"]
    got = [S.number(0, pack(parse_cards(h).cards.counts) if h else 0) for h in hands]
    assert got == [0, 1, 2, 3, 4, 5]
    assert [S.hand(0, n) for n in range(6)] == [pack(parse_cards(h).cards.counts) if h else 0
                                               for h in hands]
    assert S._span == (6, 2)  # the peasant's 5: held or not


@st.composite
def _sub_hands(draw: st.DrawFn) -> tuple[list[list[int]], list[list[int]]]:
    """Start hands of 2 or 3 seats from one classic deck, and a sub-hand of each."""
    n = draw(st.sampled_from([2, 3]))
    deck = [r for r in range(N_RANKS) for _ in range(4 if r < 13 else 1)]
    cards = draw(st.permutations(deck))
    sizes = [draw(st.integers(1, 20)) for _ in range(n)]
    starts, subs, at = [], [], 0
    for k in sizes:
        counts = [0] * N_RANKS
        for r in cards[at:at + k]:
            counts[r] += 1
        at += k
        starts.append(counts)
        subs.append([draw(st.integers(0, c)) for c in counts])
    return starts, subs


@settings(max_examples=60, deadline=None)
@given(_sub_hands(), st.integers(0, 2), st.integers(-1, 500), st.integers(0, 1))
def test_pack_and_unpack_are_inverse(hs: tuple[list[list[int]], list[list[int]]], s: int,
                                     last: int, passes: int) -> None:
    starts, subs = hs
    names = ["landlord", "peasant"] if len(starts) == 2 else ["landlord", "peasant1",
                                                              "peasant2"]
    S = _searcher({name: Cards(tuple(c)).format() for name, c in zip(names, starts)})
    s %= len(starts)
    hands = tuple(pack(c) for c in subs)
    key = S.pack(s, hands, last, passes)
    # a move to beat is keyed by the first move of its class and strength (the same answers)
    canon = -1 if last < 0 else S.ms.canon[last]
    assert S.unpack(key) == (s, hands, canon, passes)
    assert canon <= last and (last < 0 or (S.ms.cls[canon], S.ms.strength[canon])
                              == (S.ms.cls[last], S.ms.strength[last]))
    if len(starts) == 2:  # two seats of at most 20 cards: a machine word
        assert key < 2 ** 63
    # a child's hands are the parent's minus the move's precomputed number, its low bits the
    # next seat and the move's
    m = next((m for m in S.ms.info(hands[s]).leads), None)
    if m is not None:
        child = tuple(h - S.ms.mk[m] if i == s else h for i, h in enumerate(hands))
        nxt = (s + 1) % len(starts)
        got = (((key >> S._hb) - S._seats[s].drop[m]) << S._hb) | nxt | S.ms.low[m]
        assert got == S.pack(nxt, child, m, 0)


def test_release_keeps_the_searcher_usable() -> None:
    pos = make_position(CLASSIC, {"landlord": "B2AK998553", "peasant": "RQQJJT953"},
                        "landlord")
    S = Searcher(pos)
    first = S.win(0, S.hands0, -1, 0)
    S.release()
    assert S.table_entries == 0
    assert S.win(0, S.hands0, -1, 0) == first is True


def test_gc_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError("inside a search")
    assert gc.isenabled()
    gc.disable()
    try:  # a caller that paused it already keeps it paused
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    pos = make_position(CLASSIC, {"landlord": "QQTT", "peasant": "A3"}, "landlord")
    assert solve(pos, want="all").winning_moves == ("TT", "QQ") and gc.isenabled()


def test_a_tiny_hand_cache_gives_the_same_answers() -> None:
    """With a tiny limit the tables and hand caches are emptied every few nodes (every 256):
    the answers stay those of a full search (DDZ2-07, 10 v 9: the 9 wins)."""
    pos = make_position(CLASSIC, {"landlord": "B2AK998553", "peasant": "RQQJJT953"},
                        "landlord")
    small = solve(pos, want="all", limit=Limit(entries=400))
    full = solve(pos, want="all")
    assert small.status == full.status == "solved"
    assert small.winning_moves == full.winning_moves == ("9",)
    assert small.nodes > full.nodes  # the caches really were emptied


@pytest.mark.parametrize("ident", ["DDZ3-01", "DDZ3-02", "DDZ3-03", "DDZ3-04", "DDZ3-05"])
def test_three_seats_in_a_small_compact_table_give_the_same_answers(ident: str) -> None:
    """The shipped 3-seat puzzles (packed states under 2^63: the compact table) solved with a
    table of 512 slots, replacing entries all the time: the winner, every winning move and
    the score of a full search."""
    from ddzspec.puzzles import puzzle_by_id

    pos = puzzle_by_id(ident).position()
    assert Searcher(pos)._compact
    for want in ("all", "score"):
        small = solve(pos, want=want, limit=Limit(entries=600))
        full = solve(pos, want=want)
        assert small.status == full.status == "solved"
        assert (small.winner, small.winning_moves, small.score) == (
            full.winner, full.winning_moves, full.score)


def test_hand_keys_are_one_to_one_and_spread() -> None:
    """The hand caches' keys (``hand_key``) are exact — distinct hands, distinct keys — and
    spread the sub-hands of one hand over the low bits a dict probes first, where the packed
    hands themselves show only the lowest ranks' counts."""
    from ddzspec.solver.movegen import hand_key

    top = pack(parse_cards("33445566778899TJQKA2").cards.counts)
    subs, sub = [], top
    counts = [(top >> (KEY_BITS * r)) & KEY_MASK for r in range(N_RANKS)]
    for picks in itertools.product(*[range(c + 1) for c in counts[:10]]):
        subs.append(pack(list(picks) + counts[10:]))
    keys = {hand_key(h) for h in subs}
    assert len(keys) == len(subs) == 3 ** 7 * 2 ** 3  # 0-2 of each of 3..9, 0-1 of T, J, Q
    low = 1023
    assert len({h & low for h in subs}) <= 3 * 3 * 4  # the raw hands: ranks 3, 4 and half of 5
    assert len({k & low for k in keys}) > 900         # the keys: nearly every 10-bit value
    assert hand_key(0) == 0 and hand_key(sub) != hand_key(sub - 1)


def test_the_compact_table_is_exact_and_keeps_the_larger_proofs() -> None:
    """``ByteTable``: a key reads back only its own byte (never another's), a bucket of two
    keeps the highest rank (the byte's upper seven bits) in its first slot, it grows up to its
    size, no further, and ``clear`` forgets everything."""
    from ddzspec.solver.movegen import ByteTable

    t = ByteTable(8, 2)  # at most 8 slots (4 buckets), starting with 2
    t.put(5, 2 * 100 + 1)  # rank 100
    assert (t.get(5), t.get(6)) == (201, -1)
    keys = list(range(1, 200))
    for k in keys:
        t.put(k * 977, 2 * (k % 50) + k % 2)
    assert t.size == 8 and t.filled <= 8
    for k in keys:  # whatever stayed reads back its own byte
        got = t.get(k * 977)
        assert got in (-1, 2 * (k % 50) + k % 2)
    assert t.get(5) == 201  # the highest rank of its bucket stayed
    assert 1 + sum(t.get(k * 977) >= 0 for k in keys) == t.filled == 8
    # the highest ranks of each bucket survive the flood
    big = ByteTable(2, 2)  # one bucket
    big.put(11, 255)
    for k in range(12, 100):
        big.put(k, 6)
    assert big.get(11) == 255 and big.get(99) == 6 and big.get(50) == -1
    big.put(2 ** 63 - 1, 7)  # the largest key
    assert big.get(2 ** 63 - 1) == 7 and big.get(11) == 255
    big.clear()
    assert (big.get(11), big.get(2 ** 63 - 1), big.filled) == (-1, -1, 0)


@pytest.mark.parametrize("ident", ["DDZ3-01", "DDZ3-03", "DDZ3-05"])
def test_the_dict_table_for_states_over_63_bits_gives_the_same_answers(ident: str) -> None:
    """A state of 64 bits or more (none of one 54-card deck was met: whole 20/17/17 deals take
    56-59 bits) goes to the dict table of two generations: forced on the shipped 3-seat
    puzzles, with generations of at most 300 entries, it gives the compact table's winner and
    every winning move."""
    from ddzspec.solver.search import _winning_moves

    from ddzspec.puzzles import puzzle_by_id

    pos = puzzle_by_id(ident).position()
    got = []
    for compact in (True, False):
        S = Searcher(pos, Limit(entries=600))
        S._compact = compact
        s0, h0, l0, p0 = pos.to_move, S.hands0, S.last0, pos.passes
        got.append((S.win(s0, h0, l0, p0), _winning_moves(S, s0, h0, l0, p0),
                    S._table is None, S.nodes))
    (w1, m1, none1, n1), (w2, m2, none2, n2) = got
    assert (w1, m1) == (w2, m2) and m1  # a win with its moves, both ways
    assert (none1, none2) == (False, True)  # the second really used the dict
    assert n1 > 0 and n2 > 0


def test_a_search_gives_the_same_figures_whatever_was_solved_before() -> None:
    """Each search starts from empty hand caches: the nodes and the line of a position solved
    after another one are those of the position solved first in a fresh process (a batch's
    rows are the same on 1 or N workers). With a hand cache of 1,000 entries, the earlier
    search's hands used to fill it, so it was emptied sooner, killer moves and all."""
    limit = Limit(entries=1000)
    b = make_position(CLASSIC, {"landlord": "B2AK998553", "peasant": "RQQJJT953"}, "landlord")
    a = make_position(CLASSIC, {"landlord": "TA544TQ6297", "peasant": "8KQ87J5AK46"},
                      "landlord")
    move_set(CLASSIC).clear()  # as a fresh process
    alone = solve(b, want="one", limit=limit)
    for before in (a, b):
        solve(before, want="all")
        after = solve(b, want="one", limit=limit)
        assert (after.nodes, after.line, after.winning_moves) == (
            alone.nodes, alone.line, alone.winning_moves)
    assert alone.winning_moves == ("9",) and alone.line[0].cards == "9"
