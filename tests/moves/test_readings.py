"""Readings, restrictions and comparison on the classic rules.

Every example cites its seed: 000_5eccf9ac81f37dbd (French) / 002_5ed5b7ad384b1c48 (German),
same text: "Quatre restrictions garantissent qu'une pose n'a jamais qu'une seule lecture."
"""

from __future__ import annotations

import pytest

from ddzspec.errors import AmbiguousReadingError, IllegalMoveError
from ddzspec.explain import explain
from ddzspec.readings import Reading, beats, read, solve_readings
from ddzspec.rules import Rules, load_rules


def reading(move: str, rules: Rules, notation: str = "en") -> Reading:
    return read(move, rules, notation).reading


# --- seeds 000/002, restriction 1: "444455 est un carré avec deux cartes seules" -----------------

def test_444455_is_four_two_singles_not_a_bomb(classic: Rules) -> None:
    r = reading("444455", classic)
    assert (r.shape, r.body.format(), r.kickers.format(), r.tier) == \
        ("four_two_singles", "4444", "55", 0)


def test_44445566_is_four_two_pairs(classic: Rules) -> None:
    r = reading("44445566", classic)
    assert (r.shape, r.body.format(), r.kickers.format(), r.size) == \
        ("four_two_pairs", "4444", "5566", 8)


@pytest.mark.parametrize("four", ["444455", "44445566"])
def test_four_with_kickers_neither_beats_a_pair_nor_doubles(classic: Rules, four: str) -> None:
    ok, why = beats(reading(four, classic), reading("33", classic))
    assert not ok and "different types" in why
    assert reading(four, classic).shape not in classic.scoring.double
    assert "bomb" in classic.scoring.double


# --- restriction 2: "44445555 n'est tout simplement pas une pose légale" ------------------------

def test_44445555_is_illegal_and_says_why(classic: Rules) -> None:
    v = read("44445555", classic)
    assert not v.legal and not v.ambiguous
    assert "four_two_pairs 4444+55+55 is ruled out by quad_block" in v.reason
    assert "plane_singles 444555+4+5 is ruled out by quad_block, kicker_not_body_rank" in v.reason
    with pytest.raises(IllegalMoveError):
        _ = v.reading


def test_four_sevens_in_hand_may_still_play_three(classic: Rules) -> None:
    # "avec quatre 7 en main, on peut toujours en jouer trois en brelan avec une carte"
    assert reading("7773", classic).shape == "trio_single"


# --- restriction 3: "quatre 3 posés ensemble ne peuvent être qu'une bombe" -----------------------

def test_3333_is_a_bomb(classic: Rules) -> None:
    r = reading("3333", classic)
    assert (r.shape, r.tier) == ("bomb", 1)
    assert [x.shape for x in solve_readings(r.cards.counts, classic)] == ["bomb"]


def test_33334_is_illegal(classic: Rules) -> None:
    v = read("33334", classic)
    assert not v.legal and "matches no combination" in v.reason


# --- restriction 4: "333444555666 serait à la fois un avion de quatre brelans et ..." -----------

def test_333444555666_is_a_plane_of_four_trios(classic: Rules) -> None:
    r = reading("333444555666", classic)
    assert (r.shape, r.run, r.body.format()) == ("plane", 4, "333444555666")


def test_without_restriction_4_the_plane_is_ambiguous(classic: Rules) -> None:
    lifted = classic.with_restrictions([r for r in classic.restrictions
                                        if r.name != "kicker_rank_max"])
    v = read("333444555666", lifted)
    assert v.ambiguous
    assert sorted(x.describe() for x in v.readings) == [
        "plane 333444555666", "plane_singles 333444555+6+6+6", "plane_singles 444555666+3+3+3"]
    with pytest.raises(AmbiguousReadingError):
        _ = v.reading


def test_both_jokers_cannot_be_kickers_one_can(classic: Rules) -> None:
    assert reading("333B", classic).shape == "trio_single"
    assert reading("333444BR".replace("BR", "B5"), classic).shape == "plane_singles"
    v = read("333444BR", classic)
    assert not v.legal and "jokers_not_both_kickers" in v.reason
    assert reading("BR", classic).shape == "rocket"


# --- comparison: "Seul le corps est comparé" ------------------------------------------------------

def test_kkk3_beats_qqq_big_joker(classic: Rules) -> None:
    assert beats(reading("KKK+3", classic), reading("QQQ+R", classic))[0]
    assert not beats(reading("QQQ+R", classic), reading("KKK+3", classic))[0]


def test_same_in_french_notation(classic: Rules) -> None:
    # seed 000 literally: "RRR + 3 bat DDD + grand joker"
    ok, _ = beats(reading("RRR+3", classic, "fr"), reading("DDD+grand joker", classic, "fr"))
    assert ok


def test_555566_beats_444433(classic: Rules) -> None:
    assert beats(reading("555566", classic), reading("444433", classic))[0]


def test_straight_does_not_beat_trio_pair_nor_a_shorter_straight(classic: Rules) -> None:
    ok, why = beats(reading("34567", classic), reading("33344", classic))
    assert not ok and "different types" in why
    ok, why = beats(reading("456789", classic), reading("34567", classic))
    assert not ok and "different lengths" in why
    assert beats(reading("45678", classic), reading("34567", classic))[0]


def test_bombs_beat_non_bombs_and_compare_by_rank(classic: Rules) -> None:
    bomb3, bomb4 = reading("3333", classic), reading("4444", classic)
    for other in ["2", "22", "222", "34567", "AAA+KK", "333444555666", "KKKK+QQ+JJ"]:
        assert beats(bomb3, reading(other, classic))[0]
        assert not beats(reading(other, classic), bomb3)[0]
    assert beats(bomb4, bomb3)[0] and not beats(bomb3, bomb4)[0]
    assert not beats(bomb3, bomb3)[0]


def test_rocket_beats_every_bomb_and_nothing_beats_it(classic: Rules) -> None:
    rocket = reading("BR", classic)
    for r in ["3333", "2222", "AAAA"]:
        assert beats(rocket, reading(r, classic))[0]
        assert not beats(reading(r, classic), rocket)[0]
    assert not beats(rocket, rocket)[0]


@pytest.mark.parametrize("move", ["JQKA2", "QKA2B", "KA2BR", "223344", "AAA222", "3456789TJQKA2"])
def test_no_chain_holds_a_2_or_a_joker(classic: Rules, move: str) -> None:
    # "les suites, les suites de paires et les avions n'incluent jamais le 2 ni les jokers"
    assert not read(move, classic).legal


def test_straights_are_5_to_12_long(classic: Rules) -> None:
    assert not read("3456", classic).legal
    assert reading("34567", classic).shape == "straight"
    assert reading("3456789TJQKA", classic).run == 12


def test_move_never_exceeds_the_largest_hand(classic: Rules) -> None:
    # plane of 6 trios = 18 cards is legal; plane_singles of 6 trios would be 24 cards
    assert reading("333444555666777888", classic).shape == "plane"
    v = read("333444555666777888" + "99TTJJ", classic)
    assert not v.legal and "more than the largest hand (20)" in v.reason


def test_explain_44445555_names_the_restrictions(classic: Rules) -> None:
    ex = explain("44445555", classic)
    assert not ex.verdict.legal
    cut = {c.reading.describe(): {r.name for r in c.violated} for c in ex.near_misses}
    assert "quad_block" in cut["four_two_pairs 4444+55+55"]
    assert "kicker_not_body_rank" in cut["plane_singles 444555+4+5"]


def test_explain_444455_says_not_a_bomb(classic: Rules) -> None:
    text = "\n".join(explain("444455", classic).lines)
    assert "four_two_singles 4444+5+5" in text
    assert "Not a bomb" in text and "does not double the multiplier" in text


def test_explain_notes_the_writers_split(classic: Rules) -> None:
    text = "\n".join(explain("44+4455", classic).lines)
    assert "You wrote 44 as the body" in text and "its body is 4444" in text


def test_reading_format_is_canonical(classic: Rules) -> None:
    assert reading("7 5 3 3 3 4 4 4", classic).format() == "333444+57"
    assert reading("QQQ+R", classic).format("fr") == "DDD+GJ"
    assert reading("QQQ+R", classic).format("de") == "DDD+GJ"
    assert reading("JJJ+B", classic).format("de") == "BBB+KJ"
    assert load_rules("classic").shape("rocket").tier == 2
