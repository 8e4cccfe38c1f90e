"""Variants: kawu (seed 004), duel (seed 003), duel-literal (seed 003 read literally,
without restriction 4), classic (seeds 000/002); check, diff, explain and --without on each.

Expected counts per type are derived here by arithmetic a reader can redo by hand: N ordinary
ranks with 4 copies each (classic 13: 3..2; duel 11: 5..2, seed 003 "retirez les quatre 3 et les
quatre 4"), two jokers, C chain ranks (classic 12: 3..A; duel 10: 5..A), moves of at most 20
cards (17 + talon 3).
"""

from __future__ import annotations

import json
from math import comb
from pathlib import Path
from typing import Any

import pytest

from ddzspec._resources import data_dir
from ddzspec.diff import diff_rules, read_moves_file, spec_differences
from ddzspec.explain import explain
from ddzspec.readings import read
from ddzspec.rules import Rules, load_rules, load_rules_text
from ddzspec.table import MoveTable, get_table

VARIANTS = ("classic", "kawu", "duel", "duel-literal")


@pytest.fixture(scope="module")
def rules() -> dict[str, Rules]:
    return {n: load_rules(n) for n in VARIANTS}


@pytest.fixture(scope="module")
def tables(rules: dict[str, Rules]) -> dict[str, MoveTable]:
    return {n: get_table(r) for n, r in rules.items()}


def rules_path(name: str) -> str:
    """``…/rules/kawu`` (no suffix), as a user types ``ddzspec check rules/kawu``."""
    return str(data_dir("rules") / name)


# --------------------------------------------------------------------------- the files

def test_kawu_and_duel_literal_are_written_as_extensions(rules: dict[str, Rules]) -> None:
    assert rules["kawu"].parents == ("classic",)
    assert rules["duel"].parents == ("classic",)
    assert rules["duel-literal"].parents == ("duel", "classic")
    text = (data_dir("rules") / "duel-literal.rules").read_text()
    assert "extends duel" in text and "kicker_rank_max off" in text


def test_kawu_differs_from_classic_only_in_kickers_and_redeal(rules: dict[str, Rules]) -> None:
    # Seed 004: "Les ailes simples d'un avion sont toutes de rangs différents ..." and
    # "Si tout le monde passe, les cartes sont redistribuées et le joueur suivant annonce en
    # premier"; seat order "vous, puis Droite, puis Gauche" is counter-clockwise.
    k, c = rules["kawu"], rules["classic"]
    assert [s.what for s in spec_differences(c, k)] == ["restrictions", "bidding"]
    assert k.restriction("distinct_kicker_ranks") is not None
    assert c.restriction("distinct_kicker_ranks") is None
    assert (c.bidding.all_pass_first_bidder, k.bidding.all_pass_first_bidder) == ("random", "next")
    assert k.deal.turn == "counterclockwise" and k.deal.players == 3


def test_duel_rules_follow_seed_003(rules: dict[str, Rules]) -> None:
    d = rules["duel"]
    # "retirez les quatre 3 et les quatre 4. Il reste 46 cartes"
    assert d.deck_size == 46 and d.deck[0] == d.deck[1] == 0
    # 17 + 17 dealt, talon 3, "Les 9 dernières cartes ne sont jamais distribuées"
    assert (d.deal.players, d.deal.hand, d.deal.talon, d.deal.undealt) == (2, 17, 3, 9)
    # call/rob: "au plus 4 rafles", no call: "le premier joueur devient le propriétaire"
    assert d.bidding.system == "call_rob" and d.bidding.max_robs == 4
    assert d.bidding.no_call_first_speaker_landlord
    # handicap = robs; "un seul « passer » termine le tour"; base 1, each rob doubles
    assert d.win.peasant == "robs" and d.win.landlord == 0
    assert d.trick.close_after == 1 and not d.trick.leader_may_pass
    assert d.scoring.base == 1 and "rob" in d.scoring.double
    # chains 5..A: "la suite la plus longue compte donc 10 cartes"
    assert dict(d.groups)["chain"] == tuple(range(2, 12))
    assert (d.shape("straight").run_min, d.shape("straight").run_max) == (5, 10)
    # "Les limites habituelles s'appliquent": restriction 4 is on in duel, off in duel-literal
    assert d.restriction("kicker_rank_max") is not None
    assert rules["duel-literal"].restriction("kicker_rank_max") is None


# --------------------------------------------------------------------------- counts by hand

def chains(c: int, lo: int, hi: int) -> int:
    """Runs of length lo..hi among c consecutive ranks."""
    return sum(c - length + 1 for length in range(lo, hi + 1))


def coefficient(factors: list[list[int]], power: int) -> int:
    """Coefficient of x**power in a product of polynomials (lists of coefficients)."""
    poly = [1]
    for f in factors:
        out = [0] * (len(poly) + len(f) - 1)
        for i, a in enumerate(poly):
            for j, b in enumerate(f):
                out[i + j] += a * b
        poly = out
    return poly[power] if power < len(poly) else 0


def expected_counts(n: int, c: int, distinct: bool) -> dict[str, int]:
    """Legal moves per type with n ordinary ranks, c chain ranks, two jokers, kickers never of
    a body rank (restriction 3), at most twice a rank among kickers (restriction 4), jokers never
    both kickers, four of a rank only as a whole body (restrictions 1-2); ``distinct``: kawu's
    kickers all of different ranks (seed 004)."""
    # a kicker single: each other ordinary rank 0, 1 or 2 times (kawu: 0 or 1), and at most one
    # joker (1 + 2x: none, the small or the big one)
    single_rank = [1, 1] if distinct else [1, 1, 1]
    plane_singles = sum(
        (c - trios + 1) * coefficient([single_rank] * (n - trios) + [[1, 2]], trios)
        for trios in range(2, 6))                     # 4 cards per trio: at most 5 trios
    return {
        "single": n + 2,
        "pair": n,
        "trio": n,
        "trio_single": n * (n - 1 + 2),
        "trio_pair": n * (n - 1),
        "straight": chains(c, 5, min(c, 12)),
        "pair_straight": chains(c, 3, 10),            # 10 pairs = 20 cards
        "plane": chains(c, 2, 6),                      # 6 trios = 18 cards
        "plane_singles": plane_singles,
        # one pair per trio, pairs of different ranks (two pairs of one rank would be a quad)
        "plane_pairs": sum((c - t + 1) * comb(n - t, t) for t in range(2, 5)),
        # two singles from the n-1 other ordinary ranks and the jokers, not both jokers;
        # classic also allows a pair of one rank as the two singles (seed 004 forbids it)
        "four_two_singles": n * (comb(n - 1 + 2, 2) - 1 + (0 if distinct else n - 1)),
        "four_two_pairs": n * comb(n - 1, 2),
        "bomb": n,
        "rocket": 1,
    }


@pytest.mark.parametrize(("name", "n", "c", "distinct"), [
    ("classic", 13, 12, False), ("kawu", 13, 12, True), ("duel", 11, 10, False)])
def test_counts_per_type(tables: dict[str, MoveTable], name: str, n: int, c: int,
                         distinct: bool) -> None:
    expected = expected_counts(n, c, distinct)
    assert tables[name].by_type() == expected
    assert len(tables[name]) == sum(expected.values())
    assert not tables[name].ambiguous


def test_hand_checkable_figures() -> None:
    # the arithmetic above, spelled out for the types the issue names
    classic, kawu, duel = (expected_counts(13, 12, False), expected_counts(13, 12, True),
                           expected_counts(11, 10, False))
    assert (classic["bomb"], kawu["bomb"], duel["bomb"]) == (13, 13, 11)
    assert classic["rocket"] == kawu["rocket"] == duel["rocket"] == 1
    assert (classic["straight"], duel["straight"]) == (8 + 7 + 6 + 5 + 4 + 3 + 2 + 1,
                                                       6 + 5 + 4 + 3 + 2 + 1)
    assert classic["four_two_singles"] == 13 * (91 - 1 + 12) == 1326
    assert kawu["four_two_singles"] == 13 * (91 - 1) == 1170
    assert duel["four_two_singles"] == 11 * (66 - 1 + 10) == 825
    assert classic["four_two_pairs"] == kawu["four_two_pairs"] == 13 * 66 == 858
    assert duel["four_two_pairs"] == 11 * 45 == 495
    # kawu plane + singles: C(13-t, t) distinct ordinary wings, or t-1 of them and one joker
    assert kawu["plane_singles"] == sum((13 - t) * (comb(13 - t, t) + 2 * comb(13 - t, t - 1))
                                        for t in range(2, 6)) == 7161
    assert classic["plane_pairs"] == 11 * 55 + 10 * 120 + 9 * 126 == 2939


def test_duel_literal_counts(tables: dict[str, MoveTable]) -> None:
    lit, duel = tables["duel-literal"].by_type(), tables["duel"].by_type()
    # the 7 planes of four trios (5555..8888 up to JJJ..AAA) become ambiguous
    assert lit["plane"] == duel["plane"] - 7 == 28
    assert {k: v for k, v in lit.items() if k not in ("plane", "plane_singles")} == \
        {k: v for k, v in duel.items() if k not in ("plane", "plane_singles")}
    assert lit["plane_singles"] > duel["plane_singles"]


# --------------------------------------------------------------------------- check

@pytest.mark.parametrize("name", ["kawu", "duel", "classic"])
def test_check_variant_exit_0(name: str, cli: Any) -> None:
    code, out = cli("check", rules_path(name), "--json").shown
    assert code == 0
    doc = json.loads(out)
    assert doc["rules"] == name and doc["ambiguous"] == []
    assert doc["moves"] == sum(doc["by_type"].values())
    code, out = cli("check", rules_path(name)).shown
    assert code == 0 and "OK" in out


def test_check_duel_literal_exit_1_with_the_three_readings(cli: Any) -> None:
    code, out = cli("check", rules_path("duel-literal"), "--json").shown
    assert code == 1
    doc = json.loads(out)
    amb = {a["cards"]: a["readings"] for a in doc["ambiguous"]}
    assert amb["555666777888"] == ["plane 555666777888", "plane_singles 555666777+8+8+8",
                                   "plane_singles 666777888+5+5+5"]
    assert len(amb) == len(doc["ambiguous"]) == 180
    assert all(len(r) >= 2 for r in amb.values())
    code, out = cli("check", rules_path("duel-literal")).shown
    assert code == 1 and "180 ambiguous moves" in out and "555666777888" in out
    # every ambiguous move is listed, one per line, with all its readings
    assert sum(1 for line in out.splitlines() if line.startswith("  ")) == 180


def test_check_lists_the_first_ambiguous_moves_and_counts_the_rest(tmp_path: Path,
                                                                   cli: Any) -> None:
    # a kicker-heavy shape: every one of its moves has several readings (tester1 item 4); the
    # text lists the smallest 200 (Readings built only for those), --json every one
    f = tmp_path / "k.rules"
    f.write_text("rules k extends classic\nshapes { k = 1 x 1 + 3 single }\n")
    code, out = cli("check", str(f)).shown
    lines = out.splitlines()
    n = int(next(x for x in lines if "ambiguous moves" in x).split()[0])
    assert code == 1 and n > 200
    assert sum(1 for x in lines if x.startswith("  ") and not x.startswith("  ...")) == 200
    assert f"  ... and {n - 200} more (--json lists them all)" in lines
    code, js = cli("check", str(f), "--json").shown
    assert len(json.loads(js)["ambiguous"]) == n


def test_555666777888_reads_three_ways_on_duel_literal(rules: dict[str, Rules]) -> None:
    # seed 003 read literally: no restriction 4, so the plane of four trios is also a
    # three-trio plane carrying a trio (RULES.md, restriction 4)
    v = read("555666777888", rules["duel-literal"])
    assert v.ambiguous
    assert [r.describe() for r in v.readings] == [
        "plane 555666777888", "plane_singles 555666777+8+8+8", "plane_singles 666777888+5+5+5"]
    assert read("555666777888", rules["duel"]).reading.shape == "plane"


# --------------------------------------------------------------------------- diff

def test_diff_classic_kawu(rules: dict[str, Rules]) -> None:
    d = diff_rules(rules["classic"], rules["kawu"], limit=None)
    assert d.counts["only_b"] == {} and d.counts["changed"] == {}
    assert d.counts["only_a"] == {"plane_singles": 18990 - 7161, "four_two_singles": 1326 - 1170}
    by_cards = {str(x.cards): x for x in d.differences}
    for cards, shape in (("444455", "four_two_singles"), ("33344455", "plane_singles")):
        x = by_cards[cards]
        assert x.direction == "only_a" and x.type == shape and not x.b
        assert x.why == "ruled out by distinct_kicker_ranks in kawu"


def test_diff_classic_kawu_cli_shows_444455_and_33344455(cli: Any) -> None:
    code, out = cli("diff", "classic", "kawu").shown
    assert code == 1
    assert "readings only in classic: 11985" in out
    assert "four_two_singles 4444+5+5  (ruled out by distinct_kicker_ranks in kawu)" in out
    assert "plane_singles 333444+5+5  (ruled out by distinct_kicker_ranks in kawu)" in out
    assert "all_pass redeal first_bidder next" in out


def test_diff_classic_duel_removed_ranks_and_shorter_chains(rules: dict[str, Rules],
                                                            tables: dict[str, MoveTable]) -> None:
    d = diff_rules(rules["classic"], rules["duel"], limit=None)
    # every duel move is a classic move read the same way; the rest hold a 3 or a 4
    assert d.total == {"only_a": len(tables["classic"]) - len(tables["duel"]), "only_b": 0,
                       "changed": 0}
    assert all(x.cards.counts[0] or x.cards.counts[1] for x in d.differences)
    assert d.counts["only_a"]["straight"] == 36 - 21
    assert d.counts["only_a"]["bomb"] == 2                      # 3333 and 4444
    by_cards = {str(x.cards): x for x in d.differences}
    assert by_cards["3333"].why == "duel's deck has no 3"
    assert by_cards["3456789TJQKA"].why == ("duel's deck has no 3 4; duel's straight body is "
                                            "5..10 ranks long, not 12")
    spec = {s.what: (s.a, s.b) for s in d.spec}
    assert spec["deck"][1] == "46 cards: 5 6 7 8 9 T J Q K A 2 B R (no 3 4)"
    assert spec["group chain"] == ("3 4 5 6 7 8 9 T J Q K A", "5 6 7 8 9 T J Q K A")
    assert spec["shape straight"] == ("1 x 5..12 in chain", "1 x 5..10 in chain")


def test_diff_classic_duel_cli_json(cli: Any) -> None:
    code, out = cli("diff", "classic", "duel", "--json").shown
    assert code == 1
    doc = json.loads(out)
    assert doc["a"] == "classic" and doc["b"] == "duel"
    assert doc["total"] == {"only_a": 24639 - 8798, "only_b": 0, "changed": 0}
    straights = [x for x in doc["differences"] if x["type"] == "straight"]
    assert len(straights) == 5                                  # a few per type by default
    assert any("not 12" in x["why"] for x in straights)        # the longest: too long for duel
    code, out = cli("diff", "classic", "duel", "--json", "--all").shown
    doc = json.loads(out)
    assert len(doc["differences"]) == 24639 - 8798


def test_diff_duel_duel_literal_extra_readings(rules: dict[str, Rules]) -> None:
    d = diff_rules(rules["duel"], rules["duel-literal"], limit=None)
    assert d.counts["only_a"] == {}
    assert d.counts["changed"] == {"plane -> ambiguous(plane/plane_singles)": 7}
    x = next(x for x in d.differences if str(x.cards) == "555666777888")
    assert [r.describe() for r in x.a] == ["plane 555666777888"]
    assert len(x.b) == 3
    # a trio carried as three singles: legal only without restriction 4
    y = next(x for x in d.differences if str(x.cards) == "555666777999")
    assert y.direction == "only_b" and y.why == "ruled out by kicker_rank_max in duel"
    assert d.total["only_b"] == 9787 - 8798 + 7 + 173    # new legal moves + new ambiguous ones
    assert d.counts["only_b"]["ambiguous(plane_singles)"] == 173


def test_diff_moves_file(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "moves.txt"
    f.write_text("# seed 004 examples\n444455\n33344455\n3 3 3 4 4 4 + 5 7\n\n555666777888\nBR\n")
    code, out = cli("diff", "classic", "kawu", "--moves", str(f), "--json").shown
    assert code == 1
    doc = json.loads(out)
    assert doc["compared"] == 5
    assert [x["cards"] for x in doc["differences"]] == ["444455", "33344455"]
    h = tmp_path / "duel.txt"                     # duel's deck: no 3s or 4s (seed 003)
    h.write_text("555666777888\n55566678\n")
    code, out = cli("diff", "duel", "duel-literal", "--moves", str(h)).shown
    assert code == 1 and "555666777888: duel: plane 555666777888; duel-literal:" in out
    g = tmp_path / "same.txt"
    g.write_text("3 3 3 4 4 4 + 5 7\nBR\n")
    code, out = cli("diff", "classic", "kawu", "--moves", str(g)).shown
    # the moves agree, but the rules sections (restrictions, bidding) still differ: exit 1
    assert code == 1 and "No multiset differs" in out and "Rules that differ" in out
    code, out = cli("diff", "classic", "classic", "--moves", str(g)).shown
    assert code == 0 and "No multiset differs" in out


def test_diff_moves_file_errors(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "bad.txt"
    f.write_text("444455\n  33X\n")
    code, out = cli("diff", "classic", "kawu", "--moves", str(f)).shown
    assert code == 2 and f"{f}:2:5: unknown symbol 'X'" in out
    code, out = cli("diff", "classic", "kawu", "--moves", str(tmp_path / "none.txt")).shown
    assert code == 2 and "cannot read" in out
    code, out = cli("diff", "classic", "nope").shown
    assert code == 2 and "no rules file 'nope'" in out
    with pytest.raises(Exception, match=r"m\.txt:1:2"):
        read_moves_file("4X\n", "m.txt")
    # a wild card: diff compares natural readings and takes no wild rank, so it says so
    res = cli("diff", "laizi", "classic", "--moves", "-", input="3333\n4***\n")
    assert res.exit_code == 2 and ("<stdin>:2:2: '*' is a wild card, but diff compares the "
                                   "moves' natural readings (it names no wild rank)") in res.output
    # more copies than either deck holds; a rank neither deck has (duel vs duel-literal: no 3)
    res = cli("diff", "classic", "kawu", "--moves", "-", input="22222\n")
    assert res.exit_code == 2 and "<stdin>:1:5: more copies of '2' than the deck holds (4)" \
        in res.output
    res = cli("diff", "duel", "duel-literal", "--moves", "-", input="33\n")
    assert res.exit_code == 2 and "<stdin>:1:1: the deck has no 3" in res.output
    # a line longer than 16 characters for each of the 54 cards: refused before it is parsed
    # (300 000 characters took 11 s and 210 MB to reach the fifth 3), on one line
    res = cli("diff", "classic", "happy", "--moves", "-", input="\n" + "3" * 300_000 + "\n")
    assert res.exit_code == 2 and ("<stdin>:2:865: too long for cards: 300000 characters, at "
                                   "most 864 (16 for each of the 54 cards of the deck)") \
        in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_diff_identical(rules: dict[str, Rules]) -> None:
    d = diff_rules(rules["kawu"], rules["kawu"])
    assert d.identical and d.spec == () and d.differences == ()


# --------------------------------------------------------------------------- --without

def test_without_on_every_command(cli: Any) -> None:
    code, out = cli("read", "--without", "trio_pair", "--json", "33344").shown
    assert code == 0 and json.loads(out)[0]["legal"] is False
    code, out = cli("beats", "--without", "trio_pair", "44455", "33344").shown
    assert code != 0 or out.startswith("no: ")
    assert "is not a legal move" in out
    code, out = cli("beats", "--without", "trio_pair", "444", "333").shown
    assert code == 0 and out.startswith("yes: ")
    code, out = cli("explain", "--without", "four_two_singles", "444455").shown
    assert code == 0 and "illegal" in out
    code, out = cli("check", "--without", "trio_pair", "--json").shown
    doc = json.loads(out)
    assert "trio_pair" not in doc["by_type"] and doc["moves"] == 24639 - 156
    code, out = cli("check", rules_path("kawu"), "--without", "trio_pair", "--json").shown
    assert json.loads(out)["moves"] == 12654 - 156
    code, out = cli("diff", "classic", "kawu", "--without", "four_two_singles", "--json").shown
    assert json.loads(out)["counts"]["only_a"] == {"plane_singles": 11829}
    for cmd in (["read", "333"], ["check"], ["diff", "classic", "kawu"], ["explain", "333"],
                ["beats", "444", "333"]):
        code, out = cli(*cmd, "--without", "trio_triple").shown
        assert code == 2 and "trio_triple" in out


def test_without_in_a_file_is_the_same_as_the_option(rules: dict[str, Rules]) -> None:
    # "no trio + pair": the ban of an endgame puzzle, written in a rules file
    banned = load_rules_text("rules no-trio-pair extends classic\nwithout trio_pair\n")
    assert [s.name for s in banned.shapes] == \
        [s.name for s in rules["classic"].without_shapes(["trio_pair"]).shapes]
    assert len(get_table(banned)) == 24639 - 156


# --------------------------------------------------------------------------- explain

def test_explain_kawu_444455(rules: dict[str, Rules], cli: Any) -> None:
    # seed 004: "Le carré avec deux prend deux cartes seules de rangs différents"
    ex = explain("444455", rules["kawu"])
    assert not ex.verdict.legal
    assert ex.lines[0] == "444455 under kawu: illegal."
    assert "  four_two_singles 4444+5+5: ruled out by distinct_kicker_ranks" in ex.lines
    assert ex.lines[-1] == "Under classic it would be four_two_singles 4444+5+5."
    code, out = cli("explain", "--rules", "kawu", "444455").shown
    assert code == 0
    assert "distinct_kicker_ranks" in out and "Under classic it would be four_two_singles" in out


@pytest.mark.parametrize(("name", "move", "shape"), [
    ("kawu", "444456", "four_two_singles"), ("duel", "555566", "four_two_singles"),
    ("duel-literal", "555666777999", "plane_singles")])
def test_explain_in_every_variant(rules: dict[str, Rules], name: str, move: str,
                                  shape: str) -> None:
    ex = explain(move, rules[name])
    assert ex.verdict.legal and ex.verdict.reading.shape == shape
    assert f" under {name}: {shape} " in ex.lines[0]


def test_diff_changed_type_when_both_read_it(tmp_path: Path, rules: dict[str, Rules]) -> None:
    # a house variant that calls the bomb a "quad": 3333 is read in both, as another type
    f = tmp_path / "quad.rules"
    f.write_text("rules quad extends classic\n"
                 "shapes {\n    without bomb\n    quad = 4 x 1\n}\n"
                 "precedence rocket > quad > others\n"
                 "scoring {\n    base bid\n    double quad rocket spring anti_spring\n}\n")
    d = diff_rules(rules["classic"], load_rules(str(f)), limit=None)
    assert d.counts == {"only_a": {}, "only_b": {}, "changed": {"bomb -> quad": 13}}
    x = d.differences[0]
    assert str(x.cards) == "3333" and x.why == "classic: bomb 3333; quad: quad 3333"
    assert [s.what for s in d.spec] == ["shape bomb", "shape quad", "scoring"]


def test_diff_moves_from_stdin(cli: Any) -> None:
    res = cli("diff", "classic", "kawu", "--moves", "-", "--json",
              input="444455\n44445566\n")
    assert res.exit_code == 1
    doc = json.loads(res.output)
    assert doc["compared"] == 2 and [x["cards"] for x in doc["differences"]] == ["444455"]


def test_only_another_bidding_system_is_listed_whole() -> None:
    """Another bidding system differs in every clause (shared ones too); another section whose
    first clause differs (the deal's players) lists only the clauses that differ."""
    got = {s.what: (s.a, s.b) for s in spec_differences(load_rules("classic"),
                                                        load_rules("duel"))}
    assert got["bidding"] == (
        "auction, first_speaker random, bids 1 2 3, ends_at 3, all_pass redeal first_bidder "
        "random", "call_rob, first_speaker random, max_robs 4, no_call landlord first_speaker")
    assert got["deal"] == ("players 3, undealt 0", "players 2, undealt 9")


# found by a fresh tester
def test_diff_sees_a_scoring_only_change(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "nospring.rules"
    f.write_text('rules nospring "no spring" extends classic\n'
                 "scoring { base bid  double bomb rocket  settle per_peasant }\n")
    code, out, _ = cli("diff", "classic", str(f))
    assert code == 1
    assert out.splitlines()[0].startswith("diff classic nospring:")
    assert "nospring: double bomb rocket" in out and "No multiset differs" in out
