"""The web table's deals: which rules the server offers (:class:`Offer`), one deal with a person
at one seat and computer players at the others (:class:`WebGame`), and the autosaved store of
deals (:class:`GameStore`) — seed 003's *sauvegarde automatique*: every accepted action writes
the deal's record atomically, and a restarted server resumes it from that file.

Everything a person does goes through :meth:`ddzspec.game.GameState.apply`; a rejected action
raises the engine's :class:`~ddzspec.errors.GameError` and changes nothing (the state is an
immutable value: the stored one is replaced only after the record is written).
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._io import read_input, write_atomic
from ..cards import SYMBOLS, Cards, Rank, parse_cards
from ..errors import (
    DdzError,
    DoesNotBeatError,
    GameError,
    NotAMoveError,
    RecordError,
    UnplayableRulesError,
)
from ..explain import explain
from ..game import Action, ActionKind, GameState, Phase
from ..game.bidding import choice_name, current_round
from ..game.play import wild_choices
from ..game.record import Record, record_of, record_rules, replay, result_lines
from ..moves import move_index
from ..players import player_for
from ..readings import Reading
from ..rules import Rules, builtin_rules, load_rules
from ..rules.model import ReadingPolicy
from ..wild import (
    WildMove,
    WildReading,
    explain_wild,
    parse_declared,
    parse_wild,
    strength,
    strongest_key,
)
from ..wildmoves import split_hand, wild_legal_moves

#: The notations the page offers (cards.NOTATIONS).
NOTATIONS = ("en", "fr", "de")
#: Level 3's time per move on the web table, seconds (the issue: a 0.5 s budget).
LEVEL3_BUDGET = 0.5
#: The environment variable that moves the data folder (tests, several servers).
DATA_ENV = "DDZSPEC_DATA_DIR"
#: A game id: 16 lowercase hex digits (never a path: the id names its file). Requests may
#: spell it in capitals: :meth:`GameStore.get` lowercases it first.
GAME_ID = re.compile(r"^[0-9a-f]{16}$")
#: The computer level when a request names none (as ``ddzspec play``: level 2).
DEFAULT_LEVEL = 2
#: The file format of an autosaved web deal (the record plus who sits where).
WEB_FORMAT = "ddzspec-web-game"
#: The deals (new or uploaded) a data folder keeps: beyond, the oldest finished one is
#: deleted to make room; when every one is unfinished, a new one is refused (429).
MAX_GAMES = 1000


#: The fields of the person's action per kind (a {"kind": "pass", "cards": …} is refused).
ACTION_FIELDS = {"bid": ("kind", "value"), "call": ("kind", "value"), "rob": ("kind", "value"),
                 "double": ("kind", "value"), "show": ("kind", "value"),
                 "blind": ("kind", "value"), "pass": ("kind",),
                 "play": ("kind", "cards", "as")}


class WebError(DdzError):
    """A request the web table refuses: ``status`` is the HTTP status (400 bad input, 404
    unknown game, 409 not now)."""

    def __init__(self, message: str, status: int = 400,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        #: more fields of the JSON answer beside "error" (a play's readings to choose from)
        self.details = details or {}


def data_folder(option: str | Path | None = None) -> Path:
    """Where deals are autosaved: ``option``, else ``$DDZSPEC_DATA_DIR``, else platformdirs'
    user data folder for ddzspec, with ``web-games`` inside. Created when missing."""
    if option:
        base = Path(option)
    elif os.environ.get(DATA_ENV):
        base = Path(os.environ[DATA_ENV])
    else:
        from platformdirs import user_data_dir
        base = Path(user_data_dir("ddzspec"))
    folder = base / "web-games"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@dataclass(frozen=True)
class Offer:
    """The rules the server offers, by the name the page shows: every built-in, plus the
    rules files named at start (``ddzspec serve --rules PATH``), keyed by their rules name
    (or the file's stem when that name is taken). A request names one of these keys, never a
    path. A file whose rules are already offered (a built-in's name or file, the same file
    twice) is not offered again: ``ignored`` says which and why (``serve`` prints each as a
    warning). ``added``: the keys of the files offered, in order. Raises RulesError for a
    file that cannot be loaded."""

    rules: dict[str, Rules] = field(default_factory=dict)
    added: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    _refusals: dict[str, str | None] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(cls, paths: Sequence[str] = ()) -> Offer:
        from ..game.state import same_rules
        offered: dict[str, Rules] = {n: load_rules(n) for n in builtin_rules()}
        added: list[str] = []
        ignored: list[str] = []
        for p in paths:
            r = load_rules(p)
            same = next((k for k, o in offered.items() if same_rules(o, r)), None)
            if same is not None:
                ignored.append(f"--rules {p}: the same rules as {same}, offered already "
                               "(not offered twice)")
                continue
            key = r.name if r.name not in offered else Path(p).stem
            n = 2
            base = key
            while key in offered:
                key, n = f"{base}-{n}", n + 1
            offered[key] = r
            added.append(key)
        return cls(offered, added=tuple(added), ignored=tuple(ignored))

    def get(self, name: Any) -> Rules:
        """The rules offered as ``name``; WebError (400) naming what is offered otherwise."""
        if name is None:
            raise WebError(f"rules: a name is required (offered: {', '.join(self.rules)})")
        if not isinstance(name, str) or name not in self.rules:
            raise WebError(f"rules {json.dumps(name)} are not offered (offered: "
                           f"{', '.join(self.rules)})")
        return self.rules[name]

    def refusal(self, name: str) -> str | None:
        """Why the rules offered as ``name`` cannot be dealt (the message of
        :func:`ddzspec.check.require_playable`: ambiguous moves, a rank no shape plays
        alone), or None when they can. Computed once per name (the check itself is cached
        on disk)."""
        if name not in self._refusals:
            from ..check import require_playable
            try:
                require_playable(self.rules[name])
                self._refusals[name] = None
            except UnplayableRulesError as e:  # laizi's one wild rank, read strongest, passes
                self._refusals[name] = str(e)
        return self._refusals[name]

    def playable(self, name: Any) -> Rules:
        """The rules offered as ``name`` when a deal can be played under them; WebError
        (400) naming the rules offered, or saying why these cannot be dealt."""
        rules = self.get(name)
        why = self.refusal(name)
        if why is not None:
            raise WebError(f"{name} can be studied in Learn but not played: {why}")
        return rules

    def key_of(self, rules: Rules) -> str | None:
        """The key of ``rules`` if they are offered (same resolved rules), else None."""
        from ..game.state import same_rules
        for k, r in self.rules.items():
            if same_rules(r, rules):
                return k
        return None

    def to_json(self) -> list[dict[str, Any]]:
        """``[{"name", "title", "players", "bidding", "bids", "playable", "why",
        "wild_ranks"}]``: ``playable`` false (and ``why``, the refusal) for rules that cannot
        be dealt; ``wild_ranks``: the rank indices the file's wild draws can give, low to high
        (empty without wild cards: what Learn's explain offers as the wild rank)."""
        out = []
        for k, r in self.rules.items():
            why = self.refusal(k)
            drawn = set() if r.wild is None else {i for d in r.wild.draws for i in d.ranks}
            out.append({"name": k, "title": r.title, "players": r.deal.players,
                        "bidding": r.bidding.system, "bids": list(r.bidding.bids),
                        "playable": why is None, "why": why, "wild_ranks": sorted(drawn)})
        return out


def card_list(cards: Cards, notation: str, wild: Sequence[int] = ()) -> list[dict[str, Any]]:
    """Each card of ``cards`` low to high as ``{"rank": index 0-14, "symbol"}`` (jokers are
    ranks 13 and 14), with ``"wild": true`` on a card of a ``wild`` rank (rank indices, the
    ranks shown so far: every card of a wild rank is wild): what the page draws."""
    return [{"rank": int(r.index), "symbol": SYMBOLS[notation][r.index]}
            | ({"wild": True} if r.index in wild else {}) for r in cards]


def check_notation(notation: Any) -> str:
    """``notation`` if it is en, fr or de; WebError otherwise."""
    if notation not in NOTATIONS:
        raise WebError(f"notation {json.dumps(notation)}: one of en, fr, de")
    return str(notation)


def illegal_text(cards: Cards, rules: Rules, notation: str) -> str:
    """Why ``cards`` is no move, in plain words (the explain text): "44445555 is illegal:
    ..." (seeds 000/002 restrictions)."""
    lines = explain(cards.format(notation), rules, notation).lines
    head = f"{cards.format(notation)} is illegal"
    rest = [ln.strip() for ln in lines[1:]]
    return head + (": " + " ".join(rest) if rest else ".")


def wild_illegal_text(cards: Cards, rank: int, rules: Rules, notation: str) -> str:
    """Why ``cards`` (as held; the cards of rank index ``rank`` are wild) is no move under
    wild rules, in plain words: "is illegal" then the explanation's lines after its head
    (:func:`ddzspec.wild.explain_wild`): "34Q is illegal: no reading: not a legal move,
    whatever rank (but a joker) each wild card stands for"."""
    move = WildMove(*split_hand(cards, rank), rank)
    lines = [ln.strip() for ln in explain_wild(move, rules).lines(rules, notation)[1:]]
    return f"{cards.format(notation)} is illegal: " + " ".join(lines)


def move_text(cards: Cards, rules: Rules, notation: str) -> str:
    """A legal move's canonical text, body then kickers (:meth:`Reading.format`: "TTT+4",
    never "4TTT"); the plain cards when they read as no move."""
    reading = move_index(rules).lookup(cards)
    return cards.format(notation) if reading is None else reading.format(notation)


def wild_play_text(cards: Cards, r: WildReading, notation: str) -> str:
    """A play under wild rules as the page writes it: the cards as held (a play with wild
    cards: ``3377``, the wild 7s among them), or, with no wild card, the reading's canonical
    text (``333+4``, as :func:`move_text`)."""
    return r.reading.format(notation) if not len(r.stands_for) and not r.all_wild \
        else cards.format(notation)


def faces(text: str, notation: str) -> str:
    """Cards text in ``notation`` as the page's card faces show it (common.js ``cardText``): a
    ten is ``10``, and a group with a face of two characters has its cards set off by spaces
    ("+" kept): ``TTT+4`` → ``10 10 10+4``, ``789TJ`` → ``7 8 9 10 J``, ``333+4`` unchanged.
    Characters that are no symbol are kept as they are."""
    longest = sorted(SYMBOLS[notation], key=len, reverse=True)
    groups = []
    for group in text.split("+"):
        out: list[str] = []
        rest = group
        while rest:
            sym = next((x for x in longest if rest.startswith(x)), rest[0])
            out.append("10" if sym == SYMBOLS[notation][Rank.TEN.index] else sym)
            rest = rest[len(sym):]
        groups.append((" " if any(len(x) > 1 for x in out) else "").join(out))
    return "+".join(groups)


def reading_words(reading: Reading, notation: str) -> str:
    """A reading in the page's words: its shape's name in words, then its cards split into
    body and kicker units as the faces show them (:func:`faces`): ``trio single 10 10 10+4``
    (the engine's :meth:`Reading.describe`, ``trio_single TTT+4``, is the CLI's)."""
    return f"{reading.shape.replace('_', ' ')} " \
        f"{faces(reading.format(notation, split_units=True), notation)}"


def wild_words(cards: Cards, r: WildReading, rank: int, notation: str) -> str | None:
    """What a play's wild cards stood for, and its bomb class (issue 26): ``77 as 33 · bomb
    3333 (soft)``, ``bomb 9999 (hard)`` (four natural cards), ``7 as 7 · straight 34567``; a
    play of wild cards only reads as themselves (``7777 as themselves · bomb 7777 (pure)``).
    None for a play with no wild card and no bomb class (it reads as under the natural
    rules). ``rank``: the wild rank index; ``cards``: as held."""
    if not len(r.stands_for) and not r.all_wild and r.bomb_class is None:
        return None
    words = reading_words(r.reading, notation) + \
        (f" ({r.bomb_class.value})" if r.bomb_class else "")
    held = faces(SYMBOLS[notation][rank] * cards.counts[rank], notation)
    if r.all_wild:
        return f"{held} as {'itself' if cards.counts[rank] == 1 else 'themselves'} · {words}"
    if len(r.stands_for):
        return f"{held} as {faces(r.stands_for.format(notation), notation)} · {words}"
    return words


def is_declared(st: GameState) -> bool:
    """Whether the player states a play's reading in ``st`` (wild cards drawn, ``reading
    declared``: issue 26)."""
    return bool(st.wild) and st.rules.wild is not None and \
        st.rules.wild.policy is ReadingPolicy.DECLARED


def reading_choice(cards: Cards, r: WildReading, rank: int, notation: str) -> dict[str, str]:
    """One reading a play under ``reading declared`` may be stated as, for the page:
    ``{"as": "789TJ", "typed": "789T*=789TJ", "words": "Q as J · straight 789TJ"}`` —
    ``as``: what the request's ``"as"`` takes (the cards the play makes, body then kickers:
    ``888+4``); ``typed``: the play as the terminal seat types it (each wild card ``*``, then
    ``=``; a play with no wild card: its cards); ``words``: :func:`wild_words`. ``cards``: as
    held; ``rank``: the wild rank."""
    made = r.reading.format(notation)
    move = WildMove(*split_hand(cards, rank), rank)
    return {"as": made, "typed": f"{move.format(notation)}={made}" if move.wilds else made,
            "words": wild_words(cards, r, rank, notation) or reading_words(r.reading, notation)}


def readings_list(choices: Sequence[dict[str, str]]) -> str:
    """The readings of :func:`reading_choice` in one line: ``Q as 6 · straight 6789T (as
    6789T); Q as J · straight 789TJ (as 789TJ)``."""
    return "; ".join(f"{c['words']} (as {c['as']})" for c in choices)


def action_cards(a: Action, notation: str, rules: Rules | None = None,
                 wild: WildReading | None = None) -> str | None:
    """The cards of a play as :func:`action_text` ends with them (canonical with ``rules``:
    :func:`move_text`; under wild rules, with the play's reading ``wild``:
    :func:`wild_play_text`), None for any other action: the page shows them as the card faces
    do (a ten as 10)."""
    if a.kind is not ActionKind.PLAY:
        return None
    assert a.cards is not None
    if wild is not None:
        return wild_play_text(a.cards, wild, notation)
    return a.cards.format(notation) if rules is None else move_text(a.cards, rules, notation)


def action_text(a: Action, notation: str, rules: Rules | None = None,
                choice: str | None = None, wild: WildReading | None = None) -> str:
    """An action in words for the page ("bids 2", "robs", "plays 333+4", "passes"); with
    ``rules``, a play is in its canonical text (:func:`move_text`; ``wild``: its reading under
    wild rules, :func:`action_cards`); ``choice``: a round's choice by the name the rules give
    it ("chooses kick (x2)", "chooses no")."""
    if choice is not None:
        return f"chooses {choice}" + (f" (x{a.value})" if a.value > 1 else "")
    if a.kind is ActionKind.BID:
        return "passes" if a.value == 0 else f"bids {a.value}"
    if a.kind is ActionKind.CALL:
        return "calls" if a.value else "does not call"
    if a.kind is ActionKind.ROB:
        return "robs" if a.value else "does not rob"
    if a.kind is ActionKind.DOUBLE:
        return "does not double" if a.value == 1 else f"doubles x{a.value}"
    if a.kind is ActionKind.SHOW:
        return "does not show" if a.value == 1 else f"shows the hand x{a.value}"
    if a.kind is ActionKind.BLIND:
        return "does not go blind" if a.value == 1 else f"goes blind x{a.value}"
    if a.kind is ActionKind.PLAY:
        return f"plays {action_cards(a, notation, rules, wild)}"
    return "passes"


#: The reading of each play under wild rules, by its index in the deal's log.
PlayReadings = dict[int, WildReading]


def step_readings(steps: Sequence[tuple[int, Action, GameState]]) -> PlayReadings:
    """The reading each play got, from ``(log index, action, state after it)`` triples: the
    state after a play under wild rules holds it (``last_wild``)."""
    return {i: st.last_wild for i, a, st in steps
            if a.kind is ActionKind.PLAY and st.last_wild is not None}


def trick_json(st: GameState, readings: PlayReadings, notation: str) -> list[dict[str, Any]]:
    """The trick on the table, each entry ``{"seat", "cards", "text", "reading"}``
    (``cards`` None for a pass). Under wild rules a play shows the cards as held, the wild
    ones marked, and ``reading`` says what they stood for (:func:`wild_words`); the trick's
    entries are the log's last actions (a trick starts empty after the bidding and after each
    close)."""
    out: list[dict[str, Any]] = []
    first = len(st.log) - len(st.trick)
    for k, (s, r) in enumerate(st.trick):
        a = st.log[first + k]
        wr = readings.get(first + k)
        if r is None or a.cards is None or wr is None or a.seat != s:
            out.append({"seat": s, "cards": None if r is None else card_list(r.cards, notation),
                        "text": None if r is None else r.format(notation), "reading": None})
            continue
        out.append({"seat": s, "cards": card_list(a.cards, notation, st.wild),
                    "text": wild_play_text(a.cards, wr, notation),
                    "reading": wild_words(a.cards, wr, st.wild[0], notation)})
    return out


@dataclass
class WebGame:
    """One deal at the web table: ``state`` (the engine's), the person's ``seat`` and each
    computer seat's level (1-3, seed 003's three levels; None for the person's seat)."""

    gid: str
    rules_key: str
    state: GameState
    seat: int
    levels: tuple[int | None, ...]
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: under wild rules, the reading each play of the log got (kept as the deal goes on;
    #: rebuilt by replaying the deal when one is missing: a resumed or uploaded deal)
    readings: PlayReadings = field(default_factory=dict, repr=False)

    # ---------------------------------------------------------------- queries

    def play_readings(self) -> PlayReadings:
        """Under wild rules, the reading of every play so far by its log index (empty
        otherwise): kept by :meth:`advance`, replayed from the deal's record when one is
        missing."""
        st = self.state
        if st.rules.wild is None:
            return {}
        if any(a.kind is ActionKind.PLAY and i not in self.readings
               for i, a in enumerate(st.log)):
            steps = replay(record_of(st)).steps
            self.readings.update(step_readings([(x.index, x.action, x.state) for x in steps]))
        return self.readings

    def advance(self, state: GameState) -> None:
        """Make ``state`` the deal's state, keeping the reading of a play just made."""
        if len(state.log) == len(self.state.log) + 1:
            i = len(state.log) - 1
            self.readings.update(step_readings([(i, state.log[i], state)]))
        self.state = state

    def computer_to_act(self) -> bool:
        """Whether a computer seat is on turn."""
        return self.state.turn is not None and self.state.turn != self.seat

    def legal(self, notation: str) -> dict[str, Any]:
        """The person's legal choices now: ``{"kind": "bid"|"call"|"rob"|"double"|"show"|
        "blind"|"play"|None, "choices": [values], "moves": [cards text, smallest first],
        "can_pass"}``; a round's choices are factors, with their ``"names"`` (``["no",
        "double", "super"]``)."""
        st = self.state
        if st.turn != self.seat:
            return {"kind": None, "choices": [], "moves": [], "can_pass": False}
        acts = st.legal_actions()
        if st.phase is Phase.BIDDING:  # call and rob: true / false, as an action takes them
            yes_no = acts[0].kind in (ActionKind.CALL, ActionKind.ROB)
            return {"kind": acts[0].kind.value,
                    "choices": [bool(a.value) if yes_no else a.value for a in acts],
                    "moves": [], "can_pass": False}
        rnd = current_round(st)
        if rnd is not None:  # a round: show cards or double, by factor
            names = {c.times: c.name for c in rnd.choices_of(self.seat == st.landlord)}
            return {"kind": acts[0].kind.value, "choices": [a.value for a in acts],
                    "names": [names[a.value] for a in acts], "moves": [], "can_pass": False}
        if st.wild:  # the plays of wild_actions, in the hint's order, each with its reading
            plays = wild_legal_moves(st.hands[self.seat], st.wild[0], st.rules, st.last_wild)
            out = {"kind": "play", "choices": [],
                   "moves": [wild_play_text(p.move.cards, p.reading, notation) for p in plays],
                   "readings": [wild_words(p.move.cards, p.reading, st.wild[0], notation)
                                for p in plays],
                   "can_pass": st.last is not None}  # as legal_actions: the leader may not
            if is_declared(st):  # one entry per (play, reading): the reading each states
                said = [reading_choice(p.move.cards, p.reading, st.wild[0], notation)
                        for p in plays]
                out["as"] = [c["as"] for c in said]
                out["typed"] = [c["typed"] for c in said]
            return out
        moves = [move_text(a.cards, st.rules, notation) for a in acts if a.cards is not None]
        return {"kind": "play", "choices": [], "moves": moves,
                "can_pass": any(a.kind is ActionKind.PASS for a in acts)}

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """What the page shows the person: their seat's view (:class:`SeatView`, so the
        others' hands and the undealt cards are never sent before the end), their hand as
        cards, their legal choices, the actions so far in words and, at the end, the
        itemised result and every hand."""
        st = self.state
        v = st.view(self.seat)
        j = v.to_json(notation)
        n = st.players
        j["unseen"] = [{"symbol": SYMBOLS[notation][i], "rank": i, "count": c}
                       | ({"wild": True} if i in v.wild else {})
                       for i, c in enumerate(v.unseen.counts) if st.rules.deck[i]]
        rl = st.rules
        wild = v.wild  # the wild ranks shown so far
        readings = self.play_readings()
        first = max(0, len(st.log) - 60)
        return {
            "id": self.gid, "rules": self.rules_key, "title": rl.title, "players": n,
            "seat": self.seat, "levels": list(self.levels), "notation": notation,
            "bidding": rl.bidding.system, "view": j,
            "wild": [{"rank": i, "symbol": SYMBOLS[notation][i]} for i in wild],
            "hand_cards": card_list(v.hand, notation, wild),  # empty before the deal
            "talon_cards": None if v.talon is None else card_list(v.talon, notation, wild),
            "talon_size": len(st.talon),
            "shown_cards": [{"seat": s, "cards": card_list(h, notation, wild)}
                            for s, h in v.shown if s != self.seat],
            "trick_cards": trick_json(st, readings, notation),
            "legal": self.legal(notation),
            "computer_to_act": self.computer_to_act(),
            "log": [{"seat": a.seat, "kind": a.kind.value, "choice": c,
                     "text": action_text(a, notation, rl, c, readings.get(i)),
                     "cards": action_cards(a, notation, rl, readings.get(i)),
                     "reading": None if i not in readings or a.cards is None else
                     wild_words(a.cards, readings[i], st.wild[0], notation),
                     "as": None if a.declared is None or i not in readings else
                     readings[i].reading.format(notation)}
                    for i, a, c in ((first + k, a, choice_name(rl, a, a.seat == st.landlord))
                                    for k, a in enumerate(st.log[first:]))],
            "attempt": st.attempt, "actions": len(st.log),
            "result_lines": None if st.result is None else result_lines(st, notation),
            "hands_at_end": None if st.result is None else
            [h.format(notation) for h in st.hands],
            "cards_at_end": None if st.result is None else
            [card_list(h, notation, st.wild) for h in st.hands],
            "result_reason": None if st.result is None else result_reason(st),
        }

    # ---------------------------------------------------------------- actions

    def person_action(self, obj: Any, notation: str) -> Action:
        """The person's action from the request body ``{"kind": "bid"|"call"|"rob"|"double"|
        "show"|"blind"|"play"|"pass", "value": int|bool, "cards": "..."}`` (a round's value:
        the factor; cards in ``notation``). Raises WebError for a malformed body, NotationError for
        unreadable cards."""
        if not isinstance(obj, dict):
            raise WebError("the body is a JSON object {\"kind\": ..., ...}")
        kind = obj.get("kind")
        s = self.seat
        fields = ACTION_FIELDS.get(kind) if isinstance(kind, str) else None
        if fields is not None:  # a field the kind does not take is refused, never ignored
            for k in obj:
                if k not in fields:
                    raise WebError(f"unknown field {json.dumps(k)} for a {kind} (its fields "
                                   f"are {', '.join(fields)})")
        if kind == "bid":
            v = obj.get("value")
            if not isinstance(v, int) or isinstance(v, bool):
                raise WebError("\"bid\" needs an integer \"value\" (0: pass)")
            return Action.bid(s, v)
        if kind in ("call", "rob"):
            v = obj.get("value")
            if not isinstance(v, bool):
                raise WebError(f"\"{kind}\" needs \"value\": true or false")
            return Action.call(s, v) if kind == "call" else Action.rob(s, v)
        if kind in ("double", "show", "blind"):
            v = obj.get("value")
            if not isinstance(v, int) or isinstance(v, bool):
                raise WebError(f"\"{kind}\" needs an integer \"value\": the factor chosen")
            return Action(ActionKind(kind), s, v)
        if kind == "pass":
            return Action.pass_(s)
        if kind == "play":
            return self.play_action(obj, notation)
        raise WebError(f"unknown action kind {json.dumps(kind)} (bid, call, rob, double, show, "
                       "blind, play, pass)")

    def play_action(self, obj: dict[str, Any], notation: str) -> Action:
        """The person's play from ``{"kind": "play", "cards": "...", "as": "..."?}``: under
        wild rules a wild card as held (its rank) or as ``*`` (:data:`ddzspec.wild.WILD_MARK`);
        under ``reading declared``, the reading stated as ``"as"`` (the cards the play makes,
        ``6789T``) or typed in ``"cards"`` (``789T*=6789T``, :func:`ddzspec.wild.parse_declared`).
        Raises WebError for a malformed body, NotationError for unreadable cards."""
        text = obj.get("cards")
        if not isinstance(text, str) or not text.strip():
            raise WebError("\"play\" needs \"cards\": the cards in notation, e.g. \"333+4\"")
        made = obj.get("as")
        for name, t in (("cards", text), ("as", made)):
            if isinstance(t, str) and len(t) > 200:
                raise WebError(f"\"{name}\" is longer than any hand")
        st = self.state
        if (made is not None or "=" in text) and not is_declared(st):
            raise WebError("a reading is stated (\"as\", or cards=reading) only under wild rules "
                           "with \"reading declared\": these rules read a play themselves")
        if made is not None and (not isinstance(made, str) or not made.strip()):
            raise WebError("\"as\" is the reading stated: the cards the play makes, in "
                           "notation (e.g. \"6789T\")")
        if st.wild and "=" in text:  # 789T*=6789T: the play and the reading in one
            if made is not None:
                raise WebError("the reading is stated twice: in \"cards\" (after =) and in "
                               "\"as\"; state it once")
            r = parse_declared(text, st.wild[0], st.rules, notation)
            held = parse_wild(text.partition("=")[0], st.wild[0], st.rules, notation).cards
            return Action(ActionKind.PLAY, self.seat, 0, held, r.reading.cards)
        if st.wild:  # a wild card as held (its rank) or as * (ddzspec.wild.WILD_MARK)
            held = parse_wild(text, st.wild[0], st.rules, notation).cards
            declared = None if made is None else \
                parse_cards(made, notation, deck=st.rules.deck).cards
            return Action(ActionKind.PLAY, self.seat, 0, held, declared)
        return Action(ActionKind.PLAY, self.seat, 0,
                      parse_cards(text, notation, deck=st.rules.deck).cards)

    def choices(self, cards: Cards, notation: str) -> list[dict[str, str]]:
        """Under ``reading declared``, the readings the person may play ``cards`` (held) as
        now (:func:`ddzspec.game.play.wild_choices`), each as :func:`reading_choice`; empty
        otherwise, or when the person does not hold them. Every reading, strongest first:
        bombs and the rocket (highest class and rank first), then the others as the
        ``strongest`` policy ranks a lead (the type's place in the ``priority``, the highest
        body); readings that differ only in their kickers stay together, in the order given."""
        st = self.state
        if not is_declared(st) or not cards <= st.hands[self.seat]:
            return []
        wild = st.rules.wild
        assert wild is not None  # is_declared

        def first(r: WildReading) -> tuple[int, ...]:
            if r.reading.tier:
                return (0, *(-x for x in strength(wild, r)))
            return (1, *(strongest_key(wild, r) or ()))
        return [reading_choice(cards, r, st.wild[0], notation)
                for r in sorted(wild_choices(st, self.seat, cards), key=first)]

    def check_person_turn(self) -> None:
        """WebError (409) unless the person is on turn."""
        st = self.state
        if st.phase is Phase.OVER:
            raise WebError("the deal is over", 409)
        if st.turn != self.seat:
            raise WebError(f"it is seat {st.turn}'s turn (a computer), not yours "
                           f"(seat {self.seat})", 409)

    def apply_person(self, action: Action, notation: str) -> GameState:
        """The state after the person's ``action`` (not stored): the engine's GameError when
        it is rejected, its cards in ``notation``; a play that is no move at all says why in
        plain words."""
        self.check_person_turn()
        st = self.state
        choices = [] if action.cards is None else self.choices(action.cards, notation)
        if action.cards is not None and action.declared is None and len(choices) > 1:
            held = WildMove(*split_hand(action.cards, st.wild[0]), st.wild[0])
            raise WebError(f"{held.format(notation)} has {len(choices)} readings here: say which "
                           f"(\"as\"): {readings_list(choices)}", 422, {"readings": choices})
        try:
            try:
                return self.state.apply(action)
            except (NotAMoveError, DoesNotBeatError) as e:
                if action.declared is None or action.cards is None:
                    raise
                held = WildMove(*split_hand(action.cards, st.wild[0]), st.wild[0])
                said = (f"{held.format(notation)} as {action.declared.format(notation)} is "
                        f"refused: {e.reason}")  # a reading stated: why not that one
                if choices:
                    said += f". Its readings here: {readings_list(choices)}"
                raise WebError(said, 422, {"readings": choices}) from None
        except NotAMoveError:
            raise self.illegal(action, notation) from None
        except GameError as e:  # cards not held, does not beat: in the page's notation
            if e.text(notation) == str(e):
                raise
            raise GameError(e.text(notation)) from None

    def illegal(self, action: Action, notation: str) -> GameError:
        """Why the person's play ``action`` is no move at all, in plain words."""
        st = self.state
        assert action.cards is not None
        if st.wild:
            return GameError(wild_illegal_text(action.cards, st.wild[0], st.rules, notation))
        return GameError(illegal_text(action.cards, st.rules, notation))

    def computer_action(self) -> Action:
        """The action of the computer seat on turn (level 3: a 0.5 s budget). Blocking: call
        it in a worker thread. Raises WebError (409) when the person is on turn."""
        st = self.state
        if st.turn is None or st.turn == self.seat:
            raise WebError("no computer is on turn", 409)
        level = self.levels[st.turn] or 1
        player = player_for(level, f"{self.gid}-{st.turn}-{len(st.log)}",
                            budget=LEVEL3_BUDGET if level == 3 else None)
        return player.decide(st.view(st.turn))

    # ---------------------------------------------------------------- files

    def file_json(self) -> str:
        """The autosave file's text: the deal's record plus the seats."""
        obj = {"format": WEB_FORMAT, "version": 1, "rules_key": self.rules_key,
               "seat": self.seat, "levels": list(self.levels),
               "record": record_of(self.state).to_json()}
        return json.dumps(obj, ensure_ascii=False)

    def replay_json(self, notation: str) -> dict[str, Any]:
        """The deal move by move, every hand open (only once it is over): ``{"initial":
        {"hands"}, "steps": [{"seat", "text", "cards", "hands", "trick"}]}`` (``cards``: those
        a play's text ends with, else null)."""
        if self.state.result is None:
            raise WebError("the replay shows every hand: it opens once the deal is over", 409)
        rep = replay(record_of(self.state))
        fmt = [h.format(notation) for h in rep.initial.hands]
        steps = []
        readings: PlayReadings = {}
        for step in rep.steps:
            st = step.state
            readings.update(step_readings([(step.index, step.action, st)]))
            wr = readings.get(step.index)
            choice = choice_name(st.rules, step.action, step.action.seat == st.landlord)
            said = action_text(step.action, notation, st.rules, choice, wr)
            words = None if wr is None or step.action.cards is None else \
                wild_words(step.action.cards, wr, st.wild[0], notation)
            steps.append({"seat": step.action.seat,
                          "text": f"seat {step.action.seat} {said}",
                          "cards": action_cards(step.action, notation, st.rules, wr),
                          "reading": words,
                          "hands": [h.format(notation) for h in st.hands],
                          "trick": [{"seat": t["seat"], "play": t["text"],
                                     "reading": t["reading"]}
                                    for t in trick_json(st, readings, notation)]})
        return {"initial": {"hands": fmt, "talon": rep.initial.talon.format(notation),
                            "wild": [SYMBOLS[notation][i] for i in rep.initial.wild_shown]},
                "steps": steps}


def result_reason(st: GameState) -> str:
    """Why a finished deal ended, from the engine's result: "seat 1 went out" when the seat
    that ended it holds no card, else (a duel's rob handicap, seed 003) "seat 0 reached its
    target: 2 cards left"."""
    r = st.result
    assert r is not None
    left = len(st.hands[r.out_seat])
    if left == 0:
        return f"seat {r.out_seat} went out"
    return f"seat {r.out_seat} reached its target: {left} card{'' if left == 1 else 's'} left"


def levels_of(obj: Any, players: int, seat: int) -> tuple[int | None, ...]:
    """Each seat's computer level from a request: a list with one level (1-3) per seat (the
    person's entry is ignored) or one level for every computer. WebError otherwise."""
    if isinstance(obj, int) and not isinstance(obj, bool):
        obj = [obj] * players
    if not isinstance(obj, list) or len(obj) != players:
        raise WebError(f"\"levels\": one level (1, 2 or 3) per seat ({players} seats)")
    out: list[int | None] = []
    for s, lv in enumerate(obj):
        if s == seat:
            out.append(None)
        elif isinstance(lv, int) and not isinstance(lv, bool) and lv in (1, 2, 3):
            out.append(lv)
        else:
            raise WebError(f"\"levels\"[{s}]: {json.dumps(lv)} is not a level (1, 2 or 3)")
    return tuple(out)


def seat_of(obj: Any, players: int) -> int:
    """The person's seat from a request (0 ... players-1). WebError otherwise."""
    if not isinstance(obj, int) or isinstance(obj, bool) or not 0 <= obj < players:
        raise WebError(f"\"seat\": {json.dumps(obj)} is not a seat (0-{players - 1})")
    return obj


#: The largest autosave file read, bytes (a finished deal's is about 10 kB): a larger one, or a
#: link, is no autosave of this table and is never read whole.
MAX_AUTOSAVE = 4 * 1024 * 1024


def read_autosave(p: Path) -> str:
    """The text of the autosave file ``p``, read to :data:`MAX_AUTOSAVE` bytes. Raises
    ValueError for a link or a file over the cap, OSError when it cannot be read."""
    if p.is_symlink():
        raise ValueError("a link, not an autosave file")
    try:
        return read_input(p, MAX_AUTOSAVE)
    except OSError as e:
        if e.errno == errno.EFBIG:
            raise ValueError(f"larger than {MAX_AUTOSAVE // (1024 * 1024)} MiB: not an "
                             "autosave file") from None
        raise


class GameStore:
    """Every deal of this server, in memory and in ``folder`` (one JSON file per game id,
    written atomically after every accepted action). A game not in memory is resumed from its
    file by replaying its record (:func:`ddzspec.game.record.replay`). At most ``max_games``
    files: the oldest finished deal makes room for a new one."""

    def __init__(self, folder: Path, offer: Offer, max_games: int = MAX_GAMES) -> None:
        self.folder = folder
        self.offer = offer
        self.max_games = max_games
        self.games: dict[str, WebGame] = {}
        self.lock = threading.Lock()
        self.create_lock = threading.Lock()
        #: whether a saved deal is over, by file, as of its modification time (read once)
        self._over: dict[str, tuple[float, bool]] = {}

    def path(self, gid: str) -> Path:
        return self.folder / f"{gid}.json"

    def new_id(self) -> str:
        while True:
            gid = secrets.token_hex(8)
            if gid not in self.games and not self.path(gid).exists():
                return gid

    def create(self, rules_key: str, state: GameState, seat: int,
               levels: tuple[int | None, ...]) -> WebGame:
        """Store a new game and write its file, after making room (:meth:`make_room`)."""
        with self.create_lock:
            self.make_room()
            g = WebGame(self.new_id(), rules_key, state, seat, levels)
            self.save(g, state)
            with self.lock:
                self.games[g.gid] = g
        return g

    def make_room(self) -> None:
        """Delete the oldest finished deals until one more fits under ``max_games``; WebError
        (429) when every deal kept is unfinished."""
        files = [p for p in self.folder.glob("*.json") if GAME_ID.match(p.stem)]
        over = len(files) - self.max_games + 1
        if over <= 0:
            return
        finished = []
        for p in files:
            try:
                mtime = p.stat().st_mtime
            except OSError:
                continue
            if self.is_over(p, mtime):
                finished.append((mtime, p))
        if len(finished) < over:
            raise WebError(f"the table keeps {self.max_games} deals and none of them is "
                           "finished: finish one (or delete its file) before dealing or "
                           "uploading another", 429)
        for _, p in sorted(finished)[:over]:
            with self.lock:
                self.games.pop(p.stem, None)
            self._over.pop(p.stem, None)
            p.unlink(missing_ok=True)

    def is_over(self, p: Path, mtime: float) -> bool:
        """Whether the deal saved in ``p`` is over (read once per modification)."""
        g = self.games.get(p.stem)
        if g is not None:
            return g.state.result is not None
        known = self._over.get(p.stem)
        if known is not None and known[0] == mtime:
            return known[1]
        try:
            obj = json.loads(read_autosave(p))
            done = bool(obj["record"].get("result"))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            done = False  # not ours to delete
        self._over[p.stem] = (mtime, done)
        return done

    def save(self, g: WebGame, state: GameState) -> None:
        """Make ``state`` the game's state, after writing its file (atomically). Raises
        WebError (500) when the file cannot be written; the game is then unchanged."""
        old = g.state
        g.advance(state)
        try:
            write_atomic(self.path(g.gid), g.file_json() + "\n")
        except OSError as e:
            g.state = old
            raise WebError(f"cannot autosave the deal: {e.strerror or e}", 500) from None

    def get(self, gid: str) -> WebGame:
        """The game ``gid``, from memory or resumed from its file. WebError 404 when unknown."""
        if isinstance(gid, str):
            gid = gid.lower()
        if not isinstance(gid, str) or not GAME_ID.match(gid):
            raise WebError(f"no game {json.dumps(gid)} (a game id is 16 hex digits, 0-9 and "
                           "a-f)", 404)
        with self.lock:
            g = self.games.get(gid)
            if g is not None:
                return g
            p = self.path(gid)
            if not p.is_file():
                raise WebError(f"no game {gid}", 404)
            g = self.load_file(gid, p)
            self.games[gid] = g
            return g

    def load_file(self, gid: str, p: Path) -> WebGame:
        """Resume a game from its autosave file. WebError when the file is not one."""
        try:
            obj = json.loads(read_autosave(p))
            if not isinstance(obj, dict) or obj.get("format") != WEB_FORMAT:
                raise WebError(f"{p.name}: not a ddzspec web game", 500)
            rec = Record.from_json(obj["record"])
            rep = replay(rec)
            if rep.problem is not None:
                raise RecordError(rep.problem)
            st = rep.state
            seat = seat_of(obj.get("seat"), st.players)
            levels = levels_of([1 if x is None else x for x in obj.get("levels", [])],
                               st.players, seat)
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise WebError(f"game {gid}: its saved file cannot be resumed: {e}", 500) \
                from None
        key = obj.get("rules_key")
        if not isinstance(key, str) or key not in self.offer.rules:
            key = self.offer.key_of(st.rules) or st.rules.name
        return WebGame(gid, key, st, seat, levels)

    def listing(self) -> list[dict[str, Any]]:
        """The saved games, newest first: ``[{"id", "rules", "title", "seat", "phase",
        "actions", "saved", "points"}]`` (``saved``: Unix time, seconds; ``points``: the
        person's score once the deal is over, else None)."""
        out = []
        files = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime,
                       reverse=True)
        for p in files[:50]:
            if not GAME_ID.match(p.stem):
                continue
            try:
                obj = json.loads(read_autosave(p))
                rec = obj["record"]
                res = rec.get("result")
                phase = "over" if res else "in progress"
                seat = obj.get("seat")
                key = obj.get("rules_key")
                title = self.offer.rules[key].title if key in self.offer.rules else key
                points = None
                if res and isinstance(seat, int):
                    points = res.get("scores", {}).get(str(seat))
                out.append({"id": p.stem, "rules": key, "title": title, "seat": seat,
                            "phase": phase, "actions": len(rec.get("actions", [])),
                            "saved": p.stat().st_mtime, "points": points})
            except (OSError, ValueError, KeyError, TypeError, AttributeError):
                continue
        return out

    def upload(self, obj: Any, seat: int | None, levels: Any) -> WebGame:
        """A new game from an uploaded record, replayed and validated action by action
        (:func:`~ddzspec.game.record.replay`). ``levels``: one level for every computer, or
        a list by seat (cut or padded with level 2 to the record's seats: the page sends its
        dropdowns before it knows the record's variant), or None (level 2). WebError naming
        the first bad action."""
        try:
            rec = Record.from_json(obj)
            rules = record_rules(rec)
        except DdzError as e:
            raise WebError(f"the record cannot be replayed: {e}") from None
        key = self.offer.key_of(rules)
        if key is None:  # the table plays only the rules it offers, uploaded or not
            raise WebError(f"the record's rules ({rec.rules_name}) are not among the rules "
                           f"offered ({', '.join(self.offer.rules)})")
        try:
            rep = replay(rec, self.offer.rules[key])
        except DdzError as e:
            raise WebError(f"the record cannot be replayed: {e}") from None
        if rep.problem is not None:
            raise WebError(f"the record cannot be replayed: {rep.problem}")
        st = rep.state
        s = seat_of(0 if seat is None else seat, st.players)
        if isinstance(levels, list):  # the page's dropdowns: fit them to the record's seats
            levels = (levels + [DEFAULT_LEVEL] * st.players)[:st.players]
        lv = levels_of(DEFAULT_LEVEL if levels is None else levels, st.players, s)
        return self.create(key, st, s, lv)


def new_state(rules: Rules, seed: Any) -> GameState:
    """A fresh shuffled deal under ``rules`` (``seed``: an int or string, or None for a
    random one). WebError for a bad seed."""
    if seed is None:
        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, (int, str)) or \
            (isinstance(seed, str) and len(seed) > 100) or \
            (isinstance(seed, int) and abs(seed) > 2**63):
        raise WebError(f"\"seed\": {json.dumps(seed)} is not a seed (an integer or a short "
                       "string)")
    try:
        return GameState.new(rules, seed=seed)
    except GameError as e:
        raise WebError(str(e)) from None


__all__ = [
    "DATA_ENV",
    "DEFAULT_LEVEL",
    "MAX_GAMES",
    "NOTATIONS",
    "GameStore",
    "Offer",
    "WebError",
    "WebGame",
    "card_list",
    "check_notation",
    "data_folder",
    "illegal_text",
    "levels_of",
    "move_text",
    "new_state",
    "result_reason",
    "seat_of",
    "wild_illegal_text",
    "wild_words",
]
