"""Card notation: English, French, German; suits; errors with columns.

Rank letters from seeds 000 (French: V D R, petit/grand joker) and 002 (German: B D K,
kleiner/großer Joker); English is the default notation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cards import N_RANKS, NOTATIONS, Cards, Rank, pack, parse_cards, unpack
from ddzspec.errors import NotationError

DECK = (4,) * 13 + (1, 1)
DUEL_DECK = (0, 0) + (4,) * 11 + (1, 1)


@pytest.mark.parametrize("text", ["333444+57", "3 3 3 4 4 4 + 5 7", "3,3,3,4,4,4,5,7",
                                  "333 444 57", "3♠3♥3♦444+5s7c"])
def test_spacing_commas_plus_and_suits_do_not_change_the_multiset(text: str) -> None:
    assert str(parse_cards(text).cards) == "33344457"


def test_ten_written_10_or_t() -> None:
    assert str(parse_cards("10 10 10 J").cards) == "TTTJ"
    assert parse_cards("1010T").cards == parse_cards("TTT").cards
    assert parse_cards("tt").cards == parse_cards("TT").cards


@pytest.mark.parametrize("text,notation,expected", [
    ("JQKA", "en", "JQKA"), ("jqka", "en", "JQKA"),
    ("B R", "en", "BR"), ("small joker big joker", "en", "BR"),
    ("black joker, Red Joker", "en", "BR"),
    ("VDRA", "fr", "JQKA"), ("vdra", "fr", "JQKA"),
    ("petit joker grand joker", "fr", "BR"), ("PJ GJ", "fr", "BR"),
    ("BDKA", "de", "JQKA"), ("bdka", "de", "JQKA"),
    ("kleiner Joker großer Joker", "de", "BR"), ("grosser Joker", "de", "R"),
    ("KJ GJ", "de", "BR"),
])
def test_language_tables(text: str, notation: str, expected: str) -> None:
    assert str(parse_cards(text, notation).cards) == expected


def test_same_letter_means_different_ranks_per_language() -> None:
    # seeds 000/002: R is the king in French; B is the jack (Bube) in German
    assert parse_cards("R", "fr").cards.count(Rank.KING) == 1
    assert parse_cards("R", "en").cards.count(Rank.BIG_JOKER) == 1
    assert parse_cards("B", "de").cards.count(Rank.JACK) == 1
    assert parse_cards("B", "en").cards.count(Rank.SMALL_JOKER) == 1


def test_writer_split_is_kept_in_groups() -> None:
    p = parse_cards("44+4455")
    assert [str(g) for g in p.groups] == ["44", "4455"]
    assert str(p.cards) == "444455"


@pytest.mark.parametrize("text,notation,column,fragment", [
    ("33X", "en", 3, "unknown symbol 'X'"),
    ("3 3 @", "en", 5, "unknown symbol '@'"),
    ("J", "fr", 1, "unknown symbol 'J' in French"),
    ("V", "de", 1, "unknown symbol 'V' in German"),
    ("333+", "en", 5, "'+' must be followed by cards"),
    ("+3", "en", 1, "'+' needs cards on both sides"),
    ("3++4", "en", 3, "'+' needs cards on both sides"),
    ("s3", "en", 1, "suit 's' must follow a rank"),
    # a wild card '*' without wild cards: the earliest error, before a later bad symbol, a
    # '+' with no cards after it, or a suit with no rank (333*=3333: the '*' at 4, '=' at 5)
    ("333*=3333", "en", 4, "'*' is a wild card: only under rules with wild cards"),
    ("3*+", "en", 2, "'*' is a wild card"),
    ("4* s", "en", 2, "'*' is a wild card"),
    ("3*3", "en", 2, "'*' is a wild card"),
    # a bad symbol before the '*' is the earliest
    ("X*", "en", 1, "unknown symbol 'X'"),
])
def test_notation_errors_give_column_and_offending_text(text: str, notation: str, column: int,
                                                        fragment: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_cards(text, notation)
    assert e.value.column == column
    assert fragment in str(e.value)
    assert text in str(e.value)  # the input is quoted, with a caret under the column
    assert str(e.value).splitlines()[-1] == "  " + " " * (column - 1) + "^"


@pytest.mark.parametrize("text", ["   ", ",", " , ,"])
def test_empty_input_is_an_error(text: str) -> None:
    with pytest.raises(NotationError, match="no cards"):
        parse_cards(text)


@pytest.mark.parametrize("text,column,fragment", [
    ("3 s", 3, "suit 's' must directly follow its rank"),
    ("Bs", 2, "a joker has no suit"),
    ("R♥", 2, "a joker has no suit"),
    ("small jokers", 12, "a joker has no suit"),
])
def test_suit_placement(text: str, column: int, fragment: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_cards(text)
    assert e.value.column == column and fragment in str(e.value)


def test_phone_and_unicode_separators() -> None:
    # the emoji variation selector after a suit, no-break and ideographic spaces, newlines
    assert str(parse_cards("3♠\ufe0f 3\u00a03\u30003\n4").cards) == "33334"


def test_newline_error_caret_is_under_the_offending_character() -> None:
    with pytest.raises(NotationError) as e:
        parse_cards("3\n3X")
    assert e.value.column == 4 and str(e.value).splitlines()[1] == "  3 3X"


def test_invisible_offending_character_is_named() -> None:
    with pytest.raises(NotationError, match=r"U\+200B"):
        parse_cards("3\u200b3")


def test_german_two_letter_jokers_are_set_off() -> None:
    # de: KJ is the small joker, so two kings and the small joker print as "KK KJ"
    cards = parse_cards("KK KJ", "de").cards
    assert cards.format("de") == "KK KJ" and str(cards) == "KKB"
    assert parse_cards("KKKJ", "de").cards == cards


def test_more_copies_than_the_deck_holds() -> None:
    with pytest.raises(NotationError) as e:
        parse_cards("22222", deck=DECK)
    assert e.value.column == 5 and e.value.offending == "2"
    with pytest.raises(NotationError) as e:
        parse_cards("BB", deck=DECK)
    assert e.value.column == 2 and "more copies of 'B'" in str(e.value)


@pytest.mark.parametrize("text, column, card", [
    ("3♥3♥", 3, "3♥"), ("3♥ 4 3h", 6, "3h"), ("3♥3♦3h", 5, "3h"), ("As A♠", 4, "A♠"),
    ("10♣ 10c", 5, "10c"), ("T♦ Td", 4, "Td"),
])
def test_the_same_suited_card_twice_is_an_error_at_the_second_copy(text: str, column: int,
                                                                     card: str) -> None:
    # a deck of 54 has one card of each rank and suit: 3♥ and 3h name the same card
    for deck in (None, DECK):
        with pytest.raises(NotationError) as e:
            parse_cards(text, deck=deck)
        assert (e.value.column, e.value.offending) == (column, card), str(e.value)
        assert f"the same card {card!r} twice" in str(e.value)


def test_four_suits_and_suitless_copies_stay_readable() -> None:
    assert str(parse_cards("3♠3♥3♦3♣").cards) == "3333"
    assert str(parse_cards("3♥333").cards) == "3333"  # suitless: ranks only
    assert str(parse_cards("DsDh", "fr").cards) == "QQ"
    # a deck with 8 copies of a rank (two packs) holds two 3♥, not three
    two_packs = (8,) * 13 + (2, 2)
    assert str(parse_cards("3♥3♥", deck=two_packs).cards) == "33"
    with pytest.raises(NotationError) as e:
        parse_cards("3♥3♥3h", deck=two_packs)
    assert e.value.column == 5 and "(the deck has 2 3♥)" in str(e.value)


def test_a_card_string_longer_than_the_deck_can_hold_is_refused_before_parsing() -> None:
    # 16 characters per card: 16 x 54 = 864 with the 54-card deck, 16 x (7 x 15) = 1680 with
    # none (the largest deck the rules language allows)
    with pytest.raises(NotationError) as e:
        parse_cards("3 " * 432, deck=DECK)  # 864 characters: read, the fifth 3 refused
    assert e.value.column == 9 and "more copies" in str(e.value)
    with pytest.raises(NotationError) as e:
        parse_cards("3 " * 432 + "4", deck=DECK)
    assert (e.value.column, e.value.offending) == (865, "4")
    assert e.value.message == ("too long for cards: 865 characters, at most 864 (16 for each "
                               "of the 54 cards of the deck)")
    with pytest.raises(NotationError) as e:
        parse_cards("3" * 10_000_000)
    assert e.value.column == 1681 and "10000000 characters, at most 1680" in str(e.value)
    assert len(str(e.value).splitlines()[1]) < 70  # the quote is cut


def test_rank_the_variant_lacks() -> None:
    # seed 003 (duel): "retirez les quatre 3 et les quatre 4"
    with pytest.raises(NotationError) as e:
        parse_cards("55 4", deck=DUEL_DECK)
    assert e.value.column == 4 and "the deck has no 4" in str(e.value)


def test_unknown_notation() -> None:
    with pytest.raises(NotationError, match="unknown notation"):
        parse_cards("3", "xx")


counts_strategy = st.lists(st.integers(0, 4), min_size=13, max_size=13).flatmap(
    lambda c: st.tuples(st.integers(0, 1), st.integers(0, 1)).map(lambda j: tuple(c) + j))


@settings(max_examples=300, deadline=None)
@given(counts=counts_strategy, notation=st.sampled_from(NOTATIONS))
def test_parse_of_format_is_identity(counts: tuple[int, ...], notation: str) -> None:
    cards = Cards(counts)
    if len(cards) == 0:
        return
    assert parse_cards(cards.format(notation), notation).cards == cards


@given(counts=counts_strategy)
def test_pack_unpack_roundtrip(counts: tuple[int, ...]) -> None:
    assert unpack(pack(counts)) == counts
    assert Cards.from_key(Cards(counts).key) == Cards(counts)


@given(counts=st.tuples(*[st.integers(0, 15)] * N_RANKS))
def test_a_key_holds_up_to_fifteen_cards_of_a_rank(counts: tuple[int, ...]) -> None:
    # the reference, written without ddzspec: 4 bits a rank, rank index 0 lowest (base 16)
    assert pack(counts) == sum(c * 16 ** i for i, c in enumerate(counts)) < 2 ** 60
    assert unpack(pack(counts)) == counts


def test_twelve_cards_of_a_rank_keep_their_key_and_sixteen_are_refused() -> None:
    three_packs = (12,) * 13 + (3, 3)  # issue 27: three packs, 12 copies, 3 jokers a colour
    cards = parse_cards("3" * 12 + "BBBRRR", deck=three_packs).cards
    assert cards.key == 12 + 3 * 16 ** 13 + 3 * 16 ** 14
    assert Cards.from_key(cards.key) == cards and len(cards) == 18
    with pytest.raises(ValueError, match="at most 15 cards of a rank"):
        Cards((16,) + (0,) * (N_RANKS - 1))


def test_cards_value_type() -> None:
    c = Cards.parse("QQQ3")
    assert repr(c) == "Cards.parse('3QQQ')" and eval(repr(c)) == c
    assert len(c) == 4 and next(iter(c)) == Rank.THREE
    assert c - Cards.parse("3") == Cards.parse("QQQ")
    assert Cards.parse("QQ") <= c and not (Cards.parse("KK") <= c)
    with pytest.raises(ValueError):
        Cards((1,) * (N_RANKS - 1))
    with pytest.raises(ValueError):
        Cards.parse("3") - Cards.parse("4")


def test_a_long_bad_input_is_quoted_cut_around_the_error() -> None:
    """Tester F14: an error quoted the whole input, however long (10,001 characters here),
    with a caret thousands of columns away. The quote is cut to about 60 characters around
    the column, "…" where it is cut, the caret under the fault; a short input stays whole."""
    from ddzspec.errors import NotationError
    text = "3" * 800 + "X" + "4" * 800  # within the 16 x 105 characters of a deckless string
    with pytest.raises(NotationError) as e:
        parse_cards(text)
    lines = str(e.value).splitlines()
    assert lines[0] == "column 801: unknown symbol 'X' in English notation"
    assert lines[1] == "  …" + "3" * 30 + "X" + "4" * 29 + "…"
    assert lines[2] == "  " + " " * 31 + "^" and lines[1][len(lines[2]) - 1] == "X"
    assert e.value.one_line() == ("column 801: unknown symbol 'X' in English notation (in '…"
                                  + "3" * 30 + "X" + "4" * 29 + "…')")
    with pytest.raises(NotationError) as short:
        parse_cards("33X")
    assert str(short.value) == "column 3: unknown symbol 'X' in English notation\n  33X\n    ^"
    assert short.value.one_line() == "column 3: unknown symbol 'X' in English notation (in '33X')"
    # at the very end of a long input: cut on the left only
    with pytest.raises(NotationError) as end:
        parse_cards("3" * 100 + "X")
    assert str(end.value).splitlines()[1:] == ["  …" + "3" * 59 + "X", "  " + " " * 60 + "^"]


def test_a_long_position_line_is_quoted_cut(tmp_path: Path, cli: Any) -> None:
    """Tester F14, a position file: the line in error is quoted cut around the fault."""
    f = tmp_path / "long.pos"
    f.write_text(f"rules classic\nlandlord: {'3' * 300}X{'4' * 300}\npeasant: 3\n"
                 "to_move: landlord\n")
    res = cli("solve", str(f))
    assert res.exit_code == 2
    assert res.stderr == (f"ddzspec: error: {f}:2:311: unknown symbol 'X' in English notation "
                          f"(in '…{'3' * 30}X{'4' * 29}…')\n")
