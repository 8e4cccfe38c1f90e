"""Rules-file errors a designer will make: each is a RulesError located as
file:line:column with a message that says what is wrong, and the CLI exits 2 without a traceback.

The files below extend the shipped ones (classic: seeds 000/002; duel: seed 003, whose deck has
no 3s and 4s and whose chains run 5..A, ten ranks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ddzspec.errors import RulesError
from ddzspec.rules import load_rules, load_rules_text


def _error(text: str, tmp_path: Path, name: str = "variant.rules") -> RulesError:
    """Load ``text`` from a file in tmp_path; return the RulesError it raises."""
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(str(f))
    err = info.value
    assert err.path == str(f)
    return err


def _where(err: RulesError) -> tuple[int | None, int | None]:
    return err.line, err.column


def test_unknown_restriction(tmp_path: Path) -> None:
    text = ("rules house extends classic\n"
            "restrictions {\n"
            "    quad_block\n"
            "    no_trio_kickers\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (4, 5)
    assert err.message.startswith("unknown restriction 'no_trio_kickers' (known: quad_block, ")
    assert "distinct_kicker_ranks" in err.message
    assert str(err).startswith(f"{tmp_path / 'variant.rules'}:4:5: unknown restriction")


def test_shape_kickers_of_an_undefined_kind(tmp_path: Path) -> None:
    text = ("rules house extends classic\n"
            "shapes {\n"
            "    trio_trio = 3 x 1 + 1 trio\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (3, 27)          # the word "trio" after "+ 1"
    assert err.message == "shape trio_trio: unknown kicker kind 'trio' (kinds: single, pair)"


def test_run_bounds_min_greater_than_max(tmp_path: Path) -> None:
    text = ("rules house extends classic\n"
            "shapes {\n"
            "    straight = 1 x 8..5 in chain\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (3, 20)          # the run "8..5"
    assert err.message == "shape straight: impossible run bounds 8..5 (min > max)"


def test_chain_longer_than_the_chain_ranks(tmp_path: Path) -> None:
    # Seed 003: duel's chains run 5..A, ten ranks, "la suite la plus longue compte donc 10
    # cartes"; classic's 5..12 straight does not fit.
    text = ("rules house extends duel\n"
            "shapes {\n"
            "    straight = 1 x 5..12 in chain\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (3, 20)
    assert err.message == "shape straight: run bound 12 is longer than group chain (10 ranks)"


def test_chain_minimum_longer_than_the_chain_ranks(tmp_path: Path) -> None:
    text = ("rules house extends duel\n"
            "shapes {\n"
            "    pair_straight = 2 x 11.. in chain\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (3, 25)
    assert err.message == "shape pair_straight: a run of 11 is longer than group chain (10 ranks)"


def test_order_uses_a_rank_not_in_the_deck(tmp_path: Path) -> None:
    # Seed 003 removes the 3s and 4s: an order that still lists 3 is wrong.
    text = ("rules house extends duel\n"
            "order 3 5 6 7 8 9 10 J Q K A 2 B R\n")
    err = _error(text, tmp_path)
    assert _where(err) == (2, 7)
    assert err.message == "rank 3 is used in order but is not in the deck"


def test_duplicate_shape_name(tmp_path: Path) -> None:
    text = ("rules house extends classic\n"
            "shapes {\n"
            "    pair = 2 x 1\n"
            "    pair = 2 x 1\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (4, 5)
    assert err.message == "duplicate shape name 'pair'"


def test_a_second_shapes_section_is_an_error_like_every_section(tmp_path: Path) -> None:
    # one policy for every section: given twice in one file is an error (never merged)
    text = ("rules house extends classic\n"
            "shapes {\n"
            "    pair = 2 x 1\n"
            "}\n"
            "shapes {\n"
            "  pair = 2 x 1\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (5, 1)
    assert err.message == "section 'shapes' given twice (write all its items in one block)"


def test_redefining_a_parent_shape_is_not_a_duplicate() -> None:
    # extends merges shapes by name: restating a parent's shape replaces it (seed 003's duel
    # restates straight).
    r = load_rules_text("rules house extends classic\n"
                        "shapes {\n    straight = 1 x 5..8 in chain\n}\n")
    assert r.shape("straight").run_max == 8


def test_hand_sizes_do_not_add_up(tmp_path: Path) -> None:
    # Classic (seeds 000/002): 3 x 17 + 3 = 54; adding duel's 9 undealt cards breaks the sum.
    text = ("rules house extends classic\n"
            "\n"
            "deal {\n"
            "    players 3\n"
            "    hand 17\n"
            "    talon 3\n"
            "    undealt 9\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (3, 1)
    assert err.message == ("hand sizes do not add up to the deck: 3 players x 17 + talon 3 + "
                           "undealt 9 = 63, but the deck has 54 cards")


def test_more_copies_of_a_rank_than_a_hand_can_be_tested_for(tmp_path: Path) -> None:
    # A move key holds 15 cards of a rank, but legal moves and the solver test "the hand holds
    # the move" with one subtraction and a guard bit a rank: at most 7 cards of a rank in a hand.
    text = ("rules house extends classic\n"
            "deck {\n"
            "    ranks 3 4 5 6 7 8 9 10 J Q K A 2\n"
            "    copies 8\n"
            "    jokers B R\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (4, 5) and err.message == "copies must be between 1 and 7"


def test_hand_sizes_do_not_add_up_when_the_deck_shrinks(tmp_path: Path) -> None:
    # Removing the 3s and 4s (seed 003) without redoing the deal: 54 - 8 = 46 cards.
    text = ("rules house extends classic\n"
            "deck {\n"
            "    ranks 3 4 5 6 7 8 9 10 J Q K A 2\n"
            "    copies 4\n"
            "    jokers B R\n"
            "    remove 3 4\n"
            "}\n"
            "order 5 6 7 8 9 10 J Q K A 2 B R\n"
            "group chain = 5 .. A\n"
            "shapes {\n"
            "    straight = 1 x 5..10 in chain\n"
            "}\n")
    err = _error(text, tmp_path)
    assert err.line is not None and err.message.endswith(
        "3 players x 17 + talon 3 + undealt 0 = 54, but the deck has 46 cards")


def test_restriction_given_twice(tmp_path: Path) -> None:
    text = ("rules house extends classic\n"
            "restrictions {\n"
            "    kicker_rank_max 2\n"
            "    kicker_rank_max 3\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (4, 5)
    assert err.message == "restriction 'kicker_rank_max' given twice"


def test_unknown_group_in_a_shape(tmp_path: Path) -> None:
    text = ("rules house extends classic\n"
            "shapes {\n"
            "    straight = 1 x 5..12 in chains\n"
            "}\n")
    err = _error(text, tmp_path)
    assert _where(err) == (3, 29)
    assert err.message == ("shape straight: unknown group 'chains' (groups: chain, jokers); "
                           "did you mean 'chain'?")


def test_load_rules_text_reports_the_given_path() -> None:
    with pytest.raises(RulesError) as info:
        load_rules_text("rules house extends classic\nrestrictions {\n  bogus\n}\n", "house.rules")
    assert str(info.value).startswith("house.rules:3:3: unknown restriction 'bogus'")


@pytest.mark.parametrize("command", [["check"], ["read", "--rules"], ["diff", "classic"]])
def test_cli_exits_2_with_the_location(tmp_path: Path, command: list[str], cli: Any) -> None:
    f = tmp_path / "bad.rules"
    f.write_text("rules bad extends classic\nrestrictions {\n    no_such_rule\n}\n")
    args = [*command, str(f)] + (["444455"] if command[0] == "read" else [])
    res = cli(*args)
    assert res.exit_code == 2, res.output
    assert f"{f}:3:5: unknown restriction 'no_such_rule'" in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize(("parent", "make", "message"), [
    ('"sub"', lambda d: (d / "sub").mkdir(), "DIR/sub: is a folder, not a rules file"),
    ('"bad"', lambda d: (d / "bad.rules").write_bytes(b"\xff\xfe"),
     "BAD.rules: not UTF-8 text (byte 0: b'\\xff')"),
    ('"gone"', lambda d: None, "no rules file 'gone' (tried DIR/gone, DIR/gone.rules)"),
])
def test_an_extends_that_cannot_be_read_is_said_at_the_extends(
        tmp_path: Path, parent: str, make: Any, message: str) -> None:
    """A folder, or a parent that is not UTF-8, was said without the extends that named it or
    without the name it was given (found by a tester)."""
    make(tmp_path)
    child = tmp_path / "child.rules"
    child.write_text(f"rules child extends {parent}\n", encoding="utf-8")
    with pytest.raises(RulesError) as e:
        load_rules(str(child))
    assert (e.value.path, e.value.line, e.value.column) == (str(child), 1, 21)
    named = {"BAD": str(tmp_path / "bad"), "DIR": str(tmp_path)}
    for k, v in named.items():
        message = message.replace(k, v)
    assert e.value.message == message
