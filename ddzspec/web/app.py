"""The web table's HTTP routes (Starlette): the page and its static files, and a JSON API
over :mod:`ddzspec.web.games` (deals) and, when present, :mod:`ddzspec.web.extras` (puzzles,
learning). Every error is a JSON ``{"error": message}`` with a 4xx status (500 only when an
autosave file cannot be written or read).

Entry point: :func:`create_app`, the ASGI app ``ddzspec serve`` runs. Every route, with its
parameters: docs/web-table.md, "The HTTP API".
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import DdzError, GameError, NotationError
from ..explain import explain
from ..rules import DEFAULT_RULES
from .games import (
    DEFAULT_LEVEL,
    MAX_GAMES,
    GameStore,
    Offer,
    WebError,
    check_notation,
    data_folder,
    levels_of,
    new_state,
    seat_of,
)
from .guard import BODY_SECONDS, LOOPBACK_HOSTS, Busy, Guard, WorkQueue

#: The largest request body accepted, bytes (a deal record is about 10 kB): 413 beyond.
MAX_BODY = 256 * 1024
STATIC = Path(__file__).resolve().parent / "static"
#: Level-3 computers thinking at once (their own threads: reading a deal never waits on
#: them), and how many more may wait for a thread before a request is told the table is busy.
THINKERS, THINK_QUEUE = 4, 60
#: Puzzle solver work (starts, replies, hints) at once, and how many more may wait.
SOLVERS, SOLVE_QUEUE = 2, 6

Handler = Callable[[Request], Awaitable[Response]]


def error(message: str, status: int = 400) -> JSONResponse:
    """``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


async def read_json(request: Request) -> Any:
    """The request's JSON body, at most :data:`MAX_BODY` bytes: WebError 413 when larger,
    400 when it is not UTF-8 JSON."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise WebError(f"the request body is larger than {MAX_BODY} bytes", 413)
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise WebError(f"the request body is larger than {MAX_BODY} bytes", 413)
        chunks.append(chunk)
    body = b"".join(chunks)
    if not body:
        raise WebError("the request needs a JSON body")
    try:
        return json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise WebError("the request body is not UTF-8 text") from None
    except RecursionError:
        raise WebError("the JSON body is nested too deeply") from None
    except ValueError as e:
        raise WebError(f"the request body is not JSON: {e}") from None


def guarded(fn: Handler) -> Handler:
    """Turn WebError and every DdzError (the engine's messages) into a JSON error: 4xx, the
    state unchanged; Busy (too much thinking queued) into 503 with Retry-After."""
    async def inner(request: Request) -> Response:
        try:
            return await fn(request)
        except Busy as e:
            return JSONResponse({"error": str(e)}, status_code=503,
                                headers={"Retry-After": str(e.retry_after)})
        except WebError as e:
            return error(str(e), e.status)
        except NotationError as e:
            return error(f"cards: {e.one_line()}", 400)  # a caret cannot line up on a page
        except GameError as e:
            return error(str(e), 422)
        except DdzError as e:
            return error(str(e), 400)
    inner.__name__ = fn.__name__
    inner.__doc__ = fn.__doc__
    return inner


def check_fields(body: dict[str, Any], allowed: Sequence[str]) -> None:
    """WebError (400) naming the first field of ``body`` not in ``allowed`` (a misspelt
    field is never silently ignored)."""
    for k in body:
        if k not in allowed:
            raise WebError(f"unknown field {json.dumps(k)} (the fields are "
                           f"{', '.join(allowed)})")


def query_levels(q: Any) -> Any:
    """The computer levels of an upload's query: ``?levels=2,3,1`` (one per seat) or
    ``?level=N`` (every computer); None when neither is given. WebError otherwise."""
    try:
        if "levels" in q:
            return [int(x) for x in q["levels"].split(",")]
        return int(q["level"]) if "level" in q else None
    except ValueError:
        raise WebError("?levels= is a comma-separated list of levels (1, 2 or 3), one per "
                       "seat; ?level= one level") from None


def notation_of(request: Request) -> str:
    return check_notation(request.query_params.get("notation", "en"))


def create_app(rules_paths: Sequence[str] = (), data_dir: str | Path | None = None,
               offer: Offer | None = None, *, hosts: Sequence[str] | None = LOOPBACK_HOSTS,
               token: str | None = None, max_games: int = MAX_GAMES,
               body_seconds: float = BODY_SECONDS) -> Starlette:
    """The ASGI app. ``rules_paths``: rules files offered besides the built-ins (loaded now:
    RulesError when one cannot be); ``data_dir``: where deals are autosaved (default
    ``$DDZSPEC_DATA_DIR`` or the user data folder, see :func:`data_folder`); ``hosts``: the
    host names answered (default the loopback names; None: any); ``token``: asked of every
    request when given (kept in a cookie by the page); ``max_games``: the deals and uploaded
    records kept in the data folder (the oldest finished go first); ``body_seconds``: the
    time a request body may take to arrive (408 beyond)."""
    offer = offer or Offer.build(rules_paths)
    store = GameStore(data_folder(data_dir), offer, max_games)
    thinking = WorkQueue("level-3 computers", THINKERS, THINK_QUEUE)
    solving = WorkQueue("puzzle solvers", SOLVERS, SOLVE_QUEUE)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @guarded
    async def rules_list(request: Request) -> Response:
        """The rules offered, the levels and the notations."""
        from ..cards import SYMBOLS
        listed = await run_in_threadpool(offer.to_json)
        return JSONResponse({"rules": listed, "levels": [1, 2, 3],
                             "notations": ["en", "fr", "de"], "symbols": SYMBOLS})

    @guarded
    async def games_list(request: Request) -> Response:
        notation_of(request)
        return JSONResponse({"games": await run_in_threadpool(store.listing)})

    @guarded
    async def games_new(request: Request) -> Response:
        """A new deal: ``{"rules", "seat"?, "levels"?, "seed"?}`` (seat 0 and level 2 when
        left out, as ``ddzspec play``); rules that cannot be dealt and unknown fields are
        refused (400)."""
        body = await read_json(request)
        if not isinstance(body, dict):
            raise WebError("the body is a JSON object {\"rules\", \"seat\", \"levels\"}")
        check_fields(body, ("rules", "seat", "levels", "seed"))
        n = notation_of(request)
        rules = await run_in_threadpool(offer.playable, body.get("rules"))
        seat = seat_of(body.get("seat", 0), rules.deal.players)
        levels = levels_of(body.get("levels", DEFAULT_LEVEL), rules.deal.players, seat)
        state = await run_in_threadpool(new_state, rules, body.get("seed"))
        g = await run_in_threadpool(store.create, str(body["rules"]), state, seat, levels)
        return JSONResponse(await run_in_threadpool(g.to_json, n), status_code=201)

    @guarded
    async def game_get(request: Request) -> Response:
        n = notation_of(request)
        gid = request.path_params["gid"]
        return JSONResponse(await run_in_threadpool(lambda: store.get(gid).to_json(n)))

    @guarded
    async def game_action(request: Request) -> Response:
        """The person's action; the engine validates it (422 with its message)."""
        n = notation_of(request)
        g = await run_in_threadpool(store.get, request.path_params["gid"])
        body = await read_json(request)

        def act() -> dict[str, Any]:
            with g.lock:
                g.check_person_turn()
                action = g.person_action(body, n)
                store.save(g, g.apply_person(action, n))
                return g.to_json(n)
        return JSONResponse(await run_in_threadpool(act))

    @guarded
    async def game_computer(request: Request) -> Response:
        """One computer action (in a worker thread; level 3 thinks 0.5 s in the thinking
        queue's threads: 503 when it is full)."""
        n = notation_of(request)
        g = await run_in_threadpool(store.get, request.path_params["gid"])

        def act() -> dict[str, Any]:
            with g.lock:
                action = g.computer_action()
                store.save(g, g.state.apply(action))
                out = g.to_json(n)
                out["acted"] = {"seat": action.seat, "kind": action.kind.value}
                return out
        turn = g.state.turn
        if turn is not None and g.levels[turn] == 3:
            return JSONResponse(await thinking.run(act))
        return JSONResponse(await run_in_threadpool(act))

    @guarded
    async def game_record(request: Request) -> Response:
        """The deal's record, as a download, once the deal is over: 409 before (a record
        holds the seed and every hand, which a player must not see mid-deal; the deal is
        autosaved meanwhile)."""
        from ..game.record import record_of
        g = await run_in_threadpool(store.get, request.path_params["gid"])
        if g.state.result is None:
            raise WebError("the record can be downloaded when the deal is over: it holds the "
                           "seed and every hand (the deal is autosaved meanwhile)", 409)
        text = await run_in_threadpool(lambda: record_of(g.state).dumps() + "\n")
        return Response(text, media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="ddzspec-{g.gid}.json"'})

    @guarded
    async def game_replay(request: Request) -> Response:
        n = notation_of(request)
        g = await run_in_threadpool(store.get, request.path_params["gid"])
        return JSONResponse(await run_in_threadpool(g.replay_json, n))

    @guarded
    async def record_upload(request: Request) -> Response:
        """Upload a record (``?seat=&levels=2,3,1`` or ``?level=``): replayed and validated,
        then a new game."""
        n = notation_of(request)
        body = await read_json(request)
        q = request.query_params
        try:
            seat = int(q["seat"]) if "seat" in q else None
        except ValueError:
            raise WebError("?seat= is an integer") from None
        levels = query_levels(q)
        g = await run_in_threadpool(store.upload, body, seat, levels)
        return JSONResponse(await run_in_threadpool(g.to_json, n), status_code=201)

    @guarded
    async def explain_move(request: Request) -> Response:
        """``{"move", "rules"}``: the reading or why it is illegal (explain)."""
        n = notation_of(request)
        body = await read_json(request)
        if not isinstance(body, dict) or not isinstance(body.get("move"), str):
            raise WebError("the body is {\"move\": \"cards\", \"rules\": name}")
        move = body["move"]
        if not move.strip():
            raise WebError("\"move\": one move's cards, in notation (it is empty)")
        if len(move) > 200:  # refused before any parsing: cheap whatever its length
            raise WebError(f"\"move\" is {len(move)} characters long: longer than any move "
                           "(200 at most)")
        rules = offer.get(body.get("rules", DEFAULT_RULES))
        from .extras import explanation_json
        ex = await run_in_threadpool(explain, move, rules, n)
        return JSONResponse(explanation_json(ex, n))

    from .extras import extra_routes
    routes = [
        Route("/", index),
        Route("/api/rules", rules_list),
        Route("/api/games", games_list, methods=["GET"]),
        Route("/api/games", games_new, methods=["POST"]),
        Route("/api/games/{gid}", game_get),
        Route("/api/games/{gid}/action", game_action, methods=["POST"]),
        Route("/api/games/{gid}/computer", game_computer, methods=["POST"]),
        Route("/api/games/{gid}/record", game_record),
        Route("/api/games/{gid}/replay", game_replay),
        Route("/api/records", record_upload, methods=["POST"]),
        Route("/api/explain", explain_move, methods=["POST"]),
        *extra_routes(offer, read_json, guarded, notation_of, solving),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    async def not_found(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 404)
        if request.url.path.startswith("/api/"):
            what = "no such route" if status == 404 else "method not allowed"
            return error(f"{what}: {request.method} {request.url.path}", status)
        return Response("Not Found" if status == 404 else "Method Not Allowed",
                        status_code=status, media_type="text/plain")

    app = Starlette(routes=routes, exception_handlers={404: not_found, 405: not_found},
                    middleware=[Middleware(Guard, hosts=hosts, token=token,
                                                body_seconds=body_seconds)])
    app.state.store = store
    app.state.offer = offer
    return app


__all__ = ["MAX_BODY", "SOLVERS", "SOLVE_QUEUE", "THINKERS", "THINK_QUEUE", "create_app",
           "read_json"]
