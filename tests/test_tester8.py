"""Regressions found by the eighth fresh tester (kept as tests)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzspec.cli import main


def run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, list(args), input=input)
    return res.exit_code, res.stdout, res.stderr


@pytest.mark.parametrize("terminal,error", [
    ({"seat": 0, "levels": []}, '"terminal" "levels" holds 0 level(s), not one per seat (3)'),
    ({"seat": 0, "levels": [2]}, '"terminal" "levels" holds 1 level(s), not one per seat (3)'),
    ({"seat": 0, "levels": [2, 2, 2, 2]},
     '"terminal" "levels" holds 4 level(s), not one per seat (3)'),
    ({"seat": 9, "levels": [2, 2, 2]},
     '"terminal" "seat" is 9, not a seat of the record\'s rules (0 to 2)'),
])
def test_resume_refuses_a_terminal_field_that_does_not_fit_the_variant(
        tmp_path: Path, terminal: dict[str, object], error: str) -> None:
    f = tmp_path / "g.json"
    code, _, err = run("play", "--seat", "0", "--seed", "5", "--save", str(f), input="quit\n")
    assert code == 0, err
    obj = json.loads(f.read_text())
    obj["terminal"] = terminal
    f.write_text(json.dumps(obj))
    before = f.read_bytes()
    # before: an IndexError traceback once a computer seat had to move (or "--seat: 9 is not
    # a seat", naming an option that was never given)
    code, out, err = run("play", "--resume", str(f), input="pass\npass\nquit\n")
    assert (code, out) == (2, "")
    assert err == f"ddzspec: error: {f}: {error}: the record was altered\n"
    assert f.read_bytes() == before
