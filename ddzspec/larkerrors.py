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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken
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
        got = vocabulary.word(parser, tok.type) if tok.type in ("$END", vocabulary.newline) \
            else repr(str(tok))
        ip = e.interactive_parser
        accepted = set(ip.accepts()) if ip is not None else set()  # type: ignore[no-untyped-call]
        exp = vocabulary.expected(parser, accepted or e.expected)
        raise SyntaxProblem(f"unexpected {got}; expected {exp}", e.line, e.column) from None
    except UnexpectedEOF as e:
        raise SyntaxProblem(f"unexpected {vocabulary.end}; expected "
                            f"{vocabulary.expected(parser, e.expected)}", None, None) from None
