"""The endgame solver on every puzzle of tests/data/puzzles/two_seat.jsonl (public sources: its
README): the winner and the complete set of winning moves; the solver's doctests."""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path

import pytest

from ddzspec.cards import parse_cards
from ddzspec.solver import position_from_puzzle, solve

PUZZLES = Path(__file__).resolve().parents[1] / "data" / "puzzles" / "two_seat.jsonl"


def _records() -> list[dict]:
    """Every puzzle record; a missing file fails (an error at collection), never skips."""
    text = PUZZLES.read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


RECORDS = _records()


def as_multisets(moves) -> list:
    """Winning moves as comparable multisets (the puzzles write 8883 where we write 888+3)."""
    return sorted(("PASS",) if m == "PASS" else parse_cards(m).cards.counts for m in moves)


@pytest.mark.parametrize("record", RECORDS, ids=[r["id"] for r in RECORDS])
def test_shared_puzzle(record: dict) -> None:
    pos = position_from_puzzle(record)
    res = solve(pos, want="all", seconds=30)
    assert res.status == "solved"
    winner = {"landlord": "first", "peasants": "second"}[res.winner]
    assert winner == record["winner"]
    assert as_multisets(res.winning_moves) == as_multisets(record["winning_moves"])
    assert res.to_move_wins == (record["winner"] == "first")
    # the line of best play starts with a winning move when the side to move wins
    if res.to_move_wins:
        assert res.line[0].cards in res.winning_moves


def test_puzzle_count() -> None:
    assert len(RECORDS) == 21
    assert len({r["id"] for r in RECORDS}) == 21 and all(r["source"] for r in RECORDS)


@pytest.mark.parametrize("module", ["ddzspec.solver", "ddzspec.solver.position",
                                    "ddzspec.solver.search", "ddzspec.solver.movegen",
                                    "ddzspec.solver.cli"])
def test_solver_doctests(module: str) -> None:
    # the solver's modules live in the top-level solver/ folder, which pytest does not collect
    # (it would import them a second time, as a package "solver"): run their doctests here
    mod = importlib.import_module(module)
    res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0
    if module in ("ddzspec.solver", "ddzspec.solver.position", "ddzspec.solver.cli"):
        assert res.attempted > 0


def test_the_bench_reads_the_puzzles_of_the_repository() -> None:
    import runpy
    bench = runpy.run_path(str(PUZZLES.parents[3] / "bench" / "solver.py"), run_name="bench")
    assert bench["DEFAULT_PUZZLES"] == PUZZLES and PUZZLES.is_file()


@pytest.mark.parametrize(("hand", "fewest"), [
    ("", 0), ("3", 1), ("BR", 1), ("3333", 1), ("34567", 1), ("334455", 1),
    ("333344", 1),   # four_two_singles 3333+4+4 (seed 000: four with two)
    ("3345", 3),     # 33, 4, 5: no straight under five cards (seed 000)
    ("33345", 2),    # 333+4 and 5 (or 333+5 and 4)
    ("3456789TJQKA2", 2),  # the 2 never joins a straight (seed 000): 3…A and 2
])
def test_the_fewest_plays_of_a_hand_worked_by_hand(hand: str, fewest: int) -> None:
    """MoveSet.plays, the solver's move ordering: the fewest classic moves that
    play the hand out exactly."""
    from ddzspec.solver.movegen import move_set

    from ddzspec.cards import pack
    from ddzspec.rules import load_rules
    ms = move_set(load_rules("classic"))
    packed = pack(parse_cards(hand).cards.counts) if hand else 0
    pool = ms.info(packed).leads if hand else ()
    assert ms.plays(packed, pool) == fewest
