"""Regressions found by the ninth fresh tester (kept as tests): quoted cards with a control
character or a bad escape, a position file's own rules or notation beside options that would
be ignored, scores past 2^53, pool workers left behind by a killed parent, and the validation
of limits and position flags. (The compiled core's Ctrl-C and threads: test_solver_compiled.)"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ddzspec.rules import load_rules
from ddzspec.solver import Limit, PositionError, make_position, parse_position, solve

CLASSIC = load_rules("classic")


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


def test_a_bad_escape_in_a_quoted_rules_name_is_located() -> None:
    with pytest.raises(PositionError, match="a bad escape") as e:
        parse_position('rules "cla\\ssic"\nlandlord: 3\npeasant: 4\nto_move: landlord\n')
    assert (e.value.line, e.value.column) == (1, 11)


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


def test_a_score_past_2_53_is_exact() -> None:
    base, multiplier = 999_999_999, 1_099_511_627_775
    pos = make_position(CLASSIC, {"landlord": "35", "peasant": "44"}, "landlord",
                        base=base, multiplier=multiplier)
    res = solve(pos, want="score")
    # the landlord leads 5 (the peasant cannot beat it), then 3: a plain win, 1 stake; before,
    # the points went through a float: 1099511626675488423936
    assert res.score is not None
    assert dict(res.score) == {"landlord": base * multiplier, "peasant": -base * multiplier}


_ORPHAN = """
import os, sys, time
from ddzspec.execute import _exit_with_parent
parent = os.getpid()
child = os.fork()
if child == 0:
    _exit_with_parent(0.1, parent)
    time.sleep(30)
    os._exit(0)
print(child, flush=True)
os._exit(0)  # the parent dies at once, as a killed one does
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads Linux's /proc")
def test_a_pool_worker_ends_when_its_parent_dies() -> None:
    """Before: a parent killed by SIGKILL or SIGTERM left its two workers (145 MiB each) and
    the resource tracker alive for good. Each worker now watches its parent."""
    out = subprocess.run([sys.executable, "-c", _ORPHAN], capture_output=True, text=True,
                         check=True, timeout=60)
    child = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


@pytest.mark.parametrize("kwargs,kind", [
    ({"nodes": 2.5}, TypeError), ({"nodes": True}, TypeError),
    ({"entries": 2.5}, TypeError), ({"entries": 2 ** 63}, ValueError),
    ({"entries": 1}, ValueError), ({"seconds": True}, TypeError),
    ({"seconds": "1"}, TypeError), ({"nodes": -1}, ValueError),
])
def test_bad_limits_are_refused_alike_in_both_cores(kwargs: dict[str, object],
                                                      kind: type[Exception]) -> None:
    with pytest.raises(kind):
        Limit(**kwargs)  # type: ignore[arg-type]


def test_solve_refuses_a_limit_of_the_wrong_kind() -> None:
    pos = make_position(CLASSIC, {"landlord": "35", "peasant": "44"}, "landlord")
    for bad in (2.5, True, "10"):
        with pytest.raises(TypeError, match="limit must be a Limit"):
            solve(pos, limit=bad)  # type: ignore[arg-type]
    assert solve(pos, limit=1000).status == "solved"


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
