"""Regressions found by fresh testers (kept as tests): diff of non-move sections, unplayable
rules, bad record files, non-integer bids, ambiguous --beat moves, hands beyond the deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ddzspec.cards import Cards
from ddzspec.cli import main
from ddzspec.errors import GameError, IllegalMoveError, NotationError
from ddzspec.game import Action, GameState, InvalidBidError
from ddzspec.moves import legal_moves
from ddzspec.rules import load_rules


def test_diff_sees_a_scoring_only_change(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "nospring.rules"
    f.write_text('rules nospring "no spring" extends classic\n'
                 "scoring { base bid  double bomb rocket  settle per_peasant }\n")
    code, out, _ = cli("diff", "classic", str(f))
    assert code == 1
    assert out.splitlines()[0].startswith("diff classic nospring:")
    assert "nospring: double bomb rocket" in out and "No multiset differs" in out


def test_tables_are_shared_but_bound_to_the_asking_rules(tmp_path: Path) -> None:
    from ddzspec.rules import load_rules_text
    from ddzspec.table import get_table
    other = load_rules_text('rules other extends classic\ntrick { close_after 2 passes }\n')
    classic = load_rules("classic")
    assert other.digest == classic.digest
    assert get_table(other).rules is other and get_table(classic).rules is classic
    assert get_table(other).entries is get_table(classic).entries


def test_rules_without_single_cannot_be_played(cli: Any) -> None:
    with pytest.raises(GameError, match="cannot be played"):
        GameState.new(load_rules("classic", without=("single",)), seed=1)
    code, _, err = cli("play", "--without", "single", "--seed", "1")
    assert code == 2 and "no shape plays a lone card" in err


@pytest.mark.parametrize("content,message", [
    (b"\xff\xfe\x00\x01", "not a UTF-8 text file"),
    (b"[" * 100000 + b"]" * 100000, "nested too deeply"),
])
def test_unreadable_records(tmp_path: Path, content: bytes, message: str, cli: Any) -> None:
    f = tmp_path / "r.json"
    f.write_bytes(content)
    code, _, err = cli("replay", str(f))
    assert code == 2 and message in err and "Traceback" not in err


def test_play_save_to_a_bad_path(tmp_path: Path, cli: Any) -> None:
    code, _, err = cli("play", "--save", str(tmp_path / "no" / "x.json"))
    assert code == 2 and "cannot write" in err
    code, _, err = cli("play", "--save", str(tmp_path))
    assert code == 2 and "cannot write" in err


@pytest.mark.parametrize("value", [True, "1", 1.0])
def test_a_bid_is_a_whole_number(value: object) -> None:
    s = GameState.new(load_rules("classic"), seed=3)
    with pytest.raises(InvalidBidError, match="a bid is a whole number"):
        s.apply(Action("bid", s.turn, value))  # type: ignore[arg-type]


def test_beat_an_ambiguous_move_lists_its_readings(cli: Any) -> None:
    code, _, err = cli("moves", "--rules", "duel-literal", "--beat", "555666777888",
                       "666777888999")
    assert code == 2
    assert "plane_singles 555666777+8+8+8" in err and "defect of the rules file" in err


def test_hand_as_cards_is_checked_against_the_deck() -> None:
    with pytest.raises(NotationError, match="the deck has no 3"):
        legal_moves(Cards.parse("33345"), rules=load_rules("duel"))
    with pytest.raises(NotationError, match="more copies of 3"):
        legal_moves(Cards((5,) + (0,) * 14))
    with pytest.raises(IllegalMoveError):
        legal_moves("3456789", previous="33334")


def test_record_with_null_hash_or_altered_rules_is_refused(tmp_path: Path, cli: Any) -> None:
    """A record whose rules cannot be checked exactly is refused (exit 2), never replayed with
    a warning (issue 8 §2). The carried text is the rules: the digest is informational (it is
    ddzspec's cache key and may change between versions), so a changed digest alone replays."""
    f = tmp_path / "r.json"
    cli("play", "--seed", "2", "--save", str(f))
    _, unaltered, _ = cli("replay", str(f))
    rec = json.loads(f.read_text())
    rec["rules"]["digest"] = "0" * 20
    f.write_text(json.dumps(rec))
    code, out, _ = cli("replay", str(f))
    assert code == 0 and out == unaltered and "\npoints: seat 0 " in out
    text = rec["rules"]["text"]
    rec["rules"]["text"] = [line.replace("bids 1 2 3", "bids 1 2") for line in text]
    f.write_text(json.dumps(rec))
    code, _, err = cli("replay", str(f))
    assert code == 2 and "do not match their sha256" in err and "the record was altered" in err
    rec["rules"]["sha256"] = None
    f.write_text(json.dumps(rec))
    code, _, err = cli("replay", str(f))
    assert code == 2 and \
        '"rules" needs "sha256" (a string), not null' in err and "None" not in err


def test_score_line_speaks_the_notation(cli: Any) -> None:
    code, out, _ = cli("play", "--rules", "kawu", "--seed", "3", "--notation", "fr")
    assert code == 0 and "×2 rocket PJ GJ" in out and "rocket BR" not in out


def test_replay_reads_stdin(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "r.json"
    cli("play", "--seed", "4", "--save", str(f))
    res = CliRunner().invoke(main, ["replay", "-"], input=f.read_text())
    assert res.exit_code == 0 and res.stdout.splitlines()[-1].startswith("points:")


def test_explain_oversized_move_reads_as_a_sentence(cli: Any) -> None:
    _, out, _ = cli("explain", "333444555666777888999T")
    assert "22 cards: more than the largest hand (20); no restriction is involved." in out


def test_beats_names_the_empty_argument(cli: Any) -> None:
    code, _, err = cli("beats", "3", "")
    assert code == 2 and "PREVIOUS: no cards given" in err


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


# ----------------------------------------------------------------------------- tester 1

def _saved_record(cli: Any, tmp_path: Path, seed: int = 5) -> tuple[Path, dict[str, object]]:
    f = tmp_path / "m.json"
    code, _, _ = cli("play", "--seed", str(seed), "--save", str(f))
    assert code == 0
    return f, json.loads(f.read_text())


def test_a_record_number_too_long_for_python_is_a_one_line_error(tmp_path: Path, cli: Any) -> None:
    """Tester 1 §2: a 5000-digit seed made json.loads raise a bare ValueError."""
    f, _ = _saved_record(cli, tmp_path)
    text = f.read_text()
    head, tail = text.split('"seed": 5', 1)
    f.write_text(head + '"seed": ' + "9" * 5000 + tail)
    line = head.count("\n") + 1
    col = len(head) - head.rfind("\n") + len('"seed": ')
    code, out, err = cli("replay", str(f))
    assert code == 2 and out == ""
    assert err == (f"ddzspec: error: {f}: line {line} column {col}: a number of 5000 digits "
                   "(more than the 4300 digits Python reads): no deal record holds one\n")


@pytest.mark.parametrize("edit,message", [
    (lambda o: o["rules"].__setitem__("without", ["nosuch"]),
     '"rules" "without" drops "nosuch", which is no shape of the built-in classic'),
    (lambda o: o["rules"].__setitem__("without", ["bomb"]),
     '"rules" "without" drops "bomb", but the rules text still has that shape: the record was '
     "altered"),
    (lambda o: o["rules"].__setitem__("name", "kawu"),
     '"rules" "name" is "kawu" but its text is the rules "classic": the record was altered'),
    (lambda o: o.__setitem__("version", 2.0),
     "unsupported record version 2.0 (this ddzspec reads versions 1, 2)"),
    (lambda o: o.__setitem__("deal", [5]),
     'the record: "deal" must be an object, not [5]'),
    (lambda o: o["rules"].__setitem__("digest", 7),
     '"rules": "digest" must be a string, not 7'),
    (lambda o: o.__setitem__("acitons", []),
     'the record: unknown field "acitons" (fields: format, version, rules, deal, actions, '
     "result, terminal)"),
    (lambda o: o.__setitem__("terminal", {"seat": 0, "levels": [4]}),
     '"terminal" "levels" must be levels 1 to 3, not [4]'),
    (lambda o: o.__setitem__("terminal", {"seat": "0", "levels": [2]}),
     '"terminal": "seat" must be an integer, not "0"'),
    (lambda o: o.pop("actions"), 'the record needs "actions" (a list)'),
    (lambda o: o.__setitem__("result", [1]),
     'the record: "result" must be an object or null, not [1]'),
    (lambda o: o["deal"].__setitem__("seed", 1.5),
     '"deal": "seed" must be an integer or a string or null, not 1.5'),
    (lambda o: o["rules"]["text"].__setitem__(3, 5),
     '"rules": "text" must be a list of strings, not'),
])
def test_every_record_field_is_checked(tmp_path: Path, edit: object, message: str,
                                       cli: Any) -> None:
    """Tester 1 §5/§9: hand-edited records replayed with exit 0 (a bad "without", a "name"
    that is not the text's, version 2.0) or with a misleading message ("deal": [5] → "deal is
    missing"). Every field is type-checked, the labels checked against the text."""
    f, obj = _saved_record(cli, tmp_path)
    edit(obj)  # type: ignore[operator]
    f.write_text(json.dumps(obj))
    code, out, err = cli("replay", str(f))
    assert code == 2 and out == ""
    assert err.startswith(f"ddzspec: error: {message}") and err.count("\n") == 1, err


def test_replay_without_agrees_once_the_record_is_consistent(tmp_path: Path, cli: Any) -> None:
    """Tester 1 §5 follow-on: a record played without a shape replays with the same --without
    (the self-contradictory refusal came from a record whose "without" contradicted its text,
    now refused when read)."""
    f = tmp_path / "nb.json"
    assert cli("play", "--seed", "5", "--without", "trio_pair", "--save", str(f))[0] == 0
    assert json.loads(f.read_text())["rules"]["without"] == ["trio_pair"]
    code, out, _ = cli("replay", str(f), "--without", "trio_pair")
    assert code == 0 and out.splitlines()[-1].startswith("points:")


@pytest.mark.parametrize("action,reason", [
    ({"seat": 1, "pass": "yes"}, '"pass" is true, not "yes"'),
    ({"seat": "2", "bid": 0}, 'an action needs an integer "seat", not "2"'),
    ({"seat": 0, "bid": 1.5}, '"bid" is an integer (0: pass), not 1.5'),
    ({"seat": 0, "play": 33}, '"play" takes cards in notation (a string), not 33'),
    ({"seat": 0, "call": None}, '"call" is true or false, not null'),
    ([0, "bid"], 'an action is a JSON object, not [0, "bid"]'),
])
def test_record_action_errors_quote_json(tmp_path: Path, action: object, reason: str,
                                         cli: Any) -> None:
    """Tester 1 §9: a bad record action was quoted again as a Python repr."""
    f, obj = _saved_record(cli, tmp_path)
    obj["actions"][0] = action  # type: ignore[index]
    f.write_text(json.dumps(obj))
    code, out, _ = cli("replay", str(f))
    assert code == 1
    assert out.splitlines()[-1] == f"invalid action 0: {json.dumps(action)}: {reason}"


def test_actions_with_wrong_types_are_game_errors() -> None:
    """Tester 1 §7: wrong argument types raised TypeError from inside apply."""
    from ddzspec.game import Game
    g = Game.new(load_rules("classic"), seed=1)
    before = g.state
    with pytest.raises(GameError, match=r"an action's cards are Cards, not 5 "):
        g.act(Action.play(0, 5))  # type: ignore[arg-type]
    with pytest.raises(GameError, match=r"an action's cards are Cards, not \"3\" "):
        g.act(Action("play", 0, 0, "3"))  # type: ignore[arg-type]
    with pytest.raises(GameError, match='call is true or false, not "yes"'):
        g.act(Action.call(0, "yes"))  # type: ignore[arg-type]
    with pytest.raises(GameError, match="rob is true or false, not 2"):
        g.act(Action.rob(0, 2))
    assert g.state is before


def test_resume_under_a_house_rules_file_is_the_same_state(tmp_path: Path) -> None:
    """Tester 1 §7: resume of a deal played under a house rules file was not == the state
    saved (the rebuilt rules have no file path). States compare their rules by content."""
    from ddzspec.game.record import load, resume, save
    from ddzspec.game.state import same_rules
    house = tmp_path / "top.rules"
    house.write_text('rules top "no trio_pair" extends classic\nwithout trio_pair\n')
    rules = load_rules(str(house))
    g = GameState.new(rules, seed=7)
    for _ in range(4):
        g = g.apply(g.legal_actions()[-1])
    f = tmp_path / "r.json"
    save(g, f)
    back = resume(load(f))
    assert back == g and hash(back) == hash(g)
    assert back.rules.path != g.rules.path and same_rules(back.rules, g.rules)
    assert back != GameState.new(load_rules("classic"), seed=7)


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


def test_no_arguments_still_shows_the_help() -> None:
    res = CliRunner().invoke(main, [])
    assert res.exit_code == 2 and "Moves commands:" in res.output
    assert res.output.startswith("Usage: ") and "ddzspec: error" not in res.output


def test_a_folder_that_takes_no_new_file_is_refused_before_playing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    """Tester 1 §9: saving to /proc/version said "No such file or directory" (the temporary
    file could not be created in /proc). The folder is probed before playing and named."""
    import errno
    import os

    from ddzspec import _io
    real_open = os.open

    def refuse(path: object, *a: object, **kw: object) -> int:
        if str(path).endswith(".tmp"):
            raise OSError(errno.ENOENT, "No such file or directory", str(path))
        return real_open(path, *a, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(_io.os, "open", refuse)
    target = tmp_path / "version"
    target.write_text("kept\n")
    code, out, err = cli("play", "--seed", "1", "--save", str(target), "--force")
    assert (code, out) == (2, "")
    assert err == (f"ddzspec: error: {target}: cannot write: no file can be created in folder "
                   f"'{tmp_path}' (No such file or directory)\n")
    assert target.read_text() == "kept\n"


def test_many_deals_write_nothing_to_a_redirected_stderr(cli: Any) -> None:
    """Tester 1 §9: a stray blank line went to standard error (the progress bar of --games,
    not a terminal)."""
    code, out, err = cli("play", "--games", "3")
    assert code == 0 and err == "" and "3 deals" in out


# --------------------------------------------------------------------- tester 2 (issue 8, 9)

def test_arena_intervals_are_json_and_stay_within_their_range(cli: Any) -> None:
    """One deal gives no spread: null, not Infinity (invalid JSON); a win rate's interval
    stays within 0 … 1 (it went to 132 %)."""
    from ddzspec.players.arena import RATE, estimate
    code, out, _ = cli("arena", "--levels", "1,2", "--games", "1", "--json")
    assert code == 0
    res = json.loads(out, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
    assert all(r["points"]["low"] is None for r in res["by_level_role"] if r["points"]["n"] == 1)
    # Wilson (tester 3): z²/n = 1.2805, centre (2/3 + 0.64025)/2.2805 = 0.57309, half
    # 0.85944·√(0.074074 + 0.106708) = 0.36542
    e = estimate([1.0, 1.0, 0.0], RATE)
    assert (round(e.mean, 3), round(e.low, 3), round(e.high, 3)) == (0.667, 0.208, 0.939)


@pytest.mark.parametrize("budget", ["nan", "inf", "1e308", "0"])
def test_arena_budget_must_be_a_finite_number_of_seconds(budget: str, cli: Any) -> None:
    code, out, err = cli("arena", "--levels", "3,1", "--games", "1", "--budget", budget)
    assert code == 2 and out == "" and err.startswith("ddzspec: error: arena: Invalid value for "
                                                      "'--budget'") and len(err.splitlines()) == 1


def test_player_for_refuses_an_infinite_budget() -> None:
    from ddzspec.players import player_for
    for bad in (float("inf"), float("nan"), 0, -1):
        with pytest.raises(ValueError, match="a time per move in seconds"):
            player_for(3, budget=bad)


def test_empty_levels_are_an_error_not_the_default(cli: Any) -> None:
    code, _, err = cli("play", "--levels", "", "--seed", "1")
    assert code == 2 and err == "ddzspec: error: --levels: levels '': '' is not a level (1, 2 " \
                                "or 3)\n"


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


def test_a_cache_warning_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path))
    cmd = [sys.executable, "-m", "ddzspec", "check", "--rules", "kawu"]
    subprocess.run(cmd, check=True, capture_output=True)
    for f in tmp_path.iterdir():
        f.write_text("garbage")
    res = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert res.stderr.startswith("ddzspec: warning: cached ") and "recomputing" in res.stderr
    assert len(res.stderr.splitlines()) == 1 and ".py:" not in res.stderr


def test_ctrl_c_is_one_line_and_exit_130() -> None:
    import signal
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-m", "ddzspec", "arena", "--levels", "3,3",
                          "--games", "50"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True,
                         # a job started in the background inherits SIGINT ignored: restore it
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    time.sleep(2.5)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err.strip() == "ddzspec: interrupted"


def test_a_refused_builtin_is_named_as_the_user_names_it(cli: Any) -> None:
    """The refusal names a built-in by its name (the command it suggests must work as typed),
    not by the path of the file inside the package."""
    code, _, err = cli("play", "--rules", "duel-literal", "--seed", "1")
    assert code == 2 and err.startswith("ddzspec: error: duel-literal: these rules cannot be "
                                        "played out: 180 moves have several readings")
    assert err.rstrip().endswith("run `ddzspec check --rules duel-literal` for the full report")


# ----------------------------------------------------------------------------- tester 3

def test_rates_get_the_wilson_interval_never_a_zero_width() -> None:
    """Hand-worked: z = 1.95996, z²/n = 0.12805 for n = 30. 0 of 30: centre 0.0640/1.12805 =
    0.05675, half 1.73745·√(z²/4n²) = 0.05676 → [0, 11.35 %]. 27 of 30: centre 0.96403/1.12805
    = 0.85460, half 1.73745·√(0.003 + 0.0010671) = 0.11080 → [74.38 %, 96.54 %]."""
    from ddzspec.players.arena import RATE, estimate, wilson
    e = estimate([0.0] * 30, RATE)
    assert e.mean == 0 and e.low == 0 and e.high == pytest.approx(0.11351, abs=5e-5)
    e = estimate([1.0] * 27 + [0.0] * 3, RATE)
    assert (e.low, e.high) == pytest.approx((0.74380, 0.96540), abs=5e-5)
    assert wilson(1.0, 30) == pytest.approx((1 - 0.11351, 1.0), abs=5e-5)  # symmetric
    assert e.significant and "[0.0, 0.0]" not in str(estimate([0.0] * 5, RATE))


def test_balance_rates_at_zero_keep_a_width() -> None:
    from ddzspec.balance import _fmt
    from ddzspec.players.arena import RATE, estimate
    assert _fmt("spring_rate", estimate([0.0] * 30, RATE)) == "0.0% [0.0, 11.4]"


def test_arena_level_role_figures_are_clustered_by_duplicate_deal() -> None:
    """Two seats, levels (2, 1), two duplicate deals of two rotations. Deal A: level 2 is
    landlord once (won, +4) and peasant once (won, +2). Deal B: level 2 is landlord in both
    rotations (won +2, lost −4): one value for the deal, win 0.5, points −1. So level 2 as
    landlord: n = 2 deals (not 3 seat-deals), win rate (1 + 0.5)/2, points (4 − 1)/2."""
    from ddzspec.players.arena import RATE, SeatDeal, estimate, summarize, wilson
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


def test_output_never_overwrites_a_file_that_is_not_ddzspec_s(tmp_path: Path, cli: Any) -> None:
    for text in ("x\n", "x", '{"a": 1}', "first\nsecond\n"):
        f = tmp_path / "one.txt"
        f.write_text(text)
        code, _, err = cli("arena", "--levels", "2,1", "--games", "1", "--workers", "1",
                           "--output", str(f))
        assert code == 2 and err.count("\n") == 1 and str(f) in err, err
        assert "not the output of a ddzspec run" in err
        assert f.read_text() == text


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_min_difficulty_must_be_finite_and_not_negative(value: str, cli: Any) -> None:
    code, _, err = cli("puzzles", "generate", f"--min-difficulty={value}", "--count", "1")
    assert code == 2 and "--min-difficulty" in err and err.count("\n") == 1


@pytest.mark.parametrize("args", [("explain", "3333"), ("rules", "overview", "classic")])
def test_a_closed_pipe_exits_141_without_a_message(args: tuple[str, ...]) -> None:
    import os
    import subprocess
    import sys
    r, w = os.pipe()
    os.close(r)  # the reader is gone before anything is written: every write fails
    try:
        p = subprocess.run([sys.executable, "-m", "ddzspec", *args], check=False, stdout=w,
                           stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(w)
    assert p.returncode == 141 and p.stderr == b""


def test_a_scheduler_without_workers_says_so_and_gives_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    from ddzspec import execute
    monkeypatch.setattr(execute, "WORKER_TIMEOUT", 1.5)
    with (tmp_path / "dask.log").open("wb") as log, \
            execute.dask_processes(0, log=log, timeout=60) as (address, _):
        code, _, err = cli("arena", "--levels", "2,1", "--games", "1", "--scheduler", address)
    lines = err.splitlines()
    assert code == 2 and len(lines) == 2
    assert lines[0] == f"ddzspec: waiting for workers on {address} (at most 1.5 s)"
    assert lines[1] == (f"ddzspec: error: --scheduler {address}: no worker joined within "
                        f"1.5 s (start one with `dask worker {address}`)")


def test_a_run_whose_workers_are_all_gone_fails_instead_of_waiting(tmp_path: Path) -> None:
    from ddzspec import execute
    from ddzspec.execute import ExecuteError, Task, demo_task
    tasks = [Task.of(f"{i}", demo_task, n=i, seconds=0.3) for i in range(6)]
    rows: list[dict[str, object]] = []
    with (tmp_path / "dask.log").open("wb") as log, \
            execute.dask_processes(1, nanny=False, log=log, timeout=60) as (address, workers), \
            pytest.raises(ExecuteError, match=r"every worker is gone .* for 1\.5 s"):
        for row in execute.stream(tasks, scheduler=address, worker_timeout=1.5,
                                  output=tmp_path / "run.jsonl", header={}):
            rows.append(row)
            workers[0].kill()  # the only worker dies, and nothing restarts it
    assert rows and len(rows) < 6  # what was done is kept in the output
    assert len((tmp_path / "run.jsonl").read_text().splitlines()) == 1 + len(rows)


def test_ctrl_c_while_the_cluster_starts_is_one_line_and_130() -> None:
    """A terminal's Ctrl-C reaches the whole process group, workers included, while they
    start: one line, exit 130, no worker traceback."""
    import os
    import signal
    import subprocess
    import sys
    import time

    def own_group() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setpgrp()
    p = subprocess.Popen([sys.executable, "-m", "ddzspec", "arena", "--levels", "3,3",
                          "--games", "50", "--workers", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=own_group)  # noqa: PLW1509
    time.sleep(1.6)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err.strip() == "ddzspec: interrupted", err


def test_balance_plays_each_variant_with_the_first_levels_for_its_seats(cli: Any) -> None:
    code, out, err = cli("balance", "classic", "duel", "--levels", "3,2,1", "--games", "1",
                         "--workers", "1", "--budget", "0.01")
    assert code == 0, err
    assert "classic: 1 deals, levels 3,2,1" in out and "duel: 1 deals, levels 3,2," in out


def test_puzzles_check_shows_a_record_without_answer_as_information(cli: Any) -> None:
    code, out, _ = cli("puzzles", "check", "examples/puzzles.jsonl")
    lines = out.splitlines()
    assert code == 0 and lines[-1] == "3 puzzles checked, 0 with a problem"
    assert lines[0].startswith("line 3 (bomb): no expected answer: solved as peasants wins, "
                               "winning moves 8, K, 88,")


def test_puzzles_check_wants_the_exact_set_of_several_winning_moves(cli: Any) -> None:
    code, out, _ = cli("puzzles", "check", "tests/data/puzzles/two_seat.jsonl",
                       "--limit-seconds", "30")
    assert (code, out) == (0, "21 puzzles checked, 0 with a problem\n")


def test_a_terminal_deal_records_its_seat_and_levels_and_resume_holds_to_them(
        tmp_path: Path) -> None:
    from ddzspec.game.record import load
    f = tmp_path / "g.json"

    def play(*args: str) -> tuple[int, str, str]:
        res = CliRunner().invoke(main, ["play", *args], input="quit\n")
        return res.exit_code, res.stdout, res.stderr
    code, out, err = play("--seat", "1", "--levels", "1,3", "--seed", "4", "--save", str(f))
    assert code == 0, err
    rec = load(f)
    assert (rec.terminal_seat, rec.terminal_levels) == (1, (1, 3, 3))
    assert json.loads(f.read_text())["terminal"] == {"seat": 1, "levels": [1, 3, 3]}
    code, out, err = play("--resume", str(f))  # no --seat needed
    assert code == 0 and "you are seat 1" in out, err
    for args, error in [
            (("--seat", "2"), "--seat 2: the deal in {f} was started with --seat 1"),
            (("--seed", "5"), "--seed 5: the deal in {f} was dealt from seed 4"),
            (("--levels", "2"), "--levels 2: the deal in {f} was started with --levels 1,3,3"),
            (("--without", "bomb"), "{f}: the rules given (classic without bomb")]:
        code, _, err = play("--resume", str(f), *args)
        assert code == 2 and err.startswith(f"ddzspec: error: {error.format(f=f)}"), err
    assert load(f).terminal_seat == 1
    # a record without the field (older ddzspec) still reads, and needs --seat
    obj = json.loads(f.read_text())
    del obj["terminal"]
    f.write_text(json.dumps(obj))
    assert load(f).terminal_seat is None
    code, _, err = play("--resume", str(f))
    assert code == 2 and "does not say which seat is yours" in err and "--seat N" in err
    code, out, _ = play("--resume", str(f), "--seat", "1", "--levels", "2")
    assert code == 0 and load(f).terminal_levels == (2, 2, 2)


def test_an_unwritable_data_folder_is_a_located_one_line_error(
        monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", "/proc/nope")
    code, _, err = cli("play", "--seat", "0")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("ddzspec: error: /proc/nope/ddzspec/games: cannot create the folder "
                          "where deals are saved:")
    assert "--save FILE" in err and "XDG_DATA_HOME" in err and "Errno" not in err


def test_a_scheduler_that_is_no_address_names_the_option(cli: Any) -> None:
    code, _, err = cli("arena", "--levels", "2,1", "--games", "1", "--scheduler", "notaurl")
    assert code == 2 and err.startswith("ddzspec: error: --scheduler notaurl: not a scheduler "
                                        "address (tcp://HOST:PORT)")


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


def test_a_misspelt_seat_is_named_with_the_seats(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "p.txt"
    f.write_text("landlord: 3455\npeasant1: 66\npeasant3: 77\nto_move: landlord\n")
    code, _, err = cli("solve", str(f))
    assert code == 2 and err == (f"ddzspec: error: {f}:3:1: unknown seat 'peasant3' (seats: "
                                 "landlord, peasant with two seats; landlord, peasant1, "
                                 "peasant2 with three)\n")


def test_puzzles_play_takes_rules_for_a_file_without_and_names_a_folder(
        tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "p.txt"
    f.write_text("landlord: 3455\npeasant1: 66\npeasant2: 77\nto_move: landlord\n")
    res = CliRunner().invoke(main, ["puzzles", "play", str(f)], input="quit\n")
    assert res.exit_code == 0 and "landlord to move (you lose with best play)." in res.stdout
    res = CliRunner().invoke(main, ["puzzles", "play", str(f), "--rules", "duel"])
    assert res.exit_code == 2 and "the deck has no 3" in res.stderr  # read under duel
    code, _, err = cli("puzzles", "play", str(tmp_path))
    assert (code, err) == (2, f"ddzspec: error: {tmp_path}: is a folder, not a position file\n")


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


# ----------------------------------------------------------------------------- tester 5

@pytest.mark.parametrize("args", [("solve", "/dev/zero"), ("solve", "--batch", "/dev/zero"),
                                  ("puzzles", "check", "/dev/zero"),
                                  ("puzzles", "play", "/dev/zero"), ("replay", "/dev/zero")])
def test_an_endless_input_is_one_line_not_all_memory(args: tuple[str, ...], cli: Any) -> None:
    code, _, err = cli(*args)
    assert code == 2 and err.count("\n") == 1
    assert "/dev/zero" in err and "larger than 64 MiB: not an input file" in err


def test_a_device_is_no_output_file(cli: Any) -> None:
    batch = str(Path(__file__).parents[1] / "examples" / "puzzles.jsonl")
    code, _, err = cli("solve", "--batch", batch, "--output", "/dev/full")
    assert (code, err) == (2, "ddzspec: error: /dev/full: not a regular file (an output file "
                              "is read back to resume a run): name a file\n")


def test_read_input_caps_files_and_standard_input(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import io

    from ddzspec._io import read_input
    f = tmp_path / "p.txt"
    f.write_text("landlord: 3\n")
    assert read_input(f, limit=12) == "landlord: 3\n"
    with pytest.raises(OSError) as e:
        read_input(f, limit=11)
    assert e.value.errno == errno.EFBIG and "larger than" in str(e.value.strerror)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"x" * 20)))
    with pytest.raises(OSError):
        read_input("-", limit=19)
    monkeypatch.setattr("sys.stdin", io.StringIO("peasant: 4\n"))  # no .buffer
    assert read_input("-", limit=11) == "peasant: 4\n"


def test_the_shipped_puzzles_pass_their_own_checkers(cli: Any) -> None:
    """DDZ2-03 and DDZ2-09 say "winner": "peasant" (a two-seat position's seat name, as
    ``puzzles list`` shows it): the checkers read it as the peasants' side."""
    from importlib import resources
    path = str(resources.files("ddzspec").joinpath("data", "puzzles.jsonl"))
    code, out, _ = cli("puzzles", "check", path)
    assert code == 0 and out.endswith("26 puzzles checked, 0 with a problem\n")
    code, out, _ = cli("solve", "--batch", path, "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(rows) == 26 and all(r["expected_agrees"] for r in rows)


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


def test_the_solver_api_refuses_bad_limits_and_values() -> None:
    from ddzspec.solver import Limit, PositionError, make_position, solve
    classic = load_rules("classic")
    p = make_position(classic, {"landlord": "33", "peasant": "4"}, "landlord")
    for bad in (float("nan"), -1.0, float("inf")):
        with pytest.raises(ValueError, match="finite number"):
            solve(p, seconds=bad)
    with pytest.raises(ValueError, match="a number of seconds"):
        solve(p, seconds="5")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="0 or more"):
        solve(p, limit=-5)
    with pytest.raises(ValueError, match="0 or more"):
        Limit(nodes=-1)
    # the same words from the pure and the compiled core ("0 s", not "0.0 s")
    assert solve(p, seconds=0).reason == "time limit 0 s reached"
    with pytest.raises(PositionError, match=r"base 1\.5: must be a whole number"):
        make_position(classic, {"landlord": "33", "peasant": "4"}, "landlord",
                      base=1.5)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="target landlord: 'x'"):
        make_position(classic, {"landlord": "33", "peasant": "4"}, "landlord",
                      targets={"landlord": "x"})
    with pytest.raises(PositionError, match="the hand of landlord: list given"):
        make_position(classic, {"landlord": ["3"], "peasant": "4"},  # type: ignore[dict-item]
                      "landlord")


def test_ctrl_c_while_the_cli_is_imported_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from ddzspec import _entry

    def interrupted(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_entry, "import_module", interrupted)
    with pytest.raises(SystemExit) as e:
        _entry.main()
    assert e.value.code == 130 and capsys.readouterr().err == "\nddzspec: interrupted\n"


# ----------------------------------------------------------------------------- tester 6

def test_a_byte_order_mark_is_read_as_the_rules_files_read_it(tmp_path: Path, cli: Any) -> None:
    """Tester 6: a UTF-8 byte-order mark (Windows Notepad writes one) was accepted in rules
    files but refused in positions, batch files and records."""
    bom = "\ufeff"
    pos = tmp_path / "bom.pos"
    pos.write_text(bom + "rules classic\nlandlord: 33\npeasant: 4\nto_move: landlord\n",
                   encoding="utf-8")
    code, out, err = cli("solve", str(pos), "--json")
    assert code == 0 and json.loads(out)["winning_moves"] == ["33"], err
    batch = tmp_path / "bom.jsonl"
    batch.write_text(bom + json.dumps({"id": "b", "position": pos.read_text(
        encoding="utf-8-sig")}) + "\n", encoding="utf-8")
    code, out, err = cli("solve", "--batch", str(batch), "--workers", "1", "--json")
    assert code == 0 and '"winning_moves": ["33"]' in out, err
    rec = tmp_path / "rec.json"
    code, _, err = cli("play", "--rules", "duel", "--seed", "3", "--levels", "1,1",
                       "--save", str(rec))
    assert code == 0, err
    rec.write_text(bom + rec.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = cli("replay", str(rec))
    assert code == 0, err
