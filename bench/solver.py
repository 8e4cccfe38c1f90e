"""Benchmark of the endgame solver (issue 5, section 6).

Solves every puzzle of ``tests/data/puzzles/two_seat.jsonl`` (complete winning-move sets) and a
few larger positions (a 13-v-12 lead, 3-seat team positions), printing per position the time,
nodes and nodes per second, and whether the answer agrees with the known one. Then, when a
bench environment with ``doudizhu-resolver`` is named (``--bench-venv DIR``; never a
project dependency), runs it on the same 2-seat puzzles of at most 7 v 6 cards, one fresh
process per position with a timeout, and prints both times, the ratio and whether the
winning-move sets agree. Finally the peak memory (max RSS) of this process.

Usage: ``python bench/solver.py [--puzzles FILE] [--bench-venv DIR] [--resolver-timeout S]
[--no-resolver] [--no-big]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from ddzspec.solver.movegen import move_set

from ddzspec.cards import N_RANKS, parse_cards
from ddzspec.rules import load_rules
from ddzspec.solver import make_position, position_from_puzzle, solve

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--puzzles", type=Path, default=DEFAULT_PUZZLES)
    ap.add_argument("--bench-venv", type=Path, default=None,
                    help="a venv with doudizhu-resolver installed, for the comparison")
    ap.add_argument("--resolver-timeout", type=float, default=900.0)
    ap.add_argument("--no-resolver", action="store_true")
    ap.add_argument("--no-big", action="store_true")
    args = ap.parse_args()

    classic = load_rules("classic")
    t = time.perf_counter()
    move_set(classic)
    print(f"move set of classic: {move_set(classic).n_moves:,} moves indexed in "
          f"{time.perf_counter() - t:.2f} s (once per process)\n")

    records = [json.loads(x) for x in args.puzzles.read_text().splitlines() if x.strip()]
    print(f"{'puzzle':<12}{'cards':>7}  {'winner':<8}{'agrees':<8}{'seconds':>9}"
          f"{'nodes':>11}{'nodes/s':>11}")
    ours: dict[str, float] = {}
    for rec in records:
        pos = position_from_puzzle(rec, classic)
        res = solve(pos, want="all")
        winner = {"landlord": "first", "peasants": "second"}.get(res.winner or "", "?")
        agrees = (winner == rec["winner"] and multisets(list(res.winning_moves or ()))
                  == multisets(rec["winning_moves"]))
        ours[rec["id"]] = res.seconds
        cards = f"{len(pos.hands[0])}v{len(pos.hands[1])}"
        nps = res.nodes / res.seconds if res.seconds else 0
        print(f"{rec['id']:<12}{cards:>7}  {winner:<8}{'yes' if agrees else 'NO':<8}"
              f"{res.seconds:>9.3f}{res.nodes:>11,}{nps:>11,.0f}")
    print(f"total {sum(ours.values()):.2f} s, slowest {max(ours.values()):.3f} s\n")

    if not args.no_big:
        print(f"{'position':<22}{'cards':>9}  {'want':<7}{'winner':<9}{'seconds':>9}"
              f"{'nodes':>11}{'nodes/s':>11}")
        for name, rname, hands, to_move, want in BIG:
            pos = make_position(load_rules(rname), hands, to_move)
            res = solve(pos, want=want, seconds=120)  # type: ignore[arg-type]
            cards = "v".join(str(len(h)) for h in pos.hands)
            nps = res.nodes / res.seconds if res.seconds else 0
            extra = f"  score {res.score}" if res.score else ""
            print(f"{name:<22}{cards:>9}  {want:<7}{res.winner or res.status:<9}"
                  f"{res.seconds:>9.3f}{res.nodes:>11,}{nps:>11,.0f}{extra}")
        print()

    python = None if args.bench_venv is None else args.bench_venv / "bin" / "python"
    if args.no_resolver:
        pass
    elif python is None or not python.is_file():
        where = "given" if python is None else f"at {args.bench_venv}"
        print(f"doudizhu-resolver: no bench environment {where} "
              "(create one: python -m venv DIR && DIR/bin/pip install doudizhu-resolver; "
              "then --bench-venv DIR)")
    else:
        check = subprocess.run([str(python), "-c", "import doudizhu_resolver"],
                               capture_output=True, text=True, check=False)
        if check.returncode != 0:
            print("doudizhu-resolver cannot be imported in the bench environment: "
                  + check.stderr.strip().splitlines()[-1])
        else:
            print("doudizhu-resolver 0.1.2 (pure Python, bench environment only) on the "
                  "puzzles of at most 7 v 6 cards:")
            print(f"{'puzzle':<12}{'cards':>7}{'resolver s':>12}{'ours s':>10}{'ratio':>10}"
                  "  sets agree")
            for rec in records:
                a, b = (len(rec["hands"]["first"]), len(rec["hands"]["second"]))
                if max(a, b) > 7 or min(a, b) > 6:
                    continue
                got = run_resolver(python, rec, args.resolver_timeout)
                if "error" in got:
                    print(f"{rec['id']:<12}{a:>4}v{b:<2}  {got['error']}")
                    continue
                agree = got["moves"] == multisets(rec["winning_moves"])
                mine = ours[rec["id"]]
                ratio = got["seconds"] / mine if mine else float("inf")
                print(f"{rec['id']:<12}{a:>4}v{b:<2}{got['seconds']:>12.3f}{mine:>10.4f}"
                      f"{ratio:>9,.0f}x  {'yes' if agree else 'NO: ' + str(got['moves'])}",
                      flush=True)
            print()

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory (max RSS of this process): {peak / 1024:.0f} MiB")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
