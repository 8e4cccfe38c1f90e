"""Scoring as the apps settle it: factors other than 2 (``factor spring 3``), the caps on the
multiplier and on the bombs counted, factors of one pair (a peasant's own doubling settles only
with the landlord), the talon's patterns. Each settlement is worked by hand in the test."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ddzspec.cards import Cards
from ddzspec.errors import RulesError
from ddzspec.game import Action, GameState
from ddzspec.game.record import Record, record_of, replay, result_lines
from ddzspec.game.scoring import Factor, settle, talon_factor
from ddzspec.learn import diff_words
from ddzspec.rules import Rules, load_rules, load_rules_text, resolved_text

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LANDLORD_17 = "5555 6666 777888999"  # with the talon TTT: two bombs, then a plane to go out


def scoring(*clauses: str) -> Rules:
    """Classic with this scoring section (``base bid`` and ``settle per_peasant`` added)."""
    body = "\n".join(["base bid", *clauses, "settle per_peasant"])
    return load_rules_text(f"rules x extends classic\nscoring {{\n{body}\n}}\n", "x.rules")


def deal(rules: Rules, talon: str = "TTT", seat0: str = LANDLORD_17) -> GameState:
    """Seat 0 holds ``seat0``, the talon ``talon``; the rest dealt low to high to seats 1, 2."""
    counts = list(rules.deck)
    for part in (seat0, talon):
        for i, c in enumerate(Cards.parse(part).counts):
            counts[i] -= c
    rest = [i for i, c in enumerate(counts) for _ in range(c)]
    hands = [Cards.parse(seat0)] + [
        Cards(tuple(rest[k:k + 17].count(i) for i in range(15))) for k in (0, 17)]
    return GameState.new(rules, hands=hands, talon=talon, first=0)


def landlord_bids_1(g: GameState) -> GameState:
    for a in (Action.bid(0, 1), Action.bid(1, 0), Action.bid(2, 0)):
        g = g.apply(a)
    return g


def two_bombs_and_out(g: GameState) -> GameState:
    """Seat 0 plays 5555, 6666 (both unanswered), then goes out with 777888999TTT: a spring."""
    for move in ("5555", "6666"):
        g = g.apply(Action.play(0, move)).apply(Action.pass_(1)).apply(Action.pass_(2))
    return g.apply(Action.play(0, "777888999TTT"))


def test_classic_scoring_model_is_the_seeds() -> None:
    c = load_rules("classic").scoring
    assert (c.times, c.cap_multiplier, c.cap_bombs, c.talon) == ((), None, None, ())
    assert repr(c) == ("Scoring(base='bid', double=('bomb', 'rocket', 'spring', "
                       "'anti_spring'), settle=<Settle.PER_PEASANT: 'per_peasant'>)")
    assert [c.factor(n) for n in ("bomb", "spring", "trio")] == [2, 2, 1]


def test_spring_x3() -> None:
    """examples/spring-x3: bid 1, bombs ×2 ×2, spring ×3: multiplier 2 × 2 × 3 = 12, stake
    1 × 12 = 12; the landlord wins 2 × 12 = 24, each peasant loses 12."""
    rules = load_rules(str(EXAMPLES / "spring-x3.rules"))
    g = two_bombs_and_out(landlord_bids_1(deal(rules)))
    r = g.result
    assert r is not None and r.spring
    assert [(f.kind, f.times) for f in r.factors] == [("bomb", 2), ("bomb", 2), ("spring", 3)]
    assert (r.multiplier, r.stake, r.scores) == (12, 12, (24, -12, -12))


def test_the_multiplier_cap_cuts_and_says_so() -> None:
    """cap multiplier 6: 2 × 2 × 3 = 12 is cut to 6; the landlord wins 2 × 6 = 12."""
    rules = scoring("double bomb rocket", "factor spring 3", "cap multiplier 6")
    g = two_bombs_and_out(landlord_bids_1(deal(rules)))
    r = g.result
    assert r is not None
    assert (r.multiplier, r.uncapped, r.scores) == (6, 12, (12, -6, -6))
    assert r.to_json()["uncapped"] == 12 and "pairs" not in r.to_json()
    assert result_lines(g)[1] == ("score: base 1 (the bid) ×2 bomb 5555 (seat 0) ×2 bomb 6666 "
                                  "(seat 0) ×3 spring = 6 (×12 capped at ×6)")


def test_the_bombs_cap_counts_the_first_bombs_only() -> None:
    """cap bombs 1: the second bomb is itemised, not counted: 2 (bomb) × 2 (spring) = 4, not 8;
    the landlord wins 2 × 4 = 8."""
    rules = scoring("double bomb rocket spring anti_spring", "cap bombs 1")
    g = landlord_bids_1(deal(rules))
    g = g.apply(Action.play(0, "5555")).apply(Action.pass_(1)).apply(Action.pass_(2))
    assert g.multiplier == 2
    g = g.apply(Action.play(0, "6666"))
    assert g.multiplier == 2 and g.factors[-1].cut  # the live multiplier: the cut one ignored
    g = two_bombs_and_out(landlord_bids_1(deal(rules)))
    r = g.result
    assert r is not None
    assert [(f.kind, f.cut) for f in r.factors] == [("bomb", False), ("bomb", True),
                                                     ("spring", False)]
    assert (r.multiplier, r.scores) == (4, (8, -4, -4))
    assert r.to_json()["factors"][1] == {"kind": "bomb", "times": 2, "seat": 0,
                                         "cards": "6666", "cut": True}
    assert "×2 bomb 6666 (seat 0) (beyond the bombs cap: not counted)" in result_lines(g)[1]


@pytest.mark.parametrize("talon, kind, times", [
    ("BR3", "talon_rocket", 4),     # rocket 4 beats joker 2: the highest applies
    ("555", "talon_trio", 4),
    ("345", "talon_straight", 3),
    ("QKA", "talon_straight", 3),   # chain 3..A
    ("KA2", None, 1),               # a 2 is not in group chain: no straight
    ("22K", "talon_pair", 2),       # pair of 2s
    ("KKQ", None, 1),               # a pair, but not of 2s
    ("B45", "talon_joker", 2),
    ("346", None, 1),
])
def test_talon_patterns(talon: str, kind: str | None, times: int) -> None:
    rules = load_rules(str(EXAMPLES / "capped.rules"))
    f = talon_factor(rules, Cards.parse(talon))
    assert (f.kind if f else None, f.times if f else 1) == (kind, times)


@pytest.mark.parametrize("talon, straight", [
    ("QKA", True), ("A23", True), ("JQK", True), ("234", True),
    ("KA2", False), ("A2K", False), ("Q2A", False),  # no wrap: K A 2 is not in the sequence
])
def test_a_talon_straight_follows_a_declared_chain_order(talon: str, straight: bool) -> None:
    """Under ``group chain = sequence A 2 3 .. A`` the top chain QKA was never a straight
    (the ace's first place was looked up only; found by a tester)."""
    rules = load_rules_text(f'rules low "x" extends "{EXAMPLES / "low-straights"}"\n'
                            "scoring { base bid\n double bomb rocket spring anti_spring\n"
                            " talon straight 3\n settle per_peasant }\n", "low.rules")
    f = talon_factor(rules, Cards.parse(talon))
    assert (f is not None and f.kind == "talon_straight") is straight


@pytest.mark.parametrize("talon, straight", [
    ("KA2", True), ("A23", True), ("2A3", True), ("234", True), ("QKA", True),
    ("K23", False), ("A24", False), ("KA3", False),  # gaps in the circle 3 .. 2
])
def test_a_talon_straight_goes_round_a_wrapping_chain_order(talon: str, straight: bool) -> None:
    """Under ``group chain = sequence 3 .. 2 wraps`` (examples/wrap-straights.rules) the
    chain goes on from the 2 to the 3: K A 2, A 2 3 and 2 3 4 are runs of the circle."""
    rules = load_rules_text(f'rules w "x" extends "{EXAMPLES / "wrap-straights"}"\n'
                            "scoring { base bid\n double bomb rocket spring anti_spring\n"
                            " talon straight 3\n settle per_peasant }\n", "w.rules")
    f = talon_factor(rules, Cards.parse(talon))
    assert (f is not None and f.kind == "talon_straight") is straight


def test_a_talon_trio_multiplies_when_the_landlord_takes_it() -> None:
    """talon trio 4: TTT ×4, then bombs ×2 ×2 and spring ×2: 4 × 2 × 2 × 2 = 32; the landlord
    wins 2 × 32 = 64, each peasant loses 32 (capped.rules caps at 64: not reached)."""
    rules = load_rules(str(EXAMPLES / "capped.rules"))
    g = landlord_bids_1(deal(rules))
    assert [(f.kind, f.times, f.cards) for f in g.factors] == [("talon_trio", 4, "TTT")]
    assert g.multiplier == 4
    g = two_bombs_and_out(g)
    r = g.result
    assert r is not None and (r.multiplier, r.uncapped, r.scores) == (32, None, (64, -32, -32))


def test_per_pair_factors_settle_each_pair_alone() -> None:
    """A bomb ×2 for the table; seat 1 doubled (×2), seat 2 super-doubled (×4), each for its
    own settlement. Base 3, the landlord (seat 0) wins: seat 1 pays 3 × 2 × 2 = 12, seat 2
    pays 3 × 2 × 4 = 24, the landlord gets 36. With cap 6: seat 2's 8 is cut to 6 (18),
    the landlord gets 12 + 18 = 30."""
    fs = (Factor("bomb", 2, 0, "3333"), Factor("double", 2, 1, pair=1),
          Factor("super_double", 4, 2, pair=2))
    scores, mult, uncapped, pairs = settle(3, 0, 3, True, fs, None)
    assert (scores, mult, uncapped) == ((36, -12, -24), 2, None)
    assert [(p.seat, p.multiplier, p.uncapped) for p in pairs] == [(1, 4, None), (2, 8, None)]
    scores, mult, uncapped, pairs = settle(3, 0, 3, True, fs, 6)
    assert scores == (30, -12, -18)
    assert [(p.seat, p.multiplier, p.uncapped) for p in pairs] == [(1, 4, None), (2, 6, 8)]
    # the peasants win: the same amounts the other way
    assert settle(3, 0, 3, False, fs, None)[0] == (-36, 12, 24)


def test_pair_factors_in_a_deal_reach_the_result_and_its_lines() -> None:
    """The data a doubling round fills: a factor with ``pair`` on the state. Base 1, seat 2's
    own ×4, bombs ×2 ×2, spring ×2 (the table: 8): seat 1 pays 8, seat 2 pays 32, the landlord
    gets 40."""
    g = landlord_bids_1(deal(load_rules("classic")))
    g = replace(g, factors=g.factors + (Factor("super_double", 4, 2, pair=2),))
    assert g.multiplier == 1  # a pair's own factor is not the table's
    assert [g.pair_multiplier(s) for s in range(3)] == [1, 1, 4]
    g = two_bombs_and_out(g)
    r = g.result
    assert r is not None and r.scores == (40, -8, -32) and r.multiplier == 8
    assert r.to_json()["pairs"] == [{"seat": 1, "multiplier": 8}, {"seat": 2, "multiplier": 32}]
    assert r.to_json()["factors"][0]["pair"] == 2
    assert "  seat 2 settles with the landlord at ×32: 32" in result_lines(g)


def test_without_pair_factors_settlement_is_the_seeds() -> None:
    """No pair factor: each peasant settles base × multiplier, the landlord twice that."""
    fs = (Factor("bomb"), Factor("rocket"), Factor("spring"))
    assert settle(2, 1, 3, True, fs, None) == ((-16, 32, -16), 8, None, ())
    assert settle(1, 0, 2, False, fs, None) == ((-8, 8), 8, None, ())


@given(st.integers(1, 3), st.integers(2, 3), st.booleans(),
       st.lists(st.tuples(st.integers(2, 5), st.integers(-1, 2), st.booleans()), max_size=8),
       st.one_of(st.none(), st.integers(1, 100)), st.integers(0, 2))
def test_settlement_is_zero_sum_and_never_beyond_the_cap(
        base: int, players: int, ll_wins: bool, raw: list[tuple[int, int, bool]],
        cap: int | None, landlord: int) -> None:
    landlord %= players
    fs = tuple(Factor("x", t, pair=None if p < 0 or p >= players or p == landlord else p,
                      cut=c) for t, p, c in raw)
    scores, mult, uncapped, pairs = settle(base, landlord, players, ll_wins, fs, cap)
    assert sum(scores) == 0
    assert cap is None or mult <= cap
    for s, points in enumerate(scores):
        if s != landlord:
            assert cap is None or abs(points) <= base * cap
            assert (points < 0) == ll_wins
    assert uncapped is None or (cap is not None and uncapped > cap == mult)
    assert all(cap is None or p.multiplier <= cap for p in pairs)


def test_random_deals_under_caps_and_talon_are_zero_sum_and_replay() -> None:
    rules = scoring("double bomb rocket spring anti_spring", "cap multiplier 4", "cap bombs 1",
                    "talon rocket 4, trio 4, straight 3, joker 2")
    rng = random.Random(5)
    capped = 0
    for seed in range(30):
        g = GameState.new(rules, seed=seed)
        while not g.over:
            g = g.apply(rng.choice(g.legal_actions()))
        r = g.result
        assert r is not None and sum(r.scores) == 0 and r.multiplier <= 4
        capped += r.uncapped is not None
        obj = record_of(g).to_json()
        assert obj["result"].get("uncapped") == r.uncapped  # only when the cap cut
        rec = Record.from_json(obj)
        assert rec.rules_text is not None and "    cap multiplier 4\n" in rec.rules_text
        assert replay(rec).ok
    assert capped  # the cap bit at least once


def test_the_scoring_round_trips_through_rules_show(cli: Any) -> None:
    for name in ("spring-x3", "capped"):
        r = load_rules(str(EXAMPLES / f"{name}.rules"))
        code, out, _ = cli("rules", "show", str(EXAMPLES / f"{name}.rules"))
        assert code == 0 and out == resolved_text(r)
        again = load_rules_text(out, "shown.rules")
        assert replace(again, path=r.path, parents=r.parents) == r


def test_dropping_every_multiplying_shape_drops_the_bombs_cap() -> None:
    r = load_rules(str(EXAMPLES / "capped.rules"), without=("bomb", "rocket"))
    assert r.scoring.cap_bombs is None and r.scoring.double == ("spring", "anti_spring")
    assert load_rules_text(resolved_text(r)).scoring == r.scoring


def test_diff_says_the_scoring_differences(cli: Any) -> None:
    code, out, _ = cli("diff", "classic", str(EXAMPLES / "spring-x3.rules"))
    assert code == 1
    assert "spring-x3: double bomb rocket, factor spring 3 anti_spring 3" in out
    code, out, _ = cli("diff", "classic", str(EXAMPLES / "capped.rules"))
    assert "cap multiplier 64, cap bombs 3, talon rocket 4" in out
    said = [w for w in diff_words(load_rules("classic"), load_rules(str(EXAMPLES / "capped.rules")))
            if w.startswith("scoring")]
    assert said == ["scoring: capped says: The talon multiplies the stake by its pattern, the "
                    "highest that applies: both jokers x4; a trio x4; a straight x3; a pair of "
                    "2s x2; a joker x2. At most 3 bombs or rockets multiply; later ones do not. "
                    "The multiplier is capped at 64."]


@pytest.mark.parametrize("clause, message", [
    ("factor spring 0", "x.rules:3:15: factor spring 0: a factor is at least 2"),
    ("double bomb\nfactor rocket 1", "x.rules:4:15: factor rocket 1: a factor is at least 2"),
    ("cap multiplier 0", "x.rules:3:16: cap multiplier 0: a cap is at least 1"),
    ("cap multiplier -4", "x.rules:3:16: unexpected '-'; expected a number"),
    ("cap stake 4", "x.rules:3:5: cap stake: unknown cap (caps: multiplier, bombs)"),
    ("talon flush 3", "x.rules:3:7: talon flush: unknown pattern (patterns: joker, rocket, "
                      "pair, trio, straight) (cards have no suits here, so a flush cannot be "
                      "stated)"),
    ("talon pair of B 2", "x.rules:3:15: talon pair of B: the deck holds 1 B"),
    ("talon joker 2, joker 3", "x.rules:3:16: talon joker: listed twice"),
    ("talon trio 1", "x.rules:3:12: talon trio: a factor is at least 2"),
    ("double spring\nfactor spring 3", "x.rules:4:8: factor spring: listed twice"),
    ("factor trio_pair 3 foo 2", "x.rules:3:20: factor foo: neither a shape nor an event"),
    ("factor rob 3", "x.rules:3:8: factor rob needs call_rob bidding"),
    ("double spring\ncap bombs 2", "x.rules:2:1: cap bombs: no shape multiplies"),
])
def test_bad_scoring_is_a_located_error_exit_2(clause: str, message: str, tmp_path: Path,
                                               cli: Any) -> None:
    text = f"rules x extends classic\nscoring {{\n{clause}\n}}\n"
    with pytest.raises(RulesError) as e:
        load_rules_text(text, "x.rules")
    assert str(e.value).startswith(message)
    f = tmp_path / "x.rules"
    f.write_text(text)
    code, _, err = cli("rules", "show", str(f))
    assert code == 2 and message.split(": ", 1)[1] in err
