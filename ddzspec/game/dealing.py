"""Shuffling and dealing: how a deal starts (:class:`Start`, the options it was started with),
the reproducible shuffle (:func:`shuffle_deal`), explicit deals (:func:`explicit_deal`) and turn
order (:func:`next_seat`).

From the rules file's ``deal``: seats, hand size, talon, undealt cards (duel: 9, never shown,
seed 003), turn direction. Seats are numbered 0 … n−1 in turn order (counter-clockwise, seeds
000/002/004). Shuffles are reproducible: deal attempt ``i`` of seed ``s`` shuffles with
``random.Random(f"ddzspec:{s}:{i}")`` (string seeds are hashed deterministically by CPython).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import ALL_RANKS, N_RANKS, Cards, parse_cards
from ..errors import BadSeatError, GameError, NotationError
from ..rules import FirstBidder, Rules

Setup = tuple[tuple[Cards, ...], Cards, Cards, int]
"""An explicit deal, validated: (hands, talon, undealt, first speaker)."""


@dataclass(frozen=True, slots=True)
class Start:
    """The options a deal was started with — :meth:`GameState.new`'s arguments, normalised —
    which is what a record stores to start the same deal again.

    ``seed``: the shuffle seed (an int or a string; None only for an explicit deal, which is
    then redealt from seed 0 after an all-pass auction); ``hands`` / ``talon``: an explicit deal
    (None: shuffled from ``seed``); ``first``: the first speaker forced by the caller (None:
    drawn by the shuffle; an explicit deal always has one, 0 by default); ``wild``: the wild
    ranks an explicit deal states (rank indices, one per ``draw``; :func:`explicit_wild`), or
    None: drawn (:func:`draw_wild`)."""

    seed: int | str | None
    hands: tuple[Cards, ...] | None = None
    talon: Cards | None = None
    first: int | None = None
    wild: tuple[int, ...] | None = None


def check_seed(seed: object) -> int | str | None:
    """``seed`` if it is None, an int or a UTF-8 encodable string (what a JSON record can hold
    exactly: an int of at most :func:`sys.get_int_max_str_digits` digits, which JSON can read
    back); raises GameError otherwise."""
    if seed is None:
        return None
    if isinstance(seed, int) and not isinstance(seed, bool):
        limit = sys.get_int_max_str_digits()
        if limit and abs(seed).bit_length() > limit * 3.32:  # 3.32 bits a decimal digit
            raise GameError(f"seed: an integer of more than {limit} digits cannot be recorded "
                            "(JSON could not read it back)")
        return seed
    if isinstance(seed, str):
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError:
            raise GameError(f"seed {seed!r}: not a UTF-8 encodable string") from None
        return seed
    raise GameError(f"seed {seed!r}: a seed is an integer or a string")


def check_seat(rules: Rules, seat: object) -> int:
    """``seat`` if it is a seat number of ``rules`` (0 … players−1); raises BadSeatError."""
    if not isinstance(seat, int) or isinstance(seat, bool) or \
            not 0 <= seat < rules.deal.players:
        raise BadSeatError(f"no seat {seat!r} (seats 0-{rules.deal.players - 1})")
    return seat


def next_seat(rules: Rules, seat: int) -> int:
    """The seat after ``seat`` in turn order (seats are numbered in the rules' direction)."""
    return (seat + 1) % rules.deal.players


def shuffle_deal(rules: Rules, seed: int | str, attempt: int,
                 previous_first: int | None) -> Setup:
    """Shuffle and deal attempt ``attempt`` of ``seed``: (hands, talon, undealt, first speaker).

    Cards are dealt one by one in turn order, then the talon, then the undealt rest (duel: 9,
    seed 003). The first speaker is drawn at random (seeds 000/002/003/004) except after an
    all-pass redeal under ``all_pass redeal first_bidder next`` (kawu, seed 004): the seat after
    ``previous_first``."""
    d = rules.deal
    rng = random.Random(f"ddzspec:{seed}:{attempt}")
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
    rng.shuffle(deck)
    first = rng.randrange(d.players)
    if attempt > 0 and previous_first is not None and \
            rules.bidding.all_pass_first_bidder is FirstBidder.NEXT:
        first = next_seat(rules, previous_first)
    counts = [[0] * N_RANKS for _ in range(d.players)]
    n = d.players * d.hand
    for j in range(n):
        counts[j % d.players][deck[j]] += 1
    talon = [0] * N_RANKS
    for c in deck[n:n + d.talon]:
        talon[c] += 1
    und = [0] * N_RANKS
    for c in deck[n + d.talon:]:
        und[c] += 1
    return tuple(Cards(tuple(c)) for c in counts), Cards(tuple(talon)), Cards(tuple(und)), first


def draw_wild(rules: Rules, seed: int | str | None, attempt: int) -> tuple[int, ...]:
    """The wild ranks of deal attempt ``attempt`` of ``seed`` (None: 0, as a redeal of an
    explicit deal), one per ``draw`` of the rules' wild section, in the order declared: each a
    rank index drawn at random from the draw's ranks (never a joker: the rules language refuses
    one), with ``random.Random(f"ddzspec:{seed}:{attempt}:wild")`` — the deal's seed and
    attempt, apart from the shuffle's generator, so deals without wild cards are unchanged.
    Empty for rules without wild cards (laizi: one rank, Baidu Baike's laizi article). A later
    draw picks among its ranks that no earlier draw took (tiandi laizi's sky and earth ranks
    are two ranks, 8 wild cards; the rules language keeps a rank left for it).

    >>> from ddzspec.rules import load_rules
    >>> draw_wild(load_rules("classic"), 1, 0)
    ()
    >>> draw_wild(load_rules("laizi"), 1, 0) == draw_wild(load_rules("laizi"), 1, 0)
    True
    """
    if rules.wild is None:
        return ()
    rng = random.Random(f"ddzspec:{0 if seed is None else seed}:{attempt}:wild")
    drawn: list[int] = []
    for d in rules.wild.draws:  # a later draw never repeats an earlier rank (tiandi: 8 cards)
        drawn.append(rng.choice([r for r in d.ranks if r not in drawn]))
    return tuple(drawn)


def attempt_wild(rules: Rules, start: Start, attempt: int) -> tuple[int, ...]:
    """The wild ranks of deal attempt ``attempt`` of the deal ``start``: those an explicit deal
    states (:attr:`Start.wild`) for its first attempt, else :func:`draw_wild` (a redeal of an
    explicit deal draws from seed 0)."""
    if attempt == 0 and start.wild is not None:
        return start.wild
    return draw_wild(rules, start.seed, attempt)


def explicit_wild(rules: Rules, wild: Sequence[int | str]) -> tuple[int, ...]:
    """Validate the wild ranks an explicit deal states: one per ``draw`` of the rules' wild
    section, in the order declared, each a rank index or a rank in English notation (``Q``,
    ``T`` or ``10``) among the ranks its draw draws from. Raises GameError (rules without wild
    cards, the wrong number of ranks, a rank that is not one, a joker, a rank outside the
    draw's ``from``, or one an earlier draw took).

    >>> from ddzspec.rules import load_rules
    >>> explicit_wild(load_rules("laizi"), ["Q"])  # rank index 9: 3 is 0, Q the tenth rank
    (9,)
    """
    if rules.wild is None:
        raise GameError(f"wild ranks given, but {rules.name} has no wild cards")
    draws = rules.wild.draws
    if isinstance(wild, str) or len(wild) != len(draws):
        n = 1 if isinstance(wild, str) else len(wild)
        raise GameError(f"{n} wild rank{'' if n == 1 else 's'} given; {rules.name} draws "
                        f"{len(draws)} ({', '.join(d.name for d in draws)})")
    out = []
    for d, w in zip(draws, wild):
        i = w if isinstance(w, int) and not isinstance(w, bool) else rank_index(w)
        if i not in d.ranks:
            raise GameError(f"wild rank {_symbol(i)}: the draw {d.name} draws from "
                            + " ".join(ALL_RANKS[r].symbol() for r in d.ranks))
        if i in out:
            raise GameError(f"wild rank {_symbol(i)}: the draw {d.name} never repeats an "
                            "earlier draw's rank")
        out.append(i)
    return tuple(out)


def rank_index(text: object) -> int:
    """The index of the one rank ``text`` writes in English notation, as cards are written
    (``Q``, ``q``, ``T``, ``10``). Raises GameError (not one card, a joker, not a string)."""
    if not isinstance(text, str):
        raise GameError(f"a wild rank is a rank symbol (3 … A, 2), not {text!r}")
    try:
        cards = parse_cards(text).cards
    except NotationError:
        cards = None
    if cards is None or len(cards) != 1:
        raise GameError(f"{text!r} is not a rank (3 … 9, T or 10, J, Q, K, A, 2)")
    i = next(r for r in range(N_RANKS) if cards.counts[r])
    if i >= N_RANKS - 2:
        raise GameError(f"{text!r} is a joker: a joker is never a wild rank")
    return i


def _symbol(i: object) -> str:
    return ALL_RANKS[i].symbol() if isinstance(i, int) and 0 <= i < N_RANKS else repr(i)


def explicit_deal(rules: Rules, hands: Sequence[Cards | str], talon: Cards | str | None,
                  first: int | None) -> Setup:
    """Validate an explicit deal: (hands, talon, undealt, first). ``hands``: one per seat,
    ``deal.hand`` cards each (Cards or English notation); ``talon``: ``deal.talon`` cards; the
    undealt rest is the deck minus both and must number ``deal.undealt``; ``first``: the first
    speaker (default 0). An empty string is no cards (the talon of a variant without one, as a
    record writes it). Raises GameError (cards that do not make up the deck, or cannot be read:
    the message names the hand or the talon), BadSeatError."""
    d = rules.deal

    def cards(x: Cards | str, what: str) -> Cards:
        if isinstance(x, Cards):
            return x
        if not x.strip():
            return Cards((0,) * N_RANKS)
        try:
            return parse_cards(x, deck=rules.deck).cards
        except NotationError as e:
            raise GameError(f"{what}: {e.one_line()}") from None
    hs = tuple(cards(h, f"hand {i}") for i, h in enumerate(hands))
    if len(hs) != d.players:
        raise GameError(f"{rules.name} deals {d.players} hands, got {len(hs)}")
    for i, h in enumerate(hs):
        if len(h) != d.hand:
            raise GameError(f"hand {i} has {len(h)} cards; {rules.name} deals {d.hand}")
    t = cards(talon, "the talon") if talon is not None else None
    if t is None or len(t) != d.talon:
        raise GameError(f"the talon must have {d.talon} cards")
    total = [sum(h.counts[i] for h in hs) + t.counts[i] for i in range(N_RANKS)]
    over = [i for i in range(N_RANKS) if total[i] > rules.deck[i]]
    if over:
        raise GameError("more copies than the deck holds: "
                        + " ".join(ALL_RANKS[i].symbol() for i in over))
    und = Cards(tuple(rules.deck[i] - total[i] for i in range(N_RANKS)))
    if len(und) != d.undealt:
        raise GameError(f"{len(und)} cards left undealt ({und}); {rules.name} leaves "
                        f"{d.undealt} undealt")
    f = 0 if first is None else check_seat(rules, first)
    return hs, t, und, f


__all__ = ["Setup", "Start", "attempt_wild", "check_seat", "check_seed", "draw_wild",
           "explicit_deal", "explicit_wild", "next_seat", "rank_index", "shuffle_deal"]
