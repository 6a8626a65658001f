"""The service layer's commands: ``senet verify FILE`` recomputes every throw of a finished game
from its revealed seed; ``senet worker`` runs the site's search jobs from the Redis queue;
``senet backup PATH`` and ``senet restore PATH`` copy the site's database while it serves and
put a copy back."""

from __future__ import annotations

from pathlib import Path

import click

from senet.engine import NotationError
from senet.service.database.backups import BackupError, BackupReport
from senet.service.database.backups import backup as make_backup
from senet.service.database.backups import restore as restore_backup
from senet.service.fairness.verify import verify_text


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


@click.command()
@click.option(
    "--url",
    envvar=None,
    default=None,
    help="The Redis of the job queue (default: the setting JOB_QUEUE_URL).",
)
@click.option(
    "--kinds",
    default=",".join(("computer", "hint", "analysis", "review")),
    show_default=True,
    help="The kinds of job this worker takes, first served first (e.g. computer,hint for a "
    "worker kept for live games).",
)
@click.option("--burst", is_flag=True, help="Stop once the queues are empty (tests, batch runs).")
@click.option(
    "--nice",
    default=0,
    show_default=True,
    type=click.IntRange(0, 19),
    help="CPU priority increment.",
)
def worker(url: str | None, kinds: str, burst: bool, nice: int) -> None:
    """Run the computer's moves, hints, analyses and reviews for the site's processes, taken
    from the Redis job queue (RQ) that ``senet serve`` processes with JOB_QUEUE_URL=redis://…
    fill; each job runs in a forked child of this process (which loaded the search once)."""
    import logging
    import os

    from senet.service.infrastructure.jobs.messages import KINDS
    from senet.service.infrastructure.jobs.redis_queue import run_worker
    from senet.settings import LOCAL_JOB_QUEUE, SettingError, Settings

    try:
        url = url or Settings.from_env().job_queue_url
    except SettingError as exc:
        raise click.ClickException(str(exc)) from None
    if url == LOCAL_JOB_QUEUE:
        raise click.ClickException(
            "no job queue to serve: set JOB_QUEUE_URL (or --url) to the Redis the servers use"
        )
    chosen = tuple(k.strip() for k in kinds.split(",") if k.strip())
    unknown = [k for k in chosen if k not in KINDS]
    if unknown or not chosen:
        raise click.ClickException(f"--kinds: choose among {', '.join(KINDS)}")
    if nice:
        os.nice(nice)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    ordered = tuple(kind for kind in KINDS if kind in chosen)
    click.echo(f"senet worker: {', '.join(ordered)} from {url.split('@')[-1]}")
    run_worker(url, ordered, burst=burst)


def _database_url(url: str | None) -> str:
    from senet.settings import SettingError, Settings

    if url:
        return url
    try:
        return Settings.from_env().database_url
    except SettingError as exc:
        raise click.ClickException(str(exc)) from None


_DATABASE = click.option(
    "--database",
    "database",
    default=None,
    help="The database's URL (default: the setting DATABASE_URL, as `senet serve` reads it).",
)


def _said(report: BackupReport, verb: str) -> str:
    held = (
        f": {report.games} games, {report.actions} actions"
        if report.games is not None and report.actions is not None
        else ""
    )
    return f"{verb} {report.path} ({report.backend}){held}"


@click.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
@_DATABASE
def backup(path: Path, database: str | None) -> None:
    """Write a consistent copy of the site's database to PATH (a new file) while the site
    serves: SQLite's online backup, or pg_dump on PostgreSQL."""
    try:
        report = make_backup(_database_url(database), path)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(_said(report, "backed up to"))


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@_DATABASE
@click.option("--replace", is_flag=True, help="Overwrite a database that already holds games.")
def restore(path: Path, database: str | None, replace: bool) -> None:
    """Put the backup at PATH into the site's database (stop the site first); `senet serve`
    then migrates it to the current schema."""
    try:
        report = restore_backup(_database_url(database), path, replace=replace)
    except BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(_said(report, "restored into"))


@click.command()
@click.option("--month", default=None, help="YYYY-MM (default: this month, in UTC).")
@click.option("--variant", default=None, help="One variant's games (default: every variant's).")
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write to this file (default: standard output).",
)
@click.option("--site", default="", help="The site's address, written in each record's Site tag.")
@_DATABASE
def export(
    month: str | None, variant: str | None, out: Path | None, site: str, database: str | None
) -> None:
    """Every game finished in a month, as NDJSON: one line a game, its metadata and its record
    (which `senet replay` and `senet verify` read), as GET /api/games/export serves it."""
    import asyncio
    import json
    import sys
    from datetime import UTC, datetime

    from senet.engine import UnknownVariant, find_variant
    from senet.service.games.storage import Storage
    from senet.service.players.storage import PlayerStorage
    from senet.service.reading.export import finished_games, month_bounds

    if month is None:
        now = datetime.now(UTC)
        month = f"{now.year:04d}-{now.month:02d}"
    try:
        month_bounds(month)
        if variant is not None:
            find_variant(variant)
    except (ValueError, UnknownVariant) as exc:
        raise click.ClickException(str(exc)) from None
    url = _database_url(database)

    async def run() -> int:
        storage = Storage(url)
        await storage.init(migrate=False)
        count = 0
        try:
            target = out.open("w", encoding="utf-8") if out is not None else sys.stdout
            try:
                games = finished_games(storage, PlayerStorage(storage), month, variant, site)
                async for game in games:
                    target.write(json.dumps(game, ensure_ascii=False) + "\n")
                    count += 1
            finally:
                if out is not None:
                    target.close()
        finally:
            await storage.close()
        return count

    count = asyncio.run(run())
    click.echo(f"{count} games of {variant or 'every variant'} finished in {month}", err=True)


COMMANDS = [verify, worker, backup, restore, export]
