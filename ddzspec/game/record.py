"""Deal records: save, resume (the seed 003 *autosave*), replay and transcripts.

A record (``"format": "ddzspec-record"``, version 4 when its rules have wild cards, 3 when
they have a round, else 2) is
JSON carrying the resolved rules text,
the deal's start options, every action and the result, so that it replays on any machine under
exactly the rules it carries. Entry points: :func:`save`, :func:`load` and :func:`record_of`
(a state's :class:`Record`), :func:`replay` (validated action by action, :class:`Replay`),
:func:`resume` (the same state again), :func:`record_rules`, :func:`transcript` and
:func:`result_lines`; a record that cannot be read or reproduced raises
:class:`RecordError`.

The format field by field, and how replay finds the rules: docs/game.md, "Design notes,
module by module".
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .._io import read_input, write_atomic, write_problem
from ..cards import ALL_RANKS
from ..errors import DdzError, GameError, RecordError, RulesError
from ..rules import (
    Round,
    RoundOrder,
    Rules,
    Scope,
    builtin_rules,
    load_rules,
    load_rules_text,
    resolved_text,
)
from ..wild import WildMove
from ..wildmoves import split_hand
from .actions import ROUND_KINDS, Action, json_text
from .bidding import current_round, talon_taken
from .dealing import attempt_wild, rank_index
from .enums import ActionKind, Phase, Winner
from .state import GameState, same_rules

FORMAT = "ddzspec-record"
#: The version a record whose rules have a round is written with (:func:`record_version`):
#: version 3 reads ``answer`` without ``for`` as table-wide; version 2 records, saved before
#: ``answer … for`` was in the rules language, are migrated (:func:`migrate_v2_rounds`).
VERSION = 3
#: The version a record whose rules have wild cards is written with: its deal holds ``wild``,
#: the wild ranks drawn in each deal attempt (rank symbols), replayed and checked; a play
#: under ``reading declared`` holds the reading stated (``"as": "3333"``, the cards it makes;
#: optional: records saved before it, and plays under ``strongest``, have none), replayed and
#: checked like the play (:func:`ddzspec.game.play.wild_reading`).
WILD_VERSION = 4
READ_VERSIONS = (1, 2, 3, 4)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def rules_sha256(rules: Rules) -> str:
    """sha256 (hex) of the resolved rules text (:func:`ddzspec.rules.resolved_text`, UTF-8):
    equal for two Rules exactly when a deal plays the same under both."""
    return _sha256(resolved_text(rules))


@dataclass(frozen=True, slots=True)
class Record:
    """A deal's full record (see the module doc for the JSON form).

    ``rules_text``: the resolved rules (None in a version 1 record); ``rules_sha256``: its
    sha256 (version 1: of the rules file's bytes); ``rules_without``: shapes dropped when the
    deal was played (for the label; the text already leaves them out). ``seed``, ``hands``,
    ``talon``, ``first``: the options the deal was started with (:meth:`start_options`);
    ``result``: the result's JSON object or None; ``version``: the format version read (or
    to write: :func:`record_version`)."""

    rules_name: str
    rules_sha256: str
    rules_digest: str
    seed: int | str | None
    actions: tuple[Action, ...]
    result: dict[str, Any] | None = None
    rules_text: str | None = None
    rules_without: tuple[str, ...] = ()
    hands: tuple[str, ...] | None = None
    talon: str | None = None
    first: int | None = None
    version: int = VERSION
    #: ``play --seat``: the person's seat and every seat's level (module doc), or None.
    terminal_seat: int | None = None
    terminal_levels: tuple[int, ...] | None = None
    #: the wild ranks drawn in each deal attempt (rank indices; version 4, wild rules), or None
    wild: tuple[tuple[int, ...], ...] | None = None

    def start_options(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`GameState.new` that start the recorded deal."""
        out: dict[str, Any] = {"seed": self.seed}
        if self.hands is not None:
            out.update(hands=list(self.hands), talon=self.talon)
        if self.first is not None:
            out["first"] = self.first
        if self.hands is not None and self.wild:  # an explicit deal states its wild ranks
            out["wild"] = self.wild[0]
        return out

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready dict (version 1 without a rules text, else :attr:`version`: the text is
        written as read, so its version stays the one it is read under)."""
        deal: dict[str, Any] = {"seed": self.seed}
        if self.hands is not None:
            deal.update({"hands": list(self.hands), "talon": self.talon})
        if self.first is not None:
            deal["first"] = self.first
        if self.wild is not None:
            deal["wild"] = [[ALL_RANKS[i].symbol() for i in w] for w in self.wild]
        rules: dict[str, Any] = {"name": self.rules_name, "without": list(self.rules_without),
                                 "sha256": self.rules_sha256, "digest": self.rules_digest}
        if self.rules_text is not None:
            rules["text"] = self.rules_text.splitlines()
        out = {"format": FORMAT, "version": self.version if self.rules_text is not None else 1,
               "rules": rules, "deal": deal, "actions": [a.to_json() for a in self.actions],
               "result": self.result}
        if self.terminal_seat is not None:
            out["terminal"] = {"seat": self.terminal_seat,
                               "levels": list(self.terminal_levels or ())}
        return out

    def dumps(self) -> str:
        """The record as a JSON string: one key per line, one action (and one rules line) per
        line."""
        obj = self.to_json()
        parts = []
        for k, v in obj.items():
            if k == "actions":
                inner = ",\n".join("  " + json.dumps(a, ensure_ascii=False) for a in v)
                parts.append(f' "actions": [\n{inner}\n ]' if v else ' "actions": []')
            elif k == "rules" and "text" in v:
                head = ", ".join(f"{json.dumps(a)}: {json.dumps(b, ensure_ascii=False)}"
                                 for a, b in v.items() if a != "text")
                lines = ",\n".join("   " + json.dumps(t, ensure_ascii=False) for t in v["text"])
                parts.append(f' "rules": {{{head},\n  "text": [\n{lines}\n  ]}}')
            else:
                parts.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
        return "{\n" + ",\n".join(parts) + "\n}"

    @classmethod
    def from_json(cls, obj: Any) -> Record:
        """Parse a record dict (version 1 to 4): every field is type-checked here, against
        :data:`_FIELDS` (an unknown or missing field, or a value of the wrong JSON type, is
        named with the offending value as JSON), and the rules' labels are checked against the
        text they label (:func:`_check_labels`). Raises RecordError on a malformed record
        (over :data:`MAX_ACTIONS` actions too; actions are parsed lazily by :func:`replay`,
        which reports the first bad one with its index)."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f"not a ddzspec record (\"format\": \"{FORMAT}\" missing)")
        version = obj.get("version")
        if type(version) is not int or version not in READ_VERSIONS:
            raise RecordError(f"unsupported record version {json_text(version)} (this ddzspec "
                              f"reads versions {', '.join(map(str, READ_VERSIONS))})")
        _check_fields("the record", obj, _FIELDS[""])
        if len(obj["actions"]) > MAX_ACTIONS:  # each replayed state keeps the log: quadratic
            raise RecordError(f"\"actions\": {len(obj['actions'])} actions, at most "
                              f"{MAX_ACTIONS} (a deal takes a few hundred; the rest would be "
                              "over a thousand all-pass redeals)")
        r, d = obj["rules"], obj["deal"]
        _check_fields("\"rules\"", r, _FIELDS[f"rules{min(version, 2)}"])
        _check_fields("\"deal\"", d, _FIELDS["deal"])
        text, without = None, ()
        if version >= 2:
            if not r["text"]:
                raise RecordError("\"rules\" \"text\" is empty: it holds the resolved rules, "
                                  "one string a line")
            text, without = "".join(x + "\n" for x in r["text"]), tuple(r.get("without", ()))
        seed, first = d.get("seed"), d.get("first")
        hands = talon = None
        if "hands" in d:
            if "talon" not in d:
                raise RecordError("an explicit deal needs \"hands\", \"talon\" and \"first\"")
            hands, talon = tuple(d["hands"]), d["talon"]
            first = 0 if first is None else first
        elif "talon" in d:
            raise RecordError("\"deal\" has a \"talon\" without \"hands\"")
        elif seed is None:
            raise RecordError("\"deal\" needs a \"seed\" or explicit \"hands\"")
        wild = None
        if "wild" in d:
            if version < WILD_VERSION:
                raise RecordError(f"\"deal\" \"wild\": a version {version} record has no wild "
                                  f"ranks (version {WILD_VERSION} and later)")
            wild = _wild_ranks(d["wild"])
        elif version >= WILD_VERSION:
            raise RecordError("\"deal\" needs \"wild\", the wild ranks drawn (version "
                              f"{WILD_VERSION})")
        t_seat = t_levels = None
        if "terminal" in obj:
            t = obj["terminal"]
            _check_fields("\"terminal\"", t, _FIELDS["terminal"])
            if not all(type(x) is int and 1 <= x <= 3 for x in t["levels"]):
                raise RecordError(f"\"terminal\" \"levels\" must be levels 1 to 3, not "
                                  f"{json_text(t['levels'])}")
            t_seat, t_levels = t["seat"], tuple(t["levels"])
        rec = cls(r["name"], r.get("sha256", ""), r.get("digest", ""), seed,
                  tuple(_RawAction(a) for a in obj["actions"]),  # type: ignore[misc]
                  obj.get("result"), rules_text=text, rules_without=without, hands=hands,
                  talon=talon, first=first, version=version, terminal_seat=t_seat,
                  terminal_levels=t_levels, wild=wild)
        _check_labels(rec)
        return rec


#: The most actions a record may hold: a deal takes a few hundred at most (54 cards played,
#: the passes and the bids), this leaves room for over 1500 all-pass redeals. Replaying keeps
#: every state with the log so far (30 000 passes: 55 s and 3.6 GB), so a longer record is
#: refused when it is read.
MAX_ACTIONS = 5000

#: JSON types by name, as a record's fields may hold them.
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "a string": (str,), "an integer": (int,), "null": (type(None),), "an object": (dict,),
    "a list": (list,), "a list of strings": (list,)}

#: Every field a record may hold, per object: name → (required, accepted JSON types).
#: "" is the record itself; "rules1"/"rules2" the rules object of version 1 and of versions 2
#: and 3 (which differ only in how the text's rounds read: :func:`migrate_v2_rounds`).
_FIELDS: dict[str, dict[str, tuple[bool, tuple[str, ...]]]] = {
    "": {"format": (True, ("a string",)), "version": (True, ("an integer",)),
         "rules": (True, ("an object",)), "deal": (True, ("an object",)),
         "actions": (True, ("a list",)), "result": (False, ("an object", "null")),
         "terminal": (False, ("an object",))},
    "terminal": {"seat": (True, ("an integer",)), "levels": (True, ("a list",))},
    "rules1": {"name": (True, ("a string",)), "sha256": (False, ("a string",)),
               "digest": (False, ("a string",)), "without": (False, ("a list of strings",))},
    "rules2": {"name": (True, ("a string",)), "without": (False, ("a list of strings",)),
               "sha256": (True, ("a string",)), "digest": (False, ("a string",)),
               "text": (True, ("a list of strings",))},
    "deal": {"seed": (False, ("an integer", "a string", "null")),
             "hands": (False, ("a list of strings",)), "talon": (False, ("a string",)),
             "first": (False, ("an integer", "null")), "wild": (False, ("a list",))},
}


def _wild_ranks(value: list[Any]) -> tuple[tuple[int, ...], ...]:
    """A record's ``wild``: one list of ranks per deal attempt, each written as cards are in
    English notation (``Q``; ``T`` or ``10``), as rank indices. Raises RecordError naming the
    bad value (a list that is empty or not of strings, a string that is not one rank, a
    joker)."""
    out = []
    for i, w in enumerate(value):
        if not isinstance(w, list) or not all(isinstance(x, str) for x in w):
            raise RecordError(f"\"deal\" \"wild\": one list of rank symbols per deal attempt, "
                              f"not {json_text(w)}")
        if not w:
            raise RecordError(f"\"deal\" \"wild\": deal attempt {i} lists no wild rank")
        try:
            out.append(tuple(rank_index(x) for x in w))
        except GameError as e:
            raise RecordError(f"\"deal\" \"wild\": deal attempt {i}: {e}") from None
    return tuple(out)


def _check_wild(record: Record, rules: Rules) -> None:
    """Raise RecordError when the record's version or ``wild`` lists do not fit its rules:
    version 4 exactly when the rules have wild cards, and each attempt's list one rank per
    ``draw``, each among the ranks its draw draws from (whether the seed draws it is
    :func:`replay`'s check)."""
    if rules.wild is None:
        if record.version >= WILD_VERSION:
            raise RecordError(f"a version {record.version} record (wild ranks"
                              + (", \"deal\" \"wild\"" if record.wild is not None else "")
                              + f") of {rules.label}, which have no wild cards: a record of "
                              "rules without wild cards is version 2 or 3")
        return
    if record.wild is None:
        raise RecordError(f"a version {record.version} record of {rules.label}, which have "
                          f"wild cards: their records are version {WILD_VERSION} (\"deal\" "
                          "\"wild\" lists the wild ranks drawn)")
    draws = rules.wild.draws
    for i, w in enumerate(record.wild):
        if len(w) != len(draws):
            raise RecordError(f"\"deal\" \"wild\": deal attempt {i} lists {len(w)} rank"
                              f"{'' if len(w) == 1 else 's'}, the rules draw {len(draws)}")
        for d, r in zip(draws, w):
            if r not in d.ranks:
                raise RecordError(f"\"deal\" \"wild\": deal attempt {i}: "
                                  f"{ALL_RANKS[r].symbol()} is not a rank the draw {d.name} "
                                  "draws from ("
                                  + " ".join(ALL_RANKS[x].symbol() for x in d.ranks) + ")")


def _check_fields(where: str, obj: dict[str, Any], fields: dict[str, tuple[bool,
                  tuple[str, ...]]]) -> None:
    """Raise RecordError unless ``obj`` holds only ``fields``, every required one, each of an
    accepted JSON type (true/false is not an integer)."""
    unknown = sorted(set(obj) - set(fields))
    if unknown:
        raise RecordError(f"{where}: unknown field {json_text(unknown[0])} (fields: "
                          f"{', '.join(fields)})")
    for name, (required, kinds) in fields.items():
        if name not in obj:
            if required:
                raise RecordError(f"{where} needs {json.dumps(name)} ({' or '.join(kinds)})")
            continue
        v = obj[name]
        ok = any(isinstance(v, _JSON_TYPES[k]) and not isinstance(v, bool) for k in kinds)
        if ok and "a list of strings" in kinds and isinstance(v, list):
            ok = all(isinstance(x, str) for x in v)
        if not ok and v is None and required:
            raise RecordError(f"{where} needs {json.dumps(name)} ({' or '.join(kinds)}), not "
                              "null")
        if not ok:
            raise RecordError(f"{where}: {json.dumps(name)} must be {' or '.join(kinds)}, not "
                              f"{json_text(v)}")


def _check_labels(rec: Record) -> None:
    """Raise RecordError when a version 2 record's labels contradict the rules text they label:
    ``name`` must be the name the text's ``rules`` line gives, and each ``without`` shape must
    be absent from the text (it was dropped), named once, and, for a built-in name, a shape of
    that built-in file (a house file's dropped shapes cannot be checked further). A text that
    does not load is left to :func:`record_rules`, which reports it."""
    if rec.rules_text is None:
        return
    try:
        carried = load_rules_text(rec.rules_text, path="<rules of the record>", resolve=False)
    except RulesError:
        return
    if carried.name != rec.rules_name:
        raise RecordError(f"\"rules\" \"name\" is {json_text(rec.rules_name)} but its text "
                          f"is the rules {json_text(carried.name)}: the record was altered")
    if len(set(rec.rules_without)) != len(rec.rules_without):
        raise RecordError("\"rules\" \"without\" names a shape twice")
    shapes = {x.name for x in carried.shapes}
    known = {x.name for x in load_rules(rec.rules_name).shapes} \
        if rec.rules_name in builtin_rules() else None
    for w in rec.rules_without:
        if w in shapes:
            raise RecordError(f"\"rules\" \"without\" drops {json_text(w)}, but the rules text "
                              "still has that shape: the record was altered")
        if known is not None and w not in known:
            raise RecordError(f"\"rules\" \"without\" drops {json_text(w)}, which is no "
                              f"shape of the built-in {rec.rules_name}")


class _RawAction:
    """An action as read from JSON, parsed when replayed (so errors carry their index)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def to_json(self) -> Any:
        return self.obj


def record_of(state: GameState) -> Record:
    """The record of a deal so far (finished or not): the resolved rules with their sha256,
    every start option, every action."""
    rules = state.rules
    text = resolved_text(rules)
    st = state.start
    hands = None if st.hands is None else tuple(h.format() for h in st.hands)
    talon = None if st.talon is None else st.talon.format()
    return Record(rules.name, _sha256(text), rules.digest, st.seed, state.log,
                  None if state.result is None else state.result.to_json(),
                  rules_text=text, rules_without=rules.without, hands=hands, talon=talon,
                  first=st.first, version=record_version(rules),
                  wild=tuple(attempt_wild(rules, st, i) for i in range(state.attempt + 1))
                  if rules.wild is not None else None)


def record_version(rules: Rules) -> int:
    """The format version a record of a deal under ``rules`` is written with: 3
    (:data:`VERSION`) when they have a round, whose ``answer`` reads differently in version 2
    (:func:`migrate_v2_rounds`); else 2, which every reader since version 2 replays alike;
    4 (:data:`WILD_VERSION`) when they have wild cards (the record holds the ranks drawn)."""
    if rules.wild is not None:
        return WILD_VERSION
    return VERSION if rules.rounds else 2


def migrate_v2_rounds(rules: Rules) -> Rules:
    """The rules a version 2 record's text meant, in today's rules language. Before ``answer
    … for`` existed (issue 25), a round under ``order peasants landlord_if_doubled`` and
    ``scope pair`` gave the landlord's choice (its ``answer``, or its ``choices`` when there
    was no ``answer``) to the settlements of the peasants who chose a factor above 1 in that
    round only: the counter-kick of the hebei rules saved as ``answer no 1 counter 2`` meant
    today's ``answer no 1 counter 2 for doublers``. Every such round gets exactly that reach
    (a version 2 text never says ``for``); any other round read the same then as now and is
    kept. Nothing else of version 2 changed meaning."""
    def then(rnd: Round) -> Round:
        if rnd.scope is not Scope.PAIR or rnd.order is not RoundOrder.PEASANTS_LANDLORD_IF_DOUBLED:
            return rnd
        return replace(rnd, answers=rnd.answers or rnd.choices, answer_scope=Scope.DOUBLERS)
    return replace(rules, rounds=tuple(map(then, rules.rounds)))


def save(state: GameState, path: str | Path, *, seat: int | None = None,
         levels: tuple[int, ...] | None = None, overwrite: bool = True) -> None:
    """Write the record of ``state`` to ``path`` (JSON), atomically: a failed write leaves any
    existing file intact and no partial file; ``seat``/``levels``: the ``terminal`` field of a
    ``play --seat`` deal (module doc); ``overwrite=False``: an existing file is refused (and
    kept). Raises RecordError when the file cannot be written."""
    rec = record_of(state)
    if seat is not None:
        rec = replace(rec, terminal_seat=seat, terminal_levels=levels)
    try:
        write_atomic(path, rec.dumps() + "\n", overwrite=overwrite)
    except OSError as e:
        raise RecordError(f"{path}: cannot write: {e.strerror or e}") from None


def check_save_path(path: str | Path) -> None:
    """Raise RecordError when a record could not be saved to ``path`` (a folder, a missing or
    read-only folder, a read-only file): checked before playing."""
    problem = write_problem(path)
    if problem is not None:
        raise RecordError(f"{path}: cannot write: {problem}")


def load(path: str | Path) -> Record:
    """Read a record file ("-": standard input). Raises RecordError (unreadable file, bad JSON,
    bad format), its message starting with ``path``."""
    try:
        text = read_input(path)
        obj = json.loads(text)
    except OSError as e:
        raise RecordError(f"{path}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise RecordError(f"{path}: not a UTF-8 text file (byte {e.start})") from None
    except RecursionError:
        raise RecordError(f"{path}: JSON nested too deeply to be a deal record") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{path}: not JSON: line {e.lineno} column {e.colno}: {e.msg}") \
            from None
    except ValueError:  # an integer literal longer than Python converts (sys.int_info)
        raise RecordError(f"{path}: {_long_number(text)}: no deal record holds one") from None
    try:
        return Record.from_json(obj)
    except RecordError as e:  # what is wrong inside, said of this file
        raise RecordError(f"{path}: {e}") from None


def _long_number(text: str) -> str:
    """Where the first integer literal too long for :func:`json.loads` is in ``text``."""
    limit = sys.get_int_max_str_digits()
    m = re.search(rf"\d{{{limit + 1},}}", text)
    if m is None:  # pragma: no cover - json.loads raised ValueError for another reason
        return "a number JSON cannot read"
    line = text.count("\n", 0, m.start()) + 1
    col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    return (f"line {line} column {col}: a number of {len(m.group())} digits (more than the "
            f"{limit} digits Python reads)")


# ----------------------------------------------------------------------------- the rules

def _label(name: str, without: tuple[str, ...]) -> str:
    return name + (f" without {', '.join(without)}" if without else "")


def _first_difference(recorded: str, given: str) -> str:
    a, b = recorded.splitlines(), given.splitlines()
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"first difference at line {i + 1}: {x.strip()!r} recorded, {y.strip()!r} given"
    return f"the recorded rules have {len(a)} lines, the given {len(b)}"


def record_rules(record: Record, rules: Rules | None = None) -> Rules:
    """The rules ``record`` replays under, reproduced exactly, or RecordError naming the
    mismatch. ``rules``: the caller's (``replay --rules/--without``), which must resolve to
    exactly the recorded rules. Without them, a version 2 record replays under the rules it
    carries (as the built-in file of the same name when that resolves to the same text: its
    real path; a version 2 record's rounds as they read then: :func:`migrate_v2_rounds`); a
    version 1 record needs a built-in name whose file still has the recorded sha256 and
    digest. A file of the working folder is never consulted."""
    if record.rules_text is None:
        return _v1_rules(record, rules)
    text = record.rules_text
    sha = _sha256(text)
    label = _label(record.rules_name, record.rules_without)
    if sha != record.rules_sha256:
        raise RecordError(f"the record's rules ({label}) do not match their sha256 "
                          f"({record.rules_sha256[:12] or 'none'}… recorded, {sha[:12]}… for "
                          "the text): the record was altered")
    try:
        # resolve=False: an ``extends`` is refused before any file is read (a record carries
        # its rules resolved, so that nothing outside it is read)
        carried = load_rules_text(text, path=f"<rules of the record: {label}>", resolve=False)
    except RulesError as e:
        raise RecordError(f"the record's rules cannot be loaded: {e}") from None
    if record.version == 2:
        carried = migrate_v2_rounds(carried)
    # the text is the rules: two Rules are the same when they are equal field by field (the
    # digest and the resolved text's layout may change between ddzspec versions; rules do not)
    if rules is not None:
        if not _same_rules(carried, rules):
            given = resolved_text(rules)
            raise RecordError(f"the rules given ({rules.label}, sha256 {_sha256(given)[:12]}…) "
                              f"are not the rules the record was played under ({label}, sha256 "
                              f"{sha[:12]}…): {_first_difference(text, given)}")
        return rules
    if record.rules_name in builtin_rules():
        try:
            builtin = load_rules(record.rules_name, without=record.rules_without)
        except DdzError:
            builtin = None
        if builtin is not None and _same_rules(carried, builtin):
            return builtin
    return replace(carried, path=f"<rules of the record: {label}>",
                   without=record.rules_without)


def _same_rules(carried: Rules, rules: Rules) -> bool:
    """Whether ``rules`` are the rules ``carried`` by a record, whatever their file or name."""
    return same_rules(replace(carried, name=rules.name, title=rules.title,
                              without=rules.without), rules)


def _v1_rules(record: Record, rules: Rules | None) -> Rules:
    name = record.rules_name
    if name not in builtin_rules():
        raise RecordError(f"version 1 record of rules {name!r}: they are not built into "
                          "ddzspec and the record does not carry them, so it cannot be replayed "
                          "exactly (records from this ddzspec carry their rules)")
    if not record.rules_sha256 or not record.rules_digest:
        raise RecordError(f"version 1 record of {name} without the rules file's sha256 and "
                          "digest: the rules cannot be checked, so it cannot be replayed exactly")
    if rules is None:
        rules = load_rules(name)
    elif rules.name != name:
        raise RecordError(f"the rules given ({rules.label}) are not the rules the record was "
                          f"played under ({name})")
    try:
        sha = hashlib.sha256(Path(rules.path).read_bytes()).hexdigest()
    except OSError as e:
        raise RecordError(f"{rules.path}: cannot read: {e.strerror}") from None
    if sha != record.rules_sha256:
        raise RecordError(f"version 1 record of {name}: the rules file differs from the one "
                          f"recorded (sha256 {record.rules_sha256[:12]}… recorded, {sha[:12]}… "
                          "now), so it cannot be replayed exactly")
    if rules.digest != record.rules_digest:
        raise RecordError(f"version 1 record of {name}: the moves of {rules.label} differ from "
                          f"the recorded rules' (digest {record.rules_digest} recorded, "
                          f"{rules.digest} now); was it played with --without? Give the same "
                          "--without")
    return rules


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One replayed action: its index, the action and the state after it."""

    index: int
    action: Action
    state: GameState


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of :func:`replay`: the states step by step, the final ``state`` (the last
    valid one), and, if an action was rejected, ``error_index`` and ``error`` (the reason); a
    recorded result the actions do not give is an ``error`` with ``error_index`` None (the
    result is not an action). ``warnings``: e.g. that a version 1 record was replayed under a
    built-in file checked by its hash."""

    initial: GameState
    steps: tuple[ReplayStep, ...]
    error_index: int | None
    error: str | None
    warnings: tuple[str, ...]

    @property
    def state(self) -> GameState:
        return self.steps[-1].state if self.steps else self.initial

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def problem(self) -> str | None:
        """The error in one line: ``action N: reason`` (0-based N), or the recorded result's
        ``recorded result {…}: reason``; None when the record replays."""
        if self.error is None or self.error_index is None:
            return self.error
        return f"action {self.error_index}: {self.error}"


def initial_state(record: Record, rules: Rules | None = None) -> GameState:
    """The state before the first action, under :func:`record_rules`. Raises RecordError
    (rules not reproducible, or a bad deal)."""
    rules = record_rules(record, rules)
    _check_wild(record, rules)
    try:
        return GameState.new(rules, **record.start_options())
    except DdzError as e:
        raise RecordError(f"bad deal: {e}") from None


def replay(record: Record, rules: Rules | None = None) -> Replay:
    """Validate ``record`` action by action. Never raises for a bad action: the first rejected
    one is reported with its 0-based index and the reason, and replay stops there; a stored
    result that differs from the replayed one is an error too (index None: not an action).
    Raises RecordError when the record's rules cannot be reproduced exactly (see
    :func:`record_rules`; ``rules``: the caller's, which must agree) or its deal is bad."""
    warnings = []
    if record.rules_text is None:
        warnings.append(f"version 1 record: replayed under the built-in {record.rules_name}, "
                        "whose file has the recorded sha256")
    state = initial_state(record, rules)
    if record.version == 2 and any(r.answer_scope is Scope.DOUBLERS for r in state.rules.rounds):
        warnings.append("version 2 record: its round under order peasants landlord_if_doubled "
                        "and scope pair is read as it was then, the landlord's answer for the "
                        "doublers only ('answer … for doublers')")
    init = state
    deck = state.rules.deck
    steps: list[ReplayStep] = []
    why = _wild_differs(record, state)
    if why is not None:
        return Replay(init, (), 0, why, tuple(warnings))
    for i, raw in enumerate(record.actions):
        obj = raw.to_json()
        try:
            action = raw if isinstance(raw, Action) else \
                Action.from_json(obj, deck, state.wild[0] if len(state.wild) == 1 else None)
            after = state.apply(action)
        except DdzError as e:
            return Replay(init, tuple(steps), i, f"{json_text(obj, 200)}: {e}", tuple(warnings))
        why = _wild_differs(record, after) if after.attempt != state.attempt else None
        state = after
        steps.append(ReplayStep(i, action, state))
        if why is not None:  # the attempt begins with the next action (if the record has it)
            at = i + 1 if i + 1 < len(record.actions) else None
            return Replay(init, tuple(steps), at, why, tuple(warnings))
    if record.wild is not None and len(record.wild) != state.attempt + 1:
        n = len(record.wild)
        return Replay(init, tuple(steps), None,
                      f"\"deal\" \"wild\" lists {n} deal attempt{'' if n == 1 else 's'}; "
                      f"the actions play {state.attempt + 1}", tuple(warnings))
    if record.result is not None:
        got = None if state.result is None else state.result.to_json()
        if got != record.result:
            why = "the deal is not over" if got is None else \
                f"replayed result differs: {json.dumps(got)}"
            return Replay(init, tuple(steps), None,
                          f"recorded result {json.dumps(record.result)}: {why}",
                          tuple(warnings))
    return Replay(init, tuple(steps), None, None, tuple(warnings))


def _wild_differs(record: Record, state: GameState) -> str | None:
    """Why the wild ranks the record lists for ``state``'s deal attempt are not those its seed
    draws (a tampered record), or None when they agree (or the rules have no wild cards)."""
    if state.rules.wild is None:
        return None
    got = record.wild or ()
    shown = " ".join(ALL_RANKS[i].symbol() for i in state.wild)
    if state.attempt >= len(got):
        return f"\"wild\" lists no wild rank for deal attempt {state.attempt} (drawn: {shown})"
    if got[state.attempt] != state.wild:
        listed = " ".join(ALL_RANKS[i].symbol() for i in got[state.attempt])
        seed = (f"seed {json_text(state.seed)}" if state.setup is None else
                f"the redeal of an explicit deal, seed {json_text(state.seed or 0)}")
        return (f"the record's wild rank {listed} for deal attempt {state.attempt} is not the "
                f"one the deal draws ({shown}, from {seed})")
    return None


def resume(record: Record, rules: Rules | None = None) -> GameState:
    """The state a record leaves the deal in (the seed 003 autosave: "la donne reprend
    exactement là où vous l'avez laissée"). Raises GameError when an action is rejected."""
    rep = replay(record, rules)
    if rep.problem is not None:
        raise GameError(rep.problem)
    return rep.state


# ----------------------------------------------------------------------------- transcript

def transcript(initial: GameState, steps: list[tuple[Action, GameState]] | tuple[ReplayStep, ...],
               notation: str = "en") -> list[str]:
    """A readable transcript: the deal, the bidding, each trick, the result and the score
    breakdown. ``steps``: (action, state after) pairs or ReplaySteps."""
    pairs = [(s.action, s.state) if isinstance(s, ReplayStep) else s for s in steps]
    out: list[str] = []
    out += _deal_lines(initial, notation)
    head_due = initial.phase is not Phase.BIDDING  # a round first: the bidding's head later
    prev = initial
    trick_no = 0
    for action, st in pairs:
        if st.attempt != prev.attempt:
            out.append(f"  {action}")  # the last bid of the void deal: indented as the others
            out.append(f"all passed: the deal is void, reshuffled (attempt {st.attempt + 1})")
            out += _deal_lines(st, notation)
            head_due = st.phase is not Phase.BIDDING
            prev = st
            continue
        if action.kind in (ActionKind.BID, ActionKind.CALL, ActionKind.ROB):
            if head_due:
                out.append(_bidding_head(prev))
                head_due = False
            extra = ""
            if action.kind is ActionKind.ROB and action.value:
                extra = f" (robs {st.robs}, multiplier {st.multiplier})"
            out.append(f"  {action}{extra}")
            if st.landlord is not None and prev.landlord is None:
                base = f"base {st.base}"
                peasant = (st.landlord + 1) % st.players
                if st.target(peasant) or st.rules.win.peasant == "robs":
                    left = st.target(peasant)
                    base += (f", robs {st.robs}: a peasant wins at {left} "
                             f"card{'' if left == 1 else 's'} left")
                out.append(f"landlord: seat {st.landlord} ({base}); "
                           + (_talon_words(st, notation) if talon_taken(st) else
                              "the talon stays face down for now"))
            prev = st
            continue
        if action.kind in ROUND_KINDS:
            if prev.round_from == len(prev.bids):  # the round's first choice
                out += _round_head(prev)
            pairs_now = sorted({f.pair for f in st.factors[len(prev.factors):]
                                if f.pair is not None})
            mult = (", ".join(f"seat {p}'s settlement at x{st.pair_multiplier(p)}"
                              for p in pairs_now) or f"multiplier {st.multiplier}")
            out.append(f"  {_choice_words(prev, action, notation)}, {mult}")
            if talon_taken(st) and not talon_taken(prev):
                out.append("  " + _talon_words(st, notation))
            prev = st
            continue
        if prev.last is None and action.kind is ActionKind.PLAY:
            trick_no += 1
            out.append(f"trick {trick_no} (seat {action.seat} leads):")
        if action.kind is ActionKind.PLAY:
            r = st.last[1] if st.last is not None else None
            desc = r.describe(notation) if r is not None else action.cards.format(notation)  # type: ignore[union-attr]
            if st.last_wild is not None:  # wild rules: the cards, their wild cards marked
                desc = _wild_play_words(st, action, notation)
            left = len(st.hands[action.seat])
            warn = ""
            if left == 1:
                warn = "  — one card left!"
            elif left == 2:
                warn = "  — two cards left!"
            out.append(f"  seat {action.seat}: {desc}  ({left} left){warn}")
        else:
            out.append(f"  seat {action.seat}: pass")
        prev = st
    final = pairs[-1][1] if pairs else initial
    if final.result is not None:
        out += result_lines(final, notation)
    else:
        out.append(f"(deal in progress: {final.phase}, seat {final.turn} to act)")
    return out


def _talon_words(st: GameState, notation: str) -> str:
    """``talon 46J shown and taken (20 cards)``, once the landlord has taken it."""
    assert st.landlord is not None
    talon = (f"talon {st.talon.format(notation)} shown and taken" if len(st.talon)
             else "no talon")  # a variant may deal none
    talon += "".join(f", {f.kind.replace('_', '-')} ×{f.times}" for f in st.factors
                     if f.kind.startswith("talon_"))  # its pattern's factor, if any
    return f"{talon} ({len(st.hands[st.landlord])} cards)"


def _choice_words(st: GameState, action: Action, notation: str) -> str:
    """``seat 1 chooses super (x4, its own settlement with the landlord)``, ``seat 0 chooses
    show (x2): 33455…``: a round's choice by its name, from the state ``st`` before it."""
    rnd = current_round(st)
    assert rnd is not None
    landlord = action.seat == st.landlord
    name = next((c.name for c in rnd.choices_of(landlord) if c.times == action.value), "?")
    pair = st.landlord is not None and not landlord and rnd.scope == "pair" and action.value > 1
    words = (f"seat {action.seat} chooses {name} (x{action.value}"
             + (", its own settlement with the landlord" if pair else "") + ")")
    if action.kind is ActionKind.SHOW and action.value > 1:
        words += (f": its hand {st.hands[action.seat].format(notation)} is shown"
                  + ("" if st.dealt else " once dealt"))
    return words


def _round_head(st: GameState) -> list[str]:
    """The heading of the round the deal is in."""
    rnd = current_round(st)
    if rnd is None:
        return []
    choices = ", ".join(f"{c.name} x{c.times}" for c in rnd.choices)
    answer = ("" if not rnd.answers else "; answer " + ", ".join(
        f"{c.name} x{c.times}" for c in rnd.answers) + f" for {rnd.answer_scope}")
    return [f"{rnd.kind} round {rnd.stage.words} ({rnd.order}; {choices}{answer}; "
            f"scope {rnd.scope}):"]


def _deal_lines(st: GameState, notation: str) -> list[str]:
    lines = [f"{st.rules.title} — seed {st.seed if st.setup is None else '(explicit deal)'}"]
    for s, h in enumerate(st.hands):
        lines.append(f"  seat {s}: {h.format(notation)}")
    lines.append(f"  talon (face down): {st.talon.format(notation)}" if len(st.talon)
                 else "  talon: none")
    if len(st.undealt):
        lines.append(f"  undealt (never shown): {st.undealt.format(notation)}")
    if st.rules.wild is not None:
        for d, r in zip(st.rules.wild.draws, st.wild):
            lines.append(f"  wild rank ({d.name}, drawn {d.stage.words}): "
                         f"{ALL_RANKS[r].symbol(notation)}")
    if st.phase is Phase.BIDDING:  # else a round comes first: said at the first bid
        lines.append(_bidding_head(st))
    return lines


def _wild_play_words(st: GameState, action: Action, notation: str) -> str:
    """``777*: bomb 7777 (soft; wild cards as 7)``: a play under wild rules, its wild cards
    marked, and the reading it was played as."""
    assert action.cards is not None and st.last_wild is not None
    rank = st.wild[0]
    move = WildMove(*split_hand(action.cards, rank), rank)
    return f"{move.format(notation)}: {st.last_wild.describe(notation)}"


def _bidding_head(st: GameState) -> str:
    return f"bidding (seat {st.first} first):"


def result_lines(st: GameState, notation: str = "en") -> list[str]:
    """The result and the score breakdown of a finished deal (cards in ``notation``)."""
    r = st.result
    assert r is not None
    who = "the landlord" if r.winner is Winner.LANDLORD else "the peasants"
    verb = "wins" if r.winner is Winner.LANDLORD else "win"
    lines = [f"result: {who} {verb} (seat {r.out_seat} reached its target)"]
    parts = [f"base {r.base}" + (" (the bid)" if st.rules.scoring.base == "bid" else "")]
    parts += [f.words(notation) for f in r.factors]
    capped = ("" if r.uncapped is None else
              f" (×{r.uncapped} capped at ×{st.rules.scoring.cap_multiplier})")
    lines.append("score: " + " ".join(parts) + f" = {r.stake}{capped}")
    for p in r.pairs:
        cut = "" if p.uncapped is None else f" (×{p.uncapped} capped)"
        lines.append(f"  seat {p.seat} settles with the landlord at ×{p.multiplier}{cut}: "
                     f"{r.base * p.multiplier}")
    lines.append("points: " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(r.scores)))
    return lines


__all__ = [
    "FORMAT",
    "READ_VERSIONS",
    "VERSION",
    "Record",
    "RecordError",
    "Replay",
    "ReplayStep",
    "check_save_path",
    "initial_state",
    "load",
    "migrate_v2_rounds",
    "record_of",
    "record_rules",
    "record_version",
    "replay",
    "result_lines",
    "resume",
    "rules_sha256",
    "save",
    "transcript",
]
