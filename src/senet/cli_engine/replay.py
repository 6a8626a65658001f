"""``senet replay``: validate a game record and show how it went.

Validation is :func:`senet.engine.record.parse_record`, the same reader the site uses, so a
record this command accepts is one the site accepts.  Errors are printed as
``FILE:LINE:COLUMN: message (expected ...)`` — the form editors and CI logs link to.
"""

from __future__ import annotations

import argparse
import sys

from senet.engine import Game, NotationError, Throw
from senet.engine.position import seat_letter
from senet.engine.record import parse_record

from .common import CommandError, EngineCommand, add_lang_option, echo, outcome_text, render_board

__all__ = ["replay_command"]


def _begins_turn(position, first: bool) -> bool:
    """Same rule as the record writer: a turn begins at a regular throw after a hand-over."""
    return position.is_chance() and position.pending_name != "fate" and (first or position.new_turn)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="The record's file, or - for stdin.")
    parser.add_argument(
        "--step",
        action="store_true",
        help="Show the board after each action, turn by turn (Enter between turns on a terminal).",
    )
    add_lang_option(parser)


def _read(file: str) -> str:
    if file == "-":
        return sys.stdin.read()
    with open(file, encoding="utf-8") as handle:
        return handle.read()


def _replay(args: argparse.Namespace) -> int | None:
    """Validate a game record (FILE, or - for stdin); print the final position and the outcome."""
    file, lang = args.file, args.lang
    try:
        text = _read(file)
    except OSError as exc:
        raise CommandError(f"cannot read {file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CommandError(f"{file} is not UTF-8 text (byte {exc.start})") from None
    try:
        record = parse_record(text)
    except NotationError as exc:
        expected = f" (expected {exc.expected})" if exc.expected else ""
        echo(f"{file}:{exc.line}:{exc.column}: {exc.message}{expected}", err=True)
        return 1
    game = record.replay()
    if args.step:
        _step(game, lang)
    for key, value in record.tags.items():
        echo(f'[{key} "{value}"]')
    echo()
    echo(render_board(game.position, lang))
    echo(f"position: {game.position.fen()}")
    outcome = game.outcome()
    echo(f"actions: {len(game)}")
    echo("outcome: " + (outcome_text(outcome, game.variant) if outcome else "unfinished (*)"))
    return None


def _step(game: Game, lang: str) -> None:
    """Each turn's actions with the board after each one; pauses between turns on a terminal
    (only where stdin and stdout are a terminal, so pipes and tests run straight through)."""
    pause = sys.stdin.isatty() and sys.stdout.isatty()
    positions = game.positions
    number = 0
    for index, action in enumerate(game.actions):
        before = positions[index]
        if index == 0 or _begins_turn(before, False):
            if number and pause:
                input("-- press Enter for the next turn, Ctrl-C to stop --")
            number += 1
            echo(f"\n=== turn {number}: {seat_letter(before.turn)} ===")
        text = f"({action.value})" if isinstance(action, Throw) else before.move_text(action)
        echo(f"\n{text}")
        echo(render_board(positions[index + 1], lang, legend=False))


replay_command = EngineCommand(
    "replay", "Validate a game record and show how it went.", _arguments, _replay
)
