"""Arenas of the computer players (``ddzspec arena``, ddzspec/players/arena.py): figures as JSON
with intervals that stay in range, clustered by duplicate deal; budgets, levels and unplayable
rules refused in one line; reproducible from their seed; the command as the library."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ddzspec.players.arena import arena, parse_levels
from ddzspec.rules import load_rules
from ddzspec.stats import estimate


# found by tester 2
def test_arena_intervals_are_json_and_stay_within_their_range(cli: Any) -> None:
    """One deal gives no spread: null, not Infinity (invalid JSON); a win rate's interval
    stays within 0 … 1 (it went to 132 %)."""
    from ddzspec.stats import RATE, estimate
    code, out, _ = cli("arena", "--levels", "1,2", "--games", "1", "--json")
    assert code == 0
    res = json.loads(out, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
    assert all(r["points"]["low"] is None for r in res["by_level_role"] if r["points"]["n"] == 1)
    # Wilson (tester 3): z²/n = 1.2805, centre (2/3 + 0.64025)/2.2805 = 0.57309, half
    # 0.85944·√(0.074074 + 0.106708) = 0.36542
    e = estimate([1.0, 1.0, 0.0], RATE)
    assert (round(e.mean, 3), round(e.low, 3), round(e.high, 3)) == (0.667, 0.208, 0.939)


# found by tester 2
@pytest.mark.parametrize("budget", ["nan", "inf", "1e308", "0"])
def test_arena_budget_must_be_a_finite_number_of_seconds(budget: str, cli: Any) -> None:
    code, out, err = cli("arena", "--levels", "3,1", "--games", "1", "--budget", budget)
    assert code == 2 and out == "" and err.startswith("ddzspec: error: arena: Invalid value for "
                                                      "'--budget'") and len(err.splitlines()) == 1


# found by tester 3
def test_rates_get_the_wilson_interval_never_a_zero_width() -> None:
    """Hand-worked: z = 1.95996, z²/n = 0.12805 for n = 30. 0 of 30: centre 0.0640/1.12805 =
    0.05675, half 1.73745·√(z²/4n²) = 0.05676 → [0, 11.35 %]. 27 of 30: centre 0.96403/1.12805
    = 0.85460, half 1.73745·√(0.003 + 0.0010671) = 0.11080 → [74.38 %, 96.54 %]."""
    from ddzspec.stats import RATE, estimate, wilson
    e = estimate([0.0] * 30, RATE)
    assert e.mean == 0 and e.low == 0 and e.high == pytest.approx(0.11351, abs=5e-5)
    e = estimate([1.0] * 27 + [0.0] * 3, RATE)
    assert (e.low, e.high) == pytest.approx((0.74380, 0.96540), abs=5e-5)
    assert wilson(1.0, 30) == pytest.approx((1 - 0.11351, 1.0), abs=5e-5)  # symmetric
    assert e.significant and "[0.0, 0.0]" not in str(estimate([0.0] * 5, RATE))


# found by tester 3
def test_arena_level_role_figures_are_clustered_by_duplicate_deal() -> None:
    """Two seats, levels (2, 1), two duplicate deals of two rotations. Deal A: level 2 is
    landlord once (won, +4) and peasant once (won, +2). Deal B: level 2 is landlord in both
    rotations (won +2, lost −4): one value for the deal, win 0.5, points −1. So level 2 as
    landlord: n = 2 deals (not 3 seat-deals), win rate (1 + 0.5)/2, points (4 − 1)/2."""
    from ddzspec.players.arena import SeatDeal, summarize
    from ddzspec.stats import RATE, estimate, wilson
    a = [SeatDeal(2, "landlord", True, 4, True), SeatDeal(1, "peasant", False, -4, True),
         SeatDeal(1, "landlord", False, -2, False), SeatDeal(2, "peasant", True, 2, False)]
    b = [SeatDeal(2, "landlord", True, 2, True), SeatDeal(1, "peasant", False, -2, True),
         SeatDeal(1, "peasant", True, 4, False), SeatDeal(2, "landlord", False, -4, False)]
    res = summarize("duel", (2, 1), 2, 0, a + b, 0.0)
    rows = {(r.level, r.role): r for r in res.rows}
    ll2 = rows[2, "landlord"]
    assert ll2.wins.n == ll2.points.n == 2
    assert ll2.wins.mean == 0.75 and (ll2.wins.low, ll2.wins.high) == wilson(0.75, 2)
    assert ll2.points == estimate([4.0, -1.0])
    assert rows[2, "peasant"].wins.n == 1 and rows[1, "peasant"].points.mean == (-4 + 1) / 2
    assert rows[1, "landlord"].wins == estimate([0.0], RATE)
    assert "level 2 as landlord (     2 deals)" in "\n".join(res.lines())


# found by tester 8
def test_arena_refuses_unplayable_rules_in_the_words_of_play(cli: Any) -> None:
    _, _, want = cli("play", "--rules", "duel-literal")
    assert want.startswith("ddzspec: error: duel-literal: these rules cannot be played out: ")
    code, out, err = cli("arena", "--rules", "duel-literal", "--levels", "1,2", "--games", "2",
                         "--workers", "2")
    # was "task deal 00000001 failed: UnplayableRulesError: duel-literal: …" (from a worker)
    assert (code, out, err) == (2, "", want)


def test_small_arena_is_reproducible_from_its_seed() -> None:
    rules = load_rules("duel")
    a = arena(rules, (2, 1), 3, seed=11).to_json()
    b = arena(rules, (2, 1), 3, seed=11).to_json()
    a.pop("seconds")
    b.pop("seconds")
    assert a == b
    assert a["deals_played"] == 6
    rows = {(r["level"], r["role"]): r["points"]["n"] for r in a["by_level_role"]}
    # n counts duplicate deals (clustered): each level holds a role in each of the 3 deals
    for lv in (1, 2):
        assert all(rows.get((lv, role), 0) <= 3 for role in ("landlord", "peasant"))
        assert 3 <= rows.get((lv, "landlord"), 0) + rows.get((lv, "peasant"), 0) <= 6
    c = arena(rules, (2, 1), 3, seed=12).to_json()
    c.pop("seconds")
    assert c != a


def test_estimate_and_levels_parsing() -> None:
    e = estimate([1.0, 0.0, 1.0, 0.0])
    assert e.mean == 0.5
    # sample sd = sqrt(1/3); half = 1.96 * sqrt(1/3 / 4)
    assert abs(e.half - 1.959963984540054 * (1 / 12) ** 0.5) < 1e-12
    assert parse_levels("3,2", 3) == (3, 2, 2)
    assert parse_levels("1", 2) == (1, 1)
    with pytest.raises(ValueError, match="3 levels for 2 seats"):
        parse_levels("1,2,3", 2)
    with pytest.raises(ValueError, match="'x' is not a level"):
        parse_levels("2,x", 3)


def test_arena_command_json_matches_the_library(cli: Any) -> None:
    import json
    code, out, _ = cli("arena", "--rules", "duel", "--levels", "2,1", "--games", "2",
                        "--seed", "3", "--json")
    assert code == 0
    got = json.loads(out)
    want = arena(load_rules("duel"), (2, 1), 2, seed=3).to_json()
    got.pop("seconds")
    want.pop("seconds")
    assert got == want


def test_arena_and_play_refuse_bad_levels(cli: Any) -> None:
    code, _, err = cli("arena", "--levels", "2,5", "--games", "1")
    assert code == 2 and "'5' is not a level" in err
    code, _, err = cli("play", "--rules", "duel", "--levels", "1,2,3")
    assert code == 2 and "3 levels for 2 seats" in err


def test_paired_difference_by_deal_hand_worked() -> None:
    """Duplicate deals are compared deal by deal: the per-deal difference of the
    levels' mean results in a role, then the mean and interval of those differences."""
    from ddzspec.players.arena import SeatDeal, paired_difference
    deal1 = [SeatDeal(3, "landlord", True, 6, True), SeatDeal(2, "peasant", False, -3, True),
             SeatDeal(2, "peasant", False, -3, True),
             SeatDeal(2, "landlord", True, 6, True), SeatDeal(3, "peasant", False, -3, True),
             SeatDeal(2, "peasant", False, -3, True),
             SeatDeal(2, "landlord", False, -12, False), SeatDeal(2, "peasant", True, 6, False),
             SeatDeal(3, "peasant", True, 6, False)]
    # level 3 as landlord: 6; level 2 as landlord: (6 - 12) / 2 = -3; difference 9
    deal2 = [SeatDeal(3, "peasant", True, 2, False), SeatDeal(2, "landlord", False, -4, False),
             SeatDeal(2, "peasant", True, 2, False)] * 3  # level 3 never landlord: left out
    e = paired_difference([deal1, deal2], 3, 2, "landlord", "points")
    assert (e.n, e.mean) == (1, 9.0)
    w = paired_difference([deal1, deal1], 3, 2, "landlord", "won", (-1.0, 1.0))
    assert (w.n, w.mean, w.half) == (2, 0.5, 0.0)
    # peasants, deal 1: level 3 (-3 + 6) / 2 = 1.5, level 2 (-3 - 3 - 3 + 6) / 4 = -0.75;
    # deal 2: level 3 2, level 2 2 -> differences 2.25 and 0
    p = paired_difference([deal1, deal2], 3, 2, "peasant", "points")
    assert p.n == 2 and p.mean == 1.125
    assert abs(p.half - 1.959963984540054 * (2.25 / 2 ** 0.5) / 2 ** 0.5) < 1e-12


def test_sign_test_hand_worked() -> None:
    """The sign test counts deals by the sign of the paired points difference (ties left
    out): p = 2 · P(X ≤ k) for X ~ Binomial(n, 1/2)."""
    from ddzspec.players.arena import SeatDeal, sign_test

    def deal(hi: int, lo: int) -> list[SeatDeal]:  # level 3 and level 2 as landlord once
        return [SeatDeal(3, "landlord", hi > 0, hi, hi > 0),
                SeatDeal(2, "landlord", lo > 0, lo, lo > 0)]
    deals = [deal(2, -2)] * 9 + [deal(-2, 2)] + [deal(2, 2)] * 3  # 9 better, 1 worse, 3 ties
    t = sign_test(deals, 3, 2, "landlord")
    # 2 · (C(10, 0) + C(10, 1)) / 2^10 = 2 · 11 / 1024
    assert (t.better, t.worse) == (9, 1) and t.p == 22 / 1024
    even = sign_test([deal(2, -2), deal(-2, 2)], 3, 2, "landlord")
    assert (even.better, even.worse, even.p) == (1, 1, 1.0)  # 2 · 3/4, capped at 1
    assert sign_test([], 3, 2, "landlord").p == 1.0
