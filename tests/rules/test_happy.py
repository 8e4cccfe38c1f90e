"""The built-ins beyond the seeds: ``happy`` (Happy Dou Dizhu, the QQ rules: call and rob with
the caller's last word, show cards before the deal x5 and after it x2, the first seat to show
bids first, double x2 / super double x4 per pair, the multiplier capped at 64; sources cited
in rules/happy.rules) and ``hebei`` (classic with kick
and counter-kick, 踢 / 反踢; sources cited in rules/hebei.rules)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from ddzspec.check import check_rules
from ddzspec.diff import spec_differences
from ddzspec.game import Action, GameState, Phase
from ddzspec.game.record import Record, record_of, replay
from ddzspec.rules import (
    RobOrder,
    RoundOrder,
    RoundStage,
    Scope,
    builtin_rules,
    load_rules,
    load_rules_text,
    resolved_text,
)

HAPPY = load_rules("happy")
HEBEI = load_rules("hebei")


def test_the_built_ins_are_the_seeds_variants_plus_happy_hebei_laizi_and_tiandi() -> None:
    assert builtin_rules() == ["classic", "duel", "duel-literal", "happy", "hebei", "kawu",
                               "laizi", "tiandi"]
    assert HAPPY.parents == ("classic",) and HEBEI.parents == ("classic",)


def test_happy_loads_with_the_declared_values() -> None:
    assert HAPPY.name == "happy"
    assert HAPPY.bidding.rob_order is RobOrder.EACH_ONCE_CALLER_LAST
    assert HAPPY.bidding.first_to_show_speaks_first
    assert [(r.kind, r.stage) for r in HAPPY.rounds] == [
        ("show", RoundStage.BEFORE_DEAL), ("show", RoundStage.DEAL),
        ("double", RoundStage.TALON)]
    blind_show, show, double = HAPPY.rounds
    assert [(c.name, c.times) for c in blind_show.choices] == [("no", 1), ("show", 5)]
    assert [(c.name, c.times) for c in show.choices] == [("no", 1), ("show", 2)]
    assert show.order is RoundOrder.ALL and show.scope is Scope.TABLE
    assert blind_show.order is RoundOrder.ALL and blind_show.scope is Scope.TABLE
    assert [(c.name, c.times) for c in double.choices] == [("no", 1), ("double", 2),
                                                           ("super", 4)]
    assert double.order is RoundOrder.LANDLORD_PEASANTS and double.scope is Scope.PAIR
    assert "cap multiplier 64" in HAPPY.scoring.clauses()
    assert "rob" in HAPPY.scoring.double
    # the cards, shapes and restrictions are classic's: the same legal moves, one reading each
    classic = load_rules("classic")
    assert HAPPY.shapes == classic.shapes and HAPPY.restrictions == classic.restrictions
    assert len(check_rules(HAPPY)) == len(check_rules(classic)) == 24639
    assert len(check_rules(HEBEI)) == 24639


def test_hebei_loads_with_kick_and_counter_kick() -> None:
    (kick,) = HEBEI.rounds
    assert kick.kind == "double" and kick.order is RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED
    assert [c.name for c in kick.choices_of(landlord=False)] == ["no", "kick"]
    assert [c.name for c in kick.choices_of(landlord=True)] == ["no", "counter"]
    assert kick.scope is Scope.PAIR and kick.answer_scope is Scope.DOUBLERS
    assert HEBEI.bidding == load_rules("classic").bidding  # classic's auction


def test_both_round_trip_through_rules_show() -> None:
    for r in (HAPPY, HEBEI):
        again = load_rules_text(resolved_text(r), "shown.rules")
        assert replace(again, path=r.path, parents=r.parents) == r
        assert again.digest == r.digest


def test_diff_says_the_bidding_rounds_and_scoring_in_words() -> None:
    diffs = {d.what: (d.a, d.b) for d in spec_differences(load_rules("classic"), HAPPY)}
    assert list(diffs) == ["bidding", "scoring", "round show", "round double"]
    assert diffs["bidding"][1] == ("call_rob, first_speaker random, first_to_show speaks_first, "
                                   "rob_order each_once_caller_last")
    assert diffs["round show"][1] == ("before deal, order all, choices no 1 show 5, scope table; "
                                      "after deal, order all, choices no 1 show 2, scope table")
    assert diffs["scoring"][1] == ("base 1, double rob bomb rocket spring anti_spring, "
                                   "cap multiplier 64")
    assert diffs["round double"][1] == ("after talon, order landlord peasants, choices no 1 "
                                        "double 2 super 4, scope pair")


def _greedy(g: GameState) -> Action:
    """Show, call, rob, super double whenever offered; in play the first legal action."""
    acts = g.legal_actions()
    if g.phase is Phase.PLAY:
        return acts[0]
    return max(acts, key=lambda a: int(a.value))  # a call or a rob (True), the largest factor


def test_a_seeded_happy_deal_plays_to_the_end_and_replays() -> None:
    g = GameState.new(HAPPY, seed=11, first=0)
    assert g.phase is Phase.SHOWING and g.turn == 0
    while not g.over:
        g = g.apply(_greedy(g))
    assert g.result is not None and sum(g.result.scores) == 0
    # every seat shows before the deal (x5 each; none is asked again after it); seat 0, the
    # first to show, calls, seats 1 and 2 rob, seat 0 has the last word and robs (x2 each);
    # every seat super-doubles (x4), the peasants each for its own pair
    assert [(f.kind, f.times, f.seat, f.pair) for f in g.factors] == [
        ("show", 5, 0, None), ("show", 5, 1, None), ("show", 5, 2, None),
        ("rob", 2, 1, None), ("rob", 2, 2, None), ("rob", 2, 0, None),
        ("super", 4, 0, None), ("super", 4, 1, 1), ("super", 4, 2, 2)]
    # the table: 5^3 x 2^3 x 4 = 125 x 8 x 4 = 4000; each pair: 4000 x 4 = 16000; both capped
    # at 64, so each peasant (they won) gets base 1 x 64 and the landlord pays 2 x 64
    res = g.result.to_json()
    assert (g.landlord, res["winner"], res["uncapped"], res["multiplier"]) == (
        0, "peasants", 4000, 64)
    assert res["pairs"] == [{"seat": 1, "multiplier": 64, "uncapped": 16000},
                            {"seat": 2, "multiplier": 64, "uncapped": 16000}]
    assert res["scores"] == {"0": -128, "1": 64, "2": 64}
    r = replay(Record.from_json(json.loads(record_of(g).dumps())))
    assert r.ok and r.state == g


def test_the_hebei_kick_round_asks_the_landlord_only_after_a_kick() -> None:
    """Hand-worked: seat 0 bids 3 (classic's auction ends at 3) and takes the talon; the
    peasants are asked in turn order (1 then 2). Neither kicks: play starts, no factor. Seat 1
    kicks: the landlord may counter-kick; both doublings on seat 1's pair: 2 x 2 = 4; seat 2
    did not kick, and the counter-kick answers the kicker only: x1 (rules/hebei.rules: "for
    each kicking peasant's pair"; a tester found the counter on seat 2's pair too)."""
    g = GameState.new(HEBEI, seed=4, first=0).apply(Action.bid(0, 3))
    assert g.phase is Phase.DOUBLING and g.landlord == 0 and g.turn == 1
    assert [a.value for a in g.legal_actions()] == [1, 2]
    quiet = g.apply(Action.double(1, 1))
    assert quiet.turn == 2
    quiet = quiet.apply(Action.double(2, 1))
    assert quiet.phase is Phase.PLAY and quiet.factors == () and quiet.turn == 0
    kicked = g.apply(Action.double(1, 2)).apply(Action.double(2, 1))
    assert kicked.phase is Phase.DOUBLING and kicked.turn == 0
    done = kicked.apply(Action.double(0, 2))
    assert [(f.kind, f.seat, f.pair) for f in done.factors] == [("kick", 1, 1),
                                                               ("counter", 0, 1)]
    assert (done.pair_multiplier(1), done.pair_multiplier(2)) == (4, 1)
    assert done.phase is Phase.PLAY


def test_the_cli_checks_plays_and_shows_them(cli: Callable[..., tuple[int, str, str]],
                                             tmp_path: Path) -> None:
    for name in ("happy", "hebei"):
        code, out, _ = cli("check", "--rules", name)
        assert code == 0 and "OK: 24639 legal moves, each with exactly one reading." in out
        code, out, _ = cli("play", "--rules", name, "--games", "3", "--seed", "2")
        assert code == 0, out
    save = tmp_path / "happy.json"
    code, out, _ = cli("play", "--rules", "happy", "--seed", "4", "--save", str(save))
    assert code == 0 and "show round after the deal" in out
    code, again, _ = cli("replay", str(save))
    assert code == 0 and again.splitlines()[-1] == out.splitlines()[-1]
    code, shown, _ = cli("rules", "show", "happy")
    f = tmp_path / "shown.rules"
    f.write_text(shown, encoding="utf-8")
    assert code == 0 and load_rules(str(f)).digest == HAPPY.digest
