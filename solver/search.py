"""The endgame search: boolean negamax with an exact transposition table, and MTD-style score.

Owns the search over packed states (:class:`Searcher`: the state, the transposition table,
the hand caches, the move ordering) and its answers (:class:`SolveResult`, :class:`Play`,
:data:`PASS`, :class:`Limit`). Entry point: :func:`solve` — ``want="winner"`` (the winning
side), ``"one"`` (and one winning move of the seat to move), ``"all"`` (every winning move,
``PASS`` included) or ``"score"`` (the exact payoff of each seat when both sides maximise their
own points); every answer carries a principal variation and statistics, and a node or time
limit gives ``status="unknown"``.

mypyc compiles this module in a standard wheel (``hatch_build.py``). How the search works —
the packed state, the static wins, the ordering, the score, and the measurements behind each
choice: docs/solver.md, "Design notes, module by module".
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from librt.vecs import append, vec
from mypy_extensions import i64

from ddzspec.cards import KEY_BITS, KEY_MASK, pack
from ddzspec.check import require_playable
from ddzspec.rules.stakes import pair_multiplier, play_counts, points

from .interrupt import checkpoint
from .movegen import GUARD, ByteTable, HandInfo, MoveSet, move_set
from .position import Position
from .wildgen import WildMoves

PASS = "PASS"
#: A child of a node: (move id or -1 for a pass, seat to move or -1 when the deal ended,
#: hands, move to beat, passes).
Child = tuple[int, int, tuple[int, ...], int, int]


#: Nodes between two checks of the limits (see :meth:`Searcher.budget`).
_CHECK_EVERY = 256


class Aborted(Exception):
    """A search stopped at its node or time limit (:class:`Limit`, :meth:`Searcher.budget`);
    its message says which, e.g. "node limit 500 reached". :func:`solve` turns it into
    ``status="unknown"``; a caller of :class:`Searcher` catches it."""


@dataclass(frozen=True, slots=True)
class Play:
    """One step of a line of play: ``seat`` name and ``cards`` in canonical notation
    (``PASS`` for a pass)."""

    seat: str
    cards: str


@dataclass(frozen=True, slots=True)
class SolveResult:
    """The answer of :func:`solve`.

    - ``status``: "solved", or "unknown" when a limit was hit (then ``winner`` is None).
    - ``winner``: "landlord" or "peasants" under perfect play; ``to_move_wins``: whether the
      side of the seat to move wins.
    - ``winning_moves``: with ``want="all"`` or ``"score"``, every winning move of the seat to
      move in canonical notation (``PASS`` for a pass; empty when it loses); with
      ``want="one"`` one of them (empty when it loses); else None.
    - ``line``: the principal variation (best play, passes included) up to the end of the deal.
    - ``score``: with ``want="score"``, points per seat name (zero-sum; a read-only
      mapping), else None.
    - ``best_moves``: with ``want="score"``, the moves that keep the exact score (a subset of
      the winning moves when the side to move wins).
    - ``nodes``: positions searched; ``table_entries``: transposition-table entries;
      ``seconds``: wall time; ``reason``: why the status is unknown.
    """

    status: Literal["solved", "unknown"]
    winner: str | None
    to_move_wins: bool | None
    winning_moves: tuple[str, ...] | None
    line: tuple[Play, ...]
    score: Mapping[str, int] | None
    nodes: int
    table_entries: int
    seconds: float
    reason: str | None = None
    best_moves: tuple[str, ...] | None = field(default=None)

    def to_json(self) -> dict[str, object]:
        """The CLI's JSON object: status, winner, winning_moves, line, score, nodes, seconds."""
        return {"status": self.status, "winner": self.winner,
                "winning_moves": None if self.winning_moves is None
                else list(self.winning_moves),
                "line": [{"seat": p.seat, "cards": p.cards} for p in self.line],
                "score": None if self.score is None else dict(self.score),
                "best_moves": None if self.best_moves is None else list(self.best_moves),
                "nodes": self.nodes,
                "seconds": round(self.seconds, 6)}


@dataclass(frozen=True, slots=True)
class Limit:
    """Search limits: ``nodes`` (positions searched) and ``seconds`` (wall time); None: none.
    ``entries``: the most transposition-table entries kept. A search whose packed states are
    under 2^63 (two seats; three, whole deals included) keeps them in a compact
    :class:`~ddzspec.solver.movegen.ByteTable` of at most ``entries`` slots rounded down to a
    power of two, 9 bytes each (the default, 2^22: 36 MiB; it starts at 65,536 slots, replaces
    entries, never grows past that and is never emptied).
    Larger states (64 bits or more: none of one 54-card deck was met, whole 3-seat deals
    take 56-59 bits) would stay in a dict of at most ``min(entries, 680,000)``
    entries (about 80 bytes each) in two generations: when the newer holds half it becomes
    the older and the previous older is dropped. So memory stays bounded whatever the time
    limit (measured figures: README). A cache only: answers never change, whatever the size.
    The limits are checked every 256 nodes, so a search may run up to 255 nodes past
    ``nodes`` (and a search of fewer nodes than that is never stopped by it). TypeError for a
    ``nodes`` or ``entries`` that is not a whole number, or ``seconds`` not a number (a bool is
    neither); ValueError for ``entries`` < 2 or > 2^40, a negative ``nodes``, or ``seconds``
    not a finite number ≥ 0."""

    nodes: int | None = None
    seconds: float | None = None
    entries: int = 1 << 22

    def __post_init__(self) -> None:
        for name, value in (("nodes", self.nodes), ("entries", self.entries)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"Limit.{name} must be a whole number, not {value!r}")
        if self.seconds is not None and (isinstance(self.seconds, bool)
                                         or not isinstance(self.seconds, int | float)):
            raise TypeError(f"Limit.seconds must be a number of seconds, not {self.seconds!r}")
        if self.entries > 1 << 40:
            raise ValueError(f"Limit.entries must be at most 2^40, not {self.entries}")
        if self.entries < 2:
            raise ValueError(f"Limit.entries must be at least 2, not {self.entries}")
        if self.nodes is not None and self.nodes < 0:
            raise ValueError(f"Limit.nodes must be 0 or more, not {self.nodes}")
        if self.seconds is not None and not 0 <= self.seconds < math.inf:
            raise ValueError(f"Limit.seconds must be a finite number of seconds, 0 or more, "
                             f"not {self.seconds}")


#: The most entries of the dict table (states that need 64 bits or more, see :class:`Limit`),
#: whatever ``Limit.entries`` (~80 bytes each; the compact table takes 9 a slot)
_DICT_ENTRIES = 680_000
#: The slots a compact table starts with (it grows 4 times at half full: a small position's
#: table stays small, in the processor's caches)
_TABLE_START = 1 << 16
#: Distinct hands whose move lists are cached before the cache is emptied (memory).
_HANDS_KEPT = 20_000
#: The hands a search keeps, weighed by their moves (1 + its leads a hand): the caches are
#: emptied past this (a 20-card hand's moves weigh ~100 times a 5-card hand's).
_WEIGHT_KEPT = 1_500_000
#: At most 2^this hands of a seat are kept by a search (a direct-mapped cache, see _Hand).
_HAND_SLOT_BITS = 18


class _Moves:
    """What the search needs of one hand against one move to beat (a lead: none): its
    ``info``, the candidate moves ``cand`` in order, whether one of them reaches the seat's
    target (``out``: a win at once), the candidates after which the rest of the hand needs at
    most ``static_plays - 1`` plays (``steps``, with those plays in ``step_plays``: where a
    static win is looked for) and the move that last won there (``killer``, -1: none; tried
    first)."""

    __slots__ = ("cand", "info", "killer", "out", "step_plays", "steps")

    def __init__(self, info: HandInfo, cand: tuple[int, ...], out: bool,
                 steps: tuple[int, ...], step_plays: tuple[int, ...]) -> None:
        self.info = info
        self.cand = cand
        self.out = out
        self.steps = steps
        self.step_plays = step_plays
        self.killer = -1


class _Hand:
    """One hand of one seat in a search: its ``number`` (see :class:`Searcher`), its
    ``info`` and its :class:`_Moves` at a lead and per move to beat (:meth:`moves`)."""

    __slots__ = ("beat", "info", "lead", "number", "replies")

    def __init__(self, number: i64, info: HandInfo) -> None:
        self.number = number
        self.info = info
        #: at a lead (a third of the nodes are leads)
        self.lead: _Moves | None = None
        #: the moves to beat met (+ 1) and the :class:`_Moves` against each, side by side: a
        #: hand meets a few (7 on average in DDZ2-05), so a scan of machine words costs less
        #: than a dict's look-up of a boxed key (measured ~150 instructions a node)
        self.beat: vec[i64] = vec[i64]()
        self.replies: list[_Moves] = []

    def moves(self, lastp: i64) -> _Moves | None:
        """The :class:`_Moves` against the canonical move ``lastp - 1`` (its index in
        :attr:`MoveSet.canons`; None: not met yet)."""
        beat = self.beat
        for i in range(len(beat)):
            if beat[i] == lastp:
                return self.replies[i]
        return None

    def add(self, lastp: i64, e: _Moves) -> None:
        """Keep ``e``, the :class:`_Moves` against the canonical move ``lastp - 1``."""
        self.beat = append(self.beat, lastp)
        self.replies.append(e)


class _Seat:
    """What a node of a search reads of its mover's seat (a native record of machine words
    when compiled: no tuple indexing and no unboxing): its hand number's ``shift`` in the
    hands' number and ``mask``; ``slot_mask`` of its hands met, ``hands`` (see
    :meth:`Searcher._hand`); the ``next`` seat; ``same``: whether the next seat is of its side;
    ``drop``: per move id what the hands' number loses when the seat plays it (its number in
    the seat's field; 0 for a move its start hand cannot make)."""

    __slots__ = ("drop", "hands", "mask", "next", "same", "shift", "slot_mask")

    def __init__(self, shift: i64, mask: i64, slot_mask: i64, nxt: i64, same: bool,
                 drop: vec[i64], hands: list[_Hand | None]) -> None:
        self.shift = shift
        self.mask = mask
        self.slot_mask = slot_mask
        self.next = nxt
        self.same = same
        self.drop = drop
        self.hands = hands


class Searcher:
    """The search over one position's seats, roles and targets (see the module doc).

    Build once per position; :meth:`win` and :meth:`at_least` may be called many times and
    share their transposition tables; :meth:`budget` gives the next calls a new limit. Raises
    :class:`Aborted` when a limit is hit.

    Inside, a state is one int (:meth:`pack`): bits 0-1 the seat to move, bit 2 the passes
    since the move to beat, then the index of that move's canonical move + 1 (0 at a lead;
    :attr:`MoveSet.canon_index`) — together the low ``hb`` bits — and above them the hands: a
    seat's hand is always within its hand at the start, so it is numbered by its count of each
    rank (a mixed-radix number: digit ``r`` in base "copies of rank ``r`` at the start + 1"),
    and the seats' numbers sit in bit fields side by side (each as wide as the seat's largest
    number needs). It is the transposition table's key: exact (a one-to-one numbering, never a
    hash), and small: under 2^63 for two seats of up to 20 cards and for 3-seat deals (56-59
    bits measured for whole 20/17/17 deals), so a compiled build does its arithmetic on machine
    words and the compact table takes it (a larger state, if any, goes to a dict). The search
    carries it as two machine words, the hands' number (under 2^63: a whole 3-seat deal of a
    54-card deck needs at most 52 bits) and the low bits: a child's hands are the parent's
    minus the move's number in the mover's field, its low bits the new seat and move.
    """

    #: try a pass before the answers (ordering only; never changes an answer)
    pass_first = False
    #: try first the move that last won from the same hand against the same move (ordering)
    killers = True
    #: static wins: a move no opponent can beat followed by the rest of the hand in one move
    static = True
    #: in a position of at least this many cards (all hands), nodes whose mover holds few
    #: cards — at most ``unstored_answer`` when answering, ``unstored_lead`` when leading — are
    #: not stored in the table but searched again when met again: their subtrees are small,
    #: and a look-up in a large table (a cache miss) costs more than a few nodes. Measured on
    #: six 13-15-card positions: 16-18 s against 19-21 s (compiled; the pure core: even) for
    #: 1.4 times the nodes; small positions (puzzles) keep every node (their table is small)
    unstored_from = 24
    #: order a hand's moves by the fewest plays the rest of the hand needs (see _leads):
    #: measured on ten 17-v-17 deals, landlord to lead, 10 verdicts of 10 within 60 s against
    #: 6 (e.g. 13.5 M nodes to 1.06 M, 6.6 M to 2,481)
    order_plays = True
    #: static wins: splits of the hand into at most this many moves, all but the last safe
    #: (see the module doc; 2 or more); ``static_plays_big`` in positions of at least
    #: ``unstored_from`` cards
    static_plays = 2
    static_plays_big = 3
    unstored_answer = 6
    unstored_lead = 2

    def __init__(self, pos: Position, limit: Limit | None = None,
                 moves: MoveSet | None = None, start: float | None = None) -> None:
        """``start``: the ``time.perf_counter()`` the time limit counts from (default: now,
        before the move set is built, so its set-up counts against the limit too)."""
        self.start = time.perf_counter() if start is None else start
        self.pos = pos
        wild: WildMoves | None = None
        if moves is None and pos.wild is not None:  # the position's (play, reading) moves
            wild = WildMoves(pos.rules, pos.wild, pos.hands + (
                (pos.on_table,) if pos.on_table is not None else ()))
            moves = wild.moves
        self.ms = moves if moves is not None else move_set(pos.rules)
        self.n = pos.n_seats
        self.side = tuple(r == "landlord" for r in pos.roles)  # True: landlord side
        self.targets = pos.targets
        self.close = self.n - 1
        self.limit = limit or Limit()
        self.nodes = 0
        #: the boolean transposition table of states of 64 bits or more (see :class:`Limit`):
        #: packed state → win of the side to move (newer and older generation)
        self.tt: dict[int, bool] = {}
        self.tt_old: dict[int, bool] = {}
        #: the table of states under 2^63 (every position of one 54-card deck met): the compact
        #: :class:`~ddzspec.solver.movegen.ByteTable` (bit 0 of a state's byte: the side to
        #: move wins; above it the bit length of the node count of the subtree that proved it,
        #: so the costliest proofs stay); made by :meth:`win`; None with larger states
        self._table: ByteTable | None = None
        self.stt: dict[tuple[object, ...], bool] = {}
        self.stt_old: dict[tuple[object, ...], bool] = {}
        sc = pos.rules.scoring
        dbl = set(sc.double)
        self.spring = "spring" in dbl
        self.anti_spring = "anti_spring" in dbl
        #: the score's factors: the spring's and anti-spring's (1: none), ``cap bombs``
        self.spring_f = sc.factor("spring")
        self.anti_f = sc.factor("anti_spring")
        self.cap_bombs: int | None = sc.cap_bombs
        self.hands0 = tuple(pack(h.counts) for h in pos.hands)
        self.last0 = -1
        if pos.on_table is not None:
            if wild is not None:
                self.last0 = wild.table_move(pos.on_table, pos.on_table_as)
            else:
                m = self.ms.move_id(pos.on_table)
                assert m is not None  # validated
                self.last0 = m
        ms = self.ms
        #: each seat's hand at the start (it contains every later hand of the seat)
        self._origin = tuple(ms.info(h) for h in self.hands0)
        # the packed state's layout (see the class doc)
        self._lb = (len(ms.canons) + 1).bit_length()
        self._hb = 3 + self._lb
        self._lmask = (1 << self._lb) - 1
        #: per seat: the base of each rank's digit (copies at the start + 1; 1: none held) and
        #: the place value of each rank's digit within the seat's number
        self._base = tuple(tuple(c + 1 for c in h.counts) for h in pos.hands)
        self._place: tuple[tuple[int, ...], ...] = tuple(
            tuple(_prefix_products(b)) for b in self._base)
        #: per seat: how many hands it can hold (its number is below this), the bits of its
        #: field in the hands' number and the place value of that field (a power of two: a
        #: node reads its mover's number with a shift and a mask, no division)
        self._span = tuple(_prod(b) for b in self._base)
        self._bits = tuple((n - 1).bit_length() for n in self._span)
        self._unit = tuple(1 << sum(self._bits[:i]) for i in range(self.n))
        self._next = tuple((i + 1) % self.n for i in range(self.n))
        #: per seat, the seats of the other side
        self._opponents = tuple(tuple(j for j in range(self.n) if self.side[j] != self.side[i])
                                for i in range(self.n))
        self._same = tuple(self.side[(i + 1) % self.n] == self.side[i] for i in range(self.n))
        #: per seat: the hands met (:class:`_Hand`), at their number's index modulo a power
        #: of two (a hand may replace another of the same index: a cache)
        hsize = tuple(1 << min(_HAND_SLOT_BITS, b) for b in self._bits)
        #: per seat, what a node reads of its mover (:class:`_Seat`)
        self._seats = tuple(
            _Seat(self._unit[i].bit_length() - 1, (1 << self._bits[i]) - 1,
                  hsize[i] - 1, self._next[i], self._same[i], self._drops(i),
                  [None] * hsize[i]) for i in range(self.n))
        self._made = 0  # weight of the hands made since the caches were last emptied
        #: the moves of a hand that cannot beat the move on the table (the pass only; shared)
        self._forced = _Moves(self._origin[0], (), False, (), ())
        # limits are checked every so many nodes: a node costs ~2-50 us, so 256 nodes keep a
        # time limit's overshoot to a few milliseconds (tests/solver/test_two_seat_puzzles.py
        # measures it)
        big = sum(h.count for h in self._origin) >= self.unstored_from
        self._unstored_a = self.unstored_answer if big else 0
        self._unstored_l = self.unstored_lead if big else 0
        self._static_k = self.static_plays_big if big else self.static_plays
        self._check_every = _CHECK_EVERY
        self._next_check = 0  # the first node checks: the set-up may have used the time
        self._slots = 1 << max(1, self.limit.entries.bit_length() - 1)
        self._compact = sum(self._bits) + self._hb <= 63
        if sum(self._bits) > 63:
            raise ValueError(
                f"this position is too large for the solver: its hands have "
                f"{' x '.join(str(n) for n in self._span)} sub-hands (more than 2^63 states "
                f"of the hands; a whole 3-seat deal of one 54-card deck needs at most 2^52)")

    def _drops(self, seat: int) -> vec[i64]:
        """Per move id what the hands' number loses when ``seat`` plays the move (see
        :class:`_Seat`)."""
        ms = self.ms
        unit = self._unit[seat]
        out = vec[i64]([0] * ms.n_moves)  # machine words: set up and freed at memory speed
        origin = self._origin[seat]
        held = origin.leads if ms.wild is None else tuple(ms.wild.held(ms, origin))
        for m in held:  # a move's cards are numbered as a hand is
            out[m] = self.number(seat, ms.mk[m]) * unit
        return out

    # ------------------------------------------------------------------ states

    def number(self, seat: int, hand: int) -> int:
        """The number of a hand (4 bits per rank) of ``seat`` (see the class doc); the hand
        must be within the seat's hand at the start."""
        num, r, place = 0, 0, self._place[seat]
        while hand:
            num += (hand & KEY_MASK) * place[r]
            hand >>= KEY_BITS
            r += 1
        return num

    def hand(self, seat: int, number: int) -> int:
        """The hand (4 bits per rank) of ``seat`` with this number: :meth:`number` inverted."""
        h = 0
        for r, b in enumerate(self._base[seat]):
            if b > 1:
                h |= (number % b) << (KEY_BITS * r)
                number //= b
        return h

    def pack(self, s: int, hands: tuple[int, ...], last: int, passes: int) -> int:
        """The packed state (see the class doc) of seat ``s`` to move, ``hands`` (4 bits per
        rank, each within the seat's hand at the start), ``last`` the move id to beat (-1 at a
        lead) and the ``passes`` since."""
        num = sum(self.number(i, h) * u for i, (h, u) in enumerate(zip(hands, self._unit)))
        c = self.ms.canon_index[last] if last >= 0 else -1
        return (num << self._hb) | s | (passes << 2) | ((c + 1) << 3)

    def unpack(self, key: int) -> tuple[int, tuple[int, ...], int, int]:
        """(seat to move, hands, move to beat or -1, passes) of a packed state (the move to
        beat as its canonical move, :attr:`MoveSet.canon`)."""
        hands = key >> self._hb
        c = ((key >> 3) & self._lmask) - 1
        return (key & 3, tuple(self.hand(i, (hands >> st.shift) & st.mask)
                               for i, st in enumerate(self._seats)),
                self.ms.canons[c] if c >= 0 else -1, (key >> 2) & 1)

    def _hand(self, seat: int, num: i64, near: HandInfo | None) -> _Hand:
        """The :class:`_Hand` of ``seat`` with number ``num``; ``near``: the info of a hand of
        the seat that contains it (its moves are a superset: a cheap start), else its hand at
        the start is used."""
        st = self._seats[seat]
        slots = st.hands
        i = num & st.slot_mask
        got = slots[i]
        if got is None or got.number != num:
            info = self.ms.info(self.hand(seat, num),
                                self._origin[seat] if near is None else near)
            got = slots[i] = _Hand(num, info)
            self._made += 1 + len(info.leads)
        return got

    def _info(self, seat: int, hands: i64) -> HandInfo:
        """The HandInfo of ``seat``'s hand in the hands' number ``hands``."""
        st = self._seats[seat]
        return self._hand(seat, (hands >> st.shift) & st.mask, None).info

    def release(self) -> None:
        """Drop the transposition tables and caches (memory); the searcher stays usable and
        starts again with empty tables."""
        self.tt, self.tt_old, self.stt, self.stt_old = {}, {}, {}, {}
        self._table = None  # a new one at the next search (:meth:`win`)
        self._forget_hands()

    def _forget_hands(self) -> None:
        """Empty the search's hand caches (and the ordering hints they hold)."""
        for st in self._seats:
            st.hands = [None] * len(st.hands)
        self._made = 0

    @property
    def table_entries(self) -> int:
        """Entries in the transposition tables (both generations, boolean and score)."""
        return (len(self.tt) + len(self.tt_old) + len(self.stt) + len(self.stt_old)
                + (0 if self._table is None else self._table.filled))

    # ------------------------------------------------------------------ limits

    def budget(self, seconds: float | None, nodes: int | None = None) -> None:
        """A new limit for the next calls (:meth:`win`, :meth:`at_least`, …): ``seconds`` from
        now and ``nodes`` more positions than searched so far (None: no limit); the table's
        ``entries`` stay. It is checked at the next node, then every 256 nodes, or at every
        node when ``nodes`` is given (an exact node budget, whatever the machine's speed:
        slower). Past it a call raises :class:`Aborted`; the searcher stays usable (its
        tables hold proven results only). Sets fields only: the search's loop is the same."""
        self.start = time.perf_counter()
        self.limit = Limit(None if nodes is None else self.nodes + nodes, seconds,
                           self.limit.entries)
        self._check_every = _CHECK_EVERY if nodes is None else 1
        self._next_check = self.nodes

    def _tick(self) -> None:
        checkpoint()  # Ctrl-C and other threads get their turn (compiled, see interrupt.py)
        lim = self.limit
        if lim.nodes is not None and self.nodes > lim.nodes:
            raise Aborted(f"node limit {lim.nodes} reached")
        if lim.seconds is not None and time.perf_counter() - self.start > lim.seconds:
            raise Aborted(f"time limit {lim.seconds:g} s reached")
        half = max(1, min(lim.entries, _DICT_ENTRIES) // 2)
        if len(self.tt) >= half:  # replacement: the newer generation becomes the older
            self.tt_old = self.tt
            self.tt = {}
        if len(self.stt) >= max(1, half // 4):  # a score entry's key (a tuple) is ~4× bigger
            self.stt_old = self.stt
            self.stt = {}
        kept = min(_HANDS_KEPT, lim.entries)
        if len(self.ms.hands) > kept or self._made > min(_WEIGHT_KEPT, 8 * lim.entries):
            # the hand caches (and the ordering hints they hold)
            self.ms.clear()
            self._forget_hands()
        self._next_check = self.nodes + self._check_every

    # ------------------------------------------------------------------ boolean core

    def children(self, s: int, hands: tuple[int, ...], last: int,
                 passes: int) -> list[Child]:
        """Every child of a node as (move id or -1 for a pass, seat to move, hands, last,
        passes); a move that reaches the mover's target has seat -1 (the deal ends)."""
        ms = self.ms
        info = ms.info(hands[s])
        cand = info.leads if last < 0 else ms.answers(info, last)
        nxt = (s + 1) % self.n
        out: list[Child] = []
        for m in cand:
            nh = hands[s] - ms.mk[m]
            ms.info(nh, info)
            h2 = hands[:s] + (nh,) + hands[s + 1:]
            if info.count - ms.size[m] <= self.targets[s]:
                out.append((m, -1, h2, m, 0))
            else:
                out.append((m, nxt, h2, m, 0))
        if last >= 0:
            if passes + 1 >= self.close:
                out.append((-1, nxt, hands, -1, 0))
            else:
                out.append((-1, nxt, hands, last, passes + 1))
        return out

    def killer(self, s: int, hand: int, last: int) -> int:
        """The move that last won for seat ``s`` holding ``hand`` (4 bits per rank) against
        move ``last`` (-1 at a lead) in this search; -1 when none."""
        num = self.number(s, hand)
        st = self._seats[s]
        h = st.hands[num & st.slot_mask]
        c = self.ms.canon_index[last] if last >= 0 else -1
        e = None if h is None or h.number != num else (
            h.lead if c < 0 else h.moves(c + 1))
        return -1 if e is None else e.killer

    def win(self, s: int, hands: tuple[int, ...], last: int, passes: int) -> bool:
        """Whether the side of seat ``s`` (to move) wins; ``last`` the move id to beat (-1 at
        a lead), ``passes`` since it was played. ValueError when a hand is not within the
        position's hand of its seat."""
        for o, h in zip(self._origin, hands):
            if ((o.hand | GUARD) - h) & GUARD != GUARD:
                raise ValueError("a state's hands must be within the position's hands "
                                 "(the search derives a hand's moves from the hand it started "
                                 "with)")
        if self._compact and self._table is None:
            self._table = ByteTable(self._slots, _TABLE_START)
        key = self.pack(s, hands, last, passes)
        return self._win(key >> self._hb, key & ((1 << self._hb) - 1), None, None)

    def _win(self, hands: i64, low: i64, p1: HandInfo | None, p2: HandInfo | None) -> bool:
        """:meth:`win` of a packed state in two machine words: the hands' number ``hands``
        and the ``low`` bits (``(hands << hb) | low`` is the state, see the class doc); ``p1``,
        ``p2``: the infos of the movers one and two plies up (None: none). With two seats
        ``p2`` holds the mover's hand of two plies ago, which contains the mover's hand now:
        its moves are a superset, a cheap start for a hand not cached; otherwise the seat's
        hand at the start is."""
        s = low & 3
        hb: i64 = self._hb
        st = self._seats[s]
        num = (hands >> st.shift) & st.mask
        lastp = (low >> 3) & self._lmask  # the move to beat + 1; 0 at a lead
        hd = st.hands[num & st.slot_mask]
        if hd is None or hd.number != num:
            hd = self._hand(s, num, p2 if self.n == 2 else None)
        e = hd.moves(lastp) if lastp else hd.lead
        if e is None:
            e = self._moves_of(s, hd.info, lastp)
            if lastp:
                hd.add(lastp, e)
            else:
                hd.lead = e
        # the hand's moves decide two kinds of node at once, before the table is probed
        # (neither is stored: the moves cache finds them again as fast)
        if e.out:  # a move goes out: a win
            n0 = self.nodes = self.nodes + 1
            if n0 >= self._next_check:
                self._tick()
            return True
        if lastp and not e.cand:  # nothing beats the move: the pass is forced
            n0 = self.nodes = self.nodes + 1
            if n0 >= self._next_check:
                self._tick()
            forced = st.next if ((low >> 2) & 1) + 1 >= self.close else st.next | (lastp << 3) | 4
            return self._win(hands, forced, hd.info, p1) == st.same
        info = hd.info
        store = info.count > (self._unstored_a if lastp else self._unstored_l)
        table = self._table
        # the tables' key: the state, one to one, the hands' bits mixed into the low bits (a
        # dict probes first by those, which alone are the seat, the passes and the move to
        # beat); a machine word in the compact table, else a Python int
        tk: i64 = 0
        tb = 0
        if store:
            if table is not None:
                tk = (hands << hb) | low
                tk ^= tk >> hb
                got = table.get(tk)
                if got >= 0:
                    return got & 1 == 1
            else:
                tb = (int(hands) << hb) | low
                tb ^= tb >> hb
                tt = self.tt
                r = tt.get(tb)
                if r is not None:
                    return r
                old = self.tt_old
                if old:
                    r = old.get(tb)
                    if r is not None:
                        tt[tb] = r
                        return r
        n0 = self.nodes = self.nodes + 1
        if n0 >= self._next_check:
            self._tick()
        won = bool(e.steps) and self._static_win(hands, s, e)
        if not won:
            same = st.same
            drop = st.drop
            clow = self.ms.low
            nxt = st.next
            k = e.killer
            plow: i64 = 0
            if lastp:  # the child after a pass: the trick closes after n - 1 passes
                plow = nxt if ((low >> 2) & 1) + 1 >= self.close else nxt | (lastp << 3) | 4
                if self.pass_first:
                    won = self._win(hands, plow, info, p1) == same
            if not won and k >= 0:
                won = self._win(hands - drop[k], nxt | clow[k], info, p1) == same
            if not won:
                for m in e.cand:
                    if m != k and self._win(hands - drop[m], nxt | clow[m], info, p1) == same:
                        won = True
                        if self.killers:
                            e.killer = m
                        break
            if not won and lastp and not self.pass_first:
                won = self._win(hands, plow, info, p1) == same
        if store:
            if table is not None:
                w = (self.nodes - n0).bit_length()
                table.put(tk, ((w if w < 127 else 127) << 1) | (1 if won else 0))
            else:
                self.tt[tb] = won
        return won

    def _moves_of(self, s: int, info: HandInfo, lastp: int) -> _Moves:
        """The :class:`_Moves` of seat ``s`` holding the hand of ``info`` against the canonical
        move ``lastp - 1`` (:attr:`MoveSet.canon_index`; ``lastp`` 0: a lead)."""
        ms = self.ms
        if lastp:  # nothing beats the move (a quarter to a third of them): one shared answer
            last = ms.canons[lastp - 1]
            if info.top[ms.cls[last]] <= ms.strength[last] and info.max_tier <= ms.tier[last]:
                return self._forced
            cand = self._answers(info, last)
        else:
            cand = self._leads(info)
        # a move that reaches the target ends the deal (leads are sorted largest first;
        # answers are one class, one size, then bombs and rocket of other sizes)
        lim = info.count - self.targets[s]
        size = ms.size
        out = False
        if not lastp:
            out = bool(cand) and size[info.leads[0]] >= lim
        else:
            for m in cand:
                if size[m] >= lim:
                    out = True
                    break
        # where a static win may be: a hand of at most static_plays plays, the moves that
        # leave at most static_plays - 1 (plays are memoised: the ordering computed them)
        k = self._static_k if self.static else 0
        if k >= 2 and not out and ms.plays(info.hand, info.leads) <= k:
            steps: list[int] = []
            step_plays: list[int] = []
            h, mk, pool = info.hand, ms.mk, info.leads
            for m in cand:
                p = ms.plays(h - mk[m], pool)
                if p < k:
                    steps.append(m)
                    step_plays.append(p)
            return _Moves(info, cand, out, tuple(steps), tuple(step_plays))
        return _Moves(info, cand, out, (), ())

    def _answers(self, info: HandInfo, last: int) -> tuple[int, ...]:
        """The moves of the hand of ``info`` that beat move ``last``, in search order: the
        same as ``_ordered(info, ms.answers(info, last))``, from each comparison class's moves
        sorted once per hand (:meth:`_by_plays`), so no sort a move to beat."""
        ms = self.ms
        if ms.wild is not None:  # each play with the reading it answers as (not cached)
            return self._by_plays(info, ms.answers(info, last))[0]
        strength, tier = ms.strength, ms.tier
        c, st, t = ms.cls[last], strength[last], tier[last]
        got = info.class_order.get(c)
        if got is None:
            got = info.class_order[c] = self._by_plays(info, info.by_class.get(c, []))
        ids, pls = got
        tiered = info.tiered
        if not tiered:
            return tuple([m for m in ids if strength[m] > st])
        if not self.order_plays:
            return tuple([m for m in ids if strength[m] > st] + [m for m in tiered if tier[m] > t])
        tt = info.tiered_order
        if tt is None:
            tt = info.tiered_order = self._by_plays(info, list(tiered))
        tids, tpls = tt
        # merge by plays; at equal plays the class's moves first (a stable sort's order)
        out: list[int] = []
        j, nt = 0, len(tids)
        for i in range(len(ids)):
            m = ids[i]
            if strength[m] > st:
                p = pls[i]
                while j < nt and tpls[j] < p:
                    if tier[tids[j]] > t:
                        out.append(tids[j])
                    j += 1
                out.append(m)
        while j < nt:
            if tier[tids[j]] > t:
                out.append(tids[j])
            j += 1
        return tuple(out)

    def _by_plays(self, info: HandInfo, moves: list[int]) -> tuple[tuple[int, ...],
                                                                    tuple[int, ...]]:
        """``moves`` stably sorted by the plays the rest of the hand needs after each, and
        those plays (the ordering off: the moves as they are)."""
        ms = self.ms
        h, mk, pool = info.hand, ms.mk, info.leads
        n = len(moves)
        if n > 8 or not self.order_plays:  # a hand's leads: one sort of packed keys
            keys = [(ms.plays(h - mk[m], pool) << 24) | i for i, m in enumerate(moves)]
            if self.order_plays:
                keys.sort()
            return tuple([moves[k & 0xFFFFFF] for k in keys]), tuple([k >> 24 for k in keys])
        # a class's few moves (two on average): a stable insertion sort, no keys made
        pls = [ms.plays(h - mk[m], pool) for m in moves]
        ids = list(moves)
        for i in range(1, n):
            p, m = pls[i], ids[i]
            j = i - 1
            while j >= 0 and pls[j] > p:
                pls[j + 1] = pls[j]
                ids[j + 1] = ids[j]
                j -= 1
            pls[j + 1] = p
            ids[j + 1] = m
        return tuple(ids), tuple(pls)

    def _leads(self, info: HandInfo) -> tuple[int, ...]:
        """The leads of the hand of ``info`` in search order (cached as ``info.ordered``, with
        ``info.ordered_plays``): by the fewest plays the rest of the hand needs after the move
        (:meth:`MoveSet.plays`), fewest first; a stable sort, so the leads' own order (larger
        first, weaker bodies first) breaks ties. Ordering only: never changes an answer."""
        got = info.ordered
        if got is None:
            got, info.ordered_plays = self._by_plays(info, list(info.leads))
            info.ordered = got
        return got

    def _static_win(self, hands: i64, s: int, e: _Moves) -> bool:
        """A static win of seat ``s`` (to move in the packed state ``key``, its moves ``e``):
        the hand splits into at most :attr:`static_plays` legal moves (``static_plays_big`` in
        a large position), the first of them one of the candidates here (a lead, or a move that
        beats the one on the table), of which every one but the last is *safe* — no opponent
        can beat it (:meth:`_safe`). The mover plays the safe moves, every seat passes after
        each (a partner may), and the mover leads the last one and is out. Sound, not
        complete: a split into more moves is not looked for."""
        opps = self._opponents[s]
        o1 = self._info(opps[0], hands)
        o2 = self._info(opps[1], hands) if len(opps) > 1 else o1
        return self._safe_split(e.info, e.steps, e.step_plays, self._static_k, o1, o2)

    def _safe_split(self, info: HandInfo, moves: tuple[int, ...], plays: tuple[int, ...],
                    k: int, o1: HandInfo, o2: HandInfo) -> bool:
        """Whether one of ``moves`` of the hand of ``info`` (``plays``: the plays the rest of
        the hand needs after each; sorted by them when the ordering is on) starts a split of
        the hand into at most ``k`` legal moves of which every one but the last is safe
        against the opponents' hands ``o1``, ``o2`` (:meth:`_static_win`); the rest of the
        hand after a safe move is tried with its own leads."""
        ms = self.ms
        for i in range(len(moves)):
            p = plays[i]
            if p < 1:  # the move is the whole hand
                return True
            if p >= k:
                if self.order_plays:  # sorted by plays: none further leaves fewer
                    break
                continue
            m = moves[i]
            if self._safe(m, o1, o2):
                if p <= 1:  # the rest is one move
                    return True
                rest = ms.info(info.hand - ms.mk[m], info)
                if self._safe_split(rest, self._leads(rest), rest.ordered_plays, k - 1, o1, o2):
                    return True
        return False

    def _safe(self, m: int, o1: HandInfo, o2: HandInfo) -> bool:
        """Whether no opponent (holding ``o1``, ``o2``: the same hand twice with one
        opponent) can beat move ``m``: no higher tier held and no stronger body of its class."""
        ms = self.ms
        t = ms.tier[m]
        if o1.max_tier > t or o2.max_tier > t:
            return False
        c, st = ms.cls[m], ms.strength[m]
        return o1.top[c] <= st and o2.top[c] <= st

    # ------------------------------------------------------------------ score core

    def stake_bound(self, hands: tuple[int, ...], lp: int, pp: bool, b: int) -> int:
        """An upper bound on the product of the factors still to come: the largest factor of
        a multiplying shape (:attr:`MoveSet.max_factor`) to the power of the multiplying plays
        the hands can make (bombs and rockets held; at most those ``cap bombs`` still counts
        after ``b``), times the spring's or anti-spring's factor while one is possible
        (``lp``, ``pp`` as :meth:`at_least` has them)."""
        ms = self.ms
        d = sum(ms.info(h).n_doubling for h in hands)
        cap = self.cap_bombs
        if cap is not None and cap - b < d:
            d = cap - b
        extra = max(self.spring_f if not pp else 1, self.anti_f if lp <= 1 else 1)
        return int(ms.max_factor ** d * extra)

    def play_factor(self, m: int, b: int) -> tuple[int, int]:
        """The factor of move ``m`` (-1: a pass) after ``b`` multiplying plays counted, and the
        count after it: a multiplying shape's factor while ``cap bombs`` still counts it
        (:func:`~ddzspec.rules.stakes.play_counts`), else 1."""
        if m < 0 or not self.ms.doubles[m] or not play_counts(b, self.cap_bombs):
            return 1, b
        return self.ms.times[m], (b if self.cap_bombs is None else b + 1)

    def at_least(self, s: int, hands: tuple[int, ...], last: int, passes: int, lp: int,
                 pp: bool, t: int, b: int = 0) -> bool:
        """Whether the landlord can guarantee a payoff ≥ ``t`` (a whole number, in units of
        the stake at this node: ±1 for a plain win/loss, times each counted play's factor and
        the spring's or anti-spring's). ``lp``: landlord plays so far (capped at 2); ``pp``: a
        peasant has played; ``b``: multiplying plays counted so far (``cap bombs``; 0
        without)."""
        if not self.anti_spring:
            lp = 2
        if not self.spring:
            pp = True
        if t == 0:  # a payoff is never 0: at least 0 is at least 1
            t = 1
        # the boolean core decides the thresholds 1 and below 0 when the landlord wins, and
        # those above 0 when it loses
        if t > 0:
            if self.win(s, hands, last, passes) != self.side[s]:
                return False
            if t == 1:
                return True
        elif self.win(s, hands, last, passes) == self.side[s]:
            return True
        top = self.stake_bound(hands, lp, pp, b)
        if t > top:
            return False
        if t <= -top:
            return True
        key = (s, hands, last, passes, lp, pp, b, t)
        r = self.stt.get(key)
        if r is None:
            r = self.stt_old.get(key)
        if r is not None:
            return r
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._tick()
        ms = self.ms
        h = hands[s]
        info = ms.info(h)
        cand = info.leads if last < 0 else ms.answers(info, last)
        is_ll = self.side[s]
        tgt = self.targets[s]
        n = self.n
        nxt = s + 1 if s + 1 < n else 0
        pre, post = hands[:s], hands[s + 1:]
        lp2 = min(lp + 1, 2) if is_ll else lp
        pp2 = pp or not is_ll
        result = not is_ll  # landlord: any child true; peasants: all children true
        for m in cand:
            nh = h - ms.mk[m]
            f, b2 = self.play_factor(m, b)
            if info.count - ms.size[m] <= tgt:
                ok = self.end_value(is_ll, lp, pp, f) >= t
            else:
                ms.info(nh, info)
                ok = self.at_least(nxt, pre + (nh,) + post, m, 0, lp2, pp2, _ceil_div(t, f), b2)
            if ok == is_ll:
                result = ok
                break
        else:
            if last >= 0:
                if passes + 1 >= self.close:
                    ok = self.at_least(nxt, hands, -1, 0, lp, pp, t, b)
                else:
                    ok = self.at_least(nxt, hands, last, passes + 1, lp, pp, t, b)
                if ok == is_ll:
                    result = ok
        self.stt[key] = result
        return result

    def end_value(self, is_ll: bool, lp: int, pp: bool, f: int) -> int:
        """The landlord's payoff in stake units when a seat of its side (``is_ll``) or of the
        peasants' goes out with a play of factor ``f``: times the spring's factor when no
        peasant has played (``pp`` false), the anti-spring's when the landlord has played
        only its lead (``lp`` 1)."""
        if is_ll:
            return f * (self.spring_f if not pp and self.spring else 1)
        return -f * (self.anti_f if lp <= 1 and self.anti_spring else 1)


def _prefix_products(bases: Sequence[int]) -> list[int]:
    """[1, b0, b0*b1, ...]: the place value of each digit of a mixed-radix number."""
    out, p = [], 1
    for b in bases:
        out.append(p)
        p *= b
    return out


def _prod(bases: Sequence[int]) -> int:
    p = 1
    for b in bases:
        p *= b
    return p


def _side_name(landlord_side: bool) -> str:
    return "landlord" if landlord_side else "peasants"


def solve(position: Position, *, want: Literal["winner", "one", "all", "score"] = "winner",
          limit: Limit | int | None = None, seconds: float | None = None,
          line: bool = True) -> SolveResult:
    """Solve an open-hand position under perfect play (see the module doc).

    ``want``: "winner" (the winning side), "one" (also one winning move of the seat to move,
    the first proven, and the line starts with it), "all" (also every winning move of the seat to
    move) or "score" (also the exact payoff per seat, when both sides maximise their own
    points). ``limit``: a :class:`Limit`, or an int meaning a node limit; ``seconds``: a time
    limit. When a limit is hit the result has ``status="unknown"`` and ``winner=None``.
    ``line``: compute the principal variation. Each call starts from empty hand caches, so
    a position's figures (``nodes``, the line) do not depend on what the process solved
    before (the same in any worker of a batch). Raises UnplayableRulesError for rules that
    ``ddzspec check`` flags (ambiguous moves, no lone cards, a shape never played); ValueError
    for a bad ``want``, a ``seconds`` that is not a finite number ≥ 0 (or that differs from
    the ``limit``'s own seconds), or a negative node limit;
    TypeError for a ``limit`` that is not a Limit, an int or None. A Ctrl-C raises
    KeyboardInterrupt within 256 nodes, compiled too (:mod:`ddzspec.solver.interrupt`).
    """
    if want not in ("winner", "one", "all", "score"):
        raise ValueError(f"want must be 'winner', 'one', 'all' or 'score', not {want!r}")
    t0 = time.perf_counter()  # the time limit covers the set-up (move set) too
    # the collector paused from the start: a collection the previous search's allocations
    # made due would otherwise run at this call's first Python frame and walk the hand caches
    # (see _GcPause)
    with gc_paused():
        require_playable(position.rules)
        lim = _limit_of(limit, seconds)
        # every search starts with the rules' hand caches empty, so its figures (nodes, the
        # line) are those of the position alone, not of what this process solved before: a
        # cache left by an earlier search is emptied sooner in this one, and its ordering
        # hints (killer moves) with it (a batch on 1 or N workers gives the same rows)
        if position.wild is None:  # a wild position's moves are its own (see Searcher)
            move_set(position.rules).clear()
        S = Searcher(position, lim, start=t0)
        s0, h0, l0, p0 = position.to_move, S.hands0, S.last0, position.passes
        lp0, pp0 = position.landlord_plays, position.peasants_played
        result = _solve(S, position, want, line, t0, s0, h0, l0, p0, lp0, pp0, position.bombs)
        S.release()  # its tables go while the collector is paused (it would walk them)
    return result


def _limit_of(limit: Limit | int | None, seconds: float | None) -> Limit:
    """The :class:`Limit` of :func:`solve`'s ``limit`` (a Limit, an int: a node limit, None)
    and ``seconds`` (None: the Limit's own). ValueError for a ``seconds`` that is not a
    finite number ≥ 0, or a negative node limit."""
    if seconds is not None and (isinstance(seconds, bool)
                                or not isinstance(seconds, int | float)):
        raise ValueError(f"seconds must be a number of seconds, not {seconds!r}")
    if limit is not None and not isinstance(limit, Limit) and (
            isinstance(limit, bool) or not isinstance(limit, int)):
        raise TypeError(f"limit must be a Limit, a node limit (int) or None, not {limit!r}")
    lim = Limit(nodes=limit) if isinstance(limit, int) else (limit or Limit())
    if seconds is not None:
        if lim.seconds is not None and lim.seconds != seconds:
            raise ValueError(f"two time limits: Limit(seconds={lim.seconds}) and "
                             f"seconds={seconds} (give one)")
        lim = Limit(lim.nodes, float(seconds), lim.entries)
    return lim


class _GcPause:
    """The context manager of :func:`gc_paused`: one object for every use (entering it
    allocates nothing the collector tracks, so a collection the previous search's allocations
    made due cannot start before the collector is off: measured 1.5 M instructions, 4 % of a
    DDZ2-05 verdict). Nested uses (a search inside a search, or two threads) count their
    depth; the last one out restores the collector as the first one in found it."""

    __slots__ = ("depth", "was")

    def __init__(self) -> None:
        self.depth = 0
        self.was = False

    def __enter__(self) -> None:
        if self.depth == 0:
            self.was = gc.isenabled()
            gc.disable()
        self.depth += 1

    def __exit__(self, kind: object, value: object, tb: object) -> None:
        self.depth -= 1
        if self.depth == 0 and self.was:
            gc.enable()


_GC_PAUSE = _GcPause()


def gc_paused() -> _GcPause:
    """Pause Python's cyclic garbage collector for a search, as a context manager (restored
    after, also on an error; a caller that paused it already keeps it paused): the search
    makes no reference cycles, and the collector's passes over its large tables cost it
    ~5-10 % of its time."""
    return _GC_PAUSE


def _solve(S: Searcher, position: Position,
           want: Literal["winner", "one", "all", "score"], line: bool, t0: float,
           s0: int, h0: tuple[int, ...], l0: int, p0: int, lp0: int,
           pp0: bool, b0: int) -> SolveResult:
    """:func:`solve` once the searcher is built."""
    try:
        mover_wins = S.win(s0, h0, l0, p0)
        ll_wins = mover_wins == S.side[s0]
        winning: tuple[str, ...] | None = None
        if want in ("all", "score"):
            winning = tuple(_winning_moves(S, s0, h0, l0, p0))
        elif want == "one":
            first = _first_winning(S, s0, h0, l0, p0) if mover_wins else None
            winning = () if first is None else (_text(S, first[0]),)
        score: Mapping[str, int] | None = None
        value = None
        node = None
        if want == "score":
            cap = _clamp_of(position)
            value = _score_value(S, ll_wins, s0, h0, l0, p0, lp0, pp0, b0, cap)
            node = _Node(s0, h0, l0, p0, lp0, pp0, b0, value, cap)
            score = MappingProxyType(dict(zip(position.seats, _points(position, value))))
        best: tuple[str, ...] | None = None
        if node is not None:
            best = tuple(_best_moves(S, node))
        pv: tuple[Play, ...] = ()
        if line:
            if node is not None:
                pv = tuple(_score_line(S, node))
            else:
                pv = tuple(_bool_line(S, s0, h0, l0, p0))
    except Aborted as e:
        return SolveResult("unknown", None, None, None, (), None, S.nodes,
                           S.table_entries, time.perf_counter() - t0, str(e))
    return SolveResult("solved", _side_name(ll_wins), mover_wins, winning, pv, score,
                       S.nodes, S.table_entries, time.perf_counter() - t0,
                       best_moves=best)


def _sorted_moves(S: Searcher, ms: list[int]) -> list[str]:
    """Move ids (−1: pass) as text, in :meth:`MoveSet.shown_order`; PASS last."""
    return [_text(S, m) for m in sorted(ms, key=S.ms.shown_order)]


def _text(S: Searcher, m: int) -> str:
    return PASS if m < 0 else S.ms.text(m, S.pos.notation)


def _winning_moves(S: Searcher, s: int, hands: tuple[int, ...], last: int,
                   passes: int) -> list[str]:
    """Every move (and pass) of the seat to move after which its side wins."""
    out = []
    same_side = S.side[s]
    for m, nxt, h2, l2, p2 in S.children(s, hands, last, passes):
        if nxt < 0 or S.win(nxt, h2, l2, p2) == (S.side[nxt] == same_side):
            out.append(m)
    return _sorted_moves(S, out)


def _first_winning(S: Searcher, s: int, hands: tuple[int, ...], last: int,
                   passes: int) -> Child | None:
    """The first child of a node won by its mover's side, trying first a move that ends the
    deal, then the move the search last proved there (the killer move), then the others in
    search order; None if none."""
    kids = S.children(s, hands, last, passes)
    k = S.killer(s, hands[s], last)
    kids.sort(key=lambda ch: (ch[1] >= 0, ch[0] != k))  # stable: the rest in search order
    same_side = S.side[s]
    for ch in kids:
        _, nxt, h2, l2, p2 = ch
        if nxt < 0 or S.win(nxt, h2, l2, p2) == (S.side[nxt] == same_side):
            return ch
    return None


def _bool_line(S: Searcher, s: int, hands: tuple[int, ...], last: int,
               passes: int) -> list[Play]:
    """The principal variation of the boolean game: the winner plays a winning move (going
    out if it can); the loser, every move losing, plays its first one in search order (a
    card rather than a pass when it has one)."""
    out: list[Play] = []
    for _ in range(4 * 60):
        wins = S.win(s, hands, last, passes)
        if wins:
            pick = _first_winning(S, s, hands, last, passes)
        else:  # every move loses: the first one in search order
            pick = next((ch for ch in S.children(s, hands, last, passes) if ch[1] >= 0), None)
        if pick is None:  # the loser has only moves that end the deal: cannot happen
            break
        m, nxt, h2, l2, p2 = pick
        out.append(Play(S.pos.seats[s], _text(S, m)))
        if nxt < 0:
            break
        s, hands, last, passes = nxt, h2, l2, p2
    return out


def _ceil_div(t: int, f: int) -> int:
    """The least whole ``x`` with ``x * f >= t`` (``f`` ≥ 1): a threshold on a child's payoff
    in its own stake units, from a threshold ``t`` on its parent's and the play's factor."""
    return -((-t) // f)


def _lattice(S: Searcher, limit: int) -> list[int]:
    """Every product of the score's factors (each multiplying shape's, the spring's, the
    anti-spring's; each any number of times) up to ``limit``, 1 included, sorted: the
    payoffs in stake units a search can meet (a superset)."""
    fs = sorted(set(S.ms.factors) | {f for f in (S.spring_f, S.anti_f) if f > 1})
    out = {1}
    frontier = [1]
    while frontier:
        grown = []
        for v in frontier:
            for f in fs:
                w = v * f
                if w <= limit and w not in out:
                    out.add(w)
                    grown.append(w)
        frontier = grown
    return sorted(out)


def _clamp_of(position: Position) -> int | None:
    """The least payoff in stake units at which every pair's multiplier reaches ``cap
    multiplier`` (the position's multiplier times the smallest pair factor: beyond it every
    payoff settles the same); None without a cap."""
    cap = position.rules.scoring.cap_multiplier
    if cap is None:
        return None
    low = position.multiplier * min(position.pair_factor(s) for s in range(1, position.n_seats))
    return max(1, _ceil_div(cap, low))


def _points(position: Position, value: int) -> tuple[int, ...]:
    """The points of each seat when the deal ends at ``value`` stake units (±: the landlord
    wins or loses): each peasant's multiplier is the position's times ``|value|`` times its
    own pair's, capped, and settled per peasant (:mod:`ddzspec.rules.stakes`, as the game
    settles)."""
    cap = position.rules.scoring.cap_multiplier
    mults = [pair_multiplier(position.multiplier * abs(value) * position.pair_factor(s), cap)
             for s in range(position.n_seats)]
    return points(position.base, 0, value > 0, mults)


def _score_value(S: Searcher, ll_wins: bool, s: int, hands: tuple[int, ...], last: int,
                 passes: int, lp: int, pp: bool, b: int, cap: int | None) -> int:
    """The exact landlord payoff in stake units (a product of factors, signed) by thresholds
    on the boolean core, tried upwards from ±1 over the products the factors can make;
    ``cap``: the payoff at which the multiplier cap makes every larger one equal
    (:func:`_clamp_of`; the answer is then at most ``cap`` in size)."""
    if not S.anti_spring:
        lp = 2
    if not S.spring:
        pp = True
    found = _lattice(S, S.stake_bound(hands, lp, pp, b))
    if cap is not None:
        found = [c for c in found if c < cap] + [cap]
    if ll_wins:
        v = 1
        for c in found:
            if c > 1:
                if not S.at_least(s, hands, last, passes, lp, pp, c, b):
                    break
                v = c
        return v
    for c in found:
        if S.at_least(s, hands, last, passes, lp, pp, -c, b):
            return -c
    return -found[-1]


@dataclass(frozen=True, slots=True)
class _Node:
    """A node of the score's line: the state (seat, hands, move to beat, passes), the
    spring flags ``lp``/``pp``, the counted plays ``b``, its payoff ``value`` in its stake
    units and ``cap``: the payoff in those units from which all are equal (None: no cap)."""

    s: int
    hands: tuple[int, ...]
    last: int
    passes: int
    lp: int
    pp: bool
    b: int
    value: int
    cap: int | None


def _above(S: Searcher, v: int) -> int:
    """The next payoff above ``v`` the factors can make (:func:`_lattice`)."""
    if v > 0:
        above = [c for c in _lattice(S, v * max(S.ms.max_factor, S.spring_f, S.anti_f))
                 if c > v]
        return above[0] if above else v + 1  # no factor: nothing above
    below = [c for c in _lattice(S, -v) if c < -v]
    return -below[-1] if below else 1


def _child_keeps(S: Searcher, node: _Node, ch: Child) -> _Node | None:
    """The child ``ch`` of ``node`` as a :class:`_Node` when its payoff is ``node.value``
    (the move keeps the exact score; at the cap: any payoff as far beyond it), else None.
    A move that ends the deal returns ``node`` itself."""
    m, nxt, h2, l2, p2 = ch
    is_ll = S.side[node.s]
    f, b2 = S.play_factor(m, node.b)
    lp2 = min(node.lp + 1, 2) if (m >= 0 and is_ll) else node.lp
    pp2 = node.pp or (m >= 0 and not is_ll)
    v, cap = node.value, node.cap
    top = cap is not None and v >= cap
    bottom = cap is not None and v <= -cap
    if nxt < 0:
        val = S.end_value(is_ll, node.lp, node.pp, f)
        if cap is not None:
            val = max(-cap, min(cap, val))
        return node if val == v else None
    if not bottom and not S.at_least(nxt, h2, l2, p2, lp2, pp2, _ceil_div(v, f), b2):
        return None
    up = _above(S, v) if cap is None else min(_above(S, v), cap)
    if not top and S.at_least(nxt, h2, l2, p2, lp2, pp2, _ceil_div(up, f), b2):
        return None
    ccap = None if cap is None else _ceil_div(cap, f)
    cv = v // f if ccap is None or not (top or bottom) else (ccap if top else -ccap)
    return _Node(nxt, h2, l2, p2, lp2, pp2, b2, cv, ccap)


def _best_moves(S: Searcher, node: _Node) -> list[str]:
    """Every move of the seat to move that keeps the exact score (best for the score)."""
    return _sorted_moves(S, [ch[0] for ch in S.children(node.s, node.hands, node.last,
                                                        node.passes)
                             if _child_keeps(S, node, ch) is not None])


def _score_line(S: Searcher, node: _Node) -> list[Play]:
    """The principal variation under the score: each side keeps the exact score."""
    out: list[Play] = []
    for _ in range(4 * 60):
        pick = None
        for ch in S.children(node.s, node.hands, node.last, node.passes):
            kept = _child_keeps(S, node, ch)
            if kept is not None:
                pick = ch, kept
                break
        if pick is None:
            break
        ch, kept = pick
        out.append(Play(S.pos.seats[node.s], _text(S, ch[0])))
        if ch[1] < 0:
            break
        node = kept
    return out


__all__ = [
    "PASS",
    "Aborted",
    "HandInfo",
    "Limit",
    "Play",
    "Searcher",
    "SolveResult",
    "solve",
]
