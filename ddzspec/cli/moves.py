"""The Moves topic of the ``ddzspec`` command line: ``read``, ``beats``, ``explain`` and
``moves`` (the hint), loaded by :mod:`ddzspec.cli.group` when first called."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from ..cards import parse_cards
from ..rules import Rules
from .common import common_options, emit_json, fail

if TYPE_CHECKING:
    from ..readings import Verdict

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
@common_options
def read(moves: tuple[str, ...], rules: Rules, notation: str, as_json: bool) -> None:
    """Read each MOVE: canonical cards, type, body, kickers; or illegal and why.

    A notation error in one MOVE is reported with its position among the arguments; the other
    moves are still read (text output), and the exit code is 2.
    """
    from ..errors import NotationError
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


# ----------------------------------------------------------------------------- beats

@click.command()
@click.argument("play")
@click.argument("previous")
@common_options
def beats(play: str, previous: str, rules: Rules, notation: str, as_json: bool) -> None:
    """Does PLAY beat PREVIOUS? yes/no and why."""
    from ..errors import NotationError
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


# ----------------------------------------------------------------------------- explain

@click.command()
@click.argument("move")
@common_options
def explain(move: str, rules: Rules, notation: str, as_json: bool) -> None:
    """Explain MOVE for teaching: its reading and the readings the restrictions rule out."""
    from ..explain import explain as explain_fn
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
