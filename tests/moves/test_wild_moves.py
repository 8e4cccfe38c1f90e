"""Legal moves with wild cards (laizi, issue 26): ``ddzspec.wildmoves`` against a plain
reference (every sub-multiset of the hand, every substitution of its wild cards, each read by
the natural move index), hand-worked hands, both reading policies."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wild_helpers import declared_laizi, restricted_laizi

from ddzspec.cards import N_RANKS, Cards, Rank, parse_cards
from ddzspec.moves import move_index
from ddzspec.readings import Reading
from ddzspec.rules import Rules, load_rules
from ddzspec.rules.model import BombClass
from ddzspec.wild import WildReading, parse_wild, violated, wild_readings
from ddzspec.wildmoves import choose, play_readings, split_hand, wild_legal_moves

LAIZI = load_rules("laizi")
SEVEN = Rank.SEVEN.index
#: a reading and the ranks the wild cards stand for
Pair = tuple[Reading, tuple[int, ...]]
NON_JOKER = [i for i in range(N_RANKS) if LAIZI.deck[i] and i not in LAIZI.jokers]


def reference(hand: Cards, rank: int, rules: Rules) -> dict[tuple[int, int], set[Pair]]:
    """The plain derivation: every non-empty sub-multiset of the natural cards with 0..w wild
    cards; every substitution of the wild cards by non-joker ranks (the wild rank included),
    read by the natural move index (legal: exactly one reading); wild cards alone read only
    as themselves."""
    natural = list(hand.counts)
    w, natural[rank] = natural[rank], 0
    index = move_index(rules)
    out: dict[tuple[int, int], set[Pair]] = {}
    for sub in product(*(range(c + 1) for c in natural)):
        for k in range(w + 1):
            if not any(sub) and not k:
                continue
            subs = ([tuple(k if i == rank else 0 for i in range(N_RANKS))] if not any(sub) else
                    [tuple(ranks.count(i) for i in range(N_RANKS))
                     for ranks in combinations_with_replacement(NON_JOKER, k)])
            for s in subs:
                m = tuple(a + b for a, b in zip(sub, s))
                if any(c > d for c, d in zip(m, rules.deck)):
                    continue
                got = index.readings_of(Cards(m))
                if len(got) == 1:
                    out.setdefault((Cards(sub).key, k), set()).add((got[0], s))
    return out


def _as_sets(found: dict[tuple[int, int], list[WildReading]]) -> dict[tuple[int, int], set[Pair]]:
    return {key: {(r.reading, r.stands_for.counts) for r in rs} for key, rs in found.items()}


@pytest.mark.parametrize("seed", range(6))
def test_every_play_and_reading_matches_the_plain_reference(seed: int) -> None:
    rnd = random.Random(seed)
    deck = [i for i in range(N_RANKS) for _ in range(LAIZI.deck[i])]
    wilds = rnd.randint(1, 3)
    natural = [i for i in deck if i != SEVEN]
    counts = [0] * N_RANKS
    for i in rnd.sample(natural, rnd.randint(2, 5)) + [SEVEN] * wilds:
        counts[i] += 1
    hand = Cards(tuple(counts))
    assert hand.counts[SEVEN] == wilds
    nat, w = split_hand(hand, SEVEN)
    found = play_readings(nat, w, SEVEN, LAIZI)
    assert _as_sets(found) == reference(hand, SEVEN, LAIZI)
    # and each play's readings are the forward ones of ddzspec.wild, one move at a time
    for (nkey, k), rs in found.items():
        assert sorted(rs, key=repr) == sorted(
            wild_readings(Cards.from_key(nkey), k, SEVEN, LAIZI), key=repr)


#: a small hand for the plain reference: 1-4 natural cards (no 7, jokers allowed) and 0-3 7s
_SMALL_HANDS = st.tuples(
    st.lists(st.sampled_from([i for i in range(N_RANKS) if LAIZI.deck[i] and i != SEVEN]),
             min_size=1, max_size=4),
    st.integers(0, 3))


@settings(max_examples=30, deadline=None)
@given(_SMALL_HANDS)
def test_random_hands_match_the_plain_reference(drawn: tuple[list[int], int]) -> None:
    # property: on any hand, every play and reading is the plain reference's, and the legal
    # leads are each reference play once (strongest policy), with a reading the reference has
    ranks, wilds = drawn
    counts = [0] * N_RANKS
    for i in ranks:
        counts[i] = min(counts[i] + 1, LAIZI.deck[i])
    counts[SEVEN] = wilds
    hand = Cards(tuple(counts))
    ref = reference(hand, SEVEN, LAIZI)
    nat, w = split_hand(hand, SEVEN)
    assert _as_sets(play_readings(nat, w, SEVEN, LAIZI)) == ref
    plays = wild_legal_moves(hand, SEVEN, LAIZI)
    assert sorted((p.move.natural.key, p.move.wilds) for p in plays) == sorted(ref)
    for p in plays:
        assert (p.reading.reading, p.reading.stands_for.counts) in \
            ref[(p.move.natural.key, p.move.wilds)]


def _moves(hand: str, previous: WildReading | None = None, rules: Rules = LAIZI) -> list[str]:
    return [p.describe() for p in wild_legal_moves(parse_cards(hand).cards, SEVEN, rules,
                                                    previous)]


def test_hand_33_with_two_wild_cards_leads() -> None:
    # 33 + 77 (7 wild): 3 x 3 - 1 = 8 plays (0-2 natural 3s, 0-2 wild cards, not none);
    # 3* can only make 33 (a pair), 3** only 333 (a trio); ** alone is 77 (wild cards are
    # themselves); 33** makes 3333 (a soft bomb) or 333+X (12 trios with a kicker): the lead
    # takes the bomb (bomb comes before trio_single in the priority)
    # hint order: by height (3s before 7s), then shape and size, fewer wild cards first
    assert _moves("3377") == [
        "3: single 3", "33: pair 33", "3*: pair 33 (wild cards as 3)",
        "33*: trio 333 (wild cards as 3)", "3**: trio 333 (wild cards as 33)",
        "*: single 7 (wild cards as themselves)", "**: pair 77 (wild cards as themselves)",
        "33**: bomb 3333 (soft; wild cards as 33)"]


def test_answers_take_the_answered_type_and_the_highest_body() -> None:
    prev = wild_readings(parse_cards("99").cards, 0, SEVEN, LAIZI)[0]  # pair 99
    # 3* reads as pair 33 only: it cannot beat 99; 4* likewise; A* reads as AA: it beats
    assert _moves("3A7", prev) == ["A*: pair AA (wild cards as A)"]
    # a trio 444+5 to beat with 3333 + 777 (7 wild): 3*** answers as the trio 222+3 (the
    # answered type, highest body) though it also reads as the bomb 3333; 33** and 333* have
    # no trio body above 333, so they answer as soft bombs; the natural 3333 as a hard bomb
    # (order pure > hard > soft); *** is the trio 777 (3 cards: not the answered size)
    trio = wild_readings(parse_cards("4445").cards, 0, SEVEN, LAIZI)[0]
    assert _moves("3333777", trio) == [
        "3***: trio_single 222+3 (wild cards as 222)",
        "333*: bomb 3333 (soft; wild cards as 3)", "33**: bomb 3333 (soft; wild cards as 33)",
        "3333: bomb 3333 (hard)"]


def test_declared_policy_lists_every_reading(tmp_path: Path) -> None:
    rules = declared_laizi(tmp_path)
    got = [p.describe() for p in wild_legal_moves(parse_cards("3377").cards, SEVEN, rules)
           if p.move.format() == "33**"]
    # 33** = 3333 (a soft bomb) or 333+X for X in 4 .. 2 (12 ranks, 7 included: a wild card
    # stands for its own rank too; 3 is no kicker of 333, that is the bomb): 1 + 12 = 13
    assert len(got) == 13
    assert "33**: bomb 3333 (soft; wild cards as 33)" in got
    assert "33**: trio_single 333+7 (wild cards as 37)" in got
    assert sum("trio_single" in g for g in got) == 12


def test_declared_plays_are_the_reference_pairs_and_strongest_one_per_play(
        tmp_path: Path) -> None:
    # laizi has no wild restriction: declared lists every (play, reading) pair of the plain
    # reference; strongest lists each play of the reference once
    hand = parse_cards("34459977").cards
    ref = reference(hand, SEVEN, LAIZI)
    declared = wild_legal_moves(hand, SEVEN, declared_laizi(tmp_path))
    assert {((p.move.natural.key, p.move.wilds), (p.reading.reading, p.reading.stands_for.counts))
            for p in declared} == {(key, x) for key, xs in ref.items() for x in xs}
    plays = [(p.move.natural.key, p.move.wilds) for p in wild_legal_moves(hand, SEVEN, LAIZI)]
    assert sorted(plays) == sorted(ref)


def test_pure_bomb_of_four_wild_cards() -> None:
    plays = wild_legal_moves(parse_cards("37777").cards, SEVEN, LAIZI)
    pure = [p for p in plays if p.move.format() == "****"]
    assert [p.reading.bomb_class for p in pure] == [BombClass.PURE]
    assert parse_wild("****", SEVEN, LAIZI) == pure[0].move


def test_wild_restrictions_cut_readings_before_the_policy(tmp_path: Path) -> None:
    # bomb_min_natural 2: 3*** (one natural card) is no bomb; leading, it is then the trio
    # with a kicker of the highest body, 222+3; 33** (two natural cards) stays a soft bomb
    rules = restricted_laizi(tmp_path, "bomb_min_natural 2")
    got = {p.move.format(): p.reading.describe()
           for p in wild_legal_moves(parse_cards("33777").cards, SEVEN, rules)}
    assert got["3***"] == "trio_single 222+3 (wild cards as 222)"
    assert got["33**"] == "bomb 3333 (soft; wild cards as 33)"
    # no_wild_kicker: 3** + 3 natural... 33* reads 333 only; 3*** as XXX+3 keeps its kicker
    # natural, 333+X (a wild kicker) is cut; the bomb 3333 (soft) comes first in the priority
    rules = restricted_laizi(tmp_path, "no_wild_kicker")
    got = {p.move.format(): p.reading.describe()
           for p in wild_legal_moves(parse_cards("3777").cards, SEVEN, rules)}
    assert got["3***"] == "bomb 3333 (soft; wild cards as 333)"
    # every reading kept is one the reference finds and no restriction cuts
    wild = rules.wild
    assert wild is not None
    hand = parse_cards("3457777").cards
    ref = reference(hand, SEVEN, rules)
    for p in wild_legal_moves(hand, SEVEN, rules):
        assert (p.reading.reading, p.reading.stands_for.counts) in \
            ref[(p.move.natural.key, p.move.wilds)]
        assert not violated(wild, p.reading)


@pytest.mark.parametrize("hand", ["3R7777", "BR77", "2277"])
def test_four_wild_cards_and_jokers_match_the_plain_reference(hand: str) -> None:
    # jokers are never stood for: R**** is no bomb, BR** no four with two; the rocket stays
    cards = parse_cards(hand).cards
    nat, w = split_hand(cards, SEVEN)
    assert _as_sets(play_readings(nat, w, SEVEN, LAIZI)) == reference(cards, SEVEN, LAIZI)


@pytest.mark.parametrize("seed", range(4))
def test_answers_are_the_leads_readings_that_beat(tmp_path: Path, seed: int) -> None:
    # answering generates only the answered shape and size and the bombs: the same plays as
    # the policy applied to every reading of every play (choose filters by what beats)
    rnd = random.Random(seed)
    deck = [i for i in range(N_RANKS) for _ in range(LAIZI.deck[i]) if i != SEVEN]
    counts = [0] * N_RANKS
    for i in rnd.sample(deck, 8) + [SEVEN] * 2:
        counts[i] += 1
    hand = Cards(tuple(counts))
    nat, w = split_hand(hand, SEVEN)
    other = Cards(tuple(min(c, 1) for c in LAIZI.deck))  # any move to answer: a random lead
    for rules in (LAIZI, declared_laizi(tmp_path)):
        wild = rules.wild
        assert wild is not None
        prev = rnd.choice(wild_legal_moves(other, SEVEN, rules)).reading
        found = play_readings(nat, w, SEVEN, rules)
        want = {((key), r) for key, rs in found.items() for r in choose(wild, rs, prev)}
        got = {((p.move.natural.key, p.move.wilds), p.reading)
               for p in wild_legal_moves(hand, SEVEN, rules, prev)}
        assert got == want
