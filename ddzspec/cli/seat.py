"""The terminal seat of ``ddzspec play --seat N``: a person at one seat, at a terminal prompt
(:class:`TerminalSeat`, started by :func:`terminal_seat`), the other seats computer players,
the record autosaved after every action."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import click

from ..cards import ALL_RANKS, parse_cards
from ..rules import Rules
from ..rules.model import ReadingPolicy
from ..wild import (
    NO_READING,
    WILD_MARK,
    WildMove,
    explain_wild,
    parse_declared,
    parse_wild,
    require_wild,
)
from .common import check_output, fail
from .exits import ExitCode

if TYPE_CHECKING:
    from ..cards import Cards
    from ..game import Action, GameState
    from ..game.scoring import Factor, PairStake
    from ..players import Player

#: What the terminal seat accepts besides cards, with what each does (``help``). At a round's
#: prompt the round's choices come first (a rules file may name a choice ``counter`` or
#: ``quit``); ``:NAME`` is always the command (``:counter``, ``:quit``).
SEAT_COMMANDS = {
    "hint": "show a legal move, smallest first; type hint again for the next one",
    "pass": "pass (not when you lead a trick)",
    "counter": "the cards you have not seen, per rank",
    "help": "this list",
    "quit": "stop; the deal stays saved and can be resumed",
}


class SeatQuit(Exception):
    """The person at the terminal seat typed ``quit`` (or closed the input)."""


def default_save_path(rules: Rules) -> Path:
    """Where the terminal seat autosaves when no ``--save`` is given: ``games/`` in the user
    data folder (platformdirs: ``$XDG_DATA_HOME/ddzspec`` on Linux), one file per deal,
    named by the rules and the time it started, with a ``-2``, ``-3`` … suffix when that name
    is taken (a :class:`pathlib.Path`)."""
    from platformdirs import user_data_dir
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = Path(user_data_dir("ddzspec")) / "games"
    path, n = folder / f"{rules.name}-{stamp}.json", 2
    while path.exists():  # two deals started in the same second: never the other's file
        path, n = folder / f"{rules.name}-{stamp}-{n}.json", n + 1
    return path


def _factors_words(factors: tuple[Factor, ...]) -> str:
    """``double x2, super x4 seat 2 only, bomb 3333 x2``: the factors itemised, each with
    its factor (a transcript's ``×2 show`` reads ``show x2`` here)."""
    return ", ".join(f.kind.replace("_", "-") + (f" {f.cards}" if f.cards else "")
                     + f" x{f.times}"
                     + (" not counted" if f.cut else "")
                     + ("" if f.pair is None else f" seat {f.pair} only") for f in factors)


def _grouped(cards: Cards, notation: str, wild: tuple[int, ...] = ()) -> str:
    """Cards grouped by rank, low to high: ``33 4 555 B`` (``-`` for none); each card of a
    ``wild`` rank (rank indices) marked, one by one: ``33 4 7* 7* B``.

    >>> from ddzspec.cards import Cards
    >>> _grouped(Cards.parse("33477B"), "en", wild=(4,))
    '33 4 7* 7* B'
    """
    def group(i: int, n: int) -> str:
        sym = ALL_RANKS[i].symbol(notation)
        if i in wild:
            return " ".join([sym + WILD_MARK] * n)
        return sym * n if len(sym) == 1 else " ".join([sym] * n)
    return " ".join(group(i, n) for i, n in enumerate(cards.counts) if n) or "-"


def _wild_words(state: GameState, notation: str) -> str | None:
    """``wild rank: 7 (laizi)``: the wild ranks every seat sees now, each with its draw's
    name (issue 26); None when none is shown."""
    w = state.rules.wild
    shown = state.wild_shown
    if w is None or not shown:
        return None
    ranks = [f"{ALL_RANKS[r].symbol(notation)} ({d.name})"
             for d, r in zip(w.draws, state.wild) if r in shown]
    return f"wild rank{'s' if len(ranks) > 1 else ''}: " + ", ".join(ranks)


class TerminalSeat:
    """One person at seat ``seat`` of a deal, in the terminal (``play --seat N``);
    the other seats are computer ``players``. Every action goes through
    :meth:`GameState.apply`; a refused one changes nothing. The record is saved atomically to
    ``path`` after every action (:func:`ddzspec.game.record.save`). ``ask`` reads one line
    (``input``: raises EOFError at the end of input), ``say`` prints one."""

    def __init__(self, state: GameState, seat: int, players: list[Player], path: str | Path,
                 notation: str, ask: Callable[[str], str] = input,
                 say: Callable[[str], None] = click.echo,
                 levels: tuple[int, ...] | None = None) -> None:
        self.state = state
        self.seat = seat
        self.levels = levels  # saved in the record's "terminal" field with the seat
        self.players = players
        self.path = path
        self.notation = notation
        self.ask = ask
        self.say = say
        self._hints: tuple[GameState, list[Action]] | None = None
        self._hint_at = 0

    # ------------------------------------------------------------------ state changes

    def apply(self, action: Action) -> None:
        """Apply ``action`` (GameError: nothing changes), save the record, report it."""
        from ..game.record import save
        before = self.state
        self.state = self.state.apply(action)
        save(self.state, self.path, seat=self.seat, levels=self.levels)
        self.say(self._action_line(action, before))

    def _action_line(self, action: Action, before: GameState) -> str:
        from ..game import ActionKind
        from ..game.actions import ROUND_KINDS
        from ..game.bidding import talon_taken
        st = self.state
        who = "you" if action.seat == self.seat else f"seat {action.seat}"
        if action.kind is ActionKind.PLAY:
            r = st.last[1] if st.last is not None and st.last[0] == action.seat else None
            if r is None:  # the deal ended on this play
                r = next(x for s, x in reversed(st.trick) if s == action.seat)
            left = len(st.hands[action.seat])
            warn = {1: " — one card left!", 2: " — two cards left!"}.get(left, "")
            assert r is not None
            said = f"{who}: {r.describe(self.notation)}"
            if before.wild:  # the play as held, with the reading its wild cards make
                said = f"{who} play{'' if who == 'you' else 's'} {self._wild_play(action, before)}"
            line = f"{said} ({left} left){warn}"
        elif action.kind is ActionKind.PASS:
            line = f"{who}: pass" + ("; the trick is over" if st.last is None else "")
        elif action.kind is ActionKind.BID:
            line = f"{who}: " + ("pass" if action.value == 0 else f"bid {action.value}")
        elif action.kind in ROUND_KINDS:
            name = self._choice_names(before, action.seat).get(action.value, "?")
            line = f"{who}: {name} (x{action.value}; {self._multiplier_words()})"
            if action.seat in st.shown and action.seat not in before.shown and st.dealt:
                verb = "show" if action.seat == self.seat else "shows"
                line += f"\n{who} {verb}: {_grouped(st.hands[action.seat], self.notation)}"
            if st.dealt and not before.dealt:  # a hand shown before the deal: face up now
                line += "\nthe hands are dealt" + "".join(
                    f"\n{'you show' if s == self.seat else f'seat {s} shows'}: "
                    f"{_grouped(st.hands[s], self.notation)}"
                    for s in st.shown if s in before.shown)
        else:
            word = action.kind.value
            line = f"{who}: {word if action.value else 'no ' + word}"
            if action.kind is ActionKind.ROB and action.value:
                line += f" (multiplier x{st.multiplier})"
        if st.attempt != before.attempt:
            line += "\nall passed: the deal is void and redealt"
        wild = _wild_words(st, self.notation)
        if wild is not None and st.wild_shown != before.wild_shown:
            line += "\n" + wild
        talon = (f"the talon {_grouped(st.talon, self.notation)} is shown and taken"
                 if len(st.talon) else "there is no talon")
        if st.landlord is not None and before.landlord is None:
            role = "you are" if st.landlord == self.seat else f"seat {st.landlord} is"
            line += (f"\n{role} the landlord (base {st.base}); "
                     + (talon if talon_taken(st) else "the talon stays face down for now"))
            targets = [st.target(s) for s in range(st.players)]
            if any(targets):
                line += "\n" + self._targets_line()
        elif talon_taken(st) and not talon_taken(before):
            line += "\n" + talon
        return line

    def _wild_play(self, action: Action, before: GameState) -> str:
        """``33** : bomb 3333 (soft; wild cards as 33)``: a play under wild rules as held
        (each wild card a ``*``) and the reading the game gave it in ``before``, the state it
        was played in (:func:`ddzspec.game.play.wild_reading`, the file's policy)."""
        from ..game.play import wild_reading
        from ..wildmoves import split_hand
        assert action.cards is not None
        move = WildMove(*split_hand(action.cards, before.wild[0]), before.wild[0])
        r = wild_reading(before, action.seat, action.cards, action.declared)
        return f"{move.format(self.notation)} : {r.describe(self.notation)}"

    # ------------------------------------------------------------------ display

    def _targets_line(self) -> str:
        st = self.state
        parts = []
        for s in range(st.players):
            t = st.target(s)
            parts.append(f"{'you' if s == self.seat else f'seat {s}'} at {t} card"
                         f"{'' if t == 1 else 's'} left")
        return "wins: " + ", ".join(parts) + (" (the duel handicap)"
                                              if st.rules.win.peasant == "robs" else "")

    def status(self) -> list[str]:
        """The lines shown before each of the person's turns: hand, cards left per seat with
        the one-card/two-card warnings, the talon once shown, the trick so far, the
        multiplier with its factors, the targets when a seat wins before emptying its hand."""
        v = self.state.view(self.seat)
        n = self.notation
        warn = dict(v.warnings)
        seats = []
        for s, left in enumerate(v.cards_left):
            name = "you" if s == self.seat else f"seat {s}"
            if v.landlord == s:
                name += " (landlord)"
            seats.append(f"{name} {left}" + (f" — {warn[s]}!" if s in warn else ""))
        if not self.state.dealt:
            return ["", "your hand: not dealt yet (you decide without seeing it)"]
        lines = [""]
        wild = _wild_words(self.state, n)
        if wild is not None:
            lines.append(f"{wild}: its cards are wild, marked {WILD_MARK} (type them as held "
                         f"or as {WILD_MARK})")
        lines += [f"your hand ({len(v.hand)}): {_grouped(v.hand, n, v.wild)}",
                  "cards left: " + ", ".join(seats)]
        if v.talon is not None and len(v.talon):
            lines.append(f"talon: {_grouped(v.talon, n)}")
        for s, h in v.shown:
            if s != self.seat:
                lines.append(f"seat {s} shows: {_grouped(h, n)}")
        if v.phase.value == "play":
            shown = v.trick_plays(n) if v.wild else (None,) * len(v.trick)
            trick = [f"{'you' if s == self.seat else f'seat {s}'} "
                     + ("pass" if r is None else w or r.describe(n))
                     for (s, r), w in zip(v.trick, shown)]
            lines.append("trick: " + ("; ".join(trick) if trick else "you lead"))
            if v.last_wild is not None:
                lines.append(f"to beat: {v.last_wild.describe(n)}")
        if v.phase.value in ("doubling", "play"):
            if v.stakes:  # some factor is one pair's: each settlement of this seat, itemised
                for p in v.stakes:
                    factors = _factors_words(v.factors_of(p))
                    lines.append(self._stake_words(p) + (f" ({factors})" if factors else "")
                                 + f"; base {v.base}")
            else:
                factors = _factors_words(v.factors)
                lines.append(f"multiplier: x{v.multiplier}"
                             + (f" ({factors})" if factors else "") + f"; base {v.base}")
            if v.targets is not None and any(v.targets):
                lines.append(self._targets_line())
        return lines

    def _stake_words(self, p: PairStake) -> str:
        """``your settlement with the landlord: x8`` (a peasant's), ``settlement with seat 2:
        x8`` (the landlord's), with the product the cap cut."""
        who = ("your settlement with the landlord" if p.seat == self.seat
               else f"settlement with seat {p.seat}")
        cut = "" if p.uncapped is None else f" (x{p.uncapped} capped)"
        return f"{who}: x{p.multiplier}{cut}"

    def _multiplier_words(self) -> str:
        """The multiplier this seat settles at now: its settlements' (:func:`seat_stakes`,
        when some factor is one pair's), else the table's."""
        v = self.state.view(self.seat)
        if not v.stakes:
            return f"multiplier x{v.multiplier}"
        return "; ".join(self._stake_words(p) for p in v.stakes)

    def counter(self) -> str:
        """The unseen cards per rank (seed 003's counter): ``unseen (20): 3x4 4x3 …``; in
        duel it counts the undealt cards, never shown."""
        u = self.state.unseen(self.seat)
        parts = [f"{ALL_RANKS[i].symbol(self.notation)}x{c}" for i, c in enumerate(u.counts) if c]
        line = f"unseen ({len(u)}): " + (" ".join(parts) or "none")
        if len(self.state.undealt):
            line += f" (with the {len(self.state.undealt)} undealt cards, never shown)"
        return line

    # ------------------------------------------------------------------ the person's turn

    def _read(self, prompt: str) -> str:
        try:
            text: str = self.ask(prompt)
        except EOFError:
            raise SeatQuit from None
        return text.strip()

    def _common(self, word: str, choices: dict[int, str] | None = None) -> bool:
        """Handle help, counter and quit, also written ``:help``, ``:counter``, ``:quit``;
        True when ``word`` was one of them. ``choices``: a round's choices (factor -> name),
        listed by ``help`` before the commands."""
        word = word.removeprefix(":")
        if word in ("help", "?"):
            if choices:
                self.say("this round's choices (type the name, or the factor: 2 or x2):")
                for times, name in sorted(choices.items()):
                    self.say(f"  {name:<8} x{times}")
                self.say("or a command (type :NAME when a choice has the same name):")
            else:
                wild = f"; a wild card as held or as {WILD_MARK}" if self.state.wild else ""
                if self.state.wild and \
                        require_wild(self.state.rules).policy is ReadingPolicy.DECLARED:
                    wild += f"; 333{WILD_MARK}=3333 states the reading"
                self.say(f"type cards in your notation to play them (e.g. 333+4{wild}), or a "
                         "command (also :NAME):")
            for k, v in SEAT_COMMANDS.items():
                self.say(f"  {k:<8} {v}")
            return True
        if word == "counter":
            self.say(self.counter())
            return True
        if word == "quit":
            raise SeatQuit
        return False

    @staticmethod
    def _choice_names(state: GameState, seat: int) -> dict[int, str]:
        """The current round's choices for ``seat``: factor -> name (``{1: "no", 2:
        "double"}``); empty outside a round."""
        from ..game.bidding import current_round
        rnd = current_round(state)
        if rnd is None:
            return {}
        return {c.times: c.name for c in rnd.choices_of(seat == state.landlord)}

    @staticmethod
    def _round_choice(word: str, names: dict[int, str], legal: list[Action]) -> int | None:
        """The factor a word at a round's prompt chooses: a choice's name (``counter``), else
        a legal choice's factor (``2`` or ``x2``); None for neither (``:NAME`` is never a
        choice: it is the command)."""
        times = next((t for t, name in names.items() if name == word), None)
        digits = word.removeprefix("x")
        if times is None and digits.isdigit() and len(digits) < 6:
            times = next((a.value for a in legal if a.value == int(digits)), None)
        return times

    def bid_turn(self) -> None:
        """One bidding turn of the person (a bid, call or rob, or a round's choice, typed by
        its name or its factor): only the legal choices are offered. At a round's prompt its
        choices come before the commands (``:NAME`` is always the command)."""
        from ..errors import GameError
        from ..game import Action, ActionKind
        from ..game.actions import ROUND_KINDS
        legal = self.state.legal_actions()
        kind = legal[0].kind
        names = self._choice_names(self.state, self.seat)
        if kind is ActionKind.BID:
            choices = ["pass" if a.value == 0 else str(a.value) for a in legal]
        elif kind in ROUND_KINDS:
            choices = [names[a.value] for a in legal]
        else:
            choices = [kind.value, "no"]
        for line in self.status():
            self.say(line)
        while True:
            word = self._read(f"seat {self.seat} {kind.value} [{'/'.join(choices)}]> ").lower()
            if kind is ActionKind.BID:
                value = 0 if word == "pass" else \
                    int(word) if word.isdigit() and len(word) < 6 else None
                action = None if value is None else Action.bid(self.seat, value)
            elif kind in ROUND_KINDS:
                times = self._round_choice(word, names, legal)
                action = None if times is None else Action(kind, self.seat, times)
            else:
                yes = {kind.value: 1, "yes": 1, "y": 1, "no": 0, "n": 0, "pass": 0}.get(word)
                action = None if yes is None else Action(kind, self.seat, yes)
            if action is None and self._common(word, names if kind in ROUND_KINDS else None):
                continue
            if action is None:
                self.say(f"not a choice: {word!r}; type one of {', '.join(choices)}")
                continue
            try:
                self.apply(action)
                return
            except GameError as e:
                self.say(f"refused: {e.text(self.notation)}")

    def play_turn(self) -> None:
        """One trick turn of the person: cards, hint, pass, counter, help or quit. A refused
        move is explained (the ``explain`` text for a move that is no legal move) and the
        prompt repeats; the deal is unchanged."""
        from ..errors import DdzError, GameError, NotAMoveError
        from ..explain import explain
        from ..game import Action, ActionKind
        for line in self.status():
            self.say(line)
        while True:
            text = self._read(f"seat {self.seat}> ")
            word = text.lower()
            if not text:
                continue
            if self._common(word):
                continue
            if word in ("hint", ":hint"):
                self.say(self.hint())
                continue
            if word in ("pass", ":pass"):
                action = Action.pass_(self.seat)
            else:
                try:
                    cards, declared = self._parse_play(text)
                except DdzError as e:
                    self.say(f"not cards: {e}")
                    self.say("(type help for the commands)")
                    continue
                if declared is None:
                    picked = self._which_reading(cards)
                    if picked is False:
                        continue
                    declared = picked
                action = Action(ActionKind.PLAY, self.seat, 0, cards, declared)
            try:
                self.apply(action)
                return
            except NotAMoveError as e:
                assert action.cards is not None
                if self.state.wild:  # why no reading: each one's restrictions
                    self.say(f"refused: {e.text(self.notation)}")
                    for line in self._wild_explanation(action.cards):
                        if line != f"no reading: {NO_READING}":  # the refusal said it
                            self.say(line)
                    continue
                lines = explain(action.cards, self.state.rules, self.notation).lines
                self.say(f"refused: {action.cards.format(self.notation)} is not a legal move.")
                for line in lines[1:]:
                    self.say(line)
            except GameError as e:
                self.say(f"refused: {e.text(self.notation)}")

    def _parse_play(self, text: str) -> tuple[Cards, Cards | None]:
        """The cards ``text`` plays, as held, and the reading it states (None when none):
        under wild rules a wild card typed as its rank or as ``*``
        (:func:`ddzspec.wild.parse_wild`), and a reading stated as ``333*=3333``
        (:func:`ddzspec.wild.parse_declared`: the cards, ``=``, what they make). Raises
        NotationError."""
        st = self.state
        if st.wild and "=" in text:
            r = parse_declared(text, st.wild[0], st.rules, self.notation)
            left = text.partition("=")[0]
            return parse_wild(left, st.wild[0], st.rules, self.notation).cards, r.reading.cards
        if st.wild:
            return parse_wild(text, st.wild[0], st.rules, self.notation).cards, None
        return parse_cards(text, self.notation, deck=st.rules.deck).cards, None

    def _which_reading(self, cards: Cards) -> Cards | Literal[False] | None:
        """Under ``reading declared``, when ``cards`` (held) may be played as several readings
        now (:func:`ddzspec.game.play.wild_choices`), the one the person picks: asked "which
        reading?" with the readings numbered in words; a number, or the play typed with its
        reading (``333*=3333``). None when there is nothing to ask (natural rules, the
        ``strongest`` policy, one reading or none: the game says why), False when the person
        typed nothing (back to the prompt)."""
        from ..errors import DdzError
        from ..game.play import wild_choices
        from ..wildmoves import split_hand
        st = self.state
        if not st.wild or require_wild(st.rules).policy is not ReadingPolicy.DECLARED \
                or not cards <= st.hands[self.seat]:
            return None
        choices = wild_choices(st, self.seat, cards)
        if len(choices) < 2:
            return None
        n = self.notation
        rank = st.wild[0]
        move = WildMove(*split_hand(cards, rank), rank)
        self.say(f"{move.format(n)} has {len(choices)} readings here; which reading?")
        for i, r in enumerate(choices, 1):
            self.say(f"  {i}: {r.describe(n)}")
        example = f"{move.format(n)}={choices[0].reading.cards.format(n)}"
        while True:
            text = self._read(f"which reading? [1-{len(choices)}, or {example}; "
                              "empty: back]> ")
            if not text:
                return False
            if text.isdigit() and 1 <= int(text) <= len(choices) and len(text) < 6:
                return choices[int(text) - 1].reading.cards
            if "=" not in text:
                self.say(f"not a reading: type a number 1 to {len(choices)}, or {example}")
                continue
            try:
                typed, declared = self._parse_play(text)
            except DdzError as e:
                self.say(f"not a reading: {e}")
                continue
            if typed != cards:
                self.say(f"not a reading of {move.format(n)}: type a number 1 to "
                         f"{len(choices)}, or {example}")
                continue
            return declared

    def _wild_explanation(self, cards: Cards) -> list[str]:
        """Every reading of ``cards`` (held) under wild rules, with what rules it out
        (:func:`ddzspec.wild.explain_wild`), after its head line."""
        from ..wildmoves import split_hand
        rank = self.state.wild[0]
        move = WildMove(*split_hand(cards, rank), rank)
        return explain_wild(move, self.state.rules).lines(self.state.rules, self.notation)[1:]

    def hint(self) -> str:
        """The next legal move, smallest first, cycling (``hint 2/7: 44 (pair)``); pass is
        the last hint when it is allowed. Under ``reading declared`` one hint per (play,
        reading), written as typed: ``hint 2/1902: 3*=33 : pair 33 (wild cards as 3)``."""
        from ..game import ActionKind
        if self._hints is None or self._hints[0] is not self.state:
            self._hints = (self.state, self.state.legal_actions())
            self._hint_at = 0
        moves = self._hints[1]
        a = moves[self._hint_at % len(moves)]
        self._hint_at += 1
        where = f"hint {(self._hint_at - 1) % len(moves) + 1}/{len(moves)}: "
        if a.kind is ActionKind.PASS:
            return where + "pass"
        assert a.cards is not None  # a play
        if self.state.wild:
            said = self._wild_play(a, self.state)
            held, _, words = said.partition(" : ")
            if a.declared is not None and WILD_MARK in held:  # reading declared: as typed
                said = f"{held}={a.declared.format(self.notation)} : {words}"
            return where + said
        from ..moves import to_reading
        r = to_reading(a.cards, self.state.rules)
        return where + f"{r.format(self.notation)} ({r.shape})"

    # ------------------------------------------------------------------ the deal

    def run(self) -> None:
        """Play until the deal is over (SeatQuit when the person quits or input ends)."""
        from ..game.enums import Phase
        from ..game.record import result_lines
        while not self.state.over:
            turn = self.state.turn
            assert turn is not None  # the deal is not over
            if turn == self.seat:
                if self.state.phase in (Phase.SHOWING, Phase.BIDDING, Phase.BLIND,
                                        Phase.DOUBLING):
                    self.bid_turn()
                else:
                    self.play_turn()
                continue
            action = self.players[turn].decide(self.state.view(turn))
            self.apply(action)
        for line in result_lines(self.state, self.notation):
            self.say(line)


def terminal_seat(rules: Rules, seat: int, seed: int, levels: tuple[int, ...],
                  save_path: str | None, resume_path: str | None, notation: str,
                  rules_given: bool, force: bool = False) -> None:
    """``play --seat N``: start (or ``--resume``) a deal, the person at seat ``seat``, and
    play it in the terminal; exits 0 when it ends or the person quits (or input ends), 130 on
    Ctrl-C, 2 on bad input (a bad seat, a record that does not replay, a save file that
    cannot be written, a --save FILE that exists without ``force``, unless it is the
    --resume file), always leaving the saved record intact."""
    from ..errors import DdzError
    from ..game import GameState
    from ..game.record import load, resume, save
    from ..players import player_for
    try:
        if resume_path is not None:
            state = resume(load(resume_path), rules if rules_given else None)
            rules = state.rules
        else:
            state = GameState.new(rules, seed=seed)
    except DdzError as e:
        fail(f"{resume_path}: {e}" if resume_path and not str(e).startswith(resume_path)
             else str(e))
    if not 0 <= seat < rules.deal.players:
        fail(f"--seat: {seat} is not a seat of {rules.name} (0 to {rules.deal.players - 1})")
    given = save_path or resume_path
    path = Path(given) if given else default_save_path(rules)
    # a new --save FILE is not overwritten unless --force; the --resume file is the deal's own
    may_replace = force or save_path is None or (
        resume_path is not None and Path(save_path).resolve() == Path(resume_path).resolve())
    try:
        if given is None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                fail(f"{path.parent}: cannot create the folder where deals are saved: "
                     f"{e.strerror or e}; give --save FILE, or set XDG_DATA_HOME to a "
                     "writable folder")
        check_output(path, may_replace)
        save(state, path, seat=seat, levels=levels, overwrite=may_replace)
    except (DdzError, OSError) as e:
        fail(str(e))
    run_seed = state.seed if state.seed is not None else seed
    players = [player_for(lv, f"{run_seed}:{s}") for s, lv in enumerate(levels)]
    click.echo(f"{rules.title}: you are seat {seat}; the deal is saved to {path} after every "
               "action (type help for the commands)")
    again = f"ddzspec play --seat {seat} --resume {path}"
    game = TerminalSeat(state, seat, players, path, notation, levels=levels)
    try:
        game.run()
    except SeatQuit:
        click.echo(f"\nstopped; the deal is saved: {again}")
        return
    except KeyboardInterrupt:
        click.echo(f"\nddzspec: interrupted; the deal is saved: {again}", err=True)
        sys.exit(ExitCode.INTERRUPTED)
    except DdzError as e:  # a save that failed mid-deal: the last good record stays
        fail(str(e))
    click.echo(f"the deal's record: {path}")
