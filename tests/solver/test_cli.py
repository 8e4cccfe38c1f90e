"""``ddzspec solve``: file and quick use, --all, --score, --json, --batch, located errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def test_quick_use_all_and_score(cli: Any) -> None:
    r = cli("solve", "--landlord", "KK5543", "--peasant", "225543", "--to-move", "landlord",
            "--all",
            "--score")
    assert r.exit_code == 0, r.output
    assert "winner: landlord" in r.output
    assert "winning moves: 4, 5" in r.output
    assert "score: landlord +1, peasant -1" in r.output
    assert "line: landlord" in r.output


def test_json_from_stdin_three_seats(cli: Any) -> None:
    text = "rules classic\nlandlord: 35\npeasant1: 8888KK\npeasant2: 6\nto_move: peasant1\n"
    r = cli("solve", "-", "--score", "--json", input=text)
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["status"] == "solved" and out["winner"] == "peasants"
    assert out["score"] == {"landlord": -4, "peasant1": 2, "peasant2": 2}
    assert "8888+KK" in out["winning_moves"]
    assert out["line"][0] == {"seat": "peasant1", "cards": "8888"}
    assert isinstance(out["nodes"], int) and isinstance(out["seconds"], float)


def test_mid_trick_quick_use_with_ban(tmp_path: Path, cli: Any) -> None:
    r = cli("solve", "--without", "plane_pairs", "--landlord", "AA9", "--peasant", "2QQTT7755",
            "--to-move", "landlord", "--on-table", "3", "--played-by", "peasant", "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["winner"] == "landlord" and out["winning_moves"] == ["PASS"]


def test_file_and_unknown(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "p.pos"
    f.write_text("rules classic\nlandlord: B2AK998553\npeasant: RQQJJT953\nto_move: landlord\n")
    r = cli("solve", str(f), "--limit-seconds", "0.0001", "--json")
    assert r.exit_code == 3, r.output  # unknown: a limit stopped the search
    out = json.loads(r.output)
    assert out["status"] == "unknown" and out["winner"] is None


@pytest.mark.parametrize("options, named", [
    (["--base", "2"], "--base"),
    (["--robs", "0", "--multiplier", "4"], "--robs, --multiplier"),
    (["--to-move", "peasant"], "--to-move"),
    (["--pair", "peasant1:2", "--shown", "landlord"], "--pair, --shown"),
    (["--bombs", "0"], "--bombs"),
])
def test_a_position_files_own_options_are_refused_beside_it(
        tmp_path: Path, options: list[str], named: str, cli: Any) -> None:
    # they used to be ignored without a word (--base 2 beside a file solved at base 1)
    f = tmp_path / "p.pos"
    f.write_text("rules classic\nlandlord: 33\npeasant: 4\nto_move: landlord\n")
    r = cli("solve", str(f), *options)
    assert r.exit_code == 2, r.output
    assert f"{named} go with --landlord/--peasant (a position file has its own" in r.output


@pytest.mark.parametrize("args,message", [
    (["--limit-seconds", "0", "--landlord", "3", "--peasant", "4", "--to-move", "landlord"],
     "--limit-seconds"),
    (["--rules", "duel", "--landlord", "5A", "--peasant", "6", "--peasant", "K7",
      "--to-move", "landlord"], "duel is a 2-player variant"),
    (["--landlord", "2", "--peasant", "45", "--to-move", "peasant", "--robs", "1"],
     "classic has no robs"),
])
def test_impossible_options(args: list[str], message: str, cli: Any) -> None:
    r = cli("solve", *args)
    assert r.exit_code == 2 and message in r.output


def test_notation_after_cards_is_an_error(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "n.pos"
    f.write_text("rules classic\nlandlord: KK\npeasant: 55\nto_move: landlord\nnotation fr\n")
    r = cli("solve", str(f))
    assert r.exit_code == 2 and "5:1: notation must come before any cards" in r.output


def test_batch_lines_in_error_are_reported_per_line(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "b.jsonl"
    f.write_text('{"id": 5, "position": 7}\n[1,2,3]\nnot json\n# a comment\n'
                 '{"id": "ok", "position": "landlord: 33\\npeasant: 4\\nto_move: landlord\\n"}\n'
                 '{"id": "three", "seats": 3, "hands": {"first": "3", "second": "4", '
                 '"third": "5"}}\n')
    r = cli("solve", "--batch", str(f))
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert "solved 1/5" in r.output and "4 line(s) in error" in r.output
    assert 'error in 5: "position" must be the text of a position' in r.output
    assert "error in line 3: not JSON" in r.output
    assert "error in three: a puzzle record has two seats" in r.output


def test_errors_exit_2(cli: Any) -> None:
    r = cli("solve", "-", input="rules classic\nlandlord: 3X\n")
    assert r.exit_code == 2 and "<stdin>:2:12" in r.output
    r = cli("solve", "--landlord", "2222", "--peasant", "2", "--to-move", "landlord")
    assert r.exit_code == 2 and "deck holds 4" in r.output
    r = cli("solve", "--landlord", "33", "--peasant", "44", "--to-move", "banker")
    assert r.exit_code == 2 and "unknown seat" in r.output
    r = cli("solve", )
    assert r.exit_code == 2


def test_batch(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "b.jsonl"
    lines = [
        {"id": "a", "hands": {"first": "QQTT", "second": "A3"}, "to_move": "first",
         "on_table": None, "winner": "first", "winning_moves": ["TT", "QQ"]},
        {"id": "b", "position": "rules classic\nlandlord: 3\npeasant: 4\nto_move: peasant\n"},
        {"id": "c", "position": "rules classic\nlandlord: 3X\n"},
    ]
    f.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    r = cli("solve", "--batch", str(f), "--workers", "2", "--json")
    assert r.exit_code == 2, r.output  # a line in error: bad input

    outs = {o["id"]: o for o in map(json.loads, filter(None, r.stdout.splitlines()))}
    assert outs["a"]["expected_agrees"] is True
    assert outs["b"]["winner"] == "peasants"
    assert outs["c"]["status"] == "error" and "2:12" in outs["c"]["error"]
    r = cli("solve", "--batch", str(f))
    assert r.exit_code == 2 and "solved 2/3" in r.output and "1 line(s) in error" in r.output
    assert "error in c: position c:2:12: unknown symbol 'X'" in r.output


#: Eight 12-13 card deals, landlord to lead, of 2,500-4,100 hands each (0.3-0.9 s each, pure
#: Python): together more than the 20,000 hands a process caches before emptying its cache.
_DEALS = [("5B6QA43Q9T26A", "8JRK8T52A7878"), ("TA544TQ629795", "8KQ87J5AK46A5"),
          ("TKA482K54B9R4", "T39T67KAQ6K72"), ("6J8274QA57J7J", "68BQ56JK3K934"),
          ("82KJ4Q2675BA7", "54T4TA2J33A75"), ("92Q4576657J3A", "53TQ93T3K4AB8"),
          ("T6J9943A78AQ", "3J57J9BK4AA2"), ("526A4389T42A7", "J3792T365R24J")]


def test_batch_figures_are_the_same_on_one_or_two_workers_and_run_to_run(
        tmp_path: Path, cli: Any) -> None:
    """A batch's rows (nodes, line, answers) are the same with --workers 1 and 2, run after
    run: a worker's caches from earlier tasks change nothing (they used to: a worker that had
    solved other positions emptied its hand cache sooner, killer moves and all)."""
    f = tmp_path / "deals.jsonl"
    f.write_text("".join(json.dumps({"id": f"d{i}", "position": f"landlord: {ll}\npeasant: "
                                     f"{p}\nto_move: landlord\n"}) + "\n"
                         for i, (ll, p) in enumerate(_DEALS, 1)))
    runs = []
    for workers in ("1", "2", "1", "2"):
        r = cli("solve", "--batch", str(f), "--workers", workers, "--json")
        assert r.exit_code == 0, r.output
        rows = [json.loads(x) for x in r.stdout.splitlines()]
        runs.append([{k: v for k, v in row.items() if k != "seconds"} for row in rows])
    assert all(rows == runs[0] for rows in runs[1:])
    first = runs[0]
    assert [r["id"] for r in first] == [f"d{i}" for i in range(1, 9)]
    assert all(r["status"] == "solved" and r["line"] for r in first)
    assert first[7]["nodes"] == 114_214  # the last deal as solved alone in a fresh process


def test_french_notation(cli: Any) -> None:
    r = cli("solve", "--notation", "fr", "--landlord", "DDTT", "--peasant", "A3", "--to-move",
            "landlord", "--json", "--all")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["winning_moves"] == ["TT", "DD"]


def test_without_all_one_winning_move_and_its_line(cli: Any) -> None:
    # QQTT v A3, landlord to lead: TT and QQ win (the peasant beats neither pair), singles
    # lose (the peasant answers and goes out with the other card)
    args = ("--landlord", "QQTT", "--peasant", "A3", "--to-move", "landlord")
    r = cli("solve", *args, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["winner"] == "landlord" and out["winning_moves"] in (["TT"], ["QQ"])
    assert out["line"][0] == {"seat": "landlord", "cards": out["winning_moves"][0]}
    r = cli("solve", *args)
    assert f"winning move: {out['winning_moves'][0]}\n  (--all lists every one)" in r.output
    # the peasant to lead loses (the landlord's 2 beats either single and goes out): no
    # winning move, in both modes
    for extra in ((), ("--all",)):
        r = cli("solve", "--landlord", "2", "--peasant", "45", "--to-move", "peasant", "--json",
                *extra)
        out = json.loads(r.stdout)
        assert r.exit_code == 0 and out["winner"] == "landlord" and out["winning_moves"] == []


def test_solver_cli_imports_first_and_is_loaded_lazily() -> None:
    # ddzspec.cli loads ddzspec.solver.cli on first use; importing it first must work too
    code = ("import sys, click, ddzspec.cli.group as c; "
            "print('ddzspec.solver' in sys.modules, 'ddzspec.cli.game' in sys.modules); "
            "import ddzspec.solver.cli as s; "
            "print(c.main.get_command(click.Context(c.main), 'solve') is s.solve)")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert p.stdout.split() == ["False", "False", "True"], p.stderr


def test_the_winner_is_a_side_in_text_and_json_alike(cli: Any) -> None:
    # 2 seats, the peasant wins: "peasants" in both outputs, as in deal records
    args = ("--landlord", "3", "--peasant", "4", "--to-move", "peasant")
    assert cli("solve", *args).output.splitlines()[0] == "winner: peasants (peasant, to move, wins)"
    assert json.loads(cli("solve", *args, "--json").stdout)["winner"] == "peasants"


@pytest.mark.parametrize("args, named", [
    (["--landlord", "33", "--peasant", "4X", "--to-move", "landlord"], "--peasant '4X': column 2"),
    (["--landlord", "3X", "--peasant", "4", "--to-move", "landlord"], "--landlord '3X': column 2"),
    (["--landlord", "33", "--peasant", "4", "--peasant", "5", "--to-move", "landlord",
      "--on-table", "Z", "--played-by", "peasant2"], "--on-table 'Z': column 1"),
    (["--landlord", "33", "--peasant", "4", "--to-move", "nobody"],
     "--to-move 'nobody': unknown seat; expected one of landlord, peasant"),
    (["--landlord", "33", "--peasant", "4", "--to-move", "landlord", "--on-table", "4",
      "--played-by", "peasant2"], "--played-by 'peasant2': with two seats say peasant"),
    (["--rules", "duel", "--landlord", "55", "--peasant", "3", "--to-move", "landlord"],
     "--peasant '3': column 1"),
])
def test_a_bad_option_value_is_named(args: list[str], named: str, cli: Any) -> None:
    r = cli("solve", *args)
    assert r.exit_code == 2 and r.stderr.startswith(f"ddzspec: error: {named}"), r.stderr


HARD = {"id": "hard", "position": "rules classic\nlandlord: 33445689TJJJKA22B\n"
        "peasant: 3566677899TQQKA22\nto_move: landlord\n"}  # a 17 v 17 deal: minutes
WRONG = {"id": "wrong", "hands": {"first": "QQTT", "second": "A3"}, "to_move": "first",
         "on_table": None, "winner": "first", "winning_moves": ["TT"]}
RIGHT = {"id": "right", "hands": {"first": "QQTT", "second": "A3"}, "to_move": "first",
         "on_table": None, "winner": "first", "winning_moves": ["QQ", "TT"]}
BAD = {"id": "bad", "position": "landlord: 3X\n"}


@pytest.mark.parametrize("rows, code", [
    ([RIGHT], 0),
    ([RIGHT, HARD], 3),            # unknown: the limit stopped the search
    ([RIGHT, WRONG], 1),           # differs from the expected answer
    ([HARD, WRONG], 1),            # differing is worse than unknown
    ([WRONG, HARD, BAD], 2),       # a bad line is worst
])
def test_batch_exits_with_the_worst_row(tmp_path: Path, rows: list[dict], code: int,
                                        cli: Any) -> None:
    f = tmp_path / "b.jsonl"
    f.write_text("".join(json.dumps(x) + "\n" for x in rows))
    assert cli("solve", "--batch", str(f), "--limit-seconds", "0.05", "--json").exit_code == code
    r = cli("solve", "--batch", str(f), "--limit-seconds", "0.05")
    assert r.exit_code == code, r.output
    assert ("1 differ from the expected answer" in r.output) == (WRONG in rows)
    assert ("1 unknown (limit reached)" in r.output) == (HARD in rows)


_BOTH = "landlord: 3\npeasant: 4\nto_move: landlord\n"
_WORDS_LP = 'expected answer: "winner" must be ' + "'landlord' or 'peasants', not "
_WORDS_FS = 'expected answer: "winner" must be ' + "'first' or 'second', not "


@pytest.mark.parametrize("line, column", [
    # position lines name the solver's sides: landlord / peasants (tester1 item 1)
    ({"position": _BOTH, "winner": "landlord", "winning_moves": ["3"]}, "agrees"),
    ({"position": _BOTH.replace("to_move: landlord", "to_move: peasant"),
      "winner": "peasants", "winning_moves": ["4"]}, "agrees"),
    ({"position": _BOTH, "winner": "peasants", "winning_moves": ["3"]}, "DIFFERS"),
    ({"position": _BOTH, "winner": "first", "winning_moves": ["3"]},
     _WORDS_LP + '"first"'),
    # puzzle records name their seats first / second
    ({"hands": {"first": "3", "second": "4"}, "winner": "first", "winning_moves": ["3"]},
     "agrees"),
    ({"hands": {"first": "3", "second": "4"}, "winner": "landlord", "winning_moves": ["3"]},
     _WORDS_FS + '"landlord"'),
    # partial or badly typed expectations are error rows, never ignored
    ({"position": _BOTH, "winner": "landlord"},
     'expected answer: "winner" given without "winning_moves" (give both, or neither)'),
    ({"position": _BOTH, "winning_moves": ["3"]},
     'expected answer: "winning_moves" given without "winner" (give both, or neither)'),
    ({"position": _BOTH, "winner": 42, "winning_moves": ["3"]},
     _WORDS_LP + "42"),
    ({"position": _BOTH, "winner": "landlord", "winning_moves": "3"},
     'expected answer: "winning_moves" must be a list of card strings ("PASS" for a pass), '
     'e.g. ["33", "PASS"]'),
])
def test_batch_expectations_use_the_line_kind_words_and_are_checked(
        tmp_path: Path, line: dict[str, object], column: str, cli: Any) -> None:
    f = tmp_path / "e.jsonl"
    f.write_text(json.dumps({"id": "x", **line}) + "\n")
    r = cli("solve", "--batch", str(f), "--json")
    out = json.loads(r.stdout)
    if column in ("agrees", "DIFFERS"):
        assert out["expected_agrees"] is (column == "agrees")
        assert r.exit_code == (0 if column == "agrees" else 1)
    else:
        assert out["status"] == "error" and out["error"] == column and r.exit_code == 2


@pytest.mark.parametrize("args, message", [
    # an empty value is a given value: named with its option, never "give a position FILE"
    (["--landlord", "", "--peasant", "4", "--to-move", "landlord"],
     "ddzspec: error: --landlord '': no cards given"),
    (["--landlord", "3", "--peasant", "", "--to-move", "landlord"],
     "ddzspec: error: --peasant '': no cards given"),
    (["--landlord", "3", "--peasant", "4", "--to-move", ""],
     "ddzspec: error: --to-move '': unknown seat; expected one of landlord, peasant"),
    (["--landlord", "3", "--peasant", "4", "--to-move", "landlord", "--robs", "2"],
     "ddzspec: error: robs 2: classic has no robs (neither a target nor the multiplier "
     "depends on them)"),
    # happy's robs double the stake but no target counts them: --robs is the duel's handicap
    (["--rules", "happy", "--landlord", "33", "--peasant", "44", "--peasant", "5", "--to-move",
      "landlord", "--robs", "2"],
     "ddzspec: error: robs 2: robs give the duel's handicap (only there does a win target "
     "depend on the number of robs); under happy robs only multiply the stake: give them in "
     "the multiplier (--multiplier, or 'multiplier N' in a position file; e.g. 2 robs "
     "doubling: multiplier 4)"),
])
def test_empty_option_values_are_named(args: list[str], message: str, cli: Any) -> None:
    r = cli("solve", *args)
    assert r.exit_code == 2 and r.stderr.strip() == message, r.stderr


#: A house variant that refuses a 2 as a kicker: 333+2 is legal in classic, not here.
NOKICK = ('rules nokick "no 2 or joker as a kicker" extends classic\n'
          "restrictions { kicker_not_in 2 group jokers }\n")
TRIO_TWO = "landlord: 3332\npeasant: A\nto_move: landlord\n"


def _house(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp/house/nokick.rules``, the working folder another one (``tmp/elsewhere``)."""
    house = tmp_path / "house"
    house.mkdir()
    (house / "nokick.rules").write_text(NOKICK)
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    return house


def test_a_relative_rules_path_is_found_from_the_position_files_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    """Tester 7: ``rules nokick.rules`` in house/p.pos was looked for in the working folder;
    it is found next to the position file, as a rules file's ``extends`` is."""
    house = _house(tmp_path, monkeypatch)
    (house / "p.pos").write_text("rules nokick.rules\n" + TRIO_TWO)
    r = cli("solve", str(house / "p.pos"), "--all", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["winning_moves"] == ["2", "33", "333"]  # no 333+2: nokick
    # a built-in name is the shipped file, whatever lies in the position's folder
    (house / "classic.rules").write_text("not a rules file\n")
    (house / "c.pos").write_text("rules classic\n" + TRIO_TWO)
    r = cli("solve", str(house / "c.pos"), "--all", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["winning_moves"] == ["2", "33", "333", "333+2"]
    # a path missing there is an error naming the file tried in the position's folder
    (house / "m.pos").write_text("rules missing.rules\n" + TRIO_TWO)
    r = cli("solve", str(house / "m.pos"))
    assert r.exit_code == 2 and "m.pos:1:7: " in r.output
    assert str((house / "missing.rules").resolve()) in r.output


def test_a_batch_files_positions_find_rules_from_the_batch_files_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    house = _house(tmp_path, monkeypatch)
    line = {"id": "n", "position": "rules nokick.rules\n" + TRIO_TWO}
    (house / "b.jsonl").write_text(json.dumps(line) + "\n")
    r = cli("solve", "--batch", str(house / "b.jsonl"), "--workers", "1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["winning_moves"] == ["2", "33", "333"]


def test_puzzles_play_and_check_find_rules_from_the_files_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    """``puzzles play FILE`` and ``puzzles check FILE``: the same folder rule; the puzzle
    keeps the rules it read (its position text names them only as ``rules nokick``)."""
    from ddzspec.puzzles import load_puzzle
    house = _house(tmp_path, monkeypatch)
    (house / "p.pos").write_text("rules nokick.rules\n" + TRIO_TWO)
    pz = load_puzzle(str(house / "p.pos"))
    assert pz.position().rules.name == "nokick" and pz.position_text.startswith("rules nokick")
    r = cli("puzzles", "play", str(house / "p.pos"), input="quit\n")
    assert r.exit_code == 0 and "you play landlord" in r.output, r.output
    rec = {"id": "n", "position": "rules nokick.rules\n" + TRIO_TWO, "winner": "landlord",
           "winning_moves": ["2", "33", "333"]}
    (house / "z.jsonl").write_text(json.dumps(rec) + "\n")
    r = cli("puzzles", "check", str(house / "z.jsonl"))
    assert r.exit_code == 0 and "1 puzzles checked, 0 with a problem" in r.output, r.output


def test_an_output_file_of_another_run_is_refused_in_one_clear_line(tmp_path: Path,
                                                                    cli: Any) -> None:
    """Tester 7: the refusal quoted the file's header cut at 200 characters, mid-JSON; it now
    says what differs: the command that wrote the file, or the options (both values when
    short)."""
    from run_helpers import demo_task

    from ddzspec.execute import ExecuteError, Task
    from ddzspec.execute import run as run_tasks
    b1, b2, out = tmp_path / "b1.jsonl", tmp_path / "b2.jsonl", tmp_path / "out.jsonl"
    for f, cards in ((b1, "3"), (b2, "5")):
        f.write_text(json.dumps({"id": "a", "position": f"landlord: {cards}\npeasant: 4\n"
                                 "to_move: landlord\n"}) + "\n")
    assert cli("solve", "--batch", str(b1), "--workers", "1", "--output", str(out)).exit_code == 0
    before = out.read_bytes()
    tail = "; name a new file or rerun with the same options\n"
    r = cli("solve", "--batch", str(b1), "--workers", "1", "--output", str(out), "--score")
    assert (r.exit_code, r.stdout) == (2, "")
    assert r.stderr == (f'ddzspec: error: {out} was written for another run (want: "all" in '
                        f'the file, "score" now){tail}')
    r = cli("solve", "--batch", str(b2), "--workers", "1", "--output", str(out), "--rules", "kawu")
    assert r.stderr == (f"ddzspec: error: {out} was written for another run (other sha256 "
                        f"(of the input's text); other rules){tail}")
    with pytest.raises(ExecuteError) as e:
        run_tasks([Task.of("1", demo_task, n=1)], workers=1, output=out,
                  header={"command": "balance"})
    assert str(e.value) == (f"{out} was written for another run (the file is from solve "
                            f"--batch, this run is balance){tail.strip()}")
    assert out.read_bytes() == before  # refused: nothing changed


# found by a fresh tester
def test_solver_batch_uses_the_rules_option_and_survives_odd_fields(tmp_path: Path,
                                                                    cli: Any) -> None:
    f = tmp_path / "c.jsonl"
    f.write_text('{"id":"f","hands":{"first":"KK","second":5},"to_move":"first"}\n'
                 '{"id":"g","hands":{"first":"KK","second":"5"},"winner":"first",'
                 '"winning_moves":[5]}\n'
                 '{"id":"d","position":"landlord: 33\\npeasant: 5\\nto_move: landlord\\n"}\n')
    code, out, _ = cli("solve", "--batch", str(f))
    assert code == 2 and "Traceback" not in out  # a bad line: bad input
    assert "error in f: malformed puzzle record: each hand must be a card string" in out
    assert ('error in g: expected answer: "winning_moves" must be a list of card strings'
            in out)  # a badly typed expectation is an error row, never silently ignored
    assert "solved 1/3" in out
    code, out, _ = cli("solve", "--batch", str(f), "--rules", "duel")
    assert "error in d: position d:1:11: the deck has no 3" in out


# found by a fresh tester
def test_solver_refuses_nan_limits_binary_files_and_unplayable_rules(tmp_path: Path,
                                                                     cli: Any) -> None:
    code, _, err = cli("solve", "--landlord", "3", "--peasant", "4", "--to-move", "landlord",
                       "--limit-seconds", "nan")
    assert code == 2 and "not a number" in err
    f = tmp_path / "bin.pos"
    f.write_bytes(b"\xff\xfe\x00")
    code, _, err = cli("solve", str(f))
    assert code == 2 and "not a UTF-8 text file" in err
    code, _, err = cli("solve", "--landlord", "3", "--peasant", "4", "--to-move", "landlord",
                       "--without", "single")
    assert code == 2 and "cannot be played out" in err


# found by tester 3
def test_batch_shows_the_expected_answer_and_flags_a_repeated_id(tmp_path: Path, cli: Any) -> None:
    lines = Path("examples/puzzles.jsonl").read_text().splitlines()
    wrong = lines[0].replace('"DDZ2-01"', '"X"').replace('"winner": "first"',
                                                          '"winner": "second"')
    f = tmp_path / "b.jsonl"
    f.write_text("\n".join([lines[0], wrong, lines[0]]) + "\n")
    code, out, _ = cli("solve", "--batch", str(f), "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2
    # tester F13: the expected winner in the rows' own words (a record's second: peasants)
    assert rows[1]["winner"] == "landlord"
    assert rows[1]["expected"] == {"winner": "peasants", "winning_moves": ["4", "5"]}
    assert rows[1]["expected_agrees"] is False
    assert rows[2] == {"id": "DDZ2-01", "status": "error", "error": "line 3: duplicate id "
                       "'DDZ2-01' (first on line 1); ids must be unique"}
    f.write_text("\n".join([lines[0], wrong]) + "\n")
    code, out, _ = cli("solve", "--batch", str(f))
    assert code == 1 and "DIFFERS: expected peasants, 4, 5" in out and "second," not in out


# found by tester 3
def test_the_printed_winning_move_is_the_first_move_of_the_printed_line(cli: Any) -> None:
    """With --score the line is the best-score line: it starts with 33, which the answer
    must print first (it printed 3, the first of the winning moves)."""
    code, out, _ = cli("solve", "--landlord", "3399KK", "--peasant", "4455", "--to-move",
                       "landlord", "--score")
    lines = out.splitlines()
    move = next(x for x in lines if x.startswith("winning move: ")).removeprefix(
        "winning move: ")
    line = next(x for x in lines if x.startswith("line: "))
    assert code == 0 and line.startswith(f"line: landlord {move} ·") and move == "33"


# found by tester 5
def test_batch_ids_must_be_strings(tmp_path: Path, cli: Any) -> None:
    pos = "landlord: 3\\npeasant: 4\\nto_move: landlord\\n"
    f = tmp_path / "b.jsonl"
    f.write_text(f'{{"id": {{"x": 1}}, "position": "{pos}"}}\n{{"id": null, "position": "{pos}"}}\n'
                 f'{{"id": "ok", "position": "{pos}"}}\n')
    code, out, _ = cli("solve", "--batch", str(f), "--rules", "classic", "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 2 and [r["status"] for r in rows] == ["error", "error", "solved"]
    assert rows[0]["error"] == 'line 1: "id" must be a string (or a whole number), not {"x": 1}'
    assert rows[1]["error"] == 'line 2: "id" must be a string (or a whole number), not null'


# found by tester 9
def test_a_files_rules_line_and_rules_options_together_are_refused(tmp_path: Path,
                                                                   cli: Any) -> None:
    f = tmp_path / "p.pos"
    f.write_text("rules classic\nlandlord: KKQ\npeasant: JJ\nto_move: landlord\n")
    # before: --without pair was ignored and KK listed
    code, out, err = cli("solve", str(f), "--all", "--without", "pair")
    assert code == 2 and out == ""
    assert "names its rules on its 'rules' line: --rules/--without do not apply to it" in err
    code, out, _ = cli("solve", str(f), "--all", "--rules", "kawu")
    assert code == 2
    code, out, err = cli("solve", str(f), "--all")
    assert code == 0 and "winning moves: Q, K, KK" in out, err
    # without a rules line the options are the position's rules
    g = tmp_path / "q.pos"
    g.write_text("landlord: KKQ\npeasant: JJ\nto_move: landlord\n")
    code, out, err = cli("solve", str(g), "--all", "--without", "pair")
    assert code == 0 and "winning moves: Q, K\n" in out, err


# found by tester 9
def test_a_files_notation_line_and_another_notation_option_are_refused(tmp_path: Path,
                                                                       cli: Any) -> None:
    f = tmp_path / "p.pos"
    f.write_text("notation fr\nrules classic\nlandlord: RRD\npeasant: VV\nto_move: landlord\n")
    # before: the French cards were printed under --notation en (R: the king in French, the
    # red joker in English)
    code, out, err = cli("solve", str(f), "--notation", "en")
    assert code == 2 and "has a 'notation fr' line: --notation en does not apply" in err
    code, out, err = cli("solve", str(f), "--notation", "fr")
    assert code == 0 and "winning move: RR" in out, err


# found by tester 10
def test_peasant1_of_two_seats_is_refused_on_the_command_line_as_in_a_file(cli: Any) -> None:
    # first --to-move peasant1 was refused while a file's to_move: peasant1 was accepted; then
    # both took it as the peasant. Now both refuse it, as three seats refuse "peasant".
    why = "with two seats say peasant (seats: landlord, peasant), not peasant1"
    text = "rules classic\nlandlord: 34\npeasant: 5\nto_move: peasant1\n"
    code, out, err = cli("solve", "-", "--all", "--json", input=text)
    assert code == 2 and out == "" and err == f"ddzspec: error: <stdin>:4:10: {why}\n", err
    code, out, err = cli("solve", "--landlord", "34", "--peasant", "5", "--to-move",
                         "peasant1", "--all", "--json")
    assert code == 2 and out == "" and err == f"ddzspec: error: --to-move 'peasant1': {why}\n"


# found by tester 10
@pytest.mark.parametrize("args,message", [
    (("--peasant", "5", "--to-move", "peasant2"),
     "--to-move 'peasant2': with two seats say peasant (seats: landlord, peasant), not "
     "peasant2"),
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


# found by tester 10
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


# found by tester 10
def test_winning_moves_with_kickers_are_listed_lowest_kicker_first(cli: Any) -> None:
    # before: "444+8, 444+7, 444+3" (the search's order)
    code, out, err = cli("solve", "--landlord", "444378", "--peasant", "5", "--to-move",
                         "landlord", "--all")
    assert code == 0, err
    assert "winning moves: 7, 8, 444, 444+3, 444+7, 444+8\n" in out


def test_pair_factors_bombs_and_shown_hands_on_the_command_line(cli: Any) -> None:
    # happy: x2 so far, peasant2's own x4; the landlord goes out with the bomb 3333 (x2):
    # peasant1 pays 2 x 2 = 4, peasant2 2 x 4 x 2 = 16, the landlord gets 20
    code, out, _ = cli("solve", "--rules", "happy", "--landlord", "3333", "--peasant", "5",
                       "--peasant", "6", "--to-move", "landlord", "--multiplier", "2",
                       "--pair", "peasant2:4", "--shown", "peasant2", "--score", "--json")
    assert code == 0
    got = json.loads(out)
    assert got["score"] == {"landlord": 20, "peasant1": -4, "peasant2": -16}
    assert got["shown"] == ["peasant2"]
    code, _, err = cli("solve", "--rules", "happy", "--landlord", "3333", "--peasant", "5",
                       "--peasant", "6", "--to-move", "landlord", "--pair", "peasant2")
    assert code == 2 and "expected SEAT:N" in err
    code, _, err = cli("solve", "--landlord", "3333", "--peasant", "5", "--to-move",
                       "landlord", "--bombs", "1")
    assert code == 2 and "has no cap bombs" in err


def test_a_wild_rank_from_a_file_and_from_the_option(cli: Any) -> None:
    # 7 wild: the landlord's 57 answers the pair 44 as the pair 55 (the wild card as 5) and
    # is out; natural cards could not answer a pair at all
    text = ("rules laizi\nwild 7\nlandlord: 57\npeasant1: 3\npeasant2: 2\n"
            "on_table: 44 by peasant2\nto_move: landlord\n")
    r = cli("solve", "-", "--all", "--json", input=text)
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["winner"] == "landlord" and out["winning_moves"] == ["5*=55"]
    r = cli("solve", "--rules", "laizi", "--wild", "7", "--landlord", "57", "--peasant", "3",
            "--peasant", "2", "--on-table", "44", "--played-by", "peasant2", "--to-move",
            "landlord", "--all")
    assert r.exit_code == 0, r.output
    assert "winning moves: 5*=55" in r.output
    r = cli("solve", "-", "--wild", "8", input=text)
    assert r.exit_code == 2 and "--wild go with --landlord/--peasant" in r.output


def test_a_wild_rules_position_without_its_rank_exits_2(cli: Any) -> None:
    r = cli("solve", "--rules", "laizi", "--landlord", "57", "--peasant", "3",
            "--to-move", "landlord")
    assert r.exit_code == 2
    assert r.output == ("ddzspec: error: laizi has wild cards: give the drawn wild rank ('wild "
                        "7' in a position file, --wild 7 on the command line)\n")


def test_on_table_states_what_a_wild_move_reads_as_as_a_position_file_does(cli: Any) -> None:
    # 888 and the wild 7: as a lead the soft bomb 8888, which 999K cannot beat; stated as
    # 888+7 (a trio with a single), 999+K beats it (the file form: test_positions)
    args = ("solve", "--rules", "laizi", "--wild", "7", "--landlord", "999K", "--peasant", "3",
            "--to-move", "landlord", "--played-by", "peasant", "--all", "--on-table")
    r = cli(*args, "8887=888+7")
    assert r.exit_code == 0, r.output
    assert "winning moves: 999+K" in r.output
    r = cli(*args, "888*=888+7")  # the wild card written '*': the same move
    assert r.exit_code == 0 and "winning moves: 999+K" in r.output, r.output
    r = cli(*args, "8887")
    assert r.exit_code == 0 and "winning moves: none" in r.output, r.output
    r = cli(*args, "8887=888+*")  # column 10 of the whole value
    assert r.exit_code == 2
    assert r.output.startswith("ddzspec: error: --on-table '8887=888+*': column 10: '*' in "
                               "what a wild move reads as: write the rank each wild card "
                               "stands for (8887=888+7)\n"), r.output


def test_under_declared_readings_the_cli_takes_the_reading_its_error_asks_for(cli: Any) -> None:
    # 444 and the wild 7 read 13 ways under laizi-declared: the error names one to write
    # after '=', and that value is accepted (555 with the wild 7 as a 3 beats 444+3)
    rules = str(Path(__file__).parents[2] / "examples" / "laizi-declared.rules")
    args = ("solve", "--rules", rules, "--wild", "7", "--landlord", "5557", "--peasant", "3",
            "--to-move", "landlord", "--played-by", "peasant", "--on-table")
    r = cli(*args, "4447")
    assert r.exit_code == 2
    asked = r.output.rsplit("after '=' (", 1)[1].removesuffix(")\n")
    assert asked == "444*=444+3", r.output
    r = cli(*args, asked)
    assert r.exit_code == 0 and "winner: landlord (landlord, to move, wins)" in r.output, r.output


def test_a_star_in_a_hand_is_a_card_of_the_wild_rank(cli: Any) -> None:
    # 7 wild: 333* is 3337. Against 22 the landlord wins by the soft bomb 3333 (out at once)
    # or a trio (333, or 33 and the wild card), which 22 cannot answer, then the last card;
    # a single or a pair is beaten by a 2 and the peasant's other 2 goes out
    base = ("solve", "--rules", "laizi", "--peasant", "22", "--to-move", "landlord", "--all")
    for hand in ("333*", "3337"):
        r = cli(*base, "--wild", "7", "--landlord", hand)
        assert r.exit_code == 0, r.output
        assert "winning moves: 333, 33*=333, 333*=3333\n" in r.output, r.output
    r = cli(*base, "--landlord", "333*")
    assert r.exit_code == 2
    assert r.output.startswith("ddzspec: error: --landlord '333*': column 4: '*' is a card of "
                               "the drawn wild rank: name that rank first ('wild 7' in a "
                               "position file, --wild 7 on the command line)\n"), r.output
    r = cli(*base, "--wild", "7", "--landlord", "77777")  # 7 * 5 > 4 copies
    assert r.exit_code == 2 and "more copies of '7' than the deck holds (4)" in r.output
    r = cli(*base, "--wild", "7", "--landlord", "777**")
    assert r.exit_code == 2
    assert "column 5: 5 cards of the wild rank 7 (each '*' is one): the deck holds 4" \
        in r.output, r.output
