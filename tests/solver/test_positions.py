"""Hand-made solver positions: the 3-seat team game, the duel handicap, mid-trick positions,
bombs and springs in the score; the position text format and its located errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ddzspec.solver.position import pair_factors
from wild_helpers import restricted_laizi

from ddzspec.cards import parse_cards
from ddzspec.rules import load_rules
from ddzspec.solver import Limit, PositionError, make_position, parse_position, solve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def ms(moves) -> list:
    return sorted(("PASS",) if m == "PASS" else parse_cards(m).cards.counts for m in moves)


def test_peasant_must_pass_to_let_partner_out() -> None:
    # peasant2 holds one 7; beating the landlord's 5 with K or A lets the landlord's 2 take
    # the trick and its 3 go out. Only a pass wins.
    p = parse_position("""
        rules classic
        landlord: 23
        peasant1: KA
        peasant2: 7
        to_move: peasant1
        on_table: 5 by landlord
    """)
    r = solve(p, want="all")
    assert r.winner == "peasants"
    assert r.winning_moves == ("PASS",)
    assert [(x.seat, x.cards) for x in r.line] == [("peasant1", "PASS"), ("peasant2", "7")]


def test_bomb_wins_only_the_score() -> None:
    # 8888+KK goes out at once (four + kickers never doubles); 8888 then KK wins twice as much.
    p = parse_position("""
        rules classic
        landlord: 35
        peasant1: 8888KK
        peasant2: 6
        to_move: peasant1
        base 2
    """)
    r = solve(p, want="score")
    assert r.winner == "peasants"
    assert "8888+KK" in r.winning_moves and "KK" in r.winning_moves
    assert r.score == {"landlord": -8, "peasant1": 4, "peasant2": 4}
    assert r.best_moves is not None and "8888+KK" not in r.best_moves
    assert "8888" in r.best_moves
    assert [x.cards for x in r.line if x.cards != "PASS"] in (["8888", "KK"], ["KK", "8888"])


def test_only_win_needs_a_bomb_and_the_score_doubles() -> None:
    p = parse_position("""
        rules classic
        landlord: 33334
        peasant: A
        to_move: landlord
        on_table: 2 by peasant
    """)
    r = solve(p, want="score")
    assert r.winner == "landlord"
    assert r.winning_moves == ("3333",)
    assert r.score == {"landlord": 2, "peasant": -2}
    assert [x.cards for x in r.line] == ["3333", "PASS", "4"]


def test_spring_doubles() -> None:
    text = """
        rules classic
        landlord: 2233
        peasant1: 56
        peasant2: 78
        to_move: landlord
    """
    plain = solve(parse_position(text), want="score")
    assert plain.score == {"landlord": 2, "peasant1": -1, "peasant2": -1}
    spring = solve(parse_position(text + "played landlord: none\nplayed peasants: no\n"),
                   want="score")
    assert spring.score == {"landlord": 4, "peasant1": -2, "peasant2": -2}
    # leading a single 3 lets a peasant play: still a win, but no spring
    assert set(spring.winning_moves) == {"22", "33", "2", "3"}
    assert set(spring.best_moves) == {"22", "33", "2"}


def test_anti_spring() -> None:
    p = parse_position("""
        rules classic
        landlord: 3KK
        peasant1: 22
        peasant2: 4
        to_move: peasant1
        on_table: 3 by landlord
        played landlord: lead
        played peasants: no
    """)
    r = solve(p, want="score")
    assert r.winner == "peasants"
    # PASS; peasant2's 4 beats the 3 and goes out while the landlord played only its lead
    assert r.score == {"landlord": -4, "peasant1": 2, "peasant2": 2}


@pytest.mark.parametrize("landlord, peasant, plain", [
    ("78JQ", "567T2", 1), ("557A", "69QA2", 1), ("558Q", "67JJQ", 1)])
def test_duel_peasant_wins_at_the_handicap(landlord: str, peasant: str, plain: int) -> None:
    duel = load_rules("duel")
    hands = {"landlord": landlord, "peasant": peasant}
    r0 = solve(make_position(duel, hands, "landlord", robs=0), want="score")
    assert r0.winner == "landlord" and r0.score == {"landlord": plain, "peasant": -plain}
    p2 = make_position(duel, hands, "landlord", robs=2)
    assert p2.targets == (0, 2) and p2.multiplier == 4
    r2 = solve(p2, want="score")
    assert r2.winner == "peasants" and r2.winning_moves == ()
    assert r2.score == {"landlord": -4, "peasant": 4}
    text = f"rules duel\nlandlord: {landlord}\npeasant: {peasant}\nto_move: landlord\nrobs 2\n"
    assert parse_position(text) == p2


def test_three_seat_mid_trick_after_one_pass() -> None:
    # peasant1 passed on the landlord's 9; peasant2 must beat it or let the landlord lead.
    p = parse_position("""
        rules classic
        landlord: 33
        peasant1: "4 6"
        peasant2: T,5
        to_move: peasant2
        on_table: 9 by landlord
        passes: 1
    """)
    assert p.passes == 1
    r = solve(p, want="all")
    # T takes the trick, then 5 goes out; passing lets the landlord lead 33 and go out.
    assert r.winner == "peasants" and r.winning_moves == ("T",)


def test_passes_are_inferred_and_checked() -> None:
    base = "rules classic\nlandlord: 93\npeasant1: 44\npeasant2: T5\nto_move: peasant2\n"
    assert parse_position(base + "on_table: 9 by landlord\n").passes == 1
    assert parse_position(base + "on_table: 4 by peasant1\n").passes == 0
    with pytest.raises(PositionError, match="1 pass"):
        parse_position(base + "on_table: 9 by landlord\npasses 0\n")


def test_format_round_trip() -> None:
    # (not trio_pair: tests/moves/test_table.py expects that variant's table not to be loaded yet)
    p = parse_position("""rules classic without four_two_pairs, plane_pairs
landlord: 2QQTT77553
peasant: AA9
to_move: peasant
on_table: 3 by landlord
played landlord: lead
""")
    assert parse_position(p.format()) == p
    assert p.rules.without == ("four_two_pairs", "plane_pairs")


def test_limit_gives_unknown_and_never_a_wrong_answer() -> None:
    p = parse_position("rules classic\nlandlord: B2AK998553\npeasant: RQQJJT953\n"
                       "to_move: landlord\n")
    r = solve(p, want="all", limit=Limit(nodes=100))
    assert r.status == "unknown" and r.winner is None and r.winning_moves is None
    assert r.to_json()["status"] == "unknown"


@pytest.mark.parametrize("hand", ["33 BR", "10 10 J", "3 3 3 + 4", "small joker 2",
                                  "3♠ 3♥ K"])
def test_a_hand_is_read_as_the_command_line_reads_it(hand: str) -> None:
    # the rest of the line, spaces and all, read by the notation reader `ddzspec read` uses
    p = parse_position(f"rules classic\nlandlord: {hand}   # a comment\npeasant: 6 6\n"
                       "on_table: 5 5 by peasant\nto_move: landlord\n")
    assert p.hands[0] == parse_cards(hand).cards and str(p.hands[1]) == "66"
    assert p.on_table is not None and str(p.on_table) == "55"


@pytest.mark.parametrize("text, line, column, words", [
    ("rules classic\nlandlord: 33\npeasant: 4X\nto_move: landlord\n", 3, 11, "unknown symbol"),
    ("rules classic\nlandlord: 33 B\npeasant: 4 4 X\nto_move: landlord\n", 3, 14,
     "unknown symbol 'X'"),
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: banker\n", 4, 10, "expected"),
    ("rules classic\nlandlord 33\n", 2, 10, "expected ':'"),
    ("rules nosuch\nlandlord: 3\npeasant: 4\nto_move: landlord\n", 1, 7, "nosuch"),
    ("rules classic without nope\nlandlord: 3\npeasant: 4\nto_move: landlord\n", 1, 7, "nope"),
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: landlord\nlandlord: 5\n", 5, 1,
     "twice"),
    ("rules classic\nlandlord: 22222\npeasant: 44\nto_move: landlord\n", 2, 15, "deck"),
])
def test_located_errors(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(PositionError) as e:
        parse_position(text)
    assert (e.value.line, e.value.column) == (line, column), str(e.value)
    assert words in str(e.value)


@pytest.mark.parametrize("text, words", [
    ("rules classic\nlandlord: 2222\npeasant: 2\nto_move: landlord\n", "deck holds 4"),
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: landlord\non_table: 34 by peasant\n",
     "not a legal move"),
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: landlord\non_table: 5 by landlord\n",
     "own move"),
    ("rules classic\nlandlord: 33\npeasant: 44\n", "to_move"),
    ("rules classic\nlandlord: 33\npeasant: 44\npeasant2: 5\nto_move: landlord\n",
     "peasant1"),
    ("rules classic\nlandlord: 33\npeasant: 4\nto_move: landlord\ntarget peasant: 1\n",
     "already over"),
])
def test_impossible_positions(text: str, words: str) -> None:
    with pytest.raises(PositionError, match=words):
        parse_position(text)


def test_huge_hands_numbers_and_words_are_refused_in_one_short_line() -> None:
    rest = "peasant: 4\nto_move: landlord\n"
    with pytest.raises(PositionError) as e:  # 16 characters for each of the 54 cards: 864
        parse_position("rules classic\nlandlord: " + "3 " * 20_000 + "\n" + rest)
    assert (e.value.line, e.value.column) == (2, 11 + 864)
    assert e.value.message.startswith("too long for cards: 39999 characters, at most 864")
    with pytest.raises(PositionError) as e:  # Python's int() refuses over 4300 digits
        parse_position("rules classic\nlandlord: 3\n" + rest + "base " + "9" * 5000 + "\n")
    assert (e.value.line, e.value.column) == (5, 6)
    assert e.value.message == ("999999…(5000 digits): too large (a number in a position has "
                               "at most 100 digits)")
    with pytest.raises(PositionError) as e:
        parse_position("rules classic\nlandlord: 3\n" + rest + "x" * 60_000 + "\n")
    assert e.value.message.startswith("unexpected '" + "x" * 60 + "…'; expected")
    # a whole text over 64 KiB: refused before it is parsed (10 MB of 'base 1' lines took
    # 137 s and 1.4 GB to reach 'base given twice'), at its 65 537th character: line 3 col 1
    head = "rules classic\n" + "#" * (65_536 - 15) + "\n"  # 65 536 characters, 2 lines
    with pytest.raises(PositionError) as e:
        parse_position(head + "base 1\n" * 100)
    assert (e.value.line, e.value.column) == (3, 1)
    assert e.value.message == "too long for a position: 66236 characters, at most 65536"


def test_bounded_tables_give_the_same_answer() -> None:
    text = ("rules classic\nlandlord: B2AK998553\npeasant: RQQJJT953\nto_move: landlord\n")
    small = solve(parse_position(text), want="all", limit=Limit(entries=500))
    full = solve(parse_position(text), want="all")
    assert small.status == full.status == "solved"
    assert small.winning_moves == full.winning_moves == ("9",)


def test_duel_target_robs_line() -> None:
    text = ("rules duel\nlandlord: 78JQ\npeasant: 567T2\nto_move: landlord\nrobs 2\n"
            "target peasant: robs\nmultiplier 4\n")
    p = parse_position(text)
    assert p.targets == (0, 2) and p.multiplier == 4
    assert solve(p, want="score").score == {"landlord": -4, "peasant": 4}
    # the multiplier so far includes the robs: 2 robs make it a multiple of 4
    with pytest.raises(PositionError, match="with 2 robs it is a multiple of 4"):
        parse_position(text.replace("multiplier 4", "multiplier 2"))


CLASSIC = load_rules("classic")


POS = "rules classic\nlandlord: 3\npeasant: 44\n"


# found by tester 3
def test_a_misspelt_seat_is_named_with_the_seats(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "p.txt"
    f.write_text("landlord: 3455\npeasant1: 66\npeasant3: 77\nto_move: landlord\n")
    code, _, err = cli("solve", str(f))
    assert code == 2 and err == (f"ddzspec: error: {f}:3:1: unknown seat 'peasant3' (seats: "
                                 "landlord, peasant with two seats; landlord, peasant1, "
                                 "peasant2 with three)\n")


# found by tester 9
@pytest.mark.parametrize("quoted,what,column", [
    ('"3\t5"', "a control character", 13),  # the tab, 3 characters into the quoted word
    ('"\\x"', "a bad escape", 12),
])
def test_quoted_cards_with_a_control_character_or_a_bad_escape_are_located(
        quoted: str, what: str, column: int) -> None:
    text = f"rules classic\nlandlord: {quoted}\npeasant: 44\nto_move: landlord\n"
    # before: a json.decoder.JSONDecodeError traceback (exit 1)
    with pytest.raises(PositionError) as e:
        parse_position(text, source="t.pos")
    assert (e.value.line, e.value.column) == (2, column)
    assert what in str(e.value) and str(e.value).startswith(f"t.pos:2:{column}:")


# found by tester 9
def test_a_score_past_2_53_is_exact() -> None:
    base, multiplier = 999_999_999, 1_099_511_627_775
    pos = make_position(CLASSIC, {"landlord": "35", "peasant": "44"}, "landlord",
                        base=base, multiplier=multiplier)
    res = solve(pos, want="score")
    # the landlord leads 5 (the peasant cannot beat it), then 3: a plain win, 1 stake; before,
    # the points went through a float: 1099511626675488423936
    assert res.score is not None
    assert dict(res.score) == {"landlord": base * multiplier, "peasant": -base * multiplier}


# found by tester 9
@pytest.mark.parametrize("kwargs,message", [
    ({"landlord_plays": 5}, "landlord_plays 5: must be 0, 1 or 2"),
    ({"landlord_plays": -1}, "landlord_plays -1: must be 0, 1 or 2"),
    ({"landlord_plays": "0"}, "landlord_plays '0': must be a whole number"),
    ({"peasants_played": "no"}, "peasants_played 'no': must be True or False"),
    ({"robs": True}, "robs True: must be a whole number"),
    ({"base": 2.0}, "base 2.0: must be a whole number"),
])
def test_position_flags_of_the_wrong_kind_are_refused(kwargs: dict[str, object],
                                                       message: str) -> None:
    with pytest.raises(PositionError, match=message):
        make_position(CLASSIC, {"landlord": "35", "peasant": "44"}, "landlord",
                      **kwargs)  # type: ignore[arg-type]


# found by tester 10
@pytest.mark.parametrize("lines,message", [
    ("to_move: peasant\nplayed landlord: lead\nplayed peasants: no\n",
     "6:1: played peasants: no, but a peasant is to lead"),
    ("to_move: landlord\nplayed landlord: none\nplayed peasants: yes\n",
     "6:1: played peasants: yes, but played landlord: none: the landlord leads first"),
    ("to_move: landlord\non_table: 9 by peasant\nplayed peasants: no\n",
     "6:1: played peasants: no, but the move on the table is a peasant's"),
])
def test_spring_flags_no_deal_can_reach_are_refused(lines: str, message: str) -> None:
    # before: accepted, and the first one scored an anti-spring (landlord -2 for -1)
    with pytest.raises(PositionError) as e:
        parse_position(POS + lines, source="p.pos")
    assert str(e.value).startswith(f"p.pos:{message}")


# found by tester 10
def test_three_seat_spring_flags_and_the_inferred_default() -> None:
    text = ("rules classic\nlandlord: 3\npeasant1: 44\npeasant2: 55\nto_move: peasant1\n"
            "played landlord: lead\nplayed peasants: no\n")
    with pytest.raises(PositionError, match="a peasant is to lead"):
        parse_position(text)
    with pytest.raises(PositionError, match="the landlord leads first"):
        make_position(CLASSIC, {"landlord": "3", "peasant": "44"}, "landlord",
                      landlord_plays=0, peasants_played=True)
    # "played landlord: none" alone: no peasant has played yet (inferred), a spring is possible
    fresh = parse_position(POS + "to_move: landlord\nplayed landlord: none\n")
    assert fresh.peasants_played is False
    res = solve(fresh, want="score")
    assert res.score == {"landlord": 2, "peasant": -2}  # the 3 goes out: a spring doubles
    assert make_position(CLASSIC, {"landlord": "3", "peasant": "44"}, "landlord",
                         landlord_plays=0).peasants_played is False
    assert make_position(CLASSIC, {"landlord": "3", "peasant": "44"},
                         "landlord").peasants_played is True


# found by tester 10
@pytest.mark.parametrize("text", [None, b"rules classic\nlandlord: 3\n"])
def test_a_position_that_is_not_text_is_a_type_error(text: object) -> None:
    with pytest.raises(TypeError, match="a position is text"):
        parse_position(text)  # type: ignore[arg-type]


def test_pair_factors_counted_bombs_and_shown_hands_round_trip() -> None:
    happy = parse_position("rules happy\nlandlord: 3333\npeasant1: 5\npeasant2: 6\n"
                           "to_move: landlord\nmultiplier 4\npair peasant2: 4\n"
                           "shown peasant2 landlord\n")
    assert happy.pairs == (1, 1, 4) and happy.shown == (0, 2)  # shown: in seat order
    assert "pair peasant2: 4\n" in happy.format()
    assert "shown landlord peasant2\n" in happy.format()
    assert parse_position(happy.format()) == happy
    capped = parse_position(f"rules {EXAMPLES / 'capped.rules'}\nlandlord: 3333\n"
                            "peasant: 5\nto_move: landlord\nbombs 2\n")
    assert capped.bombs == 2 and "bombs 2\n" in capped.format()
    assert parse_position(capped.format(), base=EXAMPLES) == capped  # 'rules capped'
    # the defaults write nothing
    assert "pair" not in parse_position(happy.format().replace("pair peasant2: 4\n", "")
                                        ).format()


@pytest.mark.parametrize("rules, line, words", [
    ("classic", "pair peasant1: 2", "classic has no round whose factor is a pair's own"),
    ("happy", "pair landlord: 2", "belongs to a peasant's settlement"),
    ("happy", "pair peasant1: 0", "whole number from 1 to 2"),
    ("classic", "shown landlord", "classic has no show round"),
    ("happy", "shown peasant1 peasant1", "peasant1 named twice"),
    ("happy", "shown peasant", "say peasant1"),
    ("classic", "bombs 1", "classic has no cap bombs"),
    ("CAPPED", "bombs 4", "from 0 to 3"),
])
def test_pair_shown_and_bombs_lines_that_cannot_be_are_located(rules: str, line: str,
                                                                words: str) -> None:
    name = str(EXAMPLES / "capped.rules") if rules == "CAPPED" else rules
    text = (f"rules {name}\nlandlord: 3333\npeasant1: 5\npeasant2: 6\nto_move: landlord\n"
            f"{line}\n")
    with pytest.raises(PositionError, match=words) as e:
        parse_position(text)
    assert (e.value.line, e.value.column) == (6, 1), str(e.value)


@pytest.mark.parametrize("count", [0, 1])
def test_bombs_without_a_cap_is_refused_whatever_the_count(count: int, cli: Any) -> None:
    # docs/solver.md: `bombs N` exists only under `cap bombs M`; 0 was accepted, 1 refused
    text = "rules classic\nlandlord: 3333\npeasant: 5\nto_move: landlord\n"
    want = (f"bombs {count}: classic has no cap bombs (the count of multiplying plays matters "
            "only under one)")
    with pytest.raises(PositionError) as e:
        parse_position(text + f"bombs {count}\n")
    assert (e.value.line, e.value.column, e.value.message) == (5, 1, want)
    with pytest.raises(PositionError) as e:
        make_position(CLASSIC, {"landlord": "3333", "peasant": "5"}, "landlord", bombs=count)
    assert e.value.message == want
    code, _, err = cli("solve", "--landlord", "3333", "--peasant", "5", "--to-move",
                       "landlord", "--bombs", str(count))
    assert code == 2 and err == f"ddzspec: error: {want}\n"
    assert parse_position(text).bombs == 0  # not given: none counted


TWO_SEATS = "with two seats say peasant (seats: landlord, peasant), not "


@pytest.mark.parametrize("seat", ["peasant1", "peasant2"])
@pytest.mark.parametrize("line, column", [
    ("peasant: 6\nto_move: {}\n", (4, 10)),
    ("{}: 6\nto_move: landlord\n", (3, 1)),
    ("peasant: 6\nto_move: landlord\ntarget {}: 0\n", (5, 1)),
])
def test_numbered_peasants_of_two_seats_are_refused_where_named(
        seat: str, line: str, column: tuple[int, int]) -> None:
    # before: peasant1 was silently read as the duel's peasant (peasant2 refused)
    with pytest.raises(PositionError) as e:
        parse_position("rules duel\nlandlord: 5\n" + line.format(seat))
    assert (e.value.line, e.value.column) == column
    assert e.value.message == TWO_SEATS + seat


@pytest.mark.parametrize("args", [
    ("--to-move", "peasant1"),
    ("--to-move", "landlord", "--played-by", "peasant1", "--on-table", "A"),
    ("--to-move", "landlord", "--pair", "peasant1:2"),
])
def test_numbered_peasants_of_two_seats_are_refused_on_the_command_line(
        args: tuple[str, ...], cli: Any) -> None:
    code, _, err = cli("solve", "--rules", "duel", "--landlord", "5", "--peasant", "6", *args)
    option = args[2] if len(args) > 2 else args[0]
    assert code == 2 and err == f"ddzspec: error: {option} 'peasant1': {TWO_SEATS}peasant1\n"
    with pytest.raises(PositionError) as e:
        make_position(load_rules("duel"), {"landlord": "5", "peasant1": "6"}, "landlord")
    assert e.value.message == TWO_SEATS + "peasant1"


@pytest.mark.parametrize("rules, factors", [
    ("classic", {1}),  # no round of scope pair
    # happy: the peasant's no 1 / double 2 / super 4 (scope pair); the landlord, speaking
    # first, doubles the table (its factor is in the multiplier, not in a pair): 1, 2, 4
    ("happy", {1, 2, 4}),
    # hebei: kick 2 (scope pair), then the landlord's counter 2 for the kickers only:
    # no kick 1; kick 2 x (no 1 | counter 2) = 2 or 4
    ("hebei", {1, 2, 4}),
])
def test_pair_factors_are_those_the_rounds_reach(rules: str, factors: set[int]) -> None:
    assert pair_factors(load_rules(rules)) == factors


@pytest.mark.parametrize("factor", [3, 8])
def test_a_pair_factor_no_deal_reaches_is_refused_naming_those_it_can(factor: int,
                                                                       cli: Any) -> None:
    want = (f"pair peasant1: {factor}: no deal under happy gives a pair that factor (it is "
            "one of 1, 2, 4)")
    with pytest.raises(PositionError) as e:
        parse_position("rules happy\nlandlord: 3333\npeasant1: 5\npeasant2: 6\n"
                       f"to_move: landlord\npair peasant1: {factor}\n")
    assert (e.value.line, e.value.column, e.value.message) == (6, 1, want)
    code, _, err = cli("solve", "--rules", "happy", "--landlord", "3333", "--peasant", "5",
                       "--peasant", "6", "--to-move", "landlord", "--pair", f"peasant1:{factor}")
    assert code == 2 and err == f"ddzspec: error: {want}\n"


@pytest.mark.parametrize("rules, line, column, want", [
    # before: "unexpected '-1'; expected ':', a number" (the colon is optional)
    ("CAPPED", "bombs -1", 1, "bombs -1: under cap bombs 3 from 0 to 3 plays count"),
    ("classic", "bombs: -1", 1, "bombs -1: classic has no cap bombs (the count of multiplying "
     "plays matters only under one)"),
    ("classic", "passes -1", 8, "passes is 0 or 1 (two passes close a trick)"),
    ("classic", "base -1", 1, "base -1: must be between 1 and 10^9"),
])
def test_a_negative_count_is_refused_with_its_range(rules: str, line: str, column: int,
                                                    want: str) -> None:
    name = str(EXAMPLES / "capped.rules") if rules == "CAPPED" else rules
    with pytest.raises(PositionError) as e:
        parse_position(f"rules {name}\nlandlord: 3333\npeasant: 5\nto_move: landlord\n{line}\n")
    assert (e.value.line, e.value.column, e.value.message) == (5, column, want)


def test_pair_option_lists_only_the_peasants(cli: Any) -> None:
    # before: "expected one of landlord, peasant1, peasant2", though pair refuses the landlord
    code, _, err = cli("solve", "--rules", "happy", "--landlord", "3333", "--peasant", "5",
                       "--peasant", "6", "--to-move", "landlord", "--pair", "peasant3:2")
    assert code == 2 and err == ("ddzspec: error: --pair 'peasant3': unknown seat; expected "
                                 "one of peasant1, peasant2\n")


def test_a_position_under_wild_rules_needs_its_wild_rank() -> None:
    # without the drawn rank the cards could only be solved as natural ones: refused, located
    laizi = load_rules("laizi")
    with pytest.raises(PositionError, match=r"laizi has wild cards: give the drawn wild rank"):
        make_position(laizi, {"landlord": "33", "peasant1": "4", "peasant2": "5"}, "landlord")
    with pytest.raises(PositionError, match=r"<p>:1:1: laizi has wild cards"):
        parse_position("rules laizi\nlandlord: 33\npeasant1: 4\npeasant2: 5\n"
                       "to_move: landlord\n", source="<p>")


def test_the_wild_line_reads_a_drawn_rank_and_formats_back() -> None:
    text = "rules laizi\nwild 10\nlandlord: 33\npeasant1: 4\npeasant2: 5\nto_move: landlord\n"
    p = parse_position(text)
    assert p.wild == 7  # rank indices 3 4 5 6 7 8 9 10: 10 is the eighth
    assert parse_position(p.format()) == p
    assert "wild T\n" in p.format()


@pytest.mark.parametrize(("text", "message"), [
    ("rules classic\nwild 7\nlandlord: 33\npeasant: 4\nto_move: landlord\n",
     "<p>:2:1: wild 7: classic has no wild cards"),
    ("rules laizi\nwild B\nlandlord: 33\npeasant: 4\nto_move: landlord\n",
     "<p>:2:1: wild B: laizi never draws that rank as wild"),
    ("rules laizi\nwild 77\nlandlord: 33\npeasant: 4\nto_move: landlord\n",
     "<p>:2:1: wild 77: give one rank"),
    ("rules laizi\nwild 7\nwild 8\nlandlord: 33\npeasant: 4\nto_move: landlord\n",
     "<p>:3:1: wild given twice"),
    # a '*' in a hand: a card of the wild line's rank (or a located error)
    ("rules laizi\nlandlord: 333*\npeasant: 4\nto_move: landlord\n",
     "<p>:2:14: '*' is a card of the drawn wild rank: name that rank first ('wild 7' in a "
     "position file"),
    ("rules laizi\nlandlord: 777**\npeasant: 4\nto_move: landlord\nwild 7\n",
     "<p>:2:15: 5 cards of the wild rank 7 (each '*' is one): the deck holds 4"),
    ("rules laizi\nlandlord: 333*\npeasant: 4\nto_move: landlord\nwild B\n",
     "<p>:5:6: wild B: laizi never draws that rank as wild"),
    ("rules laizi\nwild 7\nlandlord: 999K\npeasant: 3\non_table: 8887=888+* by peasant\n"
     "to_move: landlord\n",
     "<p>:5:20: '*' in what a wild move reads as: write the rank each wild card stands for"),
    ("rules classic\nlandlord: 333*\npeasant: 4\nto_move: landlord\n",
     "<p>:2:14: '*' is a wild card: only under rules with wild cards"),
])
def test_a_bad_wild_line_or_wild_card_is_a_located_error(text: str, message: str) -> None:
    with pytest.raises(PositionError) as e:
        parse_position(text, source="<p>")
    assert str(e.value).startswith(message), str(e.value)


def test_what_a_wild_move_on_the_table_reads_as_decides_the_answers() -> None:
    # 888 and the wild 7: as a lead the soft bomb 8888 (bomb comes first in the priority),
    # which 999K cannot beat; played as 888+7 (answering a trio with a single), 999+K beats it
    text = ("rules laizi\nwild 7\nlandlord: 999K\npeasant: 3\non_table: 8887=888+7 by peasant\n"
            "to_move: landlord\n")
    p = parse_position(text)
    assert p.on_table_as is not None and p.on_table_as.format() == "7888"
    assert parse_position(p.format()) == p
    assert solve(p, want="all").winning_moves == ("999+K",)
    assert solve(parse_position(text.replace("=888+7", "")), want="all").winning_moves == ()
    with pytest.raises(PositionError, match="<p>:5:1: the move on the table, 7888, does not "
                       "read as 7999 with 7 wild"):
        parse_position(text.replace("=888+7", "=999+7"), source="<p>")


def test_wild_restrictions_cut_the_solver_s_readings(tmp_path: Path) -> None:
    # 3777 with 7 wild against AA: laizi leads 3 and three wild cards as the soft bomb 3333,
    # out at once and x2; under bomb_min_natural 2 that bomb is cut (one natural card), and
    # the cards lead as a trio with a single (333+4 …), out at once and x1
    hands = {"landlord": "3777", "peasant": "AA"}
    plain = solve(make_position(load_rules("laizi"), hands, "landlord", wild="7"), want="score")
    assert dict(plain.score) == {"landlord": 2, "peasant": -2}
    cut = solve(make_position(restricted_laizi(tmp_path, "bomb_min_natural 2"), hands,
                              "landlord", wild="7"), want="score")
    assert dict(cut.score) == {"landlord": 1, "peasant": -1}
    assert cut.best_moves is not None and all("=3333" not in m for m in cut.best_moves)


def test_wild_cards_with_a_last_play_only_shape_are_refused(tmp_path: Path) -> None:
    laizi = load_rules("laizi")
    f = tmp_path / "lp.rules"
    f.write_text(f'rules lp extends "{laizi.path}"\nshapes {{\n    trio = 3 x 1 last_play\n}}\n',
                 encoding="utf-8")
    with pytest.raises(PositionError, match="lp has wild cards and a last-play-only shape: "
                       "the solver does not play the two together yet"):
        make_position(load_rules(str(f)), {"landlord": "33", "peasant": "4"}, "landlord",
                      wild="7")


DECLARED = Path(__file__).parents[2] / "examples" / "laizi-declared.rules"


def test_under_declared_readings_the_move_on_the_table_names_its_reading() -> None:
    # 444 and the wild 7 read 13 ways under laizi-declared (the soft bomb 4444, or the trio
    # 444 with any single but a joker: 3 5 6 … 2 and the 7 itself, 12): the position must say
    # which one was played. 444+3 is beaten by 555+X; the soft bomb 4444 by no trio
    text = (f'rules "{DECLARED}"\nwild 7\nlandlord: 5557\npeasant: 3\n'
            "on_table: 4447=444+3 by peasant\nto_move: landlord\n")
    p = parse_position(text)
    assert p.on_table_as is not None and p.on_table_as.format() == "3444"
    assert solve(p).winner == "landlord"
    with pytest.raises(PositionError, match="<p>:5:1: the move on the table, 4447, has 13 "
                       "readings under 'reading declared': write the one it was played as "
                       r"after '=' \(444\*=444\+3\)"):
        parse_position(text.replace("=444+3", ""), source="<p>")


@pytest.mark.parametrize("order", ["wild first", "wild last"])
def test_a_star_in_a_hand_is_a_card_of_the_wild_line_s_rank(order: str) -> None:
    # 7 wild: 333* is 3337 and 8* is 87, wherever the wild line stands
    hands = "landlord: 333*\npeasant: 8*\nto_move: landlord\n"
    wild = "wild 7\n"
    text = "rules laizi\n" + (wild + hands if order == "wild first" else hands + wild)
    p = parse_position(text)
    assert (p.hands[0].format(), p.hands[1].format(), p.wild) == ("3337", "78", 4)
    assert p == parse_position(text.replace("333*", "3337").replace("8*", "87"))
