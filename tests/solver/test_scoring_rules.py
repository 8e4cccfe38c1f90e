"""The solver's score under the scoring the apps use, worked by hand: a factor met before play
(a rob x3) is in the position's multiplier; a spring x3, the multiplier cap, the bombs cap and
each peasant's own factor (``pair SEAT: N``) as the game settles them (ddzspec/game/scoring.py:
each peasant settles base x its pair's multiplier, capped, with the landlord)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ddzspec.rules import load_rules, load_rules_text
from ddzspec.solver import PositionError, make_position, parse_position, solve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SPRING_X3 = load_rules(str(EXAMPLES / "spring-x3.rules"))
CAPPED = load_rules(str(EXAMPLES / "capped.rules"))
HAPPY = load_rules("happy")


def _cap8(cap: str) -> Any:
    return load_rules_text("rules cap8 extends classic\nscoring {\n base bid\n double bomb "
                           f"rocket spring anti_spring\n{cap}\n settle per_peasant\n}}\n",
                           "cap8.rules")


def test_a_spring_x3() -> None:
    # The landlord leads first (played landlord: none) with KK3 against A4 and 5: KK, no
    # peasant holds a pair, then 3 goes out before any peasant played: a spring, x3. Base 3
    # (the bid): each peasant pays 3 x 3 = 9, the landlord gets 2 x 9 = 18 (no spring: 6).
    # Leading 3 or K lets peasant1 answer A and go out with 4.
    pos = make_position(SPRING_X3, {"landlord": "KK3", "peasant1": "A4", "peasant2": "5"},
                        "landlord", base=3, landlord_plays=0)
    r = solve(pos, want="score")
    assert r.score == {"landlord": 18, "peasant1": -9, "peasant2": -9}
    assert r.best_moves == r.winning_moves == ("KK",)


def test_an_anti_spring_x3() -> None:
    # The landlord has played only its lead; peasant2 goes out with 9 over the landlord's 8:
    # an anti-spring, x3, times the multiplier so far, 2: each peasant gets 1 x 2 x 3 = 6.
    pos = make_position(SPRING_X3, {"landlord": "JQ", "peasant1": "3", "peasant2": "9"},
                        "peasant2", on_table="8", played_by="landlord", passes=1,
                        multiplier=2, landlord_plays=1, peasants_played=False)
    assert solve(pos, want="score").score == {"landlord": -12, "peasant1": 6, "peasant2": 6}


def test_a_cap_of_8_cuts_16() -> None:
    # x4 so far; the landlord leads first with the bomb 3333 (x2), nobody can answer, then 5
    # goes out before any peasant played: a spring (x2): 4 x 2 x 2 = 16, capped at 8. Each
    # peasant pays 1 x 8, the landlord gets 16; uncapped it would get 2 x 16 = 32.
    hands = {"landlord": "33335", "peasant1": "6", "peasant2": "7"}
    capped = make_position(_cap8("cap multiplier 8"), hands, "landlord", multiplier=4,
                           landlord_plays=0)
    r = solve(capped, want="score")
    assert r.score == {"landlord": 16, "peasant1": -8, "peasant2": -8}
    free = make_position(_cap8(""), hands, "landlord", multiplier=4, landlord_plays=0)
    assert solve(free, want="score").score == {"landlord": 32, "peasant1": -16,
                                               "peasant2": -16}
    # 33, 33, 5 or 333+5, 3 (no bomb, a spring: 4 x 2 = 8) reach the cap too: under it they
    # keep the score; without it only the bomb does (a single lets a peasant out)
    assert set(r.best_moves or ()) == {"3333", "33", "333+5"}
    assert solve(free, want="score").best_moves == ("3333",)


def test_the_bombs_cap() -> None:
    # capped.rules counts 3 bombs; 2 counted so far (bombs 2). The landlord plays 3333 (the
    # third: x2) and 4444 (the fourth: not counted), no spring (it has played before):
    # 1 x 2 = 2 per peasant, 4 to the landlord. With none counted before, both double: 4 each.
    hands = {"landlord": "33334444", "peasant1": "6", "peasant2": "7"}
    r = solve(make_position(CAPPED, hands, "landlord", bombs=2), want="score")
    assert r.score == {"landlord": 4, "peasant1": -2, "peasant2": -2}
    r = solve(make_position(CAPPED, hands, "landlord", bombs=0), want="score")
    assert r.score == {"landlord": 8, "peasant1": -4, "peasant2": -4}
    r = solve(make_position(CAPPED, hands, "landlord", bombs=3), want="score")
    assert r.score == {"landlord": 2, "peasant1": -1, "peasant2": -1}


def test_two_peasants_with_their_own_factors() -> None:
    # Happy: x2 so far for the table (a show), peasant1 doubled (x2), peasant2 super-doubled
    # (x4), each for its own settlement. The landlord goes out with the bomb 3333 (x2):
    # peasant1 pays 2 x 2 x 2 = 8, peasant2 2 x 4 x 2 = 16, the landlord gets 24.
    text = ("rules happy\nlandlord: 3333\npeasant1: 5\npeasant2: 6\nto_move: landlord\n"
            "multiplier 2\npair peasant1: 2\npair peasant2: 4\n")
    r = solve(parse_position(text), want="score")
    assert r.score == {"landlord": 24, "peasant1": -8, "peasant2": -16}
    # x16 so far: peasant1 16 x 2 x 2 = 64, peasant2 16 x 4 x 2 = 128, capped at 64 (happy)
    r = solve(parse_position(text.replace("multiplier 2", "multiplier 16")), want="score")
    assert r.score == {"landlord": 128, "peasant1": -64, "peasant2": -64}
    # the peasants win: peasant1 goes out with 9 over the landlord's 8, no bomb, no
    # anti-spring: peasant1 gets 2 x 2 = 4, peasant2 2 x 4 = 8, the landlord pays 12
    r = solve(parse_position("rules happy\nlandlord: KK\npeasant1: 9\npeasant2: 4\n"
                             "to_move: peasant1\non_table: 8 by landlord\nmultiplier 2\n"
                             "pair peasant1: 2\npair peasant2: 4\n"), want="score")
    assert r.score == {"landlord": -12, "peasant1": 4, "peasant2": 8}


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


def test_the_cli_scores_a_spring_x3(tmp_path: Path, cli: Any) -> None:
    pos = tmp_path / "p.pos"
    pos.write_text("landlord: KK3\npeasant1: A4\npeasant2: 5\nto_move: landlord\nbase 3\n"
                   "played landlord: none\n")
    code, out, _ = cli("solve", "--rules", str(EXAMPLES / "spring-x3.rules"), "--score",
                       str(pos))
    assert code == 0 and "score: landlord +18, peasant1 -9, peasant2 -9" in out
