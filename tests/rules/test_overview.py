"""The "Learn" library (the Learn tab): rules_overview (shapes with real examples, restrictions with
the readings they rule out, bidding and scoring in words), diff_words, and
``ddzspec rules overview``. Expectations are worked from rules/*.rules and cross-checked against
the move tables compiled independently."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ddzspec.cards import Cards
from ddzspec.learn import diff_words, rules_overview, shape_words
from ddzspec.readings import candidates, solve_readings
from ddzspec.rules import Rules, load_rules
from ddzspec.table import get_table

VARIANTS = ("classic", "kawu", "duel", "duel-literal", "happy", "hebei")


@pytest.fixture(scope="module")
def rules() -> dict[str, Rules]:
    return {n: load_rules(n) for n in VARIANTS}


# --------------------------------------------------------------------------- shapes

def test_classic_shapes_in_words_with_real_examples(rules: dict[str, Rules]) -> None:
    o = rules_overview(rules["classic"])
    assert [s.name for s in o.shapes] == [s.name for s in rules["classic"].shapes]
    ts = o.shape("trio_single")
    assert ts.examples == ("333+4", "999+3", "222+3") and ts.sizes == (4,)
    assert ts.description == "3 cards of one rank, plus 1 single kicker"
    st = o.shape("straight")
    # 1 x 5..12 in chain: sizes 5..12; smallest 34567, the longest 3..A
    assert st.sizes == tuple(range(5, 13)) and st.spec == "1 x 5..12 in chain"
    assert st.examples[0] == "34567" and st.examples[-1] == "3456789TJQKA"
    assert st.description == ("5 to 12 cards of consecutive ranks of the chain (3..A), nothing "
                              "added")
    # plane_singles = 3 x 2.. + each single: at most 5 trios in 20 cards (5 x 4 = 20)
    ps = o.shape("plane_singles")
    assert ps.sizes == (8, 12, 16, 20)
    assert ps.description == ("2 to 5 trios of consecutive ranks of the chain (3..A), plus one "
                              "single kicker per trio")
    assert ps.examples[0] == "333444+55"
    assert o.shape("rocket").examples == ("BR",)
    assert o.shape("rocket").description == "every rank of the jokers (B R), nothing added"
    assert o.shape("bomb").tier == 1 and o.shape("rocket").tier == 2


@pytest.mark.parametrize("name", VARIANTS)
def test_every_example_is_a_legal_move_of_its_shape(rules: dict[str, Rules], name: str) -> None:
    o = rules_overview(rules[name])
    for s in o.shapes:
        assert s.examples, s.name
        for text in s.examples:
            got = solve_readings(Cards.parse(text.replace("+", "")).counts, rules[name])
            assert len(got) == 1 and got[0].shape == s.name, (name, text)
            assert len(got[0].cards) in s.sizes


def test_duel_examples_use_duels_deck(rules: dict[str, Rules]) -> None:
    o = rules_overview(rules["duel"])
    assert o.shape("straight").examples == ("56789", "9TJQKA", "56789TJQKA")
    assert o.shape("straight").sizes == (5, 6, 7, 8, 9, 10)
    assert o.shape("trio_pair").examples[0] == "555+66"


def test_notation_of_examples(rules: dict[str, Rules]) -> None:
    o = rules_overview(rules["classic"], "fr")
    assert o.shape("straight").examples[-1] == "3456789TVDRA"
    assert o.shape("rocket").examples == ("PJ GJ",)


def test_user_shape_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "tri.rules"
    f.write_text('rules tri "trio straights" extends classic\n'
                 "shapes {\n    trio_straight = 3 x 3..4 in chain + 2 pair\n}\n")
    r = load_rules(str(f))
    assert shape_words(r.shape("trio_straight"), r) == (
        "3 to 4 trios of consecutive ranks of the chain (3..A), plus 2 pair kickers")


# --------------------------------------------------------------------------- restrictions

def _readings_total(r: Rules) -> int:
    t = get_table(r)
    return len(t.entries) + sum(len(v) for v in t.ambiguous.values())


def test_restriction_counts_match_the_tables(rules: dict[str, Rules]) -> None:
    # the readings a restriction alone rules out are exactly those the table gains when only
    # it is lifted (every other restriction kept): an independent count by the table compiler
    classic = rules["classic"]
    o = rules_overview(classic)
    assert [r.name for r in o.restrictions] == ["quad_block", "kicker_not_body_rank",
                                                "kicker_rank_max", "jokers_not_both_kickers"]
    base = _readings_total(classic)
    assert base == 24639
    for r in o.restrictions:
        lifted = classic.with_restrictions([x for x in classic.restrictions if x.name != r.name])
        assert r.count_alone == _readings_total(lifted) - base, r.name
    by = {r.name: r for r in o.restrictions}
    # in classic, restriction 4's "at most 2" alone cuts 3598 readings; quad_block never acts
    # alone (restrictions 3 and 4 already cut each reading it cuts)
    assert by["kicker_rank_max"].count_alone == 3598 and by["quad_block"].count_alone == 0
    assert by["kicker_rank_max"].count == 12252


def test_ruled_out_examples_are_real_near_misses(rules: dict[str, Rules]) -> None:
    for name in ("classic", "kawu", "duel-literal"):
        r = rules[name]
        for ro in rules_overview(r).restrictions:
            assert ro.examples and len(ro.examples) <= 5
            for x in ro.examples:
                counts = Cards.parse(x.cards).counts
                found = {c.reading.describe(): {v.name for v in c.violated}
                         for c in candidates(counts, r)}
                assert x.reading in found and ro.name in found[x.reading], (name, x)
                assert set(x.also) == found[x.reading] - {ro.name}
                got = solve_readings(counts, r)
                assert x.verdict == ("illegal" if not got else got[0].describe())


def test_kicker_rank_max_examples(rules: dict[str, Rules]) -> None:
    by = {r.name: r for r in rules_overview(rules["classic"]).restrictions}
    ex = by["kicker_rank_max"].examples
    # the smallest reading cut by restriction 4 alone: three 6s as kickers of 333444555; the
    # multiset is still legal, as the plane 333444555666
    assert ex[0].reading == "plane_singles 333444555+6+6+6"
    assert ex[0].verdict == "plane 333444555666" and ex[0].also == ()
    assert by["kicker_rank_max"].ruled_out[0] == "plane_singles 333444555+6+6+6"
    kawu = {r.name: r for r in rules_overview(rules["kawu"]).restrictions}
    d = kawu["distinct_kicker_ranks"]
    assert d.words == "the kickers of one move all have different ranks (seed 004, kawu)"
    assert "four_two_singles 3333+4+4" in d.ruled_out
    # kawu cuts 11985 classic moves, each a reading it alone rules out (diff classic kawu)
    assert d.count_alone == 11985


def test_duel_literal_has_no_restriction_4(rules: dict[str, Rules]) -> None:
    names = [r.name for r in rules_overview(rules["duel-literal"]).restrictions]
    assert "kicker_rank_max" not in names and "quad_block" in names


# --------------------------------------------------------------------------- words

def test_bidding_play_and_scoring_words(rules: dict[str, Rules]) -> None:
    c = rules_overview(rules["classic"])
    assert c.bidding.startswith("an auction, from a random first speaker: each player speaks "
                                "once, bidding 1 or 2 or 3 strictly above the current bid")
    assert "the first bidder is drawn at random again." in c.bidding
    assert "the next player bids first." in rules_overview(rules["kawu"]).bidding
    assert c.scoring[0] == "The base is the winning bid; the multiplier starts at 1."
    assert "Each bomb played doubles the multiplier." in c.scoring
    assert c.scoring[-1].endswith("the landlord wins or loses 2 times that, each peasant once.")
    d = rules_overview(rules["duel"])
    assert d.bidding.startswith("call and rob") and "at most 4 robs" in d.bidding
    assert "if nobody calls, the first speaker is the landlord." in d.bidding
    assert d.scoring[0] == "The base is 1; the multiplier starts at 1."
    assert "Each rob doubles the multiplier." in d.scoring
    assert "9 cards are never dealt nor shown" in d.deal
    assert d.play[1] == "A trick closes after 1 pass in a row; its last player leads the next one."
    assert d.play[-1] == ("The landlord wins by playing every card; the peasant wins with as "
                          "many cards left as there were robs (the duel handicap).")
    # three seats: the peasants win together, when one of them goes out
    assert c.play[-1] == ("The landlord wins by playing every card; the peasants win when one "
                          "of them plays every card.")


def test_a_peasants_own_factors_are_said_to_multiply_its_settlement_only(
        rules: dict[str, Rules]) -> None:
    """happy and hebei: a factor of one peasant's settlement (scope pair, answer … for
    doublers) is said to multiply that settlement only, the landlord to settle the sum, the
    cap to bound what each peasant settles at; a stage after landlord reads 'once the
    landlord is known'."""
    from ddzspec.rules import load_rules
    happy = rules_overview(load_rules("happy"))
    assert happy.scoring[-2:] == (
        "The multiplier each peasant settles at (its own factors included) is capped at 64.",
        "Each peasant settles base x multiplier with the landlord, times its own factors (a "
        "peasant's own double or super multiplies only that peasant's settlement with the "
        "landlord, not another peasant's): the landlord wins or loses the sum of its two "
        "settlements, each peasant its own.")
    assert happy.bidding.endswith("a peasant's factor is for its own settlement with the "
                                  "landlord, the landlord's for the whole table.")
    hebei = rules_overview(load_rules("hebei"))
    assert hebei.scoring[-1].startswith(
        "Each peasant settles base x multiplier with the landlord, times its own factors (a "
        "peasant's own kick, and the landlord's counter to it, multiply only that peasant's "
        "settlement with the landlord")
    assert ("a peasant's choices are no x1, kick x2; the landlord answers with no x1, "
            "counter x2, for the settlements of the peasants who chose above x1 only; a "
            "peasant's factor is for its own settlement with the landlord.") in hebei.bidding
    blind = rules_overview(load_rules("examples/blind.rules"))
    assert "a blind round once the landlord is known, asking the landlord alone" in blind.bidding


def test_to_json_contract(rules: dict[str, Rules]) -> None:
    j = rules_overview(rules["classic"]).to_json()
    assert {"name", "text", "shapes", "restrictions", "bidding", "scoring"} <= set(j)
    assert j["name"] == "classic" and j["text"].startswith('rules classic "')
    s = j["shapes"][0]
    assert {"name", "description", "sizes", "examples"} <= set(s)
    r = j["restrictions"][2]
    assert {"name", "words", "ruled_out", "count"} <= set(r)
    assert isinstance(r["ruled_out"][0], str) and isinstance(r["count"], int)
    assert isinstance(j["bidding"], str) and all(isinstance(x, str) for x in j["scoring"])
    json.dumps(j)


# --------------------------------------------------------------------------- diff_words

def test_diff_words_classic_kawu(rules: dict[str, Rules]) -> None:
    w = diff_words(rules["classic"], rules["kawu"])
    assert w == (
        "restrictions: kawu adds distinct_kicker_ranks (the kickers of one move all have "
        "different ranks (seed 004, kawu)).",
        "bidding: classic has all_pass redeal first_bidder random; kawu has all_pass redeal "
        "first_bidder next.",
        "11985 moves are legal under classic only: 11829 plane_singles, 156 four_two_singles.",
        "  For example plane_singles 333444+5+5: ruled out by distinct_kicker_ranks in kawu.",
        "  For example four_two_singles 3333+4+4: ruled out by distinct_kicker_ranks in kawu.")


def test_diff_words_duel_literal(rules: dict[str, Rules]) -> None:
    w = diff_words(rules["duel"], rules["duel-literal"])
    assert w[0].startswith("restrictions: duel-literal drops kicker_rank_max (no rank appears "
                           "more than 2 times among the kickers")
    assert "7 moves are read differently (duel -> duel-literal): 7 plane -> " \
           "ambiguous(plane/plane_singles)." in w
    assert any(x.startswith("1169 moves are legal under duel-literal only") for x in w)


def test_diff_words_other_bidding_system_in_words(rules: dict[str, Rules]) -> None:
    w = diff_words(rules["classic"], rules["duel"])
    bid = next(x for x in w if x.startswith("bidding: "))
    assert bid.startswith("bidding: classic has an auction") and "duel has call and rob" in bid
    assert "deck: classic has 54 cards" in w[0] and "(no 3 4)" in w[0]


def test_diff_words_identical(rules: dict[str, Rules]) -> None:
    assert diff_words(rules["classic"], rules["classic"]) == (
        "Every move reads the same under classic and classic.",)


# --------------------------------------------------------------------------- CLI

def test_cli_rules_overview(cli: Any) -> None:
    res = cli("rules", "overview", "duel")
    assert res.exit_code == 0
    assert res.stdout.startswith("duel: Dou Dizhu for two (seed 003)\n")
    assert "  straight = 1 x 5..10 in chain: 5 to 10 cards of consecutive ranks of the chain " \
           "(5..A), nothing added" in res.stdout
    res = cli("rules", "overview", "--json", "--notation", "de", "kawu")
    assert res.exit_code == 0
    d = json.loads(res.stdout)
    assert d["name"] == "kawu" and d["shapes"][5]["examples"][-1] == "3456789TBDKA"


def test_cli_rules_overview_bad_input(cli: Any) -> None:
    res = cli("rules", "overview", "nope")
    assert res.exit_code == 2 and res.stderr.startswith("ddzspec: error: nope: no rules file")
    res = cli("rules", "overview", "classic", "--without", "x")
    assert res.exit_code == 2 and "--without x: no such shape" in res.stderr


def test_cli_overview_lists_the_rounds_in_the_order_a_deal_meets_them(cli: Any) -> None:
    """happy: show before the deal, show after it, the bidding (the first to show speaks
    first), then the doubling round after the talon (issue 25: the show round was listed
    after the bidding); hebei: the counter-kick's reach in words."""
    res = cli("rules", "overview", "happy")
    assert res.exit_code == 0
    bidding = next(x for x in res.stdout.splitlines() if x.startswith("Bidding: "))
    parts = ["Bidding: First a show round before the deal, asking every seat once, in turn, "
             "before any seat sees its cards (a hand shown then is face up once dealt): the "
             "choices are no x1, show x5;",
             "Then a show round after the deal, asking every seat once, in turn: the choices "
             "are no x1, show x2; every factor multiplies the whole table; a seat whose hand "
             "is already shown is not asked again.",
             "Then the bidding: call and rob, from a random first speaker (or the first seat "
             "to show its cards, when one did):",
             "Then a double round after the talon, asking the landlord first"]
    at = [bidding.index(p) for p in parts]
    assert at == sorted(at) and at[0] == 0
    res = cli("rules", "overview", "hebei")
    assert ("the landlord answers with no x1, counter x2, for the settlements of the peasants "
            "who chose above x1 only;") in res.stdout


def test_laizi_bombs_multiply_by_their_class_not_by_two() -> None:
    # laizi.rules: factor soft 2 hard 4 pure 4; the class's factor replaces the bomb's x2
    # (game.scoring.wild_factor), so the overview must not also say "each bomb doubles"
    scoring = rules_overview(load_rules("laizi")).scoring
    assert scoring[:3] == (
        "The base is the winning bid; the multiplier starts at 1.",
        "Each bomb played multiplies the multiplier by its class's factor: soft x2, hard x4, "
        "pure x4.",
        "Each rocket played doubles the multiplier.")
    assert "Each bomb played doubles the multiplier." not in scoring
    classic = rules_overview(load_rules("classic")).scoring
    assert "Each bomb played doubles the multiplier." in classic
