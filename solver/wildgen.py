"""The solver's moves with a known wild rank (laizi; issue 26): a :class:`~ddzspec.solver.movegen.
MoveSet` whose move ids are (play, reading) pairs of the position's hands.

A play is a sub-multiset of a hand, the cards of the wild rank being wild; its readings are
those of :func:`ddzspec.wildmoves.play_readings` that no wild restriction cuts, and under the
``strongest`` policy a play is made with one of them: leading, the one the policy takes with
nothing to beat; answering a move, the one it takes against that move's reading (the answered
type and size, the highest body, else the strongest bomb), both found by the fast legal-move
generation of :func:`ddzspec.wildmoves.wild_legal_moves` on the starting hands (a play's
reading depends on the play only), once per move to beat. Every (play, reading) pair of
the position's hands at the start gets a move id (a later hand's plays are a subset), with:

- ``mk``, ``size``: the cards played (the wild cards as cards of the wild rank);
- the comparison: below the bomb line ``cls`` is the reading's (shape, size) and ``strength``
  its body's key; above it ``tier`` is (the class's place in the wild ``order``, the natural
  tier) and ``cls`` one class per tier, so that "a higher tier, or the same class and a higher
  strength" is :func:`ddzspec.wild.outranks`. The strength is ``key * 4096`` plus a code of
  the shape and size, so a move's canonical id (class, strength) fixes everything
  :func:`~ddzspec.wildmoves.choose` reads of the move to beat (the transposition key stays
  exact);
- ``doubles``/``times``: a bomb reading's class factor (``factor soft 2 hard 4 pure 4``), any
  other shape's scoring factor.

A hand's ``top`` and ``max_tier`` run over every reading held, so the search's quick tests
(nothing beats the move; no opponent can beat a move) stay sound; the answers themselves are
the policy's, computed per play. Not compiled (the search calls it through
:class:`~ddzspec.solver.movegen.WildHook`, once per hand and move to beat).
"""

from __future__ import annotations

from collections.abc import Sequence

from librt.vecs import vec
from mypy_extensions import i64

from ddzspec.cards import ALL_RANKS, KEY_GUARD, Cards, pack
from ddzspec.rules import Rules
from ddzspec.rules.model import ReadingPolicy
from ddzspec.wild import WildMove, WildReading, outranks, require_wild, strength, violated
from ddzspec.wildmoves import play_readings, split_hand, wild_legal_moves

from .movegen import HandInfo, MoveSet, WildHook

#: The strength of a wild move: its reading's key times this, plus its shape and size code.
_KEY_UNIT = 4096


class WildMoves(WildHook):
    """The (play, reading) moves of the hands ``hands`` (Cards) with rank index ``rank``
    wild, under ``rules`` (``reading strongest``): :attr:`moves` is the MoveSet the search
    uses. ValueError for rules without wild cards."""

    def __init__(self, rules: Rules, rank: int, hands: Sequence[Cards]) -> None:
        self.rules = rules
        self.wild = require_wild(rules)
        self.rank = rank
        #: ``reading declared``: every reading of a play is a move of its own, leading or
        #: answering (those that beat the move to beat)
        self.declared = self.wild.policy is ReadingPolicy.DECLARED
        self.moves = MoveSet(rules, natural=False)
        #: move id → its play and its reading
        self.plays: list[WildMove] = []
        self.readings: list[WildReading] = []
        #: a play's packed cards (4 bits per rank) → its move ids, and the id it leads as
        self.of_play: dict[int, list[int]] = {}
        self.lead: dict[int, int] = {}
        #: canonical id of the move to beat → play's cards → the answer's id (absent: none)
        self._answer: dict[int, dict[int, int]] = {}
        #: under ``reading declared``: canonical id of the move to beat → per move id, 1 if
        #: its reading beats it
        self._beats: dict[int, bytes] = {}
        self._classes: dict[tuple[object, ...], int] = {}
        self._shape_code = {s.name: i for i, s in enumerate(rules.shapes)}
        self._scoring = rules.scoring
        #: the starting hands: a later hand's plays are among theirs
        self._hands = tuple(hands)
        for h in hands:
            self._add_hand(h)
        self._finish()

    def _add_hand(self, hand: Cards) -> None:
        natural, wilds = split_hand(hand, self.rank)
        found = play_readings(natural, wilds, self.rank, self.rules)
        for (nkey, k), rs in found.items():
            move = WildMove(Cards.from_key(nkey), k, self.rank)
            k4 = pack(move.cards.counts)
            if k4 in self.of_play:
                continue
            kept = [r for r in rs if not violated(self.wild, r)]
            if not kept:  # every reading cut by a wild restriction: not a legal play
                continue
            self.of_play[k4] = [self._add(move, k4, r) for r in kept]
        if self.declared:
            for k4, ids in self.of_play.items():
                self.lead.setdefault(k4, ids[0])
            return
        for k4, m in self._chosen(hand, None).items():
            self.lead[k4] = m

    def _chosen(self, hand: Cards, previous: WildReading | None) -> dict[int, int]:
        """The policy's move of each play of ``hand`` leading (``previous`` None) or
        answering ``previous``: play's packed cards → move id, by the fast legal-move
        generation of :func:`ddzspec.wildmoves.wild_legal_moves` (a play's reading depends
        on the play only)."""
        out = {}
        for p in wild_legal_moves(hand, self.rank, self.rules, previous):
            k4 = pack(p.move.cards.counts)
            out[k4] = next(i for i in self.of_play[k4] if self.readings[i] == p.reading)
        return out

    def _add(self, move: WildMove, k4: int, r: WildReading) -> int:
        ms = self.moves
        rd = r.reading
        if rd.tier:
            place, tier, _ = strength(self.wild, r)
            t = (place << 8) | tier
            c = self._classes.setdefault(("tier", t), len(self._classes))
        else:
            t = 0
            c = self._classes.setdefault(("shape", rd.shape, rd.size), len(self._classes))
        if r.bomb_class is not None:
            times = self.wild.factor(r.bomb_class)
        else:
            times = self._scoring.factor(rd.shape)
        m = len(ms.mk)
        ms.mk.append(k4)
        ms.key3.append(0)
        ms.size.append(len(move.cards))
        ms.tier.append(t)
        ms.cls.append(c)
        ms.strength.append(rd.key * _KEY_UNIT + self._shape_code[rd.shape] * 64 + rd.size)
        ms.doubles.append(times != 1)
        ms.times.append(times)
        ms.last_only.append(False)
        self.plays.append(move)
        self.readings.append(r)
        return m

    def _finish(self) -> None:
        ms = self.moves
        ms.derive(len(self._classes), False)
        ms.wild = self
        #: every move id, the plays' lead ids sorted as a hand's leads are (largest first,
        #: then weaker bodies)
        size, st = ms.size, ms.strength
        self._all = list(range(ms.n_moves))
        leads = self._all if self.declared else self.lead.values()
        self._leads = sorted(leads, key=lambda i: (-size[i], st[i], ms.mk[i]))

    # ------------------------------------------------------------------ the hook

    def info(self, ms: MoveSet, hand: int, parent: HandInfo | None) -> HandInfo:
        g = KEY_GUARD
        hg = hand | g
        mk = ms.mk
        pool = self.held(ms, parent) if parent is not None else self._all
        ids = [i for i in pool if (hg - mk[i]) & g == g]
        leads = [i for i in self._leads if (hg - mk[i]) & g == g] if parent is None else [
            i for i in parent.leads if (hg - mk[i]) & g == g]
        by_class: dict[int, list[int]] = {}
        top = vec[i64]([-1] * ms.n_classes)
        tiered: list[int] = []
        max_tier = 0
        n_doubling = 0
        for i in ids:
            c = ms.cls[i]
            by_class.setdefault(c, []).append(i)
            top[c] = max(top[c], ms.strength[i])
            if ms.tier[i] > 0:
                tiered.append(i)
                max_tier = max(max_tier, ms.tier[i])
            if ms.doubles[i]:
                n_doubling = 1
        count = 0
        h = hand
        while h:
            count += h & 15
            h >>= 4
        if n_doubling:  # a soft bomb needs no whole rank: bounded by the cards only
            n_doubling = count // ms.min_doubling_size
        tiered.sort(key=lambda i: (ms.tier[i], ms.strength[i]))
        return HandInfo(hand, count, tuple(leads), by_class, top, tuple(tiered), max_tier,
                        n_doubling)

    def held(self, ms: MoveSet, info: HandInfo) -> list[int]:
        return [i for ids in info.by_class.values() for i in ids]

    def answers(self, ms: MoveSet, info: HandInfo, last: int) -> list[int]:
        c = ms.canon[last]
        previous = self.readings[c]
        if self.declared:
            beats = self._beats.get(c)
            if beats is None:
                beats = self._beats[c] = bytes(
                    outranks(self.wild, r, previous) for r in self.readings)
            return [i for i in info.leads if beats[i]]
        answer = self._answer.get(c)
        if answer is None:  # every starting hand's answers to ``c`` at once
            answer = self._answer[c] = {}
            for h in self._hands:
                answer.update(self._chosen(h, previous))
        mk = ms.mk
        return [answer[mk[lead]] for lead in info.leads if mk[lead] in answer]

    def text(self, m: int, notation: str) -> str:
        """``33**=3333``: the play (``*`` a wild card), ``=``, the cards it reads as (the
        declared notation of :func:`ddzspec.wild.parse_declared`); a play without wild cards
        as the natural notation writes it (``333+4``)."""
        play, reading = self.plays[m], self.readings[m].reading
        if not play.wilds:
            return reading.format(notation)
        return f"{play.format(notation)}={reading.format(notation)}"

    def table_move(self, cards: Cards, read_as: Cards | None = None) -> int:
        """The id of ``cards`` played as a lead, or read as the cards ``read_as`` (the move on
        the table of a position: give its cards among the ``hands`` so its play is known);
        ValueError when it is no legal play or has no such reading."""
        k4 = pack(cards.counts)
        got = self.lead.get(k4)
        if got is not None and read_as is not None:
            got = next((i for i in self.of_play[k4]
                        if self.readings[i].reading.cards == read_as), None)
        if got is None:
            raise ValueError(f"{cards.format()} is no legal play with "
                             f"{ALL_RANKS[self.rank].symbol()} wild")
        return got
