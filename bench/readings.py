"""Benchmark of readings. Prints figures; asserts nothing.

- cold ``ddzspec check`` (empty table cache) and warm (cached), as a user runs them;
- table lookups per second over 100,000 random legal moves (Cards → Reading);
- CSP reading time per move (python-constraint2), over random legal and random illegal multisets.

Goals: warm check < 1 s, >= 1,000,000 lookups/s, cold compile < 20 s, CSP <= 2 ms.
Run: ``python bench/readings.py [--rules classic]``.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time


def timed_check(rules: str, cache: str) -> float:
    env = {**os.environ, "DDZSPEC_CACHE_DIR": cache}
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ddzspec", "check", "--rules", rules, "--json"],
                   env=env, check=False, capture_output=True)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--n", type=int, default=100_000)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        cold = timed_check(args.rules, cache)
        warm = min(timed_check(args.rules, cache) for _ in range(3))
    print(f"check {args.rules}: cold {cold:.2f} s (compile + cache), warm {warm:.3f} s "
          "(whole process, best of 3)")

    from ddzspec.cards import Cards
    from ddzspec.readings import solve_readings
    from ddzspec.rules import load_rules
    from ddzspec.table import compile_table, get_table

    rules = load_rules(args.rules)
    t = time.perf_counter()
    compile_table(rules)
    print(f"compile_table in-process: {time.perf_counter() - t:.2f} s")
    table = get_table(rules)
    rng = random.Random(1)
    keys = list(table.entries)
    sample = [Cards.from_key(rng.choice(keys)) for _ in range(args.n)]
    for c in sample:  # memoise Readings once, as a long-running program would
        table.lookup(c)
    lookup = table.lookup
    t = time.perf_counter()
    for c in sample:
        lookup(c)
    dt = time.perf_counter() - t
    print(f"table lookups (Cards -> Reading): {args.n / dt:,.0f} /s over {args.n:,} random "
          "legal moves")
    packed = [c.key for c in sample]
    t = time.perf_counter()
    for k in packed:
        lookup(k)
    dt = time.perf_counter() - t
    print(f"table lookups (packed key -> Reading): {args.n / dt:,.0f} /s")
    entries = table.entries
    t = time.perf_counter()
    for k in packed:
        entries.get(k)
    dt = time.perf_counter() - t
    print(f"raw dict lookups (packed key -> entry): {args.n / dt:,.0f} /s")

    legal = [Cards.from_key(rng.choice(keys)) for _ in range(2000)]
    t = time.perf_counter()
    for c in legal:
        solve_readings(c.counts, rules)
    per = (time.perf_counter() - t) / len(legal) * 1000
    print(f"CSP reading, random legal moves: {per:.3f} ms per move (n={len(legal)})")
    deck = [i for i, c in enumerate(rules.deck) for _ in range(c)]
    illegal = []
    while len(illegal) < 2000:
        counts = [0] * 15
        for i in rng.sample(deck, rng.randint(2, 20)):
            counts[i] += 1
        illegal.append(Cards(tuple(counts)))
    t = time.perf_counter()
    for c in illegal:
        solve_readings(c.counts, rules)
    per = (time.perf_counter() - t) / len(illegal) * 1000
    print(f"CSP reading, random multisets (mostly illegal): {per:.3f} ms per move "
          f"(n={len(illegal)})")


if __name__ == "__main__":
    main()
