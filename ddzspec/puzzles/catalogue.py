"""The puzzle catalogue: the shipped puzzles, puzzle files, and checking them with the solver.

Entry points: :func:`builtin_puzzles` and :func:`puzzle_by_id` (the package data
``ddzspec/data/puzzles.jsonl``, read as :class:`Puzzle` values), :func:`read_puzzles` (JSON
lines of puzzles), :func:`load_puzzle` (a shipped id or a position file, as ``puzzles play``
takes it), :func:`position_of` (the position of a puzzle record, in either record form) and
:func:`check` (re-solve puzzle records and report each :class:`Problem`: ``puzzles check``).

The record formats: ``ddzspec/data/README.md`` and ``tests/data/puzzles/README.md``.

>>> p = puzzle_by_id("ddz2-15")
>>> p.id, p.seats, p.cards, p.to_move, p.winning_moves
('DDZ2-15', 2, (4, 2), 'landlord', ('TT', 'QQ'))
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._io import read_input
from ..cards import parse_cards
from ..errors import DdzError, NotationError, PuzzleError
from ..solver import PASS, Position, SolveResult, parse_position, position_from_puzzle, solve
from ..solver.position import side_of_winner
from ..wild import parse_wild

if TYPE_CHECKING:
    from ..rules import Rules


# ----------------------------------------------------------------------------- puzzles

@dataclass(frozen=True)
class Puzzle:
    """One shipped endgame puzzle.

    - ``id``: "DDZ2-04" (two seats, public source) or "DDZ3-01" (three seats, constructed).
    - ``source``: the public source, or "constructed for ddzspec; answer by solver" (checked by
      an independent minimax in the tests).
    - ``seats``: 2 or 3; ``cards``: cards per seat, in the position's seat order.
    - ``position_text``: the solver's position format (:func:`ddzspec.solver.parse_position`).
    - ``winner``: the side that wins with best play ("landlord"/"peasant" with two seats,
      "landlord"/"peasants" with three); ``winning_moves``: every winning first move of the
      side to move, as published (the source's spelling; empty when it loses).
    - ``parsed``: the position already read (a position file's, whose rules may be a file
      found from the position file's folder, which :attr:`position_text` names only by its
      rules name); None: :meth:`position` parses :attr:`position_text`.
    """

    id: str
    source: str
    seats: int
    cards: tuple[int, ...]
    position_text: str
    winner: str = ""
    winning_moves: tuple[str, ...] = ()
    parsed: Position | None = field(default=None, repr=False, compare=False)

    def position(self) -> Position:
        """The puzzle's position (:attr:`parsed`, or parsed from :attr:`position_text`)."""
        if self.parsed is not None:
            return self.parsed
        return parse_position(self.position_text, source=f"puzzle {self.id}")

    @property
    def to_move(self) -> str:
        """The seat to move in the puzzle's position."""
        p = self.position()
        return str(p.seats[p.to_move])

    def to_json(self) -> dict[str, Any]:
        """``{"id", "source", "seats", "cards", "position", "to_move", "winner",
        "winning_moves"}`` (JSON-ready)."""
        return {"id": self.id, "source": self.source, "seats": self.seats,
                "cards": list(self.cards), "position": self.position_text,
                "to_move": self.to_move, "winner": self.winner,
                "winning_moves": list(self.winning_moves)}


def _puzzle_from_record(rec: dict[str, Any], where: str) -> Puzzle:
    """A puzzle from one record of the puzzles file (see ``ddzspec/data/README.md``)."""
    try:
        pid, source, text = rec["id"], rec["source"], rec["position"]
        if not all(isinstance(x, str) and x for x in (pid, source, text)):
            raise TypeError
        pos = parse_position(text, source=f"{where} ({pid})")
    except (KeyError, TypeError):
        raise PuzzleError(f"{where}: a puzzle record needs the strings id, source and "
                          "position") from None
    except DdzError as e:
        raise PuzzleError(f"{where}: {e}") from None
    return Puzzle(pid, source, pos.n_seats, tuple(len(h) for h in pos.hands), text,
                  str(rec.get("winner", "")), tuple(rec.get("winning_moves", ())))


def read_puzzles(text: str, where: str = "<puzzles>") -> tuple[Puzzle, ...]:
    """Puzzles from JSON lines (one record per line: ``id``, ``source``, ``position`` in the
    solver's text format, optional ``winner`` and ``winning_moves``), smallest total of cards
    first (then by id). Raises PuzzleError naming the line at fault."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise PuzzleError(f"{where}:{n}: not JSON: {e.msg} (column {e.colno})") from None
        if not isinstance(rec, dict):
            raise PuzzleError(f"{where}:{n}: a puzzle record is a JSON object")
        out.append(_puzzle_from_record(rec, f"{where}:{n}"))
    return tuple(sorted(out, key=lambda p: (sum(p.cards), p.id)))


@cache
def builtin_puzzles() -> tuple[Puzzle, ...]:
    """The shipped puzzles (``ddzspec/data/puzzles.jsonl``), smallest total of cards first."""
    text = resources.files("ddzspec").joinpath("data", "puzzles.jsonl").read_text("utf-8")
    return read_puzzles(text, "ddzspec/data/puzzles.jsonl")


def puzzle_by_id(pid: str) -> Puzzle:
    """The shipped puzzle ``pid`` (case-insensitive, e.g. "ddz2-04"). Raises PuzzleError
    naming the known ids when there is none."""
    for p in builtin_puzzles():
        if p.id.lower() == pid.strip().lower():
            return p
    ids = ", ".join(p.id for p in builtin_puzzles())
    raise PuzzleError(f"unknown puzzle {pid!r}; the puzzles are {ids}")


def load_puzzle(id_or_file: str, rules: Rules | None = None, pid: str | None = None
                ) -> Puzzle:
    """A shipped puzzle by id, or a position file (the solver's text format) as a puzzle with
    id and source the file name; ``rules``: the rules of a file with no ``rules`` line (as
    ``solve --rules``); a relative path on its ``rules`` line is found from the file's folder.
    A file of puzzle records (JSON lines, as ``puzzles generate`` writes them: a file whose
    first character is ``{``) gives its record ``pid`` (case-insensitive), or its one record
    when ``pid`` is None. Raises PuzzleError (unknown id, a folder, unreadable file, bad
    position, with the file's line and column; ``pid`` with a position file or a shipped id)."""
    try:
        found = puzzle_by_id(id_or_file)
    except PuzzleError as e:
        path = Path(id_or_file)
        if path.is_dir():
            raise PuzzleError(f"{id_or_file}: is a folder, not a position file") from None
        if not path.exists():
            raise PuzzleError(str(e).replace(";", " and no such file;", 1)
                              + " (a puzzle of a file of records, as 'puzzles generate' "
                              "writes: give the file, then its id)") from None
    else:
        if pid is not None:
            raise PuzzleError(f"{id_or_file} is a shipped puzzle: give no id after it "
                              f"({pid!r})")
        return found
    try:
        text = read_input(path)
    except OSError as e:
        raise PuzzleError(f"{id_or_file}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise PuzzleError(f"{id_or_file}: not a UTF-8 text file (byte {e.start})") from None
    if text.lstrip().startswith("{"):
        return _record_puzzle(text, id_or_file, rules, pid)
    if pid is not None:
        raise PuzzleError(f"{id_or_file} is a position file, not a file of puzzle records "
                          f"(JSON lines): give no id after it ({pid!r})")
    try:
        pos = parse_position(text, source=id_or_file, rules=rules, base=path.parent)
    except DdzError as e:
        raise PuzzleError(str(e)) from None
    return Puzzle(path.name, id_or_file, pos.n_seats, tuple(len(h) for h in pos.hands),
                  pos.format(), parsed=pos)



def _record_puzzle(text: str, where: str, rules: Rules | None, pid: str | None) -> Puzzle:
    """The puzzle ``pid`` of a file of puzzle records (its only one when None); each record
    read under the rules it names (:func:`record_rules`). Raises PuzzleError naming the line."""
    recs: list[tuple[int, dict[str, Any]]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            raise PuzzleError(f"{where}:{n}: not JSON: {e}") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("id"), str):
            raise PuzzleError(f'{where}:{n}: a puzzle record is a JSON object with an "id"')
        recs.append((n, rec))
    ids = ", ".join(r["id"] for _, r in recs)
    if pid is None:
        if len(recs) != 1:
            raise PuzzleError(f"{where} holds {len(recs)} puzzles: give the id of one after "
                              f"the file ({ids})")
        chosen = recs[0]
    else:
        match = [x for x in recs if x[1]["id"].lower() == pid.strip().lower()]
        if not match:
            raise PuzzleError(f"{where}: no puzzle {pid!r}; its puzzles are {ids}")
        chosen = match[0]
    n, rec = chosen
    try:
        pos = position_of(rec, record_rules(rec, rules), Path(where).parent)
    except DdzError as e:
        raise PuzzleError(f"{where}:{n} ({rec['id']}): {e}") from None
    moves = rec.get("winning_moves", ())
    return Puzzle(rec["id"], str(rec.get("source", where)), pos.n_seats,
                  tuple(len(h) for h in pos.hands), pos.format(), str(rec.get("winner", "")),
                  tuple(map(str, moves)) if isinstance(moves, list) else (), parsed=pos)


# ----------------------------------------------------------------------------- puzzle records

def record_rules(rec: Mapping[str, Any], rules: Rules | None = None) -> Rules:
    """The rules a puzzle record is read under: the built-in rules it names (``rules``, with
    ``without``), else ``rules``, else classic. Raises DdzError for a bad ``without``."""
    from ..rules import builtin_rules, load_rules
    if rec.get("rules") in builtin_rules():
        without = rec.get("without", [])
        if not isinstance(without, list) or not all(isinstance(w, str) for w in without):
            raise DdzError('"without" must be a list of shape names')
        return load_rules(rec["rules"], without=tuple(without))
    return rules or load_rules()


def position_of(rec: Mapping[str, Any], rules: Rules, base: str | Path | None = None) -> Any:
    """The position of a puzzle record (either form of the module doc); ``base``: the folder
    a relative rules path in a ``position`` is found from (the puzzle file's; None: the working
    folder). Raises DdzError (PositionError, NotationError) on a malformed record."""
    if "position" in rec:
        if not isinstance(rec["position"], str):
            raise DdzError('"position" must be the text of a position')
        return parse_position(rec["position"], source=f"puzzle {rec.get('id')}", rules=rules,
                              base=base)
    return position_from_puzzle(dict(rec), rules)


@dataclass(frozen=True, slots=True)
class Problem:
    """A puzzle ``check`` refuses: its ``id`` (or line) and ``reason``; ``info``: not a
    problem but information (a record with no expected answer, solved)."""

    id: str
    reason: str
    info: bool = False


def check(records: Iterable[tuple[str, Mapping[str, Any]]], rules: Rules | None = None,
          seconds: float | None = 10.0, base: str | Path | None = None) -> list[Problem]:
    """Re-solve every puzzle record (``(where, record)`` pairs; ``where`` names it in a problem,
    e.g. ``line 3``) under the rules it names (``rules``, a built-in name, and ``without``; else
    ``rules``, else classic) and report each whose answer differs from its ``winner`` /
    ``winning_moves`` (the exact set of winning moves), that cannot be read or solved; a record
    claiming a single winning move whose move is not unique; a generated puzzle (a record with
    ``difficulty``) whose winning move is a pass. A record with neither ``winner`` nor
    ``winning_moves`` expects nothing: it gets an ``info`` entry saying how it was solved.
    ``base``: the folder a relative rules path in a record's ``position`` is found from (the
    puzzle file's)."""
    out = []
    for where, rec in records:
        name = f"{where} ({rec['id']})" if isinstance(rec, Mapping) and "id" in rec else where
        try:
            if not isinstance(rec, Mapping):
                raise DdzError("a puzzle is a JSON object")
            pos = position_of(rec, record_rules(rec, rules), base)
            res = solve(pos, want="all", seconds=seconds)
        except DdzError as e:
            out.append(Problem(name, f"cannot be read: {e}"))
            continue
        if res.status != "solved":
            out.append(Problem(name, "unknown: the solver's limit was reached"))
            continue
        try:
            problem = _compare(name, rec, pos, res)
        except DdzError as e:  # a recorded move that cannot be read
            problem = Problem(name, f"cannot be read: {e}")
        if problem is not None:
            out.append(problem)
    return out


def _compare(name: str, rec: Mapping[str, Any], pos: Position, res: SolveResult
             ) -> Problem | None:
    """The problem of one solved record whose answer differs from its ``winner`` /
    ``winning_moves`` (see :func:`check`), or None; raises DdzError for a recorded move that
    cannot be read."""
    assert res.winning_moves is not None
    winner = res.winner if "position" in rec else ("first" if res.to_move_wins else "second")
    want = rec.get("winning_moves")
    if "winner" not in rec and "winning_moves" not in rec:
        return Problem(name, f"no expected answer: solved as {winner} wins, winning moves "
                       f"{', '.join(res.winning_moves) or 'none'}", info=True)
    if isinstance(want, list) and len(want) == 1 and res.to_move_wins \
            and len(res.winning_moves) > 1:
        return Problem(name, f"{len(res.winning_moves)} winning moves: not unique")
    if (side_of_winner(rec.get("winner"), pos.n_seats) if "position" in rec
            else rec.get("winner")) != winner:
        return Problem(name, f"the winner is {winner}, not {rec.get('winner')}")
    if not isinstance(want, list) or not all(isinstance(m, str) for m in want) or sorted(
            map(_canon(pos), want)) != sorted(map(_canon(pos), res.winning_moves)):
        return Problem(name, "the winning moves are "
                       f"{', '.join(res.winning_moves) or 'none'}, not "
                       f"{', '.join(map(str, want or [])) or 'none'}")
    if "difficulty" in rec and res.winning_moves and res.winning_moves[0] == PASS:
        return Problem(name, "the winning move is a pass")
    return None


def _canon(pos: Position) -> Callable[[str], str]:
    """Moves as sorted rank counts, to compare regardless of the order cards are written; with
    a wild rank (``79TJ*=789TJ``) the cards played (a ``*`` or a card of the wild rank: a wild
    card) and what they read as (after ``=``). Raises NotationError for a move that cannot be
    read."""
    rules = pos.rules

    def f(m: str) -> str:
        if m == PASS:
            return m
        played, _, reading = m.partition("=") if pos.wild is not None else (m, "", "")
        try:
            cards = (parse_cards(played, pos.notation, rules.deck).cards if pos.wild is None
                     else parse_wild(played, pos.wild, rules, pos.notation).cards)
        except NotationError as e:
            raise DdzError(f"winning move {m!r}: {e.one_line()}") from None
        try:
            read = reading and parse_cards(reading, pos.notation, rules.deck).cards
        except NotationError as e:
            raise DdzError(f"winning move {m!r}: after '=': {e.one_line()}") from None
        return str((cards, read))
    return f


__all__ = ["Problem", "Puzzle", "PuzzleError", "builtin_puzzles", "check", "load_puzzle",
           "position_of", "puzzle_by_id", "read_puzzles"]
