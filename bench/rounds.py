"""The measured effect of the computer levels' round choices (issue 25: "level 3 doubles when it
wins more often than not"). Prints figures; asserts nothing.

Deals of a rules file with rounds (default ``happy``: show cards after the deal, the doubling
round with super double) are played by level 2 in every seat, seeds ``rounds:{k}``. At each
round decision every level is asked on the very same view what it would choose (level 3 with
seed ``rounds:{k}:{seat}`` and its default budget); the deal goes on with level 2's choice.
Level 2 plays the tricks whatever was chosen (its play reads no factor), so the deal's winner
is the same for every level's choice: the comparison isolates the decision. Per level and round
kind:

- how often it chose a factor above 1 (and the highest factor), per role;
- the win rate of its side in the decisions where it chose a factor above 1, and where it did
  not, with 95 % Wilson intervals (a well-calibrated doubler: above 50 % when it doubles);
- the mean settlement of the seat with that level's choice (the other seats' choices as level
  2 made them, the deal played out again by level 2 from the choice:
  :func:`ddzspec.players.level3.play_out`), with a 95 % interval.

The decisions of one deal are not independent (two peasants win or lose together): the
intervals treat them as if they were, so read them as a little too narrow.

Run: ``python bench/rounds.py [--rules happy] [--deals 300] [--jobs 2] [--seed rounds]``.

Last run: docs/game.md, "Computer players", round choices.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

#: A decision: (level, round kind, role or "-", factor chosen, side won, seat's settlement).
Row = tuple[int, str, str, int, bool, int]


def deal_rows(rules_name: str, seed: str) -> list[Row]:
    """One deal from ``seed`` played by level 2; at each round decision, every level's choice
    on the same view: one :data:`Row` per level and decision."""
    from ddzspec.game import GameState
    from ddzspec.players import player_for
    from ddzspec.players.base import prepare
    from ddzspec.players.level3 import play_out
    from ddzspec.rules import load_rules
    rules = load_rules(rules_name)
    prepare(rules, endgame=True)
    n = rules.deal.players
    l2 = player_for(2)
    asked: list[tuple[GameState, int, str, dict[int, Any]]] = []
    state = GameState.new(rules, seed=seed)
    while not state.over:
        seat = state.turn
        assert seat is not None
        view = state.view(seat)
        action = l2.decide(view)
        if state.phase in ("showing", "doubling", "blind") and len(view.hand):
            picks = {lv: player_for(lv, f"{seed}:{seat}").decide(view) for lv in (1, 2, 3)}
            asked.append((state, seat, str(state.phase), picks))
        state = state.apply(action)
        if state.attempt != 0:  # nobody called: a redeal is another deal; leave it out
            return []
    res = state.result
    assert res is not None and n == len(res.scores)
    rows: list[Row] = []
    for before, seat, phase, picks in asked:
        won = (res.winner == "landlord") == (seat == res.landlord)
        role = "-" if before.landlord is None else \
            ("landlord" if seat == before.landlord else "peasant")
        for lv, a in picks.items():
            final, _ = play_out(before.apply(a), float("inf"))
            if final is None or final.result is None:
                continue
            rows.append((lv, phase, role, int(a.value), won, final.result.scores[seat]))
    return rows


def _job(args: tuple[str, str]) -> list[Row]:
    return deal_rows(*args)


def report(rows: Sequence[Row], deals: int, seconds: float) -> list[str]:
    """The figures of the module doc as text lines."""
    from ddzspec.stats import RATE, estimate

    def pct(vals: Sequence[float]) -> str:
        if not vals:
            return "—"
        e = estimate(vals, RATE)
        return f"{100 * e.mean:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}] (n {len(vals)})"

    out = [f"{deals} deals, {len(rows)} decisions ({seconds:.0f} s)"]
    for phase in sorted({r[1] for r in rows}):
        for lv in (1, 2, 3):
            mine = [r for r in rows if r[0] == lv and r[1] == phase]
            if not mine:
                continue
            up = [float(r[4]) for r in mine if r[3] > 1]
            flat = [float(r[4]) for r in mine if r[3] <= 1]
            top = max(r[3] for r in mine)
            e = estimate([float(r[5]) for r in mine])
            by_role = ", ".join(
                f"{role} {100 * sum(r[3] > 1 for r in rs) / len(rs):.1f}%"
                + (f" (×{top}: {100 * sum(r[3] == top for r in rs) / len(rs):.1f}%)"
                   if top > 2 else "")
                for role in ("-", "landlord", "peasant")
                if (rs := [r for r in mine if r[2] == role]))
            out.append(f"{phase} level {lv}: above ×1 in {by_role}")
            out.append(f"  side wins when above ×1: {pct(up)}; at ×1: {pct(flat)}")
            out.append(f"  mean settlement with its choice: {e.mean:+.3f} "
                       f"[{e.low:+.3f}, {e.high:+.3f}]")
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="happy")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", default="rounds")
    args = ap.parse_args(argv)
    tasks = [(args.rules, f"{args.seed}:{k}") for k in range(args.deals)]
    t0 = time.perf_counter()
    rows: list[Row] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            for r in ex.map(_job, tasks, chunksize=4):
                rows.extend(r)
    else:
        for t in tasks:
            rows.extend(_job(t))
    print(f"{args.rules}: " + "\n".join(report(rows, args.deals, time.perf_counter() - t0)),
          flush=True)


if __name__ == "__main__":
    main()
