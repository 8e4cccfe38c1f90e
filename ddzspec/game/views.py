"""What a front end shows one seat: :class:`SeatView`, the unseen-card counter (seed 003's
*Counter*) and the one/two-cards-left warnings (seed 004).

Entry points: :func:`view` (``GameState.view(seat)`` calls it; the computer players decide from
its result only), :func:`unseen` and :func:`warnings`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import ALL_RANKS, EMPTY, N_RANKS, SYMBOLS, Cards
from ..readings import Reading
from ..rules import Round, Rules
from ..wild import WildMove, WildReading
from ..wildmoves import split_hand
from .actions import Action
from .bidding import talon_taken
from .enums import ActionKind, Phase, Role
from .scoring import Factor, PairStake, Result, pair_stakes

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True, slots=True)
class SeatView:
    """What a front end shows one seat (seeds 003/004): its own ``hand``, the public state and
    the helpers — ``unseen`` (per rank, cards this seat has not seen: duel includes the 9 undealt
    cards, never revealed), ``targets`` (cards left at which each seat wins: the duel handicap
    display), ``warnings`` (seat → "one card left" / "two cards left") and ``shown`` (the
    hands shown in a show-cards round, public to every seat). ``multiplier``: the table's;
    ``stakes``: the multiplier of each settlement this seat takes part in (a peasant's own
    with the landlord, the landlord's with each peasant), itemised by :meth:`factors_of`.
    While a round before the deal is on (``round``), no hand is seen yet: ``hand`` is empty,
    ``cards_left`` zeros, every card unseen."""

    seat: int
    role: Role | None
    hand: Cards
    phase: Phase
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
    #: the hands shown in a show-cards round (明牌): (seat, the cards it holds now), public
    shown: tuple[tuple[int, Cards], ...] = ()
    #: the round being played (show cards, blind landlord, doubling), or None
    round: Round | None = None
    #: the settlements this seat takes part in, at their multipliers so far (:func:`seat_stakes`)
    stakes: tuple[PairStake, ...] = ()
    #: the wild ranks drawn and shown so far (rank indices; laizi: one, after the deal)
    wild: tuple[int, ...] = ()
    #: the reading of the play to beat with its wild cards (wild rules), or None
    last_wild: WildReading | None = None

    def trick_plays(self, notation: str = "en") -> tuple[str | None, ...]:
        """Each entry of :attr:`trick` as shown (None for a pass): the cards its reading makes
        (``3334``); under wild rules the cards as held, each wild card a ``*``, and, when it
        holds wild cards, ``as`` and the cards its reading makes (``33** as 3333``: two 3s
        and two wild cards played as the soft bomb 3333) — the same under either reading
        policy. The trick's plays are the last entries of :attr:`history`."""
        if not self.wild:
            return tuple(None if r is None else r.format(notation) for _, r in self.trick)
        acts = self.history[len(self.history) - len(self.trick):] if self.trick else ()
        out: list[str | None] = []
        for a, (_, r) in zip(acts, self.trick):
            if r is None or a.cards is None:
                out.append(None)
                continue
            move = WildMove(*split_hand(a.cards, self.wild[0]), self.wild[0])
            out.append(move.format(notation) + (f" as {r.format(notation)}" if move.wilds
                                                else ""))
        return tuple(out)

    def factors_of(self, stake: PairStake) -> tuple[Factor, ...]:
        """The factors of one of :attr:`stakes`: the table's and that peasant's own (a factor
        beyond ``cap bombs`` included, marked ``cut``)."""
        return tuple(f for f in self.factors if f.applies_to(stake.seat))

    def to_json(self, notation: str = "en") -> dict[str, Any]:
        """The view as JSON-ready data (cards in ``notation``; under wild rules each play of
        the trick has ``shown``, :meth:`trick_plays`)."""
        return {
            "seat": self.seat, "role": None if self.role is None else self.role.value,
            "hand": self.hand.format(notation),
            "phase": self.phase.value, "turn": self.turn, "cards_left": list(self.cards_left),
            "landlord": self.landlord,
            "talon": None if self.talon is None else self.talon.format(notation),
            "bids": [a.to_json() for a in self.bids], "robs": self.robs,
            "candidate": self.candidate,
            "trick": [{"seat": s, "play": None if r is None else r.format(notation),
                       **({"shown": w} if self.wild and w is not None else {})}
                      for (s, r), w in zip(self.trick, self.trick_plays(notation))],
            "base": self.base, "multiplier": self.multiplier,
            "factors": [f.to_json(notation) for f in self.factors],
            "targets": None if self.targets is None else list(self.targets),
            "unseen": {sym: n for sym, n in zip(SYMBOLS[notation], self.unseen.counts) if n},
            "warnings": {str(s): w for s, w in self.warnings},
            "result": None if self.result is None else self.result.to_json(notation),
            **({"shown": {str(seat): h.format(notation) for seat, h in self.shown}}
               if self.shown else {}),
            **({"round": {"kind": self.round.kind.value, "stage": self.round.stage.clause}}
               if self.round is not None else {}),
            **({"stakes": [{**p.to_json(), "factors": [f.to_json(notation)
                                                       for f in self.factors_of(p)]}
                           for p in self.stakes]} if self.stakes else {}),
            **({"wild": [ALL_RANKS[i].symbol(notation) for i in self.wild]}
               if self.wild else {}),
            **({"last_reading": self.last_wild.describe(notation)}
               if self.last_wild is not None else {}),
        }


def unseen(state: GameState, seat: int) -> Cards:
    """Per rank, the cards ``seat`` has not seen (the seed 003 *Counter*): the deck minus its
    own cards (held and played), every card played, the hands shown (a show-cards round), and
    the talon once revealed — a talon card the landlord may since have played is counted once
    (suits never matter, so a played rank the talon showed may be that very card). In duel it
    includes the 9 undealt cards, which are never revealed (seed 003); before the deal (a
    round before it is on), every card. ``seat`` must be valid (the caller checks it)."""
    if not state.dealt:
        return Cards(state.rules.deck)
    seen = [a + b for a, b in zip(state.hands[seat].counts, state.played[seat].counts)]
    for s in range(state.players):
        if s == seat:
            continue
        p = state.played[s].counts
        if s in state.shown:  # every card it held: the talon's too, once taken
            h = state.hands[s].counts
            for i in range(N_RANKS):
                seen[i] += p[i] + h[i]
        elif talon_taken(state) and s == state.landlord:
            t = state.talon.counts
            for i in range(N_RANKS):
                seen[i] += max(p[i], t[i])
        else:
            for i in range(N_RANKS):
                seen[i] += p[i]
    return Cards(tuple(max(0, d - x) for d, x in zip(state.rules.deck, seen)))


def warnings(state: GameState) -> tuple[tuple[int, str], ...]:
    """Seats with one or two cards left during play: (seat, "one card left" | "two cards
    left") — seed 004's « Plus qu'une carte ! » / « Plus que 2 cartes ! »."""
    if state.phase is not Phase.PLAY:
        return ()
    out = []
    for s, h in enumerate(state.hands):
        if len(h) == 1:
            out.append((s, "one card left"))
        elif len(h) == 2:
            out.append((s, "two cards left"))
    return tuple(out)


def seat_stakes(state: GameState, seat: int) -> tuple[PairStake, ...]:
    """The settlements ``seat`` takes part in, at the multipliers so far (capped; the product
    before the cap when it cut): a peasant's own with the landlord, the landlord's with each
    peasant in seat order; none before there is a landlord or while no factor belongs to one
    pair (every settlement is then at the table's multiplier, as :attr:`Result.pairs`). Under
    ``scope pair`` a peasant's differs from the table's multiplier (its own doubling), so
    this, not the table's, is what a seat's settlement is shown at (the web table, the
    terminal seat)."""
    ll = state.landlord
    if ll is None or all(f.pair is None for f in state.factors):
        return ()
    stakes = pair_stakes(state.factors, ll, state.players, state.rules.scoring.cap_multiplier)
    return stakes if seat == ll else tuple(p for p in stakes if p.seat == seat)


def view(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may see (``seat`` must be valid: the caller checks it)."""
    shown = talon_taken(state)
    dealt = state.dealt
    return SeatView(
        seat=seat, role=state.role(seat), hand=state.hands[seat] if dealt else EMPTY,
        phase=state.phase, turn=state.turn,
        cards_left=tuple(len(h) if dealt else 0 for h in state.hands),
        landlord=state.landlord, talon=state.talon if shown else None, bids=state.bids,
        robs=state.robs, candidate=state.candidate, trick=state.trick, last=state.last,
        base=state.base, multiplier=state.multiplier, factors=state.factors,
        targets=tuple(state.target(s) for s in range(state.players)) if shown else None,
        unseen=unseen(state, seat), warnings=warnings(state), result=state.result,
        rules=state.rules,
        history=tuple(a for a in state.log if a.kind in (ActionKind.PLAY, ActionKind.PASS)),
        shown=tuple((s, state.hands[s]) for s in state.shown) if dealt else (),
        round=state.round, stakes=seat_stakes(state, seat), wild=state.wild_shown,
        last_wild=state.last_wild)


__all__ = ["SeatView", "seat_stakes", "unseen", "view", "warnings"]
