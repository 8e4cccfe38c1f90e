"""Benchmark of the execution layer: throughput with 1 and 2 workers, and through a
real ``dask scheduler`` with two ``dask worker`` processes on 127.0.0.1.

- balance: ``--deals`` computer deals of classic (levels 2,2,2), deals/s;
- puzzles: ``--candidates`` puzzle candidates (3 seats, 7,6,6 cards, random splits), each
  solved and judged, solves/s.

Each run prints the wall time with the cluster's start-up and the steady rate (tasks after the
first, over the time from the first row to the last: the start-up and the workers' warm-up
left out; a task is a block of 10 deals or candidates), and the speed-up of 2 workers over 1.
The in-process run also gives the CPU seconds per unit, which the load does not change much:
what one core does per hour. The load of the machine (``os.getloadavg``, as ``uptime``) is
printed before and after: on a shared, loaded machine the speed-up is a lower bound.

Usage: ``python bench/scale.py [--deals N] [--candidates N] [--no-dask-cluster]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from ddzspec.balance import BLOCK, deal_task
from ddzspec.execute import RunStats, Task, run
from ddzspec.execute import rules_ref as ref_of
from ddzspec.puzzles import candidate_task
from ddzspec.rules import load_rules

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))
from run_helpers import dask_processes  # the tests' helper


def uptime() -> str:
    """The load averages (1, 5, 15 minutes) of the machine."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f}, {five:.2f}, {fifteen:.2f} on {os.cpu_count()} cores"


def measure(tasks: list[Task], **where: Any) -> tuple[float, float, RunStats, float]:
    """(wall seconds, steady rows/s, stats, CPU seconds of this process) of one run of
    ``tasks``."""
    stamps: list[float] = []
    st = RunStats()
    t0, c0 = time.perf_counter(), time.process_time()
    run(tasks, stats=st, quiet=True, on_row=lambda _r: stamps.append(time.perf_counter()),
        **where)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    steady = (len(stamps) - 1) / (stamps[-1] - stamps[0]) if len(stamps) > 1 and \
        stamps[-1] > stamps[0] else float("nan")
    return wall, steady, st, cpu


def dask_cluster_run(tasks: list[Task]) -> tuple[float, float, RunStats, float]:
    """Start ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, run
    ``tasks`` through them, stop them."""
    with dask_processes(2) as (address, _):
        return measure(tasks, scheduler=address)


def report(name: str, unit: str, tasks: list[Task], per_task: int, dask_cluster: bool) -> None:
    """Print the runs of ``tasks`` (``per_task`` units each) with 1 and 2 workers (and
    through a real cluster)."""
    print(f"\n{name}: {len(tasks)} tasks of {per_task}")
    n = len(tasks) * per_task
    rates = {}
    for label, where in (("1 worker (in process)", {"workers": 1}),
                         ("2 workers (LocalCluster)", {"workers": 2})):
        wall, steady, st, cpu = measure(tasks, **where)
        rates[label] = (wall, steady)
        print(f"  {label:<34} {wall:7.1f} s wall, {n / wall:7.2f} {unit}/s overall, "
              f"{per_task * steady:7.2f} {unit}/s steady ({st.backend})")
        if st.backend == "inline":
            print(f"  {'':<34} {1000 * cpu / n:7.1f} ms CPU per {unit[:-1]}: "
                  f"{3600 * n / cpu:,.0f} {unit} per core-hour")
    (w1, s1), (w2, s2) = rates.values()
    print(f"  speed-up of 2 workers: {w1 / w2:.2f}x overall, {s2 / s1:.2f}x steady "
          "(a lower bound: the machine is shared and loaded)")
    if dask_cluster:
        wall, steady, st, _ = dask_cluster_run(tasks)
        print(f"  {'dask scheduler + 2 dask workers':<34} {wall:7.1f} s wall, "
              f"{n / wall:7.2f} {unit}/s overall, {per_task * steady:7.2f} {unit}/s steady "
              f"({st.backend})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=400, help="A multiple of 10.")
    ap.add_argument("--candidates", type=int, default=200, help="A multiple of 10.")
    ap.add_argument("--no-dask-cluster", action="store_true",
                    help="Skip the run through a real dask scheduler and workers.")
    a = ap.parse_args()
    print(f"before: {uptime()}")
    classic = ref_of(load_rules("classic"))
    deals = [Task.of(f"deals {k:08d}", deal_task, rules=classic, levels=[2, 2, 2], seed=0, k=k,
                     count=BLOCK) for k in range(0, a.deals, BLOCK)]
    report("balance (classic, levels 2,2,2)", "deals", deals, BLOCK, not a.no_dask_cluster)
    cands = [Task.of(f"candidates {i:08d}", candidate_task, rules=classic, sizes=[7, 6, 6],
                     seed=0, i=i, source="random", seconds=10.0, count=BLOCK)
             for i in range(0, a.candidates, BLOCK)]
    report("puzzles (classic, 3 seats, 7,6,6, random)", "solves", cands, BLOCK,
           not a.no_dask_cluster)
    print(f"\nafter: {uptime()}")


if __name__ == "__main__":
    main()
