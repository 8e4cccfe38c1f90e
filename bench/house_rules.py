"""Benchmark of legal moves under the house rules on shapes. Prints figures; asserts nothing.

For classic and each house-rule file that changes legal moves (a declared chain order,
last-play-only shapes, restrictions for some shapes, consecutive wings) and the built-in
``happy``: legal moves of the same random 20-card hands leading and 17-card hands answering a
lead that every variant allows, through the move index as a game or a player calls it. The
variants are timed in turn within each round (the machine's noise falls on all of them
alike); the median of the rounds is printed, with its ratio to classic.

Goal: the house rules cost at most 10 % over classic (ratio ≤ 1.10).
Run: ``python bench/house_rules.py [--n 1000] [--rounds 7]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from game import random_hand  # bench/game.py: this script runs from bench/

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["classic", "examples/last-play-trio.rules", "examples/low-straights.rules",
            "examples/wings-no-twos.rules", "examples/consecutive-wings.rules",
            "examples/wrap-straights.rules", "happy"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=1000, help="hands per measurement")
    ap.add_argument("--rounds", type=int, default=7, help="rounds (each times every variant)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()

    os.environ.setdefault("DDZSPEC_CACHE_DIR", tempfile.mkdtemp(prefix="ddzspec-bench-"))
    from ddzspec.moves import move_index
    from ddzspec.rules import load_rules

    index = {name: move_index(load_rules(str(ROOT / name) if name.endswith(".rules") else name))
             for name in VARIANTS}
    rng = random.Random(args.seed)  # the same hands for every variant (one deck: classic's)
    deck = [i for i in range(15) for _ in range(4)] + [13, 14]
    leads = [random_hand(rng, deck, 20) for _ in range(args.n)]
    # the same moves to answer too: a random lead of a random hand that every variant allows
    # as a lead (each variant answers its own reading of those cards)
    answers: dict[str, list[tuple[list[int], object]]] = {name: [] for name in VARIANTS}
    while len(answers["classic"]) < args.n:
        h, other = random_hand(rng, deck, 17), random_hand(rng, deck, 20)
        by_cards = {name: {tuple(m.cards.counts): m for m in idx.leads(other)}
                    for name, idx in index.items()}
        key = tuple(rng.choice(index["classic"].leads(other)).cards.counts)
        if all(key in moves for moves in by_cards.values()):
            for name in VARIANTS:
                answers[name].append((h, by_cards[name][key]))
    work = {name: (index[name], leads, answers[name]) for name in VARIANTS}

    times: dict[str, tuple[list[float], list[float]]] = {n: ([], []) for n in VARIANTS}
    for _ in range(args.rounds):
        for name, (idx, leads, answers) in work.items():
            t = time.perf_counter()
            for h in leads:
                idx.leads(h)
            t_lead = time.perf_counter() - t
            t = time.perf_counter()
            for h, p in answers:
                idx.answers(h, p)
            t_answer = time.perf_counter() - t
            times[name][0].append(t_lead)
            times[name][1].append(t_answer)

    n = args.n
    base_l, base_a = (statistics.median(x) for x in times["classic"])
    print(f"legal moves, {n} hands, median of {args.rounds} interleaved rounds "
          "(µs per hand; ratio to classic)")
    for name in VARIANTS:
        lead, answer = (statistics.median(x) for x in times[name])
        print(f"  {name:34} leading 20 cards {1e6 * lead / n:6.1f} ({lead / base_l:4.2f})   "
              f"answering with 17 {1e6 * answer / n:6.1f} ({answer / base_a:4.2f})")


if __name__ == "__main__":
    main()
