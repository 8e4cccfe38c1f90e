"""The bidding and round declarations of the rules language: ``rob_order`` in ``call_rob`` and
``round double { … }``: they load, ``rules show`` writes them back (a file round-trips), and
bad input is a located error (exit 2 in the CLI, never a traceback)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from ddzspec.errors import RulesError
from ddzspec.rules import (
    RobOrder,
    RoundOrder,
    Scope,
    load_rules,
    load_rules_text,
    resolved_text,
)

QQ_BID = "bidding call_rob { first_speaker random  rob_order each_once_caller_last }\n"
SCORE = "scoring { base 1  double rob bomb  settle per_peasant }\n"


@pytest.mark.parametrize("path", ["examples/qq-bidding.rules", "hebei",
                                  "examples/show-cards.rules", "examples/blind.rules"])
def test_a_round_trips_through_rules_show(path: str) -> None:
    r = load_rules(path)
    again = load_rules_text(resolved_text(r), "shown.rules")
    assert replace(again, path=r.path, parents=r.parents) == r


def test_the_words_loaded() -> None:
    qq, kick = load_rules("examples/qq-bidding.rules"), load_rules("hebei")
    assert qq.bidding.rob_order is RobOrder.EACH_ONCE_CALLER_LAST
    assert "rob_order each_once_caller_last" in qq.bidding.clauses()
    assert [c.times for c in qq.rounds[0].choices] == [1, 2, 4]
    assert qq.rounds[0].scope is Scope.PAIR
    assert kick.rounds[0].order is RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED
    assert [c.name for c in kick.rounds[0].choices_of(landlord=True)] == ["no", "counter"]
    assert ("round double {\n    after talon\n    order peasants landlord_if_doubled\n"
            in resolved_text(kick))
    for name in ("classic", "kawu", "duel", "duel-literal"):
        assert load_rules(name).rounds == ()
        assert "round" not in resolved_text(load_rules(name))


def _load(body: str) -> None:
    load_rules_text("rules x extends classic\n" + body, "x.rules")


@pytest.mark.parametrize("body, message", [
    ("round triple { after talon  order landlord peasants  choices no 1 double 2 }\n",
     r"x.rules:2:1: unknown round 'triple' \(rounds: double, show, blind\)"),
    ("round double { after talon  order landlord landlord  choices no 1 double 2 }\n",
     r"x.rules:2:35: round double: impossible order 'landlord landlord' \(orders: landlord "
     r"peasants, peasants landlord, peasants landlord_if_doubled, landlord, all\)"),
    ("round double { after talon  order landlord peasants  choices no 1 double 0 }\n",
     r"x.rules:2:\d+: round double: choice double 0: a factor is at least 1"),
    ("round double { after bidding  order landlord peasants  choices no 1 double 2 }\n",
     r"x.rules:2:22: round double: after bidding: unknown stage \(stages: before deal, after "
     r"deal, after landlord, after talon\)"),
    ("round show { after deal  order landlord  choices no 1 show 2 }\n",
     r"x.rules:2:32: round show: impossible order 'landlord' after deal \(there is no "
     r"landlord yet: order all\)"),
    ("round show { after deal  order all  choices no 1 show 2  scope pair }\n",
     r"round show: scope pair: a hand is shown to the whole table"),
    ("round double { after talon  order landlord peasants  choices double 2 }\n",
     r"round double: no choice of factor 1"),
    ("round double { after talon  order landlord peasants  choices no 1 bomb 2 }\n",
     r"choice bomb: already a shape or an event"),
    ("round double { after talon  order landlord peasants  choices no 1 x 2 y 2 }\n",
     r"two choices of factor 2"),
    ("round double { after talon  order landlord peasants  choices no 1 x 2  scope seat }\n",
     r"scope seat: unknown \(scopes: table, pair\)"),
    ("round double { after talon  order landlord peasants  choices no 1 x 2  answer no 1 y 2 }"
     "\n", r"'answer' needs order peasants landlord_if_doubled"),
    ("round double { order landlord peasants  choices no 1 x 2 }\n",
     r"round double needs 'after …' or 'before deal'"),
    ("round double { after talon  order landlord peasants  choices no 1 x 2 }\n"
     "round double { after talon  order landlord peasants  choices no 1 x 2 }\n",
     r"x.rules:3:1: round double after talon given twice \(one round of a kind per stage\)"),
    (QQ_BID.replace("}", " max_robs 3 }") + SCORE,
     r"max_robs: rob_order each_once_caller_last bounds the robs itself"),
    ("bidding auction { bids 1 2 3  all_pass redeal first_bidder random  "
     "rob_order each_once_caller_last }\n", r"rob_order is a call_rob clause"),
    ("bidding call_rob { rob_order every_now_and_then }\n",
     r"take_turns or each_once_caller_last"),
    # a blind landlord before there is one, or after the talon is shown (found by a tester)
    ("round blind { after deal  order all  choices no 1 blind 2 }\n",
     r"x.rules:2:21: round blind: the blind landlord takes the landlord without seeing the "
     r"talon: 'after landlord' and 'order landlord'"),
    ("round blind { after talon  order landlord  choices no 1 blind 2 }\n",
     r"x.rules:2:21: round blind: .*'after landlord'"),
    ("round blind { after landlord  order landlord peasants  choices no 1 blind 2 }\n",
     r"x.rules:2:37: round blind: .*'order landlord'"),
    # a stage before the deal, two show rounds, the first to show (issue 25 §1)
    ("round show { before deal  order landlord  choices no 1 show 5 }\n",
     r"x.rules:2:33: round show: impossible order 'landlord' before deal \(there is no "
     r"landlord yet: order all\)"),
    ("round show { before talon  order all  choices no 1 show 5 }\n",
     r"x.rules:2:21: round show: before talon: unknown stage \(stages: before deal, after deal"),
    ("round show { before deal  after deal  order all  choices no 1 show 5 }\n",
     r"x.rules:2:27: round show: a second stage clause \(after deal; a round has one stage\)"),
    ("round show { before deal  order all  choices no 1 show 5 }\n"
     "round show { before deal  order all  choices no 1 show 4 }\n",
     r"x.rules:3:1: round show before deal given twice \(one round of a kind per stage\)"),
    ("bidding auction { bids 1 2 3  all_pass redeal first_bidder random  "
     "first_to_show speaks_first }\n",
     r"x.rules:2:68: first_to_show speaks_first: no show round before the bidding"),
    ("bidding auction { bids 1 2 3  all_pass redeal first_bidder random  "
     "first_to_show speaks_first }\n"
     "round show { after talon  order landlord  choices no 1 show 2 }\n",
     r"x.rules:2:68: first_to_show speaks_first: no show round before the bidding"),
    # the counter-kick's reach is declared on the answer
    ("round double { after talon  order peasants landlord_if_doubled  choices no 1 x 2  "
     "answer no 1 y 2 for pair }\n",
     r"x.rules:2:103: round double: answer … for pair: unknown \(scopes: table, doublers\)"),
    ("round double { after talon  order landlord peasants  choices no 1 x 2  scope doublers }\n",
     r"round double: scope doublers: unknown \(scopes: table, pair\)"),
    # scope pair before the landlord is known: no seat has a pair yet (as on a show round)
    ("round double { after deal  order all  choices no 1 double 2  scope pair }\n",
     r"x.rules:2:68: round double: scope pair after deal: there is no landlord yet, so no "
     r"seat's own settlement with it \(scope table, or the round after landlord or after "
     r"talon\)"),
    ("round double { before deal  order all  choices no 1 double 2  scope pair }\n",
     r"x.rules:2:69: round double: scope pair before deal: there is no landlord yet"),
    # a clause twice in a block is an error at the second, never the last silently winning
    ("round double { after talon  order landlord peasants  order peasants landlord  "
     "choices no 1 x 2 }\n",
     r"x.rules:2:54: round double: order given twice \(each clause once in a block\)"),
    ("round double { after talon  order landlord peasants  choices no 1 x 2  "
     "choices no 1 y 2 }\n",
     r"x.rules:2:72: round double: choices given twice \(each clause once in a block\)"),
    ("round double { after talon  order landlord peasants  choices no 1 x 2  scope pair  "
     "scope table }\n",
     r"x.rules:2:84: round double: scope given twice \(each clause once in a block\)"),
    ("round double { after talon  order peasants landlord_if_doubled  choices no 1 x 2  "
     "answer no 1 y 2  answer no 1 z 2 for doublers }\n",
     r"x.rules:2:100: round double: answer given twice \(each clause once in a block\)"),
    ("bidding auction { bids 1 2 3  all_pass redeal first_bidder random  bids 1 2 }\n",
     r"x.rules:2:68: bidding: bids given twice \(each clause once in a block\)"),
    ("bidding auction { bids 1 2 3  all_pass redeal first_bidder random  "
     "all_pass redeal first_bidder next }\n",
     r"x.rules:2:68: bidding: all_pass given twice"),
    ("bidding call_rob { first_speaker random  max_robs 2  max_robs 3 }\n",
     r"x.rules:2:54: bidding: max_robs given twice"),
    (QQ_BID.replace("}", " rob_order take_turns }") + SCORE,
     r"x.rules:2:\d+: bidding: rob_order given twice"),
    ("bidding call_rob { first_speaker random  first_speaker next  max_robs 2 }\n",
     r"x.rules:2:\d+: bidding: first_speaker given twice"),
    ("deal { players 3  hand 17  talon 3  players 2 }\n",
     r"x.rules:2:37: deal: players given twice \(each clause once in a block\)"),
    ("trick { close_after 2 passes  close_after 1 passes }\n",
     r"x.rules:2:31: trick: close_after given twice"),
    # scoring's one-value clauses (double, factor, cap and talon check their own names)
    ("scoring { base 1  base 2 }\n",
     r"x.rules:2:19: scoring: base given twice \(each clause once in a block\)"),
    ("scoring { settle per_peasant  settle per_peasant }\n",
     r"x.rules:2:\d+: scoring: settle given twice"),
])
def test_bad_input_is_located(body: str, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        _load(body)


def test_the_qq_order_on_the_two_seat_duel_is_refused() -> None:
    """Seed 003: with two seats the robs alternate (take_turns, max_robs)."""
    with pytest.raises(RulesError, match=r"x.rules:2:20: rob_order each_once_caller_last needs "
                       r"three seats or more: with 2 the robs alternate"):
        load_rules_text("rules x extends duel\n"
                        "bidding call_rob { rob_order each_once_caller_last }\n", "x.rules")


def test_the_cli_shows_and_refuses(cli: Callable[..., tuple[int, str, str]],
                                   tmp_path: Path) -> None:
    code, out, _ = cli("rules", "show", "examples/qq-bidding.rules")
    assert code == 0 and "rob_order each_once_caller_last" in out and "round double {" in out
    bad = tmp_path / "bad.rules"
    bad.write_text("rules bad extends classic\nround double { after talon  order landlord "
                   "peasants  choices no 1 double 0 }\n")
    code, _, err = cli("rules", "show", str(bad))
    assert code == 2 and "a factor is at least 1" in err
    bad.write_text("rules bad extends classic\nround double { after deal  order all  "
                   "choices no 1 double 2  scope pair }\n")
    code, out, err = cli("rules", "show", str(bad))
    assert (code, out, err.count("\n")) == (2, "", 1), err
    assert f"{bad}:2:68: round double: scope pair after deal: there is no landlord yet" in err


def test_diff_says_the_bidding_and_round_differences_in_words() -> None:
    from ddzspec.diff import spec_differences
    from ddzspec.learn import diff_words
    classic, qq = load_rules("classic"), load_rules("examples/qq-bidding.rules")
    kick = load_rules("hebei")
    diffs = {d.what: (d.a, d.b) for d in spec_differences(classic, qq)}
    assert list(diffs) == ["bidding", "scoring", "round double"]
    assert diffs["round double"] == ("-", "after talon, order landlord peasants, choices no 1 "
                                     "double 2 super 4, scope pair")
    words = diff_words(qq, kick)
    assert any(w.startswith("bidding: qq-bidding has call and rob") and "one last word" in w
               for w in words)
    assert ("round double: qq-bidding has after talon, order landlord peasants, choices no 1 "
            "double 2 super 4, scope pair; hebei has after talon, order peasants "
            "landlord_if_doubled, choices no 1 kick 2, answer no 1 counter 2 for doublers, "
            "scope pair."
            in words)
    assert spec_differences(classic, load_rules("kawu"))[-1].what == "bidding"


def test_play_and_replay_on_the_command_line(cli: Callable[..., tuple[int, str, str]],
                                              tmp_path: Path) -> None:
    save = tmp_path / "deal.json"
    code, out, _ = cli("play", "--rules", "examples/show-cards.rules", "--seed", "4",
                       "--save", str(save))
    assert code == 0, out
    assert "show round after the deal (all; no x1, show x2; scope table):" in out
    assert "double round after the talon (landlord peasants;" in out
    code, again, _ = cli("replay", str(save))
    assert code == 0 and "show round after the deal" in again
    assert again.splitlines()[-1] == out.splitlines()[-1]  # the same points


def test_rounds_load_in_the_order_a_deal_meets_them_and_round_trip() -> None:
    """Written after talon, then after deal, then before deal: loaded (and written back by
    ``rules show``) before deal, after deal, after talon; the file round-trips."""
    r = load_rules_text(
        "rules x extends classic\n"
        "round double { after talon  order landlord peasants  choices no 1 double 2 }\n"
        "round show { after deal  order all  choices no 1 show 2 }\n"
        "round show { before deal  order all  choices no 1 show 5 }\n", "x.rules")
    assert [(x.kind, x.stage.clause) for x in r.rounds] == [
        ("show", "before deal"), ("show", "after deal"), ("double", "after talon")]
    text = resolved_text(r)
    assert text.index("before deal") < text.index("after deal") < text.index("after talon")
    again = load_rules_text(text, "shown.rules")
    assert replace(again, path=r.path, parents=r.parents) == r


def test_a_files_rounds_of_a_kind_replace_every_round_of_that_kind_of_its_parent(
        tmp_path: Path) -> None:
    """happy has show rounds before and after the deal: a file extending it that declares
    one show round (after talon) keeps that one only, and happy's doubling round (written
    first: in one stage a parent's rounds come first)."""
    f = tmp_path / "x.rules"
    f.write_text("rules x extends happy\n"
                 "bidding call_rob { first_speaker random  rob_order each_once_caller_last }\n"
                 "round show { after talon  order landlord  choices no 1 show 2 }\n")
    r = load_rules(str(f))
    assert [(x.kind, x.stage.clause) for x in r.rounds] == [("double", "after talon"),
                                                           ("show", "after talon")]


def test_first_to_show_and_the_answers_reach_are_written_back() -> None:
    happy, hebei = load_rules("happy"), load_rules("hebei")
    assert "first_to_show speaks_first" in happy.bidding.clauses()
    assert "    answer no 1 counter 2 for doublers\n" in resolved_text(hebei)
    assert hebei.rounds[0].answer_scope is Scope.DOUBLERS
