"""What every web route shares: the table's state (:class:`Table`, kept on ``app.state``),
reading a request (its JSON body, its fields, its notation) and the errors as JSON.

Routes raise; :data:`EXCEPTION_HANDLERS` (Starlette's ``exception_handlers``, looked up by
the exception's class) turn what they raise into ``{"error": message}``: WebError with its
own status, NotationError 400 in one line, GameError 422, any other DdzError 400, Busy 503
with ``Retry-After``, and an unknown route or method under ``/api/`` a JSON 404/405. A
refused request leaves the state unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..errors import DdzError, GameError, NotationError
from .games import GameStore, Offer, WebError, check_notation
from .guard import Busy, WorkQueue
from .sessions import PuzzleSessions

#: The largest request body accepted, bytes (a deal record is about 10 kB): 413 beyond.
MAX_BODY = 256 * 1024


@dataclass(frozen=True)
class Table:
    """The state the routes share (``request.app.state.table``): the rules offered, the
    autosaved deals, the puzzle sessions, and the queues of engine work that may think."""

    offer: Offer
    store: GameStore
    puzzles: PuzzleSessions
    thinking: WorkQueue
    solving: WorkQueue


def table(request: Request) -> Table:
    """The :class:`Table` of the app serving ``request``."""
    return cast(Table, request.app.state.table)


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


def check_fields(body: dict[str, Any], allowed: Sequence[str]) -> None:
    """WebError (400) naming the first field of ``body`` not in ``allowed`` (a misspelt
    field is never silently ignored)."""
    for k in body:
        if k not in allowed:
            raise WebError(f"unknown field {json.dumps(k)} (the fields are "
                           f"{', '.join(allowed)})")


def notation_of(request: Request) -> str:
    """The notation the page asks in (``?notation=``, English by default); WebError when
    unknown."""
    return check_notation(request.query_params.get("notation", "en"))


async def busy(request: Request, exc: Exception) -> Response:
    """Too much thinking queued: 503 with ``Retry-After``."""
    e = cast(Busy, exc)
    return JSONResponse({"error": str(e)}, status_code=503,
                        headers={"Retry-After": str(e.retry_after)})


async def web_error(request: Request, exc: Exception) -> Response:
    """A request the table refuses (WebError): its own status, and its ``details`` beside
    the message (``"readings"``: a play's readings to choose from)."""
    e = cast(WebError, exc)
    return JSONResponse({"error": str(e), **e.details}, status_code=e.status)


async def notation_error(request: Request, exc: Exception) -> Response:
    """Cards that cannot be read: 400, in one line (a caret cannot line up on a page)."""
    return error(f"cards: {cast(NotationError, exc).one_line()}", 400)


async def game_error(request: Request, exc: Exception) -> Response:
    """An action the engine refuses: 422 with its message."""
    return error(str(exc), 422)


async def engine_error(request: Request, exc: Exception) -> Response:
    """Any other of the engine's messages (DdzError): 400."""
    return error(str(exc), 400)


async def not_found(request: Request, exc: Exception) -> Response:
    """No such route (404) or method (405): JSON under ``/api/``, plain text elsewhere."""
    status = exc.status_code if isinstance(exc, HTTPException) else 404
    if request.url.path.startswith("/api/"):
        what = "no such route" if status == 404 else "method not allowed"
        return error(f"{what}: {request.method} {request.url.path}", status)
    return Response("Not Found" if status == 404 else "Method Not Allowed",
                    status_code=status, media_type="text/plain")


#: Starlette's ``exception_handlers``: the most specific class of the exception raised wins.
EXCEPTION_HANDLERS: dict[Any, Any] = {
    Busy: busy, WebError: web_error, NotationError: notation_error, GameError: game_error,
    DdzError: engine_error, 404: not_found, 405: not_found}

__all__ = ["EXCEPTION_HANDLERS", "MAX_BODY", "Table", "check_fields", "error", "notation_of",
           "read_json", "table"]
