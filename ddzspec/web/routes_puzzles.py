"""The web table's Puzzle routes: endgames played against the solver's perfect defence
(:mod:`ddzspec.puzzles`), a shipped puzzle or a position typed in the page.

Every handler is a module-level function; the puzzle sessions (:mod:`ddzspec.web.sessions`),
the rules offered and the solver's work queue come from ``request.app.state``
(:func:`ddzspec.web.shared.table`). The solver works in that queue's threads: 503 when it is
full. A typed position names only rules the server offers, never a file
(:func:`safe_position_text`). Errors are raised, and answered as JSON by the app's exception
handlers (:data:`ddzspec.web.shared.EXCEPTION_HANDLERS`).

Every route, with its parameters: docs/web-table.md, "The HTTP API".
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .games import Offer, WebError
from .sessions import Session
from .shared import notation_of, read_json, table

if TYPE_CHECKING:
    from ..puzzles import PuzzleGame
    from ..solver.position import Position

#: The solver's time per question on the web table, seconds.
PUZZLE_SECONDS = 10.0
#: The ``rules`` line of a position (one statement per line, grammar/position.lark).
RULES_LINE = re.compile(r'^([ \t]*rules\b[ \t]*:?[ \t]*)("(?:[^"\\\n]|\\.)*"|[A-Za-z0-9_./~-]+)')


def safe_position_text(text: str, offer: Offer) -> str:
    """``text`` with its ``rules`` line checked against the rules the server offers (a
    position typed in the browser never makes the server read a file): a built-in keeps its
    name, a ``--rules`` file offered at start is named by its path. Raises WebError naming
    what is offered."""
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


def sides_of(position: Position) -> list[str]:
    """The sides a person may take in ``position``: landlord or peasants with three seats,
    a seat otherwise."""
    if len(position.seats) == 3:
        return ["landlord", "peasants"]
    return list(position.seats)


async def session_of(request: Request) -> Session:
    """The request's puzzle session (``{sid}``): WebError 404 when there is none."""
    return await run_in_threadpool(table(request).puzzles.get, request.path_params["sid"])


async def puzzles(request: Request) -> Response:
    """The shipped puzzles, smallest first, with the sides a person may take."""
    from ..puzzles import builtin_puzzles

    def listing() -> list[dict[str, Any]]:
        out = []
        for p in builtin_puzzles():
            j = dict(p.to_json())
            j["sides"] = sides_of(p.position())
            out.append(j)
        return out
    return JSONResponse({"puzzles": await run_in_threadpool(listing)})


async def puzzle_start(request: Request) -> Response:
    """``{"id"}`` (a shipped puzzle) or ``{"position"}`` (text), with ``"side"``: a new
    session (201)."""
    from ..puzzles import PuzzleGame, puzzle_by_id
    t = table(request)
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
            position = parse_position(safe_position_text(text, t.offer), "position",
                                      notation=n, rules=t.offer.get(DEFAULT_RULES))
        else:
            raise WebError("the body needs \"id\" (a puzzle) or \"position\" (text)")
        who = side or position.seats[position.to_move]
        if len(position.seats) == 3 and side is None:
            who = "landlord" if position.roles[position.to_move] == "landlord" \
                else "peasants"
        game = PuzzleGame.start(position, who, seconds=PUZZLE_SECONDS, notation=n)
        return Session(secrets.token_hex(8), game, puzzle)

    s = await t.solving.run(start)
    await run_in_threadpool(t.puzzles.add, s)
    return JSONResponse(s.to_json(n), status_code=201)


async def step(request: Request, s: Session, n: str,
               change: Callable[[PuzzleGame], tuple[PuzzleGame, Any]]) -> Response:
    """One change of the puzzle session ``s`` under its lock, in a solver thread (the solver
    may think): ``change(game)`` gives the new game and the verdict to show (or None)."""
    def act() -> dict[str, Any]:
        with s.lock:
            # the words about this step (the verdict, the computer's move, a take-back)
            # are written in the notation of the page asking, which may have changed
            s.game, s.verdict = change(replace(s.game, notation=n))
            out = s.to_json(n)
            if s.game.over:  # the puzzle ended: its solver memory is freed at once
                s.game.release()
            return out
    return JSONResponse(await table(request).solving.run(act))


async def puzzle_get(request: Request) -> Response:
    """The session as it stands (a reload resumes it)."""
    if request.path_params["sid"] == "start":  # the POST-only route, not a session
        raise WebError("method not allowed: GET /api/puzzles/start (POST starts a "
                       "puzzle)", 405)
    s = await session_of(request)
    return JSONResponse(await run_in_threadpool(s.to_json, notation_of(request)))


async def puzzle_move(request: Request) -> Response:
    """``{"move"}``: the person's move (null to pass), with the verdict on it."""
    n = notation_of(request)
    s = await session_of(request)
    body = await read_json(request)
    if not isinstance(body, dict) or "move" not in body or \
            not (body["move"] is None or isinstance(body["move"], str)):
        raise WebError("the body is {\"move\": cards in notation, or null to pass}")
    move = body["move"]
    if isinstance(move, str) and len(move) > 200:
        raise WebError("\"move\" is longer than any hand")
    return await step(request, s, n, lambda g: g.play(move, n))


async def puzzle_reply(request: Request) -> Response:
    """The solver's reply."""
    return await step(request, await session_of(request), notation_of(request),
                      lambda g: (g.reply(), None))


async def puzzle_takeback(request: Request) -> Response:
    """Take back the person's last move (and the replies after it)."""
    return await step(request, await session_of(request), notation_of(request),
                      lambda g: (g.take_back(), None))


async def puzzle_hint(request: Request) -> Response:
    """The moves that keep the win, in the page's notation."""
    t = table(request)
    s = await session_of(request)
    n = notation_of(request)

    def hint() -> dict[str, Any]:
        with s.lock:  # the page selects them in its own notation
            return {"moves": list(s.game.hint(n)), "unknown": s.game.hint_unknown}
    return JSONResponse(await t.solving.run(hint))


ROUTES = [
    Route("/api/puzzles", puzzles),
    Route("/api/puzzles/start", puzzle_start, methods=["POST"]),
    Route("/api/puzzles/{sid}", puzzle_get),
    Route("/api/puzzles/{sid}/move", puzzle_move, methods=["POST"]),
    Route("/api/puzzles/{sid}/reply", puzzle_reply, methods=["POST"]),
    Route("/api/puzzles/{sid}/takeback", puzzle_takeback, methods=["POST"]),
    Route("/api/puzzles/{sid}/hint", puzzle_hint),
]

__all__ = ["PUZZLE_SECONDS", "ROUTES", "safe_position_text"]
