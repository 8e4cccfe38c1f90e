"""The web table's ASGI app (Starlette): :func:`create_app` builds the state the routes
share and the route list, the page and its static files with the routes of each concern:
Play (:mod:`ddzspec.web.routes_deals`), Puzzle (:mod:`ddzspec.web.routes_puzzles`) and Learn
(:mod:`ddzspec.web.routes_learn`).

The shared state is one :class:`~ddzspec.web.shared.Table` on ``app.state.table``: the rules
offered, the autosaved deals, the puzzle sessions and the bounded queues of engine work that
may think. Every error is a JSON ``{"error": message}`` with a 4xx status (500 only when an
autosave file cannot be written or read), from the exception handlers of
:mod:`ddzspec.web.shared`; :class:`~ddzspec.web.guard.Guard` stands in front of it all.

Every route, with its parameters: docs/web-table.md, "The HTTP API".
"""

from __future__ import annotations

import mimetypes
from collections.abc import Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from . import routes_deals, routes_learn, routes_puzzles
from .games import MAX_GAMES, GameStore, Offer, data_folder
from .guard import BODY_SECONDS, LOOPBACK_HOSTS, Guard, WorkQueue
from .sessions import PuzzleSessions
from .shared import EXCEPTION_HANDLERS, MAX_BODY, Table, read_json

STATIC = Path(__file__).resolve().parent / "static"
#: Level-3 computers thinking at once (their own threads: reading a deal never waits on
#: them), and how many more may wait for a thread before a request is told the table is busy.
THINKERS, THINK_QUEUE = 4, 60
#: Puzzle solver work (starts, replies, hints) at once, and how many more may wait.
SOLVERS, SOLVE_QUEUE = 2, 6

# the page's scripts are ES modules, which a browser runs only when served as JavaScript
mimetypes.add_type("text/javascript", ".js")


async def index(request: Request) -> Response:
    """The page."""
    return FileResponse(STATIC / "index.html", media_type="text/html")


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
    table = Table(offer=offer, store=GameStore(data_folder(data_dir), offer, max_games),
                  puzzles=PuzzleSessions(),
                  thinking=WorkQueue("level-3 computers", THINKERS, THINK_QUEUE),
                  solving=WorkQueue("puzzle solvers", SOLVERS, SOLVE_QUEUE))
    routes: list[BaseRoute] = [
        Route("/", index),
        *routes_deals.ROUTES,
        *routes_learn.ROUTES,
        *routes_puzzles.ROUTES,
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers=EXCEPTION_HANDLERS,
                    middleware=[Middleware(Guard, hosts=hosts, token=token,
                                           body_seconds=body_seconds)])
    app.state.table = table
    return app


__all__ = ["MAX_BODY", "SOLVERS", "SOLVE_QUEUE", "THINKERS", "THINK_QUEUE", "create_app",
           "read_json"]
