"""The CLI: read, beats, explain, check; exit codes and JSON shapes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


def test_read_lines(cli: Any) -> None:
    code, out, _ = cli("read", "444455", "44445555", "3 3 3 4 4 4 + 5 7")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["4444+55", "four_two_singles"]
    assert lines[1].split()[:2] == ["44445555", "illegal"]
    assert lines[2].split()[:2] == ["333444+57", "plane_singles"]


def test_read_json_shape(cli: Any) -> None:
    code, out, _ = cli("read", "--json", "KKK+3", "33334")
    assert code == 0
    a, b = json.loads(out)
    assert a == {"cards": "KKK+3", "legal": True, "type": "trio_single", "body": "KKK",
                 "kickers": "3", "key": 10, "reason": None}
    assert b["legal"] is False and b["type"] is None and b["body"] is None
    assert "matches no combination" in b["reason"]


def test_read_french_notation(cli: Any) -> None:
    _, out, _ = cli("read", "--json", "--notation", "fr", "DDD+grand joker")
    assert json.loads(out)[0]["cards"] == "DDD+GJ"


def test_notation_error_exits_2_with_located_message(cli: Any) -> None:
    code, out, err = cli("read", "33X")
    assert code == 2
    assert "column 3: unknown symbol 'X'" in err and "Traceback" not in err + out


def test_too_many_copies_exit_2(cli: Any) -> None:
    code, _, err = cli("read", "22222")
    assert code == 2 and "more copies of '2'" in err


def test_beats_yes_no_and_json(cli: Any) -> None:
    code, out, _ = cli("beats", "KKK+3", "QQQ+R")
    assert code == 0 and out.startswith("yes:")
    code, out, _ = cli("beats", "--json", "34567", "33344")
    assert json.loads(out)["beats"] is False
    assert "different types" in json.loads(out)["reason"]
    code, out, _ = cli("beats", "--json", "--notation", "fr", "RRR+3", "DDD+grand joker")
    assert json.loads(out)["beats"] is True


def test_beats_with_an_illegal_move_says_so(cli: Any) -> None:
    code, out, _ = cli("beats", "44445555", "33")
    assert code == 0 and out.startswith("no:") and "not a legal move" in out
    # an illegal PREVIOUS cannot have been played: an input error
    code, _, err = cli("beats", "3", "44445555")
    assert code == 2 and "PREVIOUS 44445555 is not a legal move" in err


def test_read_reports_which_argument_is_bad_and_reads_the_others(cli: Any) -> None:
    code, out, err = cli("read", "--notation", "fr", "VVV", "JJJ", "444455")
    assert code == 2
    assert [line.split()[0] for line in out.splitlines()] == ["VVV", "4444+55"]
    assert "move 2 ('JJJ'): column 1: unknown symbol 'J' in French notation" in err


def test_json_kickers_keep_the_units(cli: Any) -> None:
    _, out, _ = cli("read", "--json", "444455", "333444+55", "33344455+66")
    a, b, c = json.loads(out)
    assert a["kickers"] == "5+5" and b["kickers"] == "5+5"
    assert c["type"] == "plane_pairs" and c["kickers"] == "55+66"


def test_without_is_named_in_the_output(cli: Any) -> None:
    _, out, _ = cli("explain", "--without", "four_two_singles", "444455")
    assert "under classic without four_two_singles: illegal" in out
    assert "Under classic it would be four_two_singles 4444+5+5." in out
    _, out, _ = cli("check", "--without", "trio_pair", "--json")
    d = json.loads(out)
    assert d["without"] == ["trio_pair"] and "trio_pair" not in d["by_type"]
    assert d["moves"] == 24639 - 156


def test_explain_text(cli: Any) -> None:
    code, out, _ = cli("explain", "44445555")
    assert code == 0
    assert "illegal" in out and "four_two_pairs 4444+55+55: ruled out by quad_block" in out
    assert "plane_singles 444555+4+5: ruled out by quad_block, kicker_not_body_rank" in out


def test_check_classic_json(cli: Any) -> None:
    code, out, _ = cli("check", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["moves"] == 24639 and d["ambiguous"] == [] and d["by_type"]["bomb"] == 13


def test_check_human_output(cli: Any) -> None:
    code, out, _ = cli("check")
    assert code == 0 and "24639" in out and "exactly one reading" in out


def test_unknown_rules_name(cli: Any) -> None:
    code, _, err = cli("check", "--rules", "nope")
    assert code == 2 and "no rules file 'nope'" in err and "classic" in err


def test_python_dash_m() -> None:
    out = subprocess.run([sys.executable, "-m", "ddzspec", "read", "BR"], capture_output=True,
                         text=True, check=True).stdout
    assert "rocket" in out


def test_help_lists_what_every_command_is_for(cli: Any) -> None:
    code, out, _ = cli("--help")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")
             and len(line.split()) > 2}
    for name in ("read", "beats", "explain", "moves", "check", "diff", "play", "replay",
                 "solve"):
        assert name in lines and len(lines[name].split()) >= 5, (name, out)
    assert "74 the output could not be" in out and "3 unknown" in out


def test_command_modules_do_not_import_the_cli() -> None:
    # no cycle: the command modules import cli.common, and ddzspec.cli.group imports them lazily
    code = ("import sys, ddzspec.cli.game, ddzspec.cli.variants, ddzspec.solver.cli; "
            "print('ddzspec.cli.group' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out[0] == "False"
    code = ("import sys, ddzspec.cli.group; "
            "print(sorted(m for m in sys.modules if m.startswith('ddzspec.cli')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["['ddzspec.cli', 'ddzspec.cli.common', 'ddzspec.cli.exits', "
                   "'ddzspec.cli.group']"]


def test_a_full_device_gives_one_line_and_exit_74(tmp_path: Path) -> None:
    # stdout on /dev/full: buffered output fails at the final flush, large output while writing
    for args in (["read", "33"], ["read", *["3456789TJQKA"] * 400]):
        with open("/dev/full", "w") as full:
            p = subprocess.run([sys.executable, "-m", "ddzspec", *args], stdout=full,
                               stderr=subprocess.PIPE, text=True, check=False)
        assert p.returncode == 74, (args, p.stderr)
        assert p.stderr == ("ddzspec: error: cannot write to standard output: No space left "
                            "on device\n"), p.stderr


def test_an_oserror_escaping_a_command_is_one_line_naming_the_file(
        capsys: pytest.CaptureFixture[str]) -> None:
    # (not tried with --save /dev/full: an atomic save renames a temporary file over its target)
    import errno

    import click

    from ddzspec.cli.exits import ExitCode
    from ddzspec.cli.group import _Main

    @click.command()
    def write() -> None:
        raise OSError(errno.ENOSPC, "No space left on device", "out/rec.json")

    group = _Main(commands={"write": write})
    with pytest.raises(SystemExit) as exc:
        group.main(["write"], prog_name="ddzspec")
    assert exc.value.code == ExitCode.OUTPUT_FAILED == 74
    assert capsys.readouterr().err == "ddzspec: error: out/rec.json: No space left on device\n"


ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_examples_ship_in_examples(monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err = cli("check", "examples/broken.rules")
    assert code == 2 and err == ("ddzspec: error: examples/broken.rules:3:20: shape straight: "
                                 "run bound 12 is longer than group chain (10 ranks)\n")
    code, out, _ = cli("replay", "examples/bad.json")
    assert code == 1 and out.splitlines()[-1] == (
        'invalid action 4: {"seat": 1, "play": "AA"}: seat 1 does not hold these cards: '
        "it needs 2 x A (holds 0) (hand 7889JQ222B)")
    # the house file drops two shapes from classic: its moves are classic's minus theirs
    _, out, _ = cli("check", "--json")
    classic = json.loads(out)
    code, out, _ = cli("check", "examples/house.rules", "--json")
    house = json.loads(out)
    assert code == 0 and house["by_type"] == {
        k: v for k, v in classic["by_type"].items() if k not in ("trio_pair", "four_two_pairs")}
    assert house["moves"] == (classic["moves"] - classic["by_type"]["trio_pair"]
                              - classic["by_type"]["four_two_pairs"])
    # the README's nokick example (tester 6: it showed another file's output)
    code, out, _ = cli("check", "examples/nokick.rules", "--json")
    assert code == 0 and json.loads(out)["moves"] == 10_724
    code, out, _ = cli("rules", "show", "examples/nokick.rules")
    assert code == 0 and "    kicker_not_in 2 B R\n}" in out
    code, out, _ = cli("solve", "examples/bomb.pos", "--score", "--all", "--json")
    res = json.loads(out)
    assert code == 0 and res["winner"] == "peasants" and res["best_moves"] == ["K", "KK", "8888"]
    assert res["score"] == {"landlord": -8, "peasant1": 4, "peasant2": 4}
    code, out, _ = cli("solve", "--batch", "examples/puzzles.jsonl", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [r["status"] for r in rows] == ["solved"] * 3
    assert [r.get("expected_agrees") for r in rows] == [True, True, None]


# found by a fresh tester
def test_beats_names_the_empty_argument(cli: Any) -> None:
    code, _, err = cli("beats", "3", "")
    assert code == 2 and "PREVIOUS: no cards given" in err


# found by tester 1
@pytest.mark.parametrize("args,error", [
    (("play", "--seed", "1", "--save", ""),
     "play: Invalid value for '--save': an empty file name (see 'ddzspec play --help')"),
    (("replay", ""),
     "replay: Invalid value for 'FILE': an empty file name (see 'ddzspec replay --help')"),
    (("check", ""), "<rules>: empty rules name (give a built-in name or a path)"),
    (("check", "classic", "--rules", "kawu"),
     "the rules are given twice: RULES 'classic' and --rules; give one"),
    (("moves", "33", "--beat", "33334"),
     "--beat: 33334: illegal: matches no combination of classic (5 cards)"),
    (("rules", "show"),
     "rules show: Missing argument 'FILE_OR_NAME' (see 'ddzspec rules show --help')"),
    (("nosuch",), "No such command 'nosuch' (see 'ddzspec --help')"),
    (("play", "--games", "0"), "play: Invalid value for '--games': 0 is not in the range "
                               "x>=1 (see 'ddzspec play --help')"),
    (("play", "--bogus"), "play: No such option '--bogus' (see 'ddzspec play --help')"),
])
def test_bad_command_lines_are_one_line_errors(args: tuple[str, ...], error: str, cli: Any) -> None:
    """Tester 1 §5/§9: an empty --save, check "" and check RULES --rules were accepted (exit
    0); replay "" read the working folder; --beat was not named; click's usage errors took
    3-4 lines. Each is now one line, exit 2, nothing on standard output."""
    code, out, err = cli(*args)
    assert (code, out, err) == (2, "", f"ddzspec: error: {error}\n")


# found by tester 1
def test_no_arguments_still_shows_the_help(cli: Any) -> None:
    res = cli()
    assert res.exit_code == 2 and "Moves commands:" in res.output
    assert res.output.startswith("Usage: ") and "ddzspec: error" not in res.output
