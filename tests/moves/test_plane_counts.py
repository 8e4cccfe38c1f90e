"""The plane counts derived independently: pure combinatorics, nothing imported from ddzspec.

The figures pinned here are the ones the compiled tables give (tests/moves/test_table.py,
tests/rules/test_variants.py); this file enumerates the moves by brute force straight from the
seeds' words, so a compiler bug cannot also hide in the expected value.

Rules as the seeds state them:
- seeds 000/002 (classic): 13 ordinary ranks 3..2 in four suits and two jokers, one each;
  chains run 3..A (12 ranks); a plane is two or more consecutive trios of the chain, "avec
  ailes" one single per trio (plane + singles) or one pair per trio (plane + pairs); a move
  has at most 20 cards. Restrictions: (1-2) four cards of a rank are only ever one whole
  four-card body, and the two jokers together only the rocket; (3) a kicker never has a body
  rank; (4) no rank more than twice among the kickers, and the jokers never both kickers.
- seed 004 (kawu): classic, and the kicker units of one move all have different ranks.
- seed 003 (duel): the 3s and 4s removed (11 ordinary ranks 5..2), chains 5..A (10 ranks),
  classic restrictions.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

import pytest

JOKERS = ("B", "R")


def _variant(name: str) -> tuple[list[str], list[str], bool]:
    """(ordinary ranks low to high, chain ranks, kicker units of distinct ranks)."""
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    if name == "duel":
        ranks = ranks[2:]
    chain = ranks[:ranks.index("A") + 1]
    return ranks, chain, name == "kawu"


def _legal_kickers(kick: tuple[str, ...], body: set[str], distinct: bool, unit: int) -> bool:
    counts = {r: kick.count(r) for r in set(kick)}
    if any(r in body for r in counts):                       # restriction 3
        return False
    if any(c > 2 for c in counts.values()):                  # restriction 4
        return False
    if distinct and any(c > unit for c in counts.values()):  # seed 004
        return False
    if all(j in counts for j in JOKERS):                     # restrictions 2 and 4
        return False
    # one copy of each joker; no rank reaches 4 in the move (rule 1): bodies are trios
    return all(counts.get(j, 0) <= 1 for j in JOKERS)


def plane_counts(name: str) -> tuple[int, int]:
    """(plane + singles, plane + pairs) moves, each counted once per distinct multiset."""
    ranks, chain, distinct = _variant(name)
    singles: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    pairs: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
    for t in range(2, len(chain) + 1):
        for start in range(len(chain) - t + 1):
            body = chain[start:start + t]
            others = [r for r in ranks if r not in body]
            if 4 * t <= 20:
                for kick in combinations_with_replacement(others + list(JOKERS), t):
                    if _legal_kickers(kick, set(body), distinct, 1):
                        singles.add((tuple(body), tuple(sorted(kick))))
            if 5 * t <= 20:
                for kick in combinations_with_replacement(others, t):
                    doubled = tuple(r for r in kick for _ in range(2))
                    if _legal_kickers(doubled, set(body), distinct, 2):
                        pairs.add((tuple(body), kick))
    return len(singles), len(pairs)


@pytest.mark.parametrize(("name", "expected"), [
    ("classic", (18990, 2939)),   # seeds 000/002
    ("kawu", (7161, 2939)),       # seed 004: single wings of different ranks
    ("duel", (6080, 1017)),       # seed 003: 11 ordinary ranks, chains 5..A
])
def test_plane_counts(name: str, expected: tuple[int, int]) -> None:
    assert plane_counts(name) == expected


def test_a_closed_form_agrees_for_pairs() -> None:
    """Plane + pairs, by hand: t trios from c chain ranks (c - t + 1 starts), t pairs of
    distinct other ordinary ranks (two pairs of one rank would be four of a kind among the
    kickers: restriction 4), 5t <= 20 cards."""
    def closed(n: int, c: int) -> int:
        total = 0
        for t in range(2, 5):
            total += (c - t + 1) * len(list(combinations(range(n - t), t)))
        return total
    assert closed(13, 12) == 11 * 55 + 10 * 120 + 9 * 126 == 2939
    assert closed(11, 10) == plane_counts("duel")[1]
