"""Deal records: save, resume (the seed 003 *autosave*), replay and transcripts.

The JSON record (``"format": "ddzspec-record"``, version 1)::

    {
      "format": "ddzspec-record", "version": 1,
      "rules": {"name": "classic", "sha256": "<sha256 of the rules file's bytes>",
                "digest": "<ddzspec's digest of the resolved spec>"},
      "deal": {"seed": 42}                      # a reproducible shuffle (see game.shuffle_deal)
           or {"seed": null, "hands": ["33…", …], "talon": "…", "first": 0},
      "actions": [{"seat": 0, "bid": 2}, {"seat": 1, "bid": 0}, …,
                  {"seat": 0, "call": true}, {"seat": 1, "rob": false},
                  {"seat": 0, "play": "333+4"}, {"seat": 1, "pass": true}, …],
      "result": null or {"winner": "landlord"|"peasants", "out_seat", "landlord", "base",
                         "multiplier", "stake", "factors": [{"kind", "times", …}],
                         "scores": {"0": 8, "1": -4, "2": -4}, "spring", "anti_spring"}
    }

``actions`` holds every action since the first shuffle, including the bids of deals voided by
an all-pass auction (each redeal is reproducible from the seed). Cards are in canonical English
notation; seats are 0 … players−1 in turn order. A record of an unfinished deal has
``"result": null`` and :func:`resume` rebuilds exactly the same state.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..cards import Cards, parse_cards
from ..errors import DdzError, GameError
from .state import Action, GameState
from ..rules import Rules, load_rules

FORMAT = "ddzspec-record"
VERSION = 1


def rules_sha256(rules: Rules) -> str:
    """sha256 (hex) of the rules file's bytes; "" when it cannot be read."""
    try:
        return hashlib.sha256(Path(rules.path).read_bytes()).hexdigest()
    except OSError:
        return ""


@dataclass(frozen=True, slots=True)
class Record:
    """A deal's full record (see the module doc for the JSON form).

    ``setup``: explicit (hands, talon, first) or None for a seeded shuffle; ``result``: the
    result's JSON object or None."""

    rules_name: str
    rules_sha256: str
    rules_digest: str
    seed: int | str | None
    setup: tuple[tuple[str, ...], str, int] | None
    actions: tuple[Action, ...]
    result: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The JSON-ready dict."""
        deal: dict[str, Any] = {"seed": self.seed}
        if self.setup is not None:
            hands, talon, first = self.setup
            deal.update({"hands": list(hands), "talon": talon, "first": first})
        return {"format": FORMAT, "version": VERSION,
                "rules": {"name": self.rules_name, "sha256": self.rules_sha256,
                          "digest": self.rules_digest},
                "deal": deal, "actions": [a.to_json() for a in self.actions],
                "result": self.result}

    def dumps(self) -> str:
        """The record as a JSON string: one key per line, one action per line."""
        obj = self.to_json()
        parts = []
        for k, v in obj.items():
            if k == "actions":
                inner = ",\n".join("  " + json.dumps(a, ensure_ascii=False) for a in v)
                parts.append(f' "actions": [\n{inner}\n ]' if v else ' "actions": []')
            else:
                parts.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}")
        return "{\n" + ",\n".join(parts) + "\n}"

    @classmethod
    def from_json(cls, obj: Any) -> Record:
        """Parse a record dict. Raises RecordError on a malformed record (actions are parsed
        lazily by :func:`replay`, which reports the first bad one with its index)."""
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f"not a ddzspec record (\"format\": \"{FORMAT}\" missing)")
        if obj.get("version") != VERSION:
            raise RecordError(f"unsupported record version {obj.get('version')!r} "
                              f"(this ddzspec reads version {VERSION})")
        r, d = obj.get("rules"), obj.get("deal")
        if not isinstance(r, dict) or not isinstance(r.get("name"), str):
            raise RecordError("\"rules\" needs a \"name\"")
        if not isinstance(d, dict):
            raise RecordError("\"deal\" is missing")
        seed = d.get("seed")
        if seed is not None and (not isinstance(seed, (int, str)) or isinstance(seed, bool)):
            raise RecordError(f"\"seed\" must be an integer, a string or null: {seed!r}")
        setup = None
        if "hands" in d:
            hands, talon, first = d.get("hands"), d.get("talon"), d.get("first", 0)
            if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands) \
                    or not isinstance(talon, str) or not isinstance(first, int):
                raise RecordError("explicit deal needs \"hands\" (strings), \"talon\" (string) "
                                  "and \"first\" (seat)")
            setup = (tuple(hands), talon, first)
        elif seed is None:
            raise RecordError("\"deal\" needs a \"seed\" or explicit \"hands\"")
        actions = obj.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError("\"actions\" must be a list")
        res = obj.get("result")
        if res is not None and not isinstance(res, dict):
            raise RecordError("\"result\" must be an object or null")
        return cls(r["name"], str(r.get("sha256") or ""), str(r.get("digest") or ""), seed, setup,
                   tuple(_RawAction(a) for a in actions), res)  # type: ignore[misc]


class _RawAction:
    """An action as read from JSON, parsed when replayed (so errors carry their index)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def to_json(self) -> Any:
        return self.obj


class RecordError(DdzError):
    """A record file that cannot be read or does not follow the format."""


def record_of(state: GameState) -> Record:
    """The record of a deal so far (finished or not)."""
    rules = state.rules
    setup = None
    if state.setup is not None:
        hands, talon, _, first = state.setup
        setup = (tuple(h.format() for h in hands), talon.format(), first)
    return Record(rules.name, rules_sha256(rules), rules.digest, state.seed, setup, state.log,
                  None if state.result is None else state.result.to_json())


def save(state: GameState, path: str | Path) -> None:
    """Write the record of ``state`` to ``path`` (JSON). Raises RecordError when the file
    cannot be written."""
    try:
        Path(path).write_text(record_of(state).dumps() + "\n", encoding="utf-8")
    except OSError as e:
        raise RecordError(f"{path}: cannot write: {e.strerror}") from None


def load(path: str | Path) -> Record:
    """Read a record file ("-": standard input). Raises RecordError (unreadable file, bad JSON,
    bad format)."""
    try:
        import sys
        text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
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
    return Record.from_json(obj)


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One replayed action: its index, the action and the state after it."""

    index: int
    action: Action
    state: GameState


@dataclass(frozen=True, slots=True)
class Replay:
    """The outcome of :func:`replay`: the states step by step, the final ``state`` (the last
    valid one), and, if an action was rejected, ``error_index`` and ``error`` (the reason).
    ``warnings``: e.g. a rules file whose hash differs from the record's."""

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


def initial_state(record: Record, rules: Rules | None = None) -> GameState:
    """The state before the first action. Raises RulesError / GameError / NotationError."""
    rules = rules if rules is not None else load_rules(record.rules_name)
    if record.setup is not None:
        hands, talon, first = record.setup
        return GameState.new(rules, seed=record.seed, hands=list(hands), talon=talon,
                             first=first)
    return GameState.new(rules, seed=record.seed)


def replay(record: Record, rules: Rules | None = None) -> Replay:
    """Validate ``record`` action by action. Never raises for a bad action: the first rejected
    one is reported with its 0-based index and the reason, and replay stops there; a stored
    result that differs from the replayed one is an error too (index = number of actions).
    Raises RulesError when the rules cannot be loaded, RecordError for a bad explicit deal."""
    rules = rules if rules is not None else load_rules(record.rules_name)
    warnings = []
    sha = rules_sha256(rules)
    if record.rules_sha256 and sha and record.rules_sha256 != sha:
        warnings.append(f"the rules file {rules.path} differs from the one recorded "
                        f"(sha256 {record.rules_sha256[:12]}… recorded, {sha[:12]}… now)")
    if record.rules_digest and record.rules_digest != rules.digest:
        warnings.append(f"the moves of {rules.label} differ from the recorded rules' (digest "
                        f"{record.rules_digest} recorded, {rules.digest} now): replaying "
                        "under the current file")
    try:
        state = initial_state(record, rules)
    except DdzError as e:
        raise RecordError(f"bad deal: {e}") from None
    init = state
    steps: list[ReplayStep] = []
    for i, raw in enumerate(record.actions):
        obj = raw.to_json()
        try:
            action = raw if isinstance(raw, Action) else Action.from_json(obj, rules.deck)
            state = state.apply(action)
        except DdzError as e:
            return Replay(init, tuple(steps), i, f"{_show(obj)}: {e}", tuple(warnings))
        steps.append(ReplayStep(i, action, state))
    if record.result is not None:
        got = None if state.result is None else state.result.to_json()
        if got != record.result:
            why = "the deal is not over" if got is None else \
                f"replayed result differs: {json.dumps(got)}"
            return Replay(init, tuple(steps), len(record.actions),
                          f"recorded result {json.dumps(record.result)}: {why}",
                          tuple(warnings))
    return Replay(init, tuple(steps), None, None, tuple(warnings))


def _show(obj: Any) -> str:
    try:
        return json.dumps(obj, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(obj)


def resume(record: Record, rules: Rules | None = None) -> GameState:
    """The state a record leaves the deal in (the seed 003 autosave: "la donne reprend
    exactement là où vous l'avez laissée"). Raises GameError when an action is rejected."""
    rep = replay(record, rules)
    if rep.error is not None:
        raise GameError(f"action {rep.error_index}: {rep.error}")
    return rep.state


# ----------------------------------------------------------------------------- transcript

def transcript(initial: GameState, steps: list[tuple[Action, GameState]] | tuple[ReplayStep, ...],
               notation: str = "en") -> list[str]:
    """A readable transcript: the deal, the bidding, each trick, the result and the score
    breakdown. ``steps``: (action, state after) pairs or ReplaySteps."""
    pairs = [(s.action, s.state) if isinstance(s, ReplayStep) else s for s in steps]
    out: list[str] = []
    out += _deal_lines(initial, notation)
    prev = initial
    trick_no = 0
    for action, st in pairs:
        if st.attempt != prev.attempt:
            out.append(f"{action}")
            out.append(f"all passed: the deal is void, reshuffled (attempt {st.attempt + 1})")
            out += _deal_lines(st, notation)
            prev = st
            continue
        if action.kind in ("bid", "call", "rob"):
            extra = ""
            if action.kind == "rob" and action.value:
                extra = f" (robs {st.robs}, multiplier {st.multiplier})"
            out.append(f"  {action}{extra}")
            if st.landlord is not None and prev.landlord is None:
                base = f"base {st.base}"
                peasant = (st.landlord + 1) % st.players
                if st.target(peasant) or st.rules.win.peasant == "robs":
                    left = st.target(peasant)
                    base += (f", robs {st.robs}: a peasant wins at {left} "
                             f"card{'' if left == 1 else 's'} left")
                out.append(f"landlord: seat {st.landlord} ({base}); talon "
                           f"{st.talon.format(notation)} shown and taken "
                           f"({len(st.hands[st.landlord])} cards)")
            prev = st
            continue
        if prev.last is None and action.kind == "play":
            trick_no += 1
            out.append(f"trick {trick_no} (seat {action.seat} leads):")
        if action.kind == "play":
            r = st.last[1] if st.last is not None else None
            desc = r.describe(notation) if r is not None else action.cards.format(notation)  # type: ignore[union-attr]
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


def _deal_lines(st: GameState, notation: str) -> list[str]:
    lines = [f"{st.rules.title} — seed {st.seed if st.setup is None else '(explicit deal)'}"]
    for s, h in enumerate(st.hands):
        lines.append(f"  seat {s}: {h.format(notation)}")
    lines.append(f"  talon (face down): {st.talon.format(notation)}")
    if len(st.undealt):
        lines.append(f"  undealt (never shown): {st.undealt.format(notation)}")
    lines.append(f"bidding (seat {st.first} first):")
    return lines


def result_lines(st: GameState, notation: str = "en") -> list[str]:
    """The result and the score breakdown of a finished deal (cards in ``notation``)."""
    r = st.result
    assert r is not None
    who = "the landlord" if r.winner == "landlord" else "the peasants"
    verb = "wins" if r.winner == "landlord" else "win"
    lines = [f"result: {who} {verb} (seat {r.out_seat} reached its target)"]
    parts = [f"base {r.base}" + (" (the bid)" if st.rules.scoring.base == "bid" else "")]
    for f in r.factors:
        what = f.kind.replace("_", "-")
        if f.cards:
            what += " " + (f.cards if notation == "en" else
                           parse_cards(f.cards).cards.format(notation))
        if f.seat is not None:
            what += f" (seat {f.seat})"
        parts.append(f"×{f.times} {what}")
    lines.append("score: " + " ".join(parts) + f" = {r.stake}")
    lines.append("points: " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(r.scores)))
    return lines


__all__ = ["Record", "RecordError", "Replay", "ReplayStep", "initial_state", "load",
           "record_of", "replay", "resume", "result_lines", "rules_sha256", "save",
           "transcript", "Cards"]
