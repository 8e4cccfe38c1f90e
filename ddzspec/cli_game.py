"""Game commands of the ``ddzspec`` CLI: ``moves`` (the Hint), ``play`` (computer self-play)
and ``replay`` (validate a record). Registered on :data:`ddzspec.cli.main` on import."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from .cards import parse_cards
from .cli import common_options, emit_json, fail, main
from .rules import Rules


@main.command()
@click.argument("hand")
@click.option("--beat", "beat", metavar="MOVE", default=None,
              help="The move to answer (omit to list every lead).")
@common_options
def moves(hand: str, beat: str | None, rules: Rules, notation: str, as_json: bool) -> None:
    """List every legal move HAND can play (the Hint), smallest first.

    With --beat MOVE: every move that beats MOVE, and pass. JSON:
    {"moves": [{"cards", "type"}, …], "can_pass": bool}.
    """
    from .moves import legal_moves, to_reading
    cards = parse_cards(hand, notation, deck=rules.deck).cards
    prev = None
    if beat is not None:
        prev = to_reading(parse_cards(beat, notation, deck=rules.deck).cards, rules)
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
