"""Legal moves (the seeds' Hint, 003/004) against a brute-force filter of the compiled table."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddzspec.cards import N_RANKS, Cards, pack
from ddzspec.errors import (
    AmbiguousReadingError,
    GameError,
    IllegalMoveError,
    NotationError,
)
from ddzspec.moves import _GUARD, MoveIndex, TableIndex, legal_moves, move_index
from ddzspec.readings import beats
from ddzspec.rules import Rules, load_rules
from ddzspec.table import get_table

VARIANTS = ("classic", "kawu", "duel")


@cache
def _brute(name: str):  # type: ignore[no-untyped-def]
    idx = move_index(load_rules(name))
    return [(pack(r.cards.counts), r) for r in idx.table.readings()]


def brute_moves(name: str, hand: Cards, previous=None):  # type: ignore[no-untyped-def]
    h4 = pack(hand.counts) | _GUARD
    out = []
    for m4, r in _brute(name):
        if (h4 - m4) & _GUARD != _GUARD:
            continue
        if previous is None or beats(r, previous)[0]:
            out.append(r.cards.key)
    return sorted(out)


@st.composite
def hands(draw, name: str, max_size: int = 20):  # type: ignore[no-untyped-def]
    rules = load_rules(name)
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
    n = draw(st.integers(1, max_size))
    picked = draw(st.permutations(deck))[:n]
    counts = [0] * N_RANKS
    for i in picked:
        counts[i] += 1
    return Cards(tuple(counts))


@pytest.mark.parametrize("name", VARIANTS)
def test_leads_match_brute_force(name: str) -> None:
    @settings(max_examples=150, deadline=None)
    @given(hands(name))
    def check(hand: Cards) -> None:
        got = legal_moves(hand, rules=load_rules(name))
        keys = [m.cards.key for m in got]
        assert len(keys) == len(set(keys)), "duplicates"
        assert sorted(keys) == brute_moves(name, hand)
        assert not got.can_pass
    check()


@pytest.mark.parametrize("name", VARIANTS)
def test_answers_match_brute_force(name: str) -> None:
    rules = load_rules(name)
    table = move_index(rules).table
    all_keys = sorted(table.entries)

    @settings(max_examples=150, deadline=None)
    @given(hands(name, 17), st.integers(0, len(all_keys) - 1))
    def check(hand: Cards, k: int) -> None:
        prev = table.lookup(all_keys[k])
        assert prev is not None
        got = legal_moves(hand, prev, rules)
        keys = [m.cards.key for m in got]
        assert len(keys) == len(set(keys))
        assert sorted(keys) == brute_moves(name, hand, prev)
        assert got.can_pass
        for m in got:
            assert beats(m, prev)[0]
    check()


@pytest.mark.parametrize("name", VARIANTS + ("duel-literal",))
def test_per_hand_generation_equals_the_table(name: str) -> None:
    """Cost grows with what is asked: moves generated from the hand alone (no table) are exactly
    the table's, in the same hint order, as leads and as answers; a hand holding an ambiguous move
    raises."""
    rules = load_rules(name)
    table = get_table(rules)
    fast = TableIndex(table)
    slow = MoveIndex(rules)  # never looks at a table: hand_moves only
    amb4 = [pack(Cards.from_key(k).counts) for k in table.ambiguous]
    all_keys = sorted(table.entries)

    @settings(max_examples=60, deadline=None)
    @given(hands(name), st.integers(0, len(all_keys) - 1))
    def check(hand: Cards, k: int) -> None:
        h4 = pack(hand.counts) | _GUARD
        if any((h4 - m4) & _GUARD == _GUARD for m4 in amb4):
            with pytest.raises(AmbiguousReadingError):
                slow.hand_moves(hand.counts)
            return
        got = slow.hand_moves(hand.counts)
        assert got == fast.leads(hand.counts)
        prev = table.lookup(all_keys[k])
        assert prev is not None
        assert [r for r in got if r.tier > prev.tier or (
            r.shape == prev.shape and r.size == prev.size and r.key > prev.key)] == \
            fast.answers(hand.counts, prev)
    check()


def test_answer_from_a_small_hand_hits_the_same_type(classic: Rules) -> None:
    """Same type and length with higher body, bombs, rocket (seeds 000/002)."""
    got = legal_moves("3455567789TJQQKA2BR", "66", classic)
    assert [m.format() for m in got] == ["77", "QQ", "BR"]
    got = legal_moves("345678TTTT", "34567", classic)
    assert [m.format() for m in got] == ["45678", "TTTT"]


def test_four_sevens_may_still_play_three(classic: Rules) -> None:
    """Seeds 000/002, restriction 2: "avec quatre 7 en main, on peut toujours en jouer trois en
    brelan avec une carte" — it limits what is played, not what is held."""
    got = [m.describe() for m in legal_moves("77773", rules=classic)]
    assert "trio_single 777+3" in got
    assert "bomb 7777" in got
    assert "trio 777" in got
    # but never 7777 split as 777 + 7 (restriction 3: four 7s together are only a bomb)
    assert [m.describe() for m in legal_moves("7777", rules=classic)] == \
        ["single 7", "pair 77", "trio 77" + "7", "bomb 7777"]
    # answering a trio + single with four 7s in hand
    ans = [m.format() for m in legal_moves("77773", "666+5", classic)]
    assert ans == ["777+3", "7777"]


def test_hint_order_is_deterministic_smallest_first(classic: Rules) -> None:
    a = [m.format() for m in legal_moves("33445566", rules=classic)]
    b = [m.format() for m in legal_moves(Cards.parse("65436543"), rules=classic)]
    assert a == b
    assert a[:3] == ["3", "33", "4"]
    # bombs after ordinary moves, rocket last
    got = [m.shape for m in legal_moves("3333BR", rules=classic)]
    assert got[-2:] == ["bomb", "rocket"]


def test_kawu_kickers_of_different_ranks(classic: Rules) -> None:
    """Seed 004: four + two takes two singles of different ranks, so 444455 is no move."""
    kawu = load_rules("kawu")
    assert "444455" not in {m.format().replace("+", "") for m in legal_moves("444455", rules=kawu)}
    assert "4444+55" in {m.format() for m in legal_moves("444455", rules=classic)}


def test_duel_deck_has_no_three(classic: Rules) -> None:
    duel = load_rules("duel")
    with pytest.raises(NotationError):
        legal_moves("3", rules=duel)
    assert [m.format() for m in legal_moves("56789", rules=duel)][-1] == "56789"


def test_errors(classic: Rules) -> None:
    with pytest.raises(IllegalMoveError):
        legal_moves("345", "44445555", classic)
    assert len(legal_moves(Cards.parse("3333444455556666777"), rules=classic)) > 0  # 19: fine
    with pytest.raises(GameError, match="at most 20 cards, got 21"):
        legal_moves(Cards.parse("33334444555566667777A"), rules=classic)


def test_cli_moves_json(cli: Any) -> None:
    res = cli("moves", "77773", "--beat", "666+5", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data == {"moves": [{"cards": "777+3", "type": "trio_single"},
                              {"cards": "7777", "type": "bomb"}], "can_pass": True}
    res = cli("moves", "334")
    assert res.exit_code == 0
    assert "pair" in res.output
    res = cli("moves", "33X")
    assert res.exit_code == 2


def test_a_huge_table_is_never_compiled_for_one_hand(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Cost grows with what is asked: `trio_ten = 3 x 1 + 10 single` has about 1.9 M legal moves;
    the moves of one hand are generated from the hand, without compiling (or loading) that
    table."""
    from ddzspec import table as table_mod
    from ddzspec.rules import load_rules_text
    monkeypatch.setenv("DDZSPEC_CACHE_DIR", str(tmp_path))
    rules = load_rules_text('rules trio_ten extends classic\n'
                            'shapes { trio_ten = 3 x 1 + 10 single }\n')

    def refuse(*a, **k):  # type: ignore[no-untyped-def]
        raise AssertionError("the table was compiled")
    monkeypatch.setattr(table_mod, "compile_table", refuse)
    got = [m.describe() for m in legal_moves("33345", rules=rules)]
    assert got == ["single 3", "pair 33", "trio 333", "trio_single 333+4", "trio_single 333+5",
                   "single 4", "single 5"]
    hand = Cards.parse("3334456789TJQKA22BR")
    ten = [m for m in legal_moves(hand, rules=rules) if m.shape == "trio_ten"]
    # body 333 or 44? no: trios held are 333 only; 10 singles from 4 4 5 6 7 8 9 T J Q K A 2 2
    # B R with at most 2 of a rank and never both jokers: counted independently below
    from itertools import combinations_with_replacement
    pool = ["4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "B", "R"]
    cap = {"4": 2, "2": 2}
    n = sum(1 for k in combinations_with_replacement(pool, 10)
            if all(k.count(r) <= cap.get(r, 1) for r in set(k)) and not {"B", "R"} <= set(k))
    assert len(ten) == n
    assert [m.format() for m in legal_moves("33345", "444+3", rules)] == []


def test_fast_path_refuses_a_hand_holding_an_ambiguous_move() -> None:
    rules = load_rules("duel-literal")
    get_table(rules)  # in memory: legal moves use the compiled table
    idx = move_index(rules)
    with pytest.raises(AmbiguousReadingError, match="555666777888"):
        legal_moves("555666777888", rules=rules)
    assert idx._fast is not None
    got = legal_moves("55566677788", rules=rules)
    assert "555666+77" in [m.format() for m in got]
    assert list(got) == MoveIndex(rules).hand_moves(Cards.parse("55566677788").counts)


# found by a fresh tester
def test_beat_an_ambiguous_move_lists_its_readings(cli: Any) -> None:
    code, _, err = cli("moves", "--rules", "duel-literal", "--beat", "555666777888",
                       "666777888999")
    assert code == 2
    assert "plane_singles 555666777+8+8+8" in err and "defect of the rules file" in err


# found by a fresh tester
def test_hand_as_cards_is_checked_against_the_deck() -> None:
    with pytest.raises(NotationError, match="the deck has no 3"):
        legal_moves(Cards.parse("33345"), rules=load_rules("duel"))
    with pytest.raises(NotationError, match="more copies of 3"):
        legal_moves(Cards((5,) + (0,) * 14))
    with pytest.raises(IllegalMoveError):
        legal_moves("3456789", previous="33334")
