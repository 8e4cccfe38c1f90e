"""The deal as an immutable state machine (:class:`GameState`) and its mutable holder for front
ends (:class:`Game`). The transitions live in :mod:`.bidding`, :mod:`.play` and
:mod:`.scoring`; dealing in :mod:`.dealing`; what a seat sees in :mod:`.views`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..cards import EMPTY, Cards
from ..check import require_playable
from ..errors import GameError, InvalidBidError, OutOfTurnError, WrongPhaseError
from ..moves import legal_moves
from ..readings import Reading
from ..rules import BiddingSystem, Round, RoundStage, Rules
from ..wild import WildReading
from . import bidding, play, views
from .actions import Action
from .dealing import (
    Setup,
    Start,
    attempt_wild,
    check_seat,
    check_seed,
    draw_wild,
    explicit_deal,
    explicit_wild,
    shuffle_deal,
)
from .enums import ActionKind, Phase, Role
from .scoring import Factor, Result, multiplier_of


def accept_rules(rules: Rules) -> Rules:
    """The one place where a deal accepts its rules: ``rules`` if a deal can be played under
    them to the end with every move read one way, else :class:`UnplayableRulesError` (a
    GameError and a RulesError) saying why, from :func:`ddzspec.check.require_playable`:
    a rank no shape plays as a lone card (a leader could be stuck — seeds 000/002: the leader
    must play), ambiguous moves, or a shape no move can have."""
    require_playable(rules)
    return rules


@dataclass(frozen=True, slots=True)
class GameState:
    """One deal at one moment: an immutable value. Build with :meth:`new`; advance with
    :meth:`apply`, which returns the next state or raises a GameError subclass.

    ``start``: the options the deal was started with (what a record stores); ``setup``: the
    validated explicit deal, or None for a shuffled one. ``phase``: :class:`Phase`.
    ``attempt``: deal attempt (all-pass redeals add one). ``hands``: cards held per seat (the
    landlord's includes the talon once taken; dealt at the start, but no seat sees them
    while a round before the deal is on). ``shown``: the seats whose hands are shown
    (a show-cards round). ``round``: the round being played (:class:`~ddzspec.rules.Round`),
    or None; ``round_from``: the number of ``bids`` when it began (its choices follow).
    ``log``: every accepted action since the start, voided attempts included (what a record
    stores). ``wild``: the wild ranks of this attempt (rank indices, one per ``draw`` of the
    rules' wild section; empty without wild cards), drawn with the deal
    (:func:`~ddzspec.game.dealing.draw_wild`) and shown from the draw's stage on
    (:attr:`wild_shown`); ``last_wild``: the reading of the play to beat (:attr:`last`) with
    its wild cards, under wild rules.

    Two states are equal when every field is equal and their rules are the same rules: equal
    in every field but ``path`` and ``parents``, which say where the rules were read from, not
    what they are (:func:`same_rules`). So the state :func:`ddzspec.game.record.resume`
    rebuilds from a record, which carries its rules as text, equals the state saved, whatever
    file the rules were first read from.
    """

    rules: Rules
    start: Start
    setup: Setup | None
    attempt: int
    hands: tuple[Cards, ...]
    talon: Cards
    undealt: Cards
    first: int
    phase: Phase
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
    shown: tuple[int, ...] = ()
    round: Round | None = None
    round_from: int = 0
    result: Result | None = None
    log: tuple[Action, ...] = field(default=())
    wild: tuple[int, ...] = ()
    last_wild: WildReading | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self is other or (
            all(getattr(self, f) == getattr(other, f) for f in _STATE_FIELDS)
            and same_rules(self.rules, other.rules))

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, f) for f in _STATE_FIELDS))

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, rules: Rules, seed: int | str | None = None,
            hands: Sequence[Cards | str] | None = None, talon: Cards | str | None = None,
            first: int | None = None,
            wild: Sequence[int | str] | None = None) -> GameState:
        """A fresh deal in the bidding phase.

        Either ``seed`` (an int or a string: reproducible shuffle, see :func:`shuffle_deal`;
        default 0), with ``first`` forcing the first speaker (default: drawn by the shuffle),
        or explicit ``hands`` (one per seat, ``deal.hand`` cards each) and ``talon`` (the
        undealt rest is the deck minus both), with ``first`` the first speaker (default 0). An
        explicit deal voided by an all-pass auction is redealt from ``seed`` (default 0).
        ``wild``: under wild rules, the wild ranks an explicit deal states, one per ``draw``
        (:func:`~ddzspec.game.dealing.explicit_wild`; default: drawn from ``seed``, 0 if
        None); a shuffled deal draws its own, and every redeal draws again.
        Every option is kept in :attr:`start`, so a record starts the same deal again. Raises
        GameError when the rules cannot be played (:func:`accept_rules`), the cards do not
        make up the deck, cannot be read (naming the hand or the talon), the seed is neither
        an int nor a string, or ``wild`` is given to a shuffled deal or does not fit the
        rules' draws; BadSeatError for ``first``.
        """
        accept_rules(rules)
        seed = check_seed(seed)
        if hands is None:
            if talon is not None:
                raise GameError("a talon without hands")
            if wild is not None:
                raise GameError("wild ranks given to a shuffled deal: it draws its own (an "
                                "explicit deal, with hands and a talon, may state them)")
            s = 0 if seed is None else seed
            h, t, u, f = shuffle_deal(rules, s, 0, None)
            if first is not None:
                f = check_seat(rules, first)
            return cls.deal_state(rules, Start(s, first=first), None, 0, (h, t, u, f), ())
        setup = cls.explicit_setup(rules, hands, talon, first)
        # the first attempt's wild ranks are the deal's, stated or drawn (so that its record
        # states them and a resumed deal is equal to it)
        stated = explicit_wild(rules, wild) if wild is not None else \
            draw_wild(rules, seed, 0) if rules.wild is not None else None
        start = Start(seed, setup[0], setup[1], setup[3], stated)
        return cls.deal_state(rules, start, setup, 0, setup, ())

    @classmethod
    def explicit_setup(cls, rules: Rules, hands: Sequence[Cards | str],
                       talon: Cards | str | None, first: int | None) -> Setup:
        """Validate an explicit deal: (hands, talon, undealt, first); see
        :func:`~ddzspec.game.dealing.explicit_deal`. Raises GameError."""
        return explicit_deal(rules, hands, talon, first)

    @classmethod
    def deal_state(cls, rules: Rules, start: Start, setup: Setup | None, attempt: int,
                   dealt: Setup, log: tuple[Action, ...]) -> GameState:
        """The state at the start of deal attempt ``attempt`` with the cards ``dealt``
        (hands, talon, undealt, first speaker): bidding, the first speaker to act (or a round
        the rules play before the bidding: show cards before or after the deal)."""
        hands, talon, undealt, first = dealt
        n = rules.deal.players
        st = cls(rules=rules, start=start, setup=setup, attempt=attempt, hands=hands,
                 talon=talon, undealt=undealt, first=first, phase=Phase.BIDDING, turn=first,
                 played=(EMPTY,) * n, plays=(0,) * n, log=log,
                 wild=attempt_wild(rules, start, attempt))
        return bidding.start_rounds(st, RoundStage.BEFORE_DEAL) if rules.rounds else st

    # ------------------------------------------------------------------ queries

    @property
    def seed(self) -> int | str | None:
        """The shuffle seed (None only for an explicit deal started without one)."""
        return self.start.seed

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.deal.players

    @property
    def over(self) -> bool:
        """Whether the deal has ended (a seat reached its target)."""
        return self.phase is Phase.OVER

    def role(self, seat: int) -> Role | None:
        """:class:`Role` of ``seat`` (landlord or peasant), or None during the bidding."""
        if self.landlord is None:
            return None
        return Role.LANDLORD if seat == self.landlord else Role.PEASANT

    def target(self, seat: int) -> int:
        """Cards left at which ``seat`` wins (after its own move): the rules' target for its
        role; "robs" is the duel handicap, the number of robs (seed 003). Only after bidding."""
        t = self.rules.win.landlord if seat == self.landlord else self.rules.win.peasant
        return self.robs if t == "robs" else int(t)

    @property
    def dealt(self) -> bool:
        """Whether the hands are dealt (seen by their seats): False only while a round before
        the deal is on."""
        return self.round is None or self.round.stage is not RoundStage.BEFORE_DEAL

    @property
    def wild_shown(self) -> tuple[int, ...]:
        """The wild ranks every seat sees now: those whose draw's stage is reached (``after
        deal``: once the hands are dealt; ``after landlord``: once the landlord is known;
        ``after talon``: once play begins)."""
        if self.rules.wild is None:
            return ()
        reached = {RoundStage.BEFORE_DEAL: True, RoundStage.DEAL: self.dealt,
                   RoundStage.LANDLORD: self.landlord is not None,
                   RoundStage.TALON: self.phase in (Phase.PLAY, Phase.OVER)}
        return tuple(r for d, r in zip(self.rules.wild.draws, self.wild) if reached[d.stage])

    @property
    def multiplier(self) -> int:
        """The table's multiplier so far: the product of the factors that count (a pair's
        own factors and those beyond ``cap bombs`` do not), at most ``cap multiplier``."""
        return multiplier_of(self.factors, self.rules.scoring.cap_multiplier)

    def pair_multiplier(self, seat: int) -> int:
        """The multiplier the peasant ``seat`` settles at so far: the table's factors times
        those of its own pair (:attr:`~ddzspec.game.scoring.Factor.pair`: its own doubling),
        at most ``cap multiplier``; the table's for the landlord's seat."""
        return multiplier_of(self.factors, self.rules.scoring.cap_multiplier, pair=seat)

    def legal_actions(self) -> list[Action]:
        """Every action the seat on turn may take now (empty once the deal is over):
        bids (pass first), call/rob yes/no, a doubling round's choices (as written), or every
        legal play (hint order) then pass."""
        if self.phase is Phase.OVER or self.turn is None:
            return []
        s = self.turn
        if self.phase is Phase.BIDDING:
            b = self.rules.bidding
            if b.system is BiddingSystem.AUCTION:
                return [Action.bid(s, 0)] + [Action.bid(s, v) for v in b.bids if v > self.high]
            kind = ActionKind.ROB if self.called else ActionKind.CALL
            return [Action(kind, s, 1), Action(kind, s, 0)]
        rnd = bidding.current_round(self)
        if rnd is not None:
            kind = bidding.ROUND_ACTION[rnd.kind]
            return [Action(kind, s, c.times) for c in rnd.choices_of(s == self.landlord)]
        if self.wild:
            return play.wild_actions(self) + ([Action.pass_(s)] if self.last else [])
        prev = None if self.last is None else self.last[1]
        lm = legal_moves(self.hands[s], prev, self.rules)
        out = [Action(ActionKind.PLAY, s, 0, r.cards) for r in lm.moves]
        if lm.can_pass:
            out.append(Action.pass_(s))
        return out

    def unseen(self, seat: int) -> Cards:
        """Per rank, the cards ``seat`` has not seen (seed 003's *Counter*; see
        :func:`~ddzspec.game.views.unseen`). Raises BadSeatError."""
        return views.unseen(self, check_seat(self.rules, seat))

    def warnings(self) -> tuple[tuple[int, str], ...]:
        """Seats with one or two cards left during play (seed 004; see
        :func:`~ddzspec.game.views.warnings`)."""
        return views.warnings(self)

    def view(self, seat: int) -> views.SeatView:
        """What ``seat`` may see (:class:`SeatView`). Raises BadSeatError."""
        return views.view(self, check_seat(self.rules, seat))

    # ------------------------------------------------------------------ transitions

    def expected_kinds(self) -> tuple[ActionKind, ...]:
        """The kinds of action the current phase takes (none once the deal is over)."""
        if self.phase is Phase.BIDDING:
            if self.rules.bidding.system is BiddingSystem.AUCTION:
                return (ActionKind.BID,)
            return (ActionKind.ROB,) if self.called else (ActionKind.CALL,)
        rnd = bidding.current_round(self)
        if rnd is not None:
            return (bidding.ROUND_ACTION[rnd.kind],)
        if self.phase is Phase.PLAY:
            return (ActionKind.PLAY, ActionKind.PASS)
        return ()

    def apply(self, action: Action) -> GameState:
        """The state after ``action``. Raises (and changes nothing — this state is immutable):
        WrongPhaseError, OutOfTurnError, BadSeatError, InvalidBidError, CardsNotHeldError,
        NotAMoveError, DoesNotBeatError, LeaderMayNotPassError (all GameError)."""
        if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
            raise GameError(f"not an action: {action!r}")
        check_seat(self.rules, action.seat)
        if self.phase is Phase.OVER:
            raise WrongPhaseError("the deal is over")
        want = self.expected_kinds()
        if action.kind not in want:
            raise WrongPhaseError(f"{action.kind} is not possible now: the deal is in its "
                                  f"{self.phase} phase (expected {' or '.join(want)})")
        if action.seat != self.turn:
            raise OutOfTurnError(f"it is seat {self.turn}'s turn, not seat {action.seat}'s")
        is_play = action.kind is ActionKind.PLAY
        if (action.cards is not None) != is_play or \
                (action.kind in (ActionKind.PLAY, ActionKind.PASS) and action.value != 0):
            raise GameError(f"malformed action: {action!r}")
        if action.kind in (ActionKind.CALL, ActionKind.ROB) and action.value not in (0, 1):
            raise InvalidBidError(f"{action.kind}: value 1 (yes) or 0 (no), got {action.value}")
        log = self.log + (action,)
        return _TRANSITIONS[action.kind](self, action, log)


#: The fields compared as they are by ``GameState.__eq__`` (the rules by :func:`same_rules`).
_STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(GameState) if f.name != "rules")


def same_rules(a: Rules, b: Rules) -> bool:
    """Whether ``a`` and ``b`` are the same rules: equal in every field but ``path`` and
    ``parents`` (the file they were read from and the files it extends), so a deal plays the
    same under both and a record of it carries the same rules."""
    return a is b or replace(a, path=b.path, parents=b.parents) == b


_TRANSITIONS = {ActionKind.BID: bidding.bid, ActionKind.CALL: bidding.call,
                ActionKind.ROB: bidding.rob, ActionKind.DOUBLE: bidding.round_choice,
                ActionKind.SHOW: bidding.round_choice,
                ActionKind.BLIND: bidding.round_choice,
                ActionKind.PLAY: play.play_cards,
                ActionKind.PASS: play.pass_turn}


class Game:
    """A mutable holder of a :class:`GameState` for front ends and players: :meth:`act`
    replaces the state only when the action is accepted (else the GameError propagates and
    nothing changes)."""

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


__all__ = ["Game", "GameState", "accept_rules", "same_rules"]
