"""One truth for check, play and solve: rules that `ddzspec check` flags are
refused by legal moves, the game, the solver and the CLI, with one located message — never a
traceback, never a wrong answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ddzspec.check import check_rules, report_path, require_playable
from ddzspec.errors import AmbiguousReadingError, GameError, UnplayableRulesError
from ddzspec.game import GameState
from ddzspec.moves import legal_moves
from ddzspec.rules import Rules, load_rules
from ddzspec.solver import make_position, solve

LONE = 'rules lone extends classic\nshapes { lone = 1 x 1 }\n'
TYPO = 'rules typo extends classic\nshapes { pair = 1 x 1 }\n'
NO_LONE = 'rules nolone extends classic\nshapes { single = 1 x 1 in chain }\n'
ALL_OFF = ('rules alloff extends classic\nrestrictions { quad_block off  kicker_not_body_rank off'
           '  kicker_rank_max off  jokers_not_both_kickers off }\n')


def _rules(tmp_path: Path, text: str) -> tuple[Path, Rules]:
    name = text.split()[1]
    f = tmp_path / f"{name}.rules"
    f.write_text(text)
    return f, load_rules(str(f))


@pytest.mark.parametrize("text", [LONE, TYPO])
def test_ambiguous_lone_cards_are_refused_everywhere(tmp_path: Path, text: str) -> None:
    f, rules = _rules(tmp_path, text)
    with pytest.raises(AmbiguousReadingError) as e:
        legal_moves("3", rules=rules)
    assert e.value.cards == "3" and len(e.value.readings) == 2
    assert str(f) in str(e.value) and "ddzspec check --rules" in str(e.value)
    for build in (lambda: GameState.new(rules, seed=1),
                  lambda: make_position(rules, {"landlord": "3", "peasant": "4"}, "landlord")):
        with pytest.raises(UnplayableRulesError) as u:
            build()
        msg = str(u.value)
        assert msg.startswith(f"{f}: these rules cannot be played out: 15 moves have several "
                              "readings (every legal move must have exactly one), e.g. 3: ")
        assert f"run `ddzspec check --rules {f}`" in msg


def test_play_and_solve_refuse_with_exit_2(tmp_path: Path, cli: Any) -> None:
    """Before: `play` crashed with IndexError, `solve` said the landlord (3 v 4) loses."""
    f, _ = _rules(tmp_path, LONE)
    for args in (["play", "--rules", str(f), "--seed", "1"],
                 ["solve", "--rules", str(f), "--landlord", "3", "--peasant", "4",
                  "--to-move", "landlord"],
                 ["moves", "--rules", str(f), "345"]):
        res = cli(*args)
        assert res.exit_code == 2, (args, res.output)
        assert res.exception is None or isinstance(res.exception, SystemExit)
        assert "several readings" in res.output and "ddzspec check --rules" in res.output
        assert "Traceback" not in res.output


def test_no_lone_card_is_refused_statically(tmp_path: Path) -> None:
    _f, rules = _rules(tmp_path, NO_LONE)
    assert not rules.lone_cards_playable
    for call in (lambda: legal_moves("34567", rules=rules), lambda: require_playable(rules),
                 lambda: GameState.new(rules, seed=3)):
        with pytest.raises(UnplayableRulesError, match=r"no shape plays a lone card of rank "
                                                       r"2, B, R \(a lone 2 has no reading\)"):
            call()
    assert not report_path(rules).exists()  # static: nothing was compiled


def test_a_last_play_only_single_is_refused_in_one_line(tmp_path: Path, cli: Any) -> None:
    """``single = 1 x 1 last_play`` ended check, play, balance and serve in an IndexError
    traceback: the static check counted the last-play-only single as covering every rank,
    while the rules said no rank could be led (found by a tester)."""
    _f, rules = _rules(tmp_path, 'rules lp "x" extends classic\n'
                                 "shapes { single = 1 x 1 last_play }\n")
    assert rules.lone_card_gaps() == tuple(range(15)) and not rules.lone_cards_playable
    said = ("no shape plays a lone card of rank 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A, 2, B, R "
            "(a lone 3 is legal only as a hand's last play), so a leader holding only such "
            "cards could not play")
    with pytest.raises(UnplayableRulesError) as e:
        require_playable(rules)
    assert e.value.problems == (said,)
    code, _out, err = cli("play", "--rules", str(_f))
    assert code == 2 and said in err and err.count("\n") == 1


def test_all_restrictions_off_is_refused(tmp_path: Path) -> None:
    """`check` reports 1,552 ambiguous moves in classic without restrictions: the game and the
    solver refuse these rules instead of dropping the moves silently."""
    _f, rules = _rules(tmp_path, ALL_OFF)
    assert len(check_rules(rules).ambiguous) == 1552
    with pytest.raises(UnplayableRulesError, match="1552 moves have several readings"):
        GameState.new(rules, seed=0)
    pos = make_position(load_rules("classic"), {"landlord": "3", "peasant": "4"}, "landlord")
    with pytest.raises(UnplayableRulesError):
        solve(type(pos)(**{**{s: getattr(pos, s) for s in pos.__dataclass_fields__},
                           "rules": rules}))
    # a hand without an ambiguous move still gets its moves; one holding one raises
    assert [m.format() for m in legal_moves("345", rules=rules)] == ["3", "4", "5"]
    with pytest.raises(AmbiguousReadingError, match="3333"):
        legal_moves("33334", rules=rules)


def test_duel_literal_is_refused_and_classic_is_not() -> None:
    with pytest.raises(UnplayableRulesError, match="180 moves have several readings"):
        require_playable(load_rules("duel-literal"))
    for name in ("classic", "kawu", "duel"):
        require_playable(load_rules(name))


def test_never_played_shape_is_refused(tmp_path: Path) -> None:
    """Every candidate of `lone` (and of `single`) is ambiguous: no legal move has either type,
    which the refusal says as well."""
    _f, rules = _rules(tmp_path, LONE)
    report = check_rules(rules)
    assert report.never_played() == ["single", "lone"]
    with pytest.raises(UnplayableRulesError) as e:
        require_playable(rules)
    assert e.value.problems[1] == ("no legal move has type single, lone (the restrictions or "
                                   "ambiguity rule out every candidate)")


def test_check_report_cache_is_trusted_only_with_its_header(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    from ddzspec import check
    from ddzspec.errors import CacheWarning
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(check, "_REPORTS", {})
    _, rules = _rules(tmp_path, LONE)
    first = check_rules(rules)
    data = json.loads(report_path(rules).read_text())
    assert data["magic"] == "ddzspec-check" and len(data["ambiguous"]) == 15
    data["key"] = "0" * 24
    report_path(rules).write_text(json.dumps(data))
    monkeypatch.setattr(check, "_REPORTS", {})
    with pytest.warns(CacheWarning):
        again = check_rules(rules)
    assert again.counts == first.counts and again.ambiguous == first.ambiguous


def test_check_reports_a_rank_no_shape_plays_alone(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   cli: Any) -> None:
    """Tester F1: `check classic --without single` (and a single shape over the chain only)
    said OK, though play and solve refuse the rules (seeds 000/002: the leader must play, so
    a lone card of every rank must be playable). check says why, exit 1; --json too."""
    f, _r = _rules(tmp_path, NO_LONE)
    res = cli("check", str(f))
    assert res.exit_code == 1, res.output
    assert "OK:" not in res.stdout
    assert res.stdout.splitlines()[-1] == (
        "no shape plays a lone card of rank 2, B, R (a lone 2 has no reading), so a leader "
        "holding only such cards could not play: a defect of the rules file (play and solve "
        "refuse it); add a one-card shape over every rank (e.g. single = 1 x 1)")
    res = cli("check", "classic", "--without", "single", "--json")
    assert res.exit_code == 1, res.output
    doc = json.loads(res.stdout)
    assert doc["unplayable"] == ["no shape plays a lone card of rank 3, 4, 5, 6, 7, 8, 9, T, J, "
                                 "Q, K, A, 2, B, R (a lone 3 has no reading), so a leader "
                                 "holding only such cards could not play"]
    assert doc["moves"] == 24624 and "single" not in doc["by_type"]
    res = cli("check", "classic", "--json")
    assert res.exit_code == 0 and json.loads(res.stdout)["unplayable"] == []


def test_serve_says_which_rules_files_cannot_be_played(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       cli: Any) -> None:
    """Tester F1: `serve --rules FILE` with rules that cannot be played out started silently
    (the page offered them in Learn only). It says so in one warning line and still serves."""
    import uvicorn
    served: list[object] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: served.append(1))
    f, _r = _rules(tmp_path, NO_LONE)
    ok = tmp_path / "house.rules"
    ok.write_text("rules house extends classic\nshapes { without trio_pair }\n")
    res = cli("serve", "--port", "0", "--rules", str(ok), "--rules",
              str(f), "--data-dir", str(tmp_path / "d"))
    assert res.exit_code == 0, res.output
    assert served == [1] and res.stdout.startswith("ddzspec: the table is at http://127.0.0.1:")
    assert res.stderr == (
        f"ddzspec: warning: {f}: these rules cannot be played out: no shape plays a lone card "
        "of rank 2, B, R (a lone 2 has no reading), so a leader holding only such cards could "
        "not play; run "
        f"`ddzspec check --rules {f}` for the full report (offered in Learn only, not for "
        "play)\n")


# found by a fresh tester
def test_rules_without_single_cannot_be_played(cli: Any) -> None:
    with pytest.raises(GameError, match="cannot be played"):
        GameState.new(load_rules("classic", without=("single",)), seed=1)
    code, _, err = cli("play", "--without", "single", "--seed", "1")
    assert code == 2 and "no shape plays a lone card" in err


# found by tester 2
def test_check_flags_a_shape_no_move_can_have_as_play_refuses_it(tmp_path: Path, cli: Any) -> None:
    """check said OK (exit 0) for rules that play and solve refuse: one verdict for all."""
    f = tmp_path / "kni2.rules"
    f.write_text('rules kni2 "no kickers at all" extends classic\n'
                 "restrictions { kicker_not_in 3 4 5 6 7 8 9 10 J Q K A 2 B R }\n")
    code, out, _ = cli("check", str(f))
    problem = ("no legal move has type trio_single, trio_pair, plane_singles, plane_pairs, "
               "four_two_singles, four_two_pairs (the restrictions or ambiguity rule out every "
               "candidate)")
    assert code == 1 and problem in out and "OK:" not in out
    code, _, err = cli("play", "--rules", str(f), "--seed", "3")
    assert code == 2 and problem in err


# found by tester 2
def test_a_refused_builtin_is_named_as_the_user_names_it(cli: Any) -> None:
    """The refusal names a built-in by its name (the command it suggests must work as typed),
    not by the path of the file inside the package."""
    code, _, err = cli("play", "--rules", "duel-literal", "--seed", "1")
    assert code == 2 and err.startswith("ddzspec: error: duel-literal: these rules cannot be "
                                        "played out: 180 moves have several readings")
    assert err.rstrip().endswith("run `ddzspec check --rules duel-literal` for the full report")
