"""The named restrictions: one predicate each, shared by the CSP and the table compiler.

Each predicate sees one *candidate reading* — a shape, the played counts (15 per rank), the
body's rank indices and the remainder (the kickers' counts) — and says whether it holds.
Seeds: 000/002 (classic: restrictions 1–4), 004 (kawu: distinct kicker ranks), 003 (duel).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .rules import Restriction, Rules, Shape

Predicate = Callable[["Rules", Shape, Sequence[int], Sequence[int], Sequence[int], "int | None"],
                     bool]


def quad_block(rules: Rules, shape: Shape, counts: Sequence[int], body: Sequence[int],
               rem: Sequence[int], param: int | None) -> bool:
    """Restrictions 1–2 (seeds 000/002): four cards of a rank are used as one block — a whole
    four-card body — and the joker pair only as the rocket (both jokers in the body)."""
    for i, c in enumerate(counts):
        if c >= 4 and (shape.copies != 4 or i not in body):
            return False
    jk = rules.jokers
    if len(jk) >= 2 and all(counts[j] for j in jk) and not all(j in body for j in jk):
        return False
    return True


def kicker_not_body_rank(rules: Rules, shape: Shape, counts: Sequence[int],
                         body: Sequence[int], rem: Sequence[int], param: int | None) -> bool:
    """Restriction 3 (seeds 000/002, 003, 004): a kicker never has a body rank."""
    return all(rem[i] == 0 for i in body)


def kicker_rank_max(rules: Rules, shape: Shape, counts: Sequence[int], body: Sequence[int],
                    rem: Sequence[int], param: int | None) -> bool:
    """Restriction 4 (seeds 000/002): no rank more than N (2) times among the kickers."""
    assert param is not None
    return max(rem) <= param


def jokers_not_both_kickers(rules: Rules, shape: Shape, counts: Sequence[int],
                            body: Sequence[int], rem: Sequence[int], param: int | None) -> bool:
    """Restriction 4 (seeds 000/002; also 003, 004): the two jokers are never both kickers
    (one joker may be)."""
    jk = rules.jokers
    return len(jk) < 2 or sum(1 for j in jk if rem[j]) < len(jk)


def distinct_kicker_ranks(rules: Rules, shape: Shape, counts: Sequence[int],
                          body: Sequence[int], rem: Sequence[int], param: int | None) -> bool:
    """Seed 004 (kawu): the kicker units of one move all have different ranks — single wings
    all different, pair wings all different, four + two singles / two pairs of different ranks."""
    unit = 2 if shape.kicker_kind == "pair" else 1
    return all(c <= unit for c in rem)


PREDICATES: dict[str, Predicate] = {
    "quad_block": quad_block,
    "kicker_not_body_rank": kicker_not_body_rank,
    "kicker_rank_max": kicker_rank_max,
    "jokers_not_both_kickers": jokers_not_both_kickers,
    "distinct_kicker_ranks": distinct_kicker_ranks,
}

#: Plain words for ``explain``.
WORDS: dict[str, str] = {
    "quad_block": "four cards of a rank are played only as one whole four-card body, and the "
                  "two jokers together only as the rocket (restrictions 1-2, seeds 000/002)",
    "kicker_not_body_rank": "a kicker never has the rank of the body (restriction 3, seeds "
                            "000/002)",
    "kicker_rank_max": "no rank appears more than {n} times among the kickers (restriction 4, "
                       "seeds 000/002)",
    "jokers_not_both_kickers": "the two jokers are never both kickers (restriction 4, seeds "
                               "000/002)",
    "distinct_kicker_ranks": "the kickers of one move all have different ranks (seed 004, kawu)",
}


def words(r: Restriction) -> str:
    """Plain-words statement of a restriction."""
    return WORDS[r.name].format(n=r.param)


def holds(r: Restriction, rules: Rules, shape: Shape, counts: Sequence[int],
          body: Sequence[int], rem: Sequence[int]) -> bool:
    """Whether restriction ``r`` holds for one candidate reading."""
    return PREDICATES[r.name](rules, shape, counts, body, rem, r.param)
