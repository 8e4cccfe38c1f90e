"""Benchmark of the endgame solver: its speed, memory and answers against peers.

Each measurement runs in a fresh process (so its peak RSS is its own) and reports the wall
time, the CPU time, nodes, nodes per second and the peak RSS:

- every puzzle of ``tests/data/puzzles/two_seat.jsonl``: the verdict (``want="winner"``), one
  winning move with its line (``want="one"``, when the solver has it) and every winning move
  (``want="all"``), checked against the record's answer;
- ``--deals N``: N random open 2-seat deals per size of ``--sizes`` (e.g. ``13-17``: 13 v 13
  … 17 v 17), landlord to lead, each under ``--limit-seconds`` (the same deals every run:
  ``--seed``);
- ``--talon N``: N random open 2-seat deals of 20 v 17 cards (after the talon), the
  verdict within ``--limit-seconds`` (the target: >= 75 % within 60 s);
- ``--three N``: N random open 3-seat deals of 12/10/10 cards (every winning lead, within
  10 s each) and N of 15/12/12 (the verdict, within 60 s each), landlord to lead (the
  3-seat targets; the same deals every run: ``--seed``);
- ``--laizi N``: N random open 2-seat laizi positions of 10 v 10 cards, landlord to lead,
  their wild rank drawn (redrawn until a hand holds a wild card), every winning lead
  (``want="all"``) within ``--limit-seconds``, beside the same hands under classic (the wild
  cards natural): time and nodes side by side (``--seed``);
- ``--big``: a few larger positions (13 v 12 leads, 3-seat team positions, scores);
- ``--compare DIR``: the same measurements with another copy of the solver's folder (e.g. the
  main branch's ``solver/``: ``git archive main solver | tar -x -C /tmp/old``, then
  ``--compare /tmp/old/solver``), run alternately with this one, and the ratios; the answers
  of both must agree (a row says DIFFERS otherwise).
- ``--peer-bin PATH``: a native peer solver (e.g. a single-threaded build of the C++ solver
  YunyanDeng/doudizhu_endgame, built outside the repo; never part of it) on the same 2-seat
  positions: the puzzles taking >= 5 ms (and the speed target's four, DDZ2-04 to 07, in their own
  median), with ``--big`` the 2-seat larger positions, and the deals of ``--sizes`` (``--deals N``,
  default 2), run alternately with this solver in fresh processes, each ``--repeat`` times. The
  peer's driver builds its table before its clock starts; so that neither side is timed for its
  process's first touch of memory, ddzspec's process first solves the same position's verdict
  (at most 1 s; then every hand cache is emptied, and each search has its own new table):
  ``--cold`` keeps the trivial warm-up of the other measurements (the header says which). The
  binary is called as ``PATH MOVER OTHER [ON_TABLE]`` (cards in the peer's notation
  ``34567890JQKA2YZ``, ``0`` the ten, ``Y``/``Z`` the black/red joker; ON_TABLE the move the
  mover must beat) and prints one JSON line ``{"win": bool, "first": [ranks] or null, "all":
  [[ranks], ...], "cpu": s, "all_cpu": s}`` (ranks 0..14 as in ddzspec; ``[]`` a pass). Each
  row gives both verdicts, both sets of winning moves, the CPU times, the ratios (ddzspec /
  peer) and whether the answers agree; on a disagreement both are run once more and each
  disputed move is re-checked on the position after it, with ddzspec's exact solver and with
  the peer in a fresh process (a fresh transposition table).
- ``--workers N``: also root splitting (``ddzspec.solver.split.solve_split`` on N processes,
  a pool started by each call) on the puzzles, ``--big`` and ``--deals`` positions, in its own
  table after each group's: wall seconds beside the single search's, the speed-up, solved
  counts (parallel figures are reported apart from the single-thread ones).
- ``--bench-venv DIR``: also doudizhu-resolver (PyPI, pure Python, never a project
  dependency) on the puzzles of at most 7 v 6 cards.

Usage: ``python bench/solver.py [--puzzles FILE] [--compare DIR] [--deals N] [--sizes A-B]
[--talon N] [--limit-seconds S] [--three N] [--laizi N] [--big] [--repeat K] [--workers N]
[--peer-bin PATH] [--cold] [--bench-venv DIR] [--resolver-timeout S]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from ddzspec.cards import N_RANKS, Cards, parse_cards

HERE = Path(__file__).resolve().parent
DEFAULT_PUZZLES = HERE.parent / "tests" / "data" / "puzzles" / "two_seat.jsonl"

#: Larger positions: (name, rules, hands, to move, want).
BIG = [
    ("13v12 lead", "classic", {"landlord": "334446TJJQKK2", "peasant": "356678KKAAAR"},
     "landlord", "all"),
    ("13v12 lead, deal 2", "classic", {"landlord": "344556TJAAA22", "peasant": "567799TJQKKB"},
     "landlord", "all"),
    ("13v12 lead, deal 3", "classic", {"landlord": "34669TTQKK222", "peasant": "45668JQKAA2B"},
     "landlord", "all"),
    ("15v15 lead", "classic", {"landlord": "3344468TJJQKKK2", "peasant": "35566789TKAAA2R"},
     "landlord", "winner"),
    ("13v12 lead, score", "classic", {"landlord": "34669TTQKK222", "peasant": "45668JQKAA2B"},
     "landlord", "score"),
    ("3 seats 6/5/5 team", "classic",
     {"landlord": "3456KK", "peasant1": "789TA", "peasant2": "JQQ22"}, "landlord", "all"),
    ("3 seats 8/6/6 score", "classic",
     {"landlord": "33445566", "peasant1": "77889T", "peasant2": "JJQQKK"}, "landlord",
     "score"),
    ("3 seats 10/8/8 score", "classic",
     {"landlord": "3446TJQKK2", "peasant1": "3468JKAR", "peasant2": "35567KAA"}, "landlord",
     "score"),
]

RESOLVER_SCRIPT = r"""
import json, sys, time
from doudizhu_resolver import play
my, enemy, last = json.loads(sys.argv[1])
conv = lambda s: play.Card.card_ints_from_string(s) if s else []
t = time.perf_counter()
res = play.try_win(0, conv(my), conv(enemy), conv(last))
dt = time.perf_counter() - t
moves = sorted({tuple(sorted(play.Card.get_rank_int(c) for c in m)) for m in res})
print(json.dumps({"seconds": dt, "moves": moves}))
"""

_SUITS = "shdc"
_RANK_STR = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "CJ"]


def resolver_cards(texts: list[str]) -> list[str]:
    """Rank-only card strings → the resolver's suited strings (``As-Ac-9s``), suits dealt so
    that no card appears twice across the strings."""
    used = [0] * N_RANKS
    out = []
    for text in texts:
        if not text:
            out.append("")
            continue
        parts = []
        for i, c in enumerate(parse_cards(text).cards.counts):
            for _ in range(c):
                parts.append(_RANK_STR[i] if i >= 13 else _RANK_STR[i] + _SUITS[used[i]])
                used[i] += 1
        out.append("-".join(parts))
    return out


def multisets(moves: list[str]) -> list[tuple[int, ...]]:
    """Winning moves as sorted rank-index tuples (() for PASS), for comparison."""
    out = []
    for m in moves:
        if m == "PASS":
            out.append(())
        else:
            out.append(tuple(i for i, c in enumerate(parse_cards(m).cards.counts)
                             for _ in range(c)))
    return sorted(out)


def run_resolver(python: Path, rec: dict, timeout: float) -> dict:
    """Run doudizhu-resolver on one puzzle in a fresh process: seconds and winning moves, or
    an error string."""
    hands = rec["hands"]
    last = rec["on_table"]["cards"] if rec.get("on_table") else ""
    my, enemy, table = resolver_cards([hands["first"], hands["second"], last])
    try:
        p = subprocess.run([str(python), "-c", RESOLVER_SCRIPT, json.dumps([my, enemy, table])],
                           capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["failed"])[-1]}
    got = json.loads(p.stdout.strip().splitlines()[-1])
    return {"seconds": got["seconds"], "moves": sorted(tuple(m) for m in got["moves"])}


#: The child process: one position, several wants, one solver folder → a JSON line.
CHILD_SCRIPT = r"""
import importlib, json, resource, sys, time, types
args = json.loads(sys.argv[1])
import ddzspec
if args["solver_dir"]:
    pkg = types.ModuleType("ddzspec.solver")
    pkg.__path__ = [args["solver_dir"]]
    sys.modules["ddzspec.solver"] = pkg
    ddzspec.solver = pkg
search = importlib.import_module("ddzspec.solver.search")
position = importlib.import_module("ddzspec.solver.position")
movegen = importlib.import_module("ddzspec.solver.movegen")
from ddzspec.rules import load_rules
rules = load_rules(args["rules"])
movegen.move_set(rules)
# a trivial position with the same seats first: per-process set-up is not the search's time
warm = {seat: "345"[i] for i, seat in enumerate(args["hands"])}
wild = {"wild": args["wild"]} if args.get("wild") is not None else {}
search.solve(position.make_position(rules, warm, "landlord", **wild), want="all")
pos = position.make_position(rules, args["hands"], args["to_move"], on_table=args["on_table"],
                             played_by=args["played_by"], **wild)
if args.get("warm_same"):  # the process's memory first touched by the same position (<= 1 s)
    search.solve(pos, want="winner", seconds=1.0, line=False)
out = {}
workers = args.get("workers", 1)
for want in args["wants"]:
    movegen.move_set(rules).clear()  # each want starts with no hand built, as a fresh run
    # an older solver (--compare) may not know want="one"; a compiled one has no annotations
    ann = getattr(search.solve, "__annotations__", None)
    if want == "one" and ann is not None and "one" not in str(ann["want"]).replace(
            "'", '"').split('"'):
        continue
    w, c = time.perf_counter(), time.process_time()
    if workers > 1:  # root splitting: a process pool started (and ended) by the call
        split = importlib.import_module("ddzspec.solver.split")
        r = split.solve_split(pos, want=want, workers=workers, seconds=args["seconds"],
                              line=want == "one")
    else:
        r = search.solve(pos, want=want, seconds=args["seconds"], line=want == "one")
    out[want] = {"status": r.status, "winner": r.winner, "nodes": r.nodes,
                 "wall": time.perf_counter() - w, "cpu": time.process_time() - c,
                 "moves": None if r.winning_moves is None else sorted(r.winning_moves)}
out["rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run_child(solver_dir: str | None, job: dict[str, Any], wants: list[str],
              seconds: float | None, workers: int = 1, warm_same: bool = False) -> dict[str, Any]:
    """One position in a fresh process with the solver of ``solver_dir`` (None: this one);
    ``workers`` > 1: split at the root over that many processes (``solve_split``);
    ``warm_same``: the process first solves the same position's verdict (at most 1 s)."""
    arg = {"solver_dir": solver_dir, "wants": wants, "seconds": seconds, "workers": workers,
           "warm_same": warm_same, **job}
    p = subprocess.run([sys.executable, "-c", CHILD_SCRIPT, json.dumps(arg)],
                       capture_output=True, text=True, check=False, cwd=HERE)
    if p.returncode != 0:
        return {"error": (p.stderr.strip().splitlines() or ["failed"])[-1]}
    return dict(json.loads(p.stdout.strip().splitlines()[-1]))


def puzzle_jobs(path: Path) -> list[dict[str, Any]]:
    """The puzzles as jobs: name, rules, hands, to move, move on the table, expected answer."""
    rename = {"first": "landlord", "second": "peasant"}
    jobs = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        t = rec.get("on_table")
        jobs.append({"name": rec["id"], "rules": "classic",
                     "hands": {"landlord": rec["hands"]["first"],
                               "peasant": rec["hands"]["second"]},
                     "to_move": rename[rec.get("to_move", "first")],
                     "on_table": None if t is None else t["cards"],
                     "played_by": None if t is None else rename[t["by"]],
                     "expect": (rec["winner"], multisets(rec["winning_moves"]))})
    return jobs


def deal_jobs(sizes: range, per_size: int, seed: int) -> list[dict[str, Any]]:
    """Random open 2-seat deals of the classic deck, ``k`` v ``k`` cards, landlord to lead."""
    rng = random.Random(seed)
    return [job for k in sizes for job in _deals(rng, ("landlord", "peasant"), (k, k), per_size)]


def talon_jobs(per_size: int, seed: int) -> list[dict[str, Any]]:
    """Random open 2-seat deals of the classic deck after the talon: 20 v 17 cards, the
    landlord (holding the talon) to lead."""
    return _deals(random.Random(seed), ("landlord", "peasant"), (20, 17), per_size)


def three_seat_jobs(sizes: tuple[int, int, int], per_size: int,
                    seed: int) -> list[dict[str, Any]]:
    """Random open 3-seat deals of the classic deck (landlord, peasant1, peasant2 holding
    ``sizes`` cards), landlord to lead."""
    return _deals(random.Random(seed), ("landlord", "peasant1", "peasant2"), sizes, per_size)


def _deals(rng: random.Random, seats: tuple[str, ...], sizes: tuple[int, ...],
           n: int) -> list[dict[str, Any]]:
    """``n`` random open deals of the classic deck, ``sizes[i]`` cards to ``seats[i]``, the
    first seat to lead."""
    deck = [r for r, c in enumerate((4,) * 13 + (1, 1)) for _ in range(c)]
    jobs = []
    for i in range(n):
        cards = rng.sample(deck, sum(sizes))
        hands, at = {}, 0
        for seat, k in zip(seats, sizes):
            counts = [0] * N_RANKS
            for r in cards[at:at + k]:
                counts[r] += 1
            hands[seat] = Cards(tuple(counts)).format()
            at += k
        name = ("v" if len(seats) == 2 else "/").join(map(str, sizes))
        jobs.append({"name": f"{name} #{i + 1}", "rules": "classic", "hands": hands,
                     "to_move": seats[0], "on_table": None, "played_by": None})
    return jobs


def laizi_jobs(n: int, seed: int, sizes: tuple[int, int] = (10, 10)
               ) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``n`` random open 2-seat laizi positions (``sizes`` cards, landlord to lead), each
    with its wild rank drawn as laizi draws it (any rank 3 .. 2) and redrawn until the hands
    hold a wild card, paired with the same hands under classic (the wild cards natural)."""
    from ddzspec.rules import load_rules
    laizi = load_rules("laizi")
    assert laizi.wild is not None
    ranks = laizi.wild.draws[0].ranks
    rng = random.Random(seed)
    out = []
    for job in _deals(rng, ("landlord", "peasant"), sizes, n):
        held = [parse_cards(h).cards for h in job["hands"].values()]
        rank = rng.choice(ranks)
        while not any(h.counts[rank] for h in held):
            rank = rng.choice(ranks)
        wild = {**job, "rules": "laizi", "wild": rank,
                "wilds": sum(h.counts[rank] for h in held)}
        out.append((wild, job))
    return out


def laizi_compare(n: int, seed: int, seconds: float, repeat: int) -> None:
    """:func:`laizi_jobs` solved (every winning lead, ``want="all"``) with their wild rank
    and as classic, each in a fresh process, ``repeat`` times (medians): time and nodes side
    by side."""
    from ddzspec.cards import ALL_RANKS
    print(f"== laizi 10 v 10 against the same hands natural (classic), {n} positions "
          f"(want all; limit {seconds:g} s; median of {repeat})")
    print(f"{'position':<10} {'wild':>4} {'held':>4}  {'laizi s':>8} {'nodes':>10} "
          f"{'verdict':<9} {'classic s':>9} {'nodes':>10} {'verdict':<9} {'time x':>7}")
    ratios = []
    for wild, natural in laizi_jobs(n, seed):
        runs: dict[str, list[dict[str, Any]]] = {"laizi": [], "classic": []}
        for _ in range(repeat):
            for key, job in (("laizi", wild), ("classic", natural)):
                got = run_child(None, job, ["all"], seconds)
                runs[key].append(got.get("all") or {"status": got.get("error", "failed"),
                                                   "winner": None, "nodes": 0, "wall": 0.0})
        cells = []
        walls = []
        for key in ("laizi", "classic"):
            rs = runs[key]
            wall = statistics.median(r["wall"] for r in rs)
            walls.append(wall)
            r = rs[0]
            verdict = r["winner"] if r["status"] == "solved" else r["status"]
            cells.append(f"{wall:>8.3f} {r['nodes']:>10,} {verdict or '-':<9}")
        ratio = walls[0] / walls[1] if walls[1] > 0 else float("nan")
        ratios.append(ratio)
        print(f"{natural['name']:<10} {ALL_RANKS[wild['wild']].symbol():>4} {wild['wilds']:>4}  "
              f"{cells[0]} {cells[1][:-1]:>29} {ratio:>7.1f}")
    print(f"median time ratio laizi / classic: {statistics.median(ratios):.1f}\n")


def big_jobs() -> list[dict[str, Any]]:
    """:data:`BIG` as jobs."""
    return [{"name": name, "rules": rname, "hands": hands, "to_move": to_move,
             "on_table": None, "played_by": None, "want": want}
            for name, rname, hands, to_move, want in BIG]


def _agrees(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two measurements give the same answers wherever both are solved."""
    for want in ("winner", "one", "all", "score"):
        x, y = a.get(want), b.get(want)
        if x is None or y is None or "solved" not in (x["status"], y["status"]):
            continue
        if x["status"] != y["status"]:
            continue  # one hit the limit: nothing to compare
        if x["winner"] != y["winner"] or (want != "one" and x["moves"] != y["moves"]):
            return False
    return True


Measured = list[tuple[dict[str, Any], list[dict[str, Any]]]]


def measure(title: str, jobs: list[dict[str, Any]], wants: list[str],
            seconds: float | None, compare: str | None, repeat: int) -> Measured:
    """Run every job (alternately with the compared solver), print a table and medians;
    return each job measured with its runs of this solver (for :func:`measure_split`)."""
    print(f"== {title} (wants: {', '.join(wants)}; limit "
          f"{'none' if seconds is None else f'{seconds:g} s'}; median of {repeat}; "
          "cpu seconds; new / old)")
    head = f"{'position':<16}{'cards':>7}"
    for w in wants:
        head += f"{w + ' cpu':>13}{'nodes':>11}{'knodes/s':>9}"
        if compare:
            head += f"{'old cpu':>9}{'old nodes':>11}{'ratio':>7}"
    head += f"{'MiB':>6}" + (f"{'old':>5}" if compare else "") + "  answer"
    print(head)
    ratios: dict[str, list[float]] = {w: [] for w in wants}
    solved: dict[str, list[int]] = {w: [0, 0] for w in wants}
    rss = []
    measured: Measured = []
    for job in jobs:
        jw = [job["want"]] if "want" in job else wants
        mine, theirs = [], []
        for _ in range(repeat):
            mine.append(run_child(None, job, jw, seconds))
            if compare:
                theirs.append(run_child(compare, job, jw, seconds))
        if any("error" in r for r in mine + theirs):
            print(f"{job['name']:<16}  error: "
                  + next(r["error"] for r in mine + theirs if "error" in r))
            continue
        measured.append((job, mine))
        cards = _cards(job)
        row = f"{job['name']:<16}{cards:>7}"
        for w in wants:
            if w not in jw or w not in mine[0]:
                row += " " * (33 + (27 if compare else 0))
                continue
            ok = mine[0][w]["status"] == "solved"
            cpu = statistics.median(r[w]["cpu"] for r in mine)
            nodes = mine[0][w]["nodes"]
            solved[w][0] += ok
            solved[w][1] += 1
            row += f"{cpu if ok else float('nan'):>13.3f}{nodes:>11,}{nodes / cpu / 1e3:>9.0f}"
            if compare:
                if w in theirs[0] and theirs[0][w]["status"] == "solved":
                    old = statistics.median(r[w]["cpu"] for r in theirs)
                    row += (f"{old:>9.3f}{theirs[0][w]['nodes']:>11,}"
                            f"{cpu / old if ok else float('nan'):>7.2f}")
                    if ok and old >= 0.005:
                        ratios[w].append(cpu / old)
                else:
                    row += f"{'-':>9}{'':>18}"
        mib = max(r["rss"] for r in mine)
        rss.append(mib)
        row += f"{mib:>6.0f}" + (f"{max(r['rss'] for r in theirs):>5.0f}" if compare else "")
        verdicts = [mine[0][w] for w in jw if w in mine[0]]
        answer = next((v["winner"] for v in verdicts if v["winner"]), "unknown")
        if "expect" in job:
            allm = mine[0].get("all")
            good = {"landlord": "first", "peasants": "second"}.get(answer) == job["expect"][0]
            if allm and allm["moves"] is not None:
                good = good and multisets(allm["moves"]) == job["expect"][1]
            answer += " ok" if good else " WRONG"
        if compare:
            answer += "" if all(_agrees(a, b) for a, b in zip(mine, theirs)) else " DIFFERS"
        print(row + "  " + answer, flush=True)
    for w in wants:
        tail = ""
        if ratios[w]:
            tail = (f"; median new/old cpu ratio {statistics.median(ratios[w]):.2f} over "
                    f"{len(ratios[w])} positions taking >= 5 ms")
        print(f"{w}: solved {solved[w][0]}/{solved[w][1]}{tail}")
    if rss:
        print(f"peak RSS: max {max(rss):.0f} MiB, median {statistics.median(rss):.0f} MiB\n")
    return measured


def _cards(job: dict[str, Any]) -> str:
    """A job's hand sizes, e.g. ``15v15``."""
    return "v".join(str(len(parse_cards(h).cards)) for h in job["hands"].values())


def measure_split(title: str, measured: Measured, wants: list[str], seconds: float | None,
                  workers: int, repeat: int) -> None:
    """Root splitting (``solve_split`` on ``workers`` processes, a pool each call starts and
    ends) on the positions :func:`measure` ran, in its own table beside the single search's
    wall seconds from that run: the speed-up is single wall / split wall. The score is not
    split (skipped)."""
    wants = [w for w in wants if w != "score"]
    start = run_child(None, {"name": "3v3", "rules": "classic",
                             "hands": {"landlord": "345", "peasant": "678"},
                             "to_move": "landlord", "on_table": None, "played_by": None},
                      ["all"], None, workers)
    setup = "?" if "error" in start else f"{start['all']['wall']:.2f} s"
    print(f"== {title}: root split on {workers} processes (wall seconds, median of {repeat}; "
          f"'1 proc': one search, from the table above; a 3 v 3 position split takes {setup}:"
          " the pool's start-up)")
    head = f"{'position':<16}{'cards':>7}"
    for w in wants:
        head += f"{w + ' 1 proc':>15}{f'{workers} procs':>9}{'nodes':>11}{'speed-up':>9}"
    print(head + "  answer")
    speedups: dict[str, list[float]] = {w: [] for w in wants}
    counts = {w: [0, 0, 0] for w in wants}  # solved by one search, by the split, positions
    walls = {w: [0.0, 0.0] for w in wants}
    for job, mine in measured:
        jw = [w for w in ([job["want"]] if "want" in job else wants) if w in wants]
        if not jw:
            continue
        split = [run_child(None, job, jw, seconds, workers) for _ in range(repeat)]
        if any("error" in r for r in split):
            print(f"{job['name']:<16}  error: " + next(r["error"] for r in split if "error" in r))
            continue
        row = f"{job['name']:<16}{_cards(job):>7}"
        agree = True
        for w in wants:
            if w not in jw or w not in mine[0]:
                row += " " * 44
                continue
            one, sp = mine[0][w], split[0][w]
            one_ok, sp_ok = one["status"] == "solved", sp["status"] == "solved"
            t1 = statistics.median(r[w]["wall"] for r in mine)
            tn = statistics.median(r[w]["wall"] for r in split)
            counts[w][0] += one_ok
            counts[w][1] += sp_ok
            counts[w][2] += 1
            walls[w][0] += t1
            walls[w][1] += tn
            if one_ok and sp_ok:
                speedups[w].append(t1 / tn)
                agree = agree and one["winner"] == sp["winner"] and (
                    w != "all" or one["moves"] == sp["moves"])
            nan = float("nan")
            row += (f"{t1 if one_ok else nan:>15.3f}{tn if sp_ok else nan:>9.3f}"
                    f"{sp['nodes']:>11,}{t1 / tn if one_ok and sp_ok else nan:>9.2f}")
        answer = next((split[0][w]["winner"] for w in jw if split[0][w]["winner"]), "unknown")
        print(row + "  " + answer + ("" if agree else " DIFFERS"), flush=True)
    for w in wants:
        one_n, split_n, n = counts[w]
        med = (f"; median speed-up {statistics.median(speedups[w]):.2f} over "
               f"{len(speedups[w])} positions both solved" if speedups[w] else "")
        print(f"{w}: one search solved {one_n}/{n} in {walls[w][0]:.1f} s of wall time in all, "
              f"{workers} processes solved {split_n}/{n} in {walls[w][1]:.1f} s{med}")
    print()


_PEER_CHARS = "34567890JQKA2YZ"


def peer_cards(text: str | None) -> str:
    """ddzspec card text → the peer's notation (one character per card, rank order)."""
    if not text:
        return ""
    counts = parse_cards(text).cards.counts
    return "".join(_PEER_CHARS[r] * c for r, c in enumerate(counts))


def run_peer(peer: Path, job: dict[str, Any]) -> dict[str, Any]:
    """The peer binary on one 2-seat job in a fresh process: its JSON answer, or an error."""
    hands = job["hands"]
    mover = hands[job["to_move"]]
    other = next(h for seat, h in hands.items() if seat != job["to_move"])
    cmd = [str(peer), peer_cards(mover), peer_cards(other)]
    if job["on_table"]:
        cmd.append(peer_cards(job["on_table"]))
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode != 0 or not p.stdout.strip():
        return {"error": f"peer exit {p.returncode}: {p.stderr.strip()[-200:]}"}
    out = dict(json.loads(p.stdout.strip().splitlines()[-1]))
    out["all"] = sorted({tuple(sorted(m)) for m in out["all"]})
    return out


def _after_move(job: dict[str, Any], move: tuple[int, ...]) -> dict[str, Any]:
    """The job after the mover plays ``move`` (() a pass): the other seat to move."""
    mover = job["to_move"]
    other = next(seat for seat in job["hands"] if seat != mover)
    counts = list(parse_cards(job["hands"][mover]).cards.counts)
    for r in move:
        counts[r] -= 1
    moved = Cards(tuple(counts)).format() if any(counts) else ""
    hands = {**job["hands"], mover: moved}
    if not move:
        return {**job, "hands": hands, "to_move": other, "on_table": None, "played_by": None}
    played = [0] * N_RANKS
    for r in move:
        played[r] += 1
    return {**job, "hands": hands, "to_move": other,
            "on_table": Cards(tuple(played)).format(), "played_by": mover}


def _fmt_moves(moves: list[tuple[int, ...]] | None) -> str:
    """Rank tuples → ``4,55,PASS`` (ddzspec notation)."""
    if moves is None:
        return "-"
    en = "3456789TJQKA2BR"
    return ",".join("".join(en[r] for r in m) or "PASS" for m in moves) or "none"


#: the puzzles on which the solver's speed target compares it with the C++ peer (and DDZ2-06,
#: added to them): a fixed set, whatever the times, beside the set chosen by time
TARGET_PUZZLES = ("DDZ2-04", "DDZ2-05", "DDZ2-06", "DDZ2-07")


def peer_compare(peer: Path, jobs: list[dict[str, Any]], repeat: int,
                 min_seconds: float, cold: bool = False) -> None:
    """ddzspec beside the peer binary on 2-seat jobs (alternately, fresh processes): both
    verdicts, both sets of winning moves, CPU medians over ``repeat`` runs, the ratios."""
    print(f"== ddzspec v the peer {peer} (median of {repeat}; cpu seconds; ratio = "
          f"ddzspec / peer; puzzles kept when either solver takes >= {min_seconds * 1e3:g} ms "
          f"for the verdict or for every winning move; ddzspec's process warmed "
          f"{'by a trivial position only' if cold else 'by the same position (see the doc)'})")
    print(f"{'position':<14}{'cards':>6}{'verdict':>9}{'peer':>9}{'win cpu':>9}{'peer':>9}"
          f"{'ratio':>8}{'all cpu':>9}{'peer':>9}{'ratio':>8}  agree  moves (ddzspec | peer)")
    ratios: dict[tuple[str, str], list[float]] = {}
    disagreements = []
    for job in jobs:
        mine, theirs = [], []
        for _ in range(repeat):
            mine.append(run_child(None, job, ["winner", "all"], 120.0, warm_same=not cold))
            theirs.append(run_peer(peer, job))
        bad = [r["error"] for r in mine + theirs if "error" in r]
        if bad:
            print(f"{job['name']:<14}  error: {bad[0]}")
            continue
        m_all = mine[0]["all"]
        if m_all["status"] != "solved" or mine[0]["winner"]["status"] != "solved":
            print(f"{job['name']:<14}  ddzspec unsolved within the limit")
            continue
        wcpu = statistics.median(r["winner"]["cpu"] for r in mine)
        acpu = statistics.median(r["all"]["cpu"] for r in mine)
        pw = statistics.median(r["cpu"] for r in theirs)
        pa = statistics.median(r["all_cpu"] for r in theirs)
        # a puzzle both solve in under min_seconds measures the processes, not the search (the
        # speed target's fixed set is shown and counted in its own median all the same)
        short = job.get("group") == "puzzles" and max(wcpu, acpu, pw, pa) < min_seconds
        if short and job["name"] not in TARGET_PUZZLES:
            continue
        my_win = mine[0]["winner"]["winner"] == ("landlord" if job["to_move"] == "landlord"
                                                 else "peasants")
        my_moves = multisets(m_all["moves"] or [])
        p_win, p_moves = bool(theirs[0]["win"]), theirs[0]["all"]
        agree = my_win == p_win and my_moves == p_moves and (
            not p_win or tuple(sorted(theirs[0]["first"])) in my_moves)
        cards = "v".join(str(len(parse_cards(h).cards)) for h in job["hands"].values())
        v = {True: "mover", False: "other"}
        row = (f"{job['name']:<14}{cards:>6}{v[my_win]:>9}{v[p_win]:>9}{wcpu:>9.4f}{pw:>9.4f}"
               f"{wcpu / max(pw, 1e-6):>8.1f}{acpu:>9.4f}{pa:>9.4f}{acpu / max(pa, 1e-6):>8.1f}"
               f"  {'yes' if agree else 'NO':<5}  {_fmt_moves(my_moves)}")
        if my_moves != p_moves:
            row += f" | {_fmt_moves(p_moves)}"
        if short:
            row += f"  (under {min_seconds * 1e3:g} ms: only in the target's median)"
        print(row, flush=True)
        group = str(job.get("group", "random deals"))
        if not short:
            ratios.setdefault(("win", group), []).append(wcpu / max(pw, 1e-6))
            ratios.setdefault(("all", group), []).append(acpu / max(pa, 1e-6))
        if job["name"] in TARGET_PUZZLES:  # the speed target's fixed set
            ratios.setdefault(("win", "target"), []).append(wcpu / max(pw, 1e-6))
            ratios.setdefault(("all", "target"), []).append(acpu / max(pa, 1e-6))
        if not agree:
            disagreements.append((job, my_moves, p_moves))
    order = ["puzzles", "target", "larger positions", "random deals"]
    for (key, group), got in sorted(ratios.items(),
                                    key=lambda kv: (order.index(kv[0][1]), kv[0][0] != "win")):
        label = {"win": "verdict", "all": "every winning move"}[key]
        where = {"puzzles": f"puzzles >= {min_seconds * 1e3:g} ms",
                 "target": f"puzzles of the speed target ({', '.join(TARGET_PUZZLES)})"}.get(
                     group, group)
        print(f"{label}: median ddzspec/peer cpu ratio {statistics.median(got):.1f} over "
              f"{len(got)} {where}")
    for job, my_moves, p_moves in disagreements:
        print(f"DISAGREEMENT on {job['name']}: re-run and re-check")
        again_mine = run_child(None, job, ["all"], 120.0)
        again_peer = run_peer(peer, job)
        print(f"  second run: ddzspec {_fmt_moves(multisets(again_mine['all']['moves'] or []))}"
              f" | peer {_fmt_moves(again_peer.get('all'))}")
        for move in sorted(set(my_moves) ^ set(p_moves)):
            after = _after_move(job, move)
            mover_side = "landlord" if job["to_move"] == "landlord" else "peasants"
            wins = not after["hands"][job["to_move"]] or run_child(
                None, after, ["winner"], 120.0)["winner"]["winner"] == mover_side
            peer_after = run_peer(peer, after) if after["hands"][job["to_move"]] else {}
            peer_says = ("" if "win" not in peer_after else
                         f"; the peer on that position in a fresh process: it "
                         f"{'loses' if peer_after['win'] else 'wins'} for the mover")
            print(f"  {_fmt_moves([move])}: ddzspec's exact solve of the position after it: "
                  f"{'wins' if wins else 'loses'} for the mover "
                  f"(listed by {'ddzspec' if move in my_moves else 'the peer'}){peer_says}")
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=Path, default=DEFAULT_PUZZLES)
    ap.add_argument("--no-puzzles", action="store_true")
    ap.add_argument("--compare", metavar="DIR", default=None,
                    help="another copy of the solver's folder, measured alternately")
    ap.add_argument("--deals", type=int, default=0, metavar="N",
                    help="N random 2-seat deals per size of --sizes")
    ap.add_argument("--sizes", default="13-17", metavar="A-B")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--limit-seconds", type=float, default=60.0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--talon", type=int, default=0, metavar="N",
                    help="N random 2-seat deals of 20 v 17 (after the talon): the verdict")
    ap.add_argument("--three", type=int, default=0, metavar="N",
                    help="N random 3-seat deals: 12/10/10 (all, 10 s), 15/12/12 (winner, 60 s)")
    ap.add_argument("--wants", default="winner,one,all", metavar="W,W",
                    help="what the puzzles and deals ask: winner, one, all")
    ap.add_argument("--peer-bin", type=Path, default=None, metavar="PATH",
                    help="a native peer solver binary (see the docstring), on 2-seat positions")
    ap.add_argument("--cold", action="store_true",
                    help="with --peer-bin: warm ddzspec's processes by a trivial position only")
    ap.add_argument("--bench-venv", type=Path, default=None,
                    help="a venv with doudizhu-resolver installed, for the comparison")
    ap.add_argument("--resolver-timeout", type=float, default=900.0)
    ap.add_argument("--laizi", type=int, default=0, metavar="N",
                    help="N random 10 v 10 laizi positions (a wild rank drawn) against the "
                         "same hands under classic: time and nodes side by side")
    ap.add_argument("--workers", type=int, default=1, metavar="N",
                    help="also root splitting on N processes (solve_split), in its own table "
                         "after each group's single-search one")
    args = ap.parse_args()
    wants = args.wants.split(",")
    compare = None if args.compare is None else str(Path(args.compare).resolve())
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
          f"{os.getloadavg()[2]:.2f} on {os.cpu_count()} cores")
    where = subprocess.run([sys.executable, "-c", "import ddzspec.solver.search as s; "
                            "print(s.__file__)"], capture_output=True, text=True, check=False,
                           cwd=HERE).stdout.strip()
    print(f"solver: {where} ({'compiled' if not where.endswith('.py') else 'pure Python'})\n")

    if args.peer_bin is not None:
        if not os.access(args.peer_bin, os.X_OK):
            sys.exit(f"solver.py: error: --peer-bin {args.peer_bin}: not an executable file")
        a, _, b = args.sizes.partition("-")
        sizes = range(int(a), int(b or a) + 1)
        pjobs = [] if args.no_puzzles else [
            {**j, "group": "puzzles"} for j in puzzle_jobs(args.puzzles)]
        if args.big:  # the 2-seat larger positions (13 v 12 leads, a 15 v 15 lead)
            pjobs += [{**j, "group": "larger positions"} for j in big_jobs()
                      if len(j["hands"]) == 2 and j["want"] != "score"]
        pjobs += deal_jobs(sizes, args.deals or 2, args.seed)
        peer_compare(args.peer_bin, pjobs, args.repeat, 0.005, args.cold)
        return

    def split(title: str, measured: Measured, wants: list[str], seconds: float) -> None:
        if args.workers > 1:
            measure_split(title, measured, wants, seconds, args.workers, args.repeat)

    if not args.no_puzzles:
        split("puzzles", measure("puzzles", puzzle_jobs(args.puzzles), wants, 120.0,
                                 compare, args.repeat), wants, 120.0)
    if args.big:
        split("larger positions", measure("larger positions", big_jobs(),
                                          ["winner", "all", "score"], 120.0, compare,
                                          args.repeat), ["winner", "all"], 120.0)
    if args.deals:
        a, _, b = args.sizes.partition("-")
        sizes = range(int(a), int(b or a) + 1)
        title = f"random deals, {args.deals} per size"
        split(title, measure(title, deal_jobs(sizes, args.deals, args.seed), wants,
                             args.limit_seconds, compare, args.repeat),
              wants, args.limit_seconds)

    if args.laizi:
        laizi_compare(args.laizi, args.seed, args.limit_seconds, args.repeat)
    if args.talon:
        measure(f"random deals after the talon, {args.talon}", talon_jobs(args.talon, args.seed),
                ["winner"], args.limit_seconds, compare, args.repeat)
    if args.three:
        measure(f"3-seat deals 12/10/10, {args.three}",
                three_seat_jobs((12, 10, 10), args.three, args.seed), ["all"], 10.0, compare,
                args.repeat)
        measure(f"3-seat deals 15/12/12, {args.three}",
                three_seat_jobs((15, 12, 12), args.three, args.seed), ["winner"], 60.0, compare,
                args.repeat)

    python = None if args.bench_venv is None else args.bench_venv / "bin" / "python"
    if python is not None:
        resolver(python, args.puzzles, args.resolver_timeout)


def resolver(python: Path, puzzles: Path, timeout: float) -> None:
    """doudizhu-resolver on the puzzles of at most 7 v 6 cards, beside this solver."""
    from ddzspec.solver import position_from_puzzle, solve
    if not python.is_file():
        print(f"doudizhu-resolver: no bench environment at {python.parent.parent} "
              "(create one: python -m venv DIR && DIR/bin/pip install doudizhu-resolver)")
        return
    check = subprocess.run([str(python), "-c", "import doudizhu_resolver"],
                           capture_output=True, text=True, check=False)
    if check.returncode != 0:
        print("doudizhu-resolver cannot be imported in the bench environment: "
              + check.stderr.strip().splitlines()[-1])
        return
    print("doudizhu-resolver 0.1.2 (pure Python, bench environment only) on the "
          "puzzles of at most 7 v 6 cards:")
    print(f"{'puzzle':<12}{'cards':>7}{'resolver s':>12}{'ours s':>10}{'ratio':>10}"
          "  sets agree")
    for rec in (json.loads(x) for x in puzzles.read_text().splitlines() if x.strip()):
        a, b = (len(rec["hands"]["first"]), len(rec["hands"]["second"]))
        if max(a, b) > 7 or min(a, b) > 6:
            continue
        got = run_resolver(python, rec, timeout)
        if "error" in got:
            print(f"{rec['id']:<12}{a:>4}v{b:<2}  {got['error']}")
            continue
        agree = got["moves"] == multisets(rec["winning_moves"])
        mine = solve(position_from_puzzle(rec), want="all").seconds
        ratio = got["seconds"] / mine if mine else float("inf")
        print(f"{rec['id']:<12}{a:>4}v{b:<2}{got['seconds']:>12.3f}{mine:>10.4f}"
              f"{ratio:>9,.0f}x  {'yes' if agree else 'NO: ' + str(got['moves'])}",
              flush=True)
    print()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
