"""Backups of the site's database, made while the site serves, and their restore.

* **SQLite** (the embedded default): SQLite's online backup API (``sqlite3.Connection.backup``)
  copies the database in one step from a read transaction, so the copy is one consistent
  snapshot — every action committed before that transaction began, none after — while the
  site goes on writing (in WAL mode a reader never blocks the writer).  The copy is then checked
  with ``PRAGMA integrity_check``.  A restore copies a backup into the database file the same
  way; the site must be stopped (its processes keep the file open).
* **PostgreSQL**: ``pg_dump --format=custom`` (one transaction at the serializable snapshot of
  its start, so also consistent while the site serves), and ``pg_restore --clean --if-exists
  --no-owner`` into the database of the URL.  The server's own ``pg_dump`` and ``pg_restore``
  are used (on ``PATH`` or in ``/usr/lib/postgresql/*/bin``); the URL's password, if any, is
  passed in the environment (``PGPASSWORD``), never on the command line.

After a restore, ``senet serve`` (or ``senet migrate``) brings the schema to head as usual.
"""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

__all__ = ["BackupError", "BackupReport", "backup", "restore"]


class BackupError(Exception):
    """A backup or restore that could not be made; the message says why."""


@dataclass(frozen=True)
class BackupReport:
    """What a backup holds (or what a restore wrote)."""

    path: Path
    backend: str  # sqlite | postgresql
    games: int | None  # counted in the SQLite copy; None for a PostgreSQL dump
    actions: int | None


def _sqlite_path(database_url: str) -> Path | None:
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return None
    if not url.database or url.database == ":memory:":
        raise BackupError(f"{database_url}: an in-memory database has nothing to back up")
    return Path(url.database)


def _counts(path: Path) -> tuple[int | None, int | None]:
    try:
        return _counted(path)
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path}: not a readable SQLite database ({exc})") from None


def _counted(path: Path) -> tuple[int | None, int | None]:
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        games = (
            conn.execute("SELECT count(*) FROM games").fetchone()[0] if "games" in tables else None
        )
        actions = (
            conn.execute("SELECT count(*) FROM actions").fetchone()[0]
            if "actions" in tables
            else None
        )
    return games, actions


def _copy_sqlite(source: Path, target: Path) -> None:
    """``source`` copied into ``target`` by the online backup API, checked afterwards."""
    if not source.is_file():
        raise BackupError(f"{source}: no such database file")
    try:
        src = sqlite3.connect(source)  # only read: the backup takes a read transaction
        try:
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)  # every page in one step: one read transaction, one snapshot
                dst.execute("PRAGMA journal_mode=WAL")  # as the site opens its database
                status = dst.execute("PRAGMA integrity_check").fetchone()[0]
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{source}: not a readable SQLite database ({exc})") from None
    if status != "ok":
        raise BackupError(f"{target}: the copy failed its integrity check: {status}")


def _pg_tool(name: str) -> str:
    found = shutil.which(name) or next(
        iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True)), None
    )
    if not found:
        raise BackupError(
            f"PostgreSQL's {name} is not installed (apt-get install postgresql-client)"
        )
    return found


def _pg_args(database_url: str) -> tuple[list[str], dict[str, str]]:
    """libpq's connection options for ``database_url`` and the environment with its password."""
    url = make_url(database_url)
    args = ["--dbname", url.database or "postgres"]
    if url.host:
        args += ["--host", url.host]
    if url.port:
        args += ["--port", str(url.port)]
    if url.username:
        args += ["--username", url.username]
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    return args, env


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()}")


def _pg_query(args: list[str], env: dict[str, str], sql: str) -> str:
    done = subprocess.run(
        [_pg_tool("psql"), *args, "--tuples-only", "--no-align", "--command", sql],
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise BackupError(f"psql failed: {done.stderr.strip()}")
    return done.stdout.strip()


def _pg_holds_games(args: list[str], env: dict[str, str]) -> bool:
    if _pg_query(args, env, "SELECT to_regclass('public.games') IS NOT NULL") != "t":
        return False
    return _pg_query(args, env, "SELECT EXISTS (SELECT 1 FROM games)") == "t"


def backup(database_url: str, path: Path) -> BackupReport:
    """Write a consistent copy of the database of ``database_url`` to ``path`` (a new file:
    an existing one is refused, so that no backup is overwritten by mistake)."""
    if path.exists():
        raise BackupError(f"{path} exists already: choose a new file")
    source = _sqlite_path(database_url)
    path.parent.mkdir(parents=True, exist_ok=True)
    if source is not None:
        try:
            _copy_sqlite(source, path)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        games, actions = _counts(path)
        return BackupReport(path, "sqlite", games, actions)
    args, env = _pg_args(database_url)
    try:
        _run([_pg_tool("pg_dump"), "--format=custom", "--file", str(path), *args], env)
    except BaseException:
        path.unlink(missing_ok=True)
        raise
    return BackupReport(path, "postgresql", None, None)


def restore(database_url: str, path: Path, replace: bool = False) -> BackupReport:
    """Restore the backup at ``path`` into the database of ``database_url``; the site must
    be stopped.  A database that already holds games is only replaced with ``replace``."""
    if not path.is_file():
        raise BackupError(f"{path}: no such backup")
    target = _sqlite_path(database_url)
    if target is not None:
        if target.exists() and not replace and (_counts(target)[0] or 0) > 0:
            raise BackupError(f"{target} holds games: pass --replace to overwrite it")
        target.parent.mkdir(parents=True, exist_ok=True)
        # copied beside the database first: a backup that cannot be read leaves it as it was
        fresh = target.with_name(target.name + ".restoring")
        fresh.unlink(missing_ok=True)
        try:
            _copy_sqlite(path, fresh)
            with sqlite3.connect(fresh) as conn:  # one file: its log folded in
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                conn.execute("PRAGMA journal_mode=DELETE")
            for stale in (Path(f"{target}-wal"), Path(f"{target}-shm")):
                stale.unlink(missing_ok=True)
            os.replace(fresh, target)
        finally:
            fresh.unlink(missing_ok=True)
        games, actions = _counts(target)
        return BackupReport(target, "sqlite", games, actions)
    args, env = _pg_args(database_url)
    if not replace and _pg_holds_games(args, env):
        raise BackupError("the database holds games: pass --replace to overwrite it")
    _run(
        [
            _pg_tool("pg_restore"),
            "--clean",
            "--if-exists",
            "--no-owner",
            "--exit-on-error",
            *args,
            str(path),
        ],
        env,
    )
    return BackupReport(path, "postgresql", None, None)
