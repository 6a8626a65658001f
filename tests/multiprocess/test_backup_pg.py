"""``senet backup`` (pg_dump) and ``senet restore`` (pg_restore) on PostgreSQL: a backup made
while the site stores moves holds every acknowledged action, restores into a fresh database, and
the restored site plays its games on to records that verify (the scenario:
``tests/service/backups.py``).  Two databases of their own on the package's server, so the
shared one is neither backed up with other tests' games nor overwritten."""

from __future__ import annotations

import uuid
from pathlib import Path

import asyncpg
from service.backups import backup_restore_and_play_on

from senet_testkit.loops import run as run_coroutine


async def create_database(pg_url: str, name: str) -> str:
    """A new, empty database beside the one of ``pg_url``; its URL."""
    base = pg_url.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(base.rsplit("/", 1)[0] + "/postgres")
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return pg_url.rsplit("/", 1)[0] + f"/{name}"


def test_a_backup_during_moves_restores_every_acknowledged_move_on_postgresql(
    pg_url: str, tmp_path: Path
) -> None:
    tag = uuid.uuid4().hex[:8]
    source = run_coroutine(create_database(pg_url, f"backup_source_{tag}"))
    target = run_coroutine(create_database(pg_url, f"backup_target_{tag}"))
    backup_restore_and_play_on(source, target, tmp_path)
