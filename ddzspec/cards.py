"""Ranks, card multisets and the card notation (English, French, German).

Suits never matter (seeds 000/002), so a move or a hand is a multiset of ranks: :class:`Cards`,
a frozen vector of 15 counts. Lark grammars (``grammar/notation_common.lark`` plus one terminal
file per language) parse the notation; output is canonical: ranks low to high, body then kickers.

>>> str(parse_cards("3 3 3 4 4 4 + 5 7").cards)
'33344457'
>>> parse_cards("DDD+grand joker", notation="fr").cards == parse_cards("QQQR").cards
True
>>> parse_cards("33X")
Traceback (most recent call last):
ddzspec.errors.NotationError: column 3: unknown symbol 'X' in English notation
  33X
    ^
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from functools import cache
from typing import Final

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ._resources import grammar_text
from .errors import SHOWN_CHARS, NotationError


class Rank(IntEnum):
    """The 15 ranks; values follow the classic order (3 lowest … big joker highest).

    A variant's own order and strength come from its rules file (``Rules.strength``).
    """

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    SMALL_JOKER = 16
    BIG_JOKER = 17

    @property
    def index(self) -> int:
        """Position in a :class:`Cards` count vector (0 … 14)."""
        return self.value - 3

    def symbol(self, notation: str = "en") -> str:
        """The canonical symbol in a notation: ``Rank.QUEEN.symbol("fr") == "D"``."""
        return SYMBOLS[notation][self.index]


N_RANKS = 15
ALL_RANKS: tuple[Rank, ...] = tuple(Rank)
NOTATIONS = ("en", "fr", "de")
LANGUAGE_NAMES = {"en": "English", "fr": "French", "de": "German"}
#: Canonical symbols per notation, indexed by ``Rank.index``.
SYMBOLS: dict[str, tuple[str, ...]] = {
    "en": ("3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "B", "R"),
    "fr": ("3", "4", "5", "6", "7", "8", "9", "T", "V", "D", "R", "A", "2", "PJ", "GJ"),
    "de": ("3", "4", "5", "6", "7", "8", "9", "T", "B", "D", "K", "A", "2", "KJ", "GJ"),
}
_TERMINAL_RANK = {
    "THREE": Rank.THREE, "FOUR": Rank.FOUR, "FIVE": Rank.FIVE, "SIX": Rank.SIX,
    "SEVEN": Rank.SEVEN, "EIGHT": Rank.EIGHT, "NINE": Rank.NINE, "TEN": Rank.TEN,
    "JACK": Rank.JACK, "QUEEN": Rank.QUEEN, "KING": Rank.KING, "ACE": Rank.ACE, "TWO": Rank.TWO,
    "SMALL_JOKER": Rank.SMALL_JOKER, "BIG_JOKER": Rank.BIG_JOKER,
    "SMALL_JOKER_WORDS": Rank.SMALL_JOKER, "BIG_JOKER_WORDS": Rank.BIG_JOKER,
}
#: Bits per rank in a packed key (:func:`pack`): a field holds 0 … 15 cards of one rank (a
#: bomb of four natural and eight wild cards, issue 26; twelve copies of a rank in a
#: three-pack deck, issue 27).
KEY_BITS: Final = 4
#: One field of a packed key: the most cards of a rank it holds.
KEY_MASK: Final = 0xF
#: Bits of a packed key: 15 fields of 4 bits (60, under 2^63: one machine word in the compiled
#: solver).
KEY_WIDTH: Final = 60
#: ``FIELD_BITS[j]``: bit ``j`` of every field of a packed key (j = 0 … 3).
FIELD_BITS: tuple[int, ...] = tuple(sum(1 << (KEY_BITS * i + j) for i in range(N_RANKS))
                                    for j in range(KEY_BITS))
#: The top bit of every field: the guard bits of the one-subtraction containment test
#: (:func:`ddzspec.moves.contains`): ``((hand | KEY_GUARD) - move) & KEY_GUARD == KEY_GUARD``
#: iff the hand holds the move, exact while no count is above :data:`GUARDED_MAX`.
KEY_GUARD: Final = 0x888888888888888
#: The most copies of a rank a hand may hold for the guard test (a field's bits below its top
#: bit): the rules' deck limit (``copies``).
GUARDED_MAX: Final = 7
assert (KEY_MASK == (1 << KEY_BITS) - 1 and KEY_WIDTH == KEY_BITS * N_RANKS
        and FIELD_BITS[-1] == KEY_GUARD and GUARDED_MAX == KEY_MASK >> 1)


def pack(counts: Sequence[int]) -> int:
    """Pack a count vector into an int key: :data:`KEY_BITS` bits per rank, rank index 0 in
    the lowest field (the table's lookup key, the solver's hands and moves)."""
    key = 0
    for i, c in enumerate(counts):
        key |= c << (KEY_BITS * i)
    return key


def unpack(key: int) -> tuple[int, ...]:
    """Inverse of :func:`pack`: the 15 rank counts."""
    return tuple((key >> (KEY_BITS * i)) & KEY_MASK for i in range(N_RANKS))


@dataclass(frozen=True, slots=True)
class Cards:
    """A multiset of ranks: ``counts[i]`` copies of ``Rank(i + 3)``; 15 counts.

    ``str()`` is the English notation (low to high), ``repr()`` an executable constructor.
    Raises ValueError on a negative count, a count above :data:`KEY_MASK` or a vector that is
    not 15 long.
    """

    counts: tuple[int, ...]
    key: int = field(init=False, repr=False, compare=False, hash=False)
    """Packed int key (:func:`pack`), computed once: the move table's lookup key."""

    def __post_init__(self) -> None:
        if len(self.counts) != N_RANKS or min(self.counts) < 0:
            raise ValueError(f"Cards needs 15 non-negative counts, got {self.counts!r}")
        if max(self.counts) > KEY_MASK:
            raise ValueError(f"Cards holds at most {KEY_MASK} cards of a rank (a packed key's "
                             f"field), got {self.counts!r}")
        object.__setattr__(self, "key", pack(self.counts))

    @classmethod
    def from_ranks(cls, ranks: Iterable[Rank | int]) -> Cards:
        """Build from ranks with repetition: ``Cards.from_ranks([Rank.THREE] * 3)``."""
        counts = [0] * N_RANKS
        for r in ranks:
            counts[int(r) - 3] += 1
        return cls(tuple(counts))

    @classmethod
    def from_key(cls, key: int) -> Cards:
        """Build from a packed key (see :func:`pack`)."""
        return cls(unpack(key))

    @classmethod
    def parse(cls, text: str, notation: str = "en") -> Cards:
        """Parse notation to a multiset; raises NotationError. See :func:`parse_cards`."""
        return parse_cards(text, notation).cards

    def __len__(self) -> int:
        return sum(self.counts)

    def __iter__(self) -> Iterator[Rank]:
        for i, c in enumerate(self.counts):
            for _ in range(c):
                yield ALL_RANKS[i]

    def count(self, rank: Rank) -> int:
        """Copies of ``rank``."""
        return self.counts[rank.index]

    def __add__(self, other: Cards) -> Cards:
        return Cards(tuple(a + b for a, b in zip(self.counts, other.counts)))

    def __sub__(self, other: Cards) -> Cards:
        """Multiset difference; raises ValueError if ``other`` is not contained."""
        return Cards(tuple(a - b for a, b in zip(self.counts, other.counts)))

    def __le__(self, other: Cards) -> bool:
        return all(a <= b for a, b in zip(self.counts, other.counts))

    def format(self, notation: str = "en") -> str:
        """Ranks low to high in ``notation`` (no body/kicker split). A two-letter joker symbol
        (fr PJ/GJ, de KJ/GJ) is set off by a space: German ``KK KJ`` is two kings and the
        small joker."""
        sym = SYMBOLS[notation]
        out = ""
        for i, c in enumerate(self.counts):
            for _ in range(c):
                s = sym[i]
                out += (" " + s) if len(s) > 1 and out else s
        return out

    @staticmethod
    def format_in_order(ranks: Sequence[int], copies: int, notation: str = "en") -> str:
        """``copies`` cards of each rank index of ``ranks``, in that order (a body of a
        declared chain order: ``A2345``), written as :meth:`format` writes cards."""
        sym = SYMBOLS[notation]
        out = ""
        for i in ranks:
            for _ in range(copies):
                s = sym[i]
                out += (" " + s) if len(s) > 1 and out else s
        return out

    def shortfall(self, held: Cards, notation: str = "en") -> str:
        """What ``held`` lacks to hold these cards, rank by rank, in ``notation``: e.g.
        ``"4 x 3 (holds 2), 1 x K (holds 0)"`` ("" when it holds them all) — the words of a
        refused play (a seat cannot play cards it does not hold; seeds 000/002)."""
        sym = SYMBOLS[notation]
        return ", ".join(f"{c} x {sym[i]} (holds {h})"
                         for i, (c, h) in enumerate(zip(self.counts, held.counts)) if c > h)

    def __str__(self) -> str:
        return self.format("en")

    def __repr__(self) -> str:
        return f"Cards.parse({self.format('en')!r})"


EMPTY = Cards((0,) * N_RANKS)


@dataclass(frozen=True, slots=True)
class ParsedCards:
    """The result of parsing notation: the multiset and the writer's own split.

    ``groups``: one Cards per ``+``-separated group as written (the first is what the writer
    sees as the body). ``columns``: 1-based column of every card, in input order, with its rank.
    ``wilds``: the 1-based columns of the wild cards written ``*`` (``wild=True`` only); they are
    in neither ``cards`` nor ``groups``.
    """

    text: str
    cards: Cards
    groups: tuple[Cards, ...]
    columns: tuple[tuple[int, Rank, str], ...]
    wilds: tuple[int, ...] = ()


#: The most characters a card string may have per card of its deck: the longest way to write
#: one card (``kleiner joker``, 13) with a separator, and room to spare. A longer string cannot
#: hold the deck's cards and is refused before it is parsed (Lark took 11 s and 210 MB to parse
#: 300 000 characters only to refuse the fifth 3).
CHARS_PER_CARD = 16
#: The cards of the largest deck the rules language allows (``copies`` at most 7 of each of the
#: 15 ranks): the bound on a card string read without a deck.
MOST_CARDS = 7 * N_RANKS
#: A suit as written -> the suit it names (the letters are English: spades, hearts, diamonds,
#: clubs; the grammars say which each notation accepts).
_SUITS = {"♠": "♠", "s": "♠", "♥": "♥", "h": "♥", "♦": "♦", "d": "♦", "♣": "♣", "c": "♣"}


@cache
def _parser(notation: str) -> Lark:
    if notation not in NOTATIONS:
        raise NotationError(f"unknown notation {notation!r}; choose one of en, fr, de")
    text = grammar_text("notation_common.lark") + "\n" + grammar_text(f"notation_{notation}.lark")
    return Lark(text, parser="lalr", cache=True)


def _wild_refused(shown: str, column: int) -> NotationError:
    """The error of a ``*`` (a wild card) where the rules have none, at 1-based ``column``."""
    return NotationError("'*' is a wild card: only under rules with wild cards (and a wild rank "
                         "named)", shown, column, "*")


def parse_cards(text: str, notation: str = "en",
                deck: Sequence[int] | None = None, wild: bool = False) -> ParsedCards:
    """Parse a card string in ``notation`` ("en", "fr" or "de").

    ``deck``: copies per rank (15 counts) of the variant's deck; when given, more copies than the
    deck holds (``22222``, ``BB``) and ranks the deck lacks (a 3 in duel) are errors. With
    suits, the same card twice (``3♥3♥``) is an error at the second copy when the deck holds
    one of it (one copy per suit for each 4 copies of the rank); suitless cards are ranks only.
    A string over :data:`CHARS_PER_CARD` characters per card of the deck (no deck: of
    :data:`MOST_CARDS` cards) is refused before it is parsed, at the first column past the
    bound. ``wild``: a ``*`` is a wild card (laizi; counted in ``wilds``), else an error.
    Raises NotationError with the 1-based column and the offending text.
    """
    lang = LANGUAGE_NAMES.get(notation, notation)
    if not text.strip(" \t\r\n,\u00a0\u3000\ufe0f"):
        raise NotationError("no cards given", text, None)
    most = CHARS_PER_CARD * (MOST_CARDS if deck is None else sum(deck))
    if len(text) > most:
        cut = text[:most + 1 + SHOWN_CHARS].replace("\n", " ").replace("\r", " ")
        raise NotationError(f"too long for cards: {len(text)} characters, at most {most} "
                            f"({CHARS_PER_CARD} for each of the "
                            f"{MOST_CARDS if deck is None else sum(deck)} cards of the deck)",
                            cut.replace("\t", " "), most + 1, text[most])
    shown = text.replace("\n", " ").replace("\r", " ").replace("\t", " ")
    try:
        try:
            tree = _parser(notation).parse(text)
        except UnexpectedCharacters as e:
            pos = e.pos_in_stream or 0
            bad = text[pos] if pos < len(text) else "?"
            what = f"{bad!r}" if bad.isprintable() and not bad.isspace() else \
                f"{bad!r} (U+{ord(bad):04X})"
            raise NotationError(f"unknown symbol {what} in {lang} notation", shown, pos + 1,
                                bad) from None
        except UnexpectedToken as e:
            tok = e.token
            if tok.type == "$END":
                raise NotationError("a '+' must be followed by cards", shown, len(text) + 1,
                                    "") from None
            what = "'+' needs cards on both sides" if tok.type == "_PLUS" else \
                f"unexpected {str(tok)!r}"
            if tok.type == "SUIT":
                what = f"suit {str(tok)!r} must follow a rank"
            raise NotationError(what, shown, (tok.start_pos or 0) + 1, str(tok)) from None
        except UnexpectedEOF:
            raise NotationError("a '+' must be followed by cards", shown, len(text) + 1) from None
        except UnexpectedInput as e:  # pragma: no cover - other lark errors
            raise NotationError(str(e), shown, getattr(e, "column", None)) from None
    except NotationError as e:  # the earliest error first: a '*' before a syntax error
        star = text.find("*")
        if not wild and 0 <= star < (e.column or 0) - 1:
            raise _wild_refused(shown, star + 1) from None
        raise
    groups: list[Cards] = []
    columns: list[tuple[int, Rank, str]] = []
    wilds: list[int] = []
    total = [0] * N_RANKS
    suited: dict[tuple[Rank, str], int] = {}  # (rank, suit) -> copies read so far
    for group in tree.children:
        assert isinstance(group, Tree)
        counts = [0] * N_RANKS
        for card in group.children:
            assert isinstance(card, Tree)
            rank_tree = card.children[0]
            if isinstance(rank_tree, Token):  # a wild card, ``*``
                col = (rank_tree.start_pos or 0) + 1
                if not wild:
                    raise _wild_refused(shown, col)
                wilds.append(col)
                continue
            assert isinstance(rank_tree, Tree)
            tok = rank_tree.children[0]
            assert isinstance(tok, Token)
            rank = _TERMINAL_RANK[tok.type]
            col = (tok.start_pos or 0) + 1
            if len(card.children) > 1:
                suit = card.children[1]
                assert isinstance(suit, Token)
                if rank in (Rank.SMALL_JOKER, Rank.BIG_JOKER):
                    raise NotationError(f"a joker has no suit ({str(suit)!r})", shown,
                                        (suit.start_pos or 0) + 1, str(suit))
                if suit.start_pos != tok.end_pos:
                    raise NotationError(f"suit {str(suit)!r} must directly follow its rank",
                                        shown, (suit.start_pos or 0) + 1, str(suit))
                key = (rank, _SUITS[str(suit)])
                suited[key] = suited.get(key, 0) + 1
                per_suit = 1 if deck is None else max(1, -(-deck[rank.index] // 4))
                if suited[key] > per_suit:
                    twice = f"{tok}{suit}"
                    has = "one" if per_suit == 1 else str(per_suit)
                    raise NotationError(f"the same card {twice!r} twice (the deck has {has} "
                                        f"{rank.symbol(notation)}{key[1]})", shown, col, twice)
            counts[rank.index] += 1
            total[rank.index] += 1
            columns.append((col, rank, str(tok)))
            if deck is not None:
                held = deck[rank.index]
                if held == 0:
                    raise NotationError(f"the deck has no {rank.symbol('en')} "
                                        f"({rank.name.lower().replace('_', ' ')})",
                                        shown, col, str(tok))
                if total[rank.index] > held:
                    raise NotationError(f"more copies of {str(tok)!r} than the deck holds "
                                        f"({held})", shown, col, str(tok))
        groups.append(Cards(tuple(counts)))
    return ParsedCards(text, Cards(tuple(total)), tuple(groups), tuple(columns), tuple(wilds))
