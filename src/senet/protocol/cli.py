"""``senet engine`` and ``senet match``: thin commands over :mod:`.engine` and :mod:`.match`.

:mod:`senet.cli` collects :data:`COMMANDS` from here.
"""

from __future__ import annotations

import io
import shlex
import sys
from pathlib import Path

import click

from senet.engine import VARIANTS, UnknownVariant, find_variant

__all__ = ["COMMANDS", "engine_command", "match_command"]

_LEVELS = ("beginner", "casual", "expert", "master")


@click.command("engine", short_help="Speak the engine protocol on standard input and output.")
@click.option(
    "--level",
    type=click.Choice(_LEVELS),
    default="master",
    show_default=True,
    help="The built-in level that chooses the moves.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the level's choices.")
def engine_command(level: str, seed: int) -> None:
    """A built-in level as an engine program: reads commands (senet, isready, newgame,
    position, throw, move, go, quit) line by line and answers them (docs/engine-protocol.md)."""
    from .engine import EngineSession, engine_name, level_player, serve

    choose, prepare = level_player(level, seed)
    # a byte that is not UTF-8 is a malformed line (answered with an error), not a crash
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")
    session = EngineSession(engine_name(level), choose, prepare=prepare)
    sys.exit(serve(session, sys.stdin, sys.stdout))


@click.command("match", short_help="Play a match between two engine programs.")
@click.argument("program_a")
@click.argument("program_b")
@click.option("--variant", "-v", default="standard", show_default=True, help="Variant name.")
@click.option("--games", "-n", type=int, default=20, show_default=True, help="Games (even).")
@click.option(
    "--time", "-t", "seconds", type=float, default=1.0, show_default=True, help="Seconds a move."
)
@click.option(
    "--grace",
    type=float,
    default=0.5,
    show_default=True,
    help="Seconds a reply may come after its time (the pipe, a busy machine).",
)
@click.option(
    "--startup",
    type=float,
    default=60.0,
    show_default=True,
    help="Seconds a program has to start and get ready for a game.",
)
@click.option(
    "--first-pair",
    type=int,
    default=0,
    show_default=True,
    help="Number of the first pair of games (the seed of its throws).",
)
@click.option(
    "--records",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("match-records"),
    show_default=True,
    help="Directory for the record of every game.",
)
def match_command(
    program_a: str,
    program_b: str,
    variant: str,
    games: int,
    seconds: float,
    grace: float,
    startup: float,
    first_pair: int,
    records: Path,
) -> None:
    """Play --games games between PROGRAM_A and PROGRAM_B (command lines, such as
    "senet engine --level expert"), in pairs with the same throws and the seats swapped;
    print each game, the score with its 95% interval and the Elo difference."""
    from .match import (
        GameResult,
        MatchError,
        MatchSettings,
        game_line,
        play_match,
        record_path,
        summary_lines,
    )

    try:
        name = find_variant(variant).name
    except UnknownVariant:
        raise click.BadParameter(f"one of {', '.join(VARIANTS)}", param_hint="--variant") from None
    if seconds <= 0 or grace < 0 or startup <= 0:
        raise click.BadParameter("--time and --startup are positive, --grace not negative")
    settings = MatchSettings(name, games, seconds, grace, startup, first_pair)
    records.mkdir(parents=True, exist_ok=True)

    def on_game(game: GameResult, names: tuple[str, str]) -> None:
        record_path(records, game).write_text(game.record.text(), encoding="utf-8")
        click.echo(game_line(game, names))

    try:
        result = play_match(
            (shlex.split(program_a), shlex.split(program_b)), settings, on_game=on_game
        )
    except MatchError as exc:
        raise click.ClickException(str(exc)) from None
    for line in summary_lines(result):
        click.echo(line)
    click.echo(f"records: {records}/game-*.senet")


COMMANDS = [engine_command, match_command]
