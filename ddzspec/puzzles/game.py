"""A puzzle played against the solver's perfect defence, and the distance to the end.

Entry point: :class:`PuzzleGame`, an immutable game: :meth:`PuzzleGame.start`,
:meth:`~PuzzleGame.play` (the human's move, judged by a :class:`MoveVerdict`),
:meth:`~PuzzleGame.reply` (the solver's move: the fastest win, or when lost the longest
resistance), :meth:`~PuzzleGame.hint`, :meth:`~PuzzleGame.take_back` and
:meth:`~PuzzleGame.to_json`. ``ddzspec puzzles play`` and the web table's Puzzle tab use it.
How it searches, the time limits and the rules of puzzles: docs/solver.md, "Puzzle play".

>>> from ddzspec.puzzles.catalogue import puzzle_by_id
>>> g = PuzzleGame.start(puzzle_by_id("DDZ2-15").position(), "landlord")
>>> g.hands, g.hint()
({'landlord': 'TTQQ', 'peasant': '3A'}, ('TT', 'QQ'))
>>> g.play("T")[1].lines[0]
'this loses: after T the peasant wins with A'
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from ..cards import ALL_RANKS, NOTATIONS, Cards, pack, parse_cards, unpack
from ..errors import NotationError, PuzzleError, shorten
from ..solver import PASS, Position
from ..solver.search import Aborted, Limit, Searcher, gc_paused
from ..wild import parse_wild

T = TypeVar("T")

#: A search state: (seat to move, hands packed 4 bits per rank, move id to beat or -1, passes).
State = tuple[int, tuple[int, ...], int, int]

#: Table entries a game's search keeps (about 350 bytes each, so at most about 150 MiB per game
#: in play; a web server may hold several): past it the tables are emptied, a cache only, so
#: answers never change. The largest shipped puzzle (DDZ2-04) needs about 150,000.
_ENTRIES = 400_000

#: Refutation lines longer than this many plies are cut with "…".
LINE_PLIES = 12


# ----------------------------------------------------------------------------- verdicts

@dataclass(frozen=True)
class MoveVerdict:
    """What the human's move did to the game's outcome.

    - ``move``: the move in canonical text (``PASS`` for a pass).
    - ``keeps_win``: True when the human side still wins with best play after it, False when it
      threw the win away; None when the human side was already lost before the move, or when the
      solver could not decide in time.
    - ``lines``: plain words, e.g. ``"this loses: after 55 the peasant wins with 2"`` and the
      line of best play that follows (cut after :data:`LINE_PLIES` plies), or
      ``"unknown in 10 s: …"``.
    """

    move: str
    keeps_win: bool | None
    lines: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"move", "keeps_win", "lines"}``."""
        return {"move": self.move, "keeps_win": self.keeps_win, "lines": list(self.lines)}


# ----------------------------------------------------------------------------- the search

class _Engine:
    """The solver's search for one game, shared by every :class:`PuzzleGame` derived from the
    same start (its tables only cache proven results, so sharing never changes an answer).

    - ``status``/``winning``: the win/loss of a state and the winning moves (the solver's
      boolean core);
    - ``distance``: plies to the end of the deal under best play, the winner shortest, the loser
      longest (iterative deepening over the winning moves only).

    Each public call runs under the time limit ``seconds`` and returns None when it runs out.
    """

    def __init__(self, position: Position, seconds: float, nodes: int | None = None) -> None:
        self.position = position
        self.seconds = seconds
        self.node_limit = nodes
        #: how the limit reads in words: "in 10 s", "in 10 s or 500 nodes"
        self.limit_words = f"in {seconds:g} s" + (f" or {nodes} nodes" if nodes else "")
        self.search = Searcher(position, Limit(seconds=seconds, entries=_ENTRIES))
        self.lock = threading.RLock()  # a web server may share a game between threads
        #: (side, state) → the least / the largest depth proven enough / not enough to finish
        self.ok: dict[tuple[bool, State], int] = {}
        self.fail: dict[tuple[bool, State], int] = {}
        self.deadline = 0.0
        self.nodes = 0
        self.node_budget: int | None = None

    def run(self, fn: Callable[..., T], *args: Any) -> T | None:
        """``fn(*args)`` under the time limit; None when it runs out."""
        with self.lock:
            self.search.budget(self.seconds, self.node_limit)
            self.deadline = time.perf_counter() + self.seconds
            self.node_budget = None
            if self.node_limit is not None:  # the distance search counts its own nodes
                self.node_budget = self.nodes + self.node_limit
            try:
                with gc_paused():  # as solve() does: the collector's walks cost 5-10 %
                    return fn(*args)
            except Aborted:
                return None

    def release(self) -> None:
        """Drop the search's tables and caches (memory: tens of MiB after a hard question);
        they only cache proven results, so later calls give the same answers, recomputed."""
        with self.lock:
            self.search.release()
            self.ok.clear()
            self.fail.clear()

    # ---------------------------------------------------------------- boolean (via solver)

    def children(self, st: State) -> list[tuple[int, State | None]]:
        """(move id or -1 for a pass, next state or None when the mover is out), in the
        solver's order."""
        with self.lock:
            return [(m, None if nxt < 0 else (nxt, h2, l2, p2))
                    for m, nxt, h2, l2, p2 in self.search.children(*st)]

    def mover_wins(self, st: State) -> bool:
        """Whether the side of the seat to move wins with best play."""
        return bool(self.search.win(*st))

    def landlord_wins(self, st: State) -> bool:
        """Whether the landlord's side wins with best play."""
        return self.mover_wins(st) == bool(self.search.side[st[0]])

    def keeps(self, st: State, child: State | None) -> bool:
        """Whether moving from ``st`` to ``child`` keeps (or reaches) the mover side's win."""
        if child is None:
            return True
        side = self.search.side
        return self.mover_wins(child) == bool(side[child[0]] == side[st[0]])

    def winning(self, st: State) -> tuple[int, ...]:
        """Every winning move (id, -1: pass) of the seat to move."""
        return tuple(m for m, ch in self.children(st) if self.keeps(st, ch))

    # ---------------------------------------------------------------- distance to the end

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise Aborted(f"node limit {self.node_limit} reached")
        if self.nodes & 255 == 0:
            if time.perf_counter() > self.deadline:
                raise Aborted(f"time limit {self.seconds} s reached")
            if len(self.ok) + len(self.fail) > _ENTRIES:  # a cache only: memory stays bounded
                self.ok.clear()
                self.fail.clear()

    def within(self, x: bool, st: State, k: int) -> bool:
        """Whether side ``x`` (True: the landlord's) can make sure one of its seats is out
        within ``k`` plies from ``st``, whatever the other side does. A bounded search with
        no win/loss proofs: a move that finishes in time is a winning move, so the least such
        ``k`` is the winner's distance to the end (and ``x`` never finishes if it loses)."""
        if k <= 0:
            return False
        key = (x, st)
        if self.ok.get(key, k + 1) <= k:
            return True
        if self.fail.get(key, 0) >= k:
            return False
        self._tick()
        kids = self.children(st)
        if self.search.side[st[0]] == x:
            result = any(ch is None or self.within(x, ch, k - 1) for _, ch in kids)
        else:  # every answer of the other side must leave a finish within k - 1
            result = all(ch is not None and self.within(x, ch, k - 1) for _, ch in kids)
        if result:
            self.ok[key] = min(k, self.ok.get(key, k))
        else:
            self.fail[key] = max(k, self.fail.get(key, 0))
        return result

    def distance(self, child: State | None) -> int:
        """Plies from ``child`` to the end under best play (0: the deal is over): the least
        ``k`` within which the side that wins ``child`` finishes (iterative deepening)."""
        if child is None:
            return 0
        x = self.landlord_wins(child)
        k = max(self.fail.get((x, child), 0) + 1, 1)
        while not self.within(x, child, k):
            k += 1
        return k

    def best(self, st: State) -> tuple[int, State | None, int, bool]:
        """The computer's move at ``st``: (move id, next state, plies to the end after it,
        whether the mover's side wins). Winning: the winning move with the fewest plies; lost:
        the move with the most (ties: the solver's own move order)."""
        kids = self.children(st)
        wins = self.mover_wins(st)
        if wins:
            for m, ch in kids:
                if ch is None:
                    return m, ch, 0, wins
            d, i = min((self.distance(ch), i) for i, (_, ch) in enumerate(kids)
                       if self.keeps(st, ch))
        else:
            d, i = max((self.distance(ch), -i) for i, (_, ch) in enumerate(kids))
            i = -i
        return kids[i][0], kids[i][1], d, wins

    def line(self, st: State | None) -> list[tuple[int, int]]:
        """Best play from ``st`` to the end as (seat, move id): both sides as :meth:`best`."""
        out: list[tuple[int, int]] = []
        while st is not None:
            m, nxt, _, _ = self.best(st)
            out.append((st[0], m))
            st = nxt
        return out

    # ---------------------------------------------------------------- text

    def text(self, m: int, notation: str = "en") -> str:
        """Move id (-1: pass) as canonical text."""
        return PASS if m < 0 else str(self.search.ms.text(m, notation))

    def hand_text(self, hand: int, notation: str = "en") -> str:
        """A packed hand as canonical text."""
        return Cards(unpack(hand)).format(notation)


# ----------------------------------------------------------------------------- the game

def _sort_key(engine: _Engine, m: int) -> tuple[int, int, int, int, int]:
    """Moves as listed to the player (the solver's order, :meth:`MoveSet.shown_order`)."""
    key: tuple[int, int, int, int, int] = engine.search.ms.shown_order(m)
    return key


@dataclass(frozen=True)
class PuzzleGame:
    """A puzzle being played: the human against the solver's perfect defence (module doc).

    Public fields (all plain values, canonical English text; :meth:`to_json` renders them in
    another notation):

    - ``seats``: seat names in play order; ``human_seats``: the seats the human plays;
      ``human``: the side as given to :meth:`start`; ``seconds``: the time limit per solver
      call.
    - ``hands``: cards left per seat; ``to_move``: the seat to move (None when over);
      ``human_to_move``; ``on_table``: (seat, move) to beat, None at a lead; ``history``:
      (seat, move or "PASS") in order.
    - ``over``, ``winner`` ("landlord"/"peasants" with three seats, the seat name with two).
    - ``human_wins_with_best_play``: the solver's verdict for the human side now (None:
      unknown in the time limit); when over, whether the human side won.
    - ``lines``: plain words about the last event (the computer's move and why, a take-back,
      a time out), cards in ``notation`` (given to :meth:`start`).

    Build with :meth:`start`; never changes: every action returns a new game.
    """

    seats: tuple[str, ...]
    hands: dict[str, str]
    to_move: str | None
    human_to_move: bool
    on_table: tuple[str, str] | None
    history: tuple[tuple[str, str], ...]
    over: bool
    winner: str | None
    human_wins_with_best_play: bool | None
    human: str
    human_seats: tuple[str, ...]
    seconds: float
    lines: tuple[str, ...] = ()
    notation: str = "en"
    _engine: _Engine = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    _state: State | None = field(repr=False, compare=False, default=None)
    _moves: tuple[tuple[int, int], ...] = field(repr=False, compare=False, default=())
    _winning: tuple[int, ...] | None = field(repr=False, compare=False, default=None)
    _undo: PuzzleGame | None = field(repr=False, compare=False, default=None)

    # ---------------------------------------------------------------- construction

    @classmethod
    def start(cls, position: Position, human: str, *, seconds: float = 10.0,
              nodes: int | None = None, notation: str = "en") -> PuzzleGame:
        """A new game from ``position``; the human plays ``human``: a seat name of the
        position, or "landlord" / "peasants" (with three seats the human plays both peasant
        seats; naming one peasant seat means both). ``seconds``: time limit per solver call
        (> 0); ``nodes``: also a limit on the positions searched per solver call (None: none;
        a limit that does not depend on the machine's speed). ``notation``: the card notation
        of the plain words (:attr:`lines`, :attr:`MoveVerdict.lines`; "en", "fr", "de"); the
        fields stay canonical English. Raises PuzzleError on a bad side, limit or notation."""
        _check_notation(notation)
        if not isinstance(seconds, (int, float)) or not math.isfinite(seconds) or seconds <= 0:
            raise PuzzleError(f"seconds must be a positive number of seconds, not {seconds!r}")
        seats = position.seats
        side = human.strip().lower() if isinstance(human, str) else human
        if side in seats and position.roles[seats.index(side)] == "landlord":
            humans = tuple(s for s, r in zip(seats, position.roles) if r == "landlord")
        elif side == "peasants" or (side in seats and side != "landlord"):
            humans = tuple(s for s, r in zip(seats, position.roles) if r == "peasant")
        else:
            raise PuzzleError(f"side {human!r}: expected landlord, peasants or a seat of the "
                              f"position ({', '.join(seats)})")
        if nodes is not None and (not isinstance(nodes, int) or nodes < 1):
            raise PuzzleError(f"nodes must be a positive whole number or None, not {nodes!r}")
        engine = _Engine(position, float(seconds), nodes)
        s = engine.search
        state: State = (position.to_move, s.hands0, s.last0, position.passes)
        game = cls(seats, {}, None, False, None, (), False, None, None, str(human), humans,
                   float(seconds), (), notation, engine, state)
        return game._settled(state, (), None, ())

    def _settled(self, state: State | None, moves: tuple[tuple[int, int], ...],
                 undo: PuzzleGame | None, lines: tuple[str, ...],
                 human_wins: bool | None = None, known: bool = False) -> PuzzleGame:
        """The game at ``state`` (None: over) after ``moves``: every public field derived, and
        the human's winning moves when the human is to move (one solver call). ``known``:
        ``human_wins`` is already decided (no call for it)."""
        e = self._engine
        n = len(self.seats)
        hands_packed = self._hands_after(moves)
        hands = {s: e.hand_text(h) for s, h in zip(self.seats, hands_packed)}
        history = tuple((self.seats[i], e.text(m)) for i, m in moves)
        winning: tuple[int, ...] | None = None
        human_landlord = self._human_landlord
        if state is None:
            last_seat = moves[-1][0]
            ll_won = e.position.roles[last_seat] == "landlord"
            winner = ("landlord" if ll_won else "peasants") if n == 3 else self.seats[last_seat]
            return replace(self, hands=hands, to_move=None, human_to_move=False, on_table=None,
                           history=history, over=True, winner=winner,
                           human_wins_with_best_play=ll_won == human_landlord, lines=lines,
                           _state=None, _moves=moves, _winning=None, _undo=undo)
        s, _, last, passes = state
        to_move = self.seats[s]
        human_turn = to_move in self.human_seats
        if human_turn:
            winning = e.run(e.winning, state)
            if winning is not None:
                human_wins, known = bool(winning), True
                winning = tuple(sorted(winning, key=lambda m: _sort_key(e, m)))
        if not known:
            ll = e.run(e.landlord_wins, state)
            human_wins = None if ll is None else ll == human_landlord
        if human_wins is None:
            lines = (*lines, f"unknown {e.limit_words}: the solver could not "
                     "decide who wins from here in time")
        on_table = None
        if last >= 0:
            on_table = (self.seats[(s - 1 - passes) % n], e.text(last))
        return replace(self, hands=hands, to_move=to_move, human_to_move=human_turn,
                       on_table=on_table, history=history, over=False, winner=None,
                       human_wins_with_best_play=human_wins, lines=lines, _state=state,
                       _moves=moves, _winning=winning, _undo=undo)

    def _done_words(self, seat: int, moves: tuple[tuple[int, int], ...]) -> str:
        """How seat ``seat`` ended the game with the last of ``moves``: "out", or, with a
        target (the duel handicap), "target reached, 1 card left"."""
        left = len(Cards(unpack(self._hands_after(moves)[seat])))
        if left == 0:
            return "out"
        return f"target reached, {left} card{'' if left == 1 else 's'} left"

    def targets(self) -> dict[str, int]:
        """The seats with a target above 0 (the duel handicap: that seat wins as soon as it
        holds this many cards or fewer), by name."""
        return {name: t for name, t in zip(self.seats, self._engine.position.targets) if t}

    def _hands_after(self, moves: tuple[tuple[int, int], ...]) -> list[int]:
        e = self._engine
        hands = list(e.search.hands0)
        for seat, m in moves:
            if m >= 0:
                hands[seat] -= e.search.ms.mk[m]
        return hands

    # ---------------------------------------------------------------- names

    @property
    def _human_landlord(self) -> bool:
        """Whether the human plays the landlord's side."""
        return bool(self._engine.position.roles[self.seats.index(self.human_seats[0])]
                    == "landlord")

    def _computer_wins(self) -> str:
        """"the peasant wins" / "the landlord wins" (two seats), "the peasants win"."""
        if not self._human_landlord:
            return "the landlord wins"
        return "the peasants win" if len(self.seats) == 3 else f"the {self.seats[1]} wins"

    def _line_words(self, line: list[tuple[int, int]]) -> str:
        e = self._engine
        shown = [f"{self.seats[s]} {e.text(m, self.notation)}" for s, m in line[:LINE_PLIES]]
        more = ", …" if len(line) > LINE_PLIES else ""
        return ", ".join(shown) + more

    # ---------------------------------------------------------------- queries

    def legal_moves(self) -> tuple[str, ...]:
        """Every legal move of the seat to move (human or computer), smaller moves first then
        lower bodies, "PASS" last; () when the game is over."""
        if self._state is None:
            return ()
        e = self._engine
        ids = sorted((m for m, _ in e.children(self._state)), key=lambda m: _sort_key(e, m))
        return tuple(e.text(m) for m in ids)

    @property
    def hint_unknown(self) -> bool:
        """Whether the human is to move and the solver could not list the winning moves in
        time (:meth:`hint` is then (), even when :attr:`human_wins_with_best_play` is known:
        the verdict alone is a smaller search than every winning move)."""
        return self.human_to_move and self._winning is None

    def hint(self, notation: str = "en") -> tuple[str, ...]:
        """Every winning move of the human side, in :meth:`legal_moves` order, cards in
        ``notation``; () when it has none (lost), when it is not the human's turn, when the
        game is over, or when the solver could not list them in time (then
        :attr:`hint_unknown`)."""
        _check_notation(notation)
        if self._winning is None:
            return ()
        return tuple(self._engine.text(m, notation) for m in self._winning)

    # ---------------------------------------------------------------- actions

    def _parse(self, move: str | None, notation: str) -> int:
        """The human's move as a move id (-1: pass); PuzzleError saying what is wrong."""
        st = self._state
        assert st is not None
        e = self._engine
        s, hands, last, _ = st
        seat = self.seats[s]
        if move is None or (isinstance(move, str) and move.strip().lower() in ("pass", "p")):
            if last < 0:
                raise PuzzleError(f"{seat} leads: a pass is allowed only when there is a move "
                                  "to beat")
            return -1
        if not isinstance(move, str):
            raise PuzzleError(f"a move is a card string or 'pass', not {move!r}")
        _check_notation(notation)
        if not move.strip():
            raise PuzzleError("no cards given: type the cards to play, or 'pass'")
        rules = e.position.rules
        if e.position.wild is not None:
            return self._parse_wild(move, notation, e.position.wild)
        try:
            cards = parse_cards(move, notation, rules.deck).cards
        except NotationError as err:
            raise PuzzleError(f"move {shorten(move)!r}: {err.one_line()}") from None
        held = Cards(unpack(hands[s]))
        if not cards <= held:
            raise PuzzleError(f"move {move!r}: {seat} does not hold these cards: it needs "
                              f"{cards.shortfall(held, notation)}; hand "
                              f"{held.format(notation) or '-'}")
        m = e.search.ms.move_id(cards)
        if m is None:
            from ..readings import illegal_reason
            raise PuzzleError(f"move {move!r}: not a legal move of {rules.label}: "
                              f"{illegal_reason(cards.counts, rules, notation)}")
        if last >= 0 and m not in {c for c, _ in e.children(st)}:
            from ..readings import beats
            ms = e.search.ms
            _, why = beats(ms.reading(m), ms.reading(last), notation)
            assert self.on_table is not None
            raise PuzzleError(f"move {move!r}: does not beat {e.text(last, notation)} on the "
                              f"table (played by {self.on_table[0]}): {why}")
        return int(m)

    def _parse_wild(self, move: str, notation: str, rank: int) -> int:
        """The human's move with a wild rank (``33**`` or ``3377``: each ``*`` or card of the
        wild rank a wild card; ``33**=3333`` also says what it reads as) as the move id of
        that play with the reading the ``strongest`` policy gives it here; PuzzleError."""
        st = self._state
        assert st is not None
        e = self._engine
        s, hands, last, _ = st
        rules = e.position.rules
        shown, eq, reading = move.partition("=")
        try:
            cards = parse_wild(shown, rank, rules, notation).cards
            read_as = parse_cards(reading, notation, rules.deck).cards if eq else None
        except NotationError as err:
            raise PuzzleError(f"move {shorten(move)!r}: {err.one_line()}") from None
        held = Cards(unpack(hands[s]))
        if not cards <= held:
            raise PuzzleError(f"move {move!r}: {self.seats[s]} does not hold these cards: it "
                              f"needs {cards.shortfall(held, notation)}; hand "
                              f"{held.format(notation) or '-'}")
        ms = e.search.ms
        key = pack(cards.counts)
        for m, _ in e.children(st):
            if m >= 0 and ms.mk[m] == key:
                text = e.text(m, "en")
                if read_as is not None and parse_cards(text.partition("=")[2] or text, "en",
                                                       rules.deck).cards != read_as:
                    raise PuzzleError(f"move {move!r}: these cards play here as "
                                      f"{e.text(m, notation)} (reading strongest)")
                return m
        what = "beats nothing on the table" if last >= 0 else "is not a legal move"
        raise PuzzleError(f"move {move!r}: {what} with {ALL_RANKS[rank].symbol(notation)} "
                          f"wild under {rules.label}")

    def _require_turn(self, human: bool) -> State:
        if self._state is None:
            raise PuzzleError(f"the game is over: {self.winner} won")
        if self.human_to_move != human:
            who = "yours" if self.human_to_move else "the computer's"
            what = "play a move" if self.human_to_move else "ask for the computer's reply"
            raise PuzzleError(f"{self.to_move} is to move, which is {who}: {what}")
        return self._state

    def play(self, move: str | None, notation: str = "en") -> tuple[PuzzleGame, MoveVerdict]:
        """The human's move (cards in ``notation``; None or "pass" for a pass): the new game
        and the verdict on the move (does it keep the win; if it throws the win away, the
        computer's winning reply and the line that follows). Raises PuzzleError when the game
        is over, it is not the human's turn, the move is badly written, not held, not a legal
        move or does not beat the move on the table; this game is unchanged."""
        st = self._require_turn(True)
        m = self._parse(move, notation)
        e = self._engine
        text = e.text(m, self.notation)  # the words; the verdict's move is canonical English
        child = next(ch for c, ch in e.children(st) if c == m)
        moves = (*self._moves, (st[0], m))
        before = self.human_wins_with_best_play
        if child is None:
            done = self._done_words(st[0], moves)
            said = "and is out" if done == "out" else f"({done})"
            return (self._settled(None, moves, self, (f"{self.seats[st[0]]} plays {text} "
                                                      f"{said}.",)),
                    MoveVerdict(e.text(m), True, (f"{text}: {done}, you win.",)))
        keeps: bool | None = None
        if self._winning is not None:
            keeps = m in self._winning
        secs = e.limit_words
        lines: list[str] = []
        if before is None or keeps is None:
            keeps = None
            lines.append(f"unknown {secs}: the solver could not decide whether {text} "
                         "keeps the win")
        elif not before:
            keeps = None
            lines.append(f"{text}: you were already lost ({self._computer_wins()} with "
                         "best play whatever you do)")
        elif keeps:
            lines.append(f"{text} keeps the win.")
        else:
            lines.extend(self._refutation(text, child))
        # a lost side stays lost; a winning side keeps the win iff the move keeps it
        human_wins = False if before is False else keeps
        game = self._settled(child, moves, self, (), human_wins, known=human_wins is not None)
        return game, MoveVerdict(e.text(m), keeps, tuple(lines))

    def _refutation(self, text: str, child: State) -> list[str]:
        """Words for a move that throws the win away: the computer's winning reply (the one
        :meth:`reply` will play, then the others) and best play from there, cut after
        :data:`LINE_PLIES` plies."""
        e = self._engine
        them = self._computer_wins()
        secs = e.limit_words
        line = e.run(e.line, child)
        if self.seats[child[0]] in self.human_seats:
            first = f"this loses: after {text} {them} whatever you do"
        else:
            replies = e.run(e.winning, child)
            if replies is None:
                first = (f"this loses: after {text} {them} (the winning replies are "
                         f"unknown {secs})")
            else:
                ordered = sorted(replies, key=lambda m: _sort_key(e, m))
                best = line[0][1] if line else ordered[0]
                first = (f"this loses: after {text} {them} with "
                         f"{e.text(best, self.notation)}")
                others = [e.text(m, self.notation) for m in ordered if m != best]
                if others:
                    first += f" (also {', '.join(others)})"
        if line is None:
            return [first, f"the line of best play is unknown {secs}"]
        return [first, f"best play then: {self._line_words(line)} ({_plies(len(line))} to "
                "the end)"]

    def release(self) -> None:
        """Free the solver's memory behind this game (and every game derived from the same
        start: they share it). A cache only: the game stays usable and every answer stays the
        same, recomputed when asked (a take-back after the end, say). Call it when the game
        ends or is abandoned."""
        self._engine.release()

    @property
    def solver_entries(self) -> int:
        """Entries the solver's tables hold for this game now (0 after :meth:`release`)."""
        e = self._engine
        return int(e.search.table_entries) + len(e.ok) + len(e.fail)

    def reply(self) -> PuzzleGame:
        """The computer's move (perfect defence, module doc): a winning move, the fastest; when
        lost, the move that resists longest. Raises PuzzleError when the game is over or it is
        the human's turn."""
        st = self._require_turn(False)
        e = self._engine
        seat = self.seats[st[0]]
        got = e.run(e.best, st)
        if got is None:  # time out: the solver's first move, said so
            m, child = e.children(st)[0]
            why = (f"chosen without a verdict: the solver could not decide "
                   f"{e.limit_words} (unknown)")
            human_wins, known = None, False
        else:
            m, child, d, computer_wins = got
            if computer_wins:
                why = (f"winning, the fastest: {_plies(d)} to the end after it" if d else
                       self._done_words(st[0], (*self._moves, (st[0], m))))
            else:
                why = f"lost with best play: it holds out longest, {_plies(d)} to the end"
            human_wins, known = not computer_wins, True
        text = e.text(m, self.notation)
        moves = (*self._moves, (st[0], m))
        lines = (f"{seat} plays {text} ({why})",)
        return self._settled(child, moves, self._undo, lines, human_wins, known=known)

    def take_back(self) -> PuzzleGame:
        """The game as it was before the human's last move (the computer's replies since are
        taken back too). Raises PuzzleError when the human has not moved yet."""
        if self._undo is None:
            raise PuzzleError("nothing to take back: you have not moved yet")
        last = self._moves[len(self._undo._moves)]
        return replace(self._undo, lines=(f"took back {self.seats[last[0]]}'s "
                                          f"{self._engine.text(last[1], self.notation)}",))

    # ---------------------------------------------------------------- output

    @property
    def wild(self) -> int | None:
        """The position's wild rank (a rank index: every card of it is wild), None without."""
        rank: int | None = self._engine.position.wild
        return rank

    def position(self) -> Position | None:
        """The current position for the solver (None when the game is over)."""
        if self._state is None:
            return None
        s, hands, last, passes = self._state
        e = self._engine
        read_as = None
        if last < 0:
            table = None
        elif e.position.wild is not None:  # the cards played, and what they read as
            text = e.text(last, "en")
            shown, _, reading = text.partition("=")
            rules = e.position.rules
            table = parse_wild(shown, e.position.wild, rules).cards
            read_as = parse_cards(reading or shown, "en", rules.deck).cards
        else:
            table = e.search.ms.reading(last).cards
        n = len(self.seats)
        return replace(e.position, hands=tuple(Cards(unpack(h)) for h in hands), to_move=s,
                       on_table=table, played_by=None if last < 0 else (s - 1 - passes) % n,
                       passes=passes if last >= 0 else 0, on_table_as=read_as)

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """Every public field, JSON-ready, cards in ``notation``: ``{"seats", "hands",
        "to_move", "human_to_move", "on_table": [seat, move] | null, "history": [[seat,
        move]], "over", "winner", "human_wins_with_best_play", "human", "human_seats",
        "seconds", "lines", "notation", "legal_moves", "hint", "hint_unknown", "targets"}``
        (``lines`` stay in the game's own notation; ``targets``: :meth:`targets`)."""
        _check_notation(notation)
        e = self._engine
        hands = self._hands_after(self._moves)
        table = None
        if self._state is not None and self._state[2] >= 0:
            assert self.on_table is not None
            table = [self.on_table[0], e.text(self._state[2], notation)]
        legal: list[str] = []
        if self._state is not None:
            ids = sorted((m for m, _ in e.children(self._state)), key=lambda m: _sort_key(e, m))
            legal = [e.text(m, notation) for m in ids]
        return {"seats": list(self.seats),
                "hands": {s: e.hand_text(h, notation) for s, h in zip(self.seats, hands)},
                "to_move": self.to_move, "human_to_move": self.human_to_move,
                "on_table": table,
                "history": [[self.seats[i], e.text(m, notation)] for i, m in self._moves],
                "over": self.over, "winner": self.winner,
                "human_wins_with_best_play": self.human_wins_with_best_play,
                "human": self.human, "human_seats": list(self.human_seats),
                "seconds": self.seconds, "lines": list(self.lines), "notation": self.notation,
                "legal_moves": legal,
                "hint": [e.text(m, notation) for m in self._winning or ()],
                "hint_unknown": self.hint_unknown, "targets": self.targets()}

    def replies(self) -> Iterator[PuzzleGame]:
        """The computer's moves until the human is to move or the game is over (each
        intermediate game in turn)."""
        g = self
        while not g.over and not g.human_to_move:
            g = g.reply()
            yield g


def _check_notation(notation: str) -> None:
    """PuzzleError unless ``notation`` is one of the card notations (en, fr, de)."""
    if notation not in NOTATIONS:
        raise PuzzleError(f"unknown notation {notation!r}: expected en, fr or de")


def _plies(n: int) -> str:
    """1 → "1 ply", 3 → "3 plies"."""
    return f"{n} ply" if n == 1 else f"{n} plies"


__all__ = ["LINE_PLIES", "MoveVerdict", "PuzzleGame"]
