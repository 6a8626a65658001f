"""``senet replay``: validate a game record and show how it went.

Validation is :func:`senet.engine.record.parse_record`, the same reader the site uses, so a
record this command accepts is one the site accepts.  Errors are printed as
``FILE:LINE:COLUMN: message (expected ...)`` — the form editors and CI logs link to.
"""

from __future__ import annotations

import sys

import click

from senet.engine import Game, NotationError, Throw
from senet.engine.position import seat_letter
from senet.engine.record import parse_record

from .common import LANG_OPTION, outcome_text, render_board

__all__ = ["replay_command"]


def _begins_turn(position, first: bool) -> bool:
    """Same rule as the record writer: a turn begins at a regular throw after a hand-over."""
    return position.is_chance() and position.pending_name != "fate" and (first or position.new_turn)


@click.command("replay", short_help="Validate a game record and show how it went.")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--step",
    is_flag=True,
    help="Show the board after each action, turn by turn (a key press between turns on a terminal).",
)
@LANG_OPTION
def replay_command(file: str, step: bool, lang: str) -> None:
    """Validate a game record (FILE, or - for stdin); print the final position and the outcome."""
    try:
        with click.open_file(file, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise click.ClickException(f"cannot read {file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise click.ClickException(f"{file} is not UTF-8 text (byte {exc.start})") from None
    try:
        record = parse_record(text)
    except NotationError as exc:
        expected = f" (expected {exc.expected})" if exc.expected else ""
        click.echo(f"{file}:{exc.line}:{exc.column}: {exc.message}{expected}", err=True)
        sys.exit(1)
    game = record.replay()
    if step:
        _step(game, lang)
    for key, value in record.tags.items():
        click.echo(f'[{key} "{value}"]')
    click.echo()
    click.echo(render_board(game.position, lang))
    click.echo(f"position: {game.position.fen()}")
    outcome = game.outcome()
    click.echo(f"actions: {len(game)}")
    click.echo("outcome: " + (outcome_text(outcome, game.variant) if outcome else "unfinished (*)"))


def _step(game: Game, lang: str) -> None:
    """Each turn's actions with the board after each one; pauses between turns on a terminal
    (``click.pause`` is a no-op when stdin is not a TTY, so pipes and tests run straight through)."""
    positions = game.positions
    number = 0
    for index, action in enumerate(game.actions):
        before = positions[index]
        if index == 0 or _begins_turn(before, False):
            if number:
                click.pause("-- press any key for the next turn, Ctrl-C to stop --")
            number += 1
            click.echo(f"\n=== turn {number}: {seat_letter(before.turn)} ===")
        text = f"({action.value})" if isinstance(action, Throw) else before.move_text(action)
        click.echo(f"\n{text}")
        click.echo(render_board(positions[index + 1], lang, legend=False))
