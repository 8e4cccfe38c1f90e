"""House rules on shapes, written as rules files (sources in each example file):
a declared chain order (``group chain = sequence A 2 3 .. A``: low A-2 straights), a group
written out of order refused with its place, last-play-only shapes, restrictions bound to
named shapes (``for``), consecutive kicker units. Each loads, prints back with ``rules show``
and loads again to the same rules; each mistake is a located error (exit 2 from the CLI).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ddzspec.errors import RulesError
from ddzspec.rules import load_rules, load_rules_text
from ddzspec.rules.model import resolved_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HOUSE = ("low-straights", "last-play-trio", "wings-no-twos", "consecutive-wings",
         "wrap-straights")


@pytest.mark.parametrize("name", HOUSE)
def test_examples_round_trip(name: str) -> None:
    r = load_rules(str(EXAMPLES / f"{name}.rules"))
    text = resolved_text(r)
    back = load_rules_text(text)
    assert replace(back, path=r.path, parents=r.parents) == r
    assert back.digest == r.digest
    assert resolved_text(back) == text


def test_words_rules_show_prints() -> None:
    low = resolved_text(load_rules(str(EXAMPLES / "low-straights.rules")))
    assert "group chain = sequence A 2 3 4 5 6 7 8 9 10 J Q K A\n" in low
    last = resolved_text(load_rules(str(EXAMPLES / "last-play-trio.rules")))
    assert "trio             = 3 x 1 last_play\n" in last
    assert "four_two_pairs   = 4 x 1 + 2 pair last_play\n" in last
    wings = resolved_text(load_rules(str(EXAMPLES / "wings-no-twos.rules")))
    assert "kicker_not_in 2 B R for plane_singles, plane_pairs\n" in wings
    cons = resolved_text(load_rules(str(EXAMPLES / "consecutive-wings.rules")))
    assert "plane_pairs      = 3 x 2..4 in chain + each pair consecutive\n" in cons
    wrap = resolved_text(load_rules(str(EXAMPLES / "wrap-straights.rules")))
    assert "group chain = sequence 3 4 5 6 7 8 9 10 J Q K A 2 wraps\n" in wrap
    # a circle of 13 ranks: chains of 12 at most (20 cards: 10 pairs, 6 trios)
    assert "straight         = 1 x 5..12 in chain\n" in wrap
    assert "pair_straight    = 2 x 3..10 in chain\n" in wrap


def test_house_rules_change_the_digest_and_seeds_keep_theirs() -> None:
    classic = load_rules("classic")
    digests = {load_rules(str(EXAMPLES / f"{n}.rules")).digest for n in HOUSE}
    assert classic.digest not in digests and len(digests) == len(HOUSE)
    # a house file that restates classic's shapes as they are keeps classic's digest
    same = load_rules_text("rules same extends classic\nshapes { trio = 3 x 1 }\n")
    assert same.digest == classic.digest


def test_sequence_keeps_the_written_order_and_spans_follow_the_order() -> None:
    r = load_rules_text("rules low extends classic\ngroup chain = sequence A 2 3 .. A\n")
    symbols = [r.order[r.strength[i]].symbol() for i in dict(r.groups)["chain"]]
    assert symbols == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    straight = r.shape("straight")
    assert straight.chain_order and (straight.run_min, straight.run_max) == (5, 12)
    assert r.sequences == ("chain",)
    # open runs stop one short of every rank: a run of 13 would read one multiset twice
    assert r.shape("pair_straight").run_max == 10


def _error(text: str, tmp_path: Path) -> RulesError:
    f = tmp_path / "variant.rules"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(str(f))
    assert info.value.path == str(f)
    return info.value


@pytest.mark.parametrize("line, where, message", [
    # the loader used to re-sort this to 3 .. 2 without a word (JQKA2 a straight)
    ("group chain = A 2 3 4 5 6 7 8 9 10 J Q K", (2, 19),
     "group chain: 3 is written after 2, but the order puts it below; the ranks are listed low "
     "to high as in the order (it would be re-sorted, changing which chains exist); for a chain "
     "order apart from strength write 'group chain = sequence ...' (e.g. sequence A 2 3 .. A)"),
    ("group chain = 4 3 5 6 7", (2, 17), "group chain: 3 is written after 4"),
    ("group chain = 3 4 4 5", (2, 19), "group chain: rank 4 is listed twice (first at 2:17)"),
    ("group chain = sequence A 2 3 .. 7 5", (2, 35),
     "group chain: rank 5 appears twice in the sequence; a rank may repeat only at both ends"),
    # the span 3 .. A ends on A: the A is not at the end of the sequence
    ("group chain = sequence A 2 3 .. A 5", (2, 33), "group chain: rank A appears twice"),
    ("group chain = sequence 3 K .. 5", (2, 26), "group chain: K .. 5 runs backwards"),
    ("group chain = sequence 3 B", (2, 26), "group chain: rank B is not in the deck"),
    ("group chain = sequence A A", (2, 24), "group chain: a sequence needs at least 2 ranks"),
])
def test_group_lists_that_would_be_reordered_or_repeat(line: str, where: tuple[int, int],
                                                      message: str, tmp_path: Path) -> None:
    rules = "rules bad extends classic\n" + line + "\n"
    if "B" in line:
        rules = ("rules bad extends classic\ndeck { ranks 3 4 5 6 7 8 9 10 J Q K A 2  copies 4 }"
                 "\norder 3 4 5 6 7 8 9 10 J Q K A 2\n" + line + "\nshapes { without rocket }\n"
                 "deal { players 3 hand 17 talon 1 }\n")
        where = (where[0] + 2, where[1])
    err = _error(rules, tmp_path)
    assert (err.line, err.column) == where, err
    assert err.message.startswith(message), err.message


def test_a_wrapping_sequence_is_a_circle() -> None:
    r = load_rules(str(EXAMPLES / "wrap-straights.rules"))
    straight = r.shape("straight")
    assert r.wrapping == ("chain",) and r.sequences == ("chain",)
    assert straight.wraps and straight.chain_order and straight.house() == ("chain_order",
                                                                            "wraps")
    # the circle as written, and seq: the circle then its ranks again but the last
    assert [r.order[r.strength[i]].symbol() for i in straight.ring] == [
        "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2"]
    assert straight.seq == straight.ring + straight.ring[:12]
    # every place of the circle starts a chain of each length; the heights are the tops'
    # places in the circle: QKA23 (start 9, top 3 at place 0) the lowest five, JQKA2 (start
    # 8, top 2 at place 12) the highest
    assert straight.starts(5) == range(13) and straight.starts(12) == range(13)
    assert straight.height(r.strength, 9, 5) == 0
    assert straight.height(r.strength, 8, 5) == 12
    assert sorted(straight.height(r.strength, s, 5) for s in range(13)) == list(range(13))
    # without `wraps` the same sequence starts chains only where they fit
    plain = load_rules_text("rules p extends classic\ngroup chain = sequence 3 .. 2\n")
    assert plain.shape("straight").starts(5) == range(9) and plain.wrapping == ()


@pytest.mark.parametrize("line, where, message", [
    ("group chain = sequence 3 .. 2 A wraps", (2, 31),
     "group chain: rank A appears twice in a wrapping sequence; a circle lists each rank once "
     "and goes on from its last rank to its first by itself (sequence 3 .. 2 wraps)"),
    # a rank at both ends is the low-straight form, not a circle: the second A is refused
    ("group chain = sequence A 2 3 .. A wraps", (2, 33),
     "group chain: rank A appears twice in a wrapping sequence"),
    ("group chain = sequence 3 4 wraps", (2, 28),
     "group chain: a wrapping sequence needs at least 3 ranks"),
    ("group chain = sequence 3 .. 2 wraps\nshapes { long = 1 x 5..13 in chain }", (3, 21),
     "shape long: runs up to 13 in wrapping sequence chain, a circle of 13 ranks: a run of 13 "
     "would read the same cards from every start; the longest run is 12"),
    ("group chain = sequence 3 .. 2 wraps\nshapes { pairs = 2 x 13 in chain }", (3, 22),
     "shape pairs: runs up to 13 in wrapping sequence chain"),
    # a tester's cases: classic's straight (5..12) on a circle of 11; 'wraps' on a plain list
    ("group chain = sequence 3 .. K wraps", (1, 19),  # at "extends classic"
     "shape straight: runs up to 12 in wrapping sequence chain, a circle of 11 ranks: a run of "
     "11 would read the same cards from every start and a longer one cannot be made; the "
     "longest run is 10"),
    ("group chain = 3 .. A wraps", (2, 22),
     "group chain: only a sequence wraps (write 'group chain = sequence RANKS wraps', e.g. "
     "sequence 3 .. 2 wraps)"),
    ("group chain = 3 4 5 6 7 8 9 10 J Q K A wraps", (2, 40), "group chain: only a sequence"),
    ("group chain = sequence 3 .. 2 wrap", (2, 31),
     "unexpected 'wrap'; expected a rank (3-9, 10, J, Q, K, A, 2, B, R), bidding, deal, deck, "
     "end of file, group, order, precedence, restrictions, round, scoring, shapes, trick, wild, "
     "win, without, …; did you mean 'wraps'?"),
])
def test_wrapping_sequence_errors(line: str, where: tuple[int, int], message: str,
                                  tmp_path: Path) -> None:
    err = _error("rules bad extends classic\n" + line + "\n", tmp_path)
    assert (err.line, err.column) == where, err
    assert err.message.startswith(message), err.message


@pytest.mark.parametrize("shapes, where, message", [
    ("lone_chain = 1 x 1 in chain", (3, 27),
     "shape lone_chain: a run of 1 in sequence chain could be either A (at both ends)"),
    ("long = 1 x 5..13 in chain", (3, 21),
     "shape long: a run of 13 in sequence chain would read the same cards twice (both ends are "
     "A); the longest run is 12"),
    ("trio_single = 3 x 1 + 1 single consecutive", (3, 41),
     "shape trio_single: 'consecutive' needs two kicker units or more"),
    # one body rank, one kicker each: accepted without effect before (found by a tester)
    ("trio_pair = 3 x 1 + each pair consecutive", (3, 40),
     "shape trio_pair: 'consecutive' needs two kicker units or more"),
])
def test_shape_errors(shapes: str, where: tuple[int, int], message: str,
                      tmp_path: Path) -> None:
    err = _error("rules bad extends classic\ngroup chain = sequence A 2 3 .. A\n"
                 f"shapes {{ {shapes} }}\n", tmp_path)
    assert (err.line, err.column) == where, err
    assert err.message.startswith(message), err.message


@pytest.mark.parametrize("restriction, where, message", [
    ("kicker_not_in 2 for trio_single, plane_pairs", (2, 35), None),
    # a restriction on kickers for a shape that cannot break it: accepted silently before
    ("kicker_not_in 2 for bomb", (2, 36),
     "restriction kicker_not_in: for bomb: shape bomb has no kicker; the restriction could "
     "never bar one of its moves"),
    ("kicker_not_in 2 for trio_single, plane", (2, 49),
     "restriction kicker_not_in: for plane: shape plane has no kicker"),
    # one copy of each joker: no joker is ever a pair
    ("kicker_not_in B R for trio_pair", (2, 38),
     "restriction kicker_not_in: for trio_pair: shape trio_pair's kickers are pairs and no "
     "listed rank has 2 cards"),
    ("distinct_kicker_ranks for trio_single", (2, 42),
     "restriction distinct_kicker_ranks: for trio_single: shape trio_single carries one "
     "kicker unit"),
    # two singles hold at most 2 cards of a rank: a cap of 2 bars nothing (a cap of 1 does)
    ("kicker_rank_max 2 for four_two_singles", (2, 38),
     "restriction kicker_rank_max: for four_two_singles: shape four_two_singles's kickers (2 "
     "singles at most) hold at most 2 cards of one rank"),
    ("kicker_rank_max 1 for four_two_singles", (2, 38), None),
    ("jokers_not_both_kickers for trio_single", (2, 44),
     "restriction jokers_not_both_kickers: for trio_single: shape trio_single's kickers (1 "
     "single at most) can never hold both jokers"),
    ("jokers_not_both_kickers for four_two_pairs", (2, 44),
     "restriction jokers_not_both_kickers: for four_two_pairs: shape four_two_pairs's kickers "
     "(2 pairs at most) can never hold both jokers"),
    ("jokers_not_both_kickers for four_two_singles", (2, 44), None),
    # 4 of a rank in the deck, 4 in the body: no card of the body's rank is left to kick
    ("kicker_not_body_rank for four_two_singles", (2, 41),
     "restriction kicker_not_body_rank: for four_two_singles: shape four_two_singles's body "
     "takes every card of its rank (the deck holds 4)"),
    ("kicker_not_body_rank for trio_single", (2, 41), None),
    # quad_block bars 4 of a rank outside a 4-card body and both jokers outside the rocket:
    # a shape without kickers, 4 cards a rank or fewer, never breaks it
    ("quad_block for single", (2, 31),
     "restriction quad_block: for single: shape single has no kicker and 1 card of each body "
     "rank"),
    ("quad_block for bomb", (2, 31),
     "restriction quad_block: for bomb: shape bomb has no kicker and 4 cards of each body rank"),
    ("quad_block for trio_single, four_two_singles", (2, 31), None),
    ("kicker_not_in 2 for nope", (2, 36),
     "restriction kicker_not_in: for nope: no such shape (shapes: "),
    ("kicker_not_in 2 for trio_single, trio_single", (2, 49),
     "restriction kicker_not_in: for trio_single: listed twice"),
])
def test_restriction_for_errors(restriction: str, where: tuple[int, int],
                                message: str | None, tmp_path: Path) -> None:
    text = f"rules bad extends classic\nrestrictions {{ {restriction} }}\n"
    if message is None:  # the restriction can bar a move of each shape named: it binds them
        name = restriction.split(maxsplit=1)[0]
        bound = load_rules_text(text).restriction(name)
        assert bound is not None
        assert bound.shapes == tuple(restriction.split(" for ")[1].split(", "))
        return
    err = _error(text, tmp_path)
    assert (err.line, err.column) == where, err
    assert err.message.startswith(message), err.message


def test_restriction_for_a_dropped_shape() -> None:
    # dropped by the same file: a contradiction, located at the name
    with pytest.raises(RulesError, match=r"x.rules:3:36: restriction kicker_not_in for "
                       r"plane_pairs: this file drops plane_pairs"):
        load_rules_text("rules x extends classic\nshapes { without plane_pairs }\n"
                        "restrictions { kicker_not_in 2 for plane_pairs }\n", "x.rules")
    # dropped on the fly: the restriction loses the name; losing every name, it binds nothing
    r = load_rules(str(EXAMPLES / "wings-no-twos.rules"), without=("plane_pairs",))
    assert r.restriction("kicker_not_in") is not None
    assert r.restriction("kicker_not_in").shapes == ("plane_singles",)  # type: ignore[union-attr]
    r = load_rules(str(EXAMPLES / "wings-no-twos.rules"),
                   without=("plane_pairs", "plane_singles"))
    assert r.restriction("kicker_not_in") is None


@pytest.mark.parametrize("text, where, expected", [
    # a misspelt flag reads as the next shape's name: the error is at the misspelt word
    # (it used to be at what follows it, the closing brace)
    ("shapes { trio = 3 x 1 last_plays }", (2, 23),
     "unexpected 'last_plays'; did you mean 'last_play'?"),
    ("shapes { trio = 3 x 1 + 1 single consecutively }", (2, 34),
     "unexpected 'consecutively'; did you mean 'consecutive'?"),
    ("restrictions { kicker_not_in 2 for }", (2, 36), "a lower-case name"),
])
def test_syntax_errors_are_located(text: str, where: tuple[int, int], expected: str | None,
                                   tmp_path: Path) -> None:
    err = _error("rules bad extends classic\n" + text + "\n", tmp_path)
    assert (err.line, err.column) == where, err
    if expected:
        assert expected in err.message, err.message


@pytest.mark.parametrize("command", [["check"], ["rules", "show"], ["diff", "classic"]])
def test_cli_exits_2_without_traceback(tmp_path: Path, command: list[str], cli: Any) -> None:
    f = tmp_path / "bad.rules"
    f.write_text("rules bad extends classic\ngroup chain = A 2 3 4 5 6 7 8 9 10 J Q K\n")
    res = cli(*command, str(f))
    assert res.exit_code == 2, res.output
    assert f"{f}:2:19: group chain: 3 is written after 2" in res.output
    assert "Traceback" not in res.output


def test_diff_words_a_wrapping_chain_order() -> None:
    from ddzspec.diff import spec_differences
    classic, wrap = load_rules("classic"), load_rules(str(EXAMPLES / "wrap-straights.rules"))
    diffs = {d.what: (d.a, d.b) for d in spec_differences(classic, wrap)}
    assert diffs["group chain"] == ("3 4 5 6 7 8 9 T J Q K A",
                                    "chain order 3 4 5 6 7 8 9 T J Q K A 2, wrapping")


def test_overview_words() -> None:
    from ddzspec.learn import shape_words
    from ddzspec.restrictions import words
    low = load_rules(str(EXAMPLES / "low-straights.rules"))
    assert shape_words(low.shape("straight"), low) == (
        "5 to 12 cards of consecutive ranks of the chain order A 2 3 4 5 6 7 8 9 T J Q K A (the "
        "chain; no wrap), nothing added")
    wrap = load_rules(str(EXAMPLES / "wrap-straights.rules"))
    assert shape_words(wrap.shape("straight"), wrap) == (
        "5 to 12 cards of consecutive ranks of the chain order 3 4 5 6 7 8 9 T J Q K A 2 (the "
        "chain; wraps: after 2 comes 3 again, a chain ranks by its top's place), nothing added")
    last = load_rules(str(EXAMPLES / "last-play-trio.rules"))
    assert shape_words(last.shape("trio"), last).endswith(
        "nothing added, only as the move that empties the hand")
    wings = load_rules(str(EXAMPLES / "wings-no-twos.rules"))
    assert words(wings.restriction("kicker_not_in")) == (  # type: ignore[arg-type]
        "no kicker is a 2, B or R (house rule), for plane_singles, plane_pairs only")
