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
from ddzspec.player import HeuristicPlayer
from ddzspec.rules import load_rules

VARIANTS = ("classic", "kawu", "duel")


def self_play(name: str, seed: int, stop: int | None = None) -> GameState:
    rules = load_rules(name)
    players = [HeuristicPlayer(s) for s in range(rules.deal.players)]
    g = GameState.new(rules, seed=seed)
    k = 0
    while not g.over and (stop is None or k < stop):
        g = g.apply(players[g.turn].choose(g))  # type: ignore[index]
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
    players = [HeuristicPlayer(s) for s in range(3)]
    g, steps = g0, []
    while not g.over:
        a = players[g.turn].choose(g)  # type: ignore[index]
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
