"""House rules a designer writes as data: ``kicker_not_in`` (ranks or
groups barred from kickers), ``ddzspec rules show`` (the resolved rules after ``extends``),
the restriction registry, and the in-memory rules cache keyed by the whole ``extends`` chain.

The house rule "no jokers and no 2s among kickers" extends classic (seeds 000/002).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ddzspec.cards import N_RANKS, Rank, parse_cards
from ddzspec.errors import RulesError
from ddzspec.readings import read
from ddzspec.restrictions import REGISTRY, Param, words
from ddzspec.rules import Restriction, load_rules, load_rules_text, resolved_text
from ddzspec.table import get_table

HOUSE = "rules house extends classic\nrestrictions {\n    kicker_not_in 2 group jokers\n}\n"
BARRED = (Rank.TWO.index, Rank.SMALL_JOKER.index, Rank.BIG_JOKER.index)


@pytest.fixture(scope="module")
def house_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    f = tmp_path_factory.mktemp("house") / "house.rules"
    f.write_text(HOUSE, encoding="utf-8")
    return f


def test_kicker_not_in_declares_ranks_and_groups(house_file: Path) -> None:
    r = load_rules(str(house_file))
    assert r.restriction("kicker_not_in") == Restriction("kicker_not_in", ranks=BARRED)
    assert str(r.restriction("kicker_not_in")) == "kicker_not_in 2 B R"
    # the same rule written with ranks only, or with the group only plus the 2
    for spelled in ("kicker_not_in 2 B R", "kicker_not_in group jokers 2",
                    "kicker_not_in R B 2 B"):
        alt = load_rules_text(f"rules h extends classic\nrestrictions {{ {spelled} }}\n")
        assert alt.restriction("kicker_not_in") == Restriction("kicker_not_in", ranks=BARRED)
    assert words(r.restriction("kicker_not_in")) == "no kicker is a 2, B or R (house rule)"


@pytest.mark.parametrize("move, classic, house", [
    ("333+B", "trio_single", None),     # a joker kicker: barred
    ("333+2", "trio_single", None),     # a 2 kicker: barred
    ("333+22", "trio_pair", None),
    ("4444+2+B", "four_two_singles", None),
    ("333444+2+R", "plane_singles", None),
    ("333+4", "trio_single", "trio_single"),    # an ordinary kicker stays legal
    ("222+3", "trio_single", "trio_single"),    # 2s in the body are not kickers
    ("BR", "rocket", "rocket"),
    ("2222", "bomb", "bomb"),
    ("2", "single", "single"),
])
def test_moves_barred_and_kept(house_file: Path, move: str, classic: str,
                               house: str | None) -> None:
    c = read(move, load_rules("classic"))
    h = read(move, load_rules(str(house_file)))
    assert c.legal and c.reading.shape == classic
    if house is None:
        assert not h.legal and not h.ambiguous
        assert "kicker_not_in" in h.reason
    else:
        assert h.legal and h.reading.shape == house


def test_move_counts_change_only_by_barred_kickers(house_file: Path) -> None:
    # planes with wings dropped on both sides: the rest compiles in a fraction of a second
    planes = ("plane_singles", "plane_pairs")
    classic = get_table(load_rules("classic", without=planes))
    house = get_table(load_rules(str(house_file), without=planes))
    # only a filter was added: every house move is a classic move with the same reading
    assert set(house.entries) <= set(classic.entries)
    assert all(classic.entries[k] == e for k, e in house.entries.items())
    removed = [classic.lookup(k) for k in set(classic.entries) - set(house.entries)]
    assert all(r is not None and any(r.kickers.counts[i] for i in BARRED) for r in removed)
    assert not [r for r in house.readings() if any(r.kickers.counts[i] for i in BARRED)]
    # by hand: trio + single, 13 bodies, the kicker another plain rank, never 2/B/R:
    # body 2 -> 12 kickers (3..A), body 3..A -> 11 (3..A but the body): 12 + 12 x 11 = 144
    # (classic: 13 bodies x 14 other ranks = 182); trio + pair likewise, a pair is never a
    # joker: 144 (classic 13 x 12 = 156)
    assert (house.by_type()["trio_single"], classic.by_type()["trio_single"]) == (144, 182)
    assert (house.by_type()["trio_pair"], classic.by_type()["trio_pair"]) == (144, 156)
    assert len(classic) - len(house) == len(removed) > 0
    unchanged = ("single", "pair", "trio", "straight", "pair_straight", "plane", "bomb", "rocket")
    assert all(house.by_type()[t] == classic.by_type()[t] for t in unchanged)


@pytest.mark.parametrize("line, message, column", [
    ("kicker_not_in", "restriction kicker_not_in needs ranks or a group", 5),
    ("kicker_not_in group nope",
     "restriction kicker_not_in: unknown group 'nope' (groups: chain, jokers)", 25),
    ("kicker_not_in 11", "restriction kicker_not_in: 11 is not a rank", 19),
    ("kicker_rank_max 2 B", "restriction kicker_rank_max takes one number", 5),
    ("quad_block 2", "restriction quad_block takes no number", 5),
    ("quad_block B", "restriction quad_block takes no ranks", 5),
])
def test_bad_restriction_parameters_are_located(tmp_path: Path, line: str, message: str,
                                                column: int) -> None:
    f = tmp_path / "bad.rules"
    f.write_text(f"rules bad extends classic\nrestrictions {{\n    {line}\n}}\n")
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    assert (e.value.path, e.value.line, e.value.column) == (str(f), 3, column)
    assert e.value.message.startswith(message)


def test_kicker_not_in_a_rank_the_deck_lacks() -> None:
    # duel (seed 003) removes the 3s and 4s
    with pytest.raises(RulesError, match="kicker_not_in: 3 not in the deck"):
        load_rules_text("rules d extends duel\nrestrictions { kicker_not_in 3 }\n")


def test_every_registry_entry_is_worded_and_decides() -> None:
    rules = load_rules("kawu")
    trio = rules.shape("trio_single")
    counts = parse_cards("3332").cards.counts
    body, rem = [Rank.THREE.index], [0] * N_RANKS
    rem[Rank.TWO.index] = 1
    params = {Param.NONE: {}, Param.COUNT: {"param": 2}, Param.RANKS: {"ranks": BARRED}}
    expect = {"quad_block": True, "kicker_not_body_rank": True, "kicker_rank_max": True,
              "jokers_not_both_kickers": True, "distinct_kicker_ranks": True,
              "kicker_not_in": False}
    assert set(REGISTRY) == set(expect)
    for name, kind in REGISTRY.items():
        r = Restriction(name, **params[kind.param])  # type: ignore[arg-type]
        assert kind.words(r) == words(r) and "{" not in words(r)
        assert kind.predicate(r, rules, trio, counts, body, rem) is expect[name], name


# ----------------------------------------------------------------------------- rules show

@pytest.mark.parametrize("name", ["classic", "duel-literal"])
def test_rules_show_loads_back_to_equal_rules(name: str, cli: Any) -> None:
    res = cli("rules", "show", name, "--without", "trio_pair")
    assert res.exit_code == 0, res.output
    r = load_rules(name, without=("trio_pair",))
    assert res.output == resolved_text(r)
    back = load_rules_text(res.output)
    assert replace(back, path=r.path, parents=r.parents, without=r.without) == r


def test_rules_show_resolves_a_local_extends(tmp_path: Path, cli: Any) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "base.rules").write_text(HOUSE)
    child = tmp_path / "sub" / "child.rules"
    child.write_text('rules child "child" extends "base.rules"\nwithout plane_pairs\n')
    res = cli("rules", "show", str(child))
    assert res.exit_code == 0, res.output
    assert "kicker_not_in 2 B R" in res.output and "extends" not in res.output
    assert "plane_pairs" not in res.output
    r = load_rules(str(child))
    assert r.parents == ("house", "classic")
    back = load_rules_text(res.output)
    assert replace(back, path=r.path, parents=r.parents, without=r.without) == r


def test_rules_show_bad_input_exits_2(tmp_path: Path, cli: Any) -> None:
    f = tmp_path / "bad.rules"
    f.write_text("rules bad extends classic\nrestrictions {\n    kicker_not_in 2 R X\n}\n")
    res = cli("rules", "show", str(f))
    assert res.exit_code == 2
    assert f"{f}:3:23: unexpected 'X'" in res.output and "Traceback" not in res.output
    res = cli("rules", "show", "classic", "--without", "nope")
    assert res.exit_code == 2 and "--without nope: no such shape" in res.output


# ----------------------------------------------------------------------------- the cache

def test_an_edited_parent_is_seen_by_its_child(tmp_path: Path) -> None:
    parent = tmp_path / "parent.rules"
    child = tmp_path / "child.rules"
    parent.write_text("rules parent extends classic\nrestrictions { kicker_rank_max 2 }\n")
    child.write_text('rules child extends "parent"\n')
    first = load_rules(str(child))
    assert first.restriction("kicker_rank_max") == Restriction("kicker_rank_max", 2)
    assert load_rules(str(child)) is first  # unchanged chain: served from memory
    # same size, same modification time: only the content tells the edit apart
    stat = parent.stat()
    parent.write_text("rules parent extends classic\nrestrictions { kicker_rank_max 1 }\n")
    os.utime(parent, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert parent.stat().st_size == stat.st_size
    second = load_rules(str(child))
    assert second.restriction("kicker_rank_max") == Restriction("kicker_rank_max", 1)
    assert second.digest != first.digest
    # a parent that disappears is an error, not a stale answer
    parent.unlink()
    with pytest.raises(RulesError, match="no rules file 'parent'"):
        load_rules(str(child))
