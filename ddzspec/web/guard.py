"""What stands between the network and the web table's routes: ASGI middleware that
answers every refusal with a JSON ``{"error": message}``.

- :class:`Guard` wraps the app: forbids framing (``X-Frame-Options``, a Content Security
  Policy), accepts only the host names the server was started for (Starlette's
  :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware`), asks for the start URL's
  token when one is set (beyond localhost), refuses a state-changing request from a foreign
  page (``Origin``, ``Sec-Fetch-Site``) or with a body that is not ``application/json``, and
  time-limits the request body (a client that stops sending, or goes away, costs one log line).
- :class:`WorkQueue` bounds engine work that may think (level 3, the puzzle solver): its own
  worker threads, so reading a deal never waits on thinking, and a "busy, try again" answer
  when too much is already waiting.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit

import anyio
import anyio.to_thread
from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import ClientDisconnect, cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The host names a server bound to a loopback address answers to.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
#: The start of the name of the cookie that keeps the start URL's token (HttpOnly,
#: SameSite=Strict): :func:`token_cookie` adds a part of each table's own.
TOKEN_COOKIE = "ddzspec_token"


def token_cookie(token: str) -> str:
    """The cookie name a table with ``token`` keeps it under: :data:`TOKEN_COOKIE` and 12 hex
    digits of the token's SHA-256, so that two tables on one host (cookies ignore ports) never
    overwrite each other's cookie."""
    return f"{TOKEN_COOKIE}_{hashlib.sha256(token.encode()).hexdigest()[:12]}"


#: Seconds a request body may take to arrive in full: 408 and the connection closed beyond.
BODY_SECONDS = 10.0
#: Headers on every answer: no page may frame the table; scripts and styles come only from
#: the table itself (the page has no inline script).
SECURITY_HEADERS = [
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
     b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
#: Methods that change nothing (the Origin and body checks apply to the others).
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")

log = logging.getLogger("ddzspec.web")
T = TypeVar("T")


class Busy(Exception):
    """Raised by :meth:`WorkQueue.run` when too much work already waits: 503 with
    ``Retry-After``."""

    def __init__(self, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WorkQueue:
    """Engine work that may think, in its own ``workers`` threads (an anyio capacity limiter
    apart from the one cheap requests use) with at most ``waiting`` calls queued behind them:
    beyond, :class:`Busy`. ``what`` names the work in the refusal ("level-3 computers")."""

    def __init__(self, what: str, workers: int, waiting: int) -> None:
        self.what = what
        self.limiter = anyio.CapacityLimiter(workers)
        self.bound = workers + waiting
        self.active = 0  # touched on the event loop only

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of this queue's threads; Busy when the queue is full."""
        if self.active >= self.bound:
            raise Busy(f"busy: {self.active} {self.what} are already thinking or waiting; "
                       "try again in a moment")
        self.active += 1
        try:
            return await anyio.to_thread.run_sync(fn, *args, limiter=self.limiter)
        finally:
            self.active -= 1


async def send_json(send: Send, message: str, status: int,
                    headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    """Send ``{"error": message}`` with ``status`` (and ``headers``)."""
    body = json.dumps({"error": message}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


def _describe(scope: Scope) -> str:
    client = scope.get("client")
    who = f"{client[0]}:{client[1]}" if client else "a client"
    return f"{who} {scope.get('method')} {scope.get('path')}"


class _BodyTimeout(Exception):
    pass


def body_pending(headers: Headers) -> bool:
    """Whether the request announces a body (a length above 0, or chunks)."""
    return bool(headers.get("transfer-encoding")) or \
        headers.get("content-length") not in (None, "0")


#: Added to an answer sent before the request's body was read: the connection is closed (its
#: rest is never waited for).
CLOSE = [(b"connection", b"close")]


class _Gate:
    """The checks after the host name: token, origin, body type, body time (see :class:`Guard`)."""

    def __init__(self, app: ASGIApp, token: str | None, body_seconds: float) -> None:
        self.app = app
        self.token = token
        self.cookie = None if token is None else token_cookie(token)
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["ddzspec.host_ok"] = True
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        close = CLOSE if body_pending(headers) else []
        if self.token is not None and not await self.token_ok(scope, headers, send, close):
            return
        if scope["method"] not in SAFE_METHODS:
            refusal = foreign_request(headers)
            if refusal is not None:
                await send_json(send, refusal, 403, close)
                return
            refusal = wrong_body_type(headers)
            if refusal is not None:
                await send_json(send, refusal, 415, close)
                return
        await self.timed(scope, receive, send, headers)

    async def token_ok(self, scope: Scope, headers: Headers, send: Send,
                       close: list[tuple[bytes, bytes]]) -> bool:
        """Whether the request carries the token (cookie, or ``?token=``); the page opened by
        the start URL is sent on to itself without the token in its address, the cookie set.
        Answers 403 when it carries none."""
        assert self.token is not None and self.cookie is not None
        given = cookie_parser(headers.get("cookie", "")).get(self.cookie, "")
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"))
        in_url = next((v for k, v in query if k == "token"), "")
        if in_url and secrets.compare_digest(in_url.encode(), self.token.encode()):
            if scope["method"] == "GET" and scope["path"] == "/":
                rest = urlencode([(k, v) for k, v in query if k != "token"])
                where = "/" + (f"?{rest}" if rest else "")
                cookie = (f"{self.cookie}={self.token}; Path=/; HttpOnly; "
                          "SameSite=Strict").encode()
                await send({"type": "http.response.start", "status": 303,
                            "headers": [(b"location", where.encode()), (b"set-cookie", cookie),
                                        (b"content-length", b"0")]})
                await send({"type": "http.response.body", "body": b""})
                return False
            return True
        if given and secrets.compare_digest(given.encode(), self.token.encode()):
            return True
        await send_json(send, "this table is served beyond this machine and needs its token: "
                        "open the address `ddzspec serve` printed when it started "
                        "(http://HOST:PORT/?token=...) in this browser; the page keeps the "
                        "token in a cookie", 403, close)
        return False

    async def timed(self, scope: Scope, receive: Receive, send: Send,
                    headers: Headers) -> None:
        """Run the app with the body's arrival time-limited: 408 (the connection closed) when
        it has not arrived in full within ``body_seconds``; one log line, no answer, when the
        client goes away mid-body. An answer sent before the whole body was read closes the
        connection (its rest is never waited for)."""
        pending = body_pending(headers)
        deadline = anyio.current_time() + self.body_seconds
        started = False

        async def receive_timed() -> Message:
            nonlocal pending
            if not pending:  # the body is in: waiting for a disconnect is not timed
                return await receive()
            with anyio.move_on_after(max(0.0, deadline - anyio.current_time())):
                message = await receive()
                if message["type"] == "http.request" and not message.get("more_body"):
                    pending = False
                return message
            raise _BodyTimeout

        async def send_closing(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if pending:
                    message = {**message, "headers": [*message.get("headers", []), *CLOSE]}
            await send(message)

        try:
            await self.app(scope, receive_timed, send_closing)
        except _BodyTimeout:
            log.warning("ddzspec serve: %s: the request body did not arrive within %g s "
                        "(answered 408, connection closed)", _describe(scope), self.body_seconds)
            if not started:
                await send_json(send, f"the request body did not arrive within "
                                f"{self.body_seconds:g} seconds", 408, CLOSE)
        except ClientDisconnect:
            log.warning("ddzspec serve: %s: the client went away before sending the whole "
                        "body", _describe(scope))


def foreign_request(headers: Headers) -> str | None:
    """Why a state-changing request comes from another page (its ``Origin`` is not this
    table's address, or the browser says ``Sec-Fetch-Site: cross-site``/``same-site``), or
    None. A request with neither header (curl, a script) is not a page's."""
    site = headers.get("sec-fetch-site")
    if site in ("cross-site", "same-site"):
        return (f"refused: a request from another site (Sec-Fetch-Site: {site}) cannot change "
                "anything at this table")
    origin = headers.get("origin")
    if origin is None:
        return None
    parts = urlsplit(origin)
    if origin == "null" or parts.scheme not in ("http", "https") or \
            parts.netloc.lower() != headers.get("host", "").lower():
        return (f"refused: a request from the page {json.dumps(origin)} cannot change "
                "anything at this table (only its own page can)")
    return None


def wrong_body_type(headers: Headers) -> str | None:
    """Why a state-changing request's body is refused (415): a Content-Type other than
    ``application/json``, or a body with none. None when it is acceptable."""
    ctype = headers.get("content-type")
    if ctype is None:
        if body_pending(headers):
            return "a request body must be JSON sent as Content-Type: application/json"
        return None
    if ctype.split(";")[0].strip().lower() != "application/json":
        return (f"Content-Type {json.dumps(ctype)} is not accepted: send JSON as "
                "Content-Type: application/json")
    return None


class _Headers:
    """Adds :data:`SECURITY_HEADERS` to every answer (refusals of the host name included),
    and turns the trusted-host middleware's plain-text refusal into a JSON error."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_more(message: Message) -> None:
            if message["type"] == "http.response.start" and not scope.get("ddzspec.host_ok"):
                scope["ddzspec.swallow"] = True  # the trusted-host refusal: replaced
                headers = Headers(scope=scope)
                await send_json(send, f"refused: the host name {json.dumps(headers.get('host'))}"
                                " is not one this table was started for (see `ddzspec serve "
                                "--allow-host`)", 400, [*SECURITY_HEADERS,
                                                         *(CLOSE if body_pending(headers)
                                                           else [])])
                return
            if scope.get("ddzspec.swallow"):
                return
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_more)


class Guard:
    """``app`` behind the table's checks (a Starlette middleware). ``hosts``: the host names
    accepted (None: any, for a server the token protects on a wildcard address); ``token``:
    the start URL's token (None: none asked, on loopback)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str] | None, token: str | None,
                 body_seconds: float = BODY_SECONDS) -> None:
        inner: ASGIApp = _Gate(app, token, body_seconds)
        if hosts is not None:
            inner = TrustedHostMiddleware(inner, allowed_hosts=list(hosts), www_redirect=False)
        self.app = _Headers(inner)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)


__all__ = [
    "BODY_SECONDS",
    "LOOPBACK_HOSTS",
    "TOKEN_COOKIE",
    "Busy",
    "Guard",
    "WorkQueue",
    "foreign_request",
    "send_json",
    "token_cookie",
    "wrong_body_type",
]
