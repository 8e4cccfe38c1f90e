"""The web table's Puzzle and Learn parts: routes over :mod:`ddzspec.puzzle_play` (play an
endgame against the solver's perfect defence) and :mod:`ddzspec.learn` (a page per rules file,
the diff of two variants in words).

Every route, with its parameters: docs/web-table.md, "The HTTP API".
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..explain import Explanation
from .guard import WorkQueue

if TYPE_CHECKING:
    from ..puzzles import PuzzleGame

#: Puzzle sessions kept in memory: beyond this the one used least recently is dropped (its
#: solver memory freed). Each holds up to tens of MiB of solver tables while in play.
MAX_SESSIONS = 16
#: A session untouched for this many seconds keeps its moves but frees its solver memory
#: (recomputed if the person comes back to it); a finished one frees it at once.
IDLE_SECONDS = 600.0
#: The solver's time per question on the web table, seconds.
PUZZLE_SECONDS = 10.0
#: A puzzle session id: 16 hex digits.
SESSION_ID = re.compile(r"^[0-9a-f]{16}$")
#: The ``rules`` line of a position (one statement per line, grammar/position.lark).
RULES_LINE = re.compile(r'^([ \t]*rules\b[ \t]*:?[ \t]*)("(?:[^"\\\n]|\\.)*"|[A-Za-z0-9_./~-]+)')


def explanation_json(ex: Explanation, notation: str) -> dict[str, Any]:
    """An explanation as JSON: ``Explanation.to_json`` when it exists, else ``{"move",
    "legal", "lines"}``."""
    to_json = getattr(ex, "to_json", None)
    if to_json is not None:
        out: dict[str, Any] = to_json(notation)
        out.setdefault("lines", list(ex.lines))
        return out
    v = ex.verdict
    move = v.reading.format(notation) if v.legal else v.cards.format(notation)
    return {"move": move, "legal": bool(v.legal), "lines": list(ex.lines)}


def safe_position_text(text: str, offer: Any) -> str:
    """``text`` with its ``rules`` line checked against the rules the server offers (a
    position typed in the browser never makes the server read a file): a built-in keeps its
    name, a ``--rules`` file offered at start is named by its path. Raises WebError naming
    what is offered."""
    from .games import WebError
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = RULES_LINE.match(line)
        if m is None:
            continue
        name = m.group(2)
        if name.startswith('"'):
            try:
                name = json.loads(name)
            except ValueError:
                raise WebError(f"line {i + 1}: a rules name in quotes is a JSON string") \
                    from None
        rules = offer.get(name)  # WebError unless offered
        real = name if _is_builtin(name) else json.dumps(str(rules.path))
        lines[i] = m.group(1) + real + line[m.end():]
    return "\n".join(lines)


def _is_builtin(name: str) -> bool:
    from ..rules import builtin_rules
    return name in builtin_rules()


@dataclass
class Session:
    """One puzzle being played: the current PuzzleGame, the last verdict, the puzzle (None
    for a typed position)."""

    sid: str
    game: Any
    puzzle: Any = None
    verdict: Any = None
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
        v = self.verdict
        game = self.game.to_json(notation)
        return {"sid": self.sid,
                "puzzle": None if self.puzzle is None else self.puzzle.to_json(),
                "game": game,
                "legal": list(game["legal_moves"]) if self.game.human_to_move else [],
                "verdict": None if v is None else {"move": v.move, "keeps_win": v.keeps_win,
                                                   "lines": list(v.lines)}}


def extra_routes(offer: Any, read_json: Callable[..., Any], guarded: Callable[..., Any],
                 notation_of: Callable[..., str], solving: WorkQueue) -> list[BaseRoute]:
    """The Puzzle and Learn routes (the solver's work in ``solving``: 503 when it is full)."""
    from .games import WebError
    sessions: OrderedDict[str, Session] = OrderedDict()
    slock = threading.Lock()

    async def session(request: Request) -> Session:
        sid = request.path_params["sid"]
        with slock:
            s = sessions.get(sid) if SESSION_ID.match(sid) else None
            if s is not None:
                sessions.move_to_end(sid)  # the most recently used: evicted last
                s.touched = time.monotonic()
        if s is None:
            raise WebError(f"no puzzle session {json.dumps(sid)} (it may have ended with a "
                           "restart, or been dropped for newer ones: start the puzzle again)",
                           404)
        await run_in_threadpool(sweep)
        return s

    def sweep() -> None:
        """Free the solver memory of sessions idle for :data:`IDLE_SECONDS` (not those in
        use now); they keep their moves."""
        now = time.monotonic()
        with slock:
            idle = [s for s in sessions.values() if now - s.touched > IDLE_SECONDS]
        for s in idle:
            if s.game.solver_entries:
                s.release(wait=False)

    def sides_of(position: Any) -> list[str]:
        if len(position.seats) == 3:
            return ["landlord", "peasants"]
        return list(position.seats)

    @guarded
    async def puzzles(request: Request) -> Response:
        from ..puzzles import builtin_puzzles

        def listing() -> list[dict[str, Any]]:
            out = []
            for p in builtin_puzzles():
                j = dict(p.to_json())
                j["sides"] = sides_of(p.position())
                out.append(j)
            return out
        return JSONResponse({"puzzles": await run_in_threadpool(listing)})

    @guarded
    async def puzzle_start(request: Request) -> Response:
        from ..puzzles import PuzzleGame, puzzle_by_id
        n = notation_of(request)
        body = await read_json(request)
        if not isinstance(body, dict):
            raise WebError("the body is {\"id\": puzzle id} or {\"position\": text}, with "
                           "\"side\"")
        side = body.get("side")
        if side is not None and not isinstance(side, str):
            raise WebError("\"side\": a seat name, or landlord / peasants")

        def start() -> Session:
            puzzle = None
            if isinstance(body.get("id"), str):
                puzzle = puzzle_by_id(body["id"])
                position = puzzle.position()
            elif isinstance(body.get("position"), str):
                text = body["position"]
                if len(text) > 4000:
                    raise WebError("\"position\": longer than any position")
                from ..rules import DEFAULT_RULES
                from ..solver import parse_position
                position = parse_position(safe_position_text(text, offer), "position",
                                          notation=n, rules=offer.get(DEFAULT_RULES))
            else:
                raise WebError("the body needs \"id\" (a puzzle) or \"position\" (text)")
            who = side or position.seats[position.to_move]
            if len(position.seats) == 3 and side is None:
                who = "landlord" if position.roles[position.to_move] == "landlord" \
                    else "peasants"
            game = PuzzleGame.start(position, who, seconds=PUZZLE_SECONDS, notation=n)
            return Session(secrets.token_hex(8), game, puzzle)

        s = await solving.run(start)
        dropped = []
        with slock:
            sessions[s.sid] = s
            while len(sessions) > MAX_SESSIONS:
                dropped.append(sessions.popitem(last=False)[1])
        for old in dropped:  # a request still using one finishes first
            await run_in_threadpool(old.release)
        await run_in_threadpool(sweep)
        return JSONResponse(s.to_json(n), status_code=201)

    async def step(s: Session, n: str,
                   change: Callable[[PuzzleGame], tuple[PuzzleGame, Any]]) -> Response:
        """One change of a puzzle session under its lock, in a worker thread (the solver may
        think): ``change(game)`` gives the new game and the verdict to show (or None)."""
        def act() -> dict[str, Any]:
            with s.lock:
                # the words about this step (the verdict, the computer's move, a take-back)
                # are written in the notation of the page asking, which may have changed
                s.game, s.verdict = change(replace(s.game, notation=n))
                out = s.to_json(n)
                if s.game.over:  # the puzzle ended: its solver memory is freed at once
                    s.game.release()
                return out
        return JSONResponse(await solving.run(act))

    @guarded
    async def puzzle_get(request: Request) -> Response:
        if request.path_params["sid"] == "start":  # the POST-only route, not a session
            raise WebError("method not allowed: GET /api/puzzles/start (POST starts a "
                           "puzzle)", 405)
        s = await session(request)
        return JSONResponse(await run_in_threadpool(s.to_json, notation_of(request)))

    @guarded
    async def puzzle_move(request: Request) -> Response:
        n = notation_of(request)
        s = await session(request)
        body = await read_json(request)
        if not isinstance(body, dict) or "move" not in body or \
                not (body["move"] is None or isinstance(body["move"], str)):
            raise WebError("the body is {\"move\": cards in notation, or null to pass}")
        move = body["move"]
        if isinstance(move, str) and len(move) > 200:
            raise WebError("\"move\" is longer than any hand")

        return await step(s, n, lambda g: g.play(move, n))

    @guarded
    async def puzzle_reply(request: Request) -> Response:
        return await step(await session(request), notation_of(request),
                          lambda g: (g.reply(), None))

    @guarded
    async def puzzle_takeback(request: Request) -> Response:
        return await step(await session(request), notation_of(request),
                          lambda g: (g.take_back(), None))

    @guarded
    async def puzzle_hint(request: Request) -> Response:
        s = await session(request)
        n = notation_of(request)

        def hint() -> dict[str, Any]:
            with s.lock:  # the page selects them in its own notation
                return {"moves": list(s.game.hint(n)), "unknown": s.game.hint_unknown}
        return JSONResponse(await solving.run(hint))

    @guarded
    async def learn_rules(request: Request) -> Response:
        from ..learn import rules_overview
        n = notation_of(request)
        rules = offer.get(request.path_params["name"])
        ov = await run_in_threadpool(rules_overview, rules, n)
        return JSONResponse(ov.to_json())

    @guarded
    async def learn_diff(request: Request) -> Response:
        from ..learn import diff_words
        n = notation_of(request)
        q = request.query_params
        for k in ("a", "b"):
            if not q.get(k):
                raise WebError(f"?a= and ?b= name the two rules to compare: {k} is missing "
                               f"(offered: {', '.join(offer.rules)})")
        a = offer.get(q["a"])
        b = offer.get(q["b"])
        lines = await run_in_threadpool(diff_words, a, b, n)
        return JSONResponse({"a": request.query_params["a"], "b": request.query_params["b"],
                             "lines": list(lines)})

    return [
        Route("/api/puzzles", puzzles),
        Route("/api/puzzles/start", puzzle_start, methods=["POST"]),
        Route("/api/puzzles/{sid}", puzzle_get),
        Route("/api/puzzles/{sid}/move", puzzle_move, methods=["POST"]),
        Route("/api/puzzles/{sid}/reply", puzzle_reply, methods=["POST"]),
        Route("/api/puzzles/{sid}/takeback", puzzle_takeback, methods=["POST"]),
        Route("/api/puzzles/{sid}/hint", puzzle_hint),
        Route("/api/learn/rules/{name}", learn_rules),
        Route("/api/learn/diff", learn_diff),
    ]


__all__ = ["explanation_json", "extra_routes", "safe_position_text"]
