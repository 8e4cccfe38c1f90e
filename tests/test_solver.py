"""The endgame solver on every shared puzzle (../shared/puzzles/two_seat.jsonl): the winner and
the complete set of winning moves, plus the position format's errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ddzspec.cards import parse_cards
from solver import position_from_puzzle, solve

PUZZLES = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "two_seat.jsonl"
if not PUZZLES.is_file():  # the repository checked out elsewhere: look beside the working tree
    PUZZLES = Path("/work/shared/puzzles/two_seat.jsonl")


def _records() -> list[dict]:
    if not PUZZLES.is_file():
        return []
    return [json.loads(line) for line in PUZZLES.read_text().splitlines() if line.strip()]


RECORDS = _records()


def as_multisets(moves) -> list:
    """Winning moves as comparable multisets (the puzzles write 8883 where we write 888+3)."""
    return sorted(("PASS",) if m == "PASS" else parse_cards(m).cards.counts for m in moves)


@pytest.mark.skipif(not RECORDS, reason="shared puzzles not found")
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
    if RECORDS:
        assert len(RECORDS) == 21
