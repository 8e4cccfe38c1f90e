"""Records: save, resume (seed 003's autosave), replay, transcripts and the game CLI."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.errors import GameError
from ddzspec.game import Action, GameState
from ddzspec.game.record import (
    Record,
    RecordError,
    load,
    record_of,
    replay,
    resume,
    save,
    transcript,
)
from ddzspec.players import player_for
from ddzspec.rules import load_rules

VARIANTS = ("classic", "kawu", "duel")


def self_play(name: str, seed: int, stop: int | None = None) -> GameState:
    rules = load_rules(name)
    level2 = player_for(2)
    g = GameState.new(rules, seed=seed)
    k = 0
    while not g.over and (stop is None or k < stop):
        g = g.apply(level2.decide(g.view(g.turn)))
        k += 1
    return g


def roundtrip(g: GameState) -> Record:
    return Record.from_json(json.loads(record_of(g).dumps()))


@pytest.mark.parametrize("name", VARIANTS)
def test_replay_reproduces_the_result(name: str) -> None:
    @settings(max_examples=40, deadline=None)
    @given(st.integers(0, 10**9))
    def check(seed: int) -> None:
        g = self_play(name, seed)
        rep = replay(roundtrip(g))
        assert rep.ok, rep.error
        assert rep.state == g
        assert rep.state.result == g.result
    check()


@pytest.mark.parametrize("name", VARIANTS)
def test_save_mid_deal_and_resume_identically(name: str, tmp_path: Path) -> None:
    """Seed 003: "si vous rechargez la page … la donne reprend exactement là où vous l'avez
    laissée"."""
    for seed, stop in ((1, 2), (2, 9), (3, 25)):
        g = self_play(name, seed, stop)
        f = tmp_path / f"{name}-{seed}.json"
        save(g, f)
        back = resume(load(f))
        assert back == g
        assert back.view(0) == g.view(0)
        if not back.over:
            assert back.legal_actions() == g.legal_actions()
            data = json.loads(f.read_text())
            assert data["result"] is None


def test_explicit_deal_record_and_redeal_in_record() -> None:
    rules = load_rules("kawu")
    g = GameState.new(rules, seed=9)
    for k in range(3):  # all pass: the voided bids stay in the record
        g = g.apply(Action.bid((g.first + k) % 3, 0))
    g = g.apply(Action.bid(g.first, 3))
    rep = replay(roundtrip(g))
    assert rep.ok and rep.state == g and rep.state.attempt == 1
    h = [x.format() for x in g.hands]
    ex = GameState.new(load_rules("classic"), hands=[
        "33334444555566667", "7778888999TTTTJJ9", "JJQQQQKKKKAAAA222"], talon="2BR", first=1)
    rec = roundtrip(ex.apply(Action.bid(1, 1)))
    assert rec.hands is not None and rec.first == 1
    st2 = resume(rec)
    assert st2.hands[1].format().startswith("777") and st2.landlord is None
    with pytest.raises(GameError, match="more copies"):
        GameState.new(load_rules("classic"), hands=[
            "33334444555566667", "7778888999TTTTJJ9", "JJQQQQKKKKAAAA222"], talon="2BB"[:2] + "2")
    assert h


def test_replay_reports_the_first_invalid_action() -> None:
    g = self_play("classic", 4)
    obj = record_of(g).to_json()
    obj["actions"][6] = {"seat": obj["actions"][6]["seat"], "play": "3333"}
    rep = replay(Record.from_json(obj))
    assert not rep.ok and rep.error_index == 6
    assert len(rep.steps) == 6
    obj["actions"][6] = {"seat": 0, "dance": True}
    rep = replay(Record.from_json(obj))
    assert rep.error_index == 6 and "exactly one of" in (rep.error or "")
    with pytest.raises(GameError):
        resume(Record.from_json(obj))


def test_replay_detects_a_tampered_result(tmp_path: Path, cli: Any) -> None:
    g = self_play("duel", 5)
    obj = record_of(g).to_json()
    true = json.dumps(obj["result"])
    obj["result"]["scores"] = {"0": 100, "1": -100}
    rep = replay(Record.from_json(obj))
    # the result is not an action: no index (before: "invalid action N" for N actions 0..N-1)
    want = f"recorded result {json.dumps(obj['result'])}: replayed result differs: {true}"
    assert (rep.ok, rep.error_index, rep.error, rep.problem) == (False, None, want, want)
    with pytest.raises(GameError) as e:
        resume(Record.from_json(obj))
    assert str(e.value) == want
    f = tmp_path / "tampered.json"
    f.write_text(json.dumps(obj))
    code, out, _ = cli("replay", str(f))
    assert code == 1 and out.splitlines()[-1] == want
    code, out, _ = cli("replay", str(f), "--json")
    assert code == 1 and json.loads(out)["error"] == {"index": None, "reason": want}


def test_replay_detects_a_result_recorded_before_the_deal_is_over(tmp_path: Path,
                                                                   cli: Any) -> None:
    g = self_play("duel", 5)
    obj = record_of(g).to_json()
    obj["actions"] = obj["actions"][:-3]  # cut short, the result kept
    want = f"recorded result {json.dumps(obj['result'])}: the deal is not over"
    rep = replay(Record.from_json(obj))
    assert (rep.error_index, rep.error, len(rep.steps)) == (None, want, len(obj["actions"]))
    f = tmp_path / "truncated.json"
    f.write_text(json.dumps(obj))
    code, out, _ = cli("replay", str(f))
    assert code == 1 and out.splitlines()[-1] == want


def test_bad_records() -> None:
    with pytest.raises(RecordError):
        Record.from_json({"format": "other"})
    with pytest.raises(RecordError):
        Record.from_json({"format": "ddzspec-record", "version": 99})
    with pytest.raises(RecordError):
        Record.from_json({"format": "ddzspec-record", "version": 1, "rules": {"name": "x"},
                          "deal": {}})


def test_transcript_has_every_part() -> None:
    rules = load_rules("classic")
    g0 = GameState.new(rules, seed=2)
    level2 = player_for(2)
    g, steps = g0, []
    while not g.over:
        a = level2.decide(g.view(g.turn))
        g = g.apply(a)
        steps.append((a, g))
    text = "\n".join(transcript(g0, steps))
    for part in ("seat 0:", "bidding", "landlord: seat", "trick 1", "result:", "score: base",
                 "points:"):
        assert part in text


def test_the_last_bid_before_a_redeal_is_indented_as_the_others() -> None:
    rules = load_rules("classic")
    g0 = g = GameState.new(rules, seed=2, first=0)
    steps = []
    for seat in (0, 1, 2):  # all pass: the deal is void
        a = Action.bid(seat, 0)
        g = g.apply(a)
        steps.append((a, g))
    lines = transcript(g0, steps)
    at = lines.index("all passed: the deal is void, reshuffled (attempt 2)")
    assert lines[at - 3:at] == ["  seat 0 passes", "  seat 1 passes", "  seat 2 passes"]


def test_a_record_with_a_huge_card_string_is_refused_at_that_action() -> None:
    # a 10 MB card string in a record: refused before it is parsed (it took Lark 429 s and
    # 6 GB), as the action in error
    g = GameState.new(load_rules("classic"), seed=3, first=0)
    for a in (Action.bid(0, 3),):
        g = g.apply(a)
    obj = json.loads(record_of(g).dumps())
    obj["actions"].append({"seat": 0, "play": "3" * 10_000_000})
    r = replay(Record.from_json(obj))
    assert r.error_index == 1 and r.error is not None
    assert "too long for cards: 10000000 characters, at most 864" in r.error
    assert len(r.error) < 500  # the action and the card string quoted cut


def test_a_record_over_5000_actions_is_refused_when_read() -> None:
    # 5001 all-pass bids (1667 redeals): replaying 30 000 took 55 s and 3.6 GB
    g = GameState.new(load_rules("classic"), seed=3, first=0)
    obj = json.loads(record_of(g).dumps())
    obj["actions"] = [{"seat": k % 3, "bid": 0} for k in range(5001)]
    with pytest.raises(RecordError, match=r'^"actions": 5001 actions, at most 5000 '):
        Record.from_json(obj)
    passes = []
    for _ in range(4998):  # 1666 redeals (the first bidder changes each time): read, replayed
        a = Action.bid(g.turn, 0)
        g = g.apply(a)
        passes.append({"seat": a.seat, "bid": 0})
    obj["actions"] = passes
    r = replay(Record.from_json(obj))
    assert r.ok and r.state.attempt == 1666 and r.state.phase.value == "bidding"


# ----------------------------------------------------------------------------- CLI

def test_cli_play_json_record_and_replay(tmp_path: Path, cli: Any) -> None:
    for name in VARIANTS:
        res = cli("play", "--rules", name, "--seed", "3", "--json")
        assert res.exit_code == 0, res.output
        rec = json.loads(res.output)
        r = rec["result"]
        assert r["winner"] in ("landlord", "peasants")
        assert sum(r["scores"].values()) == 0
        assert isinstance(r["multiplier"], int)
        assert all({"kind", "times"} <= set(f) for f in r["factors"])
        f = tmp_path / f"{name}.json"
        f.write_text(res.output)
        res = cli("replay", str(f))
        assert res.exit_code == 0, res.output
        assert "result:" in res.output and "points:" in res.output
        res = cli("replay", str(f), "--json")
        assert json.loads(res.output)["valid"] is True
    rec["actions"][3] = {"seat": 9, "pass": True}
    f.write_text(json.dumps(rec))
    res = cli("replay", str(f))
    assert res.exit_code == 1
    assert "invalid action 3" in res.output
    f.write_text("{")
    res = cli("replay", str(f))
    assert res.exit_code == 2


def test_cli_play_transcript_and_games(cli: Any) -> None:
    res = cli("play", "--rules", "kawu", "--seed", "7")
    assert res.exit_code == 0, res.output
    assert "bidding" in res.output and "points:" in res.output
    res = cli("play", "--rules", "duel", "--games", "5", "--json")
    assert res.exit_code == 0, res.output
    agg = json.loads(res.output)
    assert agg["games"] == 5 and sum(agg["wins"].values()) == 5
    assert abs(sum(agg["average_points"].values())) < 1e-9
    res = cli("play", "--games", "3", "--seed", "1")
    assert res.exit_code == 0 and "wins: landlord" in res.output


def test_random_legal_actions_replay(tmp_path: Path) -> None:
    rules = load_rules("duel")
    rng = random.Random(3)
    g = GameState.new(rules, seed=77)
    while not g.over:
        g = g.apply(rng.choice(g.legal_actions()))
    save(g, tmp_path / "r.json")
    assert resume(load(tmp_path / "r.json")) == g


def _saved_record(cli: Any, tmp_path: Path, seed: int = 5) -> tuple[Path, dict[str, object]]:
    f = tmp_path / "m.json"
    code, _, _ = cli("play", "--seed", str(seed), "--save", str(f))
    assert code == 0
    return f, json.loads(f.read_text())


NO_TALON = ('rules nt "classic without a talon" extends classic\n'
            "deal { players 3  hand 18  talon 0  undealt 0  turn counterclockwise }\n")


# found by a fresh tester
@pytest.mark.parametrize("content,message", [
    (b"\xff\xfe\x00\x01", "not a UTF-8 text file"),
    (b"[" * 100000 + b"]" * 100000, "nested too deeply"),
])
def test_unreadable_records(tmp_path: Path, content: bytes, message: str, cli: Any) -> None:
    f = tmp_path / "r.json"
    f.write_bytes(content)
    code, _, err = cli("replay", str(f))
    assert code == 2 and message in err and "Traceback" not in err


# found by a fresh tester
def test_score_line_speaks_the_notation(cli: Any) -> None:
    code, out, _ = cli("play", "--rules", "kawu", "--seed", "3", "--notation", "fr")
    assert code == 0 and "×2 rocket PJ GJ" in out and "rocket BR" not in out


# found by a fresh tester
def test_replay_reads_stdin(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "r.json"
    cli("play", "--seed", "4", "--save", str(f))
    res = cli("replay", "-", input=f.read_text())
    assert res.exit_code == 0 and res.stdout.splitlines()[-1].startswith("points:")


# found by tester 1
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


# found by tester 1
@pytest.mark.parametrize("edit,message", [
    (lambda o: o["rules"].__setitem__("without", ["nosuch"]),
     '"rules" "without" drops "nosuch", which is no shape of the built-in classic'),
    (lambda o: o["rules"].__setitem__("without", ["bomb"]),
     '"rules" "without" drops "bomb", but the rules text still has that shape: the record was '
     "altered"),
    (lambda o: o["rules"].__setitem__("name", "kawu"),
     '"rules" "name" is "kawu" but its text is the rules "classic": the record was altered'),
    (lambda o: o.__setitem__("version", 2.0),
     "unsupported record version 2.0 (this ddzspec reads versions 1, 2, 3, 4)"),
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
    assert err.startswith(f"ddzspec: error: {f}: {message}") and err.count("\n") == 1, err


# found by tester 1
def test_replay_without_agrees_once_the_record_is_consistent(tmp_path: Path, cli: Any) -> None:
    """Tester 1 §5 follow-on: a record played without a shape replays with the same --without
    (the self-contradictory refusal came from a record whose "without" contradicted its text,
    now refused when read)."""
    f = tmp_path / "nb.json"
    assert cli("play", "--seed", "5", "--without", "trio_pair", "--save", str(f))[0] == 0
    assert json.loads(f.read_text())["rules"]["without"] == ["trio_pair"]
    code, out, _ = cli("replay", str(f), "--without", "trio_pair")
    assert code == 0 and out.splitlines()[-1].startswith("points:")


# found by tester 1
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


# found by tester 1
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


# found by tester 1
def test_many_deals_write_nothing_to_a_redirected_stderr(cli: Any) -> None:
    """Tester 1 §9: a stray blank line went to standard error (the progress bar of --games,
    not a terminal)."""
    code, out, err = cli("play", "--games", "3")
    assert code == 0 and err == "" and "3 deals" in out


# found by tester 8
@pytest.mark.parametrize("terminal,error", [
    ({"seat": 0, "levels": []}, '"terminal" "levels" holds 0 level(s), not one per seat (3)'),
    ({"seat": 0, "levels": [2]}, '"terminal" "levels" holds 1 level(s), not one per seat (3)'),
    ({"seat": 0, "levels": [2, 2, 2, 2]},
     '"terminal" "levels" holds 4 level(s), not one per seat (3)'),
    ({"seat": 9, "levels": [2, 2, 2]},
     '"terminal" "seat" is 9, not a seat of the record\'s rules (0 to 2)'),
])
def test_resume_refuses_a_terminal_field_that_does_not_fit_the_variant(
        tmp_path: Path, terminal: dict[str, object], error: str, cli: Any) -> None:
    f = tmp_path / "g.json"
    code, _, err = cli("play", "--seat", "0", "--seed", "5", "--save", str(f), input="quit\n")
    assert code == 0, err
    obj = json.loads(f.read_text())
    obj["terminal"] = terminal
    f.write_text(json.dumps(obj))
    before = f.read_bytes()
    # before: an IndexError traceback once a computer seat had to move (or "--seat: 9 is not
    # a seat", naming an option that was never given)
    code, out, err = cli("play", "--resume", str(f), input="pass\npass\nquit\n")
    assert (code, out) == (2, "")
    assert err == f"ddzspec: error: {f}: {error}: the record was altered\n"
    assert f.read_bytes() == before


# found by tester 8
def test_an_explicit_deal_of_a_variant_without_a_talon_replays_and_resumes(
        tmp_path: Path, cli: Any) -> None:
    from ddzspec.game import GameState
    from ddzspec.game.record import load, replay, resume, save
    from ddzspec.rules import load_rules
    f = tmp_path / "nt.rules"
    f.write_text(NO_TALON)
    rules = load_rules(str(f))
    dealt = GameState.new(rules, seed=1)
    hands = [h.format("en") for h in dealt.hands]
    g = GameState.new(rules, hands=hands, talon="")  # was NotationError: no cards given
    assert g.hands == dealt.hands and len(g.talon) == 0
    rec = tmp_path / "g.json"
    save(GameState.new(rules, hands=hands, talon=dealt.talon), rec)
    assert json.loads(rec.read_text())["deal"]["talon"] == ""
    assert resume(load(rec)).hands == dealt.hands  # the record ddzspec wrote reads back
    assert replay(load(rec)).ok
    code, out, err = cli("replay", str(rec))
    assert code == 0 and out.startswith("classic without a talon"), err


# found by tester 8
@pytest.mark.parametrize("hands,talon,error", [
    (["45789TJJQKKAAA22R", "334456666789JKA2B", "33455778899TJQQKX"], "TTQ",
     "bad deal: hand 2: column 17: unknown symbol 'X' in English notation "
     "(in '33455778899TJQQKX')"),
    (["45789TJJQKKAAA22R", "334456666789JKA2B", "33455778899TJQQK2"], "TTX",
     "bad deal: the talon: column 3: unknown symbol 'X' in English notation (in 'TTX')"),
    (["45789TJJQKKAAA22R", "334456666789JKA2B", "33455778899TJQQK2"], "",
     "bad deal: the talon must have 3 cards"),
])
def test_a_bad_explicit_deal_in_a_record_names_the_hand_or_talon_on_one_line(
        tmp_path: Path, hands: list[str], talon: str, error: str, cli: Any) -> None:
    code, out, _ = cli("play", "--seed", "5", "--json")
    obj = json.loads(out)
    obj["deal"] = {"seed": None, "hands": hands, "talon": talon, "first": 2}
    f = tmp_path / "r.json"
    f.write_text(json.dumps(obj))
    code, out, err = cli("replay", str(f))
    # was "bad deal: column 17: …" and a caret under a hand it did not name; "no cards given"
    assert (code, out, err) == (2, "", f"ddzspec: error: {error}\n")


# found by tester 8
def test_a_variant_without_a_talon_says_so_in_the_transcripts(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "nt.rules"
    f.write_text(NO_TALON)
    code, out, err = cli("play", "--rules", str(f), "--seed", "1")
    assert code == 0, err
    lines = out.splitlines()
    # was "  talon (face down): " and "…; talon  shown and taken (18 cards)"
    assert lines[4] == "  talon: none"
    assert "landlord: seat 1 (base 1); no talon (18 cards)" in lines
    code, out, err = cli("play", "--rules", str(f), "--seed", "1", "--seat", "2", "--save",
                         str(tmp_path / "g.json"), input="pass\nquit\n")
    assert code == 0, err
    assert "seat 1 is the landlord (base 1); there is no talon" in out.splitlines()
    assert not [ln for ln in out.splitlines() if ln.startswith("talon")]  # was "talon: -"
    code, out, err = cli("rules", "overview", str(f))
    assert code == 0, err
    # was "0 cards are the talon, which goes to the landlord"
    assert ("Deal: 3 players, 18 cards each from a deck of 54; there is no talon; play turns "
            "counterclockwise.") in out.splitlines()


def _record_whose_rules_say(first_line: str) -> dict[str, object]:
    """A classic record whose carried rules text is ``first_line`` alone, its sha256 right (an
    attacker computes it), so replay gets as far as loading the text."""
    import hashlib
    obj = record_of(GameState.new(load_rules("classic"), seed=1)).to_json()
    obj["rules"]["text"] = [first_line]
    obj["rules"]["sha256"] = hashlib.sha256((first_line + "\n").encode()).hexdigest()
    return obj


@pytest.mark.parametrize("target", ['"/etc/passwd"', '"{tmp}/secret"', '"{tmp}/missing"',
                                    '"{tmp}/secret.rules"', "classic"])
def test_a_record_whose_rules_extend_anything_is_refused_before_any_file_is_read(
        target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ddzspec.rules import merge as merge_mod
    (tmp_path / "secret").write_text("root-token-1234 is the first word\n")
    (tmp_path / "secret.rules").write_text("root-token-1234 is the first word\n")
    ext = target.replace("{tmp}", str(tmp_path))
    obj = _record_whose_rules_say(f"rules classic extends {ext}")
    read: list[Path] = []
    real = merge_mod.read_bytes
    monkeypatch.setattr(merge_mod, "read_bytes", lambda p: read.append(p) or real(p))
    with pytest.raises(RecordError) as e:
        replay(Record.from_json(obj))
    # one answer whether the file exists or not (no oracle), never its content
    assert str(e.value) == (
        "the record's rules cannot be loaded: <rules of the record: classic>:1:23: extends "
        f"{ext}: refused: these rules must stand alone (as a record carries them: resolved, "
        "with no extends), so no other file is read")
    assert read == []


def test_replay_cli_refuses_a_record_extending_a_file_as_bad_input(tmp_path: Path,
                                                                   cli: Any) -> None:
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(_record_whose_rules_say('rules classic extends "/etc/passwd"')))
    r = cli("replay", str(f))
    assert r.exit_code == 2
    assert 'extends "/etc/passwd": refused' in r.output and "root" not in r.output


@pytest.mark.parametrize("name", ["../../../../etc/passwd", "/etc/passwd", "classic.rules",
                                  "./classic", "../rules/classic"])
def test_a_version_1_record_names_only_a_built_in(name: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from ddzspec.rules import load as load_mod
    monkeypatch.setattr(load_mod, "resolve_path", lambda *a, **k: pytest.fail("a path looked up"))
    obj = {"format": "ddzspec-record", "version": 1,
           "rules": {"name": name, "sha256": "0" * 64, "digest": "x"},
           "deal": {"seed": 1}, "actions": [], "result": None}
    with pytest.raises(RecordError) as e:
        replay(Record.from_json(obj))
    assert str(e.value) == (f"version 1 record of rules {name!r}: they are not built into "
                            "ddzspec and the record does not carry them, so it cannot be "
                            "replayed exactly (records from this ddzspec carry their rules)")


# --------------------------------------------- version 2 records of rounds (issue 25 §4)

def _hebei_kick_and_counter() -> GameState:
    """hebei, seed 4: seat 0 bids 3 (landlord, base 3), seat 1 kicks (x2), seat 2 does not,
    the landlord counters (x2); three level 1 players play it out."""
    g = GameState.new(load_rules("hebei"), seed=4, first=0).apply(Action.bid(0, 3))
    for a in (Action.double(1, 2), Action.double(2, 1), Action.double(0, 2)):
        g = g.apply(a)
    players = [player_for(1, 0) for _ in range(3)]
    while not g.over:
        assert g.turn is not None
        g = g.apply(players[g.turn].decide(g.view(g.turn)))
    return g


def _as_saved(obj: dict[str, Any], version: int, old: str, new: str) -> dict[str, Any]:
    """``obj`` with its rules line ``old`` written ``new`` (its sha256 updated) and
    ``version``: a record as an earlier ddzspec saved it."""
    text = [new if t == old else t for t in obj["rules"]["text"]]
    assert text != obj["rules"]["text"]
    sha = hashlib.sha256("".join(t + "\n" for t in text).encode()).hexdigest()
    return {**obj, "version": version, "rules": {**obj["rules"], "text": text, "sha256": sha}}


def test_a_version_2_hebei_record_replays_its_counter_kick_for_the_kickers_only() -> None:
    """Before ``answer … for`` (issue 25 §4) hebei saved ``answer no 1 counter 2`` and the
    counter-kick reached the kicking peasant's pair only; a record written then (version 2)
    still replays to its result. The deal: base 3, the landlord plays a bomb 8888 (x2, the
    table's): seat 1 kicked, so it settles 3 x 2 (kick) x 2 (counter) x 2 (bomb) = 24, seat 2
    3 x 2 = 6, the landlord wins 24 + 6 = 30. Read as version 3 (the answer table-wide) seat
    2 would owe 3 x 2 x 2 = 12 and the recorded result is refused."""
    g = _hebei_kick_and_counter()
    assert g.result is not None and g.result.scores == (30, -24, -6)
    obj = json.loads(record_of(g).dumps())
    assert obj["version"] == 3
    old = _as_saved(obj, 2, "    answer no 1 counter 2 for doublers", "    answer no 1 counter 2")
    rep = replay(Record.from_json(old))
    assert rep.ok, rep.error
    assert rep.warnings == ("version 2 record: its round under order peasants "
                            "landlord_if_doubled and scope pair is read as it was then, the "
                            "landlord's answer for the doublers only ('answer … for "
                            "doublers')",)
    assert rep.state.result == g.result and rep.state.rules.name == "hebei"
    # saved again, it is today's hebei record, version 3, 'for doublers' written
    again = json.loads(record_of(rep.state).dumps())
    assert again == obj
    # the same text read as version 3: the counter-kick is the table's, seat 2 owes 12
    rep = replay(Record.from_json({**old, "version": 3}))
    assert rep.error_index is None and rep.error is not None  # the recorded result's
    assert '"scores": {"0": 36, "1": -24, "2": -12}' in rep.error


def test_a_version_2_landlord_choice_without_answer_reached_the_doublers_too() -> None:
    """Version 2 under order peasants landlord_if_doubled and scope pair without an
    ``answer``: the landlord's own choice (from ``choices``) reached the doublers' pairs
    only, as the migration reads it (``answer`` = the choices, ``for doublers``); a round
    under scope table is kept as written."""
    from ddzspec.game.record import migrate_v2_rounds
    from ddzspec.rules import Scope, load_rules_text
    pair, table = (load_rules_text(
        "rules k extends classic\nround double { after talon  order peasants "
        f"landlord_if_doubled  choices no 1 kick 2  scope {s} }}\n", "k.rules")
        for s in ("pair", "table"))
    (rnd,) = migrate_v2_rounds(pair).rounds
    assert [str(c) for c in rnd.answers] == ["no 1", "kick 2"]
    assert rnd.answer_scope is Scope.DOUBLERS
    assert migrate_v2_rounds(table) == table
    g = GameState.new(migrate_v2_rounds(pair), seed=4, first=0).apply(Action.bid(0, 3))
    for a in (Action.double(1, 2), Action.double(2, 1), Action.double(0, 2)):
        g = g.apply(a)
    # seat 1: kick x2 and the landlord's x2 = 4; seat 2 did not kick: x1
    assert (g.pair_multiplier(1), g.pair_multiplier(2)) == (4, 1)


def test_a_record_without_rounds_stays_version_2() -> None:
    obj = json.loads(record_of(self_play("classic", 3)).dumps())
    assert obj["version"] == 2 and replay(Record.from_json(obj)).ok
