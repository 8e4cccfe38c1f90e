"""The Moves commands with wild cards (laizi, issue 26): ``--wild RANK``, the ``*`` notation,
declared readings, and the located errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from wild_helpers import declared_laizi

LAIZI = ("--rules", "laizi", "--wild", "7")


def test_read_lists_every_reading_and_the_one_a_lead_takes(cli: Any) -> None:
    code, out, _ = cli("read", "--json", "4***", *LAIZI)
    assert code == 0
    (move,) = json.loads(out)
    rows = move["readings"]
    # 4 + three wild cards: 4444 (soft bomb), 444+X for X in 3, 5..2 (12: 444+4 is no trio
    # with a kicker), XXX+4 for X in 3, 5..2 (12): 25 readings; a lead takes the bomb
    # (priority: bomb before trio_single)
    assert len(rows) == 25
    assert [r["cards"] for r in rows if r["taken"]] == ["4444"]
    assert {r["type"] for r in rows} == {"bomb", "trio_single"}
    assert [r["bomb_class"] for r in rows if r["type"] == "bomb"] == ["soft"]
    assert {"type": "trio_single", "cards": "222+4", "body": "222", "kickers": "4",
            "bomb_class": None, "wild_as": "222", "ruled_out_by": [], "taken": False} in rows


def test_wild_cards_are_the_wild_ranks_own_cards_too(cli: Any) -> None:
    # 47 7 7 with 7 wild is 4***; in French the same
    a = json.loads(cli("read", "--json", "4777", *LAIZI)[1])
    b = json.loads(cli("read", "--json", "--notation", "fr", "4***", *LAIZI)[1])
    assert a[0]["cards"] == b[0]["cards"] == "4***"
    assert len(a[0]["readings"]) == len(b[0]["readings"]) == 25
    assert "444+V" in {r["cards"] for r in b[0]["readings"]}  # French: V is the jack
    code, out, _ = cli("read", "--notation", "de", "B*", *LAIZI)
    assert code == 0 and "pair              body BB" in out


def test_explain_says_both_sides_of_the_bomb_line(cli: Any) -> None:
    code, out, _ = cli("explain", "4***", *LAIZI)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == ("4*** (wild 7): 25 readings of 2 types (trio_single, bomb); on both "
                        "sides of the bomb line (the multiplier depends on the reading)")
    assert lines[-1].startswith("reading strongest: leading, bomb 4444 (soft; wild cards as "
                                "444)")


@pytest.mark.parametrize(("play", "previous", "answer"), [
    # the answered type and size, highest body: 4*** answers a trio as 222+4
    ("4***", "3335", "yes: trio_single 222+4 (wild cards as 222) vs trio_single 333+5"),
    # no trio above 222: the soft bomb answers
    ("4***", "2225", "yes: bomb 4444 (soft; wild cards as 444) vs trio_single 222+5"),
    ("3*", "99", "no: pair 33 (wild cards as 3) vs pair 99"),
    ("A*", "99", "yes: pair AA (wild cards as A) vs pair 99"),
    # a hard bomb beats a soft one (order rocket > pure > hard > soft), a pure one beats both
    ("3333", "44**", "yes: bomb 3333 (hard) vs bomb 4444 (soft; wild cards as 44)"),
    ("****", "2222", "yes: bomb 7777 (pure; wild cards as themselves) vs bomb 2222 (hard)"),
])
def test_beats_by_the_strongest_reading(cli: Any, play: str, previous: str,
                                        answer: str) -> None:
    code, out, _ = cli("beats", play, previous, *LAIZI)
    assert code == 0 and out.startswith(answer)


def test_moves_with_wild_cards(cli: Any) -> None:
    code, out, _ = cli("moves", "--json", "33**", *LAIZI)
    assert code == 0
    got = [(m["cards"], m["reading"]) for m in json.loads(out)["moves"]]
    assert ("33**", "bomb 3333 (soft; wild cards as 33)") in got
    assert ("3**", "trio 333 (wild cards as 33)") in got
    assert len(got) == 8  # 3, *, 3*, 33, **, 3**, 33*, 33**: each multiset once
    code, out, _ = cli("moves", "33A77", "--beat", "99", *LAIZI)
    assert out.splitlines() == ["A*                   pair AA (wild cards as A)",
                                "33**                 bomb 3333 (soft; wild cards as 33)",
                                "pass"]


def test_declared_policy(cli: Any, tmp_path: Path) -> None:
    path = declared_laizi(tmp_path).path
    args = ("--rules", path, "--wild", "7")
    code, out, _ = cli("read", "--json", "333*=333+4", *args)
    assert code == 0
    assert [r["cards"] for r in json.loads(out)[0]["readings"] if r["taken"]] == ["333+4"]
    # in context, as in a deal: of 333*'s 13 readings only the soft bomb 3333 beats 444+5
    code, out, _ = cli("beats", "333*", "4445", *args)
    assert code == 0 and out.startswith("yes: bomb 3333 (soft; wild cards as 3)")
    code, _, err = cli("read", "333*", *args)
    assert code == 0
    # 4*** against 333+5: 444+X (12 X), XXX+4 for X above 3 (11) and the soft bomb 4444
    code, _, err = cli("beats", "4***", "3335", *args)
    assert code == 2 and "PLAY 4***: 24 readings that beat PREVIOUS: declare one" in err
    code, out, _ = cli("beats", "333*=3333", "4445", *args)
    assert out.startswith("yes: bomb 3333 (soft; wild cards as 3)")
    code, out, _ = cli("moves", "--json", "3377", *args)
    # 33** alone: the soft bomb and the 12 trios 333+X (X = 4 .. 2, the wild card's own 7 too)
    assert sum(m["cards"] == "33**" for m in json.loads(out)["moves"]) == 13


@pytest.mark.parametrize(("args", "message"), [
    (("read", "4444", "--rules", "laizi"),
     "laizi has wild cards: name the wild rank with --wild RANK (e.g. --wild 7)"),
    (("moves", "3344", "--rules", "laizi"), "laizi has wild cards: name the wild rank"),
    (("read", "4444", "--wild", "7"), "--wild 7: "),
    (("read", "4", "--rules", "laizi", "--wild", "R"), "--wild R: a joker is never wild"),
    (("read", "4", "--rules", "laizi", "--wild", "77"), "--wild 77: one rank"),
    (("read", "333*=4444", *LAIZI), "'=' declares a reading, but laizi takes the strongest"),
    (("read", "*****", *LAIZI), "MOVE: column 5: 5 wild cards: the deck holds 4 cards"),
    (("read", "4***"), "column 2: '*' is a wild card: only under rules with wild cards"),
    (("beats", "4***", "34*", *LAIZI), "PREVIOUS 34* is not a legal move"),
    (("moves", "33*=333", *LAIZI), "HAND 33*=333: a hand is cards only"),
    (("moves", "3377", "--beat", "34*", *LAIZI), "--beat 34*: not a legal move under"),
])
def test_bad_wild_input_is_one_located_error(cli: Any, args: tuple[str, ...],
                                             message: str) -> None:
    code, out, err = cli(*args)
    assert code == 2 and message in err and "Traceback" not in err + out


def test_a_declared_reading_the_cards_cannot_make(cli: Any, tmp_path: Path) -> None:
    code, _, err = cli("read", "333*=4444", "--rules", declared_laizi(tmp_path).path,
                       "--wild", "7")
    assert code == 2
    assert "column 6: 4444: the cards 333* cannot make it" in err


def test_a_wild_rank_the_draw_cannot_draw(cli: Any, tmp_path: Path) -> None:
    f = tmp_path / "n.rules"
    f.write_text("rules n extends laizi\nwild {\n    count 1\n    draw laizi after deal from "
                 "3 .. A\n    bomb bomb\n    order rocket > pure > hard > soft\n"
                 "    factor soft 2 hard 4 pure 4\n    reading declared\n}\n", encoding="utf-8")
    code, _, err = cli("read", "4", "--rules", str(f), "--wild", "2")
    assert code == 2 and "--wild 2: " in err and "the laizi draw cannot draw 2" in err


def test_an_illegal_wild_move_and_a_french_wild_rank(cli: Any) -> None:
    # 34*: 34X is never a legal move (no three-card shape of two ranks and one more card)
    code, out, _ = cli("read", "34*", *LAIZI)
    assert code == 0 and out == "34*: illegal: no substitution of its wild cards makes a move\n"
    code, out, _ = cli("explain", "--json", "34*", *LAIZI)
    assert json.loads(out) == {"cards": "34*", "legal": False, "readings": [],
                               "explanation": ["34* (wild 7): 0 readings",
                                               "no reading: not a legal move, whatever "
                                               "rank (but a joker) each wild card stands "
                                               "for"]}
    # the jack wild, named in French (V): 3V* is 3 and two wild cards, the trio 333
    code, out, _ = cli("read", "--notation", "fr", "3V*", "--rules", "laizi", "--wild", "V")
    assert out.splitlines() == [
        "3**: 1 reading (policy strongest)",
        "  trio              body 333  kickers -  (wild cards as 33)  <- taken"]


def test_play_deals_laizi_and_the_record_replays(cli: Any, tmp_path: Path) -> None:
    """``play --rules laizi``: the computer players play a whole deal; the transcript shows the
    rank seed 6 draws (9) and the readings of the plays with wild cards; the saved record (its
    rules text with the wild section, the rank drawn) replays."""
    path = tmp_path / "laizi.json"
    code, out, _ = cli("play", "--rules", "laizi", "--seed", "6", "--save", str(path))
    assert code == 0
    assert "  wild rank (laizi, drawn after the deal): 9" in out.splitlines()
    assert "TT**: bomb TTTT (soft; wild cards as TT)" in out
    assert "×2 soft-bomb TT** (seat 2)" in out
    code, again, _ = cli("replay", str(path))
    assert code == 0 and "  wild rank (laizi, drawn after the deal): 9" in again.splitlines()


def test_read_of_several_wild_moves_reports_every_error(cli: Any) -> None:
    code, out, err = cli("read", "3", "4**=", "34*", "*****", *LAIZI)
    assert code == 2 and "Traceback" not in err
    # the moves written right are still read: 3 (a single) and 34* (no reading)
    assert out.splitlines() == [
        "3: 1 reading (policy strongest)",
        "  single            body 3  kickers -  <- taken",
        "34*: illegal: no substitution of its wild cards makes a move"]
    # each error names the move as without wild cards: move N ('TEXT'): …
    assert ("move 2 ('4**='): column 4: '=' declares a reading, but laizi takes the "
            "strongest") in err
    assert ("move 4 ('*****'): column 5: 5 wild cards: the deck holds 4 cards of the wild "
            "rank 7") in err
    code, out, err = cli("read", "--json", "5*", "9*****", *LAIZI)
    assert code == 2 and out == "" and "move 2 ('9*****'): column 6: 5 wild cards" in err
    code, out, err = cli("read", "33", "*****", "44", *LAIZI)
    assert code == 2 and [x for x in out.splitlines() if not x.startswith(" ")] == [
        "33: 1 reading (policy strongest)", "44: 1 reading (policy strongest)"]
    code, _, classic = cli("read", "33", "33X", "44")
    assert code == 2 and classic.splitlines()[0].endswith("move 2 ('33X'): column 3: unknown "
                                                          "symbol 'X' in English notation")


def test_play_deals_reading_declared_and_the_record_replays(cli: Any, tmp_path: Path) -> None:
    """``play --rules examples/laizi-declared.rules``: the computer players state the reading
    of every play (``"as"`` in the record); the record replays, each reading checked."""
    example = str(Path(__file__).parents[2] / "examples" / "laizi-declared.rules")
    path = tmp_path / "declared.json"
    code, out, _ = cli("play", "--rules", example, "--seed", "1", "--save", str(path))
    assert code == 0
    assert "  wild rank (laizi, drawn after the deal): Q" in out.splitlines()
    obj = json.loads(path.read_text(encoding="utf-8"))
    plays = [a for a in obj["actions"] if "play" in a]
    assert obj["version"] == 4 and plays and all("as" in a for a in plays)
    code, again, _ = cli("replay", str(path))
    assert code == 0 and again.splitlines()[-1] == out.splitlines()[-1]
    # a reading the cards cannot make: replay stops at that play, with the reason
    first = next(i for i, a in enumerate(obj["actions"]) if "play" in a)
    obj["actions"][first]["as"] = "BR"
    path.write_text(json.dumps(obj), encoding="utf-8")
    code, out, err = cli("replay", str(path))
    assert code == 1
    # seed 1: seat 1 leads the pair straight 33445566 (action 3, after the three bids)
    assert (f'invalid action {first}: {{"seat": 1, "play": "33445566", "as": "BR"}}: 33445566 '
            "as BR: the cards cannot make BR under the rules (readings: pair_straight "
            "33445566)") in out + err


@pytest.mark.parametrize("rules", ["laizi", "examples/laizi-declared.rules"])
def test_level_3_plays_a_wild_deal(cli: Any, rules: str) -> None:
    """Level 3 plays wild deals (issue 26; laizi: rollouts and the endgame solver; reading
    declared: rollouts only, the solver refuses it): a deal with a level-3 seat finishes.
    Its decisions: tests/players/test_levels.py and test_endgame.py."""
    path = str(Path(__file__).parents[2] / rules) if rules.endswith(".rules") else rules
    code, out, err = cli("play", "--rules", path, "--levels", "3,2,2", "--seed", "2")
    assert code == 0 and "Traceback" not in err
    assert out.splitlines()[-1].startswith("points: ")


def test_declared_policy_marks_the_reading_taken(cli: Any, tmp_path: Path) -> None:
    args = ("--rules", declared_laizi(tmp_path).path, "--wild", "7")
    # one reading needs no declaration: it is the one taken
    code, out, _ = cli("read", "3*", *args)
    assert code == 0 and out.splitlines() == [
        "3*: 1 reading (policy declared)",
        "  pair              body 33  kickers -  (wild cards as 3)  <- taken"]
    # several readings, none declared: none taken
    code, out, _ = cli("read", "--json", "333*", *args)
    assert code == 0 and not any(r["taken"] for r in json.loads(out)[0]["readings"])
    # explain of a declared move says which was declared and taken
    code, out, _ = cli("explain", "333*=3333", *args)
    assert code == 0
    assert out.splitlines()[-1] == ("declared: 333*=3333 is taken, bomb 3333 (soft; wild "
                                    "cards as 3)")
    code, out, _ = cli("explain", "--json", "333*=333+4", *args)
    assert json.loads(out)["declared"] == "333+4"


def test_declared_policy_moves_are_written_as_typed(cli: Any, tmp_path: Path) -> None:
    rules = declared_laizi(tmp_path)
    args = ("--rules", rules.path, "--wild", "7")
    code, out, _ = cli("moves", "33A77", *args)
    assert code == 0
    lines = out.splitlines()
    # 33** is listed once per reading: 3333 and 333+X for X in 4 .. 2 (12), each typable
    assert [x.split()[0] for x in lines if x.startswith("33**")] == [
        "33**=333+4", "33**=333+5", "33**=333+6", "33**=333+7", "33**=333+8", "33**=333+9",
        "33**=333+T", "33**=333+J", "33**=333+Q", "33**=333+K", "33**=333+A", "33**=333+2",
        "33**=3333"]
    # natural cards and wild cards alone (read as themselves) are written as held
    assert "33                   pair 33" in lines
    assert "**                   pair 77 (wild cards as themselves)" in lines
    code, out, _ = cli("moves", "--json", "33A77", *args)
    moves = json.loads(out)["moves"]
    typed = [m["declared"] for m in moves if "declared" in m]
    assert len(typed) == len(set(typed)) == sum("*" in m["cards"] and m["cards"].strip("*")
                                                != "" for m in moves)
    for m in moves:  # every declared form reads back as the reading listed
        if "declared" in m:
            code, out, _ = cli("explain", "--json", m["declared"], *args)
            assert code == 0 and m["declared"].split("=")[1] == json.loads(out)["declared"]


def test_two_wild_ranks_are_refused_by_the_game(cli: Any,
                                                                 tmp_path: Path) -> None:
    f = tmp_path / "two.rules"
    f.write_text("rules two extends laizi\nwild {\n    count 2\n    draw laizi after deal\n"
                 "    draw tian before deal\n    bomb bomb\n    order rocket > pure > hard > "
                 "soft\n    factor soft 2 hard 4 pure 4\n    reading declared\n}\n",
                 encoding="utf-8")
    # read takes one rank per draw (--wild 7,Q); one alone is refused in words
    code, _, err = cli("read", "3", "--rules", str(f), "--wild", "7")
    assert code == 2 and err.strip().endswith("--wild 7: two draws 2 wild ranks (laizi, tian): "
                                              "name one for each, separated by commas, e.g. "
                                              "7,Q (got 1)")
    assert cli("read", "3", "--rules", str(f), "--wild", "7,Q")[0] == 0
    # play says so, and sends nobody to `ddzspec check` (which refuses two wild ranks too)
    code, _, err = cli("play", "--rules", str(f))
    assert code == 2 and "two wild ranks (tiandi laizi) are not played yet" in err
    assert "ddzspec check" not in err


TIANDI = ("--rules", "tiandi", "--wild", "9,Q")  # sky 9, earth Q


def test_tiandi_reads_with_two_wild_ranks_named_by_commas(cli: Any) -> None:
    # 7777 + a 9 and a Q (both wild): 777777 (a 6-card soft bomb) or 7777 with two kickers
    # among the 12 ranks other than 7, repeats allowed (C(12,2) + 12 = 78): 79 readings; a
    # lead takes the bomb (priority: bomb before four_two_singles)
    code, out, _ = cli("read", "--json", "77779Q", *TIANDI)
    assert code == 0
    (move,) = json.loads(out)
    assert move["cards"] == "77779Q" and len(move["readings"]) == 79
    assert [(r["cards"], r["bomb_class"]) for r in move["readings"] if r["taken"]] == [
        ("777777", "soft")]
    # a sky and an earth card alone: themselves, two singles, no move
    code, out, _ = cli("read", "9Q", *TIANDI)
    assert code == 0 and "illegal" in out


@pytest.mark.parametrize(("play", "previous", "verdict"), [
    ("77779Q", "AAAA9", "yes"),   # 6 cards beat 5, whatever the rank
    ("AAAA9", "9999", "yes"),     # 5 cards beat the 4-card pure bomb
    ("3339Q", "AAAA9", "no"),     # 5 against 5, both soft: the rank (3 < A)
    ("BR", "77779Q", "yes"),      # the rocket above every length
])
def test_tiandi_bombs_compare_by_length_then_class_then_rank(cli: Any, play: str,
                                                              previous: str,
                                                              verdict: str) -> None:
    code, out, _ = cli("beats", play, previous, *TIANDI)
    assert code == 0 and out.startswith(f"{verdict}:"), out


@pytest.mark.parametrize(("args", "message"), [
    (("read", "7777", "--rules", "tiandi", "--wild", "9"),
     "--wild 9: tiandi draws 2 wild ranks (sky, earth): name one for each, separated by "
     "commas, e.g. 7,Q (got 1)"),
    (("read", "7777", "--rules", "tiandi", "--wild", "9,9"),
     "9 named twice: the earth draw never repeats an earlier draw's rank"),
    (("read", "7777**", *TIANDI), "2 wild ranks (9, Q): write each wild card as its rank, "
     "not '*'"),
    (("moves", "77779Q", *TIANDI), "legal moves with 2 wild ranks at once are not written yet"),
])
def test_tiandi_bad_input_is_one_line(cli: Any, args: tuple[str, ...], message: str) -> None:
    code, _, err = cli(*args)
    assert code == 2 and message in err, err
