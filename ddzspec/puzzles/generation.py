"""Generating endgame puzzles with one answer (:func:`generate`, ``ddzspec puzzles generate``).

A candidate position comes from the generator's seed and its number (``random``: a shuffled
deck, :func:`random_candidate`; ``selfplay``: a level-2 deal cut when few cards are left,
:func:`selfplay_candidate`). :func:`make_puzzle` solves it and keeps it when the side to move
wins with exactly one first move, not a pass, rated by its :class:`Difficulty` (nodes,
forced-line length, only-moves) and written as a :func:`record`. Candidates run as tasks of
:mod:`ddzspec.execute` (:func:`candidate_task`); the records are JSONL in the format of
``tests/data/puzzles/two_seat.jsonl``, which :func:`ddzspec.puzzles.check` reads back.

Candidates, difficulty and the record's fields: docs/solver.md, "Design notes, module by module".
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..cards import N_RANKS, Cards, parse_cards
from ..rules import Rules
from ..wild import parse_wild

if TYPE_CHECKING:
    from ..execute import Progress
    from ..solver.position import Position
    from ..solver.search import SolveResult

#: Candidate sources.
SOURCES = ("random", "selfplay")


@dataclass(frozen=True, slots=True)
class Difficulty:
    """How hard a puzzle is, from its solve: ``nodes`` searched, ``line`` (plies of the forced
    line), ``only_moves`` (winner's turns along it with a single winning move) and ``rating``
    = only_moves + line / 4 + log10(nodes), a single number to sort or filter by."""

    nodes: int
    line: int
    only_moves: int

    @property
    def rating(self) -> float:
        """only_moves + line / 4 + log10(nodes), rounded to 0.01."""
        return round(self.only_moves + self.line / 4 + math.log10(max(self.nodes, 1)), 2)

    def to_json(self) -> dict[str, Any]:
        """``{"nodes", "line", "only_moves", "rating"}``."""
        return {"nodes": self.nodes, "line": self.line, "only_moves": self.only_moves,
                "rating": self.rating}


def _seat_names(n: int) -> tuple[str, ...]:
    from ..solver.position import SEATS_2, SEATS_3
    names: tuple[str, ...] = SEATS_2 if n == 2 else SEATS_3
    return names


def random_candidate(rules: Rules, sizes: Sequence[int], seed: int, i: int) -> Position:
    """Candidate ``i``: a shuffled deck of ``rules`` split into hands of ``sizes`` (landlord
    first, to lead); under rules with wild cards, the wild rank then drawn from the ranks
    their draw gives, as a deal draws it. Returns a :class:`ddzspec.solver.position.Position`."""
    from ..solver.position import make_position
    rng = random.Random(f"puzzle:{seed}:{i}")
    deck = [r for r in range(N_RANKS) for _ in range(rules.deck[r])]
    rng.shuffle(deck)
    hands, at = {}, 0
    for name, size in zip(_seat_names(len(sizes)), sizes):
        counts = [0] * N_RANKS
        for r in deck[at:at + size]:
            counts[r] += 1
        hands[name] = Cards(tuple(counts))
        at += size
    wild = None if rules.wild is None else rng.choice(rules.wild.draws[0].ranks)
    return make_position(rules, hands, "landlord", wild=wild)


def selfplay_candidate(rules: Rules, sizes: Sequence[int], seed: int, i: int
                       ) -> Position | None:
    """Candidate ``i``: a level-2 self-play deal cut when the hands hold at most
    ``sum(sizes)`` cards (module doc), or None when the deal ended before. Raises
    ValueError unless ``len(sizes)`` is the rules' number of players."""
    from ..game import GameState
    from ..game.enums import Phase
    from ..players.endgame import position_of
    from ..players.levels import player_for
    n = rules.deal.players
    if len(sizes) != n:
        raise ValueError(f"selfplay positions have the {n} seats of {rules.name}, not "
                         f"{len(sizes)}")
    players = [player_for(2, f"puzzle:{seed}:{i}:{s}") for s in range(n)]
    st = GameState.new(rules, seed=f"puzzle:{seed}:{i}")
    while not st.over:
        if st.phase is Phase.PLAY and sum(len(h) for h in st.hands) <= sum(sizes):
            break
        seat = st.turn
        assert seat is not None
        st = st.apply(players[seat].decide(st.view(seat)))
    if st.over or st.landlord is None or st.turn is None:
        return None
    return position_of(st)


def after(pos: Position, seat: str, cards: str) -> Position | None:
    """The position after ``seat`` plays ``cards`` (canonical English notation, ``PASS``
    for a pass) in ``pos``, as the solver's lines state them (with a wild rank ``33**=3333``:
    the cards played, each ``*`` a wild card, and what they read as); None when the deal is
    over."""
    from ..solver import PASS
    s = pos.seat_index(seat)
    n = pos.n_seats
    if cards == PASS:
        passes = pos.passes + 1
        if passes >= n - 1:  # the trick closes: its winner leads
            return replace(pos, to_move=pos.played_by, on_table=None, played_by=None,
                           passes=0)
        return replace(pos, to_move=(s + 1) % n, passes=passes)
    read_as = None
    if pos.wild is not None:
        shown, _, reading = cards.partition("=")
        played = parse_wild(shown, pos.wild, pos.rules).cards
        read_as = parse_cards(reading or shown, "en", pos.rules.deck).cards
    else:
        played = parse_cards(cards, "en", pos.rules.deck).cards
    hands = list(pos.hands)
    hands[s] = hands[s] - played
    if len(hands[s]) <= pos.targets[s]:
        return None
    return replace(pos, hands=tuple(hands), to_move=(s + 1) % n, on_table=played,
                   played_by=s, passes=0, on_table_as=read_as)


def difficulty(pos: Position, res: SolveResult, seconds: float | None = None) -> Difficulty:
    """The :class:`Difficulty` of a solved position ``pos`` (``res``: its solve with every
    winning move): each of the winner's turns along the line is solved again to count its
    winning moves."""
    from ..solver import solve
    only = 0
    cur = pos
    winner_side = pos.roles[pos.to_move] if res.to_move_wins else (
        "peasant" if pos.roles[pos.to_move] == "landlord" else "landlord")
    for ply, play in enumerate(res.line):
        if cur is None:
            break
        if cur.roles[cur.to_move] == winner_side:
            moves = res.winning_moves if ply == 0 else solve(
                cur, want="all", seconds=seconds, line=False).winning_moves
            if moves is not None and len(moves) == 1:
                only += 1
        cur = after(cur, play.seat, play.cards)
    return Difficulty(res.nodes, len(res.line), only)


#: Candidates per task of :func:`generate` (most are judged in a few hundredths of a second).
BLOCK = 10
#: The most candidates one round of :func:`generate` hands to the workers (a multiple of BLOCK)
MAX_ROUND = 20_000
#: The most puzzles one :func:`generate` call keeps (``--count``; they are held in memory)
MAX_COUNT = 100_000


def candidate_task(rules: dict[str, Any], sizes: list[int], seed: int, i: int, source: str,
                   seconds: float | None, count: int = 1) -> dict[str, Any]:
    """Candidates ``i`` … ``i + count − 1`` as one task of :mod:`ddzspec.execute`:
    ``{"first": i, "candidates": [{"candidate", "puzzle": record or None, "reason": why not
    kept or None}, ...]}``."""
    from ..execute import rules_of
    r = rules_of(rules)
    return {"first": i, "candidates": [
        {"candidate": j, **make_puzzle(r, sizes, seed, j, source, seconds)}
        for j in range(i, i + count)]}


def make_puzzle(rules: Rules, sizes: Sequence[int], seed: int, i: int, source: str = "random",
                seconds: float | None = None) -> dict[str, Any]:
    """Build, solve and judge candidate ``i`` (module doc): ``{"puzzle": record or None,
    "reason": None or why it was not kept}``. ``seconds``: the solver's limit per solve."""
    from ..solver import PASS, solve
    pos = (random_candidate if source == "random" else selfplay_candidate)(rules, sizes, seed, i)
    if pos is None:
        return {"puzzle": None, "reason": "the deal ended before the cut"}
    res = solve(pos, want="all", seconds=seconds)
    if res.status != "solved":
        return {"puzzle": None, "reason": "unknown (the solver's limit)"}
    if not res.to_move_wins:
        return {"puzzle": None, "reason": "the side to move loses"}
    assert res.winning_moves is not None
    if len(res.winning_moves) != 1:
        return {"puzzle": None, "reason": f"{len(res.winning_moves)} winning moves"}
    if res.winning_moves[0] == PASS:
        return {"puzzle": None, "reason": "the winning move is a pass"}
    diff = difficulty(pos, res, seconds)
    return {"puzzle": record(pos, res, diff, rules, seed, i, source), "reason": None}


def record(pos: Position, res: SolveResult, diff: Difficulty, rules: Rules, seed: int, i: int,
           source: str) -> dict[str, Any]:
    """The JSONL record of a kept puzzle (module doc)."""
    from .catalogue import position_of
    head: dict[str, Any] = {
        "id": f"{rules.name}-{seed}-{i}",
        "source": f"ddzspec puzzles generate (seed {seed}, candidate {i}, {source})",
        "seats": pos.n_seats}
    line = [{"seat": p.seat, "cards": p.cards} for p in res.line]
    tail = {"rules": rules.name, "without": list(rules.without), "seed": seed, "candidate": i,
            "line": line, "difficulty": diff.to_json()}
    if pos.n_seats == 2 and pos.to_move == 0 and pos.wild is None:
        first, second = (h.format() for h in pos.hands)
        table = None if pos.on_table is None else {"cards": pos.on_table.format(),
                                                   "by": "first" if pos.played_by == 0
                                                   else "second"}
        rec = {**head, "hands": {"first": first, "second": second}, "to_move": "first",
               "on_table": table, "winner": "first", "winning_moves": list(res.winning_moves),
               **tail}
        if position_of(rec, rules) == pos:  # the shared form says it all (no stake, targets)
            return rec
    return {**head, "position": pos.format(), "winner": res.winner,
            "winning_moves": list(res.winning_moves), **tail}


def generate(rules: Rules, *, seats: int = 2, cards: Sequence[int] = (10, 9), count: int = 10,
             seed: int = 0, source: str = "random", min_difficulty: float = 0.0,
             seconds: float | None = 10.0, max_candidates: int | None = None,
             workers: int | None = 1, scheduler: str | None = None,
             progress: Progress | None = None
             ) -> tuple[list[dict[str, Any]], int]:
    """Up to ``count`` puzzles: the first kept candidates ``i`` = 0, 1, … in order (the same
    puzzles whatever runs them), with a rating of at least ``min_difficulty``. Candidates run
    in batches on :mod:`ddzspec.execute` (``workers``, ``scheduler``); at most
    ``max_candidates`` (default 50 × count) are tried. Returns (puzzles, candidates tried).
    Raises ValueError for bad sizes, seats, count (1 to :data:`MAX_COUNT`) or source;
    UnplayableRulesError (before any candidate runs) for rules that cannot be played out;
    ExecuteError from the layer."""
    from ..execute import Task, rules_ref, run
    from ..game.state import accept_rules
    accept_rules(rules)
    if seats not in (2, 3) or len(cards) != seats:
        raise ValueError(f"--seats {seats} needs {seats} hand sizes in --cards, got "
                         f"{len(cards)}")
    if seats > rules.deal.players:
        raise ValueError(f"{rules.name} is a {rules.deal.players}-player variant")
    if any(c < 1 for c in cards) or sum(cards) > sum(rules.deck):
        raise ValueError(f"--cards {','.join(map(str, cards))}: each hand at least 1 card, "
                         f"{sum(rules.deck)} in all at most")
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"--count {count}: between 1 and {MAX_COUNT:,} puzzles a run")
    if source not in SOURCES:
        raise ValueError(f"source {source!r}: one of {', '.join(SOURCES)}")
    if source == "selfplay" and seats != rules.deal.players:
        raise ValueError(f"selfplay positions have the {rules.deal.players} seats of "
                         f"{rules.name}")
    limit = max_candidates if max_candidates is not None else 50 * count
    ref = rules_ref(rules)
    kept: list[dict[str, Any]] = []
    tried = 0
    # candidates a round: enough for the puzzles asked, and at most MAX_ROUND (its tasks are
    # built up front: a huge count must not build a huge list)
    batch = min(BLOCK * max(4, count // 2), MAX_ROUND)
    while len(kept) < count and tried < limit:
        stop = min(limit, tried + batch)
        rows = run([Task.of(f"candidates {i:08d}", candidate_task, rules=ref, sizes=list(cards),
                            seed=seed, i=i, source=source, seconds=seconds,
                            count=min(BLOCK, stop - i))
                    for i in range(tried, stop, BLOCK)],
                   workers=workers, scheduler=scheduler, label="candidates", progress=progress)
        tried = stop
        for p in (c["puzzle"] for row in rows for c in row["candidates"]):
            if p is not None and p["difficulty"]["rating"] >= min_difficulty \
                    and len(kept) < count:
                kept.append(p)
    return kept, tried


__all__ = ["MAX_COUNT", "SOURCES", "Difficulty", "after", "candidate_task", "difficulty",
           "generate", "make_puzzle", "random_candidate", "record", "selfplay_candidate"]
