"""The web table's Puzzle and Learn parts: routes over :mod:`ddzspec.puzzle_play` and
:mod:`ddzspec.learn` when this ddzspec has them (:func:`features` tells the page which)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

from starlette.routing import BaseRoute

from ..explain import Explanation


def features() -> dict[str, bool]:
    """Which optional parts this ddzspec has: ``{"puzzle": bool, "learn": bool}``."""
    return {"puzzle": importlib.util.find_spec("ddzspec.puzzle_play") is not None,
            "learn": importlib.util.find_spec("ddzspec.learn") is not None}


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


def extra_routes(offer: Any, read_json: Callable[..., Any], guarded: Callable[..., Any],
                 notation_of: Callable[..., str]) -> list[BaseRoute]:
    """The Puzzle and Learn routes this ddzspec can serve (none without their libraries)."""
    return []
