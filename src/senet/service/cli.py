"""``senet verify FILE``: recompute every throw of a finished game from its revealed seed."""

from __future__ import annotations

from pathlib import Path

import click

from senet.engine import NotationError
from senet.engine.record import parse_record

from .verify import verify_record


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def verify(file: Path) -> None:
    """Check that every throw of a game record follows from its revealed seed."""
    try:
        record = parse_record(file.read_text(encoding="utf-8"))
    except NotationError as exc:
        raise click.ClickException(f"{file}: {exc}") from None
    result = verify_record(record)
    if result.problem:
        click.echo(f"NOT VERIFIED: {result.problem}")
    for mismatch in result.mismatches:
        click.echo(f"NOT VERIFIED: {mismatch}")
    if not result.ok:
        raise SystemExit(1)
    click.echo(f"verified: the seed matches the commitment and all {result.throws_checked} throws follow from it")


COMMANDS = [verify]
