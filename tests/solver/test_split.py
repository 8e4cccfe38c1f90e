"""Root splitting (solver/split.py, ``solve --workers N``): the same winner and winning moves as
one search, on the repo's puzzles and random 2- and 3-seat positions, in this process, in a
process pool and on a Dask cluster; limits, early stops and errors."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ddzspec.solver.split import child_task
from distributed import LocalCluster
from run_helpers import demo_task

from ddzspec.cards import N_RANKS, Cards
from ddzspec.execute import Task, stream
from ddzspec.puzzles import builtin_puzzles
from ddzspec.rules import load_rules
from ddzspec.solver import Position, make_position, position_from_puzzle, solve, solve_split

PUZZLES = Path(__file__).parents[1] / "data" / "puzzles"


def _puzzles() -> list[tuple[str, Position]]:
    """The repo's puzzles: tests/data/puzzles/*.jsonl (2 seats), then the 3-seat ones shipped
    in ddzspec/data/puzzles.jsonl."""
    out = []
    for f in sorted(PUZZLES.glob("*.jsonl")):
        for line in f.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                out.append((rec["id"], position_from_puzzle(rec)))
    out += [(p.id, p.position()) for p in builtin_puzzles() if p.position().n_seats == 3]
    return out


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A Dask LocalCluster of 2 single-thread worker processes, shared by the tests."""
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=":0", silence_logs=logging.CRITICAL)
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def _same(split: object, one: object) -> None:
    """The split answer agrees with the single search's: status, winner, the side to move,
    the set of winning moves."""
    assert split.status == one.status == "solved"  # type: ignore[attr-defined]
    assert split.winner == one.winner  # type: ignore[attr-defined]
    assert split.to_move_wins == one.to_move_wins  # type: ignore[attr-defined]
    assert split.winning_moves == one.winning_moves  # type: ignore[attr-defined]


def test_every_puzzle_split_on_two_workers_agrees_with_one_search(scheduler: str) -> None:
    puzzles = _puzzles()
    assert len(puzzles) >= 26  # 21 + 5 puzzles: a missing file fails here
    for name, pos in puzzles:
        one = solve(pos, want="all")
        split = solve_split(pos, want="all", scheduler=scheduler)
        _same(split, one)
        assert split.nodes > 0 and split.table_entries > 0, name
        # the line starts with the mover's first listed winning move (or its first play)
        assert split.line[0].seat == pos.seats[pos.to_move]
        if one.to_move_wins:
            assert split.line[0].cards in one.winning_moves, name


def test_one_and_winner_on_the_small_puzzles(scheduler: str) -> None:
    for name, pos in _puzzles():
        if sum(len(h) for h in pos.hands) > 14:
            continue
        every = solve(pos, want="all")
        for want in ("winner", "one"):
            split = solve_split(pos, want=want, scheduler=scheduler)  # type: ignore[arg-type]
            assert split.winner == every.winner, (name, want)
            assert split.to_move_wins == every.to_move_wins
            if want == "winner":
                assert split.winning_moves is None
            elif every.to_move_wins:  # one winning move, the line's first
                assert split.winning_moves is not None and len(split.winning_moves) == 1
                assert split.winning_moves[0] in every.winning_moves  # type: ignore[operator]
                assert split.line[0].cards == split.winning_moves[0]
            else:
                assert split.winning_moves == ()


def _random_positions() -> list[Position]:
    """Random open positions of the classic deck (seeded): 2 seats 7 v 7, the landlord to
    answer a single the peasant played (so a pass is a child), and the 3-seat team game 5/4/4,
    the landlord or a peasant to lead."""
    rules = load_rules("classic")
    rng = random.Random(2026)
    deck = [r for r, c in enumerate((4,) * 13 + (1, 1)) for _ in range(c)]

    def hand(cards: list[int]) -> Cards:
        counts = [0] * N_RANKS
        for r in cards:
            counts[r] += 1
        return Cards(tuple(counts))

    out = []
    for _ in range(4):
        cards = rng.sample(deck, 15)
        out.append(make_position(rules, {"landlord": hand(cards[:7]),
                                         "peasant": hand(cards[7:14])}, "landlord",
                                 on_table=hand(cards[14:]), played_by="peasant"))
    for i in range(4):
        cards = rng.sample(deck, 13)
        out.append(make_position(rules, {"landlord": hand(cards[:5]),
                                         "peasant1": hand(cards[5:9]),
                                         "peasant2": hand(cards[9:])},
                                 ("landlord", "peasant1")[i % 2]))
    return out


def test_random_two_and_three_seat_positions_agree(scheduler: str) -> None:
    positions = _random_positions()
    assert {p.n_seats for p in positions} == {2, 3}
    passes = 0
    for pos in positions:
        one = solve(pos, want="all")
        _same(solve_split(pos, want="all", scheduler=scheduler), one)
        _same(solve_split(pos, want="all", workers=1), one)  # in this process
        passes += "PASS" in one.winning_moves  # type: ignore[operator]
        assert solve_split(pos, want="winner", scheduler=scheduler).winner == one.winner
    assert passes  # a pass wins in at least one of them: the pass is split too


def test_a_local_process_pool_agrees_and_an_early_stop_ends_it() -> None:
    pos = _puzzles()[0][1]  # DDZ2-01: the landlord wins with 4 or 5
    split = solve_split(pos, want="all", workers=2)
    assert split.winner == "landlord" and split.winning_moves == ("4", "5")
    # the pool's early stop: closing the stream after the first row ends the running tasks
    tasks = [Task.of(str(i), demo_task, n=i, seconds=0.0 if i == 0 else 30.0)
             for i in range(3)]
    t = time.perf_counter()
    rows = stream(tasks, workers=2, pool=True)
    first = next(rows)
    rows.close()
    assert first["square"] == 0
    assert time.perf_counter() - t < 20  # not the 30 s the other tasks would take


def test_a_move_that_goes_out_needs_no_task() -> None:
    pos = make_position(load_rules("classic"), {"landlord": "33", "peasant": "4"}, "landlord")
    r = solve_split(pos, want="one", workers=2)  # no process is started for it
    assert r.winner == "landlord" and r.winning_moves == ("33",) and r.nodes == 0
    assert [(p.seat, p.cards) for p in r.line] == [("landlord", "33")]


def test_the_time_limit_covers_the_call() -> None:
    # a 17 v 17 deal whose every winning move takes minutes (the bench's 17v17 #2, seed 12)
    pos = make_position(load_rules("classic"),
                        {"landlord": "33445689TJJJKA22B", "peasant": "3566677899TQQKA22"},
                        "landlord")
    t = time.perf_counter()
    r = solve_split(pos, want="all", workers=1, seconds=0.3)
    assert r.status == "unknown" and r.winner is None and r.winning_moves is None
    assert r.reason == "time limit 0.3 s reached"
    assert time.perf_counter() - t < 3


@pytest.mark.parametrize("kwargs,message", [
    ({"want": "score"}, "solve() computes the score"),
    ({"want": "best"}, "want must be"),
    ({"workers": 0}, "workers must be"),
    ({"seconds": -1.0}, "Limit.seconds"),
    ({"seconds": float("nan")}, "Limit.seconds"),
    ({"seconds": True}, "seconds must be a number"),
])
def test_bad_arguments_raise_value_errors(kwargs: dict, message: str) -> None:
    pos = _puzzles()[0][1]
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        solve_split(pos, **kwargs)


def test_a_task_checks_its_child() -> None:
    pos = _puzzles()[0][1]
    text = pos.format().split("\n", 1)[1]
    # KK5543 v 225543: the children in search order are 55, KK, 3, 4, 5, K; 3 loses, 4 wins
    lost = child_task(text, {"name": "classic", "without": []}, 2, "3", None, 1000, "win")
    assert lost["outcome"] == "loss" and lost["nodes"] > 0 and lost["line"] == []
    won = child_task(text, {"name": "classic", "without": []}, 3, "4", None, 1000, "win")
    assert won["outcome"] == "win" and won["line"][0] == ["peasant", "5"]
    with pytest.raises(ValueError, match="child 0 of the position is not the move 4"):
        child_task(text, {"name": "classic", "without": []}, 0, "4", None, 1000, "win")


def test_cli_workers_splits_one_position_with_the_same_answer(cli: Any) -> None:
    quick = ("--landlord", "KK5543", "--peasant", "225543", "--to-move", "landlord", "--all",
             "--json")
    code1, out1, _ = cli("solve", *quick)
    code2, out2, _ = cli("solve", *quick, "--workers", "2")
    assert code1 == code2 == 0
    a, b = json.loads(out1), json.loads(out2)
    assert a["winner"] == b["winner"] == "landlord"
    assert a["winning_moves"] == b["winning_moves"] == ["4", "5"]


@pytest.mark.parametrize("args,message", [
    (["--workers", "2", "--score"], "ddzspec: error: --score is solved in one process"),
    (["--output", "x.jsonl"], "ddzspec: error: --output can only go with --batch"),
])
def test_cli_refuses_score_split_and_output_without_batch(args: list[str],
                                                          message: str, cli: Any) -> None:
    code, out, err = cli("solve", "--landlord", "3", "--peasant", "4", "--to-move", "landlord",
                         *args)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_rules_files_bans_and_notation_travel_to_the_tasks() -> None:
    # the tasks rebuild the position from its text and the rules from rules_ref: a rules file
    # (its resolved text), a ban and the French notation reach them
    house = load_rules(str(Path(__file__).parents[2] / "examples" / "house.rules"))
    banned = load_rules("classic", without=("trio_pair",))
    for rules, hands, notation in (
            (house, {"landlord": "33344", "peasant": "7789T"}, "en"),
            (banned, {"landlord": "333445", "peasant": "778899T"}, "fr"),
            (banned, {"landlord": "33344", "peasant": "778899T"}, "en")):
        pos = make_position(rules, hands, "landlord", notation=notation)
        _same(solve_split(pos, want="all", workers=1), solve(pos, want="all"))
    # by hand: 333 or 333+4 (the peasant has no trio to answer), then the rest; 333+44 would
    # go out at once, but both rules ban the trio + pair
    for rules in (house, banned, load_rules("classic")):
        pos = make_position(rules, {"landlord": "33344", "peasant": "778899T"}, "landlord")
        assert solve_split(pos, want="all", workers=1).winning_moves == (
            ("333", "333+4") if rules.without or rules.name == "house"
            else ("333", "333+4", "333+44"))
