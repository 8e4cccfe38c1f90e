"""The web table's Learn routes: why a move reads as it does (:mod:`ddzspec.explain`), a
page per rules file and the difference of two variants in words (:mod:`ddzspec.learn`).

Every handler is a module-level function; the rules offered come from ``request.app.state``
(:func:`ddzspec.web.shared.table`). Errors are raised, and answered as JSON by the app's
exception handlers (:data:`ddzspec.web.shared.EXCEPTION_HANDLERS`).

Every route, with its parameters: docs/web-table.md, "The HTTP API".
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..cards import ALL_RANKS, Cards
from ..errors import NotationError
from ..explain import Explanation, explain
from ..rules import DEFAULT_RULES, Rules
from .games import WebError, reading_words, wild_words
from .shared import notation_of, read_json, table


def explanation_json(ex: Explanation, notation: str) -> dict[str, Any]:
    """An explanation as JSON: ``Explanation.to_json`` when it exists, each reading with the
    page's ``"words"`` (:func:`ddzspec.web.games.reading_words`: ``trio single 10 10 10+4``),
    else ``{"move", "legal", "lines"}``."""
    to_json = getattr(ex, "to_json", None)
    if to_json is not None:
        out: dict[str, Any] = to_json(notation)
        out.setdefault("lines", list(ex.lines))
        for j, r in zip(out.get("readings", []), ex.verdict.readings, strict=True):
            j["words"] = reading_words(r, notation)
        return out
    v = ex.verdict
    move = v.reading.format(notation) if v.legal else v.cards.format(notation)
    return {"move": move, "legal": bool(v.legal), "lines": list(ex.lines)}


def explain_wild_json(move: str, wild: object, rules: Rules, notation: str) -> dict[str, Any]:
    """A move under rules with wild cards (issue 26), as the command line explains it
    (``ddzspec explain MOVE --wild RANK``): ``{"move"`` (as written: ``4***``), ``"legal"``,
    ``"wild"`` (the rank), ``"wild_readings"`` (each reading with the wild restrictions that cut
    it, and its ``"words"`` as the table writes a play's reading: ``777 as 444 · bomb 4444
    (soft)``), ``"declared"`` (a declared reading's cards, ``333*=3333``), ``"policy"``
    (``strongest`` or ``declared``), ``"taken"`` (the index in ``wild_readings`` of the reading
    declared, else of the one a lead takes under ``strongest``; null when none), ``"lines"}``.
    Without a
    wild rank the cards are never read naturally: WebError, as for a rank the file cannot draw
    or a rules file drawing two."""
    from ..wild import explain_wild, parse_play, require_wild, wild_rank_named
    if wild is not None and not isinstance(wild, str):
        raise WebError("\"wild\": the wild rank as cards text, e.g. \"7\"")
    if wild is None or not wild.strip():
        raise WebError(f"{rules.name} has wild cards: name the wild rank, e.g. {{\"move\": "
                       f"\"4***\", \"rules\": \"{rules.name}\", \"wild\": \"7\"}} (a '*' "
                       "or a card of that rank is a wild card)")
    try:
        rank = wild_rank_named(wild, rules, notation)
    except NotationError as e:
        raise WebError(f"\"wild\": {e.one_line()}") from None
    except ValueError as e:
        raise WebError(f"\"wild\": {wild}: {e}") from None
    played, declared = parse_play(move, rank, rules, notation)
    ex = explain_wild(played, rules, declared)
    out = ex.to_json(notation)
    held = Cards(tuple(c + (played.wilds if i == rank else 0)
                       for i, c in enumerate(played.natural.counts)))
    for j, (r, _) in zip(out["readings"], ex.readings, strict=True):
        j["words"] = wild_words(held, r, rank, notation) or reading_words(r.reading, notation)
    taken = ex.declared if ex.declared is not None else ex.lead
    return {"move": out.pop("cards"), "legal": out.pop("legal"),
            "wild": ALL_RANKS[rank].symbol(notation), "wild_readings": out.pop("readings"),
            **out, "policy": require_wild(rules).policy.value,
            "taken": next((i for i, (r, _) in enumerate(ex.readings) if r == taken), None),
            "lines": ex.lines(rules, notation)}


async def explain_move(request: Request) -> Response:
    """``{"move", "rules", "wild"}``: the reading or why it is illegal (explain); ``wild``
    (the wild rank, e.g. "7") is required under rules with wild cards and refused under
    others (:func:`explain_wild_json`)."""
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
    rules = table(request).offer.get(body.get("rules", DEFAULT_RULES))
    if rules.wild is not None:
        got = await run_in_threadpool(explain_wild_json, move, body.get("wild"), rules, n)
        return JSONResponse(got)
    if body.get("wild") is not None:
        raise WebError(f"\"wild\": {rules.name} has no wild cards (no wild section)")
    ex = await run_in_threadpool(explain, move, rules, n)
    return JSONResponse(explanation_json(ex, n))


async def learn_rules(request: Request) -> Response:
    """One rules file in words: its shapes, restrictions, deal, bidding, play, scoring."""
    from ..learn import rules_overview
    n = notation_of(request)
    rules = table(request).offer.get(request.path_params["name"])
    ov = await run_in_threadpool(rules_overview, rules, n)
    return JSONResponse(ov.to_json())


async def learn_diff(request: Request) -> Response:
    """``?a=&b=``: how two offered rules differ, in words."""
    from ..learn import diff_words
    offer = table(request).offer
    n = notation_of(request)
    q = request.query_params
    for k in ("a", "b"):
        if not q.get(k):
            raise WebError(f"?a= and ?b= name the two rules to compare: {k} is missing "
                           f"(offered: {', '.join(offer.rules)})")
    a = offer.get(q["a"])
    b = offer.get(q["b"])
    lines = await run_in_threadpool(diff_words, a, b, n)
    return JSONResponse({"a": q["a"], "b": q["b"], "lines": list(lines)})


ROUTES = [
    Route("/api/explain", explain_move, methods=["POST"]),
    Route("/api/learn/rules/{name}", learn_rules),
    Route("/api/learn/diff", learn_diff),
]

__all__ = ["ROUTES", "explanation_json"]
