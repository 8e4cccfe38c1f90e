"""What a ``check`` of tiandi laizi (two wild ranks, up to 8 wild cards) would enumerate, next
to laizi's (one rank, up to 4). Prints figures; asserts nothing.

``ddzspec check`` of a wild file runs backwards from the natural move table
(:mod:`ddzspec.wildcheck`): every legal natural move ``m`` and every choice of at most ``most``
of its non-joker cards to be wild. This script counts those choices (the loop's iterations)
and the distinct wild moves (natural cards, wild count) they reach (the dictionary the check
holds per size class), for ``most`` = 4 (laizi) and 8 (tiandi), without the long bombs (5 to
12 cards of one rank: 13 ranks x 8 lengths x natural parts, a few thousand more).
Run: ``python bench/tiandi_check.py``.
"""

from __future__ import annotations

import time

from ddzspec.cards import KEY_BITS, N_RANKS, unpack
from ddzspec.rules import load_rules
from ddzspec.table import get_table


def main() -> None:
    rules = load_rules("tiandi")
    table = get_table(rules)
    wildable = [i for i in range(N_RANKS) if rules.deck[i] and i not in rules.jokers]
    print(f"natural moves: {len(table.entries):,}")
    for most in (4, 8):
        t = time.perf_counter()
        pairs, biggest = 0, 0
        by_size: dict[int, set[int]] = {}
        for mkey in table.entries:
            counts = unpack(mkey)
            ks = [(0, 0)]
            for i in wildable:
                c = counts[i]
                if c:
                    sh = KEY_BITS * i
                    ks = [(kk + (x << sh), w + x) for kk, w in ks
                          for x in range(min(c, most - w) + 1)]
            pairs += len(ks)
            seen = by_size.setdefault(sum(counts), set())
            seen.update(((mkey - kk) << KEY_BITS) | w for kk, w in ks)
        for s in by_size.values():
            biggest = max(biggest, len(s))
        keys = sum(len(s) for s in by_size.values())
        print(f"at most {most} wild cards: {pairs:,} (move, wild choice) pairs, {keys:,} "
              f"distinct wild moves (largest size class {biggest:,}), "
              f"{time.perf_counter() - t:.1f} s to enumerate")


if __name__ == "__main__":
    main()
