"""Syntax errors of both languages go through one helper (ddzspec.larkerrors): each
names what was found and what this place accepts, at file:line:column — end of file, end of
line, an unexpected character, an unterminated quoted title."""

from __future__ import annotations

from pathlib import Path

import pytest
from ddzspec.solver.position import PositionError, parse_position
from lark import Lark

from ddzspec.errors import RulesError
from ddzspec.larkerrors import SyntaxProblem, Vocabulary, closest, did_you_mean, parse_located
from ddzspec.rules import load_rules


@pytest.mark.parametrize("text, where, message", [
    # read as the name of a next shape, so the parser failed only at the closing brace
    ("shapes { trio = 3 x 1 last_plya }", (2, 23),
     "unexpected 'last_plya'; did you mean 'last_play'?"),
    ("shapes { trio = 3 x 1 lastplay\n    pair = 2 x 1 }", (2, 23),
     "unexpected 'lastplay'; did you mean 'last_play'?"),
    ("shapes { plane_pairs = 3 x 2.. in chain + each pair consecutiv }", (2, 53),
     "unexpected 'consecutiv'; did you mean 'consecutive'?"),
    ("shapes { withot trio }", (2, 10), "unexpected 'withot'; did you mean 'without'?"),
    # the misspelt word is itself the token refused: the expected words, then the nearest
    ("deck { copis 4 }", (2, 8),
     "unexpected 'copis'; expected '}', copies, jokers, ranks, remove; did you mean 'copies'?"),
    ("grop chain = 3 .. A", (2, 1), "unexpected 'grop'; expected bidding, deal, deck, end of "
     "file, group, order, precedence, restrictions, round, scoring, shapes, trick, wild, "
     "win, without; did you mean 'group'?"),
    # no keyword near: the error stays where the parser failed, without a guess
    ("shapes { trio = 3 x 1 zzz }", (2, 27), "unexpected '}'; expected '='"),
    # words the loader checks name the nearest known word too
    ("restrictions { kicker_not_in 2 fro trio_single }", (2, 32),
     "unknown restriction 'fro' (known: quad_block, kicker_not_body_rank, kicker_rank_max, "
     "jokers_not_both_kickers, distinct_kicker_ranks, kicker_not_in); did you mean 'for'?"),
    ("shapes { trio = 3 x 1 + 1 singel }", (2, 27),
     "shape trio: unknown kicker kind 'singel' (kinds: single, pair); did you mean 'single'?"),
    ("shapes { straight = 1 x 5.. in chian }", (2, 32),
     "shape straight: unknown group 'chian' (groups: chain, jokers); did you mean 'chain'?"),
])
def test_a_misspelt_word_is_named_with_the_nearest_keyword(tmp_path: Path, text: str,
                                                           where: tuple[int, int],
                                                           message: str) -> None:
    f = tmp_path / "x.rules"
    f.write_text("rules x extends classic\n" + text + "\n")
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    assert (e.value.path, e.value.line, e.value.column) == (str(f), *where)
    assert e.value.message == message


def test_closest_and_did_you_mean() -> None:
    assert closest("last_plya", ["last_play", "in", "without"]) == "last_play"
    assert closest("copis", ["copies", "jokers", "ranks", "remove"]) == "copies"
    assert closest("zzz", ["copies", "ranks"]) is None
    assert did_you_mean("singel", ("single", "pair")) == "; did you mean 'single'?"
    assert did_you_mean("zzz", ("single", "pair")) == ""


@pytest.mark.parametrize("text, where, message", [
    ("rules x extends classic\nshapes {", (2, 8),
     "unexpected end of file; expected '}', a lower-case name, without"),
    ('rules x "abc\n', (1, 9), "unterminated quoted title (close the quote on the same line)"),
    ("rules x extends classic\nrestrictions { kicker_not_in 2 group }", (2, 38),
     "unexpected '}'; expected a lower-case name"),
    # an upper-case word is neither a rank nor a name (names are lower case)
    ("rules x extends classic\nrestrictions { kicker_not_in X }", (2, 30),
     "unexpected 'X'; expected '}', a lower-case name, a number, a rank (3-9, 10, J, Q, K, A, "
     "2, B, R), on or off"),
    ("rules x extends classic\norder 3 4 5 @", (2, 13),
     "unexpected '@'; expected"),
])
def test_rules_syntax_errors(tmp_path: Path, text: str, where: tuple[int, int],
                             message: str) -> None:
    f = tmp_path / "x.rules"
    f.write_text(text)
    with pytest.raises(RulesError) as e:
        load_rules(str(f))
    assert (e.value.path, e.value.line, e.value.column) == (str(f), *where)
    assert e.value.message.startswith(message)


@pytest.mark.parametrize("text, where, message", [
    ("rules classic\nlandlord", (2, 9), "unexpected end of line; expected ':'"),
    ("rules classic\nlandlord: 3\npeasant: 4\nto_move: landlord\nplayed landlord", (5, 16),
     "unexpected end of line; expected ':', a word"),
    ("rules classic\nlandlord: 3 @", (2, 13), "unexpected '@'; expected"),
])
def test_position_syntax_errors(text: str, where: tuple[int, int], message: str) -> None:
    with pytest.raises(PositionError) as e:
        parse_position(text, source="p.txt")
    assert (e.value.line, e.value.column) == where
    assert str(e.value).startswith(f"p.txt:{where[0]}:{where[1]}: {message}")


def test_the_helper_words_keywords_punctuation_and_the_end() -> None:
    p = Lark('start: "go" (NAME | "{") "}"\nNAME: /[a-z]+/\n%ignore " "', parser="lalr")
    v = Vocabulary({"NAME": "a name"}, end="end of input", limit=1)
    cases = [("go", None, "unexpected end of input; expected '{', …"),
             ("go x x", (1, 6), "unexpected 'x'; expected '}'"),
             ("stop", (1, 1), "unexpected 'stop'; expected go"),
             ("go 7", (1, 4), "unexpected '7'; expected '{', …")]
    for text, where, message in cases:
        with pytest.raises(SyntaxProblem) as e:
            parse_located(p, text, v)
        assert e.value.message == message, text
        if where is not None:
            assert (e.value.line, e.value.column) == where


# found by tester 9
def test_a_bad_escape_in_a_quoted_rules_name_is_located() -> None:
    with pytest.raises(PositionError, match="a bad escape") as e:
        parse_position('rules "cla\\ssic"\nlandlord: 3\npeasant: 4\nto_move: landlord\n')
    assert (e.value.line, e.value.column) == (1, 11)
