"""Records: save, resume (seed 003's autosave), replay, transcripts and the game CLI."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cli import main
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


def test_replay_detects_a_tampered_result() -> None:
    g = self_play("duel", 5)
    obj = record_of(g).to_json()
    obj["result"]["scores"] = {"0": 100, "1": -100}
    rep = replay(Record.from_json(obj))
    assert not rep.ok and rep.error_index == len(obj["actions"])


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


# ----------------------------------------------------------------------------- CLI

def test_cli_play_json_record_and_replay(tmp_path: Path) -> None:
    runner = CliRunner()
    for name in VARIANTS:
        res = runner.invoke(main, ["play", "--rules", name, "--seed", "3", "--json"])
        assert res.exit_code == 0, res.output
        rec = json.loads(res.output)
        r = rec["result"]
        assert r["winner"] in ("landlord", "peasants")
        assert sum(r["scores"].values()) == 0
        assert isinstance(r["multiplier"], int)
        assert all({"kind", "times"} <= set(f) for f in r["factors"])
        f = tmp_path / f"{name}.json"
        f.write_text(res.output)
        res = runner.invoke(main, ["replay", str(f)])
        assert res.exit_code == 0, res.output
        assert "result:" in res.output and "points:" in res.output
        res = runner.invoke(main, ["replay", str(f), "--json"])
        assert json.loads(res.output)["valid"] is True
    rec["actions"][3] = {"seat": 9, "pass": True}
    f.write_text(json.dumps(rec))
    res = runner.invoke(main, ["replay", str(f)])
    assert res.exit_code == 1
    assert "invalid action 3" in res.output
    f.write_text("{")
    res = runner.invoke(main, ["replay", str(f)])
    assert res.exit_code == 2


def test_cli_play_transcript_and_games() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["play", "--rules", "kawu", "--seed", "7"])
    assert res.exit_code == 0, res.output
    assert "bidding" in res.output and "points:" in res.output
    res = runner.invoke(main, ["play", "--rules", "duel", "--games", "5", "--json"])
    assert res.exit_code == 0, res.output
    agg = json.loads(res.output)
    assert agg["games"] == 5 and sum(agg["wins"].values()) == 5
    assert abs(sum(agg["average_points"].values())) < 1e-9
    res = runner.invoke(main, ["play", "--games", "3", "--seed", "1"])
    assert res.exit_code == 0 and "wins: landlord" in res.output


def test_random_legal_actions_replay(tmp_path: Path) -> None:
    rules = load_rules("duel")
    rng = random.Random(3)
    g = GameState.new(rules, seed=77)
    while not g.over:
        g = g.apply(rng.choice(g.legal_actions()))
    save(g, tmp_path / "r.json")
    assert resume(load(tmp_path / "r.json")) == g


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
    from ddzspec.rules import load as load_mod
    (tmp_path / "secret").write_text("root-token-1234 is the first word\n")
    (tmp_path / "secret.rules").write_text("root-token-1234 is the first word\n")
    ext = target.replace("{tmp}", str(tmp_path))
    obj = _record_whose_rules_say(f"rules classic extends {ext}")
    read: list[Path] = []
    real = load_mod._read_bytes
    monkeypatch.setattr(load_mod, "_read_bytes", lambda p: read.append(p) or real(p))
    with pytest.raises(RecordError) as e:
        replay(Record.from_json(obj))
    # one answer whether the file exists or not (no oracle), never its content
    assert str(e.value) == (
        "the record's rules cannot be loaded: <rules of the record: classic>:1:23: extends "
        f"{ext}: refused: these rules must stand alone (as a record carries them: resolved, "
        "with no extends), so no other file is read")
    assert read == []


def test_replay_cli_refuses_a_record_extending_a_file_as_bad_input(tmp_path: Path) -> None:
    f = tmp_path / "evil.json"
    f.write_text(json.dumps(_record_whose_rules_say('rules classic extends "/etc/passwd"')))
    r = CliRunner().invoke(main, ["replay", str(f)])
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
