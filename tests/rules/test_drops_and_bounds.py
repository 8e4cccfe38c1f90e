"""Dropping shapes (``--without`` and ``without`` in a file: one mechanism), repeated sections,
contradictions, bounds a file writes out, and the messages naming what went wrong (findings of
the first fresh tester, items 3, 5, 6, 8 and 9)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from ddzspec.solver.position import PositionError, make_position, parse_position
from ddzspec.solver.search import solve

from ddzspec.errors import RulesError
from ddzspec.rules import load_rules, load_rules_text, resolved_text

BUILTINS = ("classic", "kawu", "duel", "duel-literal", "happy", "hebei")


def _load(text: str, tmp_path: Path, name: str = "t.rules") -> object:
    f = tmp_path / name
    f.write_text(text)
    return load_rules(str(f))


def _error(text: str, tmp_path: Path, name: str = "t.rules") -> RulesError:
    with pytest.raises(RulesError) as e:
        _load(text, tmp_path, name)
    return e.value


# --------------------------------------------------------------------------- item 3

def _subsets(names: list[str], n: int, seed: int) -> list[tuple[str, ...]]:
    """Every single shape, the tiered pair, plus ``n`` random larger subsets (never all)."""
    rng = random.Random(seed)
    out = [(x,) for x in names] + [("bomb", "rocket")]
    for _ in range(n):
        k = rng.randrange(2, len(names))
        out.append(tuple(rng.sample(names, k)))
    return out


@pytest.mark.parametrize("builtin", BUILTINS)
def test_dropped_shapes_leave_precedence_and_double_and_the_text_loads_back(builtin: str) -> None:
    r0 = load_rules(builtin)
    names = [s.name for s in r0.shapes]
    for drop in _subsets(names, 12, sum(map(ord, builtin))):
        r = r0.without_shapes(drop)
        assert {s.name for s in r.shapes} == set(names) - set(drop)
        assert not set(drop) & set(r.scoring.double)
        back = load_rules_text(resolved_text(r))
        assert replace(back, path=r.path, parents=r.parents, without=r.without) == r, drop
        # tiers stay in the order written, renumbered 1..k over the shapes left
        tiers = sorted(s.tier for s in r.shapes if s.tier)
        assert tiers == list(range(1, len(tiers) + 1))


def test_without_bomb_shown_then_checked_is_the_tester_example(tmp_path: Path) -> None:
    r = load_rules("classic", without=("bomb",))
    text = resolved_text(r)
    assert "precedence rocket > others" in text and "double rocket spring anti_spring" in text
    back = _load(text, tmp_path, "nb1.rules")
    assert [s.name for s in back.shapes if s.tier] == ["rocket"]  # type: ignore[attr-defined]


def test_a_file_may_drop_what_the_option_drops_and_both_agree(tmp_path: Path) -> None:
    for drops in (("rocket",), ("bomb",), ("bomb", "rocket")):
        text = "rules x extends classic\nshapes { " + " ".join(f"without {d}" for d in drops) \
            + " }\n"
        by_file = _load(text, tmp_path)
        by_option = load_rules("classic", without=drops)
        assert by_file.shapes == by_option.shapes  # type: ignore[attr-defined]
        assert by_file.scoring == by_option.scoring  # type: ignore[attr-defined]


def test_precedence_others_alone_means_no_tiers(tmp_path: Path) -> None:
    r = _load("rules x extends classic\nprecedence others\n", tmp_path)
    assert all(s.tier == 0 for s in r.shapes)  # type: ignore[attr-defined]


def test_a_file_naming_a_shape_it_drops_is_a_contradiction(tmp_path: Path) -> None:
    e = _error("rules x extends classic\nshapes { without bomb }\nprecedence bomb > others\n",
               tmp_path)
    assert (e.line, e.column) == (3, 12)
    assert e.message == "precedence bomb: this file drops bomb (without at 2:10)"


def test_an_unknown_without_in_a_file_lists_the_shapes(tmp_path: Path) -> None:
    e = _error("rules x extends duel\nwithout nope\n", tmp_path)
    assert (e.line, e.column) == (2, 9)
    assert e.message.startswith("without nope: no such shape (shapes: single, pair, trio,")


# --------------------------------------------------------------------------- item 6

@pytest.mark.parametrize("text, where, message", [
    ("rules x extends classic\nshapes { without pair  pair = 2 x 1 }\n", (2, 24),
     "shape pair: this file also drops it (without pair at 2:10; drop it or declare it, "
     "not both)"),
    ("rules x extends classic\nwithout pair\nshapes { pair = 2 x 1 }\n", (3, 10),
     "shape pair: this file also drops it (without pair at 2:9; drop it or declare it, "
     "not both)"),
    ("rules x extends classic\nshapes { pair = 2 x 1  without pair }\n", (2, 24),
     "without pair: this file also declares shape pair (drop it or declare it, not both)"),
    ("rules x extends classic\nshapes { }\nshapes { }\n", (3, 1),
     "section 'shapes' given twice (write all its items in one block)"),
    ("rules x extends classic\nrestrictions { }\nrestrictions { }\n", (3, 1),
     "section 'restrictions' given twice (write all its items in one block)"),
    ("rules x extends classic\nwithout pair\nwithout trio\n", (3, 1),
     "section 'without' given twice (write all its items in one block)"),
    ("rules x extends classic\ntrick { close_after 2 passes }\ntrick { close_after 2 passes }\n",
     (3, 1), "section 'trick' given twice"),
    ("rules x extends classic\nshapes { plane = 3 x 2..7 in chain }\n", (2, 22),
     "shape plane: a run of 7 needs 21 cards, more than the largest hand (20); the longest "
     "playable run is 6 (write 2..6, or 2.. for 'as long as a hand allows')"),
    ("rules x extends classic\nshapes { pair_straight = 2 x 3..12 in chain }\n", (2, 30),
     "shape pair_straight: a run of 12 needs 24 cards, more than the largest hand (20); the "
     "longest playable run is 10 (write 3..10, or 3.. for 'as long as a hand allows')"),
    ("rules x extends classic\nrestrictions { kicker_rank_max 99999999999999999999999 }\n",
     (2, 32), "999999...(23 digits): too large (a number in a rules file is at most 1000)"),
    ("rules x extends classic\nrestrictions { kicker_rank_max 9 }\n", (2, 16),
     "restriction kicker_rank_max 9: N is at most 4 (no rank has more than 4 cards; a larger "
     "N bars nothing)"),
    ("rules x extends classic\ndeal { players 4 hand 12 talon 6 undealt 0 }\n", (1, 17),
     "close_after 2 passes: with 4 players a trick closes when the 3 other(s) have passed in "
     "a row (close_after 3 passes; seeds 000/002) (in the section inherited from "
     "classic.rules:60:1; this file changes what it depends on)"),
])
def test_contradictions_repeats_and_impossible_bounds_are_located_errors(
        tmp_path: Path, text: str, where: tuple[int, int], message: str) -> None:
    e = _error(text, tmp_path)
    assert (e.line, e.column) == where
    assert e.message == message


def test_a_parent_drop_may_be_undone_by_a_child(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text("rules base extends classic\nshapes { without bomb }\n")
    r = _load('rules child extends "base"\nshapes { bomb = 4 x 1 }\n', tmp_path)
    # declared again, the shape is back where the inherited sections name it
    assert r.shape("bomb").tier == 1  # type: ignore[attr-defined]
    assert "bomb" in r.scoring.double  # type: ignore[attr-defined]


def test_builtin_check_counts_are_unchanged() -> None:
    from ddzspec.check import check_rules
    counts = {name: len(check_rules(load_rules(name))) for name in ("classic", "kawu", "duel")}
    assert counts == {"classic": 24639, "kawu": 12654, "duel": 8798}


# --------------------------------------------------------------------------- item 9

def test_extends_a_missing_file_names_the_path_it_tried(tmp_path: Path) -> None:
    e = _error('rules x extends "nofile.rules"\n', tmp_path)
    assert (e.line, e.column) == (1, 17)
    # relative to the file only (the working folder is never tried: tester 8)
    assert e.message == f"no rules file 'nofile.rules' (tried {tmp_path.resolve()}/nofile.rules)"


def test_a_quoted_extends_is_always_a_path_never_the_builtin(tmp_path: Path) -> None:
    e = _error('rules x extends "classic"\n', tmp_path)
    here = tmp_path.resolve()
    assert e.message == f"no rules file 'classic' (tried {here}/classic, {here}/classic.rules)"
    (tmp_path / "classic.rules").write_text('rules mine extends classic\nwithout bomb\n')
    r = _load('rules x extends "classic"\n', tmp_path)
    assert r.parents == ("mine", "classic")  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- items 5, 9

@pytest.mark.parametrize("text, message", [
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: landlord\nbase 0\n",
     "p.pos:5:1: base 0: must be between 1 and 10^9"),
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: landlord\nmultiplier 0\n",
     "p.pos:5:1: multiplier 0: must be between 1 and 2^40"),
    ("rules classic\nlandlord: 33\npeasant1: 44\npeasant2: 55\nto_move: peasant1\n"
     "on_table: 6 by landlord\npasses: 1\n",
     "p.pos:7:1: landlord played and peasant1 is to move: that means 0 pass(es), not 1"),
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: landlord\ntarget peasant: robs\n",
     "p.pos:5:1: target peasant: robs: classic has no robs (neither a target nor the "
     "multiplier depends on them)"),
    ("rules classic\nlandlord: 33\npeasant: 44\nto_move: landlord\nrobs 2\n",
     "p.pos:5:1: robs 2: classic has no robs (neither a target nor the multiplier depends on "
     "them)"),
])
def test_position_errors_are_located_and_robs_follow_one_rule(text: str, message: str) -> None:
    with pytest.raises(PositionError) as e:
        parse_position(text, source="p.pos")
    assert str(e.value) == message


def test_robs_by_argument_follow_the_same_rule() -> None:
    classic = load_rules("classic")
    for kwargs in ({"robs": 2}, {"targets": {"peasant": "robs"}}):
        with pytest.raises(PositionError, match="classic has no robs"):
            make_position(classic, {"landlord": "33", "peasant": "44"}, "landlord",
                          **kwargs)  # type: ignore[arg-type]
    duel = load_rules("duel")
    p = make_position(duel, {"landlord": "77", "peasant": "88"}, "landlord", robs=1,
                      targets={"peasant": "robs"})
    assert p.targets == (0, 1)


# --------------------------------------------------------------------------- item 8

def test_the_time_limit_stops_the_search_within_ten_percent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver's clock is read at solve()'s start and every 256 nodes (seed-free; issue
    8's time limit). Here it is a fake clock that advances 1 ms per reading, so the test does
    not depend on the machine's load: the search must stop at the first reading past the
    limit — at most 256 nodes after it — and say why."""
    import ddzspec.solver.search as search_module
    ticks = [0]

    def fake_clock() -> float:
        ticks[0] += 1
        return ticks[0] * 1e-3

    pos = make_position(load_rules("classic"), {"landlord": "3456789TJQKA22BR",
                                                "peasant": "33445566778899TT"}, "landlord")
    monkeypatch.setattr(search_module.time, "perf_counter", fake_clock)
    for limit in (0.005, 0.01, 0.02):
        ticks[0] = 0
        res = solve(pos, want="all", seconds=limit)
        assert res.status == "unknown" and res.reason == f"time limit {limit} s reached"
        readings = round(limit / 1e-3) + 1  # the first reading past the limit stops it
        assert 0 < res.nodes <= readings * 256, res.nodes
