"""Lark syntax errors as located, plain-words messages: one helper shared by the rules-file
loader (:mod:`ddzspec.rules.parse`) and the solver's position format (``solver/position.py``).

:func:`parse_located` runs a Lark parser and turns its syntax errors into a :class:`SyntaxProblem`
(``message``, 1-based ``line`` and ``column``) that the caller raises as its own error class,
each expected terminal in words of the caller's :class:`Vocabulary` (docs/rules-language.md).

>>> from lark import Lark
>>> p = Lark('start: "go" NAME\\nNAME: /[a-z]+/\\n%ignore " "', parser="lalr")
>>> v = Vocabulary({"NAME": "a name"})
>>> try:
...     parse_located(p, "go 7", v)
... except SyntaxProblem as e:
...     print(e.line, e.column, e.message)
1 4 unexpected '7'; expected a name
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr


class SyntaxProblem(Exception):
    """A text that does not parse: ``message`` (what was found, what was expected), ``line``
    and ``column`` (1-based; None at the end of the input when Lark gives no place)."""

    def __init__(self, message: str, line: int | None, column: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """How a grammar's terminals read in a message.

    ``names``: terminal name → words (``"INT": "a number"``). A terminal not listed reads as
    its keyword when it is a plain word (``copies``), quoted when it is punctuation (``'{'``),
    else its name in lower case. ``end``: words for the end of the input; ``newline``: the
    terminal that ends a line, if the grammar has one (read as "end of line"); ``chars``: words
    for an unexpected character, replacing the whole message (``'"'``: an unterminated string);
    ``limit``: at most this many alternatives are listed.
    """

    names: Mapping[str, str]
    end: str = "end of file"
    newline: str | None = None
    chars: Mapping[str, str] = field(default_factory=dict)
    limit: int = 16

    def word(self, parser: Lark, terminal: str) -> str:
        """Words for one terminal name."""
        if terminal in self.names:
            return self.names[terminal]
        if terminal == "$END":
            return self.end
        if terminal == self.newline:
            return "end of line"
        try:
            pattern = parser.get_terminal(terminal).pattern
        except KeyError:
            return terminal.lower().strip("_")
        if isinstance(pattern, PatternStr):
            text = pattern.value
            return text if text.replace("_", "").isalnum() else repr(text)
        return terminal.lower().strip("_")

    def expected(self, parser: Lark, terminals: Iterable[str]) -> str:
        """The alternatives in words, sorted, deduplicated, at most ``limit`` then "…"."""
        words = sorted({self.word(parser, t) for t in terminals})
        if len(words) > self.limit:
            words = words[:self.limit] + ["…"]
        return ", ".join(words)


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice nearest to ``word`` as a misspelling of it (difflib's ratio ≥ 0.6), or None.

    >>> closest("last_plya", ["last_play", "in", "without"]), closest("zzz", ["copies"])
    ('last_play', None)
    """
    found = get_close_matches(word, sorted(set(choices)), n=1)
    return found[0] if found else None


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'X'?"`` for the choice nearest to ``word`` (:func:`closest`), or
    ``""`` when none is near: the tail of an error naming an unknown word."""
    near = closest(word, choices)
    return f"; did you mean {near!r}?" if near is not None else ""


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")
_ALTERNATIVES = re.compile(r"\(\?:([a-z_]+(?:\|[a-z_]+)*)\)")


def _keywords(parser: Lark, terminals: Iterable[str]) -> dict[str, str]:
    """The keywords among ``terminals``: keyword → its terminal (``"copies"``, a word of a
    closed vocabulary such as ``on | off``)."""
    out: dict[str, str] = {}
    for t in terminals:
        try:
            pattern = parser.get_terminal(t).pattern
        except KeyError:
            continue
        if isinstance(pattern, PatternStr):
            words = [pattern.value] if _WORD.fullmatch(pattern.value) else []
        else:
            m = _ALTERNATIVES.fullmatch(pattern.value)
            words = m.group(1).split("|") if m else []
        out.update((w, t) for w in words if len(w) > 1)
    return out


def _misspelt_before(parser: Lark, text: str, bad: Token) -> SyntaxProblem | None:
    """When the word just before ``bad`` (the token the parser refused) is a misspelt keyword
    read as a name (``trio = 3 x 1 last_plya }``: the name of a next shape, so ``}`` is what
    fails), the problem at that word: the keyword nearest to it that the parser accepted there
    and after which ``bad`` would have been accepted. None otherwise."""
    ip: Any = parser.parse_interactive(text)  # Lark leaves its methods untyped
    # the last two tokens read, each with the state before it (the refused token is one of
    # them when the parser refused it, none when the contextual lexer did)
    seen: list[tuple[Token, Any]] = []
    try:
        for tok in ip.iter_parse():
            seen = [*seen[-1:], (tok, ip.copy())]
    except UnexpectedInput:
        pass
    seen = [(t, st) for t, st in seen if (t.line, t.column) < (bad.line, bad.column)]
    if not seen:
        return None
    word, state = seen[-1]
    if not _WORD.fullmatch(str(word)):
        return None
    keywords = _keywords(parser, state.accepts())
    near = closest(str(word), keywords)
    if near is None or near == str(word):
        return None
    after = state.copy()
    try:
        after.feed_token(Token(keywords[near], near))
    except UnexpectedInput:
        return None
    if bad.type not in after.accepts():
        return None
    return SyntaxProblem(f"unexpected {str(word)!r}; did you mean {near!r}?", word.line,
                         word.column)


def parse_located(parser: Lark, text: str, vocabulary: Vocabulary) -> Tree[Any]:
    """Parse ``text``; raise :class:`SyntaxProblem` (never a Lark exception) when it does not
    parse: ``unexpected X; expected A, B, C`` at the offending line and column."""
    try:
        return parser.parse(text)
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream
        bad = text[pos] if pos is not None and pos < len(text) else "?"
        if bad in vocabulary.chars:
            raise SyntaxProblem(vocabulary.chars[bad], e.line, e.column) from None
        exp = vocabulary.expected(parser, e.allowed or ())
        raise SyntaxProblem(f"unexpected {bad!r}" + (f"; expected {exp}" if exp else ""),
                            e.line, e.column) from None
    except UnexpectedToken as e:
        tok = e.token
        before = _misspelt_before(parser, text, tok)
        if before is not None:
            raise before from None
        got = vocabulary.word(parser, tok.type) if tok.type in ("$END", vocabulary.newline) \
            else repr(str(tok))
        ip = e.interactive_parser
        accepted = set(ip.accepts()) if ip is not None else set()  # type: ignore[no-untyped-call]
        exp = vocabulary.expected(parser, accepted or e.expected)
        # the nearest keyword, when there is a choice (one expected word is named already)
        choices = accepted or e.expected
        hint = did_you_mean(str(tok), _keywords(parser, choices)) \
            if len(choices) > 1 and _WORD.fullmatch(str(tok)) else ""
        raise SyntaxProblem(f"unexpected {got}; expected {exp}{hint}", e.line,
                            e.column) from None
    except UnexpectedEOF as e:
        raise SyntaxProblem(f"unexpected {vocabulary.end}; expected "
                            f"{vocabulary.expected(parser, e.expected)}", None, None) from None
