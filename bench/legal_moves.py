"""Benchmark of legal moves and the move table in one process: what the packed move key
(:data:`ddzspec.cards.KEY_BITS` bits a rank) costs where it is used most. Prints figures as
one JSON line; asserts nothing.

- ``compile_s``: the move table compiled from the rules (:func:`ddzspec.table.compile_table`),
  no cache; the median of ``--compiles`` runs (CPU seconds, ``time.process_time``);
- ``hand_*``: legal moves generated from each hand (no table in memory: the per-hand path of
  :class:`ddzspec.moves.MoveIndex`), leads of ``--hands`` random hands of ``--size`` cards;
- ``lead_*`` / ``answer_*``: the same hands with the compiled table in memory (the fast path,
  :class:`ddzspec.moves.TableIndex`): every lead, and every answer to one random lead of
  another random hand;
- each as the median and the max µs a hand (CPU time) and the loop's total CPU seconds;
  ``digest``: SHA-256 (16 hex) of every answer, to compare two copies of ddzspec (the same
  hands every run: ``--seed``).

Usage: ``python bench/legal_moves.py [--rules classic] [--hands N] [--size N] [--seed S]
[--compiles K]``. To compare two copies, run this file with each copy's interpreter in turn.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from ddzspec.cards import N_RANKS, Cards
from ddzspec.moves import legal_moves, move_index
from ddzspec.readings import Reading
from ddzspec.rules import load_rules
from ddzspec.table import compile_table, get_table


def _timed(name: str, calls: list[Callable[[], Sequence[Reading]]], digest: Any
           ) -> dict[str, float]:
    """Run each call once: median/max µs a call and their sum in seconds (CPU time; the
    answers are written into ``digest`` after each call's clock stops)."""
    per = []
    for call in calls:
        t = time.process_time()
        got = call()
        per.append(time.process_time() - t)
        digest.update(("|".join(m.format() for m in got) + "\n").encode())
    return {f"{name}_median_us": round(1e6 * statistics.median(per), 1),
            f"{name}_max_us": round(1e6 * max(per), 1),
            f"{name}_total_s": round(sum(per), 4)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--size", type=int, default=20)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--compiles", type=int, default=3)
    a = ap.parse_args()
    rules = load_rules(a.rules)
    rng = random.Random(a.seed)
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]

    def deal() -> Cards:
        counts = [0] * N_RANKS
        for i in rng.sample(deck, a.size):
            counts[i] += 1
        return Cards(tuple(counts))

    hands = [deal() for _ in range(a.hands)]
    others = [deal() for _ in range(a.hands)]
    out: dict[str, Any] = {"rules": a.rules, "hands": a.hands, "size": a.size}
    digest = hashlib.sha256()

    idx = move_index(rules)

    def per_hand(h: Cards) -> Callable[[], Sequence[Reading]]:
        def call() -> Sequence[Reading]:
            idx._calls = 0  # stay on the per-hand path: never switch to the compiled table
            return idx.leads(h.counts)
        return call
    out.update(_timed("hand", [per_hand(h) for h in hands], digest))

    times = []
    for _ in range(a.compiles):
        t = time.process_time()
        table = compile_table(rules)
        times.append(time.process_time() - t)
    out["compile_s"] = round(statistics.median(times), 3)
    out["moves"] = len(table)
    get_table(rules)  # into memory (from the cache or compiled): legal moves take the fast path

    previous = []
    for o in others:
        leads = legal_moves(o, rules=rules).moves
        previous.append(leads[rng.randrange(len(leads))])

    def lead(h: Cards) -> Callable[[], Sequence[Reading]]:
        return lambda: legal_moves(h, rules=rules).moves

    def answer(h: Cards, p: Reading) -> Callable[[], Sequence[Reading]]:
        return lambda: legal_moves(h, p, rules=rules).moves
    out.update(_timed("lead", [lead(h) for h in hands], digest))
    out.update(_timed("answer", [answer(h, p) for h, p in zip(hands, previous)], digest))
    out["digest"] = digest.hexdigest()[:16]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
