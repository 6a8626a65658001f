"""``senet verify FILE``: recompute every throw of a finished game from its revealed seed."""

from __future__ import annotations

from pathlib import Path

import click

from senet.engine import NotationError

from .verify import verify_text


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def verify(file: Path) -> None:
    """Check that every throw of a game record follows from its revealed seed."""
    try:
        result = verify_text(file.read_text(encoding="utf-8"))
    except NotationError as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    if result.problem:
        click.echo(f"NOT VERIFIED: {result.problem}")
    for mismatch in result.mismatches:
        click.echo(f"NOT VERIFIED: {mismatch}")
    if result.replay_error:
        click.echo(f"NOT VERIFIED: {result.replay_error}")
    if not result.ok:
        raise SystemExit(1)
    click.echo(
        f"verified: the seed matches the commitment and all {result.throws_checked} throws follow from it"
    )
    if result.player_seeds is not None:
        a, b = (repr(s) if s else "none (the computer's seat)" for s in result.player_seeds)
        click.echo(f"with both players' own seeds in every throw: A {a}, B {b}")


COMMANDS = [verify]
