"""Benchmark of variants. Prints figures; asserts nothing.

Per shipped rules file (classic, kawu, duel, duel-literal — seeds 000/002, 004, 003):
- cold compile: ``ddzspec.table.get_table`` with an empty cache (compile + write the cache);
- warm check, in process: load the rules file and its table from the disk cache (memory cleared),
  count per type and list the ambiguous moves — the work of ``ddzspec check``;
- warm check as a user runs it: ``python -m ddzspec check RULES --json`` (whole process);
- the number of legal moves (and ambiguous ones).
Then ``diff classic kawu`` warm, in process and as a whole process.

Goals: each cold compile < 20 s, each warm check < 1 s, diff < 2 s warm.
Run: ``python bench/variants.py``. Uses a temporary ``DDZSPEC_CACHE_DIR``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time


def _process(args: list[str], cache: str) -> float:
    """Wall time of one ``python -m ddzspec ARGS`` run; raises if it fails (exit 2)."""
    env = {**os.environ, "DDZSPEC_CACHE_DIR": cache}
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ddzspec", *args], env=env, check=False,
                          capture_output=True, text=True)
    took = time.perf_counter() - t
    if done.returncode not in (0, 1):
        raise SystemExit(f"ddzspec {' '.join(args)} failed: {done.stderr}")
    return took


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="ddzspec-bench-") as cache:
        os.environ["DDZSPEC_CACHE_DIR"] = cache
        run(cache)


def run(cache: str) -> None:
    """Print the figures, with the table cache in ``cache`` (empty at first)."""
    from ddzspec import table as table_mod
    from ddzspec.diff import diff_rules
    from ddzspec.rules import builtin_rules, load_rules

    print(f"{'rules':<14}{'cold compile':>14}{'warm check':>13}{'check (process)':>17}"
          f"{'legal moves':>13}{'ambiguous':>11}")
    for name in builtin_rules():
        rules = load_rules(name)
        table_mod._LOADED.clear()
        t = time.perf_counter()
        table_mod.get_table(rules)
        cold = time.perf_counter() - t
        best = float("inf")
        for _ in range(3):
            table_mod._LOADED.clear()
            t = time.perf_counter()
            table = table_mod.get_table(load_rules(name))
            table.by_type()
            amb = table.ambiguous_readings()
            best = min(best, time.perf_counter() - t)
        proc = min(_process(["check", name, "--json"], cache) for _ in range(3))
        print(f"{name:<14}{cold:>12.2f} s{best * 1000:>10.0f} ms{proc:>15.2f} s"
              f"{len(table):>13,}{len(amb):>11}")

    a, b = load_rules("classic"), load_rules("kawu")
    best = float("inf")
    for _ in range(3):
        table_mod._LOADED.clear()
        t = time.perf_counter()
        d = diff_rules(a, b)
        best = min(best, time.perf_counter() - t)
    proc = min(_process(["diff", "classic", "kawu"], cache) for _ in range(3))
    print(f"diff classic kawu (warm): {best * 1000:.0f} ms in process (tables from the disk "
          f"cache), {proc:.2f} s as a whole process; {sum(d.total.values()):,} differing "
          f"multisets")


if __name__ == "__main__":
    main()
