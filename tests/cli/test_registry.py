"""The command registry, the exit codes, the shared validators, and the options each command
takes (only those it uses)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest

from ddzspec.cli.common import finite_seconds, read_text
from ddzspec.cli.exits import ExitCode
from ddzspec.cli.group import COMMANDS, main
from ddzspec.rules.merge import builtin_rules


def test_every_registered_command_loads_under_its_name() -> None:
    ctx = click.Context(main)
    for c in COMMANDS:
        command = c.load()
        assert isinstance(command, click.Command), c
        assert main.get_command(ctx, c.name) is command
        assert c.summary and "\n" not in c.summary


def test_every_command_is_in_exactly_one_topic() -> None:
    names = [c.name for c in COMMANDS]
    assert len(names) == len(set(names))
    assert {c.topic for c in COMMANDS} == {"Moves", "Variants", "Game", "Endgames", "Table"}
    # the records of a topic are together, in the order the help lists them
    topics = [c.topic for c in COMMANDS]
    assert topics == sorted(topics, key=topics.index)


def test_help_lists_every_command_under_its_topic_without_loading_any() -> None:
    code = ("import sys; from click.testing import CliRunner; from ddzspec.cli.group import main; "
            "out = CliRunner().invoke(main, ['--help']).output; print(repr(out)); "
            "print(sorted(m for m in sys.modules if m.startswith('ddzspec.cli')))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    shown, loaded = p.stdout.splitlines()
    assert loaded == "['ddzspec.cli', 'ddzspec.cli.common', 'ddzspec.cli.exits', " \
                     "'ddzspec.cli.group']"
    text: str = eval(shown)
    for c in COMMANDS:
        section = text.split(f"{c.topic} commands:")[1].split("commands:", maxsplit=1)[0]
        assert f"  {c.name} " in section, (c.name, text)


def test_the_exit_codes() -> None:
    assert {e.name: int(e) for e in ExitCode} == {
        "DONE": 0, "FINDING": 1, "BAD_INPUT": 2, "UNKNOWN": 3, "OUTPUT_FAILED": 74,
        "INTERRUPTED": 130, "CLOSED_PIPE": 141}


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_a_number_of_seconds_is_finite(value: float) -> None:
    with pytest.raises(click.BadParameter, match="is not a number of seconds"):
        finite_seconds(None, None, value)
    assert finite_seconds(None, None, 0.5) == 0.5
    assert finite_seconds(None, None, None) is None


@pytest.mark.parametrize("args", [["arena", "--levels", "1,2", "--budget", "nan"],
                                  ["balance", "classic", "--budget", "nan"],
                                  ["solve", "--landlord", "3", "--peasant", "4", "--to-move",
                                   "landlord", "--limit-seconds", "nan"],
                                  ["puzzles", "play", "x", "--seconds", "nan"],
                                  ["puzzles", "check", "-", "--limit-seconds", "nan"]])
def test_every_seconds_option_refuses_nan_alike(args: list[str], cli: Any) -> None:
    code, _, err = cli(*args)
    assert code == 2 and "nan is not a number of seconds" in err, err


def test_reading_a_text_file_says_the_same_everywhere(tmp_path: Path, cli: Any) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok\n\xff\n")
    gone = str(tmp_path / "gone.txt")
    for args in (["diff", "classic", "kawu", "--moves"], ["solve"], ["puzzles", "check"],
                 ["solve", "--batch"]):
        code, _, err = cli(*args, gone)
        assert code == 2 and f"{gone}: cannot read: No such file or directory" in err, err
        code, _, err = cli(*args, str(bad))
        assert code == 2 and f"{bad}: not a UTF-8 text file (byte 3)" in err, err


def test_read_text_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        read_text(str(tmp_path / "none"))
    assert exc.value.code == ExitCode.BAD_INPUT
    assert capsys.readouterr().err == (
        f"ddzspec: error: {tmp_path / 'none'}: cannot read: No such file or directory\n")


def test_arena_takes_no_notation(cli: Any) -> None:
    code, _, err = cli("arena", "--levels", "1,2", "--notation", "fr")
    assert code == 2 and "arena: No such option '--notation'" in err, err
    code, out, _ = cli("arena", "--help")
    assert "--notation" not in out and "--rules" in out and "--json" in out


def test_help_names_every_built_in_rules_file() -> None:
    # the top-level help lists the built-ins as text (it loads nothing); it must not fall behind
    text = " ".join((main.help or "").split())
    listed = re.search(r"built in: ([^)]*)\)", text)
    assert listed is not None
    assert sorted(listed.group(1).split(", ")) == builtin_rules()
