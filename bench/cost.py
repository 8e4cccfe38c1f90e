"""Cost grows with what is asked: legal moves of one hand cost what that hand can
play, never the whole table of a rules file; ``check`` of a large table stays in bounded memory.

Prints, per rules file (classic and ``trio_ten``: classic plus the valid rule
``trio_ten = 3 x 1 + 10 single``, whose table has about 1.9 M moves):

- legal moves, cold: a fresh process with an empty table cache runs ``legal_moves`` on random
  20-card hands, generated from each hand (no table is compiled): median and max ms per hand,
  the first call included, and the process's peak RSS;
- ``ddzspec check`` of trio_ten, cold (empty cache): wall time and peak RSS of the process.

Goals: ≤ 50 ms and ≤ 500 MiB per 20-card hand; check in bounded memory. Wall times depend on
the machine's load: the CPU times (``time.process_time``) are printed beside them.
Usage: ``python bench/cost.py [--hands N] [--no-check]``
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TRIO_TEN = ('rules trio_ten "classic with a trio and ten singles" extends classic\n'
            'shapes { trio_ten = 3 x 1 + 10 single }\n')

CHILD = r'''
import json, random, resource, statistics, sys, time
from ddzspec.cards import N_RANKS, Cards
from ddzspec.moves import FAST_PATH_AFTER_CALLS, legal_moves, move_index
from ddzspec.rules import load_rules
from ddzspec import table
rules = load_rules(sys.argv[1])
n = int(sys.argv[2])
rng = random.Random(8)
deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
times, cpu, moves = [], [], []
idx = move_index(rules)
for _ in range(n):
    counts = [0] * N_RANKS
    for i in rng.sample(deck, 20):
        counts[i] += 1
    idx._calls = 0  # measure the per-hand path only: never switch to a compiled table
    t, c = time.perf_counter(), time.process_time()
    got = legal_moves(Cards(tuple(counts)), rules=rules)
    times.append(1000 * (time.perf_counter() - t))
    cpu.append(1000 * (time.process_time() - c))
    moves.append(len(got))
assert not table._LOADED, "a table was compiled"
print(json.dumps({"median_ms": statistics.median(times), "max_ms": max(times),
                  "cpu_median_ms": statistics.median(cpu), "cpu_max_ms": max(cpu),
                  "first_ms": times[0], "moves": statistics.median(moves),
                  "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
'''


def child_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--no-check", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        trio = Path(d) / "trio_ten.rules"
        trio.write_text(TRIO_TEN)
        env = dict(os.environ, DDZSPEC_CACHE_DIR=str(Path(d) / "cache"))
        print(f"legal moves, cold, {args.hands} random 20-card hands (no table compiled)")
        print(f"{'rules':10} {'median ms':>10} {'max ms':>8} {'cpu median':>11} {'cpu max':>8} "
              f"{'first ms':>9} {'moves':>7} {'peak RSS MiB':>13}")
        for name, path in (("classic", "classic"), ("trio_ten", str(trio))):
            out = subprocess.run([sys.executable, "-c", CHILD, path, str(args.hands)], env=env,
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out)
            print(f"{name:10} {r['median_ms']:10.1f} {r['max_ms']:8.1f} "
                  f"{r['cpu_median_ms']:11.1f} {r['cpu_max_ms']:8.1f} {r['first_ms']:9.1f} "
                  f"{r['moves']:7.0f} {r['rss_mib']:13.0f}")
        if args.no_check:
            return
        t = time.perf_counter()
        res = subprocess.run([sys.executable, "-m", "ddzspec", "check", str(trio), "--json"],
                             check=False, env=env, capture_output=True, text=True)
        secs = time.perf_counter() - t
        data = json.loads(res.stdout)
        print(f"check trio_ten, cold: {secs:.1f} s, peak RSS {child_rss_mib():.0f} MiB, "
              f"{data['moves']:,} legal moves, {len(data['ambiguous'])} ambiguous, "
              f"exit {res.returncode}")


if __name__ == "__main__":
    main()
