"""The solver under scoring the apps use: a factor met before play (a rob ×3) is in the
position's multiplier; the score search refuses what it cannot value (factors other than 2 on
plays, springs and anti-springs; the caps), with a located message and exit 2, while the
winner is searched as ever."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ddzspec.rules import load_rules, load_rules_text
from ddzspec.solver import PositionError, make_position, solve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HANDS = {"landlord": "35", "peasant1": "8888KK", "peasant2": "6"}


@pytest.mark.parametrize("name, words", [
    ("spring-x3", "not spring x3, anti_spring x3"),
    ("capped", "does not apply cap multiplier or cap bombs"),
])
def test_the_score_is_refused_the_winner_is_not(name: str, words: str) -> None:
    rules = load_rules(str(EXAMPLES / f"{name}.rules"))
    pos = make_position(rules, HANDS, "peasant1")
    assert solve(pos).winner == "peasants"
    with pytest.raises(PositionError, match=words):
        solve(pos, want="score")


def test_a_rob_factor_of_3_makes_the_multiplier_so_far() -> None:
    """``factor rob 3``: two robs make 3 × 3 = 9; a multiplier given must be a multiple."""
    duel3 = load_rules_text("rules d3 extends duel\nscoring {\n base 1\n double bomb rocket "
                            "spring anti_spring\n factor rob 3\n settle per_peasant\n}\n",
                            "d3.rules")
    hands = {"landlord": "78JQ", "peasant": "567T2"}
    p = make_position(duel3, hands, "landlord", robs=2)
    assert p.multiplier == 9
    assert solve(p, want="score").score == {"landlord": -9, "peasant": 9}
    with pytest.raises(PositionError, match="a multiple of 9"):
        make_position(duel3, hands, "landlord", robs=2, multiplier=4)


def test_the_cli_says_why_and_exits_2(tmp_path: Path, cli: Any) -> None:
    pos = tmp_path / "p.pos"
    pos.write_text("landlord: 35\npeasant1: 8888KK\npeasant2: 6\nto_move: peasant1\n")
    code, _, err = cli("solve", "--rules", str(EXAMPLES / "spring-x3.rules"), "--score",
                       str(pos))
    assert code == 2 and "the score search values only doubling plays" in err
