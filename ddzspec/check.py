"""One truth for check, play and solve: what ``ddzspec check`` says of a rules file, and the one
gate that refuses the rules it flags (an ambiguous move, a rank no shape plays as a lone card,
a shape no move can have), with the same located message in every command and the library.

Entry points: :func:`check_rules` (the report: counts per type and the ambiguous multisets,
cached on disk beside the move tables) and :func:`require_playable` (the gate, called when a
:class:`ddzspec.game.GameState` or a solver position is built).

How the report is compiled and cached: docs/rules-language.md, "Design notes, module by module".
"""

from __future__ import annotations

import hashlib
import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ._io import read_input, write_atomic
from .cards import ALL_RANKS, Cards, unpack
from .errors import CacheWarning, UnplayableRulesError
from .readings import Reading, make_reading
from .rules import Rules
from .table import (
    Entry,
    all_bodies,
    body_candidates,
    cache_file,
    cache_key,
    entry_check,
    group_candidates,
    loaded_table,
)

MAGIC = "ddzspec-check"
#: The largest check report read (an ambiguous rules file's report holds a few MiB at most).
MAX_REPORT_BYTES = 64 * 1024 * 1024
FORMAT_VERSION = 2


@dataclass(frozen=True)
class CheckReport:
    """What ``ddzspec check`` reports of a rules file: ``counts`` (legal moves per shape, in the
    rules' shape order) and ``ambiguous`` (packed multiset → its several entries (shape index,
    start, run)). ``len(report)`` is the number of legal moves."""

    rules: Rules
    counts: dict[str, int]
    ambiguous: dict[int, tuple[Entry, ...]] = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(self.counts.values())

    def by_type(self) -> dict[str, int]:
        """Legal moves per shape, in the rules' shape order."""
        return dict(self.counts)

    def reading_of(self, key: int, entry: Entry) -> Reading:
        """The Reading of the multiset ``key`` for one entry."""
        si, start, run = entry
        return make_reading(self.rules, self.rules.shapes[si], Cards.from_key(key).counts,
                            start, run)

    def ambiguous_readings(self, limit: int | None = None) -> list[tuple[Cards, list[Reading]]]:
        """Every ambiguous multiset with all its readings, sorted by size then cards; with
        ``limit``, only the first ``limit`` of them (Readings are built only for those: a rules
        file with a kicker-heavy shape can have hundreds of thousands of ambiguous moves)."""
        def order(k: int) -> tuple[int, tuple[int, ...]]:
            counts = unpack(k)
            return sum(counts), tuple(-c for c in counts)
        keys = sorted(self.ambiguous, key=order)[:limit]
        return [(Cards.from_key(k), [self.reading_of(k, e) for e in self.ambiguous[k]])
                for k in keys]

    def never_played(self) -> list[str]:
        """Shapes no legal move has (every candidate ruled out or ambiguous)."""
        return [name for name, n in self.counts.items() if n == 0]


def compile_report(rules: Rules,
                   progress: Callable[[int, int, str], None] | None = None) -> CheckReport:
    """Compute the :class:`CheckReport` of ``rules`` (no cache), size class by size class.
    ``progress(done, total, shape)`` is called after each body (shape, run start and length)."""
    table = loaded_table(rules)
    if table is not None:
        return CheckReport(rules, table.by_type(), dict(table.ambiguous))
    bodies = all_bodies(rules)
    by_size: dict[int, list[tuple[int, int, int]]] = {}
    for b in bodies:
        by_size.setdefault(rules.shapes[b[0]].size(b[2]), []).append(b)
    counts = dict.fromkeys((s.name for s in rules.shapes), 0)
    ambiguous: dict[int, tuple[Entry, ...]] = {}
    done = 0
    for size in sorted(by_size):
        entries: dict[int, Entry] = {}
        amb: dict[int, tuple[Entry, ...]] = {}
        for si, start, run in by_size[size]:
            group_candidates(body_candidates(rules, si, start, run), entries, amb)
            done += 1
            if progress:
                progress(done, len(bodies), rules.shapes[si].name)
        for e in entries.values():
            counts[rules.shapes[e[0]].name] += 1
        ambiguous.update(amb)
        del entries
    return CheckReport(rules, counts, ambiguous)


def report_path(rules: Rules) -> Path:
    """Where the check report of ``rules`` is cached."""
    return cache_file(rules, ".check.json")


def _payload_digest(counts: object, ambiguous: object) -> str:
    """The SHA-256 (hex) of a check report's payload, its ``counts`` and ``ambiguous`` as
    JSON: written in the cache file, compared on load (a body damaged on disk that still
    parses is not trusted)."""
    text = json.dumps({"counts": counts, "ambiguous": ambiguous})
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read_report(rules: Rules, path: Path, key: str) -> CheckReport:
    data: Any = json.loads(read_input(path, MAX_REPORT_BYTES))  # a foreign file: never whole
    if not isinstance(data, dict) or data.get("magic") != MAGIC:
        raise ValueError("not a ddzspec check report")
    if data.get("format") != FORMAT_VERSION or data.get("key") != key:
        raise ValueError("written for other rules, code or format")
    if data.get("sha256") != _payload_digest(data.get("counts"), data.get("ambiguous", [])):
        raise ValueError("damaged: its checksum does not match its contents")
    names = [s.name for s in rules.shapes]
    counts = data.get("counts")
    if not isinstance(counts, dict) or list(counts) != names or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts.values()):
        raise ValueError("bad counts")
    ambiguous: dict[int, tuple[Entry, ...]] = {}
    check = entry_check(rules)
    for item in data.get("ambiguous", ()):
        k, es = item
        if not isinstance(k, int) or not isinstance(es, list) or len(es) < 2:
            raise ValueError("bad ambiguous entry")
        tup: list[Entry] = []
        for e in es:
            si, start, run = (int(x) for x in e)
            if not 0 <= si < len(names) or run < 1 or \
                    start not in rules.shapes[si].starts(run):
                raise ValueError("an entry names no shape body of these rules")
            tup.append((si, start, run))
        if not all(check(k, e) for e in tup):
            raise ValueError("an ambiguous multiset that its entries cannot be read from")
        ambiguous[k] = tuple(tup)
    return CheckReport(rules, counts, ambiguous)


_REPORTS: dict[str, CheckReport] = {}


def check_rules(rules: Rules, progress: Callable[[int, int, str], None] | None = None,
                use_cache: bool = True) -> CheckReport:
    """The :class:`CheckReport` of ``rules``: from the disk cache when its header matches, else
    compiled (see :func:`compile_report`) and cached. An untrusted cache file is recomputed
    with a :class:`~ddzspec.errors.CacheWarning`; a read-only cache folder is not an error."""
    key = cache_key(rules)

    def payload(report: CheckReport) -> dict[str, Any]:
        amb = [[k, [list(e) for e in es]] for k, es in report.ambiguous.items()]
        return {"magic": MAGIC, "format": FORMAT_VERSION, "key": key, "counts": report.counts,
                "ambiguous": amb, "sha256": _payload_digest(report.counts, amb)}
    return cached_report(_REPORTS, key, report_path(rules), "check report",
                         lambda path: _read_report(rules, path, key),
                         lambda: compile_report(rules, progress), payload, use_cache)


_R = TypeVar("_R")


def cached_report(memo: dict[str, _R], key: str, path: Path, what: str,
                  read: Callable[[Path], _R], compile_: Callable[[], _R],
                  payload: Callable[[_R], dict[str, Any]], use_cache: bool = True) -> _R:
    """A report cached in memory (``memo``, by ``key``) and on disk (``path``, JSON): ``read``
    it back (ValueError, TypeError or OSError when it is not to be trusted: then it is
    recomputed with a :class:`~ddzspec.errors.CacheWarning` naming ``what``), else
    ``compile_`` it and write ``payload(report)`` atomically; a read-only cache folder is not
    an error. ``use_cache=False``: always compiled, nothing written."""
    if use_cache and key in memo:
        return memo[key]
    if use_cache and path.is_file():
        try:
            report = memo[key] = read(path)
            return report
        except (OSError, ValueError, TypeError, UnicodeDecodeError) as e:
            warnings.warn(f"ddzspec: cached {what} {path} ignored ({e}); recomputing",
                          CacheWarning, stacklevel=3)
    report = compile_()
    if use_cache:
        memo[key] = report
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, json.dumps(payload(report)))
        except OSError:
            pass
    return report


def _shown(rules: Rules) -> str:
    """How a user names these rules: a built-in by its name, any other file by its path."""
    from ._resources import data_dir
    builtin = data_dir("rules") / f"{rules.name}.rules"
    return rules.name if Path(rules.path) == builtin else rules.path


def _hint(rules: Rules) -> str:
    without = "".join(f" --without {w}" for w in rules.without)
    return f"run `ddzspec check --rules {_shown(rules)}{without}`"


def refusal(rules: Rules, problems: list[str]) -> str:
    """The one message for rules that ``check`` flags (without the file, which
    :class:`~ddzspec.errors.RulesError` puts first)."""
    return (f"these rules cannot be played out: {'; '.join(problems)}; {_hint(rules)} for the "
            "full report")


def _refuse(rules: Rules, problems: list[str]) -> UnplayableRulesError:
    return UnplayableRulesError(refusal(rules, problems), _shown(rules), tuple(problems))


def lone_card_problem(rules: Rules) -> str | None:
    """Why some rank of the deck cannot be played as a lone card (no one-card shape covers
    it: a leader holding only such cards could not play; seeds 000/002: the leader must
    play), in one line naming the ranks; None when every rank can."""
    gaps = rules.lone_card_gaps()
    if not gaps:
        return None
    missing = [ALL_RANKS[i].symbol() for i in gaps]
    last = any(s.last_play and s.copies == 1 and s.run_min == 1 and s.kicker_kind is None
               for s in rules.shapes)
    why = "is legal only as a hand's last play" if last else "has no reading"
    return (f"no shape plays a lone card of rank {', '.join(missing)} (a lone {missing[0]} "
            f"{why}), so a leader holding only such cards could not play")


def require_lone_cards(rules: Rules) -> None:
    """The static part of :func:`require_playable`: every rank of the deck has a one-card shape
    (:func:`lone_card_problem`). Raises :class:`~ddzspec.errors.UnplayableRulesError`."""
    problem = lone_card_problem(rules)
    if problem is not None:
        raise _refuse(rules, [problem])


def ambiguity_problem(rules: Rules, key: int, readings: list[str], total: int = 1) -> str:
    """Plain words for ambiguous moves: how many, and one example with its readings."""
    many = f"{total} moves have" if total > 1 else "a move has"
    return (f"{many} several readings (every legal move must have exactly one), e.g. "
            f"{Cards.from_key(key)}: {'; '.join(readings)}")


def never_played_problem(never: list[str]) -> str:
    """The one wording of shapes no legal move has (``check`` and every refusal say it)."""
    return (f"no legal move has type {', '.join(never)} (the restrictions or ambiguity rule "
            "out every candidate)")


def require_playable(rules: Rules) -> None:
    """Refuse rules that ``ddzspec check`` flags (one policy for every command and the
    library: refused with the same located message, never resolved silently): a rank without a
    one-card shape, ambiguous moves, a shape no move can have. The check is computed once per
    rules file and code version (cached on disk, see :func:`check_rules`).

    Raises :class:`~ddzspec.errors.UnplayableRulesError` naming the rules file, what is
    wrong, an example move with its readings and the ``ddzspec check`` command to run.
    """
    require_lone_cards(rules)
    w = rules.wild
    if w is not None and w.count != 1:
        # issue 26: the game plays one wild rank so far (tiandi laizi's two come later); no
        # pointer to `ddzspec check`, which does not check two wild ranks either
        problem = (f"{'two' if w.count == 2 else w.count} wild ranks (tiandi laizi) are not "
                   f"played yet: a deal plays one wild rank; this file draws {w.count} "
                   "(issue 26)")
        raise UnplayableRulesError(f"these rules cannot be played out: {problem}",
                                   _shown(rules), (problem,))
    report = check_rules(rules)
    problems = []
    if report.ambiguous:
        cards, readings = report.ambiguous_readings()[0]
        problems.append(ambiguity_problem(rules, cards.key, [r.describe() for r in readings],
                                          len(report.ambiguous)))
    never = report.never_played()
    if never:
        problems.append(never_played_problem(never))
    if problems:
        raise _refuse(rules, problems)
