"""Game commands of the ``ddzspec`` CLI: ``moves`` (the Hint), ``play`` (computer self-play)
and ``replay`` (validate a record). :data:`ddzspec.cli.main` loads them when first called.

``play --seat N`` puts a person at one seat, at a terminal prompt (:class:`TerminalSeat`,
started by :func:`terminal_seat`), with the record autosaved after every action."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from ..cards import parse_cards
from ..rules import Rules
from .common import (
    FileName,
    check_output,
    common_options,
    emit_json,
    fail,
    force_option,
    progress_bar,
)


@click.command()
@click.argument("hand")
@click.option("--beat", "beat", metavar="MOVE", default=None,
              help="The move to answer (omit to list every lead).")
@common_options
def moves(hand: str, beat: str | None, rules: Rules, notation: str, as_json: bool) -> None:
    """List every legal move HAND can play (the Hint), smallest first.

    With --beat MOVE: every move that beats MOVE, and pass. JSON:
    {"moves": [{"cards", "type"}, …], "can_pass": bool}.
    """
    from ..errors import DdzError
    from ..moves import legal_moves, to_reading
    try:
        cards = parse_cards(hand, notation, deck=rules.deck).cards
    except DdzError as e:
        fail(f"HAND: {e}")
    prev = None
    if beat is not None:
        try:
            prev = to_reading(parse_cards(beat, notation, deck=rules.deck).cards, rules)
        except DdzError as e:
            fail(f"--beat: {e}")
    lm = legal_moves(cards, prev, rules)
    if as_json:
        emit_json({"moves": [{"cards": m.format(notation), "type": m.shape} for m in lm],
                   "can_pass": lm.can_pass})
        return
    for m in lm:
        click.echo(f"{m.format(notation):<20} {m.shape}")
    if lm.can_pass:
        click.echo("pass")
    if not lm.moves and not lm.can_pass:  # pragma: no cover - a non-empty hand always leads
        click.echo("(no move)")


# ----------------------------------------------------------------------------- play

def self_play(rules: Rules, seed: int | str, levels: tuple[int, ...] | None = None
              ) -> tuple[Any, list[tuple[Any, Any]]]:
    """One deal among computer players (``levels``: one per seat, default 2 each; seat ``s``
    plays with seed ``f"{seed}:{s}"``): (initial state, [(action, state after)])."""
    from ..game import GameState
    from ..players import player_for
    from ..players.base import prepare
    levels = levels or (2,) * rules.deal.players
    prepare(rules, endgame=3 in levels)  # one-time set-up, before any decision
    players = [player_for(lv, f"{seed}:{s}") for s, lv in enumerate(levels)]
    state = GameState.new(rules, seed=seed)
    initial, steps = state, []
    while not state.over:
        assert state.turn is not None
        action = players[state.turn].decide(state.view(state.turn))
        state = state.apply(action)
        steps.append((action, state))
    return initial, steps


@click.command()
@click.option("--seed", default=0, show_default=True, help="Shuffle seed (first deal).")
@click.option("--games", default=1, show_default=True, type=click.IntRange(1),
              help="Play K deals (seeds N, N+1, …) and print aggregate results.")
@click.option("--save", "save_path", default=None, metavar="FILE", type=FileName(),
              help="Write the record of the (last) deal to FILE.")
@force_option("--save FILE")
@click.option("--levels", "levels_text", default=None, metavar="L,L,L",
              help="Computer level (1-3) per seat, in seat order; fewer than the seats repeat "
                   "the last (2,3 for 3 seats: 2,3,3; default 2 for every seat).")
@click.option("--seat", type=click.IntRange(0), default=None, metavar="N",
              help="Take seat N yourself and play in the terminal (the others are computers).")
@click.option("--resume", "resume_path", default=None, metavar="FILE", type=FileName(),
              help="Continue the --seat deal saved in FILE (and keep saving to it), at the "
                   "seat and levels it was started with; --seat, --levels, --seed, --rules "
                   "and --without, if given, must agree with it.")
@common_options
def play(seed: int, games: int, save_path: str | None, force: bool, levels_text: str | None,
         seat: int | None, resume_path: str | None, rules: Rules, notation: str,
         as_json: bool) -> None:
    """Play a full deal among computer players and print the transcript; with --seat N, take
    seat N yourself in the terminal.

    --json prints the deal's record (its "result" holds winner, scores, multiplier, factors).
    --games K plays K deals and prints wins per side, average points and bombs per deal.
    --save FILE is checked before any deal is played (exit 2 when it cannot be written, or
    exists and --force is not given) and written atomically.

    \b
    --seat N: at your turn the prompt shows your hand, the cards left per
    seat (one-card/two-card warnings), the trick so far and the multiplier;
    type cards in the chosen notation, hint, pass, counter, help or quit
    (bidding: the legal bids, or call/rob yes/no). The record is saved after
    every action to --save FILE, or to a file in your data folder (printed);
    --resume FILE continues it. End of input or quit stops, the deal saved.
    """
    from click.core import ParameterSource

    from ..game.record import record_of, save, transcript
    from ..players.arena import parse_levels
    ctx = click.get_current_context()

    def given(param: str) -> bool:
        return ctx.get_parameter_source(param) is not ParameterSource.DEFAULT
    if seat is not None and (games != 1 or as_json):
        fail("--seat: the terminal seat plays one deal; --games and --json do not apply")
    players = rules.deal.players
    saved_levels = None
    if resume_path is not None:
        from ..errors import DdzError
        from ..game.record import load, record_rules
        try:
            rec = load(resume_path)
            players = record_rules(rec).deal.players
        except DdzError as e:
            if seat is None:  # with --seat, terminal_seat reports it (rules given, too)
                fail(f"{resume_path}: {e}" if not str(e).startswith(resume_path) else str(e))
            rec = None
        if rec is not None:
            # the "terminal" field is type-checked on reading; whether its seat and levels
            # fit the record's own variant is checked here, before any computer plays
            if rec.terminal_seat is not None and not 0 <= rec.terminal_seat < players:
                fail(f"{resume_path}: \"terminal\" \"seat\" is {rec.terminal_seat}, not a "
                     f"seat of the record's rules (0 to {players - 1}): the record was "
                     "altered")
            if rec.terminal_levels is not None and len(rec.terminal_levels) != players:
                fail(f"{resume_path}: \"terminal\" \"levels\" holds "
                     f"{len(rec.terminal_levels)} level(s), not one per seat ({players}): "
                     "the record was altered")
            if seat is None:
                seat = rec.terminal_seat
            elif rec.terminal_seat is not None and seat != rec.terminal_seat:
                fail(f"--seat {seat}: the deal in {resume_path} was started with --seat "
                     f"{rec.terminal_seat} (leave --seat out to resume it)")
            if given("seed") and seed != rec.seed:
                fail(f"--seed {seed}: the deal in {resume_path} was dealt from seed "
                     f"{json.dumps(rec.seed)} (leave --seed out to resume it)")
            saved_levels = rec.terminal_levels
        if seat is None and rec is not None and rec.result is not None:
            fail(f"--resume: the deal in {resume_path} is over, there is nothing to resume "
                 f"(`ddzspec replay {resume_path}` shows it move by move)")
        if seat is None:
            fail(f"--resume: {resume_path} does not say which seat is yours (not saved by "
                 f"`play --seat`, or by an older ddzspec): give --seat N (0 to {players - 1}) "
                 "to take a seat in it")
    try:
        levels = parse_levels("2" if levels_text is None else levels_text, players)
    except ValueError as e:
        fail(f"--levels: {e}")
    if saved_levels is not None:
        if levels_text is not None and levels != saved_levels:
            fail(f"--levels {levels_text}: the deal in {resume_path} was started with "
                 f"--levels {','.join(map(str, saved_levels))} (leave --levels out to resume "
                 "it)")
        levels = saved_levels
    if seat is not None:
        terminal_seat(rules, seat, seed, levels, save_path, resume_path, notation,
                      given("rules_name") or given("without"), force)
        return
    if save_path is not None:
        check_output(save_path, force)  # before playing: a bad path costs nothing
    if games == 1:
        initial, steps = self_play(rules, seed, levels)
        final = steps[-1][1]
        if save_path is not None:
            save(final, save_path, overwrite=force)
        if as_json:
            click.echo(record_of(final).dumps())
        else:
            for line in transcript(initial, steps, notation):
                click.echo(line)
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    tiered = {x.name for x in rules.shapes if x.tier > 0}
    wins = {"landlord": 0, "peasants": 0}
    points = [0] * rules.deal.players
    landlord_points = 0
    bombs = springs = anti = redeals = 0
    mults = 0
    with progress_bar(TextColumn(f"{rules.name}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn()) as prog:
        task = prog.add_task("deals", total=games)
        final = None
        for k in range(games):
            _, steps = self_play(rules, seed + k, levels)
            final = steps[-1][1]
            r = final.result
            wins[r.winner] += 1
            for s, p in enumerate(r.scores):
                points[s] += p
            landlord_points += r.scores[r.landlord]
            bombs += sum(1 for f in r.factors if f.kind in tiered)
            springs += r.spring
            anti += r.anti_spring
            redeals += final.attempt
            mults += r.multiplier
            prog.advance(task)
    if save_path is not None and final is not None:
        save(final, save_path, overwrite=force)
    agg = {"rules": rules.name, "games": games, "first_seed": seed, "wins": wins,
           "landlord_win_rate": wins["landlord"] / games,
           "average_points": {str(s): p / games for s, p in enumerate(points)},
           "average_landlord_points": landlord_points / games,
           "bombs_per_deal": bombs / games, "average_multiplier": mults / games,
           "springs": springs, "anti_springs": anti, "redeals": redeals}
    if as_json:
        emit_json(agg)
        return
    click.echo(f"{rules.title}: {games} deals, seeds {seed}…{seed + games - 1}")
    click.echo(f"  wins: landlord {wins['landlord']}, peasants {wins['peasants']} "
               f"(landlord {100 * wins['landlord'] / games:.1f}%)")
    click.echo("  average points per seat: " + ", ".join(
        f"seat {s} {p / games:+.2f}" for s, p in enumerate(points))
        + f"; landlord {landlord_points / games:+.2f}")
    click.echo(f"  bombs/rockets per deal: {bombs / games:.3f}; average multiplier "
               f"{mults / games:.2f}; springs {springs}, anti-springs {anti}; "
               f"all-pass redeals {redeals}")


# ----------------------------------------------------------------------------- replay

@click.command()
@click.argument("file", type=FileName())
@click.option("--rules", "rules_name", default=None, metavar="NAME|PATH",
              help="Replay under these rules (a built-in name or a path); they must be exactly "
                   "the record's. Default: the rules the record carries.")
@click.option("--without", "without", multiple=True, metavar="SHAPE",
              help="Drop a shape (repeatable); with --rules, or for a record of a built-in.")
@click.option("--notation", type=click.Choice(["en", "fr", "de"]), default="en",
              show_default=True, help="Card notation language.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def replay(file: str, rules_name: str | None, without: tuple[str, ...], notation: str,
           as_json: bool) -> None:
    """Validate a deal record action by action; print the transcript and the score breakdown,
    or the first invalid action with its index and reason (exit 1).

    The record carries its rules and replays under exactly them, on any machine. --rules and
    --without, when given, must resolve to exactly the recorded rules; a record whose rules
    cannot be reproduced exactly is refused (exit 2), never replayed under other rules.
    """
    from ..errors import DdzError
    from ..game.record import load, transcript
    from ..game.record import replay as replay_fn
    from ..rules import builtin_rules, load_rules
    try:
        rec = load(file)
        given = None
        if rules_name is not None:
            given = load_rules(rules_name, without=without)
        elif without:
            if rec.rules_name not in builtin_rules():
                fail(f"--without: the record's rules {rec.rules_name!r} are not built in; "
                     "give --rules as well")
            given = load_rules(rec.rules_name, without=without)
        rep = replay_fn(rec, given)
    except DdzError as e:
        fail(str(e))
        return
    state = rep.state
    if as_json:
        emit_json({"valid": rep.ok, "actions": len(rep.steps),
                   "error": None if rep.ok else {"index": rep.error_index,
                                                 "reason": rep.error},
                   "warnings": list(rep.warnings), "phase": state.phase,
                   "result": None if state.result is None else state.result.to_json()})
    else:
        for w in rep.warnings:
            click.echo(f"warning: {w}", err=True)
        for line in transcript(rep.initial, rep.steps, notation):
            click.echo(line)
        if not rep.ok:
            click.echo(f"invalid action {rep.error_index}: {rep.error}")
    if not rep.ok:
        sys.exit(1)


# ----------------------------------------------------------------------------- terminal seat

#: What the terminal seat accepts besides cards, with what each does (``help``).
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
    import time

    from platformdirs import user_data_dir
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folder = Path(user_data_dir("ddzspec")) / "games"
    path, n = folder / f"{rules.name}-{stamp}.json", 2
    while path.exists():  # two deals started in the same second: never the other's file
        path, n = folder / f"{rules.name}-{stamp}-{n}.json", n + 1
    return path


def _grouped(cards: Any, notation: str) -> str:
    """Cards grouped by rank, low to high: ``33 4 555 B`` (``-`` for none)."""
    from ..cards import ALL_RANKS
    groups = [ALL_RANKS[i].symbol(notation) * n if len(ALL_RANKS[i].symbol(notation)) == 1
              else " ".join([ALL_RANKS[i].symbol(notation)] * n)
              for i, n in enumerate(cards.counts) if n]
    return " ".join(groups) or "-"


class TerminalSeat:
    """One person at seat ``seat`` of a deal, in the terminal (``play --seat N``);
    the other seats are computer ``players``. Every action goes through
    :meth:`GameState.apply`; a refused one changes nothing. The record is saved atomically to
    ``path`` after every action (:func:`ddzspec.game.record.save`). ``ask`` reads one line
    (``input``: raises EOFError at the end of input), ``say`` prints one."""

    def __init__(self, state: Any, seat: int, players: list[Any], path: Any, notation: str,
                 ask: Any = input, say: Any = click.echo,
                 levels: tuple[int, ...] | None = None) -> None:
        self.state = state
        self.seat = seat
        self.levels = levels  # saved in the record's "terminal" field with the seat
        self.players = players
        self.path = path
        self.notation = notation
        self.ask = ask
        self.say = say
        self._hints: tuple[Any, list[Any]] | None = None
        self._hint_at = 0

    # ------------------------------------------------------------------ state changes

    def apply(self, action: Any) -> None:
        """Apply ``action`` (GameError: nothing changes), save the record, report it."""
        from ..game.record import save
        before = self.state
        self.state = self.state.apply(action)
        save(self.state, self.path, seat=self.seat, levels=self.levels)
        self.say(self._action_line(action, before))

    def _action_line(self, action: Any, before: Any) -> str:
        from ..game import ActionKind
        st = self.state
        who = "you" if action.seat == self.seat else f"seat {action.seat}"
        if action.kind is ActionKind.PLAY:
            r = st.last[1] if st.last is not None and st.last[0] == action.seat else None
            if r is None:  # the deal ended on this play
                r = next(x for s, x in reversed(st.trick) if s == action.seat)
            left = len(st.hands[action.seat])
            warn = {1: " — one card left!", 2: " — two cards left!"}.get(left, "")
            line = f"{who}: {r.describe(self.notation)} ({left} left){warn}"
        elif action.kind is ActionKind.PASS:
            line = f"{who}: pass" + ("; the trick is over" if st.last is None else "")
        elif action.kind is ActionKind.BID:
            line = f"{who}: " + ("pass" if action.value == 0 else f"bid {action.value}")
        else:
            word = action.kind.value
            line = f"{who}: {word if action.value else 'no ' + word}"
            if action.kind is ActionKind.ROB and action.value:
                line += f" (multiplier x{st.multiplier})"
        if st.attempt != before.attempt:
            line += "\nall passed: the deal is void and redealt"
        if st.landlord is not None and before.landlord is None:
            role = "you are" if st.landlord == self.seat else f"seat {st.landlord} is"
            line += (f"\n{role} the landlord (base {st.base}); " + (
                f"the talon {_grouped(st.talon, self.notation)} is shown and taken"
                if len(st.talon) else "there is no talon"))
            targets = [st.target(s) for s in range(st.players)]
            if any(targets):
                line += "\n" + self._targets_line()
        return line

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
        lines = ["", f"your hand ({len(v.hand)}): {_grouped(v.hand, n)}",
                 "cards left: " + ", ".join(seats)]
        if v.talon is not None and len(v.talon):
            lines.append(f"talon: {_grouped(v.talon, n)}")
        if v.phase.value == "play":
            trick = [f"{'you' if s == self.seat else f'seat {s}'} "
                     + ("pass" if r is None else r.describe(n)) for s, r in v.trick]
            lines.append("trick: " + ("; ".join(trick) if trick else "you lead"))
            factors = ", ".join(f.kind.replace("_", "-") + (f" {f.cards}" if f.cards else "")
                                for f in v.factors)
            lines.append(f"multiplier: x{v.multiplier}" + (f" ({factors})" if factors else "")
                         + f"; base {v.base}")
            if v.targets is not None and any(v.targets):
                lines.append(self._targets_line())
        return lines

    def counter(self) -> str:
        """The unseen cards per rank (seed 003's counter): ``unseen (20): 3x4 4x3 …``; in
        duel it counts the undealt cards, never shown."""
        from ..cards import ALL_RANKS
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

    def _common(self, word: str) -> bool:
        """Handle help, counter and quit; True when ``word`` was one of them."""
        if word in ("help", "?"):
            self.say("type cards in your notation to play them (e.g. 333+4), or:")
            for k, v in SEAT_COMMANDS.items():
                self.say(f"  {k:<8} {v}")
            return True
        if word == "counter":
            self.say(self.counter())
            return True
        if word == "quit":
            raise SeatQuit
        return False

    def bid_turn(self) -> None:
        """One bidding turn of the person: only the legal choices are offered."""
        from ..errors import GameError
        from ..game import Action, ActionKind
        legal = self.state.legal_actions()
        kind = legal[0].kind
        if kind is ActionKind.BID:
            choices = ["pass" if a.value == 0 else str(a.value) for a in legal]
        else:
            choices = [kind.value, "no"]
        for line in self.status():
            self.say(line)
        while True:
            word = self._read(f"seat {self.seat} {kind.value} [{'/'.join(choices)}]> ").lower()
            if self._common(word):
                continue
            if kind is ActionKind.BID:
                value = 0 if word == "pass" else int(word) if word.isdigit() else None
                action = None if value is None else Action.bid(self.seat, value)
            else:
                yes = {kind.value: 1, "yes": 1, "y": 1, "no": 0, "n": 0, "pass": 0}.get(word)
                action = None if yes is None else Action(kind, self.seat, yes)
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
            if word == "hint":
                self.say(self.hint())
                continue
            if word == "pass":
                action = Action.pass_(self.seat)
            else:
                try:
                    cards = parse_cards(text, self.notation, deck=self.state.rules.deck).cards
                except DdzError as e:
                    self.say(f"not cards: {e}")
                    self.say("(type help for the commands)")
                    continue
                action = Action(ActionKind.PLAY, self.seat, 0, cards)
            try:
                self.apply(action)
                return
            except NotAMoveError:
                assert action.cards is not None
                lines = explain(action.cards, self.state.rules, self.notation).lines
                self.say(f"refused: {action.cards.format(self.notation)} is not a legal move.")
                for line in lines[1:]:
                    self.say(line)
            except GameError as e:
                self.say(f"refused: {e.text(self.notation)}")

    def hint(self) -> str:
        """The next legal move, smallest first, cycling (``hint 2/7: 44 (pair)``); pass is
        the last hint when it is allowed."""
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
            if turn == self.seat:
                if self.state.phase is Phase.BIDDING:
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
        sys.exit(130)
    except DdzError as e:  # a save that failed mid-deal: the last good record stays
        fail(str(e))
    click.echo(f"the deal's record: {path}")
