"""Regressions of the tenth session and its fresh tester (kept as tests): a seat named on the
command line follows the same rule as in a position file (``peasant1`` names the peasant of
two seats; with three seats ``peasant`` is refused); a position read from stdin is called so
in the messages; a lone queen typed in ``puzzles play`` is a move, not "quit"; ``puzzles
generate --count`` is bounded; spring / anti-spring flags that no deal can reach are refused;
``--all`` lists kickers in order; two time limits at once are refused; a position that is not
text is a TypeError; a new web game without rules says the name is required; a rules path
that exists but is no regular file (/dev/null) is called so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ddzspec.puzzlegen import MAX_COUNT, generate
from ddzspec.rules import load_rules
from ddzspec.solver import Limit, PositionError, make_position, parse_position, solve
from ddzspec.web import create_app

CLASSIC = load_rules("classic")


def test_peasant1_names_the_peasant_of_two_seats_on_the_command_line_as_in_a_file(cli: Any) -> None:
    # before: --to-move peasant1 was refused with two seats while a file's to_move: peasant1
    # was accepted. Peasant to move holds 5 against the landlord's 34: the 5 goes out.
    text = "rules classic\nlandlord: 34\npeasant: 5\nto_move: peasant1\n"
    code, out, err = cli("solve", "-", "--all", "--json", input=text)
    assert code == 0, err
    from_file = json.loads(out)
    code, out, err = cli("solve", "--landlord", "34", "--peasant", "5", "--to-move",
                         "peasant1", "--all", "--json")
    assert code == 0, err
    from_options = json.loads(out)
    assert from_options["winner"] == from_file["winner"] == "peasants"
    assert from_options["winning_moves"] == from_file["winning_moves"] == ["5"]
    # mid-trick, played by peasant1 (the peasant): the landlord beats the 5 with nothing
    code, out, err = cli("solve", "--landlord", "34", "--peasant", "56", "--to-move",
                         "landlord", "--on-table", "5", "--played-by", "peasant1", "--json")
    assert code == 0, err
    assert json.loads(out)["winner"] == "peasants"


@pytest.mark.parametrize("args,message", [
    (("--peasant", "5", "--to-move", "peasant2"),
     "--to-move 'peasant2': unknown seat; expected one of landlord, peasant"),
    (("--peasant", "5", "--peasant", "6", "--to-move", "peasant"),
     "--to-move 'peasant': with three seats say peasant1 (plays right after the landlord) "
     "or peasant2"),
    (("--peasant", "5", "--to-move", "landlord", "--on-table", "3", "--played-by", "nobody"),
     "--played-by 'nobody': unknown seat; expected one of landlord, peasant"),
])
def test_a_seat_option_that_names_no_seat_is_refused_with_the_seats_expected(
        args: tuple[str, ...], message: str, cli: Any) -> None:
    code, out, err = cli("solve", "--landlord", "34", *args)
    assert code == 2 and out == ""
    assert err == f"ddzspec: error: {message}\n"


def test_a_position_on_stdin_with_its_own_rules_line_is_named_so(cli: Any) -> None:
    text = "rules classic\nlandlord: 34\npeasant: 5\nto_move: landlord\n"
    code, out, err = cli("solve", "-", "--rules", "kawu", input=text)
    # before: "- names its rules on its 'rules' line"
    assert code == 2 and out == ""
    assert err.startswith("ddzspec: error: the position on stdin names its rules on its "
                          "'rules' line: --rules/--without do not apply to it")
    code, out, err = cli("solve", "-", "--notation", "fr",
                         input=text.replace("\n", "\nnotation en\n", 1))
    assert code == 2
    assert err.startswith("ddzspec: error: the position on stdin has a 'notation en' line")


def test_a_lone_queen_in_puzzles_play_is_a_move_not_quit(cli: Any) -> None:
    # DDZ2-15: after TT (keeps the win) a lone Q loses to the peasant's A. Before: "Q" (and
    # "q", cards being accepted in lower case) ended the game without a word, exit 0.
    for queen in ("Q", "q"):
        code, out, err = cli("puzzles", "play", "DDZ2-15", input=f"TT\n{queen}\n")
        assert code == 0, err
        assert "this loses: after Q the peasant wins with A" in out
        assert "peasant plays A" in out
    code, out, _ = cli("puzzles", "play", "DDZ2-15", input="quit\nTT\n")
    assert code == 0 and "keeps the win" not in out  # quit still quits


def test_puzzles_generate_count_is_bounded(cli: Any) -> None:
    # before: --count 99999999999999999999 built every task up front (killed by the OOM
    # killer; a MemoryError traceback under a memory limit)
    code, out, err = cli("puzzles", "generate", "--count", "99999999999999999999",
                         "--cards", "3,3", "--workers", "1")
    assert code == 2 and out == ""
    assert f"is not in the range 1<=x<={MAX_COUNT}" in err
    with pytest.raises(ValueError, match=f"--count {MAX_COUNT + 1}: between 1 and"):
        generate(CLASSIC, cards=(3, 3), count=MAX_COUNT + 1)
    # a large count still runs in bounded rounds: the first puzzles are the same as asked alone
    few, _ = generate(CLASSIC, cards=(3, 3), count=2, workers=1, quiet=True)
    assert [p["id"] for p in few] == ["classic-0-6", "classic-0-16"]


POS = "rules classic\nlandlord: 3\npeasant: 44\n"


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


def test_winning_moves_with_kickers_are_listed_lowest_kicker_first(cli: Any) -> None:
    # before: "444+8, 444+7, 444+3" (the search's order)
    code, out, err = cli("solve", "--landlord", "444378", "--peasant", "5", "--to-move",
                         "landlord", "--all")
    assert code == 0, err
    assert "winning moves: 7, 8, 444, 444+3, 444+7, 444+8\n" in out


def test_two_time_limits_at_once_are_refused() -> None:
    pos = make_position(CLASSIC, {"landlord": "34", "peasant": "5"}, "landlord")
    with pytest.raises(ValueError, match="two time limits"):
        solve(pos, limit=Limit(seconds=1), seconds=2)
    assert solve(pos, limit=Limit(seconds=1), seconds=1).status == "solved"  # the same one


@pytest.mark.parametrize("text", [None, b"rules classic\nlandlord: 3\n"])
def test_a_position_that_is_not_text_is_a_type_error(text: object) -> None:
    with pytest.raises(TypeError, match="a position is text"):
        parse_position(text)  # type: ignore[arg-type]


def test_a_new_web_game_without_rules_says_a_name_is_required(tmp_path: Path) -> None:
    client = TestClient(create_app(data_dir=tmp_path))
    r = client.post("/api/games", json={"seat": 0, "levels": 1})
    # before: "rules null are not offered"
    assert r.status_code == 400
    assert r.json()["error"].startswith("rules: a name is required (offered: classic")


def test_a_rules_path_that_is_not_a_regular_file_is_called_so(cli: Any) -> None:
    # before: "no rules file '/dev/null' (tried /dev/null, ...)" though it exists
    code, out, err = cli("check", "/dev/null")
    assert code == 2 and out == ""
    assert err == ("ddzspec: error: /dev/null: is not a regular file (a device, a pipe or a "
                   "socket), not a rules file\n")
