"""The web table's puzzle sessions: one :class:`Session` per puzzle being played (its
PuzzleGame, the last verdict, its lock), kept in memory by :class:`PuzzleSessions`.

The sessions are bounded as the deals are by GameStore: beyond ``limit`` the one used least
recently is dropped, its solver memory freed; one untouched for ``idle_seconds`` keeps its
moves but frees its solver memory (recomputed if the person comes back to it). A session is
lost with a restart: the page then says so and offers the puzzles again.

The routes over them: :mod:`ddzspec.web.routes_puzzles`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..cards import SYMBOLS
from .games import WebError

if TYPE_CHECKING:
    from ..puzzles import MoveVerdict, Puzzle, PuzzleGame

#: Puzzle sessions kept in memory: beyond this the one used least recently is dropped (its
#: solver memory freed). Each holds up to tens of MiB of solver tables while in play.
MAX_SESSIONS = 16
#: A session untouched for this many seconds keeps its moves but frees its solver memory
#: (recomputed if the person comes back to it); a finished one frees it at once.
IDLE_SECONDS = 600.0
#: A puzzle session id: 16 hex digits.
SESSION_ID = re.compile(r"^[0-9a-f]{16}$")


@dataclass
class Session:
    """One puzzle being played: the current PuzzleGame, the last verdict, the puzzle (None
    for a typed position)."""

    sid: str
    game: PuzzleGame
    puzzle: Puzzle | None = None
    verdict: MoveVerdict | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: when it was last used (time.monotonic())
    touched: float = field(default_factory=time.monotonic, repr=False)

    def release(self, wait: bool = True) -> bool:
        """Free the solver memory of this session's game (a cache: it stays playable).
        ``wait=False``: only if no request is using it now. Returns whether it was freed."""
        if not self.lock.acquire(blocking=wait):
            return False
        try:
            self.game.release()
        finally:
            self.lock.release()
        return True

    def to_json(self, notation: str) -> dict[str, Any]:
        """The session as the page reads it: its game, the moves it may play, the verdict, the
        wild rank (``[{"rank", "symbol"}]``, empty without: as a deal's)."""
        v = self.verdict
        game = self.game.to_json(notation)
        rank = self.game.wild  # laizi: the wild rank, as a deal's "wild" (the badge, the marks)
        return {"sid": self.sid,
                "wild": [] if rank is None else [{"rank": rank,
                                                  "symbol": SYMBOLS[notation][rank]}],
                "puzzle": None if self.puzzle is None else self.puzzle.to_json(),
                "game": game,
                "legal": list(game["legal_moves"]) if self.game.human_to_move else [],
                "verdict": None if v is None else {"move": v.move, "keeps_win": v.keeps_win,
                                                   "lines": list(v.lines)}}


class PuzzleSessions:
    """The puzzle sessions in memory, the most recently used last: at most ``limit``; those
    idle for ``idle_seconds`` free their solver memory. Thread-safe; :meth:`get` and
    :meth:`add` may wait on a session's lock (call them in a worker thread)."""

    def __init__(self, limit: int = MAX_SESSIONS, idle_seconds: float = IDLE_SECONDS) -> None:
        self.limit = limit
        self.idle_seconds = idle_seconds
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, sid: str) -> Session:
        """The session ``sid``, now the most recently used (WebError 404 when there is none);
        the idle ones are swept."""
        with self.lock:
            s = self.sessions.get(sid) if SESSION_ID.match(sid) else None
            if s is not None:
                self.sessions.move_to_end(sid)  # the most recently used: evicted last
                s.touched = time.monotonic()
        if s is None:
            raise WebError(f"no puzzle session {json.dumps(sid)} (it may have ended with a "
                           "restart, or been dropped for newer ones: start the puzzle again)",
                           404)
        self.sweep()
        return s

    def add(self, s: Session) -> None:
        """Keep ``s``; drop the least recently used beyond the limit (a request still using
        one finishes first), then sweep the idle ones."""
        dropped = []
        with self.lock:
            self.sessions[s.sid] = s
            while len(self.sessions) > self.limit:
                dropped.append(self.sessions.popitem(last=False)[1])
        for old in dropped:
            old.release()
        self.sweep()

    def sweep(self) -> None:
        """Free the solver memory of sessions idle for ``idle_seconds`` (not those in use
        now); they keep their moves."""
        now = time.monotonic()
        with self.lock:
            idle = [s for s in self.sessions.values() if now - s.touched > self.idle_seconds]
        for s in idle:
            if s.game.solver_entries:
                s.release(wait=False)


__all__ = ["IDLE_SECONDS", "MAX_SESSIONS", "SESSION_ID", "PuzzleSessions", "Session"]
