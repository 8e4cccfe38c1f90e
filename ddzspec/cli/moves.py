"""The Moves topic of the ``ddzspec`` command line: ``read``, ``beats``, ``explain`` and
``moves`` (the hint), loaded by :mod:`ddzspec.cli.group` when first called."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..cards import Cards, parse_cards
from ..rules import Rules
from .common import common_options, emit_json, fail

if TYPE_CHECKING:
    from ..readings import Verdict
    from ..wild import WildMove, WildRanks, WildReading

#: ``--wild RANK``, passed as ``wild``: the drawn wild rank, on rules with wild cards.
wild_option = click.option(
    "--wild", "wild", metavar="RANK", default=None,
    help="The wild rank (laizi), in the card notation, e.g. --wild 7, or one per draw "
         "separated by commas (tiandi laizi: --wild 9,Q): required on rules with wild cards, "
         "refused on others. A wild card is then written * or as a card of that rank (with "
         "several wild ranks: as its rank); 333*=3333 declares a reading (policy declared).")


def wild_rank(rules: Rules, wild: str | None, notation: str) -> WildRanks | None:
    """The rank index ``--wild`` names (a tuple of them, one per draw, on rules of several
    draws: ``--wild 9,Q``), None on rules without wild cards. Exits 2 (one line) when it is
    missing on wild rules, given on others, or not a rank the file can draw
    (:func:`ddzspec.wild.wild_ranks_named`)."""
    from ..errors import NotationError
    from ..wild import wild_ranks_named
    if rules.wild is None:
        if wild is not None:
            fail(f"--wild {wild}: {rules.path}: {rules.name} has no wild cards (no wild "
                 "section)")
        return None
    if wild is None:
        fail(f"{rules.path}: {rules.name} has wild cards: name the wild rank with --wild RANK "
             "(e.g. --wild 7)")
    try:
        return wild_ranks_named(wild, rules, notation)
    except NotationError as e:
        fail(f"--wild: {e}")
    except ValueError as e:
        fail(f"--wild {wild}: {e}")


def parse_wild_move(text: str, rank: WildRanks, rules: Rules, notation: str, what: str
                    ) -> tuple[WildMove, WildReading | None]:
    """A wild move as written (``4***``, ``333*=3333`` under the declared policy): the move and
    the declared reading (None when none is written). Exits 2 on bad input, ``what`` first."""
    got = wild_move_or_error(text, rank, rules, notation, what)
    if isinstance(got, str):
        fail(got)
    return got


def wild_move_or_error(text: str, rank: WildRanks, rules: Rules, notation: str, what: str
                       ) -> tuple[WildMove, WildReading | None] | str:
    """:func:`parse_wild_move`, its error returned as one message (``what`` first) instead of
    exiting: a command that reads several moves reports every one."""
    from ..errors import NotationError
    from ..wild import parse_play
    try:
        return parse_play(text, rank, rules, notation)
    except NotationError as e:
        return f"{what}: {e}"


def wild_reading_of(text: str, rank: WildRanks, rules: Rules, notation: str, what: str,
                    previous: WildReading | None = None) -> WildReading | None:
    """The reading a wild move is played as: the declared one, else (policy strongest) the one
    the policy takes leading or answering ``previous``; under ``declared`` a move with several
    readings in context (leading, or beating ``previous``) must declare one (exit 2), as in a
    deal. None: no reading (not a legal move, or no answer)."""
    from ..rules.model import ReadingPolicy
    from ..wild import move_readings
    from ..wildmoves import choose
    move, declared = parse_wild_move(text, rank, rules, notation, what)
    wild = rules.wild
    assert wild is not None
    if declared is not None:
        return declared
    got = choose(wild, move_readings(move, rules), previous)
    if wild.policy is ReadingPolicy.DECLARED and len(got) > 1:
        context = "that beat PREVIOUS" if previous is not None else ""
        fail(f"{what} {text}: {len(got)} readings{' ' if context else ''}{context}: declare "
             f"one, e.g. {move.format(notation)}={got[0].reading.format(notation)}")
    return got[0] if got else None

# ----------------------------------------------------------------------------- read

def reading_json(verdict: Verdict, notation: str) -> dict[str, Any]:
    """The JSON object of one read move: cards, legal, type, body, kickers, key, reason.
    ``kickers`` lists the kicker units joined by "+" ("5+5": two singles; "55": one pair)."""
    if verdict.legal:
        r = verdict.reading
        return {"cards": r.format(notation), "legal": True, "type": r.shape,
                "body": r.body_text(notation),
                "kickers": "+".join(u.format(notation) for u in r.units()),
                "key": r.key, "reason": None}
    out = {"cards": verdict.cards.format(notation), "legal": False, "type": None,
           "body": None, "kickers": None, "key": None, "reason": verdict.reason}
    if verdict.ambiguous:
        out["reason"] = "ambiguous: " + "; ".join(x.describe(notation) for x in verdict.readings)
        out["readings"] = [x.describe(notation) for x in verdict.readings]
    return out


@click.command()
@click.argument("moves", nargs=-1, required=True)
@wild_option
@common_options
def read(moves: tuple[str, ...], wild: str | None, rules: Rules, notation: str,
         as_json: bool) -> None:
    """Read each MOVE: canonical cards, type, body, kickers; or illegal and why.

    A notation error in one MOVE is reported with its position among the arguments; the other
    moves are still read (text output), and the exit code is 2. With wild cards (--wild):
    every reading of each MOVE, and the one the rules file's policy takes.
    """
    from ..errors import NotationError
    rank = wild_rank(rules, wild, notation)
    if rank is not None:
        _read_wild(moves, rank, rules, notation, as_json)
        return
    from ..readings import read as read_move
    verdicts: list[Verdict | None] = []
    errors: list[str] = []
    for n, m in enumerate(moves, 1):
        try:
            verdicts.append(read_move(m, rules, notation))
        except NotationError as e:
            errors.append(f"move {n} ({m!r}): {e}" if len(moves) > 1 else str(e))
            verdicts.append(None)
    if as_json:
        if errors:
            fail("\n".join(errors))
        emit_json([reading_json(v, notation) for v in verdicts if v is not None])
        return
    rows: list[tuple[str, str, str]] = []
    for v in verdicts:
        if v is None:
            continue
        if v.legal:
            r = v.reading
            kick = "+".join(u.format(notation) for u in r.units()) or "-"
            rows.append((r.format(notation), r.shape,
                         f"body {r.body_text(notation)}  kickers {kick}"))
        elif v.ambiguous:
            rows.append((v.cards.format(notation), "AMBIGUOUS",
                         "; ".join(x.describe(notation) for x in v.readings)))
        else:
            rows.append((v.cards.format(notation), "illegal", v.reason or ""))
    if rows:
        w0 = max(16, *(len(r[0]) + 1 for r in rows))
        w1 = max(len(r[1]) + 1 for r in rows)
        for a, b, c in rows:
            click.echo(f"{a:<{w0}} {b:<{w1}} {c}")
    if errors:
        fail("\n".join(errors))


def _read_wild(moves: tuple[str, ...], rank: WildRanks, rules: Rules, notation: str,
               as_json: bool) -> None:
    """``read`` with wild cards: each move's readings (policy strongest: the lead's marked;
    a declared reading: that one; a move of one reading: that one, under any policy). A move
    written wrong is reported with its place among the arguments and its text, as without wild
    cards (``move 2 ('*****'): …``), every one of them (exit 2); the other moves are still read
    (text output)."""
    from ..wild import explain_wild
    out: list[dict[str, Any]] = []
    errors: list[str] = []
    for n, m in enumerate(moves, 1):
        what = f"move {n} ({m!r})" if len(moves) > 1 else "MOVE"
        got = wild_move_or_error(m, rank, rules, notation, what)
        if isinstance(got, str):
            errors.append(got)
            continue
        move, declared = got
        ex = explain_wild(move, rules)
        taken = declared or ex.lead or (ex.kept[0] if len(ex.kept) == 1 else None)
        rows = [{**r.to_json(notation, cut), "taken": r == taken}
                for r, cut in ex.readings]
        out.append({"cards": move.format(notation), "legal": bool(ex.kept),
                    "readings": rows,
                    "policy": rules.wild.policy.value if rules.wild else None})
    if as_json:
        if errors:
            fail("\n".join(errors))
        emit_json(out)
        return
    for o in out:
        kept = sum(not r["ruled_out_by"] for r in o["readings"])
        click.echo(f"{o['cards']}: {kept} reading{'s' if kept != 1 else ''} "
                   f"(policy {o['policy']})" if o["readings"] else
                   f"{o['cards']}: illegal: no substitution of its wild cards makes a move")
        for r in o["readings"]:
            kick = r["kickers"] or "-"
            extra = [r["bomb_class"]] if r["bomb_class"] else []
            if r["wild_as"]:
                extra.append(f"wild cards as {r['wild_as']}")
            if r["ruled_out_by"]:
                extra.append("ruled out by " + ", ".join(r["ruled_out_by"]))
            mark = "  <- taken" if r["taken"] else ""
            click.echo(f"  {r['type']:<17} body {r['body']}  kickers {kick}"
                       f"{'  (' + '; '.join(extra) + ')' if extra else ''}{mark}")
    if errors:
        fail("\n".join(errors))


# ----------------------------------------------------------------------------- beats

@click.command()
@click.argument("play")
@click.argument("previous")
@wild_option
@common_options
def beats(play: str, previous: str, wild: str | None, rules: Rules, notation: str,
          as_json: bool) -> None:
    """Does PLAY beat PREVIOUS? yes/no and why.

    With wild cards (--wild): PREVIOUS as it was led (its declared reading, or the one the
    policy takes leading), PLAY by its strongest reading of the answered type and size, else
    a bomb (policy strongest) or its declared reading.
    """
    from ..errors import NotationError
    rank = wild_rank(rules, wild, notation)
    if rank is not None:
        _beats_wild(play, previous, rank, rules, notation, as_json)
        return
    from ..readings import beats as beats_fn
    from ..readings import read as read_move
    try:
        a = read_move(play, rules, notation)
    except NotationError as e:
        fail(f"PLAY: {e}")
    try:
        b = read_move(previous, rules, notation)
    except NotationError as e:
        fail(f"PREVIOUS: {e}")
    if not b.legal:
        fail(f"PREVIOUS {b.cards.format(notation)} is not a legal move under {rules.label}, so "
             f"nothing can be compared with it: {reading_json(b, notation)['reason']}")
    if not a.legal:
        ok = False
        why = (f"{a.cards.format(notation)} is not a legal move: "
               f"{reading_json(a, notation)['reason']}")
    else:
        ok, why = beats_fn(a.reading, b.reading, notation)
        why = f"{a.reading.describe(notation)} vs {b.reading.describe(notation)}: {why}"
    if as_json:
        emit_json({"beats": ok, "reason": why})
    else:
        click.echo(("yes: " if ok else "no: ") + why)


def _beats_wild(play: str, previous: str, rank: WildRanks, rules: Rules, notation: str,
                as_json: bool) -> None:
    """``beats`` with wild cards: PLAY's reading in context (answering PREVIOUS), as in a
    deal."""
    from ..wild import explain_wild, outranks
    prev = wild_reading_of(previous, rank, rules, notation, "PREVIOUS")
    if prev is None:
        fail(f"PREVIOUS {previous} is not a legal move under {rules.label} (no substitution "
             "of its wild cards makes a move), so nothing can be compared with it")
    wild = rules.wild
    assert wild is not None
    move, declared = parse_wild_move(play, rank, rules, notation, "PLAY")
    ex = explain_wild(move, rules)  # leading: under declared any reading, none chosen
    led = declared or ex.lead or next(iter(ex.kept), None)
    if led is None:
        ok, why = False, f"{play} is not a legal move (no substitution of its wild cards " \
            "makes a move)"
    else:
        taken = wild_reading_of(play, rank, rules, notation, "PLAY", prev)
        ok = taken is not None and outranks(wild, taken, prev)
        shown = taken or led
        why = f"{shown.describe(notation)} vs {prev.describe(notation)}: " + (
            "it beats" if ok else "no reading of it beats (same type and size with a higher "
            "body, or a higher bomb)")
    if as_json:
        emit_json({"beats": ok, "reason": why})
    else:
        click.echo(("yes: " if ok else "no: ") + why)


# ----------------------------------------------------------------------------- explain

@click.command()
@click.argument("move")
@wild_option
@common_options
def explain(move: str, wild: str | None, rules: Rules, notation: str, as_json: bool) -> None:
    """Explain MOVE for teaching: its reading and the readings the restrictions rule out.

    With wild cards (--wild): every reading of MOVE, the wild restrictions that cut some, and
    the one the rules file's policy takes (under reading declared: the one declared,
    333*=3333, and "declared" in the JSON).
    """
    from ..explain import explain as explain_fn
    rank = wild_rank(rules, wild, notation)
    if rank is not None:
        from ..wild import explain_wild
        wmove, declared = parse_wild_move(move, rank, rules, notation, "MOVE")
        ex_wild = explain_wild(wmove, rules, declared)
        lines = ex_wild.lines(rules, notation)
        if as_json:
            emit_json({**ex_wild.to_json(notation), "explanation": lines})
            return
        for line in lines:
            click.echo(line)
        return
    ex = explain_fn(move, rules, notation)
    if as_json:
        emit_json({**reading_json(ex.verdict, notation),
                   "near_misses": [{"reading": c.reading.describe(notation),
                                    "ruled_out_by": [r.name for r in c.violated]}
                                   for c in ex.near_misses],
                   "elsewhere": [{"rules": n, **reading_json(v, notation)}
                                 for n, v in ex.elsewhere],
                   "nearest": ex.to_json(notation)["nearest"],
                   "explanation": list(ex.lines)})
        return
    for line in ex.lines:
        click.echo(line)


# ----------------------------------------------------------------------------- moves

@click.command()
@click.argument("hand")
@click.option("--beat", "beat", metavar="MOVE", default=None,
              help="The move to answer (omit to list every lead).")
@wild_option
@common_options
def moves(hand: str, beat: str | None, wild: str | None, rules: Rules, notation: str,
          as_json: bool) -> None:
    """List every legal move HAND can play (the Hint), smallest first.

    With --beat MOVE: every move that beats MOVE, and pass. JSON:
    {"moves": [{"cards", "type"}, …], "can_pass": bool}. With wild cards (--wild): each move
    with the reading it is played as (policy strongest: each move once; declared: once per
    reading), and "reading" in the JSON.
    """
    from ..errors import DdzError
    from ..moves import legal_moves, to_reading
    rank = wild_rank(rules, wild, notation)
    if rank is not None:
        _moves_wild(hand, beat, rank, rules, notation, as_json)
        return
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


def _moves_wild(hand: str, beat: str | None, rank: WildRanks, rules: Rules, notation: str,
                as_json: bool) -> None:
    """``moves`` with wild cards. Under the ``declared`` policy a play with wild cards is also
    written as typed, its reading declared (``33**=333+4``: text, and ``"declared"`` in the
    JSON), so that a move of several readings is listed once per reading in a form
    :func:`~ddzspec.wild.parse_declared` reads back."""
    from ..rules.model import ReadingPolicy
    from ..wildmoves import WildPlay, wild_legal_moves
    if not isinstance(rank, int):
        fail(f"{rules.path}: legal moves with {len(rank)} wild ranks at once are not written "
             "yet (one wild rank: laizi; read, explain and beats take several)")
    if "=" in hand:
        fail(f"HAND {hand}: a hand is cards only ('=' declares the reading of a play)")
    move, _ = parse_wild_move(hand, rank, rules, notation, "HAND")
    if len(move.natural) + move.wilds > rules.max_cards:
        fail(f"HAND: a hand holds at most {rules.max_cards} cards, got "
             f"{len(move.natural) + move.wilds}")
    prev = None
    if beat is not None:
        prev = wild_reading_of(beat, rank, rules, notation, "--beat")
        if prev is None:
            fail(f"--beat {beat}: not a legal move under {rules.label}")
    own = Cards(tuple(move.wilds if i == rank else 0 for i in range(len(move.natural.counts))))
    plays = wild_legal_moves(move.natural + own, rank, rules, prev)
    declares = rules.wild is not None and rules.wild.policy is ReadingPolicy.DECLARED

    def typed(p: WildPlay) -> str | None:
        """The play as typed with its reading declared (None: not declared, no wild card, or
        wild cards only: they read as themselves)."""
        if not declares or not p.move.wilds or p.reading.all_wild:
            return None
        return f"{p.move.format(notation)}={p.reading.reading.format(notation)}"
    if as_json:
        emit_json({"moves": [{"cards": p.move.format(notation), "type": p.reading.reading.shape,
                              "reading": p.reading.describe(notation),
                              **({"declared": typed(p)} if typed(p) else {})} for p in plays],
                   "can_pass": prev is not None})
        return
    for p in plays:
        click.echo(f"{typed(p) or p.move.format(notation):<20} {p.reading.describe(notation)}")
    if prev is not None:
        click.echo("pass")
