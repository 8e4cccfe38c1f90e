"""Regressions of the tenth session (kept as tests): a seat named on the command line follows
the same rule as in a position file (``peasant1`` names the peasant of two seats; with three
seats ``peasant`` is refused), and a position read from stdin is called so in the messages."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ddzspec.cli import main


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args), input=input)
    return res.exit_code, res.stdout, res.stderr


def test_peasant1_names_the_peasant_of_two_seats_on_the_command_line_as_in_a_file() -> None:
    # before: --to-move peasant1 was refused with two seats while a file's to_move: peasant1
    # was accepted. Peasant to move holds 5 against the landlord's 34: the 5 goes out.
    text = "rules classic\nlandlord: 34\npeasant: 5\nto_move: peasant1\n"
    code, out, err = run("solve", "-", "--all", "--json", input=text)
    assert code == 0, err
    from_file = json.loads(out)
    code, out, err = run("solve", "--landlord", "34", "--peasant", "5", "--to-move",
                         "peasant1", "--all", "--json")
    assert code == 0, err
    from_options = json.loads(out)
    assert from_options["winner"] == from_file["winner"] == "peasants"
    assert from_options["winning_moves"] == from_file["winning_moves"] == ["5"]
    # mid-trick, played by peasant1 (the peasant): the landlord beats the 5 with nothing
    code, out, err = run("solve", "--landlord", "34", "--peasant", "56", "--to-move",
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
        args: tuple[str, ...], message: str) -> None:
    code, out, err = run("solve", "--landlord", "34", *args)
    assert code == 2 and out == ""
    assert err == f"ddzspec: error: {message}\n"


def test_a_position_on_stdin_with_its_own_rules_line_is_named_so() -> None:
    text = "rules classic\nlandlord: 34\npeasant: 5\nto_move: landlord\n"
    code, out, err = run("solve", "-", "--rules", "kawu", input=text)
    # before: "- names its rules on its 'rules' line"
    assert code == 2 and out == ""
    assert err.startswith("ddzspec: error: the position on stdin names its rules on its "
                          "'rules' line: --rules/--without do not apply to it")
    code, out, err = run("solve", "-", "--notation", "fr",
                         input=text.replace("\n", "\nnotation en\n", 1))
    assert code == 2
    assert err.startswith("ddzspec: error: the position on stdin has a 'notation en' line")
