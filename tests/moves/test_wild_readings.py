"""Readings with wild cards (laizi, issue 26): hand-worked readings of ``ddzspec.wild``, the
bomb classes and the wild restrictions."""

from __future__ import annotations

from pathlib import Path

import pytest
from wild_helpers import declared_laizi, restricted_laizi

from ddzspec.cards import Cards, Rank, parse_cards
from ddzspec.errors import NotationError
from ddzspec.rules import load_rules
from ddzspec.rules.model import BombClass
from ddzspec.wild import (
    WildReading,
    allowed,
    explain_wild,
    long_bomb,
    outranks,
    parse_declared,
    parse_wild,
    readings_with,
    strongest,
    violated,
    wild_readings,
)

LAIZI = load_rules("laizi")
SEVEN = Rank.SEVEN.index  # the wild rank of these examples
NONE = Cards((0,) * 15)


def test_one_natural_4_and_three_wild_cards() -> None:
    # 4*** (wild 7): the wild cards stand for 444 (a soft bomb of 4s), for 44X (444+X, X any of
    # the 12 other non-joker ranks, 7 itself included) or for XXX (XXX+4, X any of 12 ranks):
    # 1 + 12 + 12 = 25 readings of two types, on both sides of the bomb line
    rs = wild_readings(parse_cards("4").cards, 3, SEVEN, LAIZI)
    assert len(rs) == 1 + 12 + 12
    bombs = [r for r in rs if r.reading.shape == "bomb"]
    assert [(str(r.reading.body), r.bomb_class, str(r.stands_for)) for r in bombs] == [
        ("4444", BombClass.SOFT, "444")]
    trios = [r for r in rs if r.reading.shape == "trio_single"]
    assert sum(str(r.reading.body) == "444" for r in trios) == 12
    assert sum(str(r.reading.kickers) == "4" for r in trios) == 12
    assert "trio_single 777+4 (wild cards as 777)" in [r.describe() for r in trios]


def test_333_and_one_wild_card_is_a_bomb_or_a_trio_with_a_kicker() -> None:
    # 333* (wild 7): 3333 (soft bomb) or 333+X for the 12 ranks X other than 3: 13 readings
    rs = wild_readings(parse_cards("333").cards, 1, SEVEN, LAIZI)
    assert len(rs) == 13
    assert [r.describe() for r in rs if r.bomb_class] == ["bomb 3333 (soft; wild cards as 3)"]
    assert {str(r.reading.kickers) for r in rs if r.reading.shape == "trio_single"} == {
        "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"}


def test_wild_cards_alone_read_as_themselves() -> None:
    # ** is a pair of 7s, not a pair of any rank; **** is a pure bomb
    pair = wild_readings(NONE, 2, SEVEN, LAIZI)
    assert [r.describe() for r in pair] == ["pair 77 (wild cards as themselves)"]
    four = wild_readings(NONE, 4, SEVEN, LAIZI)
    assert [(r.reading.shape, r.bomb_class) for r in four] == [("bomb", BombClass.PURE)]


def test_natural_moves_keep_their_one_reading_and_a_natural_four_is_a_hard_bomb() -> None:
    rs = wild_readings(parse_cards("5555").cards, 0, SEVEN, LAIZI)
    assert [(r.reading.shape, r.bomb_class) for r in rs] == [("bomb", BombClass.HARD)]
    assert wild_readings(parse_cards("34568").cards, 0, SEVEN, LAIZI) == ()


def test_a_wild_card_fills_a_straight_as_its_own_rank_or_another() -> None:
    # 3456* (wild 7): 34567, the wild card as itself, is the one reading (23456 is no straight:
    # chains never hold a 2; a trio, pair or bomb needs equal ranks)
    rs = wild_readings(parse_cards("3456").cards, 1, SEVEN, LAIZI)
    assert [r.describe() for r in rs] == ["straight 34567 (wild cards as 7)"]
    # 4568* : the wild card stands for the 7
    rs = wild_readings(parse_cards("4568").cards, 1, Rank.NINE.index, LAIZI)
    assert [r.describe() for r in rs] == ["straight 45678 (wild cards as 7)"]


def test_no_wild_kicker_cuts_the_readings_with_a_wild_kicker(tmp_path: Path) -> None:
    rules = restricted_laizi(tmp_path, "no_wild_kicker")
    rs = allowed(parse_cards("4").cards, 3, SEVEN, rules)  # type: ignore[arg-type]
    # 444+X (a wild kicker) is cut: the soft bomb and the 12 XXX+4 are left
    assert len(rs) == 1 + 12
    assert all(str(r.reading.kickers) in ("", "4") for r in rs)


def test_bomb_min_natural_cuts_soft_bombs_with_too_few_natural_cards(tmp_path: Path) -> None:
    rules = restricted_laizi(tmp_path, "bomb_min_natural 2")
    wild = rules.wild  # type: ignore[attr-defined]
    one = wild_readings(parse_cards("4").cards, 3, SEVEN, rules)  # type: ignore[arg-type]
    cut = [r for r in one if violated(wild, r)]
    assert [r.describe() for r in cut] == ["bomb 4444 (soft; wild cards as 444)"]
    two = allowed(parse_cards("44").cards, 2, SEVEN, rules)  # type: ignore[arg-type]
    assert [r.bomb_class for r in two if r.bomb_class] == [BombClass.SOFT]
    pure = allowed(NONE, 4, SEVEN, rules)  # type: ignore[arg-type]
    assert [r.bomb_class for r in pure] == [BombClass.PURE]  # wild cards alone: never cut


def _one(text: str, wilds: int = 0, rank: int = SEVEN) -> WildReading:
    rs = wild_readings(parse_cards(text).cards if text else NONE, wilds, rank, LAIZI)
    assert len(rs) == 1, rs
    return rs[0]


def test_strongest_leading_takes_the_priority_type() -> None:
    wild = LAIZI.wild
    assert wild is not None
    rs = wild_readings(parse_cards("4").cards, 3, SEVEN, LAIZI)
    # laizi's priority puts bomb above trio_single: 4*** leads as the soft bomb of 4s
    got = strongest(wild, rs)
    assert got is not None and got.describe() == "bomb 4444 (soft; wild cards as 444)"


def test_strongest_answering_takes_the_answered_type_with_the_highest_body() -> None:
    wild = LAIZI.wild
    assert wild is not None
    rs = wild_readings(parse_cards("4").cards, 3, SEVEN, LAIZI)
    # answering 555+3: of the 24 trio + single readings the highest body is 222 (2 tops 3 .. A)
    got = strongest(wild, rs, _one("5553"))
    assert got is not None and got.describe() == "trio_single 222+4 (wild cards as 222)"
    # answering a pair: 4*** has no pair reading, so its strongest bomb answers
    got = strongest(wild, rs, _one("99"))
    assert got is not None and got.bomb_class is BombClass.SOFT


def test_bombs_compare_by_class_then_rank() -> None:
    wild = LAIZI.wild
    assert wild is not None
    soft_2 = next(r for r in wild_readings(parse_cards("222").cards, 1, SEVEN, LAIZI)
                  if r.bomb_class)
    hard_3 = _one("3333")
    pure_7 = _one("", 4)
    rocket = _one("BR")
    # rocket > pure > hard > soft (laizi's order): a hard bomb of 3s beats a soft bomb of 2s
    assert outranks(wild, hard_3, soft_2) and not outranks(wild, soft_2, hard_3)
    assert outranks(wild, pure_7, hard_3) and outranks(wild, rocket, pure_7)
    assert outranks(wild, _one("4444"), hard_3) and not outranks(wild, hard_3, hard_3)
    # below the bomb line the natural rule: the same type and size, a higher body
    assert outranks(wild, _one("KKK3"), _one("QQQB")) and not outranks(wild, _one("33"),
                                                                      _one("4"))
    assert outranks(wild, soft_2, _one("AAA3"))  # any bomb beats a trio + single


def test_wild_cards_are_written_with_a_star_or_as_the_wild_rank() -> None:
    move = parse_wild("4***", SEVEN, LAIZI)
    assert (str(move.natural), move.wilds, move.format()) == ("4", 3, "4***")
    # every card of the wild rank is wild: 477 is the 4 and two wild cards
    assert parse_wild("477", SEVEN, LAIZI) == parse_wild("4**", SEVEN, LAIZI)
    assert parse_wild("**", SEVEN, LAIZI).natural == NONE


@pytest.mark.parametrize(("text", "described"), [
    ("333*=3333", "bomb 3333 (soft; wild cards as 3)"),
    ("333*=3334", "trio_single 333+4 (wild cards as 4)"),
    ("4***=4444", "bomb 4444 (soft; wild cards as 444)"),
    ("4***=444+7", "trio_single 444+7 (wild cards as 447)"),
    ("**=77", "pair 77 (wild cards as themselves)"),
])
def test_a_declared_reading(text: str, described: str) -> None:
    assert parse_declared(text, SEVEN, LAIZI).describe() == described


@pytest.mark.parametrize(("text", "column", "message"), [
    ("333*", 5, "a declared reading needs '='"),
    ("333*=33344", 6, "33344: the cards 333* cannot make it (their natural cards and 1 wild "
     "card)"),
    ("333*=333B", 6, "333B: a wild card never stands for a joker"),
    ("**=33", 4, "33: wild cards alone are themselves"),
    ("3456*=34569", 7, "34569: no legal move under the rules"),
    ("3X*=3333", 2, "unknown symbol 'X'"),
    ("33*=3X", 6, "unknown symbol 'X'"),
    ("*****=33333", 5, "5 wild cards: the deck holds 4 cards of the wild rank 7"),
    # nothing after '=': located at the right side's first column (333*= is 5 characters)
    ("333*=", 6, "the declared reading after '=' is empty"),
    ("333*=  ", 6, "the declared reading after '=' is empty"),
    # the right side names the ranks the wild cards stand for: a '*' there is located
    ("333*=*333", 6, "the declared reading names natural ranks only"),
    ("333*=333*", 9, "the declared reading names natural ranks only"),
])
def test_a_declared_reading_the_cards_cannot_make_is_located(text: str, column: int,
                                                             message: str) -> None:
    with pytest.raises(NotationError) as e:
        parse_declared(text, SEVEN, LAIZI)
    assert message in e.value.message and e.value.column == column and e.value.text == text


def test_a_declared_reading_cut_by_a_wild_restriction_is_refused(tmp_path: Path) -> None:
    rules = restricted_laizi(tmp_path, "no_wild_kicker")
    with pytest.raises(NotationError, match="444\\+7: ruled out by no_wild_kicker"):
        parse_declared("4***=444+7", SEVEN, rules)  # type: ignore[arg-type]


def test_every_reading_can_be_declared_and_reads_back() -> None:
    # the declared policy's promise: each reading of a move is written as cards=what they make
    import random
    rng = random.Random(26)
    for _ in range(15):
        natural = [0] * 15
        for i in rng.sample([i for i in range(13) if i != SEVEN], rng.randint(1, 3)):
            natural[i] = rng.randint(1, 3)
        wilds = rng.randint(1, 2)
        move = parse_wild(Cards(tuple(natural)).format() + "*" * wilds, SEVEN, LAIZI)
        for r in wild_readings(move.natural, move.wilds, SEVEN, LAIZI):
            assert parse_declared(f"{move.format()}={r.reading.format()}", SEVEN, LAIZI) == r


def test_explain_4_and_three_wild_cards_under_the_strongest_policy() -> None:
    e = explain_wild(parse_wild("4***", SEVEN, LAIZI), LAIZI)
    lines = e.lines(LAIZI)
    assert lines[0] == ("4*** (wild 7): 25 readings of 2 types (trio_single, bomb); on both "
                        "sides of the bomb line (the multiplier depends on the reading)")
    assert "  bomb 4444 (soft; wild cards as 444)" in lines and len(lines) == 1 + 25 + 1
    assert lines[-1].startswith("reading strongest: leading, bomb 4444 (soft; wild cards as "
                                "444) (bomb comes first in the priority of these types)")


def test_explain_names_the_restriction_that_cuts_each_reading(tmp_path: Path) -> None:
    rules = restricted_laizi(tmp_path, "no_wild_kicker, bomb_min_natural 2")
    e = explain_wild(parse_wild("4***", SEVEN, rules), rules)  # type: ignore[arg-type]
    lines = e.lines(rules)  # type: ignore[arg-type]
    # 12 readings 444+X (a wild kicker) and the soft bomb (one natural card) are cut: 12 left
    assert lines[0].startswith("4*** (wild 7): 12 readings")
    assert "  bomb 4444 (soft; wild cards as 444)  (ruled out by bomb_min_natural 2)" in lines
    assert "  trio_single 444+5 (wild cards as 445)  (ruled out by no_wild_kicker)" in lines
    # left: only the trios XXX+4, so the lead takes the highest, 222+4
    assert e.lead is not None and e.lead.describe() == "trio_single 222+4 (wild cards as 222)"


def test_explain_under_the_declared_policy_shows_how_to_declare(tmp_path: Path) -> None:
    rules = declared_laizi(tmp_path)
    e = explain_wild(parse_wild("333*", SEVEN, rules), rules)
    assert e.lead is None
    assert e.lines(rules)[-1] == ("reading declared: the player states which, e.g. "
                                  "333*=3333")
    assert explain_wild(parse_wild("34*", SEVEN, rules), rules).lines(rules)[-1] == \
        "no reading: not a legal move, whatever rank (but a joker) each wild card stands for"


def test_explain_says_the_declared_reading_is_taken(tmp_path: Path) -> None:
    rules = declared_laizi(tmp_path)
    declared = parse_declared("333*=3333", SEVEN, rules)
    e = explain_wild(parse_wild("333*", SEVEN, rules), rules, declared)
    lines = e.lines(rules)
    # 13 readings (3333 and 333+X for X in 4 .. 2), the declared one marked, and said last
    assert len(lines) == 1 + 13 + 1
    assert "  bomb 3333 (soft; wild cards as 3)  <- declared" in lines
    assert sum("<- declared" in x for x in lines) == 1
    assert lines[-1] == ("declared: 333*=3333 is taken, bomb 3333 (soft; wild cards as 3)")


@pytest.mark.parametrize("text", ["B*", "R**", "34*"])
def test_explain_of_no_reading_says_a_wild_card_is_never_a_joker(text: str) -> None:
    # B*: a wild card is never a joker, so no pair BB nor rocket BR; 34*: no three-card shape
    assert explain_wild(parse_wild(text, SEVEN, LAIZI), LAIZI).lines(LAIZI) == [
        f"{text} (wild 7): 0 readings",
        "no reading: not a legal move, whatever rank (but a joker) each wild card stands for"]


def test_explain_says_when_the_wild_restrictions_rule_out_every_reading(
        tmp_path: Path) -> None:
    rules = restricted_laizi(tmp_path, "no_wild_kicker, bomb_min_natural 3")
    lines = explain_wild(parse_wild("33**", SEVEN, rules), rules).lines(rules)  # type: ignore[arg-type]
    # 33**: the soft bomb 3333 (2 natural cards < 3) and 333+X for X in 4 .. 2 (12; a wild
    # kicker) are all cut
    assert lines[0] == "33** (wild 7): 0 readings" and len(lines) == 1 + 13 + 1
    assert lines[-1] == "no reading: the wild restrictions rule out every one"


# --- tiandi laizi: two wild ranks (sky 9, earth Q in these examples), bombs of 4 to 12 cards
TIANDI = load_rules("tiandi")
SKY_EARTH = (Rank.NINE.index, Rank.QUEEN.index)


def _tiandi(natural: str, wild: str) -> tuple[WildReading, ...]:
    return readings_with(parse_cards(natural).cards if natural else NONE,
                         parse_cards(wild).cards if wild else NONE, SKY_EARTH, TIANDI)


def _bomb(natural: str, wild: str) -> WildReading:
    (b,) = [r for r in _tiandi(natural, wild) if r.reading.shape == "bomb"]
    return b


def test_7777_and_a_sky_and_an_earth_card_is_a_six_card_soft_bomb_or_four_with_two() -> None:
    # 7777 + 9 + Q: the two wild cards stand for 77 (777777, a 6-card soft bomb: 6 sevens are
    # more than the deck's 4, the ladder reads it) or for two kickers XY, X and Y among the
    # 12 ranks other than 7 (a fifth 7 is no reading), repeats allowed: C(12,2) + 12 = 78
    rs = _tiandi("7777", "9Q")
    assert len(rs) == 1 + 78
    assert sum(r.reading.shape == "four_two_singles" for r in rs) == 78
    six = _bomb("7777", "9Q")
    assert (six.describe(), six.reading.size, six.bomb_class) == (
        "bomb 777777 (soft; wild cards as 77)", 6, BombClass.SOFT)
    assert TIANDI.wild is not None and TIANDI.wild.factor(BombClass.SOFT, 6) == 6
    # the strongest policy leads it as the bomb (bomb comes before four_two_singles)
    assert strongest(TIANDI.wild, rs) == six


def test_the_tiandi_ladder_length_then_class_then_rank_and_the_rocket_on_top() -> None:
    wild = TIANDI.wild
    assert wild is not None
    six_7 = _bomb("7777", "9Q")            # 6 cards, soft, 7s
    five_a = _bomb("AAAA", "9")            # 5 cards, soft, As
    five_3 = _bomb("3333", "Q")            # 5 cards, soft, 3s
    pure_9 = _bomb("", "9999")             # 4 cards, the sky rank as itself: pure
    hard_2 = _bomb("2222", "")             # 4 cards, natural: hard
    soft_a = _bomb("AAA", "Q")             # 4 cards, soft, As
    assert [b.bomb_class for b in (pure_9, hard_2, soft_a)] == [
        BombClass.PURE, BombClass.HARD, BombClass.SOFT]
    # 4 As are the natural table's bomb, not a longer one; 12 As (4 + the 8 wild cards) are
    assert long_bomb(TIANDI, parse_cards("AAAA").cards.counts) is None
    twelve = long_bomb(TIANDI, tuple(12 if i == Rank.ACE.index else 0 for i in range(15)))
    assert twelve is not None and twelve.size == 12
    top = WildReading(twelve, parse_cards("99999999").cards, BombClass.SOFT)
    (rocket,) = _tiandi("BR", "")
    # highest first: rocket > 12 > 6 > 5 of As > 5 of 3s > pure 4 > hard 4 > soft 4
    ladder = [rocket, top, six_7, five_a, five_3, pure_9, hard_2, soft_a]
    for i, hi in enumerate(ladder):
        for lo in ladder[i + 1:]:
            assert outranks(wild, hi, lo) and not outranks(wild, lo, hi), (hi.describe(),
                                                                          lo.describe())
    # a 6-card soft bomb of 3s beats a 5-card bomb of As and every 4-card bomb (length first)
    assert outranks(wild, _bomb("333", "999"), five_a)


def test_wild_cards_of_both_ranks_alone_read_as_themselves() -> None:
    # one sky and one earth card: two different singles, no combination (the issue: a
    # multiset of wild cards only reads as itself)
    assert _tiandi("", "9Q") == ()
    # 999Q: a trio of 9s with a Q, never a bomb of 9s
    (r,) = _tiandi("", "999Q")
    assert (r.reading.shape, r.all_wild, r.bomb_class) == ("trio_single", True, None)
    # a natural card of a wild rank is refused: every card of 9 and Q is wild
    with pytest.raises(ValueError, match="the natural cards hold the wild rank Q"):
        _tiandi("Q", "9")
