"""Regression pin of levels 1 and 2's decisions, guarding the speed work on them.

The speed work (memoised hand plans, a cheaper move-index build, fewer Cards built per
decision) must change no decision. These tests pin what the players decided *before* that work
(commit 5a95d0e): a hand-checked regression pin, not an independent derivation — it exists to
catch a change of behaviour, and ``bench/decisions.py`` checks the same over 300 deals per
variant (digests in its module doc's last run). The planner's incremental cost is also checked
against the direct formula :func:`ddzspec.players.level2._cost` on random hands.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from ddzspec.cards import N_RANKS
from ddzspec.players import player_for
from ddzspec.players.arena import play_deal
from ddzspec.players.base import transcript
from ddzspec.players.level2 import _cost, _planner, _search, kit_of, plan
from ddzspec.rules import load_rules

#: sha256 of the transcripts of deals ``decisions:0`` … ``decisions:2`` (each preceded by
#: ``deal SEED``), every seat at the level, seats seeded ``decisions:K:SEAT`` — recorded with
#: the code of commit 5a95d0e, before the speed work.
PINNED = {
    (1, "classic"): "19f2375b60506b8bed5f5a82097a51dff88530c69691fb347a262163afb65d8f",
    (1, "kawu"): "19f2375b60506b8bed5f5a82097a51dff88530c69691fb347a262163afb65d8f",
    (1, "duel"): "59cfa862027b11d82d0daf6d590d79dd93152b20ad8135d55dbf8a5eff4e01ed",
    (2, "classic"): "07250203022825fb9d69a8444d706ad58beba73043dbd4385239a0d751f0ce2d",
    (2, "kawu"): "07250203022825fb9d69a8444d706ad58beba73043dbd4385239a0d751f0ce2d",
    (2, "duel"): "ed6f6f76b40702b84cdfdd0e51377338f69eb1cb6d30fcba4ed7cfe9fe66882f",
}


def _deal_text(level: int, name: str, k: int) -> str:
    rules = load_rules(name)
    seed = f"decisions:{k}"
    players = [player_for(level, f"{seed}:{s}") for s in range(rules.deal.players)]
    return f"deal {seed}\n" + transcript(play_deal(rules, players, seed))


@pytest.mark.parametrize(("level", "name"), sorted(PINNED))
def test_decisions_are_pinned(level: int, name: str) -> None:
    h = hashlib.sha256()
    for k in range(3):
        h.update(_deal_text(level, name, k).encode())
    assert h.hexdigest() == PINNED[level, name]


def test_a_duel_deal_of_level_2_in_full() -> None:
    """Read off the pre-speed-work code: seat 1 speaks first and does not call, seat 0 calls
    and is not robbed, then plays its plan (pairs, a trio with a pair, a straight, singles),
    keeps the lead with the big joker and goes out with 222+J."""
    text = _deal_text(2, "duel", 0)
    assert text.splitlines() == [
        "deal decisions:0",
        "1 call 0 -", "0 call 1 -", "1 rob 0 -",
        "0 play 0 55", "1 play 0 JJ", "0 play 0 QQ", "1 pass 0 -",
        "0 play 0 666AA", "1 play 0 55KKK", "0 pass 0 -",
        "1 play 0 6789T", "0 play 0 9TJQK", "1 pass 0 -",
        "0 play 0 7", "1 play 0 9", "0 play 0 R", "1 pass 0 -",
        "0 play 0 J222",
        "result landlord 0 [1, -1]",
    ]


@pytest.mark.parametrize("name", ["classic", "duel"])
def test_incremental_plan_cost_equals_the_direct_formula(name: str) -> None:
    """The memoised search builds each split's cost from its first unit and the rest; the
    value must be the direct formula's, to the last bit (ties decide between splits)."""
    rules = load_rules(name)
    kit = kit_of(rules)
    rng = random.Random(9)
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
    for _ in range(200):
        counts = [0] * N_RANKS
        for i in rng.sample(deck, rng.randint(1, 20)):
            counts[i] += 1
        split = _search(_planner(rules), tuple(counts))
        assert split[0] == _cost(kit, split[1])
        assert sorted(r for _kind, c, ranks in split[1] for r in ranks for _n in range(c)) == \
            sorted(i for i, c in enumerate(counts) for _ in range(c))
        p = plan(counts, rules)
        assert p is plan(tuple(counts), rules)  # memoised per hand
        assert p.cost == _cost(kit, p.units)


def test_prepare_builds_the_fast_index_with_the_tables_readings() -> None:
    """After ``prepare`` the legal moves come from the table index (no build left for a
    decision to pay), and every Reading of the index is the one the table's own lookup gives
    (equal to a fresh :meth:`MoveTable.reading_of`, and the very object ``lookup`` returns)."""
    from ddzspec.moves import move_index
    from ddzspec.players.base import prepare
    from ddzspec.table import get_table
    rules = load_rules("duel")
    prepare(rules)
    idx = move_index(rules)
    assert idx._fast is not None
    table = get_table(rules)
    fast = idx._fast
    assert len(fast.reading) == len(table.entries) == 8798
    for key, entry in table.entries.items():
        r = fast.reading[key]
        assert r == table.reading_of(key, entry)
        assert r is table.lookup(key)
