"""A record replays anywhere, exactly: it carries the resolved rules with their
sha256 and every start option; replay refuses rules it cannot reproduce exactly; version 1
records are read only when a built-in file checks by hash."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cards import N_RANKS, Cards
from ddzspec.game import Action, GameState
from ddzspec.game.record import (
    Record,
    RecordError,
    record_of,
    record_rules,
    replay,
    resume,
)
from ddzspec.rules import Rules, load_rules, resolved_text

#: Every built-in variant a deal can be played under (duel-literal has ambiguous moves, so its
#: deals are refused up front: tests/rules/test_flagged_rules_refused.py).
VARIANTS = ("classic", "kawu", "duel")

HOUSE = ('rules house "house rules" extends classic\n'
         "scoring { base bid  double bomb rocket  settle per_peasant }\n")
OTHER_HOUSE = ('rules house "another house" extends classic\n'
               "scoring { base 1  double bomb  settle per_peasant }\n")


def roundtrip(g: GameState) -> Record:
    """Through the JSON text a file would hold."""
    return Record.from_json(json.loads(record_of(g).dumps()))


# ----------------------------------------------------------------------------- start options

def test_a_forced_first_bidder_round_trips() -> None:
    """The issue's example: ``GameState.new(rules, seed=5, first=0)`` was saved as
    ``{"seed": 5}`` and its replay failed at action 0."""
    rules = load_rules("classic")
    g = GameState.new(rules, seed=5, first=0)
    assert GameState.new(rules, seed=5).first != 0  # the shuffle alone draws another seat
    g = g.apply(Action.bid(0, 1))
    obj = record_of(g).to_json()
    assert obj["deal"] == {"seed": 5, "first": 0}
    rep = replay(Record.from_json(obj))
    assert rep.ok, rep.error
    assert rep.state == g and rep.state.first == 0 and rep.state.high_seat == 0


def _explicit_deal(rules: Rules, rng: random.Random) -> tuple[list[Cards], Cards]:
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
    rng.shuffle(deck)
    n, d = rules.deal.hand, rules.deal

    def cards(idx: list[int]) -> Cards:
        counts = [0] * N_RANKS
        for i in idx:
            counts[i] += 1
        return Cards(tuple(counts))
    hands = [cards(deck[k * n:(k + 1) * n]) for k in range(d.players)]
    return hands, cards(deck[d.players * n:d.players * n + d.talon])


@pytest.mark.parametrize("name", VARIANTS)
def test_every_start_option_round_trips_mid_deal_and_finished(name: str) -> None:
    """Random deals built with every option of GameState.new (seed: none, an int or a string;
    first: none or forced; or explicit hands and talon, with or without a seed), played by
    random legal actions (all-pass redeals included) and saved mid-deal or finished: the
    replay gives an equal state."""
    rules = load_rules(name)
    seeds = st.one_of(st.none(), st.integers(-2**70, 2**70),
                      st.text(st.characters(codec="utf-8"), max_size=8))

    @settings(max_examples=40, deadline=None)
    @given(seeds, st.one_of(st.none(), st.integers(0, rules.deal.players - 1)),
           st.booleans(), st.integers(0, 10**6), st.one_of(st.none(), st.integers(0, 40)))
    def check(seed: int | str | None, first: int | None, explicit: bool, salt: int,
              stop: int | None) -> None:
        rng = random.Random(salt)
        if explicit:
            hands, talon = _explicit_deal(rules, rng)
            g = GameState.new(rules, seed=seed, hands=hands, talon=talon, first=first)
        else:
            g = GameState.new(rules, seed=seed, first=first)
        if first is not None:
            assert g.first == first
        k = 0
        while not g.over and (stop is None or k < stop):
            g = g.apply(rng.choice(g.legal_actions()))
            k += 1
        rec = roundtrip(g)
        rep = replay(rec)
        assert rep.ok, rep.error
        assert rep.state == g
        assert rep.initial.start == g.start
        assert (rep.state.result is None) == (stop is not None and not g.over)
        if not g.over:
            assert rep.state.legal_actions() == g.legal_actions()
    check()


def test_bad_seeds_are_refused_before_they_reach_a_record() -> None:
    from ddzspec.errors import GameError
    rules = load_rules("classic")
    for seed in (True, 1.5, b"x", "\ud800", 10 ** 5000):
        with pytest.raises(GameError, match="seed"):
            GameState.new(rules, seed=seed)  # type: ignore[arg-type]


def test_deal_fields_are_checked() -> None:
    obj = record_of(GameState.new(load_rules("classic"), seed=1)).to_json()
    for deal, message in (({"seed": 1, "frist": 0}, 'unknown field "frist"'),
                          ({"seed": 1, "first": True},
                           '"first" must be an integer or null, not true'),
                          ({"seed": 1, "talon": "2BR"}, "without \"hands\"")):
        obj["deal"] = deal
        with pytest.raises(RecordError, match=message):
            Record.from_json(obj)


# ----------------------------------------------------------------------------- the rules

def test_record_carries_the_resolved_rules_with_their_sha256() -> None:
    rules = load_rules("kawu", without=("trio_pair",))
    obj = record_of(GameState.new(rules, seed=3)).to_json()
    text = "".join(line + "\n" for line in obj["rules"]["text"])
    assert obj["version"] == 2
    assert text == resolved_text(rules) and "extends" not in text
    assert obj["rules"]["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert obj["rules"]["without"] == ["trio_pair"] and obj["rules"]["name"] == "kawu"
    # replayed under the built-in file, since it resolves to the same text
    back = record_rules(Record.from_json(obj))
    assert back == rules and back.path == rules.path


def test_house_rules_replay_on_another_machine(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    """The issue's example: ``play --rules house.rules --save rec.json && replay rec.json``
    failed (``no rules file 'house'``); from a folder holding another ``house.rules``, replay
    used that file with a mere warning. Now the record replays under its own rules, and the
    other file is used only when asked for — and then refused."""
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (here / "house.rules").write_text(HOUSE)
    monkeypatch.chdir(here)
    code, played, _ = cli("play", "--rules", "house.rules", "--seed", "3", "--save", "rec.json")
    assert code == 0
    (here / "house.rules").unlink()  # "another machine": the file is gone
    code, out, err = cli("replay", "rec.json")
    assert code == 0 and err == ""
    assert out.splitlines()[-3:] == played.splitlines()[-3:]  # same result and score lines
    (there / "house.rules").write_text(OTHER_HOUSE)
    (there / "rec.json").write_text((here / "rec.json").read_text())
    monkeypatch.chdir(there)
    code, out2, err = cli("replay", "rec.json")
    assert code == 0 and out2 == out and err == ""  # the other house.rules is never consulted
    code, _, err = cli("replay", "rec.json", "--rules", "house.rules")
    assert code == 2
    assert "are not the rules the record was played under" in err
    assert "first difference at line 1" in err and "another house" in err
    (there / "same.rules").write_text(HOUSE)
    code, out3, _ = cli("replay", "rec.json", "--rules", "same.rules")
    assert code == 0 and out3 == out


def test_altered_rules_text_is_refused(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "r.json"
    cli("play", "--rules", "duel", "--seed", "2", "--save", str(f))
    rec = json.loads(f.read_text())
    i = rec["rules"]["text"].index("    base 1")
    rec["rules"]["text"][i] = "    base 2"
    f.write_text(json.dumps(rec))
    code, _, err = cli("replay", str(f))
    assert code == 2 and "do not match their sha256" in err and "altered" in err
    # a consistent forgery (text and sha256 changed together) replays under its own rules,
    # never under the built-in duel: the built-in's text differs
    text = "".join(x + "\n" for x in rec["rules"]["text"])
    rec["rules"]["sha256"] = hashlib.sha256(text.encode()).hexdigest()
    forged = Record.from_json(rec)
    rules = record_rules(forged)
    assert rules.scoring.base == 2 and rules.path.startswith("<rules of the record")
    assert not replay(forged).ok  # the recorded result (base 1) no longer matches
    with pytest.raises(RecordError, match="not the rules the record was played under"):
        record_rules(forged, load_rules("duel"))


def test_replay_rules_options_must_agree_with_a_builtin_record(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "r.json"
    cli("play", "--rules", "kawu", "--without", "trio_pair", "--seed", "4", "--save", str(f))
    assert cli("replay", str(f))[0] == 0
    assert cli("replay", str(f), "--without", "trio_pair")[0] == 0
    assert cli("replay", str(f), "--rules", "kawu", "--without", "trio_pair")[0] == 0
    for args in (["--rules", "kawu"], ["--rules", "classic", "--without", "trio_pair"],
                 ["--without", "bomb"]):
        code, _, err = cli("replay", str(f), *args)
        assert code == 2 and "are not the rules the record was played under" in err, args
    code, _, err = cli("replay", str(f), "--without", "dance")
    assert code == 2 and "--without dance: no such shape" in err


# ----------------------------------------------------------------------------- version 1

def _v1(g: GameState, name: str | None = None, sha: str | None = None) -> dict[str, object]:
    """The version 1 form of ``g``'s record, as ddzspec wrote it before records carried their
    rules: the rules file's bytes hashed."""
    obj = record_of(g).to_json()
    rules = g.rules
    file_sha = hashlib.sha256(Path(rules.path).read_bytes()).hexdigest()
    obj["version"] = 1
    obj["rules"] = {"name": name or rules.name, "sha256": file_sha if sha is None else sha,
                    "digest": rules.digest}
    return obj


def test_version_1_records_of_a_builtin_are_read_when_the_hash_checks(tmp_path: Path,
                                                                      cli: Any) -> None:
    g = GameState.new(load_rules("duel"), seed=6)
    rng = random.Random(6)
    while not g.over:
        g = g.apply(rng.choice(g.legal_actions()))
    rep = replay(Record.from_json(_v1(g)))
    assert rep.ok and rep.state == g and "version 1 record" in rep.warnings[0]
    f = tmp_path / "v1.json"
    f.write_text(json.dumps(_v1(g)))
    code, _, err = cli("replay", str(f))
    assert code == 0 and "version 1 record" in err


def test_version_1_records_that_cannot_be_checked_are_refused() -> None:
    g = GameState.new(load_rules("classic"), seed=6)
    cases = [(_v1(g, name="house"), "not built into ddzspec"),
             (_v1(g, sha="ab" * 32), "the rules file differs from the one recorded"),
             (_v1(g, sha=""), "cannot be checked")]
    for obj, message in cases:
        with pytest.raises(RecordError, match=message):
            replay(Record.from_json(obj))
    # played without a shape: the digest tells, and the same --without replays it
    gw = GameState.new(load_rules("classic", without=("trio_pair",)), seed=6)
    rec = Record.from_json(_v1(gw))
    with pytest.raises(RecordError, match="Give the same --without"):
        replay(rec)
    assert replay(rec, load_rules("classic", without=("trio_pair",))).state == gw
    with pytest.raises(RecordError, match="not the rules the record was played under"):
        replay(rec, load_rules("kawu", without=("trio_pair",)))


def test_resume_of_a_version_2_record(tmp_path: Path) -> None:
    from ddzspec.game.record import load, save
    g = GameState.new(load_rules("classic"), seed="a string seed", first=2)
    g = g.apply(Action.bid(2, 1))
    f = tmp_path / "r.json"
    save(g, f)
    assert json.loads(f.read_text())["deal"] == {"seed": "a string seed", "first": 2}
    assert resume(load(f)) == g


def test_recorded_rules_never_reach_outside_the_record(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A (forged) record whose rules text extends another file is refused, even when that file
    lies in the working folder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "house.rules").write_text(HOUSE)
    obj = record_of(GameState.new(load_rules("classic"), seed=1)).to_json()
    text = 'rules mine "mine" extends house\n'
    obj["rules"].update(name="mine", text=text.splitlines(), digest="",
                        sha256=hashlib.sha256(text.encode()).hexdigest())
    with pytest.raises(RecordError, match=r"1:27: extends house: refused: .*no other file is read"):
        replay(Record.from_json(obj))


# found by a fresh tester
def test_record_with_null_hash_or_altered_rules_is_refused(tmp_path: Path, cli: Any) -> None:
    """A record whose rules cannot be checked exactly is refused (exit 2), never replayed with
    a warning (a record replays exactly, or not at all). The carried text is the rules: the
    digest is informational (it is ddzspec's cache key and may change between versions), so a
    changed digest alone replays."""
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
