"""The local web table: play deals against the computer levels in a browser, with
the hint, the unseen-card counter, the duel handicap, autosave and the itemised result of the
seeds' sites (seeds 003/004). :func:`create_app` builds the ASGI app (Starlette);
``ddzspec serve`` runs it with uvicorn on localhost.

Starlette is imported only when this package is (the CLI loads it lazily)."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
