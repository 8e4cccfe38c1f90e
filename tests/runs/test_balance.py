"""``ddzspec balance`` and ddzspec/balance.py: per-deal facts, figures with intervals, paired
differences over duplicate deals, the plot."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from ddzspec import load_rules
from ddzspec._resources import data_dir
from ddzspec.balance import (
    FIGURES,
    compare,
    deal_facts,
    deal_seed,
    play_balance_deal,
    same_deals,
)
from ddzspec.cards import Cards
from ddzspec.game.enums import ActionKind
from ddzspec.players.arena import play_deal
from ddzspec.players.levels import player_for
from ddzspec.rules import load_rules_text
from ddzspec.stats import Z95


@pytest.mark.parametrize("k", range(6))
def test_deal_facts_agree_with_the_cards_played(k: int) -> None:
    """Bombs, rockets and length counted again from the cards of the log (four of a rank,
    both jokers), the points from the scores: the facts derive the same."""
    rules = load_rules("classic")
    players = [player_for(2, f"t:{k}:{s}") for s in range(3)]
    st = play_deal(rules, players, deal_seed(9, k))
    facts = deal_facts(st)
    res = st.result
    assert res is not None
    plays = [a for a in st.log if a.kind in (ActionKind.PLAY, ActionKind.PASS)]
    cards = [a.cards for a in plays if a.kind is ActionKind.PLAY]
    assert facts["length"] == len(plays)
    assert facts["rockets"] == sum(c == Cards.parse("BR") for c in cards if c is not None)
    assert facts["bombs"] == sum(c is not None and len(c) == 4 and 4 in c.counts for c in cards)
    assert facts["multiplier"] == res.multiplier == 2 ** (facts["bombs"] + facts["rockets"]
                                                           + facts["spring"]
                                                           + facts["anti_spring"])
    assert facts["landlord_points"] == -2 * facts["peasant_points"]
    assert facts["landlord_won"] == (facts["landlord_points"] > 0)
    assert facts["bid"] == res.base and facts["redeals"] == st.attempt
    assert play_balance_deal(rules, (2, 2, 2), 9, k) == facts  # the same player seeds


@pytest.mark.parametrize("k", [7, 10])
def test_a_rocket_is_counted_whatever_the_rules_file_calls_it(k: int) -> None:
    """A rocket is the top tier of the precedence, not a name: classic with its rocket called
    king_bomb gives the same facts, one rocket in these deals."""
    text = (data_dir("rules") / "classic.rules").read_text().replace("rocket", "king_bomb")
    renamed = load_rules_text(text)
    facts = []
    for rules in (load_rules("classic"), renamed):
        players = [player_for(2, f"t:{k}:{s}") for s in range(3)]
        facts.append(deal_facts(play_deal(rules, players, deal_seed(9, k))))
    assert facts[0]["rockets"] == 1 and facts[1] == facts[0]


def test_a_paired_difference_worked_by_hand() -> None:
    base = {"landlord_won": True, "spring": False, "anti_spring": False, "bombs": 0,
            "rockets": 0, "multiplier": 1, "redeals": 0, "length": 30, "peasant_points": 0}
    a = [{**base, "landlord_points": p} for p in (2, -4, 6)]
    b = [{**base, "landlord_points": p} for p in (4, -2, 6)]
    d = compare("A", a, "B", b, paired=True).figures["landlord_points"]
    # per-deal differences 2, 2, 0: mean 4/3, sample sd sqrt(4/3), half 1.96 sd / sqrt 3
    assert d.n == 3 and d.mean == pytest.approx(4 / 3)
    assert d.half == pytest.approx(Z95 * math.sqrt(4 / 3) / math.sqrt(3))
    assert d.low == pytest.approx(4 / 3 - Z95 * 2 / 3)  # 0.027: just above zero
    assert d.significant
    # unpaired, the spread of the cards (2, -4, 6) swamps the same mean difference
    unpaired = compare("A", a, "B", b, paired=False).figures["landlord_points"]
    assert unpaired.mean == pytest.approx(4 / 3) and not unpaired.significant


def test_same_deals_follows_the_deck() -> None:
    classic, kawu, duel = (load_rules(n) for n in ("classic", "kawu", "duel"))
    assert same_deals(classic, kawu) and not same_deals(classic, duel)


def test_classic_vs_kawu_gives_every_figure_with_its_interval(tmp_path: Path, cli: Any) -> None:
    png, svg = tmp_path / "b.png", tmp_path / "b.svg"
    code, out, err = cli("balance", "classic", "kawu", "--games", "6", "--workers", "1",
                          "--json", "--plot", str(png))
    assert code == 0, err
    got = json.loads(out)
    assert [v["rules"] for v in got["variants"]] == ["classic", "kawu"]
    for v in got["variants"]:
        assert v["deals"] == 6 and v["levels"] == [2, 2, 2]
        assert set(v["figures"]) == set(FIGURES)
        for e in v["figures"].values():
            assert e["n"] == 6 and e["low"] is not None
            assert e["low"] <= e["mean"] + 1e-12 and e["mean"] <= e["high"] + 1e-12
        assert sum(e["mean"] for e in v["bids"].values()) == pytest.approx(1)
        assert 0 <= v["figures"]["landlord_win_rate"]["mean"] <= 1
    (diff,) = got["differences"]
    assert (diff["a"], diff["b"], diff["paired"]) == ("classic", "kawu", True)
    assert set(diff["figures"]) == set(FIGURES)
    assert all(isinstance(e["significant"], bool) for e in diff["figures"].values())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, text, _ = cli("balance", "classic", "duel", "--games", "3", "--workers", "1",
                         "--plot", str(svg))
    assert code == 0 and "<svg" in svg.read_text()
    for label, _ in FIGURES.values():
        assert label in text
    assert "duel - classic (independent samples):" in text


def test_balance_refuses_bad_input(tmp_path: Path, cli: Any) -> None:
    code, _, err = cli("balance", "classic", "--games", "2", "--plot", str(tmp_path / "x.pdf"))
    assert code == 2 and "a .png or .svg file" in err
    code, _, err = cli("balance", "classic", "nope", "--games", "2")
    assert code == 2 and "no rules file 'nope'" in err
    code, _, err = cli("balance", "classic", "--levels", "4", "--games", "2")
    assert code == 2 and "--levels" in err


# found by tester 3
def test_balance_rates_at_zero_keep_a_width() -> None:
    from ddzspec.balance import _fmt
    from ddzspec.stats import RATE, estimate
    assert _fmt("spring_rate", estimate([0.0] * 30, RATE)) == "0.0% [0.0, 11.4]"


# found by tester 3
def test_balance_plays_each_variant_with_the_first_levels_for_its_seats(cli: Any) -> None:
    code, out, err = cli("balance", "classic", "duel", "--levels", "3,2,1", "--games", "1",
                         "--workers", "1", "--budget", "0.01")
    assert code == 0, err
    assert "classic: 1 deals, levels 3,2,1" in out and "duel: 1 deals, levels 3,2," in out


# ------------------------------------------------------- issue 25 §4: robs, rounds, cap, stake

def _happy_deal(k: int, players: Any = None) -> Any:
    players = players or [player_for(2, f"t:{k}:{s}") for s in range(3)]
    return play_deal(load_rules("happy"), players, deal_seed(9, k))


def test_happy_facts_worked_by_hand_from_the_actions_of_a_seeded_deal() -> None:
    """Happy deal 58 of seed 9, level 2 everywhere: its calls, robs and round choices read
    from the log (pinned here), and the rates and stake worked from them by hand."""
    st = _happy_deal(58)
    res = st.result
    assert res is not None and st.attempt == 0
    said = [(a.kind.value, a.seat, a.value) for a in st.log
            if a.kind in (ActionKind.CALL, ActionKind.ROB, ActionKind.SHOW, ActionKind.DOUBLE)]
    # before the deal no computer shows (x1: a hand not seen); after it seats 0 and 2 do;
    # seat 0, the first to show, calls first
    assert said == [("show", 0, 1), ("show", 1, 1), ("show", 2, 1),
                    ("show", 0, 2), ("show", 1, 1), ("show", 2, 2),
                    ("call", 0, 1), ("rob", 1, 0), ("rob", 2, 1), ("rob", 0, 0),
                    ("double", 2, 4), ("double", 0, 2), ("double", 1, 1)]
    assert res.landlord == 2  # seat 2 robbed and seat 0, the caller, did not rob back
    # by hand: one rob; landlord 1 decision, super (×4); peasants 2 decisions, one double
    # (seat 0, ×2), none super; 2 of 3 seats showed (×2 each); no
    # bomb, rocket or spring. Table: 1 × 2 (rob) × 2 × 2 (shows) × 4 (landlord) = 32; seat 0
    # settles at 32 × 2 = 64 (its own double, not above the cap 64), seat 1 at 32.
    assert (st.robs, res.base, res.multiplier, res.uncapped) == (1, 1, 32, None)
    assert res.scores == (64, 32, -96)  # the landlord lost: each peasant its own stake
    facts = deal_facts(st)
    assert facts["bombs"] == facts["rockets"] == 0 and not facts["spring"]
    assert facts["robbed"] is True and facts["robs"] == 1
    assert facts["landlord_by"] == "robber" and "bid" not in facts  # call and rob: no bid
    assert facts["landlord_doubles"] == {"asked": 1, "chose": {"double": 0, "super": 1}}
    assert facts["peasant_doubles"] == {"asked": 2, "chose": {"double": 1, "super": 0}}
    assert facts["shows"] == [3, 2]
    assert facts["capped"] is False
    assert facts["stake"] == (64 + 32) / 2
    # the figures of this one deal: rates per decision (peasants 1 of 2, shows 2 of 3)
    from ddzspec.balance import variant_figures
    figs = variant_figures("happy", (2, 2, 2), [facts]).figures
    assert figs["rob_rate"].mean == 1 and figs["robs_per_deal"].mean == 1
    assert figs["landlord_chose_double"].mean == 0 and figs["landlord_chose_super"].mean == 1
    assert figs["peasant_chose_double"].n == 2 and figs["peasant_chose_double"].mean == 0.5
    assert figs["peasant_chose_super"].mean == 0
    assert figs["show_rate"].n == 3 and figs["show_rate"].mean == pytest.approx(2 / 3)
    assert figs["cap_rate"].mean == 0 and figs["stake"].mean == 48
    shares = variant_figures("happy", (2, 2, 2), [facts]).landlord_by
    assert list(shares) == ["robber"] and shares["robber"].mean == 1


class _SuperEverything:
    """A level-2 player that shows its hand (at the round's top factor) and super-doubles in
    every round."""

    def __init__(self, seed: str) -> None:
        self.inner = player_for(2, seed)

    def decide(self, view: Any) -> Any:
        from ddzspec.game.actions import Action
        if view.phase.value == "showing":
            return Action(ActionKind.SHOW, view.seat, max(c.times for c in view.round.choices))
        if view.phase.value == "doubling":
            return Action(ActionKind.DOUBLE, view.seat, 4)
        return self.inner.decide(view)


def test_the_cap_bites_when_everyone_shows_and_super_doubles() -> None:
    """Every seat shows before the deal (×5 each: ×125) and super-doubles (landlord ×4 for the
    table, each peasant ×4 for its own pair): the table is at least 500 and each pair at least
    2000, so both pairs are cut to 64 and the stake is 64 with base 1."""
    st = _happy_deal(58, [_SuperEverything(f"t:58:{s}") for s in range(3)])
    res = st.result
    assert res is not None and res.base == 1
    assert all(p.uncapped is not None and p.uncapped >= 2000 for p in res.pairs)
    facts = deal_facts(st)
    assert facts["capped"] is True and facts["stake"] == 64
    assert facts["landlord_doubles"] == {"asked": 1, "chose": {"double": 0, "super": 1}}
    assert facts["peasant_doubles"] == {"asked": 2, "chose": {"double": 0, "super": 2}}
    assert facts["shows"] == [3, 3]


def test_classic_deals_have_no_rob_round_or_cap_facts() -> None:
    rules = load_rules("classic")
    st = play_deal(rules, [player_for(2, f"t:0:{s}") for s in range(3)], deal_seed(9, 0))
    facts = deal_facts(st)
    assert not {"robbed", "landlord_doubles", "peasant_doubles", "shows", "capped",
                "stake"} & set(facts)


def test_balance_classic_happy_shows_the_new_rows_for_happy_only(cli: Any) -> None:
    from ddzspec.balance import EXTRA_FIGURES
    code, out, err = cli("balance", "classic", "happy", "--games", "20", "--workers", "1")
    assert code == 0, err
    classic, rest = out.split("happy: 20 deals", 1)
    happy, diff = rest.split("happy - classic (paired by deal):", 1)
    chosen = [f"{role} {c} (of decisions)" for role in ("landlord", "peasant")
              for c in ("double", "super")]
    for label in [x for x, _, _ in EXTRA_FIGURES.values()] + chosen:
        assert label not in classic and label in happy and label not in diff
    # each with its interval: a percentage for a rate, a signed number for the others
    assert re.search(r"deals with a rob +\d+\.\d% \[\d+\.\d, \d+\.\d\]", happy)
    assert re.search(r"average stake \(peasant settles\) +\+\d+\.\d+ \[", happy)
    # the winning bid's shares for the auction only; for call and rob, who ended landlord
    assert re.search(r"\n  bid +1: \d+\.\d%", classic) and "\n  bid " not in happy
    assert re.search(r"\n  landlord \(call and rob\) +(caller|robber): \d+\.\d% \[", happy)
    assert "landlord (call and rob)" not in classic
    code, out, err = cli("balance", "classic", "happy", "--games", "20", "--workers", "1",
                         "--json")
    assert code == 0, err
    got = json.loads(out)
    c, h = got["variants"]
    assert set(c["figures"]) == set(FIGURES)
    assert set(h["figures"]) == set(FIGURES) | set(EXTRA_FIGURES) | {
        "landlord_chose_double", "landlord_chose_super", "peasant_chose_double",
        "peasant_chose_super"}
    assert h["figures"]["peasant_chose_double"]["n"] == 40  # two peasants a deal
    assert h["figures"]["show_rate"]["n"] == 60 and h["figures"]["stake"]["n"] == 20
    assert set(got["differences"][0]["figures"]) == set(FIGURES)


def _hebei_kick_and_counter() -> Any:
    """hebei, seed 4: seat 0 bids 3 (landlord), seat 1 kicks (x2), seat 2 does not, the
    landlord counters (x2); level 1 players play it out."""
    from ddzspec.game import Action, GameState
    g = GameState.new(load_rules("hebei"), seed=4, first=0).apply(Action.bid(0, 3))
    for a in (Action.double(1, 2), Action.double(2, 1), Action.double(0, 2)):
        g = g.apply(a)
    players = [player_for(1, 0) for _ in range(3)]
    while not g.over:
        g = g.apply(players[g.turn].decide(g.view(g.turn)))
    return g


def test_hebei_counts_its_own_choices_kick_and_counter() -> None:
    """hebei has no super double: a peasant chooses no (x1) or kick (x2), the landlord, asked
    only after a kick, no or counter (x2). The deal: 2 peasant decisions, 1 kick; 1 landlord
    decision, 1 counter; its figures are those two rates (1/2 and 1/1), and nothing named
    double or super."""
    from ddzspec.balance import figure_label, variant_figures
    facts = deal_facts(_hebei_kick_and_counter())
    assert facts["peasant_doubles"] == {"asked": 2, "chose": {"kick": 1}}
    assert facts["landlord_doubles"] == {"asked": 1, "chose": {"counter": 1}}
    figs = variant_figures("hebei", (1, 1, 1), [facts]).figures
    chosen = [f for f in figs if f not in FIGURES and f != "stake"]
    assert chosen == ["landlord_chose_counter", "peasant_chose_kick"]
    assert (figs["peasant_chose_kick"].n, figs["peasant_chose_kick"].mean) == (2, 0.5)
    assert (figs["landlord_chose_counter"].n, figs["landlord_chose_counter"].mean) == (1, 1)
    assert figure_label("landlord_chose_counter")[0] == "landlord counter (of decisions)"


def test_balance_hebei_happy_rows_are_named_after_each_variants_choices(cli: Any) -> None:
    """hebei's rows are its kick and counter, happy's its double and super, per role; no
    choice row is compared between them (neither has the other's choices)."""
    code, out, err = cli("balance", "hebei", "happy", "--games", "10", "--workers", "1")
    assert code == 0, err
    hebei, rest = out.split("happy: 10 deals", 1)
    happy, diff = rest.split("happy - hebei (paired by deal):", 1)
    assert re.search(r"\n  peasant kick \(of decisions\) +\d+\.\d% \[", hebei)
    assert re.search(r"\n  landlord counter \(of decisions\) +\d+\.\d% \[", hebei)
    assert "super" not in hebei and "double" not in hebei
    for role in ("landlord", "peasant"):
        for c in ("double", "super"):
            assert f"\n  {role} {c} (of decisions) " in happy
    assert "(of decisions)" not in diff
    code, out, err = cli("balance", "hebei", "--games", "10", "--workers", "1", "--json")
    assert code == 0, err
    figs = json.loads(out)["variants"][0]["figures"]
    assert {f for f in figs if "_chose_" in f} == {"peasant_chose_kick", "landlord_chose_counter"}


# ------------------------------------------------------- issue 26: laizi's bombs by class

def _laizi_deal(k: int) -> Any:
    return play_deal(load_rules("laizi"), [player_for(2, f"t:{k}:{s}") for s in range(3)],
                     deal_seed(9, k))


def test_laizi_bombs_are_counted_by_class_worked_by_hand() -> None:
    """Laizi deals 105 and 36 of seed 9, level 2 everywhere: their scored plays (pinned from
    the factors) are counted as bombs whatever factor kind they score as (``soft_bomb``,
    ``hard_bomb``, not ``bomb``), and per class. By hand: deal 105, two soft bombs, 2 × 2 = 4;
    deal 36, two hard bombs and a rocket, 4 × 4 × 2 = 32 (no spring in either)."""
    from ddzspec.balance import variant_figures
    soft, hard = _laizi_deal(105), _laizi_deal(36)
    assert [(f.kind, f.times, f.cards) for f in soft.factors] == [
        ("soft_bomb", 2, "33**"), ("soft_bomb", 2, "AAA*")]
    assert [(f.kind, f.times, f.cards) for f in hard.factors] == [
        ("hard_bomb", 4, "AAAA"), ("hard_bomb", 4, "2222"), ("rocket", 2, "BR")]
    fs, fh = deal_facts(soft), deal_facts(hard)
    assert (fs["bombs"], fs["rockets"], fs["soft_bombs"], fs["hard_bombs"], fs["pure_bombs"],
            fs["multiplier"], fs["spring"], fs["anti_spring"]) == (2, 0, 2, 0, 0, 4, False,
                                                                   False)
    assert (fh["bombs"], fh["rockets"], fh["soft_bombs"], fh["hard_bombs"], fh["pure_bombs"],
            fh["multiplier"], fh["spring"], fh["anti_spring"]) == (2, 1, 0, 2, 0, 32, False,
                                                                   False)
    figs = variant_figures("laizi", (2, 2, 2), [fs, fh]).figures
    # per deal: soft (2 + 0) / 2 = 1, hard (0 + 2) / 2 = 1, pure 0, all bombs (2 + 2) / 2 = 2
    assert (figs["soft_bombs"].mean, figs["hard_bombs"].mean, figs["pure_bombs"].mean,
            figs["bombs"].mean) == (1, 1, 0, 2)
    assert "stake" not in figs  # the bomb classes alone bring no stake row
    classic = deal_facts(play_deal(load_rules("classic"),
                                   [player_for(2, f"t:36:{s}") for s in range(3)],
                                   deal_seed(9, 36)))
    assert not {"soft_bombs", "hard_bombs", "pure_bombs"} & set(classic)


def test_balance_classic_laizi_shows_the_bomb_class_rows_for_laizi_only(cli: Any) -> None:
    labels = ["soft bombs per deal", "hard bombs per deal", "pure bombs per deal"]
    code, out, err = cli("balance", "classic", "laizi", "--games", "12", "--workers", "1")
    assert code == 0, err
    classic, rest = out.split("laizi: 12 deals", 1)
    laizi, diff = rest.split("laizi - classic (paired by deal):", 1)
    for label in labels:
        assert label not in classic and label not in diff
        assert re.search(rf"\n  {label} +\+\d+\.\d+ \[\+\d+\.\d+, \+\d+\.\d+\]", laizi)
    code, out, err = cli("balance", "classic", "laizi", "--games", "12", "--workers", "1",
                         "--json")
    assert code == 0, err
    c, lz = json.loads(out)["variants"]
    names = {"soft_bombs", "hard_bombs", "pure_bombs"}
    assert not names & set(c["figures"]) and names <= set(lz["figures"])
    assert all(lz["figures"][n]["n"] == 12 for n in names)
