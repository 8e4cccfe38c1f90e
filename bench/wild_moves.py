"""Benchmark of legal moves with wild cards (laizi, issue 26). Prints figures; asserts nothing.

For N random 20-card hands holding the 4 cards of a random wild rank (so 4 wild cards and 16
natural cards): the time of :func:`ddzspec.wildmoves.wild_legal_moves` for a lead and for an
answer to a random move (a play drawn from another random hand's leads, as the policy reads
it), median and max per hand, with the number of plays; beside it, the same hands with the
wild cards made natural (classic rules, :func:`ddzspec.moves.legal_moves`, the natural reading
of the same move to answer).

Run: ``python bench/wild_moves.py [--hands 40] [--seed 1]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any


def _timed(f: Callable[..., Any], *args: Any, **kw: Any) -> tuple[float, int]:
    t = time.perf_counter()
    n = len(f(*args, **kw))
    return time.perf_counter() - t, n


def _line(what: str, times: list[float], counts: list[int]) -> str:
    return (f"{what:<34} median {statistics.median(times) * 1e3:8.1f} ms  max "
            f"{max(times) * 1e3:8.1f} ms   moves: median {statistics.median(counts):7.0f}, "
            f"max {max(counts)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    from ddzspec.cards import N_RANKS, Cards
    from ddzspec.moves import legal_moves
    from ddzspec.rules import load_rules
    from ddzspec.wildmoves import wild_legal_moves

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
    rows: dict[str, tuple[list[float], list[int]]] = {
        k: ([], []) for k in ("wild lead", "natural lead", "wild answer", "natural answer")}

    def add(key: str, got: tuple[float, int]) -> None:
        rows[key][0].append(got[0])
        rows[key][1].append(got[1])

    for _ in range(args.hands):
        rank = rng.choice(ranks)
        hand = deal(rank)
        other = wild_legal_moves(deal(rank), rank, laizi)
        prev = rng.choice(other).reading
        add("wild lead", _timed(wild_legal_moves, hand, rank, laizi))
        add("natural lead", _timed(legal_moves, hand, rules=classic))
        add("wild answer", _timed(wild_legal_moves, hand, rank, laizi, prev))
        add("natural answer", _timed(legal_moves, hand, prev.reading, rules=classic))
    print(f"legal moves, {args.hands} random 20-card hands holding 4 wild cards (laizi, "
          f"policy {laizi.wild.policy.value}; seed {args.seed}):")
    for key in ("wild lead", "natural lead", "wild answer", "natural answer"):
        label = {"wild lead": "lead, 4 wild cards",
                 "natural lead": "lead, the same cards natural",
                 "wild answer": "answer, 4 wild cards",
                 "natural answer": "answer, the same cards natural"}[key]
        print(_line(label, *rows[key]))


if __name__ == "__main__":
    main()
