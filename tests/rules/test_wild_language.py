"""The rules language for wild cards (laizi, issue 26): the ``wild`` section, its values and its
located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from ddzspec.cards import Rank
from ddzspec.errors import RulesError
from ddzspec.rules import load_rules
from ddzspec.rules.model import (
    BombClass,
    BombKey,
    ReadingPolicy,
    RoundStage,
    WildRestriction,
    WildRestrictionKind,
)

PRIORITY = ("rocket > bomb > four_two_pairs > four_two_singles > plane_pairs > plane_singles > "
            "plane > pair_straight > straight > trio_pair > trio_single > trio > pair > single")
WILD = f"""rules t extends classic
wild {{
    count 1
    draw laizi after deal from 3 .. 2
    bomb bomb
    order rocket > pure > hard > soft
    factor soft 2 hard 4 pure 4
    reading strongest
    priority {PRIORITY}
}}
"""


def _load(text: str, tmp_path: Path) -> object:
    f = tmp_path / "t.rules"
    f.write_text(text)
    return load_rules(str(f))


def _error(text: str, tmp_path: Path) -> RulesError:
    with pytest.raises(RulesError) as e:
        _load(text, tmp_path)
    return e.value


def _line_col(text: str, needle: str, after: str = "") -> tuple[int, int]:
    """1-based line and column of the first ``needle`` in ``text`` after ``after``."""
    before = text[:text.index(needle, text.index(after))]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


def _located(text: str, tmp_path: Path, at: str, message: str, after: str = "") -> None:
    """Loading ``text`` fails with ``message`` at the first ``at`` after ``after``."""
    e = _error(text, tmp_path)
    assert message in e.message, e.message
    assert (e.line, e.column) == _line_col(text, at, after), (e.line, e.column, e.message)


def test_laizi_declares_one_wild_rank_after_the_deal_with_three_bomb_classes() -> None:
    w = load_rules("laizi").wild
    assert w is not None and w.count == 1 and len(w.draws) == 1
    d = w.draws[0]
    assert (d.name, d.stage, str(d)) == ("laizi", RoundStage.DEAL, "draw laizi after deal from "
                                         "3 4 5 6 7 8 9 10 J Q K A 2")
    # 3 .. 2 along the order: the 13 ranks that are not jokers (rank indices 0 .. 12)
    assert d.ranks == tuple(range(13)) and Rank.SMALL_JOKER.index not in d.ranks
    assert w.order == ("rocket", "pure", "hard", "soft")
    assert (w.factor(BombClass.SOFT), w.factor(BombClass.HARD), w.factor(BombClass.PURE)) == \
        (2, 4, 4)
    assert w.policy is ReadingPolicy.STRONGEST and w.priority[:2] == ("rocket", "bomb")
    assert w.restrictions == ()
    assert load_rules("classic").wild is None


def test_the_natural_moves_of_laizi_are_classic_s() -> None:
    # the wild section changes no natural reading: the same move digest (the same table)
    assert load_rules("laizi").digest == load_rules("classic").digest


def test_wild_restrictions_and_a_declared_policy_load(tmp_path: Path) -> None:
    text = (WILD.replace("reading strongest", "reading declared")
            .replace(f"    priority {PRIORITY}\n", "    restrict no_wild_kicker, "
                     "bomb_min_natural 2\n"))
    w = _load(text, tmp_path).wild  # type: ignore[attr-defined]
    assert w.policy is ReadingPolicy.DECLARED and w.priority == ()
    assert w.restrictions == (WildRestriction(WildRestrictionKind.NO_WILD_KICKER),
                              WildRestriction(WildRestrictionKind.BOMB_MIN_NATURAL, 2))


def test_tiandi_draws_two_wild_ranks_at_two_moments(tmp_path: Path) -> None:
    text = WILD.replace("count 1", "count 2").replace(
        "draw laizi after deal from 3 .. 2",
        "draw sky before deal\n    draw earth after landlord from 3 4 5")
    w = _load(text, tmp_path).wild  # type: ignore[attr-defined]
    assert [(d.name, d.stage) for d in w.draws] == [
        ("sky", RoundStage.BEFORE_DEAL), ("earth", RoundStage.LANDLORD)]
    assert w.draws[0].ranks == tuple(range(13)) and w.draws[1].ranks == (0, 1, 2)


@pytest.mark.parametrize(("old", "new", "at", "message"), [
    ("from 3 .. 2", "from 5 B", "B\n", "B is a joker, and a joker is never wild"),
    ("from 3 .. 2", "from 3 .. R", "R\n", "R is a joker, and a joker is never wild"),
    ("draw laizi after deal from 3 .. 2", "draw laizi after deal\n    draw earth after landlord",
     "earth", "draw earth: a wild rank more than 'count 1' declares"),
    ("reading strongest", "reading first_type", "first_type",
     "wild reading first_type: unknown policy (policies: declared, strongest)"),
    ("after deal", "after lunch", "lunch", "after lunch: unknown stage (stages: before deal, "
     "after deal, after landlord, after talon)"),
    ("after deal", "before landlord", "landlord from",
     "before landlord: unknown stage (stages: before deal"),
    ("order rocket > pure > hard > soft", "order rocket > pure > soft", "rocket >",
     "wild order lacks hard"),
    ("order rocket > pure > hard > soft", "order rocket > pure > hard > soft > trio",
     "trio\n", "trio is neither a bomb class"),
    ("factor soft 2 hard 4 pure 4", "factor soft 2 hard 4 wild 4", "wild 4",
     "wild factor wild: not a bomb class"),
    ("bomb bomb", "bomb trio", "trio\n", "wild bomb trio: a bomb is a shape of one rank"),
    ("priority rocket > bomb", "priority bomb", "bomb >", "wild priority lacks rocket"),
    ("count 1", "count 0", "0\n", "wild count 0: at least 1"),
    # a tester's cases: the missing draws at the count they fall short of; a rank twice
    # named as the draw's list, not a group's
    ("count 1", "count 5", "5\n", "wild count 5: 1 draw clause (one 'draw NAME after STAGE'"),
    ("from 3 .. 2", "from 3 3 4", "3 4", "draw laizi: rank 3 is listed twice (first at"),
    ("from 3 .. 2", "from 4 3", "3\n", "draw laizi: 3 is written after 4, but the order puts "
     "it below; the ranks are listed low to high as in the order"),
])
def test_bad_wild_sections_are_located(tmp_path: Path, old: str, new: str, at: str,
                                       message: str) -> None:
    text = WILD.replace(old, new, 1)
    assert text != WILD
    e = _error(text, tmp_path)
    assert message in e.message, e.message
    assert (e.line, e.column) == _line_col(text, at), (e.line, e.column, e.message)


def test_a_draw_span_running_backwards_is_located(tmp_path: Path) -> None:
    text = WILD.replace("from 3 .. 2", "from 2 .. 3")
    e = _error(text, tmp_path)
    assert "2 .. 3 runs backwards in the order" in e.message
    assert (e.line, e.column) == _line_col(text, "2 .. 3")


@pytest.mark.parametrize(("restrict", "at", "message"), [
    ("restrict wild_only", "wild_only", "unknown restriction (known: no_wild_kicker, "
     "bomb_min_natural)"),
    ("restrict bomb_min_natural", "bomb_min_natural", "needs N from 1 to 3"),
    ("restrict bomb_min_natural 4", "4\n", "needs N from 1 to 3"),
    ("restrict no_wild_kicker 2", "2\n", "takes no number"),
    ("restrict no_wild_kicker, no_wild_kicker", "no_wild_kicker\n", "given twice"),
])
def test_bad_wild_restrictions_are_located(tmp_path: Path, restrict: str, at: str,
                                           message: str) -> None:
    text = WILD.replace("    reading strongest", f"    {restrict}\n    reading strongest")
    e = _error(text, tmp_path)
    assert message in e.message, e.message
    # the second no_wild_kicker is the one located
    assert (e.line, e.column) == _line_col(text, at, after="restrict")


def test_priority_only_with_the_strongest_policy(tmp_path: Path) -> None:
    text = WILD.replace("reading strongest", "reading declared")
    e = _error(text, tmp_path)
    assert "wild priority: only with 'reading strongest'" in e.message
    assert e.line == _line_col(text, "priority")[0]


def test_a_dropped_shape_leaves_the_priority() -> None:
    w = load_rules("laizi", without=("trio_pair",)).wild
    assert w is not None and "trio_pair" not in w.priority and len(w.priority) == 13


@pytest.mark.parametrize(("clause", "again"), [
    ("count 1", "count 1"),  # the same value twice: still a clause given twice
    ("reading strongest", "reading declared"),  # the second does not quietly win
    ("bomb bomb", "bomb bomb"),
    ("order rocket > pure > hard > soft", "order rocket > pure > hard > soft"),
    ("factor soft 2 hard 4 pure 4", "factor soft 2 hard 4 pure 8"),
])
def test_a_wild_clause_given_twice_is_located_at_the_second(tmp_path: Path, clause: str,
                                                            again: str) -> None:
    text = WILD.replace("}", f"    {again}\n}}")
    e = _error(text, tmp_path)
    word = clause.split(maxsplit=1)[0]
    assert e.message == f"wild: {word} given twice (each clause once in a block)", e.message
    # line 10: the rules line, "wild {" and its 7 clauses come first
    assert (e.line, e.column) == (10, 5)
    assert text.splitlines()[9] == f"    {again}"


@pytest.mark.parametrize("dropped", ["rocket", "bomb"])
def test_without_a_shape_above_or_of_the_bomb_line(tmp_path: Path, dropped: str) -> None:
    # ``without`` removes a shape from the wild order too (rocket, the one shape above the
    # bomb); the wild bomb shape itself cannot go: the bomb classes are its readings
    text = f"rules t extends laizi\nwithout {dropped}\n"
    if dropped == "rocket":
        (tmp_path / "t.rules").write_text(text)
        file = str(tmp_path / "t.rules")
        for rules in (load_rules("laizi", without=("rocket",)), load_rules(file)):
            w = rules.wild
            assert w is not None and w.order == ("pure", "hard", "soft")
            assert "rocket" not in w.priority and len(w.priority) == 13
        return
    e = _error(text, tmp_path)
    assert "wild bomb bomb: bomb is dropped (without at 2:9), but the wild section's bomb " \
        "classes (soft, hard, pure) are readings of it" in e.message, e.message
    with pytest.raises(RulesError, match=r"^laizi: --without bomb: wild bomb bomb: bomb is "
                       r"dropped \(without\)"):
        load_rules("laizi", without=("bomb",))


def test_diff_names_the_wild_section() -> None:
    from ddzspec.diff import spec_differences
    diffs = {d.what: d for d in spec_differences(load_rules("classic"), load_rules("laizi"))}
    assert list(diffs) == ["wild"]
    assert diffs["wild"].a == "-" and "order rocket > pure > hard > soft" in diffs["wild"].b


def test_the_overview_states_the_wild_cards_in_words() -> None:
    from ddzspec.learn import rules_overview
    play = " ".join(rules_overview(load_rules("laizi")).play)
    assert ("Wild cards: a rank (laizi) is drawn after the deal from 3 4 5 6 7 8 9 T J Q K A 2 "
            "(never a joker)") in play
    assert ("Bombs by how wild cards made them: rocket > pure (wild cards only) > hard (natural "
            "cards only) > soft (natural and wild cards); factors soft x2, hard x4, pure x4."
            ) in play
    assert "Wild cards" not in " ".join(rules_overview(load_rules("classic")).play)


def test_check_of_two_wild_ranks_at_once_is_refused_in_words(tmp_path: Path) -> None:
    from ddzspec.wildcheck import compile_wild_report
    text = WILD.replace("count 1", "count 2").replace(
        "draw laizi after deal from 3 .. 2", "draw sky before deal\n    draw earth after landlord")
    rules = _load(text, tmp_path)
    with pytest.raises(RulesError, match="check of 2 wild ranks at once is not written yet"):
        compile_wild_report(rules)  # type: ignore[arg-type]


def test_tiandi_declares_bombs_of_4_to_12_cards_by_length_then_class_then_rank() -> None:
    # VARIANTS.md "Tiandi laizi": bombs of 4 to 12 cards (4 natural cards of a rank and the
    # 8 wild cards of the sky and earth ranks: 4 + 2 x 4 = 12), by length, class, rank;
    # 4-soft x2, 4-hard and 4-pure x4, longer bombs x6
    w = load_rules("tiandi").wild
    assert w is not None and w.count == 2
    assert [(d.name, d.stage) for d in w.draws] == [("sky", RoundStage.BEFORE_DEAL),
                                                    ("earth", RoundStage.LANDLORD)]
    assert w.lengths == tuple(range(4, 13))
    assert w.ladder == (BombKey.LENGTH, BombKey.CLASS, BombKey.RANK)
    assert [w.factor(BombClass.SOFT, 4), w.factor(BombClass.HARD, 4),
            w.factor(BombClass.PURE, 4), w.factor(BombClass.SOFT, 5),
            w.factor(BombClass.SOFT, 12)] == [2, 4, 4, 6, 6]
    assert load_rules("tiandi").scoring.factor("rocket") == 6  # "and the rocket x6"
    # laizi keeps one length and the class > rank ladder; its factors ignore a length
    lz = load_rules("laizi").wild
    assert lz is not None and lz.lengths == () and lz.ladder == (BombKey.CLASS, BombKey.RANK)
    assert lz.factor(BombClass.SOFT, 4) == 2 and "ladder" not in " ".join(lz.clauses())


def test_the_tiandi_clauses_read_back_as_written() -> None:
    w = load_rules("tiandi").wild
    assert w is not None
    assert [c for c in w.clauses() if c.startswith(("bomb", "ladder", "factor"))] == [
        "bomb bomb 4 .. 12", "ladder length > class > rank",
        "factor soft 2 hard 4 pure 4 long 6"]


TIANDI = (WILD.replace("count 1", "count 2")
          .replace("draw laizi after deal from 3 .. 2",
                   "draw sky before deal\n    draw earth after landlord")
          .replace("bomb bomb", "bomb bomb 4 .. 12\n    ladder length > class > rank")
          .replace("factor soft 2 hard 4 pure 4", "factor soft 2 hard 4 pure 4 long 6"))


@pytest.mark.parametrize(("old", "new", "at", "message"), [
    # 4 natural cards of a rank + 2 x 4 wild cards = 12 at most
    ("4 .. 12", "4 .. 13", "13", "wild bomb bomb 4 .. 13: 13 cards is more than one rank's "
     "4 copies and the 8 wild cards of the draws can hold (at most 12)"),
    ("4 .. 12", "3 .. 12", "3 ..", "wild bomb bomb 3: the lengths start at the shape's size (4"),
    ("4 .. 12", "4 .. 4", "4\n", "a longer bomb needs HI above 4"),
    ("ladder length > class > rank", "ladder class > rank", "class >",
     "wild ladder lacks length: two bombs differing only there would be incomparable"),
    ("ladder length > class > rank", "ladder length > class > length", "length\n",
     "wild ladder: length is listed twice"),
    ("ladder length > class > rank", "ladder length > suit > rank", "suit",
     "wild ladder suit: not a key (keys: length, class, rank)"),
    ("    ladder length > class > rank\n", "", "bomb bomb",
     "wild bomb of 4 .. 12 cards needs 'ladder length > class > rank'"),
    ("pure 4 long 6", "pure 4", "factor", "wild needs a factor for every bomb class (missing: "
     "long)"),
    ("long 6", "long 6 long 3", "long 3", "wild factor long: given twice"),
    ("order rocket > pure > hard > soft", "order pure > rocket > hard > soft", "order",
     "wild order: with 'ladder length …' the shapes above the bomb come before every class"),
    ("draw earth after landlord", "draw earth after landlord from 7", "earth",
     "draw earth: 1 rank to draw from, but a draw never repeats an earlier draw's rank and 1 "
     "come before it"),
])
def test_bad_tiandi_bomb_ladders_are_located(tmp_path: Path, old: str, new: str, at: str,
                                             message: str) -> None:
    text = TIANDI.replace(old, new, 1)
    assert text != TIANDI
    _located(text, tmp_path, at, message, after="wild")


@pytest.mark.parametrize(("old", "new", "at", "message"), [
    ("bomb bomb", "bomb bomb\n    ladder length > class > rank", "length",
     "wild ladder length: every bomb of this file has one length"),
    ("factor soft 2 hard 4 pure 4", "factor soft 2 hard 4 pure 4 long 6", "long",
     "wild factor long: every bomb of this file has one length"),
    # one wild rank: 4 natural + 4 wild = 8 at most
    ("bomb bomb", "bomb bomb 4 .. 9\n    ladder length > class > rank", "9\n",
     "9 cards is more than one rank's 4 copies and the 4 wild cards of the draws can hold "
     "(at most 8)"),
])
def test_a_one_length_file_takes_no_length_clauses(tmp_path: Path, old: str, new: str, at: str,
                                                    message: str) -> None:
    _located(WILD.replace(old, new, 1), tmp_path, at, message, after="wild")
