"""A deal as a state machine, driven entirely by the rules file: shuffle and deal, bidding,
talon, trick play, win and scoring (seeds 000/002 classic, 003 duel, 004 kawu).

:class:`GameState` is an immutable value: :meth:`GameState.apply` validates an :class:`Action`
and returns the next state, or raises a specific :class:`~ddzspec.errors.GameError` subclass —
the state it was called on is never changed (it cannot be). :class:`Game` is a small mutable
holder for front ends (``game.act(action)`` replaces its state only when the action is accepted).

What comes from the rules file (``Rules``):

- ``deal``: seats, hand size, talon, undealt cards (duel: 9, never shown), turn direction. Seats
  are numbered 0 … n−1 in turn order (counter-clockwise, seeds 000/002/004).
- ``bidding``: ``auction`` (one turn each, a bid strictly above the current one or pass, the top
  bid ends it at once; all pass: the deal is void and redealt, nothing carried over, the first
  bidder drawn at random again — classic — or the next player — kawu, seed 004) or
  ``call_rob`` (seed 003: call or not; after a call the others rob or decline in turn; a decline
  fixes the candidate; the ``max_robs``-th robber is landlord at once; no call: the first speaker
  is landlord with zero robs).
- ``trick``: a trick closes after ``close_after`` passes in a row (classic 2, duel 1); the last
  player who played leads next; the leader may not pass.
- ``win``: a seat wins when, after its own move, its cards left ≤ its target (landlord 0; duel
  peasant: the number of robs, "l'avance").
- ``scoring``: ``base`` (the bid or a number); every shape / event listed in ``double`` doubles
  the multiplier (bomb, rocket, each rob, spring, anti-spring; four + kickers never);
  ``per_peasant``: each peasant settles base × multiplier with the landlord (classic landlord ±2S,
  each peasant ∓S; duel ±S). Always zero-sum.

Shuffles are reproducible: deal attempt ``i`` of seed ``s`` shuffles with
``random.Random(f"ddzspec:{s}:{i}")`` (string seeds are hashed deterministically by CPython).

>>> from ddzspec.rules import load_rules
>>> g = GameState.new(load_rules("classic"), seed=7)
>>> g.phase, g.turn, [len(h) for h in g.hands]
('bidding', 2, [17, 17, 17])
>>> g2 = g.apply(Action.bid(2, 3))
>>> g2.phase, g2.landlord, len(g2.hands[2]), g2.base
('play', 2, 20, 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .cards import EMPTY, N_RANKS, Cards, parse_cards
from .errors import GameError, NotationError
from .moves import legal_moves, move_index
from .readings import Reading, beats
from .rules import Rules

# ----------------------------------------------------------------------------- errors


class WrongPhaseError(GameError):
    """An action that does not belong to the deal's current phase (a play during the bidding,
    a bid after it, anything once the deal is over)."""


class OutOfTurnError(GameError):
    """A seat acting when it is not its turn."""


class InvalidBidError(GameError):
    """A bid the auction does not allow (not one of the rules' bids, or not strictly above the
    current bid — seeds 000/002/004), or a call/rob out of place (seed 003)."""


class CardsNotHeldError(GameError):
    """Playing cards the seat does not hold."""


class NotAMoveError(GameError):
    """Cards that form no legal move under the rules; ``reason`` says why."""


class DoesNotBeatError(GameError):
    """A legal move that does not beat the trick's last move; ``reason`` says why."""


class LeaderMayNotPassError(GameError):
    """The leader of a trick passing (seeds 000/002: "celui qui entame un tour n'a pas le droit
    de passer")."""


class BadSeatError(GameError):
    """A seat number outside 0 … players−1."""


# ----------------------------------------------------------------------------- values

ACTION_KINDS = ("bid", "call", "rob", "play", "pass")


@dataclass(frozen=True, slots=True)
class Action:
    """One action of a deal. ``kind``: "bid" (auction; ``value`` 0 = pass, else the bid),
    "call" / "rob" (call_rob; ``value`` 1 = yes, 0 = no), "play" (``cards``), "pass" (a trick
    pass). Build with the class methods; JSON with :meth:`to_json` / :meth:`from_json`."""

    kind: str
    seat: int
    value: int = 0
    cards: Cards | None = None

    @classmethod
    def bid(cls, seat: int, value: int) -> Action:
        """An auction bid (``value`` 0: pass)."""
        return cls("bid", seat, value)

    @classmethod
    def call(cls, seat: int, yes: bool = True) -> Action:
        """Call the landlord (or not) in call_rob bidding."""
        return cls("call", seat, int(yes))

    @classmethod
    def rob(cls, seat: int, yes: bool = True) -> Action:
        """Rob (or decline to rob) in call_rob bidding."""
        return cls("rob", seat, int(yes))

    @classmethod
    def play(cls, seat: int, cards: Cards | str) -> Action:
        """Play cards (Cards or English notation)."""
        if isinstance(cards, str):
            cards = parse_cards(cards).cards
        return cls("play", seat, 0, cards)

    @classmethod
    def pass_(cls, seat: int) -> Action:
        """Pass in trick play."""
        return cls("pass", seat)

    def to_json(self) -> dict[str, Any]:
        """``{"seat": 0, "bid": 2}``, ``{"seat": 1, "call": true}``, ``{"seat": 0, "rob": false}``,
        ``{"seat": 2, "play": "333+4"}``, ``{"seat": 1, "pass": true}``."""
        if self.kind == "bid":
            return {"seat": self.seat, "bid": self.value}
        if self.kind in ("call", "rob"):
            return {"seat": self.seat, self.kind: bool(self.value)}
        if self.kind == "play":
            assert self.cards is not None
            return {"seat": self.seat, "play": self.cards.format("en")}
        return {"seat": self.seat, "pass": True}

    @classmethod
    def from_json(cls, obj: Any, deck: Sequence[int] | None = None) -> Action:
        """Inverse of :meth:`to_json`. ``deck``: the variant's copies per rank, to reject ranks
        it lacks. Raises GameError on a malformed object, NotationError on bad cards."""
        if not isinstance(obj, dict) or not isinstance(obj.get("seat"), int) \
                or isinstance(obj.get("seat"), bool):
            raise GameError(f"an action needs an integer 'seat': {obj!r}")
        kinds = [k for k in ACTION_KINDS if k in obj]
        if len(kinds) != 1 or len(obj) != 2:
            raise GameError(f"an action has a seat and exactly one of "
                            f"{', '.join(ACTION_KINDS)}: {obj!r}")
        kind, v, seat = kinds[0], obj[kinds[0]], obj["seat"]
        if kind == "bid":
            if not isinstance(v, int) or isinstance(v, bool):
                raise GameError(f"a bid is an integer (0: pass): {obj!r}")
            return cls.bid(seat, v)
        if kind in ("call", "rob"):
            if not isinstance(v, bool):
                raise GameError(f"{kind} is true or false: {obj!r}")
            return cls(kind, seat, int(v))
        if kind == "play":
            if not isinstance(v, str):
                raise GameError(f"play takes cards in notation: {obj!r}")
            return cls("play", seat, 0, parse_cards(v, deck=deck).cards)
        if v is not True:
            raise GameError(f"pass is true: {obj!r}")
        return cls.pass_(seat)

    def __str__(self) -> str:
        who = f"seat {self.seat}"
        if self.kind == "bid":
            return f"{who} {'passes' if self.value == 0 else f'bids {self.value}'}"
        if self.kind == "call":
            return f"{who} {'calls' if self.value else 'does not call'}"
        if self.kind == "rob":
            return f"{who} {'robs' if self.value else 'does not rob'}"
        if self.kind == "play":
            return f"{who} plays {self.cards}"
        return f"{who} passes"


@dataclass(frozen=True, slots=True)
class Factor:
    """One doubling of the multiplier: ``kind`` (a shape name such as bomb / rocket, or rob,
    spring, anti_spring), ``times`` (2), the ``seat`` that caused it and the ``cards`` played."""

    kind: str
    times: int = 2
    seat: int | None = None
    cards: str | None = None

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "times": self.times}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.cards is not None:
            d["cards"] = self.cards
        return d


@dataclass(frozen=True, slots=True)
class Result:
    """How a deal ended. ``winner``: "landlord" or "peasants"; ``out_seat``: the seat that
    reached its target; ``base`` × ``multiplier`` (product of ``factors``) = ``stake`` (S);
    ``scores``: points per seat (sum 0); ``spring`` / ``anti_spring`` flags."""

    winner: str
    out_seat: int
    landlord: int
    base: int
    multiplier: int
    factors: tuple[Factor, ...]
    scores: tuple[int, ...]
    spring: bool
    anti_spring: bool

    @property
    def stake(self) -> int:
        """S = base × multiplier."""
        return self.base * self.multiplier

    def to_json(self) -> dict[str, Any]:
        """``{"winner", "out_seat", "landlord", "base", "multiplier", "stake", "factors",
        "scores": {seat: points}, "spring", "anti_spring"}`` (seats as strings, JSON keys)."""
        return {"winner": self.winner, "out_seat": self.out_seat, "landlord": self.landlord,
                "base": self.base, "multiplier": self.multiplier, "stake": self.stake,
                "factors": [f.to_json() for f in self.factors],
                "scores": {str(s): p for s, p in enumerate(self.scores)},
                "spring": self.spring, "anti_spring": self.anti_spring}


@dataclass(frozen=True, slots=True)
class SeatView:
    """What a front end shows one seat (seeds 003/004): its own ``hand``, the public state and
    the helpers — ``unseen`` (per rank, cards this seat has not seen: duel includes the 9 undealt
    cards, never revealed), ``targets`` (cards left at which each seat wins: the duel handicap
    display) and ``warnings`` (seat → "one card left" / "two cards left")."""

    seat: int
    role: str | None
    hand: Cards
    phase: str
    turn: int | None
    cards_left: tuple[int, ...]
    landlord: int | None
    talon: Cards | None
    bids: tuple[Action, ...]
    robs: int
    candidate: int | None
    trick: tuple[tuple[int, Reading | None], ...]
    last: tuple[int, Reading] | None
    base: int | None
    multiplier: int
    factors: tuple[Factor, ...]
    targets: tuple[int, ...] | None
    unseen: Cards
    warnings: tuple[tuple[int, str], ...]
    result: Result | None
    #: the rules of the deal (public; what a computer player needs to list its moves)
    rules: Rules | None = None
    #: every trick-play action of this deal so far, in order (plays and passes; all public)
    history: tuple[Action, ...] = ()

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """The view as JSON-ready data (cards in ``notation``)."""
        return {
            "seat": self.seat, "role": self.role, "hand": self.hand.format(notation),
            "phase": self.phase, "turn": self.turn, "cards_left": list(self.cards_left),
            "landlord": self.landlord,
            "talon": None if self.talon is None else self.talon.format(notation),
            "bids": [a.to_json() for a in self.bids], "robs": self.robs,
            "candidate": self.candidate,
            "trick": [{"seat": s, "play": None if r is None else r.format(notation)}
                      for s, r in self.trick],
            "base": self.base, "multiplier": self.multiplier,
            "factors": [f.to_json() for f in self.factors],
            "targets": None if self.targets is None else list(self.targets),
            "unseen": {sym: n for sym, n in zip(_symbols(notation), self.unseen.counts)
                       if n},
            "warnings": {str(s): w for s, w in self.warnings},
            "result": None if self.result is None else self.result.to_json(),
        }


def _symbols(notation: str) -> tuple[str, ...]:
    from .cards import SYMBOLS
    return SYMBOLS[notation]


# ----------------------------------------------------------------------------- dealing

def shuffle_deal(rules: Rules, seed: int | str, attempt: int,
                 previous_first: int | None) -> tuple[tuple[Cards, ...], Cards, Cards, int]:
    """Shuffle and deal attempt ``attempt`` of ``seed``: (hands, talon, undealt, first speaker).

    Cards are dealt one by one in turn order, then the talon, then the undealt rest (duel: 9,
    seed 003). The first speaker is drawn at random (seeds 000/002/003/004) except after an
    all-pass redeal under ``all_pass redeal first_bidder next`` (kawu, seed 004): the seat after
    ``previous_first``."""
    d = rules.deal
    rng = random.Random(f"ddzspec:{seed}:{attempt}")
    deck = [i for i in range(N_RANKS) for _ in range(rules.deck[i])]
    rng.shuffle(deck)
    first = rng.randrange(d.players)
    if attempt > 0 and previous_first is not None and \
            rules.bidding.all_pass_first_bidder == "next":
        first = next_seat(rules, previous_first)
    counts = [[0] * N_RANKS for _ in range(d.players)]
    n = d.players * d.hand
    for j in range(n):
        counts[j % d.players][deck[j]] += 1
    talon = [0] * N_RANKS
    for c in deck[n:n + d.talon]:
        talon[c] += 1
    und = [0] * N_RANKS
    for c in deck[n + d.talon:]:
        und[c] += 1
    return tuple(Cards(tuple(c)) for c in counts), Cards(tuple(talon)), Cards(tuple(und)), first


def next_seat(rules: Rules, seat: int) -> int:
    """The seat after ``seat`` in turn order (seats are numbered in the rules' direction)."""
    return (seat + 1) % rules.deal.players


# ----------------------------------------------------------------------------- the state

@dataclass(frozen=True, slots=True)
class GameState:
    """One deal at one moment. Build with :meth:`new`; advance with :meth:`apply`.

    ``phase``: "bidding", "play" or "over". ``attempt``: deal attempt (all-pass redeals add one).
    ``hands``: cards held per seat (the landlord's includes the talon once taken). ``log``: every
    accepted action since the start, voided attempts included (what a record stores).
    """

    rules: Rules
    seed: int | str | None
    setup: tuple[tuple[Cards, ...], Cards, Cards, int] | None
    attempt: int
    hands: tuple[Cards, ...]
    talon: Cards
    undealt: Cards
    first: int
    phase: str
    turn: int | None
    bids: tuple[Action, ...] = ()
    high: int = 0
    high_seat: int | None = None
    called: bool = False
    candidate: int | None = None
    robs: int = 0
    landlord: int | None = None
    base: int | None = None
    leader: int | None = None
    last: tuple[int, Reading] | None = None
    passes: int = 0
    trick: tuple[tuple[int, Reading | None], ...] = ()
    tricks: int = 0
    played: tuple[Cards, ...] = ()
    plays: tuple[int, ...] = ()
    factors: tuple[Factor, ...] = ()
    result: Result | None = None
    log: tuple[Action, ...] = field(default=())

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, rules: Rules, seed: int | str | None = None,
            hands: Sequence[Cards | str] | None = None, talon: Cards | str | None = None,
            first: int | None = None) -> GameState:
        """A fresh deal in the bidding phase.

        Either ``seed`` (reproducible shuffle, see :func:`shuffle_deal`) or explicit ``hands``
        (one per seat, ``deal.hand`` cards each) and ``talon`` (the undealt rest is the deck
        minus both), with ``first`` the first speaker (default 0). An explicit deal voided by an
        all-pass auction is redealt from ``seed`` (default 0). Raises GameError when the cards
        do not make up the deck, or when the rules cannot be played to the end (no shape plays
        a lone card: a leader could be stuck), NotationError on bad notation.
        """
        if not rules.lone_cards_playable:
            raise GameError(f"{rules.label} cannot be played: no shape plays a lone card of "
                            "every rank, so a leader could be left unable to play and the deal "
                            "would never end")
        if hands is None:
            if talon is not None:
                raise GameError("a talon without hands")
            s = 0 if seed is None else seed
            h, t, u, f = shuffle_deal(rules, s, 0, None)
            if first is not None:
                f = cls._check_seat(rules, first)
            return cls._start(rules, seed if seed is not None else 0, None, 0, h, t, u, f, ())
        setup = cls.explicit_setup(rules, hands, talon, first)
        return cls._start(rules, seed, setup, 0, *setup, ())

    @staticmethod
    def _check_seat(rules: Rules, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or \
                not 0 <= seat < rules.deal.players:
            raise BadSeatError(f"no seat {seat!r} (seats 0-{rules.deal.players - 1})")
        return seat

    @classmethod
    def explicit_setup(cls, rules: Rules, hands: Sequence[Cards | str],
                       talon: Cards | str | None, first: int | None
                       ) -> tuple[tuple[Cards, ...], Cards, Cards, int]:
        """Validate an explicit deal: (hands, talon, undealt, first). Raises GameError."""
        d = rules.deal

        def cards(x: Cards | str) -> Cards:
            return x if isinstance(x, Cards) else parse_cards(x, deck=rules.deck).cards
        hs = tuple(cards(h) for h in hands)
        if len(hs) != d.players:
            raise GameError(f"{rules.name} deals {d.players} hands, got {len(hs)}")
        for i, h in enumerate(hs):
            if len(h) != d.hand:
                raise GameError(f"hand {i} has {len(h)} cards; {rules.name} deals {d.hand}")
        t = cards(talon) if talon is not None else None
        if t is None or len(t) != d.talon:
            raise GameError(f"the talon must have {d.talon} cards")
        total = [sum(h.counts[i] for h in hs) + t.counts[i] for i in range(N_RANKS)]
        over = [i for i in range(N_RANKS) if total[i] > rules.deck[i]]
        if over:
            from .cards import ALL_RANKS
            raise GameError("more copies than the deck holds: "
                            + " ".join(ALL_RANKS[i].symbol() for i in over))
        und = Cards(tuple(rules.deck[i] - total[i] for i in range(N_RANKS)))
        if len(und) != d.undealt:
            raise GameError(f"{len(und)} cards left undealt ({und}); {rules.name} leaves "
                            f"{d.undealt} undealt")
        f = 0 if first is None else cls._check_seat(rules, first)
        return hs, t, und, f

    @classmethod
    def _start(cls, rules: Rules, seed: int | str | None,
               setup: tuple[tuple[Cards, ...], Cards, Cards, int] | None, attempt: int,
               hands: tuple[Cards, ...], talon: Cards, undealt: Cards, first: int,
               log: tuple[Action, ...]) -> GameState:
        n = rules.deal.players
        return cls(rules=rules, seed=seed, setup=setup, attempt=attempt, hands=hands,
                   talon=talon, undealt=undealt, first=first, phase="bidding", turn=first,
                   played=(EMPTY,) * n, plays=(0,) * n, log=log)

    # ------------------------------------------------------------------ queries

    @property
    def players(self) -> int:
        return self.rules.deal.players

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def role(self, seat: int) -> str | None:
        """"landlord", "peasant", or None during the bidding."""
        if self.landlord is None:
            return None
        return "landlord" if seat == self.landlord else "peasant"

    def target(self, seat: int) -> int:
        """Cards left at which ``seat`` wins (after its own move): the rules' target for its
        role; "robs" is the duel handicap, the number of robs (seed 003). Only after bidding."""
        t = self.rules.win.landlord if seat == self.landlord else self.rules.win.peasant
        return self.robs if t == "robs" else int(t)

    @property
    def multiplier(self) -> int:
        """Product of the doubling factors so far."""
        m = 1
        for f in self.factors:
            m *= f.times
        return m

    def legal_actions(self) -> list[Action]:
        """Every action the seat on turn may take now (empty once the deal is over):
        bids (pass first), call/rob yes/no, or every legal play (hint order) then pass."""
        if self.phase == "over" or self.turn is None:
            return []
        s = self.turn
        if self.phase == "bidding":
            b = self.rules.bidding
            if b.system == "auction":
                return [Action.bid(s, 0)] + [Action.bid(s, v) for v in b.bids if v > self.high]
            kind = "rob" if self.called else "call"
            return [Action(kind, s, 1), Action(kind, s, 0)]
        prev = None if self.last is None else self.last[1]
        lm = legal_moves(self.hands[s], prev, self.rules)
        out = [Action("play", s, 0, r.cards) for r in lm.moves]
        if lm.can_pass:
            out.append(Action.pass_(s))
        return out

    def unseen(self, seat: int) -> Cards:
        """Per rank, the cards ``seat`` has not seen (the seed 003 *Counter*): the deck minus
        its own cards (held and played), every card played, and the talon once revealed — a
        talon card the landlord may since have played is counted once (suits never matter, so a
        played rank the talon showed may be that very card). In duel it includes the 9 undealt
        cards, which are never revealed (seed 003)."""
        self._check_seat(self.rules, seat)
        seen = [a + b for a, b in zip(self.hands[seat].counts, self.played[seat].counts)]
        for s in range(self.players):
            if s == seat:
                continue
            p = self.played[s].counts
            if self.landlord is not None and s == self.landlord:
                t = self.talon.counts
                for i in range(N_RANKS):
                    seen[i] += max(p[i], t[i])
            else:
                for i in range(N_RANKS):
                    seen[i] += p[i]
        return Cards(tuple(max(0, d - x) for d, x in zip(self.rules.deck, seen)))

    def warnings(self) -> tuple[tuple[int, str], ...]:
        """Seats with one or two cards left during play: (seat, "one card left" | "two cards
        left") — seed 004's « Plus qu'une carte ! » / « Plus que 2 cartes ! »."""
        if self.phase != "play":
            return ()
        out = []
        for s, h in enumerate(self.hands):
            if len(h) == 1:
                out.append((s, "one card left"))
            elif len(h) == 2:
                out.append((s, "two cards left"))
        return tuple(out)

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may see (:class:`SeatView`). Raises BadSeatError."""
        self._check_seat(self.rules, seat)
        shown = self.landlord is not None
        return SeatView(
            seat=seat, role=self.role(seat), hand=self.hands[seat], phase=self.phase,
            turn=self.turn, cards_left=tuple(len(h) for h in self.hands),
            landlord=self.landlord, talon=self.talon if shown else None, bids=self.bids,
            robs=self.robs, candidate=self.candidate, trick=self.trick, last=self.last,
            base=self.base, multiplier=self.multiplier, factors=self.factors,
            targets=tuple(self.target(s) for s in range(self.players)) if shown else None,
            unseen=self.unseen(seat), warnings=self.warnings(), result=self.result,
            rules=self.rules, history=tuple(a for a in self.log if a.kind in ("play", "pass")))

    # ------------------------------------------------------------------ transitions

    def apply(self, action: Action) -> GameState:
        """The state after ``action``. Raises (and changes nothing — this state is immutable):
        WrongPhaseError, OutOfTurnError, BadSeatError, InvalidBidError, CardsNotHeldError,
        NotAMoveError, DoesNotBeatError, LeaderMayNotPassError (all GameError)."""
        if not isinstance(action, Action) or action.kind not in ACTION_KINDS:
            raise GameError(f"not an action: {action!r}")
        self._check_seat(self.rules, action.seat)
        if self.phase == "over":
            raise WrongPhaseError("the deal is over")
        want = {"bidding": ("bid",) if self.rules.bidding.system == "auction" else
                ("call",) if not self.called else ("rob",),
                "play": ("play", "pass")}[self.phase]
        if action.kind not in want:
            raise WrongPhaseError(f"{action.kind} is not possible now: the deal is in its "
                                  f"{self.phase} phase (expected {' or '.join(want)})")
        if action.seat != self.turn:
            raise OutOfTurnError(f"it is seat {self.turn}'s turn, not seat {action.seat}'s")
        if (action.cards is not None) != (action.kind == "play") or \
                (action.kind in ("play", "pass") and action.value != 0):
            raise GameError(f"malformed action: {action!r}")
        if action.kind in ("call", "rob") and action.value not in (0, 1):
            raise InvalidBidError(f"{action.kind}: value 1 (yes) or 0 (no), got {action.value}")
        log = self.log + (action,)
        if action.kind == "bid":
            return self._bid(action, log)
        if action.kind == "call":
            return self._call(action, log)
        if action.kind == "rob":
            return self._rob(action, log)
        if action.kind == "play":
            return self._play(action, log)
        return self._pass(action, log)

    def _bid(self, a: Action, log: tuple[Action, ...]) -> GameState:
        b = self.rules.bidding
        if not isinstance(a.value, int) or isinstance(a.value, bool):
            raise InvalidBidError(f"bid {a.value!r}: a bid is a whole number: pass (0) or "
                                  f"{', '.join(map(str, b.bids))}")
        if a.value != 0:
            if a.value not in b.bids:
                raise InvalidBidError(f"bid {a.value}: the bids are pass (0) or "
                                      f"{', '.join(map(str, b.bids))}")
            if a.value <= self.high:
                raise InvalidBidError(f"bid {a.value}: a bid must be strictly above the "
                                      f"current bid ({self.high})")
        bids = self.bids + (a,)
        high, high_seat = (a.value, a.seat) if a.value > self.high else (self.high,
                                                                        self.high_seat)
        top = b.ends_at if b.ends_at is not None else max(b.bids)
        if a.value and a.value >= top:
            return self._landlord(a.seat, log, bids=bids, high=high, high_seat=high_seat)
        if len(bids) == self.players:
            if high_seat is None:
                return self._redeal(log)
            return self._landlord(high_seat, log, bids=bids, high=high, high_seat=high_seat)
        return replace(self, bids=bids, high=high, high_seat=high_seat,
                       turn=next_seat(self.rules, a.seat), log=log)

    def _redeal(self, log: tuple[Action, ...]) -> GameState:
        """All passed: the deal is void; reshuffle and redeal, nothing carried over (seeds
        000/002); the first bidder drawn again or the next player (seed 004)."""
        attempt = self.attempt + 1
        seed = self.seed if self.seed is not None else 0
        h, t, u, f = shuffle_deal(self.rules, seed, attempt, self.first)
        return self._start(self.rules, self.seed, self.setup, attempt, h, t, u, f, log)

    def _call(self, a: Action, log: tuple[Action, ...]) -> GameState:
        bids = self.bids + (a,)
        if a.value:
            return replace(self, bids=bids, called=True, candidate=a.seat,
                           turn=next_seat(self.rules, a.seat), log=log)
        if len(bids) == self.players:  # nobody called
            if self.rules.bidding.no_call_first_speaker_landlord:
                return self._landlord(self.first, log, bids=bids)
            return self._redeal(log)
        return replace(self, bids=bids, turn=next_seat(self.rules, a.seat), log=log)

    def _rob(self, a: Action, log: tuple[Action, ...]) -> GameState:
        bids = self.bids + (a,)
        if not a.value:
            assert self.candidate is not None
            return self._landlord(self.candidate, log, bids=bids)
        robs = self.robs + 1
        factors = self.factors
        if "rob" in self.rules.scoring.double:
            factors = factors + (Factor("rob", 2, a.seat),)
        if robs >= self.rules.bidding.max_robs:
            return self._landlord(a.seat, log, bids=bids, robs=robs, factors=factors)
        return replace(self, bids=bids, candidate=a.seat, robs=robs, factors=factors,
                       turn=next_seat(self.rules, a.seat), log=log)

    def _landlord(self, seat: int, log: tuple[Action, ...], **kw: Any) -> GameState:
        """Bidding over: the talon is shown and added to the landlord, who leads."""
        st = replace(self, log=log, **kw)
        base = st.rules.scoring.base
        hands = list(st.hands)
        hands[seat] = hands[seat] + st.talon
        return replace(st, landlord=seat, candidate=seat, phase="play", turn=seat,
                       leader=seat, hands=tuple(hands),
                       base=st.high if base == "bid" else int(base))

    def _play(self, a: Action, log: tuple[Action, ...]) -> GameState:
        cards = a.cards
        if cards is None or len(cards) == 0:
            raise NotAMoveError("a play needs cards (use pass to pass)")
        hand = self.hands[a.seat]
        if not cards <= hand:
            missing = Cards(tuple(max(0, c - h) for c, h in zip(cards.counts, hand.counts)))
            raise CardsNotHeldError(f"seat {a.seat} does not hold {missing} "
                                    f"(hand {hand})")
        reading = move_index(self.rules).table.lookup(cards)
        if reading is None:
            from .readings import read
            v = read(cards, self.rules)
            why = v.reason or "ambiguous: " + "; ".join(r.describe() for r in v.readings)
            err = NotAMoveError(f"{cards} is not a legal move: {why}")
            err.reason = why  # type: ignore[attr-defined]
            raise err
        if self.last is not None:
            ok, why = beats(reading, self.last[1])
            if not ok:
                err2 = DoesNotBeatError(f"{reading.describe()} does not beat "
                                        f"{self.last[1].describe()}: {why}")
                err2.reason = why  # type: ignore[attr-defined]
                raise err2
        s = a.seat
        hands = list(self.hands)
        hands[s] = hand - cards
        played = list(self.played)
        played[s] = played[s] + cards
        plays = list(self.plays)
        plays[s] += 1
        factors = self.factors
        if reading.shape in self.rules.scoring.double:
            factors = factors + (Factor(reading.shape, 2, s, reading.format()),)
        trick = self.trick + ((s, reading),)
        st = replace(self, hands=tuple(hands), played=tuple(played), plays=tuple(plays),
                     factors=factors, last=(s, reading), passes=0, trick=trick, log=log,
                     turn=next_seat(self.rules, s))
        if len(hands[s]) <= st.target(s):
            return st._finish(s)
        return st

    def _pass(self, a: Action, log: tuple[Action, ...]) -> GameState:
        if self.last is None:
            raise LeaderMayNotPassError(f"seat {a.seat} leads this trick and may not pass")
        passes = self.passes + 1
        trick = self.trick + ((a.seat, None),)
        if passes >= self.rules.trick.close_after:
            lead = self.last[0]
            return replace(self, passes=0, last=None, trick=(), tricks=self.tricks + 1,
                           leader=lead, turn=lead, log=log)
        return replace(self, passes=passes, trick=trick, turn=next_seat(self.rules, a.seat),
                       log=log)

    def _finish(self, seat: int) -> GameState:
        """``seat`` reached its target: the deal ends; spring / anti-spring and settlement."""
        assert self.landlord is not None and self.base is not None
        ll = self.landlord
        landlord_wins = seat == ll
        peasants = [s for s in range(self.players) if s != ll]
        spring = landlord_wins and all(self.plays[s] == 0 for s in peasants)
        anti = not landlord_wins and self.plays[ll] == 1
        factors = self.factors
        dbl = self.rules.scoring.double
        if spring and "spring" in dbl:
            factors = factors + (Factor("spring", 2),)
        if anti and "anti_spring" in dbl:
            factors = factors + (Factor("anti_spring", 2),)
        mult = 1
        for f in factors:
            mult *= f.times
        stake = self.base * mult
        sign = 1 if landlord_wins else -1
        scores = [0] * self.players
        for p in peasants:  # settle per_peasant: each peasant settles S with the landlord
            scores[p] = -sign * stake
            scores[ll] += sign * stake
        res = Result("landlord" if landlord_wins else "peasants", seat, ll, self.base, mult,
                     factors, tuple(scores), spring, anti)
        return replace(self, factors=factors, result=res, phase="over", turn=None)


class Game:
    """A mutable holder of a :class:`GameState` for front ends and players: :meth:`act`
    replaces the state only when the action is accepted (else the GameError propagates and
    nothing changes). ``history``: every state so far (no undo in the seeds, but handy)."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    @classmethod
    def new(cls, rules: Rules, seed: int | str | None = None, **kw: Any) -> Game:
        """A new deal: see :meth:`GameState.new`."""
        return cls(GameState.new(rules, seed, **kw))

    def act(self, action: Action) -> GameState:
        """Apply ``action``; returns the new state. Raises GameError (state unchanged)."""
        self.state = self.state.apply(action)
        return self.state


__all__ = ["Action", "BadSeatError", "CardsNotHeldError", "DoesNotBeatError", "Factor", "Game",
           "GameState", "InvalidBidError", "LeaderMayNotPassError", "NotAMoveError",
           "NotationError", "OutOfTurnError", "Result", "SeatView", "WrongPhaseError",
           "next_seat", "shuffle_deal"]
