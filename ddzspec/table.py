"""The compiled move table: every legal move of a rules file, with its reading.

Derived generically from the shape descriptions: for every shape, run length and body start, every
kicker multiset the deck allows is generated, each restriction predicate (the same functions the
CSP uses, :mod:`ddzspec.restrictions`) filters it, and the candidates are grouped by multiset.
Exhaustive: no legal multiset can be missed, and a multiset with two readings that differ in type
or body is *ambiguous*. Cached on disk (platformdirs; ``DDZSPEC_CACHE_DIR`` overrides) under the
digest of the resolved spec, so a changed file recompiles. Lookup by packed multiset is one dict
access.
"""

from __future__ import annotations

import os
import pickle
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .cards import N_RANKS, Cards, pack
from .readings import Reading, make_reading
from .restrictions import holds
from .rules import KIND_SIZE, Rules, Shape

FORMAT_VERSION = 1
#: One candidate reading, compactly: (shape index, start, run).
Entry = tuple[int, int, int]


def cache_dir() -> Path:
    """Folder of compiled tables: ``$DDZSPEC_CACHE_DIR`` or platformdirs' user cache dir."""
    env = os.environ.get("DDZSPEC_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("ddzspec")) / "tables"


def _kicker_sets(avail: Sequence[int], units: int, k: int,
                 ranks: Sequence[int]) -> Iterator[list[int]]:
    """Every way to choose ``units`` kicker units of ``k`` cards (rank counts) from ``avail``."""
    out = [0] * N_RANKS

    def rec(pos: int, left: int) -> Iterator[list[int]]:
        if left == 0:
            yield out
            return
        if pos == len(ranks):
            return
        r = ranks[pos]
        most = min(left, avail[r] // k)
        for m in range(most, -1, -1):
            out[r] = m * k
            yield from rec(pos + 1, left - m)
        out[r] = 0

    yield from rec(0, units)


def candidate_entries(rules: Rules, shape_index: int) -> Iterator[tuple[int, Entry]]:
    """Every (packed multiset, entry) of one shape whose restrictions hold."""
    shape: Shape = rules.shapes[shape_index]
    deck = rules.deck
    ranks = [i for i in range(N_RANKS) if deck[i]]
    k = KIND_SIZE.get(shape.kicker_kind or "", 1)
    for run in range(shape.run_min, shape.run_max + 1):
        if shape.size(run) > rules.max_cards:
            continue
        units = shape.units(run)
        for start in range(len(shape.seq) - run + 1):
            body = shape.seq[start:start + run]
            if any(deck[i] < shape.copies for i in body):
                continue
            avail = list(deck)
            base = [0] * N_RANKS
            for i in body:
                avail[i] -= shape.copies
                base[i] = shape.copies
            for kick in _kicker_sets(avail, units, k, ranks):
                counts = [b + c for b, c in zip(base, kick)]
                if all(holds(r, rules, shape, counts, body, kick) for r in rules.restrictions):
                    yield pack(counts), (shape_index, start, run)


@dataclass
class MoveTable:
    """Every legal move of a rules file. ``entries``: packed multiset → the unique entry
    (shape index, start, run); ``ambiguous``: packed multiset → its several entries.
    Use :meth:`lookup` for a Reading; ``len(table)`` is the number of legal moves."""

    rules: Rules
    entries: dict[int, Entry]
    ambiguous: dict[int, tuple[Entry, ...]]

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, cards: Cards) -> bool:
        return cards.key in self.entries

    def reading_of(self, key: int, entry: Entry) -> Reading:
        """The Reading of the multiset ``key`` for one entry."""
        s, start, run = entry
        return make_reading(self.rules, self.rules.shapes[s], Cards.from_key(key).counts,
                            start, run)

    def lookup(self, cards: Cards | int) -> Reading | None:
        """The unique reading of a multiset (Cards or packed key), or None if illegal or
        ambiguous. O(1); Readings are built once and memoised."""
        key = cards if isinstance(cards, int) else cards.key
        got = self._memo.get(key)
        if got is None:
            entry = self.entries.get(key)
            if entry is None:
                return None
            got = self.reading_of(key, entry)
            self._memo[key] = got
        return got

    def __post_init__(self) -> None:
        self._memo: dict[int, Reading] = {}

    def bound_to(self, rules: Rules) -> MoveTable:
        """The same table for another Rules object with the same move digest (a file that
        differs only in deal, bidding, scoring…): shares the entries and memoised Readings,
        but ``table.rules`` is ``rules``."""
        if rules is self.rules:
            return self
        other = MoveTable(rules, self.entries, self.ambiguous)
        other._memo = self._memo
        return other

    def readings(self) -> Iterator[Reading]:
        """Every legal move's reading (table order)."""
        for key in self.entries:
            r = self.lookup(key)
            assert r is not None
            yield r

    def by_type(self) -> dict[str, int]:
        """Number of legal moves per shape, in the rules' shape order."""
        c = Counter(self.rules.shapes[e[0]].name for e in self.entries.values())
        return {s.name: c.get(s.name, 0) for s in self.rules.shapes}

    def ambiguous_readings(self) -> list[tuple[Cards, list[Reading]]]:
        """Every ambiguous multiset with all its readings, sorted by size then cards."""
        out = [(Cards.from_key(k), [self.reading_of(k, e) for e in es])
               for k, es in self.ambiguous.items()]
        out.sort(key=lambda x: (len(x[0]), tuple(-c for c in x[0].counts)))
        return out


def compile_table(rules: Rules,
                  progress: Callable[[int, int, str], None] | None = None) -> MoveTable:
    """Compile the table of ``rules`` from scratch (no cache). ``progress(done, total, shape)``
    is called after each shape."""
    groups: dict[int, list[Entry]] = {}
    total = len(rules.shapes)
    for si, shape in enumerate(rules.shapes):
        for key, entry in candidate_entries(rules, si):
            groups.setdefault(key, []).append(entry)
        if progress:
            progress(si + 1, total, shape.name)
    entries: dict[int, Entry] = {}
    ambiguous: dict[int, tuple[Entry, ...]] = {}
    for key, es in groups.items():
        # two readings differ when their type or body differs (entries are distinct bodies)
        if len(es) == 1:
            entries[key] = es[0]
        else:
            ambiguous[key] = tuple(es)
    return MoveTable(rules, entries, ambiguous)


_LOADED: dict[str, MoveTable] = {}


def table_path(rules: Rules) -> Path:
    """Where the compiled table of ``rules`` is cached."""
    return cache_dir() / f"{rules.name}-{rules.digest}-v{FORMAT_VERSION}.pickle"


def get_table(rules: Rules, progress: Callable[[int, int, str], None] | None = None,
              use_cache: bool = True) -> MoveTable:
    """The move table of ``rules``: from memory, else the disk cache, else compiled (and
    cached). A cache file that cannot be read is recompiled."""
    if use_cache and rules.digest in _LOADED:
        return _LOADED[rules.digest].bound_to(rules)
    path = table_path(rules)
    table = None
    if use_cache and path.is_file():
        try:
            with path.open("rb") as f:
                entries, ambiguous = pickle.load(f)
            table = MoveTable(rules, entries, ambiguous)
        except Exception:  # a corrupt or foreign cache file: recompile
            table = None
    if table is None:
        table = compile_table(rules, progress)
        if use_cache:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".tmp{os.getpid()}")
                with tmp.open("wb") as f:
                    pickle.dump((table.entries, table.ambiguous), f,
                                protocol=pickle.HIGHEST_PROTOCOL)
                tmp.replace(path)
            except OSError:
                pass  # a read-only cache is not an error: the table is in memory
    if use_cache:
        _LOADED[rules.digest] = table
    return table


def is_cached(rules: Rules) -> bool:
    """Whether a compiled table for ``rules`` is on disk or in memory."""
    return rules.digest in _LOADED or table_path(rules).is_file()
