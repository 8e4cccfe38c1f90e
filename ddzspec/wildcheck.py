"""What ``ddzspec check`` proves of a rules file with wild cards (issue 26): per wild rank and
in total, the playable multisets, those with exactly one reading, several readings of one type,
readings of several types, and readings on both sides of the bomb line; the largest choice set
(the ``declared`` policy's question) and, under ``strongest``, the multisets the type priority
settles (readings of several types). Each count is given with no wild restriction and under the
file's restrictions.

The enumeration runs backwards from the natural move table (:mod:`ddzspec.table`, the natural
readings of every legal multiset, compiled by the same restriction predicates as the CSP): every
legal natural move ``m`` and every choice ``k`` of at most ``count`` cards of it (never a joker)
to be wild gives the wild move (natural ``m - k``, ``|k|`` wild cards) the reading of ``m`` with
the wild cards standing for ``k``. A wild move's readings do not depend on which rank is wild,
only on the wild rank being absent from its natural cards: one pass serves every rank. Moves of
wild cards only read as themselves. :func:`ddzspec.wild.wild_readings` derives the same readings
forwards, one move at a time; the tests compare the two.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import wild as wild_module
from ._io import read_input
from .cards import ALL_RANKS, KEY_BITS, KEY_MASK, N_RANKS, pack, unpack
from .check import cached_report
from .errors import RulesError
from .rules import Rules
from .rules.model import ReadingPolicy, WildRestriction, WildRestrictionKind
from .table import CACHE_NAME_CHARS, MoveTable, cache_dir, cache_key, get_table
from .wild import WildReading, require_wild

_COUNT_BITS = 16  # a move has at most C(13 + 3, 4) = 1820 substitutions: 16 bits hold them
_COUNT = (1 << _COUNT_BITS) - 1
_BOMB_SIDE = 1 << _COUNT_BITS      # some reading above the bomb line (tier > 0)
_PLAIN_SIDE = 1 << (_COUNT_BITS + 1)  # some reading at tier 0
_SHAPE_SHIFT = _COUNT_BITS + 2


@dataclass(frozen=True, slots=True)
class WildCounts:
    """Counts over wild moves (natural cards plus wild cards): ``playable`` (at least one
    reading), ``one`` (exactly one), ``one_type`` (several readings, one type), ``types``
    (readings of several types), ``bomb_line`` (readings on both sides of the bomb line: the
    multiplier depends on the reading) and ``largest`` (the most readings of one move)."""

    playable: int = 0
    one: int = 0
    one_type: int = 0
    types: int = 0
    bomb_line: int = 0
    largest: int = 0

    def __add__(self, o: WildCounts) -> WildCounts:
        return WildCounts(self.playable + o.playable, self.one + o.one,
                          self.one_type + o.one_type, self.types + o.types,
                          self.bomb_line + o.bomb_line, max(self.largest, o.largest))

    def to_json(self) -> dict[str, int]:
        return {"playable": self.playable, "one_reading": self.one,
                "several_one_type": self.one_type, "several_types": self.types,
                "crossing_bomb_line": self.bomb_line, "largest_choice_set": self.largest}


@dataclass(frozen=True)
class WildReport:
    """The wild counts of a rules file: for each restriction set (``"none"`` and, when the file
    declares some, ``"file"``) the counts per wild rank index (``per_rank``) and in total."""

    rules: Rules
    per_rank: dict[str, dict[int, WildCounts]] = field(default_factory=dict)
    restrictions: dict[str, tuple[WildRestriction, ...]] = field(default_factory=dict)

    def total(self, variant: str) -> WildCounts:
        """The counts of ``variant`` summed over the wild ranks."""
        out = WildCounts()
        for c in self.per_rank[variant].values():
            out = out + c
        return out


def _violations(restrictions: tuple[WildRestriction, ...]) -> tuple[int, int, int]:
    """(bit of no_wild_kicker, bit of bomb_min_natural, its N) over ``restrictions``."""
    nwk = bmn = need = 0
    for i, r in enumerate(restrictions):
        if r.kind is WildRestrictionKind.NO_WILD_KICKER:
            nwk = 1 << i
        elif r.kind is WildRestrictionKind.BOMB_MIN_NATURAL:
            bmn, need = 1 << i, r.param or 0
    return nwk, bmn, need


#: Ranks per look-up of :func:`_presence_table`, and their bits in a packed key.
_PRESENCE_RANKS = 3
_PRESENCE_BITS = KEY_BITS * _PRESENCE_RANKS
assert N_RANKS == 5 * _PRESENCE_RANKS


def _presence_table() -> list[int]:
    """For 3 ranks' packed counts (12 bits): the 3-bit mask of the ranks present."""
    return [sum(1 << j for j in range(_PRESENCE_RANKS) if (v >> (KEY_BITS * j)) & KEY_MASK)
            for v in range(1 << _PRESENCE_BITS)]


def compile_wild_report(rules: Rules,
                        progress: Callable[[int, int, str], None] | None = None,
                        keep: dict[int, tuple[int, int, bool]] | None = None) -> WildReport:
    """The :class:`WildReport` of ``rules`` (which must declare wild cards), size class by size
    class of the natural moves; ``progress(done, total, size)`` after every 1,000 moves.
    ``keep``: wild moves (:func:`move_key` of the natural cards and the wild count) to
    summarise with no wild restriction: the playable ones are set to (readings, shapes as a bit
    mask by shape index, readings on both sides of the bomb line), what :func:`summary`
    derives forwards; the others are left as they are."""
    wild = require_wild(rules)
    if wild.count > 1:
        raise RulesError(f"check of {wild.count} wild ranks at once is not written yet (one "
                         "wild rank: laizi; with up to 8 wild cards the backward count visits "
                         "about 10 times laizi's (move, wild choice) pairs, 68 million, and "
                         "holds 4 times its wild moves, 8 million: see "
                         "bench/tiandi_check.py)", rules.path)
    table = get_table(rules)
    bomb_index = next(i for i, s in enumerate(rules.shapes) if s.name == wild.bomb)
    variants: dict[str, tuple[WildRestriction, ...]] = {"none": ()}
    if wild.restrictions:
        variants["file"] = wild.restrictions
    nwk, bmn, need = _violations(wild.restrictions)
    masks = [0] + ([(1 << len(wild.restrictions)) - 1] if wild.restrictions else [])
    most = wild.count * max(rules.deck[i] for i in range(N_RANKS) if i not in rules.jokers)
    wildable = [i for i in range(N_RANKS) if rules.deck[i] and i not in rules.jokers]
    rank_sets = sorted({r for d in wild.draws for r in d.ranks})
    by_size: dict[int, list[int]] = {}
    for key in table.entries:
        by_size.setdefault(sum(unpack(key)), []).append(key)
    presence = _presence_table()
    counts: list[dict[int, list[int]]] = [{r: [0] * 6 for r in rank_sets} for _ in masks]
    total, done = len(table.entries), 0
    for size in sorted(by_size):
        accs: list[dict[int, int]] = [{} for _ in masks]
        for mkey in by_size[size]:
            si, start, run = table.entries[mkey]
            shape = rules.shapes[si]
            body = [0] * N_RANKS
            for i in shape.seq[start:start + run]:
                body[i] = shape.copies
            side = _BOMB_SIDE if shape.tier else _PLAIN_SIDE
            bits = side | (1 << (_SHAPE_SHIFT + si))
            counts_m = unpack(mkey)
            # every choice of wild cards: (packed k, |k|, a wild in the kickers, k at the body)
            ks = [(0, 0, False)]
            for i in wildable:
                c = counts_m[i]
                if not c:
                    continue
                sh, b = KEY_BITS * i, body[i]
                ks = [(kk + (x << sh), w + x, f or x > b) for kk, w, f in ks
                      for x in range(min(c, most - w) + 1)]
            is_bomb = si == bomb_index
            for kk, w, kick in ks:
                if w == size:
                    continue  # wild cards only: they read as themselves (below)
                viol = nwk if kick else 0
                if is_bomb and w and size - w < need:
                    viol |= bmn
                key = ((mkey - kk) << KEY_BITS) | w
                for acc, mask in zip(accs, masks):
                    if not viol & mask:
                        acc[key] = (acc.get(key, 0) | bits) + 1
            done += 1
            if progress and (done % 1000 == 0 or done == total):
                progress(done, total, f"{size} cards")
        if keep is not None:
            for key in keep.keys() & accs[0].keys():
                v = accs[0][key]
                keep[key] = (v & _COUNT, v >> _SHAPE_SHIFT,
                             bool(v & _BOMB_SIDE and v & _PLAIN_SIDE))
        for acc, per in zip(accs, counts):
            _tally(acc, per, presence)
        del accs
    _all_wild(rules, table, counts)
    report = WildReport(rules, restrictions=variants)
    for (name, _), per in zip(variants.items(), counts):
        report.per_rank[name] = {r: WildCounts(*v) for r, v in per.items()}
    return report


def move_key(natural: Sequence[int], wilds: int) -> int:
    """The key of a wild move in the enumeration: its natural cards packed, then the wild
    count (one more field of :data:`~ddzspec.cards.KEY_BITS` bits)."""
    return (pack(natural) << KEY_BITS) | wilds


def summary(rules: Rules, readings: Sequence[WildReading]) -> tuple[int, int, bool]:
    """(readings, shapes as a bit mask by shape index, readings on both sides of the bomb
    line) of a wild move's readings (:func:`ddzspec.wild.wild_readings`)."""
    index = {s.name: i for i, s in enumerate(rules.shapes)}
    shapes = 0
    for r in readings:
        shapes |= 1 << index[r.reading.shape]
    sides = {r.reading.tier > 0 for r in readings}
    return len(readings), shapes, len(sides) == 2


def _tally(acc: dict[int, int], per: dict[int, list[int]], presence: list[int]) -> None:
    """Add the moves of ``acc`` (packed natural cards and wild count → packed readings
    summary) to the counts of every wild rank their natural cards lack."""
    by_absent: dict[int, list[int]] = {}
    b, m = _PRESENCE_BITS, (1 << _PRESENCE_BITS) - 1  # five look-ups of 3 ranks: 15 ranks
    for key, v in acc.items():
        n = key >> KEY_BITS
        present = (presence[n & m] | presence[(n >> b) & m] << 3 | presence[(n >> 2 * b) & m] << 6
                   | presence[(n >> 3 * b) & m] << 9 | presence[(n >> 4 * b) & m] << 12)
        row = by_absent.get(present)
        if row is None:
            row = by_absent[present] = [0] * 6
        count = v & _COUNT
        shapes = v >> _SHAPE_SHIFT
        row[0] += 1
        if count == 1:
            row[1] += 1
        elif shapes & (shapes - 1):
            row[3] += 1
        else:
            row[2] += 1
        if v & _BOMB_SIDE and v & _PLAIN_SIDE:
            row[4] += 1
        row[5] = max(row[5], count)
    for present, row in by_absent.items():
        for r, tot in per.items():
            if not present >> r & 1:
                for j in range(5):
                    tot[j] += row[j]
                tot[5] = max(tot[5], row[5])


def _all_wild(rules: Rules, table: MoveTable, counts: list[dict[int, list[int]]]) -> None:
    """Moves of wild cards only: one reading each, themselves (when the natural rules read
    that many cards of the rank at all)."""
    for per in counts:
        for r, tot in per.items():
            for w in range(1, rules.deck[r] + 1):
                if (w << (KEY_BITS * r)) in table.entries:
                    tot[0] += 1
                    tot[1] += 1
                    tot[5] = max(tot[5], 1)


#: The columns of the counts (their JSON keys and headings), in order.
COLUMNS = (("playable", "playable"), ("one_reading", "one reading"),
           ("several_one_type", "several, one type"), ("several_types", "several types"),
           ("crossing_bomb_line", "bomb line"), ("largest_choice_set", "largest set"))


def rank_symbols(report: WildReport, notation: str = "en") -> dict[int, str]:
    """The symbol (in ``notation``) of each wild rank index of the report, low to high."""
    ranks = next(iter(report.per_rank.values()))
    return {r: ALL_RANKS[r].symbol(notation) for r in ranks}


def policy_words(report: WildReport, variant: str) -> str:
    """What the file's reading policy makes of the counts of ``variant``, in one line."""
    wild = require_wild(report.rules)
    t = report.total(variant)
    several = t.one_type + t.types
    if wild.policy is ReadingPolicy.DECLARED:
        return (f"reading declared: {several} moves offer a choice of readings (the player "
                f"states one); the largest choice set has {t.largest} readings")
    return (f"reading strongest: the highest body settles {t.one_type} moves of one type; "
            f"the type priority settles {t.types} moves of several types when leading "
            f"({t.bomb_line} of them on both sides of the bomb line: the multiplier depends on "
            "the reading)")


def wild_json(report: WildReport, notation: str = "en") -> dict[str, object]:
    """The report as JSON: the policy and, per restriction set, the restrictions, the total
    and the counts per wild rank (by symbol in ``notation``)."""
    wild = require_wild(report.rules)
    return {"policy": wild.policy.value, "priority": list(wild.priority),
            "variants": {v: {"restrictions": [str(r) for r in report.restrictions[v]],
                             "total": report.total(v).to_json(),
                             "per_rank": {sym: report.per_rank[v][r].to_json()
                                          for r, sym in rank_symbols(report, notation).items()}}
                         for v in report.per_rank}}


MAGIC = "ddzspec-wild-check"
FORMAT_VERSION = 1
#: The largest cached wild report read (a report is a few KiB).
MAX_REPORT_BYTES = 1024 * 1024
_REPORTS: dict[str, WildReport] = {}


def report_key(rules: Rules) -> str:
    """What determines the wild report of ``rules``: the move table's key
    (:func:`ddzspec.table.cache_key`), the wild section and the code of this module and of
    :mod:`ddzspec.wild` (24 hex)."""
    h = hashlib.sha256(f"{cache_key(rules)}|{rules.wild!r}|{FORMAT_VERSION}".encode())
    for module in (__file__, wild_module.__file__):
        h.update(Path(module).read_bytes())
    return h.hexdigest()[:24]


def report_path(rules: Rules) -> Path:
    """Where the wild report of ``rules`` is cached, beside the move tables."""
    return cache_dir() / f"{rules.name[:CACHE_NAME_CHARS]}-{report_key(rules)}.wild.json"


def _payload(report: WildReport) -> dict[str, Any]:
    return {v: {"restrictions": [str(r) for r in report.restrictions[v]],
                "per_rank": {str(r): list(_fields(c)) for r, c in per.items()}}
            for v, per in report.per_rank.items()}


def _fields(c: WildCounts) -> tuple[int, ...]:
    return c.playable, c.one, c.one_type, c.types, c.bomb_line, c.largest


def _digest(payload: object) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def _read(rules: Rules, path: Path, key: str) -> WildReport:
    """A cached report, every field checked against ``rules`` (ValueError otherwise)."""
    data: Any = json.loads(read_input(path, MAX_REPORT_BYTES))
    if not isinstance(data, dict) or data.get("magic") != MAGIC:
        raise ValueError("not a ddzspec wild report")
    if data.get("format") != FORMAT_VERSION or data.get("key") != key:
        raise ValueError("written for other rules, code or format")
    payload = data.get("variants")
    if data.get("sha256") != _digest(payload):
        raise ValueError("damaged: its checksum does not match its contents")
    wild = require_wild(rules)
    expected = {"none": ()} | ({"file": wild.restrictions} if wild.restrictions else {})
    ranks = sorted({r for d in wild.draws for r in d.ranks})
    if not isinstance(payload, dict) or list(payload) != list(expected):
        raise ValueError("other restriction sets")
    report = WildReport(rules, restrictions=expected)
    for v, cut in expected.items():
        item = payload[v]
        if not isinstance(item, dict) or item.get("restrictions") != [str(r) for r in cut]:
            raise ValueError("other restrictions")
        per = item.get("per_rank")
        if not isinstance(per, dict) or list(per) != [str(r) for r in ranks]:
            raise ValueError("other wild ranks")
        counts: dict[int, WildCounts] = {}
        for r in ranks:
            row = per[str(r)]
            if not (isinstance(row, list) and len(row) == 6 and all(
                    isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in row)):
                raise ValueError("bad counts")
            c = WildCounts(*row)
            if c.one + c.one_type + c.types != c.playable or c.bomb_line > c.playable:
                raise ValueError("counts that do not add up")
            counts[r] = c
        report.per_rank[v] = counts
    return report


def wild_report(rules: Rules, progress: Callable[[int, int, str], None] | None = None,
                use_cache: bool = True) -> WildReport:
    """The :class:`WildReport` of ``rules``: from memory, else the disk cache when its key
    matches and every field checks, else compiled (:func:`compile_wild_report`) and cached.
    An untrusted cache file is recomputed with a :class:`~ddzspec.errors.CacheWarning`; a
    read-only cache folder is not an error."""
    key = report_key(rules)

    def payload(report: WildReport) -> dict[str, Any]:
        variants = _payload(report)
        return {"magic": MAGIC, "format": FORMAT_VERSION, "key": key, "variants": variants,
                "sha256": _digest(variants)}
    return cached_report(_REPORTS, key, report_path(rules), "wild report",
                         lambda path: _read(rules, path, key),
                         lambda: compile_wild_report(rules, progress), payload, use_cache)
