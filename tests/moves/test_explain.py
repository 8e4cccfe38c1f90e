"""``explain`` for moves that match no shape (the Learn tab): the nearest shape and what
breaks it, generated from the rules file's shape descriptions, in every built-in variant.

The expectations are worked by hand from the shapes of rules/*.rules (classic: seeds 000/002;
kawu: 004; duel and duel-literal: 003): the conditions of ``COPIES x RUN [in GROUP] [+ kickers]``
and the fewest cards to add, remove or change."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cards import ALL_RANKS, N_RANKS, Cards
from ddzspec.explain import Condition, diagnose, explain, nearest
from ddzspec.readings import solve_readings
from ddzspec.rules import Rules, load_rules

VARIANTS = ("classic", "kawu", "duel", "duel-literal")


@pytest.fixture(scope="module")
def rules() -> dict[str, Rules]:
    return {n: load_rules(n) for n in VARIANTS}


def texts(move: str, r: Rules) -> list[str]:
    return [d.text() for d in nearest(Cards.parse(move).counts, r)]


# --------------------------------------------------------------------------- the four

def test_jqka2_two_is_not_a_chain_rank(rules: dict[str, Rules]) -> None:
    # straight = 1 x 5..12 in chain, chain = 3..A: the 2 alone breaks it; TJQKA is one change
    assert texts("JQKA2", rules["classic"]) == [
        "straight (TJQKA is 1 card away): 2 is not a chain rank (chain: 3..A)"]
    ex = explain("JQKA2", rules["classic"])
    assert ex.lines[-1] == ("Nearest shape: straight (TJQKA is 1 card away): 2 is not a chain "
                            "rank (chain: 3..A).")
    assert ex.lines[1] == ("It matches no combination of classic (5 cards); no restriction is "
                           "involved.")


def test_3456_a_straight_needs_five_cards(rules: dict[str, Rules]) -> None:
    assert texts("3456", rules["classic"]) == [
        "straight (34567 is 1 card away): a straight needs at least 5 cards (this has 4)"]


def test_3344_a_pair_straight_needs_three_pairs(rules: dict[str, Rules]) -> None:
    # pair (2 x 1) and pair_straight (2 x 3..) both break only the run length and are both two
    # cards away; the pair straight keeps every card played (fewer removed), so it is nearer
    d = nearest(Cards.parse("3344").counts, rules["classic"])
    assert [x.shape for x in d] == ["pair_straight"]
    assert d[0].text() == ("pair_straight (334455 is 2 cards away): a pair straight needs at "
                           "least 3 pairs (this has 2)")
    assert (d[0].distance, d[0].removed) == (2, 0)
    pair = diagnose(Cards.parse("3344").counts, rules["classic"], rules["classic"].shape("pair"))
    assert (pair.distance, pair.removed) == (2, 2)
    assert [f.condition for f in pair.failures] == [Condition.RUN]


def test_333444555777_keeps_the_near_miss_and_adds_the_plane(rules: dict[str, Rules]) -> None:
    ex = explain("333444555777", rules["classic"])
    text = "\n".join(ex.lines)
    assert "  plane_singles 333444555+7+7+7: ruled out by kicker_rank_max" in text
    assert ex.lines[-1] == ("Nearest shape it has no reading of: plane (333444555666777 is 3 "
                            "cards away): the trios are not consecutive: 6 is missing.")
    assert [f.condition for f in ex.nearest[0].failures] == [Condition.CONSECUTIVE]


# --------------------------------------------------------------------------- more, per variant

@pytest.mark.parametrize(("name", "move", "expected"), [
    # a gap in a straight: one card to add
    ("classic", "34568", ["straight (345678 is 1 card away): the cards are not consecutive: "
                          "7 is missing"]),
    # one odd card in a pair straight
    ("classic", "3344556", ["pair_straight (33445566 is 1 card away): a pair straight has 2 "
                            "cards of each rank; 6 has 1"]),
    # a four with one kicker: four_two_singles is short of a kicker (3333+4 is also one card
    # from the trio_single 333+4, but that removes a card the player holds)
    ("classic", "33334", ["four_two_singles (333345 is 1 card away): a four two singles takes "
                          "2 singles as kickers; this has 1"]),
    # a trio with two singles: a tie between trio_single (one too many) and trio_pair
    ("classic", "33345", ["trio_single (3334 is 1 card away): a trio single takes 1 single as "
                          "kicker; this has 2",
                          "trio_pair (33344 is 1 card away): a trio pair takes 1 pair as "
                          "kicker; 4 5 are not pairs"]),
    # a straight too long: chain 3..A allows 12 ranks at most... a 2 is the only way past A
    ("classic", "34", ["single (3 is 1 card away): a single is one card (this has 2 ranks)"]),
    # two trios with one kicker between them
    ("classic", "3334445", ["plane_singles (33344456 is 1 card away): a plane singles with 2 "
                            "trios takes 2 singles as kickers; this has 1"]),
    # kawu has classic's shapes: the same diagnosis
    ("kawu", "JQKA2", ["straight (TJQKA is 1 card away): 2 is not a chain rank (chain: 3..A)"]),
    ("kawu", "555666888", ["plane (555666777888 is 3 cards away): the trios are not "
                           "consecutive: 7 is missing"]),
    # duel: the chain is 5..A (3s and 4s removed), and the straight is at most 10 cards
    ("duel", "JQKA2", ["straight (TJQKA is 1 card away): 2 is not a chain rank (chain: 5..A)"]),
    ("duel", "5566", ["pair_straight (556677 is 2 cards away): a pair straight needs at least "
                      "3 pairs (this has 2)"]),
    ("duel", "5678", ["straight (56789 is 1 card away): a straight needs at least 5 cards "
                      "(this has 4)"]),
    ("duel", "5556677", ["pair_straight (556677 is 1 card away): a pair straight has 2 cards "
                         "of each rank; 5 has 3"]),
    # duel-literal: 555666777888 is ambiguous there, so no legal example is 3 cards away
    ("duel-literal", "555666888", ["plane: the trios are not consecutive: 7 is missing"]),
    ("duel-literal", "QKA2B", ["straight (TJQKA is 2 cards away): 2 B are not chain ranks "
                               "(chain: 5..A)"]),
])
def test_nearest_by_hand(rules: dict[str, Rules], name: str, move: str,
                         expected: list[str]) -> None:
    assert texts(move, rules[name]) == expected


def test_duel_straight_of_eleven_is_too_long(rules: dict[str, Rules]) -> None:
    # duel: straight = 1 x 5..10 in chain (5..A has exactly 10 ranks); 5..A plus a 2 is 11
    # cards: the 2 is outside the chain, and 5 6 … A is the 10-card straight one card away
    assert texts("56789TJQKA2", rules["duel"]) == [
        "straight (56789TJQKA is 1 card away): 2 is not a chain rank (chain: 5..A)"]


def test_bomb_is_one_rank_even_beside_restrictions(rules: dict[str, Rules]) -> None:
    ex = explain("44445555", rules["classic"])
    assert ex.lines[-1] == ("Nearest shape it has no reading of: bomb (4444 is 4 cards away): "
                            "a bomb is 4 cards of one rank (this has 2 ranks).")


def test_kawu_near_miss_without_a_look_alike_shape(rules: dict[str, Rules]) -> None:
    # 444455 in kawu is the four_two_singles cut by distinct_kicker_ranks; no shape it has no
    # reading of has its pattern (trio_pair and plane break the copies), so none is named
    ex = explain("444455", rules["kawu"])
    assert ex.nearest == ()
    assert not any(x.startswith("Nearest") for x in ex.lines)


def test_legal_and_ambiguous_moves_get_no_diagnosis(rules: dict[str, Rules]) -> None:
    assert explain("34567", rules["classic"]).nearest == ()
    ex = explain("555666777888", rules["duel-literal"])
    assert ex.verdict.ambiguous and ex.nearest == ()


def test_notation_names_ranks_in_the_chosen_language(rules: dict[str, Rules]) -> None:
    ex = explain("V D R A 2", rules["classic"], "fr")
    assert ex.nearest[0].text("fr") == ("straight (TVDRA is 1 card away): 2 is not a chain "
                                        "rank (chain: 3..A)")
    d = nearest(Cards.parse("JQKA2").counts, rules["classic"], "de")
    assert "(chain: 3..A)" in d[0].text("de") and d[0].text("de").startswith("straight (TBDKA")


def test_user_rules_with_other_shapes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # a house file with a shape classic lacks: the words come from its description
    f = tmp_path / "tri.rules"
    f.write_text('rules tri "triple straights" extends classic\n'
                 "shapes {\n    trio_straight = 3 x 3..4 in chain\n    without plane\n}\n")
    r = load_rules(str(f))
    assert texts("333444", r)[0].startswith("plane_singles") is False
    d = diagnose(Cards.parse("33344455577").counts, r, r.shape("trio_straight"))
    assert [f.words for f in d.failures] == [
        "a trio straight has 3 cards of each rank; 7 has 2",
        "the trios are not consecutive: 6 is missing"]
    d = diagnose(Cards.parse("333444555666777").counts, r, r.shape("trio_straight"))
    assert [f.words for f in d.failures] == ["a trio straight has at most 4 trios (this has 5)"]


# --------------------------------------------------------------------------- JSON

def test_to_json_contract(rules: dict[str, Rules]) -> None:
    legal = explain("44+4455", rules["classic"]).to_json()
    assert legal["move"] == "4444+55" and legal["legal"] is True
    assert legal["readings"] == [{"shape": "four_two_singles", "body": "4444", "kickers": "5+5",
                                  "key": 1, "tier": 0, "text": "four_two_singles 4444+5+5"}]
    assert legal["lines"][0].startswith("4444+55 under classic")
    bad = explain("JQKA2", rules["classic"]).to_json()
    assert bad["legal"] is False and bad["readings"] == [] and bad["move"] == "JQKA2"
    assert bad["nearest"] == [{"shape": "straight", "distance": 1, "example": "TJQKA",
                               "failures": [{"condition": "group",
                                             "words": "2 is not a chain rank (chain: 3..A)"}],
                               "text": "straight (TJQKA is 1 card away): 2 is not a chain rank "
                                       "(chain: 3..A)"}]
    json.dumps(bad)


def test_cli_explain_text_and_json(cli: Any) -> None:
    res = cli("explain", "3344")
    assert res.exit_code == 0
    assert "a pair straight needs at least 3 pairs" in res.stdout
    res = cli("explain", "--json", "--rules", "duel", "JQKA2")
    assert res.exit_code == 0
    d = json.loads(res.stdout)
    assert d["nearest"][0]["failures"][0]["words"] == "2 is not a chain rank (chain: 5..A)"
    assert d["explanation"][-1].startswith("Nearest shape: straight")


# --------------------------------------------------------------------------- properties

def _deck_cards(r: Rules) -> list[int]:
    return [i for i in range(N_RANKS) for _ in range(r.deck[i])]


def _moves(name: str) -> st.SearchStrategy[Cards]:
    r = load_rules(name)
    cards = _deck_cards(r)

    def build(picks: set[int]) -> Cards:
        counts = [0] * N_RANKS
        for p in picks:
            counts[cards[p]] += 1
        return Cards(tuple(counts))
    return st.sets(st.integers(0, len(cards) - 1), min_size=1, max_size=14).map(build)


def _check_failure(r: Rules, move: Cards, shape_name: str, cond: Condition, words: str,
                   ranks: tuple[int, ...]) -> None:
    """An independent check that the stated condition really fails for the move."""
    shape = r.shape(shape_name)
    counts = move.counts
    if cond is Condition.GROUP:
        assert ranks and all(counts[i] and i not in shape.seq for i in ranks), words
    elif cond is Condition.CONSECUTIVE:
        assert ranks and all(i in shape.seq and counts[i] < shape.copies for i in ranks), words
    elif cond is Condition.RUN:
        n = int(re.search(r"\(this has (\d+)", words).group(1))  # type: ignore[union-attr]
        assert not shape.run_min <= n <= shape.run_max, words
    elif cond is Condition.COPIES:
        if shape.kicker_kind is None:
            assert ranks and all(counts[i] not in (0, shape.copies) for i in ranks), words
        else:
            assert max(counts) < shape.copies, words
    else:
        assert shape.kicker_kind is not None
        # a rank named as "not a pair" has an odd count, with or without the body's copies
        assert all(counts[i] % 2 or (counts[i] - shape.copies) % 2 for i in ranks), words


@pytest.mark.parametrize("name", VARIANTS)
def test_every_illegal_move_is_diagnosed_truthfully(name: str) -> None:
    r = load_rules(name)

    @settings(max_examples=80, deadline=None)
    @given(_moves(name))
    def check(move: Cards) -> None:
        ex = explain(move, r)
        structural = solve_readings(move.counts, r, restrictions=())
        if ex.verdict.legal or ex.verdict.ambiguous:
            assert ex.nearest == ()
            return
        # every illegal move gets a diagnosis line: a near miss or a nearest shape
        assert ex.near_misses or ex.nearest
        assert any(x.startswith(("Nearest shape", "  ")) for x in ex.lines)
        if not structural:
            assert ex.nearest and ex.lines[-1].startswith("Nearest shape: ")
        for d in ex.nearest:
            # never a shape the move has a reading of (restrictions lifted)
            assert d.shape not in {x.shape for x in structural}
            assert d.failures
            for f in d.failures:
                _check_failure(r, move, d.shape, f.condition, f.words, f.ranks)
            if d.example is not None:  # a legal move of the shape, exactly that far
                got = solve_readings(d.example.counts, r)
                assert len(got) == 1 and got[0].shape == d.shape
                added = len(d.example - Cards(tuple(min(a, b) for a, b in
                                                    zip(move.counts, d.example.counts))))
                removed = len(move) - (len(d.example) - added)
                assert (max(added, removed), removed) == (d.distance, d.removed)
    check()


def test_distance_is_minimal_against_the_table(rules: dict[str, Rules]) -> None:
    # brute force over every legal move of classic: no legal move of the diagnosed shape is
    # nearer than the distance found (targets with restrictions lifted may be nearer still)
    from ddzspec.table import get_table
    table = get_table(rules["classic"])
    by_shape: dict[str, list[tuple[int, ...]]] = {}
    for rd in table.readings():
        by_shape.setdefault(rd.shape, []).append(rd.cards.counts)
    for text in ["JQKA2", "3456", "3344", "33345", "3334445", "34568"]:
        move = Cards.parse(text).counts
        for d in nearest(move, rules["classic"]):
            best = min(max(sum(max(0, a - b) for a, b in zip(t, move)),
                           sum(max(0, b - a) for a, b in zip(t, move)))
                       for t in by_shape[d.shape])
            assert d.distance <= best, (text, d)
            assert d.example is None or d.distance == best, (text, d)


def test_rank_symbols_cover_the_deck() -> None:
    assert len(ALL_RANKS) == N_RANKS


# found by a fresh tester
def test_explain_oversized_move_reads_as_a_sentence(cli: Any) -> None:
    _, out, _ = cli("explain", "333444555666777888999T")
    assert "22 cards: more than the largest hand (20); no restriction is involved." in out
