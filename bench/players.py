"""Benchmark of the computer players: strength and speed per decision. Prints figures; asserts
nothing.

- Strength: duplicate-deal arenas (:mod:`ddzspec.players.arena`: each deal played once per
  rotation of the levels over the seats; bidding included) for each pairing, by default level 2
  against level 1 and level 3 against level 2, in classic and duel: per level and role the
  side's win rate and average points with 95 % intervals, and the difference between the
  levels per role. ``--games N`` duplicate deals per pairing (the issue asks ≥ 2,000);
  ``--minutes M`` stops a pairing after M minutes of play and reports the deals it finished
  (the figures say how many). ``--jobs J`` plays deals in J processes.
- Speed: milliseconds per decision of levels 1 and 2 (bids and moves, in self-play), level 3's
  trick-play decision times (median, 99th percentile, maximum) against its budget, and
  self-play deals per second per level (every seat at that level); for every level also the
  mean, median, 99th percentile and maximum over all decisions, in wall-clock time and in
  CPU time of the process (``time.process_time``: less noisy on a shared machine). The
  rules' move table and legal-move index are built first, untimed (``prepare``: a one-time
  cost per process that the players would otherwise pay in one decision; its time is shown).
- Anchor (optional): ``--peer-venv PATH`` names a separate environment where ``rlcard`` is
  installed (never one of ddzspec's dependencies); its rule-based Dou Dizhu agent
  (``doudizhu-rule-v1``) then plays classic deals against a level, through an adapter that
  offers it ddzspec's legal moves (see :data:`PEER`).

Run: ``python bench/players.py [--games 2000] [--games3 200] [--budget 0.5] [--jobs 2]
[--minutes 20] [--json FILE] [--peer-venv BENCH_VENV]``.

The ladder under wild rules (issue 26), laizi beside classic in one run (each comparison also
prints the sign test of the paired points differences; ``--records`` keeps the deals, so the
run can be stopped and resumed, and ``--minutes 0`` with the same file reprints the figures)::

    python bench/players.py --no-speed --variants laizi,classic --pairings "2,1;3,2" \
        --games 2000 --games3 2000 --budget 0.5 --jobs 2 --records ladder.jsonl

Level 3's step budget under wild rules is divided by ``Level3.wild_step_cost`` (5: a step of
a laizi level-3 decision cost 4.0 to 5.7 classic ones in CPU time with the wild fast path,
docs/game.md); ``--step-cost 8 --variants classic,laizi`` measures it again (``--seed``: the
first deal), ``--no-strength --variants laizi`` shows level 3's move times against its
budget.

Last strength runs (2 cores shared with other jobs, load 3–7; seed 0; points per seat-deal,
the higher level minus the lower, paired by deal, 95 %; ``--records`` files, resumed runs):

- level 2 − level 1, 2,000 duplicate deals each: classic landlord +5.93 [+5.57, +6.29],
  peasant +1.67 [+1.57, +1.78]; duel +0.72 [+0.59, +0.84] (two seats: one figure for both).
- level 3 (budget 0.1 s) − level 2, 2,000 duplicate deals each: classic landlord +1.03 [+0.74,
  +1.32] (win rate +11.8 points), peasant +0.26 [+0.18, +0.33] (+5.9); duel +0.49 [+0.32,
  +0.66] (+10.0).
- level 3 (default budget 0.5 s) − level 2, as many deals as the session allowed: classic 378,
  landlord +2.30 [+1.55, +3.05] (win rate +23.8 points), peasant +0.58 [+0.39, +0.76] (+11.9);
  duel 998, +0.84 [+0.65, +1.03] (+20.8).
- against rlcard's doudizhu-rule-v1 (classic): level 3 (0.5 s), 100 duplicate deals, landlord
  +6.22 [+4.44, +8.01], peasant +1.79 [+1.14, +2.44]; level 2, 300 duplicate deals, landlord
  +3.18 [+2.39, +3.97], peasant +0.87 [+0.64, +1.10].
- (an earlier session, before the paired comparison: level 3 at 0.5 s − level 2, classic 418
  deals, landlord +1.36 [+0.51, +2.22], peasant +0.34 [+0.00, +0.68]; duel 548 deals, +0.65
  [+0.37, +0.93], independent-samples intervals.)
- speed: level 1 0.02–0.03 ms per decision, level 2 0.14 (classic) / 0.28 (duel) ms mean, p99
  1.1 / 1.8 ms; level 3 moves median 207 / 242 ms, p99 431 / 429 ms against 500 ms; self-play
  165 / 136 / 0.21 deals/s (classic, levels 1 / 2 / 3), 218 / 144 / 0.27 (duel).
- speed after the issue-9 speed work (``--no-strength --speed-deals 200 --speed-deals3 1``, load
  ≈ 7 on 2 cores, so CPU time per decision, all decisions, bids included): level 2 p99
  0.63 / 0.25 / 0.77 ms (classic / kawu / duel; before 1.60 / 0.32 / 1.49), mean 0.10 / 0.06 /
  0.15 ms; level 1 p99 0.16 / 0.13 / 0.18 ms, max 0.4–0.9 ms (the move index, 0.16–0.47 s CPU
  once per process, is built by ``prepare`` before play instead of inside a decision: before,
  up to 1.0 s CPU in one decision). Level 2's maximum (8–66 ms) is a full garbage-collection
  pass landing in a decision. Wall-clock p99 on this load: 4–5 ms, mostly waiting for a core.
  (kawu runs after classic in one process on the same deals: level 2's plans are mostly
  memoised already.) Level 3 makes the same decisions with a third less CPU (bench/decisions.py,
  3 deals per variant, wall-clock guard off: 160 / 123 / 163 → 106 / 84 / 89 ms per decision).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

_BUDGET: float | None = None


def _deal(args: tuple[str, tuple[int, ...], int, int, float | None]) -> list[Any]:
    from ddzspec.players.arena import duplicate_deal
    from ddzspec.rules import load_rules
    name, levels, seed, k, budget = args
    return list(duplicate_deal(load_rules(name), levels, seed, k, budget))


def _load_records(path: str | None, key: dict[str, Any]) -> dict[int, list[Any]]:
    """The duplicate deals already played for ``key`` (variant, levels, seed, budget) in the
    JSONL file ``path``: deal number → its seat-deals. A torn last line is ignored."""
    from ddzspec.players.arena import SeatDeal
    done: dict[int, list[Any]] = {}
    if path is None or not os.path.exists(path):
        return done
    with open(path) as f:
        for line in f:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if {k: row.get(k) for k in key} == key:
                done[row["k"]] = [SeatDeal(*sd) for sd in row["seat_deals"]]
    return done


def _append_record(path: str | None, key: dict[str, Any], k: int, deal: list[Any]) -> None:
    """Append duplicate deal ``k`` (its seat-deals) under ``key`` to the JSONL file ``path``."""
    if path is not None:
        with open(path, "a") as out:
            out.write(json.dumps({**key, "k": k, "seat_deals": [
                [sd.level, sd.role, sd.won, sd.points, sd.landlord_won] for sd in deal]}) + "\n")


def strength(name: str, levels: tuple[int, ...], games: int, seed: int, budget: float | None,
             jobs: int, minutes: float | None, records_path: str | None = None
             ) -> dict[str, Any]:
    """One pairing: the arena figures over the duplicate deals finished in time. With
    ``records_path``, each finished deal is appended there as a JSON line and deals already
    in the file are not played again (a run can be stopped and resumed)."""
    from ddzspec.players.arena import summarize
    t0 = time.perf_counter()
    stop = None if minutes is None else t0 + 60 * minutes
    key = {"variant": name, "levels": list(levels), "seed": seed, "budget": budget}
    results = _load_records(records_path, key)
    todo = [k for k in range(games) if k not in results]
    print(f"{name} {levels}: {len(results)} deals on record, {len(todo)} to play", flush=True)
    with ProcessPoolExecutor(max_workers=jobs) as ex:
        pending: set[Future[list[Any]]] = set()
        index: dict[Future[list[Any]], int] = {}
        while todo or pending:
            while todo and len(pending) < 2 * jobs and (stop is None
                                                        or time.perf_counter() < stop):
                k = todo.pop(0)
                f = ex.submit(_deal, (name, levels, seed, k, budget))
                pending.add(f)
                index[f] = k
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                results[index[f]] = f.result()
                _append_record(records_path, key, index[f], results[index[f]])
            if stop is not None and time.perf_counter() >= stop:
                todo = []  # submit nothing more; finish what is running
    records = [r for kk in sorted(results) for r in results[kk]]
    res = summarize(name, levels, len(results), seed, records, time.perf_counter() - t0)
    for line in res.lines():
        print(line, flush=True)
    return res.to_json()


def speed(name: str, deals: int, deals3: int, budget: float) -> dict[str, Any]:
    """Decision times per level and self-play deals per second per level."""
    from ddzspec.game import GameState
    from ddzspec.players import player_for
    from ddzspec.players.base import prepare
    from ddzspec.rules import load_rules
    rules = load_rules(name)
    n = rules.deal.players
    c = time.process_time()
    t = time.perf_counter()
    prepare(rules, endgame=True)  # move table, index, solver move set: before any timing
    out: dict[str, Any] = {"rules": name, "prepare_ms": 1000 * (time.perf_counter() - t),
                           "prepare_cpu_ms": 1000 * (time.process_time() - c)}
    print(f"speed {name}: prepare {out['prepare_ms']:.0f} ms ({out['prepare_cpu_ms']:.0f} ms "
          "CPU), once per process and rules", flush=True)
    for level in (1, 2, 3):
        count = deals if level < 3 else deals3
        players = [player_for(level, f"speed:{s}", budget=budget if level == 3 else None)
                   for s in range(n)]
        times: list[float] = []
        play_times: list[float] = []
        cpu_times: list[float] = []
        t0 = time.perf_counter()
        for seed in range(count):
            g = GameState.new(rules, seed=f"speed:{seed}")
            while not g.over:
                seat = g.turn
                assert seat is not None
                v = g.view(seat)
                c = time.process_time()
                t = time.perf_counter()
                a = players[seat].decide(v)
                dt = time.perf_counter() - t
                cpu_times.append(time.process_time() - c)
                times.append(dt)
                if g.phase == "play":
                    play_times.append(dt)
                g = g.apply(a)
        total = time.perf_counter() - t0
        play_times.sort()
        row = {"deals": count, "deals_per_s": count / total,
               "decisions": len(times), "ms_per_decision": 1000 * sum(times) / len(times),
               "play_ms_median": 1000 * statistics.median(play_times),
               "play_ms_p99": 1000 * _p99(play_times),
               "play_ms_max": 1000 * play_times[-1],
               # every decision (bids and moves): wall clock and CPU time of this process
               "all_ms": _summary(times), "all_cpu_ms": _summary(cpu_times)}
        out[f"level{level}"] = row
        extra = f" (budget {1000 * budget:.0f} ms)" if level == 3 else ""
        print(f"speed {name} level {level}: {row['ms_per_decision']:.3f} ms/decision mean; "
              f"moves median {row['play_ms_median']:.3f} ms, p99 {row['play_ms_p99']:.3f} ms, "
              f"max {row['play_ms_max']:.3f} ms{extra}; self-play {row['deals_per_s']:.2f} "
              f"deals/s ({count} deals, {len(times)} decisions)", flush=True)
        for what, key in (("wall", "all_ms"), ("cpu ", "all_cpu_ms")):
            s = row[key]
            print(f"speed {name} level {level} all decisions, {what}: mean {s['mean']:.3f} ms, "
                  f"median {s['median']:.3f} ms, p99 {s['p99']:.3f} ms, max {s['max']:.3f} ms",
                  flush=True)
    return out


def step_cost(name: str, deals: int, every: int, seed: int) -> dict[str, Any]:
    """CPU milliseconds per counted rollout step of level-3 trick-play decisions under
    ``name``: at every ``every``-th trick-play position of level-2 deals ``seed`` … ``seed +
    deals − 1``, a level-3 decision with 1,500 steps, no solver (``solve_cards`` 0),
    ``wild_step_cost`` 1 and a clock guard out of reach (100 s). The steps counted are those
    its rollouts report (each + 1, as the decision counts them). The ratio of two variants'
    figures is what ``Level3.wild_step_cost`` divides the budget by."""
    from ddzspec.game import GameState, Phase
    from ddzspec.players import level3, player_for
    from ddzspec.players.base import prepare
    from ddzspec.rules import load_rules
    rules = load_rules(name)
    prepare(rules)
    counted = [0]
    real = level3.rollout

    def counting(state: Any, seat: int, deadline: float) -> tuple[float | None, int]:
        v, k = real(state, seat, deadline)
        counted[0] += k + 1
        return v, k
    level3.rollout = counting  # the bench's own count
    try:
        l2 = player_for(2)
        l3 = level3.Level3(0, budget=100.0, steps_per_second=15, solve_cards=0,
                           wild_step_cost=1)
        cpu, decisions, k = 0.0, 0, 0
        for d in range(seed, seed + deals):
            st = GameState.new(rules, seed=d)
            while not st.over:
                t = st.turn
                assert t is not None
                if st.phase is Phase.PLAY:
                    k += 1
                    if k % every == 0:
                        c0 = time.process_time()
                        l3.decide_move(st.view(t))
                        cpu += time.process_time() - c0
                        decisions += 1
                st = st.apply(l2.decide(st.view(t)))
    finally:
        level3.rollout = real
    ms = 1000 * cpu / max(1, counted[0])
    print(f"{name}: {decisions} level-3 decisions, {counted[0]} rollout steps, "
          f"{1000 * cpu / max(1, decisions):.1f} ms CPU a decision, {ms:.4f} ms CPU a step "
          f"(load {os.getloadavg()[0]:.1f})", flush=True)
    return {"rules": name, "decisions": decisions, "steps": counted[0], "ms_per_step": ms}


def _p99(values: Sequence[float]) -> float:
    """The 99th percentile of sorted ``values`` (the value at rank ⌊0.99 n⌋)."""
    return values[min(len(values) - 1, int(0.99 * len(values)))]


def _summary(seconds: Sequence[float]) -> dict[str, float]:
    """Mean, median, 99th percentile and maximum of ``seconds``, in milliseconds."""
    v = sorted(seconds)
    return {"mean": 1000 * sum(v) / len(v), "median": 1000 * statistics.median(v),
            "p99": 1000 * _p99(v), "max": 1000 * v[-1]}


# --------------------------------------------------------------------------- the RLCard peer
#: Runs in the peer environment (rlcard installed, no ddzspec): reads one JSON request per
#: line — {"hand": "33455...", "trace": [[seat, "cards"|"pass"], ...], "actions": [...],
#: "seat": s, "landlord": l} — and answers the chosen action string. rlcard writes a hand as
#: ranks "3456789TJQKA2BR" with "B" and "R" for the small and big joker, as ddzspec does.
PEER = r'''
import json, sys
import numpy as np
from rlcard.games.doudizhu.utils import CARD_TYPE
from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1
np.random.seed(0)  # the agent answers at random when it has no same-type answer
agent = DouDizhuRuleAgentV1()
for line in sys.stdin:
    req = json.loads(line)
    # only the moves rlcard knows (its rules differ from seeds 000/002 in a few kicker cases)
    known = [a for a in req["actions"] if a == "pass" or a in CARD_TYPE[0]]
    req["actions"] = known or req["actions"]
    trace = [(p, a) for p, a in req["trace"]]
    raw = {"current_hand": req["hand"], "trace": trace, "actions": req["actions"],
           "self": req["seat"], "landlord": req["landlord"],
           "played_cards": [], "others_hand": "", "num_cards_left": req["left"],
           "seen_cards": req["talon"]}
    state = {"raw_obs": raw, "raw_legal_actions": req["actions"]}
    try:
        act = agent.step(state)
    except Exception:  # the agent cannot read this state: take its first legal action
        act = req["actions"][0]
    if act not in req["actions"]:
        act = req["actions"][0]
    print(json.dumps(act), flush=True)
'''

_RL = "3456789TJQKA2BR"


def _rl(cards: Any) -> str:
    return "".join(_RL[i] * c for i, c in enumerate(cards.counts))


class PeerPlayer:
    """A classic seat played by rlcard's rule agent in another interpreter: bids and robs are
    level 1's (rlcard's rule agent does not bid); moves are chosen among ddzspec's legal
    moves, offered in rlcard's notation ("pass" for a pass)."""

    level = 0

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc

    def decide(self, view: Any) -> Any:
        from ddzspec.game import Action
        from ddzspec.moves import legal_moves
        from ddzspec.players import player_for
        if view.phase == "bidding":
            return player_for(1).decide(view)
        prev = None if view.last is None else view.last[1]
        lm = legal_moves(view.hand, prev, view.rules)
        actions = {(_rl(m.cards)): m for m in lm.moves}
        names = list(actions) + (["pass"] if lm.can_pass else [])
        trace = [[a.seat, "pass" if a.kind == "pass" else _rl(a.cards)] for a in view.history]
        req = {"hand": _rl(view.hand), "trace": trace, "actions": names, "seat": view.seat,
               "landlord": view.landlord, "left": list(view.cards_left),
               "talon": _rl(view.talon) if view.talon is not None else ""}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        choice = json.loads(self.proc.stdout.readline())
        if choice == "pass":
            return Action.pass_(view.seat)
        return Action.play(view.seat, actions[choice].cards)

    def decide_bid(self, view: Any) -> Any:
        return self.decide(view)

    def decide_move(self, view: Any) -> Any:
        return self.decide(view)


def peer_match(python: str, level: int, games: int, budget: float,
               records_path: str | None = None) -> dict[str, Any] | None:
    """``level`` against rlcard's doudizhu-rule-v1 on classic duplicate deals (levels rotated
    over the seats as in the arena). None when the peer cannot start. With ``records_path``,
    finished deals are appended there and not played again (as in :func:`strength`)."""
    from ddzspec.players import player_for
    from ddzspec.players.arena import SeatDeal, play_deal, summarize
    from ddzspec.rules import load_rules
    rules = load_rules("classic")
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "peer.py")
        with open(script, "w") as f:
            f.write(PEER)
        proc = subprocess.Popen([python, script], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            peer = PeerPlayer(proc)
            levels = (level, 0, 0)
            key = {"variant": "classic", "levels": list(levels), "seed": "peer",
                   "budget": budget}
            done = _load_records(records_path, key)
            t0 = time.perf_counter()
            for k in range(games):
                if k in done:
                    continue
                deal: list[SeatDeal] = []
                for rot in range(3):
                    seat_levels = [levels[(s - rot) % 3] for s in range(3)]
                    players: list[Any] = [player_for(lv, f"peer:{k}:{rot}:{s}", budget=budget)
                                          if lv else peer for s, lv in enumerate(seat_levels)]
                    res = play_deal(rules, players, f"arena:peer:{k}").result
                    assert res is not None
                    ll = res.winner == "landlord"
                    for s, lv in enumerate(seat_levels):
                        role = "landlord" if s == res.landlord else "peasant"
                        deal.append(SeatDeal(lv, role, ll == (role == "landlord"),
                                             res.scores[s], ll))
                done[k] = deal
                _append_record(records_path, key, k, deal)
        except (BrokenPipeError, json.JSONDecodeError):
            err = proc.stderr.read() if proc.stderr else ""
            print(f"rlcard peer failed: {err.strip()[-1500:]}")
            return None
        finally:
            proc.kill()
    records = [r for k in sorted(done) if k < games for r in done[k]]
    summary = summarize("classic", levels, len(records) // 9, 0, records,
                        time.perf_counter() - t0)
    print(f"anchor: level {level} against rlcard doudizhu-rule-v1 (level 0 below)")
    for line in summary.lines():
        print(line, flush=True)
    return summary.to_json()


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000,
                    help="duplicate deals per level-2-vs-1 pairing")
    ap.add_argument("--games3", type=int, default=2000,
                    help="duplicate deals per pairing with level 3")
    ap.add_argument("--budget", type=float, default=0.5, help="level 3's seconds per move")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop each pairing after this many minutes (report what finished)")
    ap.add_argument("--variants", default="classic,duel")
    ap.add_argument("--pairings", default="2,1;3,2", help="level pairs, ';'-separated")
    ap.add_argument("--speed-deals", type=int, default=100)
    ap.add_argument("--speed-deals3", type=int, default=3)
    ap.add_argument("--step-cost", type=int, default=0, metavar="DEALS",
                    help="only the CPU cost of a level-3 rollout step per variant, over this "
                         "many level-2 deals (every fourth trick-play position)")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--no-strength", action="store_true")
    ap.add_argument("--peer-venv", default=None, metavar="PATH",
                    help="a venv with rlcard installed: level 2 and 3 against its rule agent")
    ap.add_argument("--peer-games", type=int, default=50,
                    help="duplicate deals against the peer, level 2")
    ap.add_argument("--peer-games3", type=int, default=None,
                    help="duplicate deals against the peer, level 3 (default: peer-games / 5)")
    ap.add_argument("--peer-levels", default="2,3", help="levels matched against the peer")
    ap.add_argument("--json", dest="json_out", default=None, metavar="FILE")
    ap.add_argument("--records", default=None, metavar="FILE",
                    help="JSONL of finished duplicate deals: appended to, and deals already "
                         "there are not played again (resume a stopped run)")
    args = ap.parse_args(argv)
    os.environ.setdefault("DDZSPEC_CACHE_DIR", tempfile.mkdtemp(prefix="ddzspec-bench-"))
    out: dict[str, Any] = {"args": vars(args), "strength": [], "speed": [], "anchor": []}

    def save() -> None:
        if args.json_out:
            with open(args.json_out, "w") as f:
                json.dump(out, f, indent=1)

    if args.step_cost:
        out["step_cost"] = [step_cost(name, args.step_cost, 4, args.seed)
                            for name in args.variants.split(",")]
        save()
        return
    if not args.no_speed:
        for name in args.variants.split(","):
            out["speed"].append(speed(name, args.speed_deals, args.speed_deals3, args.budget))
            save()
    if not args.no_strength:
        for pairing in args.pairings.split(";"):
            a, b = (int(x) for x in pairing.split(","))
            for name in args.variants.split(","):
                from ddzspec.rules import load_rules
                n = load_rules(name).deal.players
                levels = (a,) + (b,) * (n - 1)
                games = args.games3 if 3 in (a, b) else args.games
                out["strength"].append(strength(name, levels, games, args.seed,
                                                args.budget, args.jobs, args.minutes,
                                                args.records))
                save()
    if args.peer_venv:
        python = os.path.join(args.peer_venv, "bin", "python")
        for level in (int(x) for x in args.peer_levels.split(",")):
            n3 = args.peer_games3 or max(1, args.peer_games // 5)
            r = peer_match(python, level, args.peer_games if level != 3 else n3, args.budget,
                           args.records)
            if r is None:
                break
            out["anchor"].append(r)
            save()
    save()


if __name__ == "__main__":
    main()
