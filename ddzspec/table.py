"""The compiled move table: every legal move of a rules file, with its reading.

Derived generically from the shape descriptions: for every shape, run length and body start, every
kicker multiset the deck allows is generated, each restriction predicate (the same functions the
CSP uses, :mod:`ddzspec.restrictions`) filters it, and the candidates are grouped by multiset.
Exhaustive: no legal multiset can be missed, and a multiset with two readings that differ in type
or body is *ambiguous*. Lookup by packed multiset is one dict access.

Entry points: :func:`get_table` (compiled once per rules file, then cached on disk under
:func:`cache_key`: ``DDZSPEC_CACHE_DIR`` overrides the folder), :class:`MoveTable`,
:func:`compile_table`; :func:`shape_bodies` and :func:`body_kickers` for the parts. How the
cache file is keyed, checked and refused (:func:`entry_check`, a
:class:`~ddzspec.errors.CacheWarning`): docs/rules-language.md, "The move table".
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import struct
import sys
import warnings
from array import array
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .cards import FIELD_BITS, KEY_BITS, KEY_MASK, N_RANKS, Cards, pack
from .errors import CacheWarning
from .readings import Reading, make_reading
from .restrictions import holds
from .rules import KIND_SIZE, Rules, Shape
from .rules.model import kickers_in_line

FORMAT_VERSION = 4  # 4: keys of 4 bits a rank (were 3)
#: Magic bytes of a cache file of ours.
MAGIC = b"DDZSPEC-TABLE\0"
#: The modules whose code determines a compiled table (by import name; a package counts with
#: every module in it). :func:`code_digest` hashes their source bytes, so a changed compiler,
#: restriction or rules model never serves a stale cached table (nor a stale check report,
#: :mod:`ddzspec.check`, cached under the same key).
CODE_MODULES = ("ddzspec.table", "ddzspec.restrictions", "ddzspec.readings", "ddzspec.rules",
                "ddzspec.cards", "ddzspec.check")
#: One candidate reading, compactly: (shape index, start, run).
Entry = tuple[int, int, int]


def cache_dir() -> Path:
    """Folder of compiled tables: ``$DDZSPEC_CACHE_DIR`` or platformdirs' user cache dir."""
    env = os.environ.get("DDZSPEC_CACHE_DIR")
    if env:
        return Path(env)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("ddzspec")) / "tables"


def _module_files(name: str) -> list[Path]:
    """The source files of a module or, for a package, of every module in it (sorted)."""
    spec = importlib.util.find_spec(name)
    if spec is None:
        return []
    if spec.submodule_search_locations:
        files: list[Path] = []
        for loc in spec.submodule_search_locations:
            files.extend(sorted(Path(loc).rglob("*.py")))
        return files
    return [Path(spec.origin)] if spec.origin and spec.origin.endswith(".py") else []


_CODE_DIGEST: list[str] = []


def code_digest() -> str:
    """sha256 (20 hex digits) of the source bytes of :data:`CODE_MODULES`, computed once per
    process."""
    if not _CODE_DIGEST:
        h = hashlib.sha256()
        for name in CODE_MODULES:
            for f in _module_files(name):
                h.update(f.name.encode() + b"\0")
                try:
                    h.update(f.read_bytes())
                except OSError:
                    h.update(b"<unreadable>")
        _CODE_DIGEST.append(h.hexdigest()[:20])
    return _CODE_DIGEST[0]


@cache
def package_version() -> str:
    """The installed ddzspec version; ``ddzspec.__version__`` or "0" when not installed.
    Read once per process (reading the installed metadata costs a file read, and
    :func:`get_table` asks for it on every call)."""
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("ddzspec")
    except (ImportError, PackageNotFoundError):
        import ddzspec
        return str(getattr(ddzspec, "__version__", "0"))


def cache_key(rules: Rules) -> str:
    """Everything that determines the compiled table of ``rules``: the digest of the resolved
    rules (deck, jokers, order, shapes, restrictions, largest hand: the whole ``extends`` chain
    as resolved), the package version, the code digest and the format version (24 hex)."""
    spec = f"{rules.digest}|{package_version()}|{code_digest()}|{FORMAT_VERSION}"
    return hashlib.sha256(spec.encode()).hexdigest()[:24]


def kicker_caps(rules: Rules, shape: Shape, body: Sequence[int],
                avail: Sequence[int]) -> list[int]:
    """Per rank, the most kicker cards a candidate with this body can hold: what is left of
    ``avail`` (15 counts) after the body, lowered by what the switched-on restrictions imply
    rank by rank (restriction 3: none of a body rank; restriction 4: at most N; kawu: at most one
    unit; restrictions 1-2: no fourth card of a rank outside a four-card body). A pruning only:
    every candidate is still checked by the restriction predicates (:func:`holds`), so a looser
    cap never changes a table, it only costs time."""
    copies = shape.copies
    unit = KIND_SIZE.get(shape.kicker_kind or "", 1)
    in_body = [False] * N_RANKS
    for i in body:
        in_body[i] = True
    caps = [avail[i] - (copies if in_body[i] else 0) for i in range(N_RANKS)]
    for r in rules.restrictions:
        if not r.binds(shape.name):
            continue
        if r.name == "kicker_not_body_rank":
            for i in body:
                caps[i] = 0
        elif r.name == "kicker_rank_max" and r.param is not None:
            caps = [min(c, r.param) for c in caps]
        elif r.name == "distinct_kicker_ranks":
            caps = [min(c, unit) for c in caps]
        elif r.name == "quad_block":
            for i in range(N_RANKS):
                if not (copies == 4 and in_body[i]):
                    caps[i] = min(caps[i], 3 - (copies if in_body[i] else 0))
    return [max(c, 0) for c in caps]


#: Restrictions that :func:`kicker_caps` and :func:`joker_limit` implement exactly (a kicker set
#: within the caps always satisfies them, for a body that does), so their predicates are called
#: once per body instead of once per candidate.
EXACT_BY_CAPS = frozenset({"kicker_not_body_rank", "kicker_rank_max", "distinct_kicker_ranks",
                           "quad_block", "jokers_not_both_kickers"})


def joker_limit(rules: Rules, body: Sequence[int], shape: Shape | None = None) -> int:
    """The most distinct jokers outside the body that kickers may hold: restrictions 1-2 (the
    joker pair only as the rocket: not every joker in one move unless all are in the body) and
    4 (never every joker among the kickers), seeds 000/002. ``N_RANKS`` when unlimited.
    With ``shape``, only the restrictions that bind it count."""
    def on(name: str) -> bool:
        r = rules.restriction(name)
        return r is not None and (shape is None or r.binds(shape.name))

    jk = rules.jokers
    if len(jk) < 2:
        return N_RANKS
    limit = N_RANKS
    in_body = sum(1 for j in jk if j in body)
    if on("quad_block") and in_body < len(jk):
        limit = min(limit, len(jk) - 1 - in_body)
    if on("jokers_not_both_kickers"):
        limit = min(limit, len(jk) - 1)
    return limit


def _kicker_sets(caps: Sequence[int], units: int, k: int, ranks: Sequence[int],
                 limited: Container[int] = (), limit: int = N_RANKS
                 ) -> list[tuple[int, tuple[int, ...]]]:
    """Every way to choose ``units`` kicker units of ``k`` cards from ``ranks`` (in that order)
    with at most ``caps[r]`` cards of rank ``r``, and at most ``limit`` distinct ranks of
    ``limited`` (the jokers): (packed key of the kickers, their 15 rank counts). Listed with
    the most units of ``ranks[0]`` first, then of ``ranks[1]``…"""
    out = [0] * N_RANKS
    ranks = [r for r in ranks if caps[r] >= k]
    n = len(ranks)
    room = [0] * (n + 1)  # units still placeable from position i on
    lim_left = [0] * (n + 1)  # limited ranks from position i on
    for i in range(n - 1, -1, -1):
        room[i] = room[i + 1] + caps[ranks[i]] // k
        lim_left[i] = lim_left[i + 1] + (ranks[i] in limited)
    inc = [k << (KEY_BITS * r) for r in ranks]
    most_of = [caps[r] // k for r in ranks]
    is_lim = [r in limited for r in ranks]
    found: list[tuple[int, tuple[int, ...]]] = []
    push = found.append

    def rec(pos: int, left: int, key: int, used: int) -> None:
        if left == 0:
            push((key, tuple(out)))
            return
        if room[pos] < left:
            return
        if left == room[pos] and used + lim_left[pos] <= limit:
            # every remaining unit is needed: take them all
            for j in range(pos, n):
                out[ranks[j]] = most_of[j] * k
                key += most_of[j] * inc[j]
            push((key, tuple(out)))
            for j in range(pos, n):
                out[ranks[j]] = 0
            return
        r = ranks[pos]
        most = min(left, most_of[pos])
        lim = is_lim[pos]
        if lim and used >= limit:
            most = 0
        step = inc[pos]
        for m in range(most, 0, -1):
            out[r] = m * k
            rec(pos + 1, left - m, key + m * step, used + lim)
        out[r] = 0
        rec(pos + 1, left, key, used)

    rec(0, units, 0, 0)
    return found


def shape_bodies(rules: Rules, shape_index: int, within: Sequence[int] | None = None,
                 sizes: Container[int] | None = None) -> Iterator[tuple[int, int]]:
    """Every body (start, run) of one shape whose move fits in the largest hand, whose body
    ranks ``within`` (15 counts; default the deck) holds and, with ``sizes``, whose move has
    one of those card counts."""
    shape = rules.shapes[shape_index]
    within = rules.deck if within is None else within
    total = sum(within)
    for run in range(shape.run_min, shape.run_max + 1):
        size = shape.size(run)
        if size > rules.max_cards or size > total or (sizes is not None and size not in sizes):
            continue
        for start in shape.starts(run):
            if all(within[i] >= shape.copies for i in shape.seq[start:start + run]):
                yield start, run


_ZERO = (0,) * N_RANKS


def body_kickers(rules: Rules, shape_index: int, start: int, run: int,
                 within: Sequence[int] | None = None
                 ) -> Iterator[tuple[int, Sequence[int]]]:
    """Every kicker multiset of one body whose restrictions hold, using only cards of ``within``
    (15 counts; default the deck: the table; a hand: what that hand can play): (packed key of
    the kickers, their 15 counts). Yielded in hint order: the
    kickers' ranks sorted by strength, compared low to high (most low kickers first). A body
    without kickers yields one empty kicker set if its restrictions hold."""
    shape = rules.shapes[shape_index]
    within = rules.deck if within is None else within
    body = shape.seq[start:start + run]
    base = [0] * N_RANKS
    for i in body:
        base[i] = shape.copies
    units = shape.units(run)
    restrictions = rules.restrictions
    if any(r.shapes for r in restrictions):
        restrictions = tuple(r for r in restrictions if r.binds(shape.name))
    if units == 0:
        if all(holds(r, rules, shape, base, body, _ZERO) for r in restrictions):
            yield 0, _ZERO
        return
    k = KIND_SIZE.get(shape.kicker_kind or "", 1)
    if not all(holds(r, rules, shape, base, body, _ZERO) for r in restrictions
               if r.name in EXACT_BY_CAPS):
        return  # the body alone breaks a restriction that kickers cannot mend
    caps = kicker_caps(rules, shape, body, within)
    ranks = sorted((i for i in range(N_RANKS) if caps[i]), key=rules.strength.__getitem__)
    exact = EXACT_BY_CAPS
    if any(j in body for j in rules.jokers):  # limits count only the jokers outside the body
        exact = exact - {"jokers_not_both_kickers"}
    checked = [r for r in restrictions if r.name not in exact]
    jk = [j for j in rules.jokers if j not in body]
    sets = _kicker_sets(caps, units, k, ranks, jk, joker_limit(rules, body, shape))
    if shape.kickers_consecutive:
        sets = [(kk, kick) for kk, kick in sets if kickers_in_line(shape, kick)]
    if not checked:
        yield from sets
        return
    for kkey, kick in sets:
        counts = [b + c for b, c in zip(base, kick)]
        if all(holds(r, rules, shape, counts, body, kick) for r in checked):
            yield kkey, kick


def body_key(shape: Shape, start: int, run: int) -> int:
    """Packed key of the body ``seq[start:start+run]`` of a shape (``copies`` per rank)."""
    return sum(shape.copies << (KEY_BITS * i) for i in shape.seq[start:start + run])


def body_candidates(rules: Rules, shape_index: int, start: int, run: int,
                    within: Sequence[int] | None = None) -> Iterator[tuple[int, Entry]]:
    """Every (packed multiset, entry) of one body whose restrictions hold, within ``within``
    (see :func:`body_kickers`). The entry tuple is shared by every candidate of the body."""
    entry: Entry = (shape_index, start, run)
    bkey = body_key(rules.shapes[shape_index], start, run)
    for kkey, _ in body_kickers(rules, shape_index, start, run, within):
        yield bkey + kkey, entry


def candidate_entries(rules: Rules, shape_index: int, within: Sequence[int] | None = None,
                      sizes: Container[int] | None = None) -> Iterator[tuple[int, Entry]]:
    """Every (packed multiset, entry) of one shape whose restrictions hold, within ``within``
    (default the deck) and, with ``sizes``, of those card counts."""
    for start, run in shape_bodies(rules, shape_index, within, sizes):
        yield from body_candidates(rules, shape_index, start, run, within)


def group_candidates(cands: Iterable[tuple[int, Entry]], entries: dict[int, Entry],
                     ambiguous: dict[int, tuple[Entry, ...]]) -> None:
    """Add candidates to ``entries`` (one reading) and ``ambiguous`` (several readings: two
    candidates of one multiset always differ in type or body)."""
    for key, e in cands:
        old = entries.pop(key, None)
        if old is not None:
            ambiguous[key] = (old, e)
        elif key in ambiguous:
            ambiguous[key] += (e,)
        else:
            entries[key] = e


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


def all_bodies(rules: Rules) -> list[tuple[int, int, int]]:
    """Every (shape index, start, run) body of the rules' table, in shape order."""
    return [(si, start, run) for si in range(len(rules.shapes))
            for start, run in shape_bodies(rules, si)]


def compile_table(rules: Rules,
                  progress: Callable[[int, int, str], None] | None = None) -> MoveTable:
    """Compile the table of ``rules`` from scratch (no cache). ``progress(done, total, name)``
    is called after each body (a shape's run start and length: one huge shape reports progress
    too), ``name`` the shape's. Memory: one dict slot per legal move (entries are shared)."""
    entries: dict[int, Entry] = {}
    ambiguous: dict[int, tuple[Entry, ...]] = {}
    bodies = all_bodies(rules)
    for done, (si, start, run) in enumerate(bodies, 1):
        group_candidates(body_candidates(rules, si, start, run), entries, ambiguous)
        if progress:
            progress(done, len(bodies), rules.shapes[si].name)
    return MoveTable(rules, entries, ambiguous)


_LOADED: dict[str, MoveTable] = {}
_HEADER = struct.Struct("<H H 24s Q Q Q")  # format, entry width, key, entries, ambiguous, cands
_DIGEST = 32  # the SHA-256 trailer of a table file


#: The most characters of a rules name kept in a cache file's name: the key names the table, the
#: name only helps a person reading the folder, and a rules name may be far longer than the 255
#: bytes a file name may hold.
CACHE_NAME_CHARS = 64


def cache_file(rules: Rules, suffix: str) -> Path:
    """The cache file of ``rules`` ending in ``suffix`` (``.table``, ``.check.json``): the rules
    name cut to :data:`CACHE_NAME_CHARS`, then :func:`cache_key` (so well under 255 bytes)."""
    return cache_dir() / f"{rules.name[:CACHE_NAME_CHARS]}-{cache_key(rules)}{suffix}"


def table_path(rules: Rules) -> Path:
    """Where the compiled table of ``rules`` is cached (named by :func:`cache_key`)."""
    return cache_file(rules, ".table")


def _pack_entry(e: Entry) -> int:
    return (e[0] << 16) | (e[1] << 8) | e[2]


def _unpack_entry(v: int) -> Entry:
    return (v >> 16, (v >> 8) & 0xFF, v & 0xFF)


def write_table(table: MoveTable, path: Path, key: str) -> None:
    """Write ``table`` atomically (temp file + rename): header (magic, format, key, sizes),
    flat little-endian arrays of packed keys and entries, then the SHA-256 (32 bytes) of
    everything before it. Raises OSError."""
    keys = array("Q", table.entries)
    ents = array("I", (_pack_entry(e) for e in table.entries.values()))
    akeys = array("Q", table.ambiguous)
    alens = array("I", (len(v) for v in table.ambiguous.values()))
    aents = array("I", (_pack_entry(e) for v in table.ambiguous.values() for e in v))
    if sys.byteorder != "little":  # pragma: no cover - the file is little-endian
        for a in (keys, ents, akeys, alens, aents):
            a.byteswap()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    body = b"".join([MAGIC, _HEADER.pack(FORMAT_VERSION, 4, key.encode("ascii"), len(keys),
                                          len(akeys), len(aents)),
                     *(a.tobytes() for a in (keys, ents, akeys, alens, aents))])
    try:
        with tmp.open("wb") as f:
            f.write(body)
            f.write(hashlib.sha256(body).digest())
        tmp.replace(path)
    finally:
        if tmp.exists():
            tmp.unlink()


#: The largest table file read (the header's sizes are compared with the file's before any of
#: its body is read): the largest shipped rules' table is under 1 MiB.
MAX_TABLE_BYTES = 1024 * 1024 * 1024
#: The lowest bit of every field above the first and the bit past the last: where a subtraction
#: of packed multisets borrows when a field of the second is larger.
_BORROWS = sum(1 << (KEY_BITS * i) for i in range(1, N_RANKS + 1))
#: Lanes of two fields (8 bits) of a packed multiset, the low field of each lane's pair, and
#: the multiplier that adds every lane into the top one (:func:`_size`).
_LANE = 2 * KEY_BITS
_LANES = sum(KEY_MASK << (_LANE * i) for i in range((N_RANKS + 1) // 2))
_ADD_LANES = sum(1 << (_LANE * i) for i in range((N_RANKS + 1) // 2))
_TOP_LANE = _LANE * ((N_RANKS + 1) // 2 - 1)
assert N_RANKS * KEY_MASK < 1 << _LANE  # the largest sum fits one lane


def _size(key: int) -> int:
    """The cards of a packed multiset: each pair of fields added into an 8-bit lane, then the
    lanes into the top lane by one multiplication."""
    s = (key & _LANES) + ((key >> KEY_BITS) & _LANES)
    return ((s * _ADD_LANES) >> _TOP_LANE) & ((1 << _LANE) - 1)


def _covers(big: int, small: int) -> bool:
    """Whether every rank count of the packed multiset ``big`` is at least ``small``'s (the
    subtraction borrows nowhere)."""
    d = big - small
    return d >= 0 and (big ^ small ^ d) & _BORROWS == 0


def entry_check(rules: Rules) -> Callable[[int, Entry], bool]:
    """A test of one (packed multiset, entry) pair of a table file of ``rules``, made before
    the file is trusted: the entry names a shape body of the rules (shape index, start, run
    within its bounds) and the multiset can be read so: cards of the deck, the body's cards,
    kickers of the shape's kind (pairs: an even count of a rank) and the shape's number of
    cards. Restrictions are not checked (a table file is integrity-checked, not proof of
    authorship: see the module doc)."""
    deck = pack(rules.deck)
    bodies: dict[Entry, tuple[int, int, bool] | None] = {}

    def body(e: Entry) -> tuple[int, int, bool] | None:
        si, start, run = e
        if si >= len(rules.shapes):
            return None
        shape = rules.shapes[si]
        if not (shape.run_min <= run <= shape.run_max and start in shape.starts(run)):
            return None
        return body_key(shape, start, run), shape.size(run), shape.kicker_kind == "pair"

    def check(key: int, e: Entry) -> bool:
        if e not in bodies:
            bodies[e] = body(e)
        b = bodies[e]
        if b is None or not (_covers(deck, key) and _covers(key, b[0])):
            return False
        if _size(key) != b[1]:
            return False
        return not b[2] or (key - b[0]) & FIELD_BITS[0] == 0
    return check


def read_table(rules: Rules, path: Path, key: str) -> MoveTable:
    """Read a table written by :func:`write_table`, checking before trusting: the header first
    (magic, format, key), then the file's size against the sizes it declares (a foreign or
    padded file is never read whole), the SHA-256 trailer (integrity: damage on disk), and
    every entry (:func:`entry_check`). Raises ValueError when the file is not ours, of another
    format or key, truncated, padded, damaged or inconsistent; OSError as reading does."""
    head = len(MAGIC) + _HEADER.size
    with path.open("rb") as f:
        data = f.read(head)
        if len(data) < head or not data.startswith(MAGIC):
            raise ValueError("not a ddzspec table file")
        fmt, width, k, n, na, nae = _HEADER.unpack_from(data, len(MAGIC))
        if fmt != FORMAT_VERSION or width != 4:
            raise ValueError(f"format {fmt}, expected {FORMAT_VERSION}")
        if k != key.encode("ascii"):
            raise ValueError("written for other rules or code")
        size = head + 8 * n + 4 * n + 8 * na + 4 * na + 4 * nae + _DIGEST
        actual = os.fstat(f.fileno()).st_size
        if actual != size:
            raise ValueError(f"truncated or padded ({actual} bytes, its header says {size})")
        if size > MAX_TABLE_BYTES:
            raise ValueError(f"{size} bytes: larger than any table")
        data += f.read(size - head + 1)  # one byte more: a file that grew meanwhile
    if len(data) != size:
        raise ValueError("truncated or padded while read")
    if hashlib.sha256(data[:-_DIGEST]).digest() != data[-_DIGEST:]:
        raise ValueError("damaged: its checksum does not match its contents")
    off = head
    parts = []
    for code, count in (("Q", n), ("I", n), ("Q", na), ("I", na), ("I", nae)):
        a = array(code)
        size = a.itemsize * count
        a.frombytes(data[off:off + size])
        if sys.byteorder != "little":  # pragma: no cover - the file is little-endian
            a.byteswap()
        parts.append(a)
        off += size
    keys, ents, akeys, alens, aents = parts
    if sum(alens) != nae:
        raise ValueError("inconsistent ambiguous entries")
    entries = {kk: _unpack_entry(e) for kk, e in zip(keys, ents)}
    ambiguous: dict[int, tuple[Entry, ...]] = {}
    pos = 0
    for kk, ln in zip(akeys, alens):
        ambiguous[kk] = tuple(_unpack_entry(e) for e in aents[pos:pos + ln])
        pos += ln
    if len(entries) != n or len(ambiguous) != na or not entries.keys().isdisjoint(ambiguous):
        raise ValueError("a multiset listed twice")
    check = entry_check(rules)
    if not all(check(kk, e) for kk, e in entries.items()) or not all(
            len(es) > 1 and all(check(kk, e) for e in es) for kk, es in ambiguous.items()):
        raise ValueError("an entry names no shape body of these rules, or a multiset that "
                         "body cannot be read from")
    return MoveTable(rules, entries, ambiguous)


def get_table(rules: Rules, progress: Callable[[int, int, str], None] | None = None,
              use_cache: bool = True) -> MoveTable:
    """The move table of ``rules``: from memory, else the disk cache, else compiled (and
    cached). A cache file that is not exactly ours (foreign, corrupt, truncated, of another
    format or key) is recompiled with a :class:`~ddzspec.errors.CacheWarning`, never trusted;
    a read-only cache folder is not an error (the table stays in memory)."""
    key = cache_key(rules)
    if use_cache and key in _LOADED:
        return _LOADED[key].bound_to(rules)
    path = table_path(rules)
    table = None
    if use_cache and path.is_file():
        try:
            table = read_table(rules, path, key)
        except (OSError, ValueError) as e:
            warnings.warn(f"ddzspec: cached move table {path} ignored ({e}); recompiling",
                          CacheWarning, stacklevel=2)
            table = None
    if table is None:
        table = compile_table(rules, progress)
        if use_cache:
            try:
                write_table(table, path, key)
            except OSError:
                pass  # a read-only cache is not an error: the table is in memory
    if use_cache:
        _LOADED[key] = table
    return table


def loaded_table(rules: Rules) -> MoveTable | None:
    """The table of ``rules`` if it is already in memory (no disk access, no compile)."""
    got = _LOADED.get(cache_key(rules))
    return None if got is None else got.bound_to(rules)


def is_cached(rules: Rules) -> bool:
    """Whether a compiled table for ``rules`` is on disk or in memory."""
    return cache_key(rules) in _LOADED or table_path(rules).is_file()
