"""The web table's Play routes: the rules offered, and the deals' JSON API over
:mod:`ddzspec.web.games` (a new deal, the person's action, a computer's action, the record,
the replay, an uploaded record).

Every handler is a module-level function; what it shares with the others (the deals'
store, the rules offered, the level-3 thinking queue) comes from ``request.app.state``
(:func:`ddzspec.web.shared.table`). Errors are raised, and answered as JSON by the app's
exception handlers (:data:`ddzspec.web.shared.EXCEPTION_HANDLERS`).

Every route, with its parameters: docs/web-table.md, "The HTTP API".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .games import DEFAULT_LEVEL, WebError, levels_of, new_state, seat_of
from .shared import check_fields, notation_of, read_json, table


def query_levels(q: Mapping[str, str]) -> list[int] | int | None:
    """The computer levels of an upload's query: ``?levels=2,3,1`` (one per seat) or
    ``?level=N`` (every computer); None when neither is given. WebError otherwise."""
    try:
        if "levels" in q:
            return [int(x) for x in q["levels"].split(",")]
        return int(q["level"]) if "level" in q else None
    except ValueError:
        raise WebError("?levels= is a comma-separated list of levels (1, 2 or 3), one per "
                       "seat; ?level= one level") from None


async def rules_list(request: Request) -> Response:
    """The rules offered, the levels and the notations."""
    from ..cards import SYMBOLS
    listed = await run_in_threadpool(table(request).offer.to_json)
    return JSONResponse({"rules": listed, "levels": [1, 2, 3],
                         "notations": ["en", "fr", "de"], "symbols": SYMBOLS})


async def games_list(request: Request) -> Response:
    """The deals kept, newest first."""
    notation_of(request)
    return JSONResponse({"games": await run_in_threadpool(table(request).store.listing)})


async def games_new(request: Request) -> Response:
    """A new deal: ``{"rules", "seat"?, "levels"?, "seed"?}`` (seat 0 and level 2 when
    left out, as ``ddzspec play``); rules that cannot be dealt and unknown fields are
    refused (400)."""
    t = table(request)
    body = await read_json(request)
    if not isinstance(body, dict):
        raise WebError("the body is a JSON object {\"rules\", \"seat\", \"levels\"}")
    check_fields(body, ("rules", "seat", "levels", "seed"))
    n = notation_of(request)
    rules = await run_in_threadpool(t.offer.playable, body.get("rules"))
    seat = seat_of(body.get("seat", 0), rules.deal.players)
    levels = levels_of(body.get("levels", DEFAULT_LEVEL), rules.deal.players, seat)
    state = await run_in_threadpool(new_state, rules, body.get("seed"))
    g = await run_in_threadpool(t.store.create, str(body["rules"]), state, seat, levels)
    return JSONResponse(await run_in_threadpool(g.to_json, n), status_code=201)


async def game_get(request: Request) -> Response:
    """One deal as its person sees it."""
    n = notation_of(request)
    gid = request.path_params["gid"]
    store = table(request).store
    return JSONResponse(await run_in_threadpool(lambda: store.get(gid).to_json(n)))


async def game_action(request: Request) -> Response:
    """The person's action; the engine validates it (422 with its message)."""
    n = notation_of(request)
    store = table(request).store
    g = await run_in_threadpool(store.get, request.path_params["gid"])
    body = await read_json(request)

    def act() -> dict[str, Any]:
        with g.lock:
            g.check_person_turn()
            action = g.person_action(body, n)
            store.save(g, g.apply_person(action, n))
            return g.to_json(n)
    return JSONResponse(await run_in_threadpool(act))


async def game_computer(request: Request) -> Response:
    """One computer action (in a worker thread; level 3 thinks 0.5 s in the thinking
    queue's threads: 503 when it is full)."""
    n = notation_of(request)
    t = table(request)
    g = await run_in_threadpool(t.store.get, request.path_params["gid"])

    def act() -> dict[str, Any]:
        with g.lock:
            action = g.computer_action()
            t.store.save(g, g.state.apply(action))
            out = g.to_json(n)
            out["acted"] = {"seat": action.seat, "kind": action.kind.value}
            return out
    turn = g.state.turn
    if turn is not None and g.levels[turn] == 3:
        return JSONResponse(await t.thinking.run(act))
    return JSONResponse(await run_in_threadpool(act))


async def game_record(request: Request) -> Response:
    """The deal's record, as a download, once the deal is over: 409 before (a record
    holds the seed and every hand, which a player must not see mid-deal; the deal is
    autosaved meanwhile)."""
    from ..game.record import record_of
    g = await run_in_threadpool(table(request).store.get, request.path_params["gid"])
    if g.state.result is None:
        raise WebError("the record can be downloaded when the deal is over: it holds the "
                       "seed and every hand (the deal is autosaved meanwhile)", 409)
    text = await run_in_threadpool(lambda: record_of(g.state).dumps() + "\n")
    return Response(text, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="ddzspec-{g.gid}.json"'})


async def game_replay(request: Request) -> Response:
    """The deal's steps, for the replay."""
    n = notation_of(request)
    g = await run_in_threadpool(table(request).store.get, request.path_params["gid"])
    return JSONResponse(await run_in_threadpool(g.replay_json, n))


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
    g = await run_in_threadpool(table(request).store.upload, body, seat, levels)
    return JSONResponse(await run_in_threadpool(g.to_json, n), status_code=201)


ROUTES = [
    Route("/api/rules", rules_list),
    Route("/api/games", games_list, methods=["GET"]),
    Route("/api/games", games_new, methods=["POST"]),
    Route("/api/games/{gid}", game_get),
    Route("/api/games/{gid}/action", game_action, methods=["POST"]),
    Route("/api/games/{gid}/computer", game_computer, methods=["POST"]),
    Route("/api/games/{gid}/record", game_record),
    Route("/api/games/{gid}/replay", game_replay),
    Route("/api/records", record_upload, methods=["POST"]),
]

__all__ = ["ROUTES", "query_levels"]
