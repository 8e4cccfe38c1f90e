"""The measured effect of the computer levels' round choices (issue 25: "level 3 doubles when it
wins more often than not"). Prints figures; asserts nothing.

Deals of a rules file with rounds (default ``happy``: show cards after the deal, the doubling
round with super double) are played by level 2 in every seat, seeds ``rounds:{k}``. At each
round decision every level is asked on the very same view what it would choose (level 3 with
seed ``rounds:{k}:{seat}`` and the default step budget, its clock guard off: see
:data:`L3_BUDGET`); the deal goes on with level 2's choice.
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

Last runs: docs/game.md, "Level 3", round choices (the figures and how they were made).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

#: Level 3's budget here, seconds, and steps per second: the default player's step budget
#: (0.5 s × 3,000 = 1,500 steps) with a clock guard that never fires on a loaded machine, so
#: that the figures do not depend on the load (as in bench/decisions.py).
L3_BUDGET, L3_STEPS = 100.0, 15

#: One level's choice at one decision: (decision, level, action kind, role or "-", above the
#: lowest choice, the factor or call/rob value, side won — None when the choice left the deal
#: void: nobody called —, the seat's settlement).
Row = tuple[str, int, str, str, bool, int, bool | None, int]


def deal_rows(rules_name: str, seed: str, bids: bool = False) -> list[Row]:
    """One deal from ``seed`` played by level 2; at each round decision (and each call or rob
    with ``bids``: level 3 then decides them by rollouts, ``rollout_bids``), every level's
    choice on the same view, the deal played out from it by level 2: one :data:`Row` per
    level and decision. A deal nobody called (a redeal) is left out; a choice that leaves the
    deal void settles 0."""
    from ddzspec.game import GameState
    from ddzspec.players import player_for
    from ddzspec.players.base import prepare
    from ddzspec.players.level3 import Level3, play_out
    from ddzspec.rules import load_rules
    rules = load_rules(rules_name)
    prepare(rules, endgame=True)
    l2 = player_for(2)
    rows: list[Row] = []
    state = GameState.new(rules, seed=seed)
    k = 0
    while not state.over:
        seat = state.turn
        assert seat is not None
        view = state.view(seat)
        action = l2.decide(view)
        rnd = state.phase in ("showing", "doubling", "blind")
        if (rnd and len(view.hand)) or (bids and state.phase == "bidding"):
            low = min(a.value for a in state.legal_actions())
            role = "-" if state.landlord is None else \
                ("landlord" if seat == state.landlord else "peasant")
            for lv in (1, 2, 3):
                p = Level3(f"{seed}:{seat}", budget=L3_BUDGET, steps_per_second=L3_STEPS,
                           rollout_bids=bids) if lv == 3 else player_for(lv, f"{seed}:{seat}")
                a = p.decide(view)
                final, _ = play_out(state.apply(a), float("inf"))
                res = None if final is None else final.result
                won = None if res is None else \
                    (res.winner == "landlord") == (seat == res.landlord)
                rows.append((f"{seed}:{k}", lv, str(a.kind), role, a.value > low, int(a.value),
                             won, 0 if res is None else res.scores[seat]))
            k += 1
        state = state.apply(action)
        if state.attempt != 0:
            return []
    return rows


def _job(args: tuple[str, str, bool]) -> list[Row]:
    return deal_rows(*args)


def report(rows: Sequence[Row], deals: int, seconds: float) -> list[str]:
    """The figures of the module doc as text lines."""
    from ddzspec.stats import RATE, estimate

    def pct(vals: Sequence[float]) -> str:
        if not vals:
            return "—"
        e = estimate(vals, RATE)
        return f"{100 * e.mean:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}] (n {len(vals)})"

    def pm(vals: Sequence[float]) -> str:
        e = estimate(vals)
        return f"{e.mean:+.3f} [{e.low:+.3f}, {e.high:+.3f}]"

    played = len({r[0].rsplit(":", 1)[0] for r in rows})
    out = [f"{deals} deals ({played} with decisions, redeals left out), "
           f"{len(rows) // 3} decisions ({seconds:.0f} s)"]
    for kind in sorted({r[2] for r in rows}):
        l2 = {r[0]: r[7] for r in rows if r[1] == 2 and r[2] == kind}
        for lv in (1, 2, 3):
            mine = [r for r in rows if r[1] == lv and r[2] == kind]
            if not mine:
                continue
            top = max(r[5] for r in mine)
            by_role = ", ".join(
                f"{role} {100 * sum(r[4] for r in rs) / len(rs):.1f}%"
                + (f" (×{top}: {100 * sum(r[5] == top for r in rs) / len(rs):.1f}%)"
                   if top > 2 else "")
                for role in ("-", "landlord", "peasant")
                if (rs := [r for r in mine if r[3] == role]))
            word = "yes" if kind in ("call", "rob") else "above ×1"
            out.append(f"{kind} level {lv}: {word} in {by_role}")
            out.append(f"  side wins when {word}: "
                       f"{pct([float(r[6]) for r in mine if r[4] and r[6] is not None])}; "
                       "otherwise: "
                       f"{pct([float(r[6]) for r in mine if not r[4] and r[6] is not None])}")
            for role in ("landlord", "peasant"):
                rs = [r for r in mine if r[3] == role and r[6] is not None]
                if rs:
                    out.append(f"    as {role}: when {word} "
                               f"{pct([float(r[6] is True) for r in rs if r[4]])}; otherwise "
                               f"{pct([float(r[6] is True) for r in rs if not r[4]])}")
            line = f"  mean settlement with its choice: {pm([float(r[7]) for r in mine])}"
            if lv != 2:
                line += (", minus level 2's on the same decision: "
                         f"{pm([float(r[7] - l2[r[0]]) for r in mine])}")
            out.append(line)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="happy")
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", default="rounds")
    ap.add_argument("--rollout-bids", action="store_true",
                    help="also calls and robs: level 3 decides them by rollouts")
    args = ap.parse_args(argv)
    tasks = [(args.rules, f"{args.seed}:{k}", args.rollout_bids) for k in range(args.deals)]
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
