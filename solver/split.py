"""Root splitting: one position solved on several processes or machines (``solve --workers``).

Entry point: :func:`solve_split` (``want`` "winner", "one" or "all"; ``workers``,
``scheduler="tcp://HOST:PORT"``, ``seconds``): every child of the root — each legal move of the
seat to move, the pass included when the seat may pass — is one
:class:`ddzspec.execute.Task` (:func:`child_task`) decided on a worker, and the answer is the
one :func:`ddzspec.solver.solve` gives, built from the children's. The score is not split
(:func:`solve` computes it in one process).

How the children are built and share tables, limits, stopping and statistics: docs/solver.md,
"Design notes, module by module".
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Literal, cast

from ddzspec.check import require_playable

from .position import Position, parse_position
from .search import (
    Aborted,
    Limit,
    Play,
    Searcher,
    SolveResult,
    _bool_line,
    _limit_of,
    _side_name,
    _sorted_moves,
    _text,
    gc_paused,
)

#: A child task's answer: "win" (the mover's side wins after the move), "loss" or "unknown".
Outcome = Literal["win", "loss", "unknown"]


@dataclass(frozen=True, slots=True)
class _Child:
    """One child of the root as the parent sees it: its ``index`` among
    :meth:`Searcher.children`, the move ``id`` (-1: the pass), its ``text`` and whether it
    ends the deal (``ends``: the mover reaches its target; a win, no task)."""

    index: int
    id: int
    text: str
    ends: bool


def solve_split(position: Position, *, want: Literal["winner", "one", "all"] = "winner",
                workers: int | None = None, scheduler: str | None = None,
                seconds: float | None = None, entries: int | None = None,
                line: bool = True) -> SolveResult:
    """Solve ``position`` as :func:`ddzspec.solver.solve` does, its root's children in
    parallel (see the module doc).

    ``want``: "winner", "one" or "all" (as :func:`solve`; "score" is refused: it is solved
    in one process). ``workers``: processes (default: the number of cores; 1: in this
    process, one child after the other); ``scheduler``: a Dask scheduler's address
    (``tcp://HOST:PORT``; its workers need ddzspec installed) instead of local processes.
    ``seconds``: a time limit for the whole call (finite, ≥ 0; None: none); ``entries``:
    transposition-table entries each worker keeps (:class:`Limit`; default Limit's). ``line``:
    compute the principal variation (the winning move then the child's line; for a loss,
    the first move that does not end the deal, as :func:`solve` plays it).

    Returns a :class:`SolveResult`: ``winner``, ``to_move_wins`` and ``winning_moves`` as
    :func:`solve` (for "one", the first winning move proven); ``nodes`` summed over the
    tasks; ``seconds`` wall. Raises ValueError for a bad ``want``, ``seconds``, ``entries``
    or ``workers``; UnplayableRulesError for rules ``ddzspec check`` flags;
    :class:`ddzspec.execute.ExecuteError` when the tasks cannot run (a scheduler that cannot
    be reached or that no worker joins, a task failing every time).
    """
    asked: str = want
    if asked not in ("winner", "one", "all"):
        if asked == "score":
            raise ValueError("want='score' is not split over workers: solve() computes the "
                             "score in one process")
        raise ValueError(f"want must be 'winner', 'one' or 'all', not {want!r}")
    t0 = time.perf_counter()
    require_playable(position.rules)
    lim = _limit_of(Limit() if entries is None else Limit(entries=entries), seconds)
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or workers < 1):
        raise ValueError(f"workers must be a whole number ≥ 1, not {workers!r}")
    deadline = None if lim.seconds is None else time.time() + lim.seconds
    with gc_paused():
        S = Searcher(position, Limit(entries=2))  # the root's children only: no search
        kids = _children(S, position)
        rows = _run_children(position, kids, want, workers, scheduler, deadline,
                             lim.entries, line)
        result = _combine(S, position, kids, rows, want, line, lim.seconds,
                          time.perf_counter() - t0)
    _forget()  # a run in this process (workers=1) keeps no searcher
    return result


def _children(S: Searcher, position: Position) -> list[_Child]:
    """The root's children in the search's order (:meth:`Searcher.children`)."""
    s = position.to_move
    return [_Child(i, m, _text(S, m), nxt < 0)
            for i, (m, nxt, _h, _l, _p) in enumerate(
                S.children(s, S.hands0, S.last0, position.passes))]


def _run_children(position: Position, kids: list[_Child], want: str, workers: int | None,
                  scheduler: str | None, deadline: float | None, entries: int,
                  line: bool) -> dict[int, dict[str, Any]]:
    """Decide the children: the tasks' rows by child index, each with its ``order`` of
    arrival (a child ending the deal is a win without a task, order -1). Stops early as the
    module doc says."""
    from ddzspec.execute import Task, rules_ref, stream
    rows: dict[int, dict[str, Any]] = {
        k.index: {"outcome": "win", "line": [], "nodes": 0, "order": -1} for k in kids if k.ends}
    if rows and want != "all":
        return rows  # a move that goes out: the mover wins, nothing to search
    text = _position_text(position)
    ref = rules_ref(position.rules)
    # the loser's line starts with its first move that does not end the deal (as solve)
    first_play = next((k.index for k in kids if not k.ends), -1)
    tasks = [Task.of(f"child {k.index}", child_task, position=text, rules=ref,
                     index=k.index, move=k.text, deadline=deadline, entries=entries,
                     line="always" if line and k.index == first_play
                     else "win" if line else "none")
             for k in kids if not k.ends]
    if not tasks:
        return rows
    run = cast("Generator[dict[str, Any], None, None]",  # stream is a generator
               stream(tasks, workers=workers, scheduler=scheduler, pool=True, retries=1))
    try:
        for order, row in enumerate(run):
            i = int(row["index"])
            rows[i] = {**row, "order": order}
            if want != "all" and row["outcome"] == "win":
                break  # the mover wins: the rest is not needed
            if want == "all" and row["outcome"] == "unknown":
                break  # the answer is unknown whatever the rest
    finally:
        run.close()  # an early stop cancels the rest (a local pool's processes end)
    return rows


def _combine(S: Searcher, position: Position, kids: list[_Child],
             rows: dict[int, dict[str, Any]], want: str, line: bool,
             seconds: float | None, wall: float) -> SolveResult:
    """The :class:`SolveResult` of the children's rows (see the module doc)."""
    nodes = sum(int(r.get("nodes", 0)) for r in rows.values())
    entries: dict[object, int] = {}
    for r in rows.values():
        if "pid" in r:
            entries[(r.get("host"), r["pid"])] = int(r["table_entries"])
    table_entries = sum(entries.values())
    won = [k for k in kids if k.index in rows and rows[k.index]["outcome"] == "win"]
    unknown = [k for k in kids if k.index in rows and rows[k.index]["outcome"] == "unknown"]
    decided = all(k.index in rows for k in kids)
    if (want == "all" and (unknown or not decided)) or (
            not won and (unknown or not decided)):
        why = next((rows[k.index].get("reason") for k in unknown), None)
        if seconds is not None:
            why = f"time limit {seconds:g} s reached"
        return SolveResult("unknown", None, None, None, (), None, nodes, table_entries, wall,
                           why or "a child could not be decided")
    mover = position.to_move
    mover_wins = bool(won)
    ll_wins = mover_wins == S.side[mover]
    winning: tuple[str, ...] | None = None
    if want == "all":
        winning = tuple(_sorted_moves(S, [k.id for k in won]))
    elif want == "one":
        winning = (_first(won, rows).text,) if won else ()
    pv: tuple[Play, ...] = ()
    if line:
        if won:  # the deal-ending move first, else the first proven (all: in search order)
            pick = _first(won, rows) if want != "all" else min(
                won, key=lambda k: (not k.ends, k.index))
        else:
            pick = next((k for k in kids if not k.ends), kids[0])
        rest = rows[pick.index].get("line") or []
        pv = (Play(position.seats[mover], pick.text),
              *(Play(str(seat), str(cards)) for seat, cards in rest))
    return SolveResult("solved", _side_name(ll_wins), mover_wins, winning, pv, None, nodes,
                       table_entries, wall)


def _first(won: list[_Child], rows: dict[int, dict[str, Any]]) -> _Child:
    """The winning child to report: one that ends the deal, else the first proven."""
    ends = [k for k in won if k.ends]
    if ends:
        return ends[0]
    return min(won, key=lambda k: int(rows[k.index]["order"]))


def _position_text(position: Position) -> str:
    """The position in the text format without its ``rules`` line (the first: the rules
    travel as :func:`ddzspec.execute.rules_ref`, so a worker needs no rules file)."""
    text = position.format()
    return text.split("\n", 1)[1]


# ---------------------------------------------------------------------- on a worker

#: Per thread (a Dask worker may run tasks in several threads; a searcher is not shared
#: between them): ``kept``, the searcher of the position the thread's last task was about, as
#: [(key, position, searcher)].
_LOCAL = threading.local()


def _kept() -> list[tuple[str, Position, Searcher]]:
    kept: list[tuple[str, Position, Searcher]] | None = getattr(_LOCAL, "kept", None)
    if kept is None:
        kept = _LOCAL.kept = []
    return kept


def _forget() -> None:
    """Drop this thread's kept searcher (memory)."""
    _kept().clear()


def _searcher(position: str, rules: dict[str, Any], entries: int) -> tuple[Position, Searcher]:
    """The position of a task and a searcher of it: the one this thread kept from its previous
    task when it was about the same position (its tables are reused), else a new one."""
    from ddzspec.execute import rules_of
    key = json.dumps([position, rules, entries], sort_keys=True)
    kept = _kept()
    if kept and kept[0][0] == key:
        return kept[0][1], kept[0][2]
    kept.clear()  # the previous position's tables go first (memory)
    pos = parse_position(position, rules=rules_of(rules))
    S = Searcher(pos, Limit(entries=entries))
    kept.append((key, pos, S))
    return pos, S


def child_task(position: str, rules: dict[str, Any], index: int, move: str,
               deadline: float | None, entries: int, line: str) -> dict[str, Any]:
    """Decide one child of a position on a worker (a :class:`ddzspec.execute.Task`).

    ``position``: the position's text without its rules line (:func:`_position_text`);
    ``rules``: :func:`ddzspec.execute.rules_ref`; ``index``, ``move``: the child's index
    among :meth:`Searcher.children` of the root and its move's text (checked: a ValueError
    when they disagree); ``deadline``: ``time.time()`` at which to give up (None: never);
    ``entries``: the searcher's table size; ``line``: "always", "win" (only when the
    mover's side wins after the move) or "none" — the child's principal variation.

    Returns ``{"index", "outcome": "win"|"loss"|"unknown", "line": [[seat, cards], ...],
    "nodes", "table_entries", "pid", "host", "reason"}``: ``outcome`` for the side
    of the root's mover; ``nodes`` searched by this task; ``table_entries`` held by this
    process's searcher after it.
    """
    pos, S = _searcher(position, rules, entries)
    s = pos.to_move
    kids = S.children(s, S.hands0, S.last0, pos.passes)
    if not 0 <= index < len(kids) or _text(S, kids[index][0]) != move:
        raise ValueError(f"child {index} of the position is not the move {move}")
    _m, nxt, h2, l2, p2 = kids[index]
    out: dict[str, Any] = {"index": index, "line": [], "pid": os.getpid(),
                           "host": os.uname().nodename, "reason": None}
    n0 = S.nodes
    left = None if deadline is None else deadline - time.time()
    outcome: Outcome = "win"
    if nxt >= 0:
        if left is not None and left <= 0:
            outcome, out["reason"] = "unknown", "time limit reached before the task started"
        else:
            S.limit = Limit(None, left, entries)  # checked within 256 nodes
            S.start = time.perf_counter()
            try:
                with gc_paused():
                    wins = S.win(nxt, h2, l2, p2) == (S.side[nxt] == S.side[s])
                    outcome = "win" if wins else "loss"
                    if line == "always" or (line == "win" and wins):
                        out["line"] = [[p.seat, p.cards]
                                       for p in _bool_line(S, nxt, h2, l2, p2)]
            except Aborted as e:
                outcome, out["line"], out["reason"] = "unknown", [], str(e)
    out.update(outcome=outcome, nodes=S.nodes - n0, table_entries=S.table_entries)
    return out


__all__ = ["child_task", "solve_split"]
