"""Benchmark of legal moves with wild cards (laizi, issue 26). Prints figures; asserts nothing.

For N random 20-card hands holding the 4 cards of a random wild rank (so 4 wild cards and 16
natural cards): the time of :func:`ddzspec.wildmoves.wild_legal_moves` for a lead and for an
answer to a random move (a play drawn from another random hand's leads, as the policy reads
it), median and max per hand, with the number of plays (a lead also a second time: the
reading objects of a hand seen before are memoised); beside it, the general path the fast
one replaces (:func:`ddzspec.wildmoves.chosen_moves`: the policy applied to every reading of
every play; same plays, checked here), and the same hands with the wild cards made natural
(classic rules, :func:`ddzspec.moves.legal_moves`, the natural reading of the same move to
answer). Times are wall-clock (``perf_counter``) and process CPU time; the load average is
printed with them (the machine may be shared).

Run: ``python bench/wild_moves.py [--hands 40] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sized
from typing import Any


def _timed(f: Callable[..., Sized], *args: Any) -> tuple[float, float, Sized]:
    t, c = time.perf_counter(), time.process_time()
    got = f(*args)
    return time.perf_counter() - t, time.process_time() - c, got


def _line(what: str, wall: list[float], cpu: list[float], counts: list[int]) -> str:
    return (f"{what:<34} median {statistics.median(wall) * 1e3:7.2f} ms  max "
            f"{max(wall) * 1e3:7.1f} ms  (CPU median {statistics.median(cpu) * 1e3:7.2f} ms)"
            f"   moves: median {statistics.median(counts):5.0f}, max {max(counts)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    from ddzspec.cards import N_RANKS, Cards
    from ddzspec.moves import legal_moves
    from ddzspec.rules import load_rules
    from ddzspec.wildmoves import chosen_moves, wild_legal_moves

    laizi = load_rules("laizi")
    classic = load_rules("classic")
    assert laizi.wild is not None
    ranks = laizi.wild.draws[0].ranks
    rng = random.Random(args.seed)

    def deal(rank: int) -> Cards:
        rest = [i for i in range(N_RANKS) if i != rank for _ in range(laizi.deck[i])]
        counts = [0] * N_RANKS
        for i in rng.sample(rest, 16) + [rank] * 4:
            counts[i] += 1
        return Cards(tuple(counts))

    for _ in range(64):  # warm the natural index: its table-backed fast path (moves.py)
        legal_moves(deal(0), rules=classic)
    wild_legal_moves(deal(0), 0, laizi)  # and the wild one's (the move table by body)
    keys = ("lead", "lead again", "lead general", "lead natural", "answer", "answer general",
            "answer natural")
    rows: dict[str, tuple[list[float], list[float], list[int]]] = {
        k: ([], [], []) for k in keys}
    differ = 0

    def add(key: str, got: tuple[float, float, Sized]) -> Sized:
        rows[key][0].append(got[0])
        rows[key][1].append(got[1])
        rows[key][2].append(len(got[2]))
        return got[2]

    for _ in range(args.hands):
        rank = rng.choice(ranks)
        hand = deal(rank)
        prev = rng.choice(wild_legal_moves(deal(rank), rank, laizi)).reading
        fast = add("lead", _timed(wild_legal_moves, hand, rank, laizi))
        add("lead again", _timed(wild_legal_moves, hand, rank, laizi))
        differ += fast != add("lead general", _timed(chosen_moves, hand, rank, laizi))
        add("lead natural", _timed(legal_moves, hand, None, classic))
        fast = add("answer", _timed(wild_legal_moves, hand, rank, laizi, prev))
        differ += fast != add("answer general", _timed(chosen_moves, hand, rank, laizi, prev))
        add("answer natural", _timed(legal_moves, hand, prev.reading, classic))
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"legal moves, {args.hands} random 20-card hands holding 4 wild cards (laizi, "
          f"policy {laizi.wild.policy.value}; seed {args.seed}; load average {load}):")
    labels = {"lead": "lead, 4 wild cards",
              "lead again": "lead, the same hand again",
              "lead general": "lead, general path (before)",
              "lead natural": "lead, the same cards natural",
              "answer": "answer, 4 wild cards",
              "answer general": "answer, general path (before)",
              "answer natural": "answer, the same cards natural"}
    for key in keys:
        print(_line(labels[key], *rows[key]))
    print(f"calls where the fast and general paths differ: {differ}")


if __name__ == "__main__":
    main()
