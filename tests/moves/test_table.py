"""The compiled move table against the CSP, and properties of readings."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ddzspec.cards import NOTATIONS, Cards, parse_cards
from ddzspec.readings import beats, solve_readings
from ddzspec.rules import Rules, load_rules, load_rules_text
from ddzspec.table import MoveTable, compile_table, get_table, table_path

# per-type counts of classic, derived by hand (seeds 000/002):
#  single 15 ranks; pair/trio/bomb 13 ranks; rocket 1; straight: lengths 5..12 over 12 chain
#  ranks: sum(12 - L + 1) = 36; pair_straight 3..10 pairs: sum(12 - L + 1, L=3..10) = 52;
#  plane 2..6 trios: sum(12 - L + 1, L=2..6) = 45; trio_single: 13 trios x 14 other ranks = 182;
#  trio_pair: 13 x 12 other paired ranks = 156; four_two_pairs: 13 x C(12, 2) = 858;
#  four_two_singles: 13 x (multisets of 2 from 14 other ranks, at most one copy of each joker,
#  not both jokers) = 13 x (C(14, 2) + 14 - 2 - 1) = 13 x 102 = 1326.
CLASSIC_BY_HAND = {"single": 15, "pair": 13, "trio": 13, "trio_single": 182, "trio_pair": 156,
                   "straight": 36, "pair_straight": 52, "plane": 45, "four_two_singles": 1326,
                   "four_two_pairs": 858, "bomb": 13, "rocket": 1}


def test_classic_counts_per_type(classic_table: MoveTable) -> None:
    by_type = classic_table.by_type()
    for name, n in CLASSIC_BY_HAND.items():
        assert by_type[name] == n, name
    # the kicker-carrying planes have no short formula; pinned as computed (perft-style data)
    assert by_type["plane_singles"] == 18990 and by_type["plane_pairs"] == 2939
    assert len(classic_table) == 24639
    assert classic_table.ambiguous == {}


def test_every_table_entry_has_exactly_one_csp_reading(classic: Rules,
                                                       classic_table: MoveTable) -> None:
    rng = random.Random(7)
    keys = list(classic_table.entries)
    for key in rng.sample(keys, 3000):
        got = solve_readings(Cards.from_key(key).counts, classic)
        assert len(got) == 1
        assert got[0] == classic_table.lookup(key)


def _random_multiset(draw: st.DrawFn, deck: tuple[int, ...]) -> Cards:
    size = draw(st.integers(1, 20))
    pool = [i for i, c in enumerate(deck) for _ in range(c)]
    picked = draw(st.permutations(pool))[:size]
    counts = [0] * 15
    for i in picked:
        counts[i] += 1
    return Cards(tuple(counts))


@st.composite
def structured_multisets(draw: st.DrawFn) -> Cards:
    """Random multisets biased towards near-legal moves (runs of equal counts plus extras)."""
    counts = [0] * 15
    start, run, copies = draw(st.integers(0, 11)), draw(st.integers(1, 6)), draw(st.integers(1, 4))
    for i in range(start, min(start + run, 12)):
        counts[i] = copies
    for _ in range(draw(st.integers(0, 6))):
        i = draw(st.integers(0, 14))
        counts[i] = min(counts[i] + draw(st.integers(1, 2)), 4 if i < 13 else 1)
    assume(sum(counts) > 0)
    return Cards(tuple(counts))


@settings(max_examples=400, deadline=None)
@given(cards=st.one_of(structured_multisets(),
                       st.builds(lambda: None).flatmap(lambda _: st.composite(
                           lambda d: _random_multiset(d, (4,) * 13 + (1, 1)))())))
def test_csp_and_table_agree(cards: Cards) -> None:
    for name in ("classic", "duel-literal"):  # duel-literal has ambiguous moves
        rules = load_rules(name)
        if any(c > d for c, d in zip(cards.counts, rules.deck)):
            continue
        table = get_table(rules)
        csp = solve_readings(cards.counts, rules)
        looked = table.lookup(cards)
        if len(csp) == 1:
            assert looked == csp[0]
            assert cards.key not in table.ambiguous
        elif csp:  # several readings: the table lists exactly these, and no unique one
            assert looked is None
            assert sorted(table.reading_of(cards.key, e).describe()
                          for e in table.ambiguous[cards.key]) == sorted(r.describe() for r in csp)
        else:
            assert looked is None and cards.key not in table.ambiguous


def test_ambiguous_multisets_of_duel_literal_match_the_csp() -> None:
    """Every ambiguous multiset of the table has exactly the CSP's readings (180 in
    duel-literal), e.g. 555666777888 (README)."""
    rules = load_rules("duel-literal")
    table = get_table(rules)
    assert len(table.ambiguous) == 180
    for key, entries in table.ambiguous.items():
        csp = solve_readings(Cards.from_key(key).counts, rules)
        assert len(csp) >= 2
        assert sorted(table.reading_of(key, e).describe() for e in entries) == \
            sorted(r.describe() for r in csp)
    assert Cards.parse("555666777888").key in table.ambiguous


@settings(max_examples=300, deadline=None)
@given(data=st.data(), notation=st.sampled_from(NOTATIONS))
def test_format_then_parse_is_identity_on_table_moves(data: st.DataObject, notation: str) -> None:
    table = get_table(load_rules("classic"))
    key = data.draw(st.sampled_from(sorted(table.entries)))
    r = table.lookup(key)
    assert r is not None
    for text in (r.format(notation), r.format(notation, split_units=True)):
        assert parse_cards(text, notation).cards == r.cards


_BY_SHAPE: dict[int, list[int]] = {}


def _keys_by_shape() -> dict[int, list[int]]:
    if not _BY_SHAPE:
        for k, e in sorted(get_table(load_rules("classic")).entries.items()):
            _BY_SHAPE.setdefault(e[0], []).append(k)
    return _BY_SHAPE


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_beats_is_irreflexive_and_transitive_within_a_type(data: st.DataObject) -> None:
    table = get_table(load_rules("classic"))
    groups = _keys_by_shape()
    same = groups[data.draw(st.sampled_from(sorted(groups)))]
    a, b, c = (table.lookup(data.draw(st.sampled_from(same))) for _ in range(3))
    assert a is not None and b is not None and c is not None
    assert not beats(a, a)[0]
    if beats(a, b)[0] and beats(b, c)[0]:
        assert beats(a, c)[0]
    assert not (beats(a, b)[0] and beats(b, a)[0])
    # within a type and length, beats is exactly the order of the comparison key
    if a.size == b.size:
        assert beats(a, b)[0] == (a.key > b.key)


def test_lifting_kicker_rank_max_makes_333444555666_ambiguous(tmp_path: Path, cli: Any) -> None:
    text = load_rules("classic").path
    src = Path(text).read_text().replace("kicker_rank_max 2", "kicker_rank_max off")
    f = tmp_path / "lifted.rules"
    f.write_text(src)
    res = cli("check", str(f), "--json")
    assert res.exit_code == 1
    import json
    amb = {a["cards"]: a["readings"] for a in json.loads(res.output)["ambiguous"]}
    assert amb["333444555666"] == ["plane 333444555666", "plane_singles 333444555+6+6+6",
                                   "plane_singles 444555666+3+3+3"]


def test_cache_is_keyed_by_content(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path))
    base = load_rules("classic")
    changed = load_rules_text('rules mine extends classic\nshapes { without trio_pair }\n')
    assert base.digest != changed.digest
    assert table_path(base) != table_path(changed)
    from ddzspec import table as table_mod
    monkeypatch.setattr(table_mod, "_LOADED", {})  # another test may have loaded it in memory
    t = get_table(changed, use_cache=True)
    assert "trio_pair" not in t.by_type() and table_path(changed).is_file()
    assert len(t) == len(compile_table(changed)) == 24639 - 156


def test_without_drops_a_shape(classic: Rules) -> None:
    r = classic.without_shapes(["trio_pair"])
    assert "trio_pair" not in [s.name for s in r.shapes]
    assert solve_readings(Cards.parse("33344").counts, r) == []


# found by a fresh tester
def test_tables_are_shared_but_bound_to_the_asking_rules(tmp_path: Path) -> None:
    from ddzspec.rules import load_rules_text
    from ddzspec.table import get_table
    other = load_rules_text('rules other extends classic\ntrick { close_after 2 passes }\n')
    classic = load_rules("classic")
    assert other.digest == classic.digest
    assert get_table(other).rules is other and get_table(classic).rules is classic
    assert get_table(other).entries is get_table(classic).entries
