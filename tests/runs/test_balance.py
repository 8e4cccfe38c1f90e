"""``ddzspec balance`` and ddzspec/balance.py: per-deal facts, figures with intervals, paired
differences over duplicate deals, the plot."""

from __future__ import annotations

import json
import math
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
