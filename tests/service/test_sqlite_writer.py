"""The one write path for actions on SQLite, the embedded default's batched writer: the
append's promises (tests/service/append_races.py, run on PostgreSQL too), appends waiting
together stored in one transaction, each all or nothing on its own (a conflicting one is
rolled back alone), and times stored as the schema's DateTime stores them, read back by the
SQLAlchemy side."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from senet.service.games.sqlite_writer import SqliteAppender
from senet.service.games.storage import ConflictError, NewGame, Storage, StoredAction
from senet.service.messages import ActionKind, Finish, Mode

from . import append_races


def run(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def batch(ply: int, move: str) -> list[StoredAction]:
    return [
        StoredAction(ply, ActionKind.MOVE, 0, move),
        StoredAction(ply + 1, ActionKind.THROW, 1, "3", 7),
    ]


@pytest.mark.parametrize("scenario", append_races.SCENARIOS, ids=lambda f: f.__name__)
def test_the_append_keeps_its_promises_on_sqlite(tmp_path: Path, scenario: Any) -> None:
    run(scenario(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"))


def test_racing_appends_in_one_batch_store_exactly_one_each(tmp_path: Path) -> None:
    async def main() -> None:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        assert isinstance(storage._appender, SqliteAppender)  # a SQLite file: the batched writer
        ids = [f"g{i}" for i in range(30)]
        for game_id in ids:
            await storage.create_game(NewGame(game_id, "standard", Mode.FRIEND, "0" * 64, "0" * 64))
        # Every game: two appends race for ply 0 (one of them must lose), in one batch.
        racers = [storage.append(g, 0, batch(0, move)) for g in ids for move in ("9-12", "8-11")]
        outcomes = await asyncio.gather(*racers, return_exceptions=True)
        for i in range(len(ids)):
            first, second = outcomes[2 * i], outcomes[2 * i + 1]
            assert first is None and isinstance(second, ConflictError), (first, second)
        finished = Finish("A", "r", 1, 0)
        await storage.append(ids[0], 2, batch(2, "10-13"), finished, player_seeds="s")
        with pytest.raises(ConflictError):
            await storage.append(ids[0], 2, batch(2, "10-13"))
        game = await storage.get_game(ids[0])
        assert game is not None
        assert game.ply == 4 and [a.notation for a in game.actions] == ["9-12", "3", "10-13", "3"]
        assert (game.result, game.score_a, game.player_seeds) == ("A", 1, "s")
        assert all(isinstance(a.created_at, datetime) for a in game.actions)
        assert isinstance(game.updated_at, datetime) and game.updated_at >= game.created_at
        other = await storage.get_game(ids[1])
        assert other is not None and other.ply == 2 and other.result is None
        await storage.close()

    run(main())


def test_the_log_is_copied_into_the_database_file_in_a_thread_every_so_many_appends(
    tmp_path: Path,
) -> None:
    """The commits (in the event loop) never checkpoint the write-ahead log; after
    CHECKPOINT_EVERY appends a passive checkpoint in the appender's thread copies it into the
    database file: read with the log ignored, the file has every action stored so far."""
    import sqlite3

    db = tmp_path / "db.sqlite3"

    def in_file_alone() -> int:  # the database file as it is, without its log
        conn = sqlite3.connect(f"file:{db}?immutable=1", uri=True)
        try:
            return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])
        finally:
            conn.close()

    async def main() -> None:
        storage = Storage(f"sqlite+aiosqlite:///{db}")
        await storage.init()
        appender = storage._appender
        assert appender is not None
        appender.CHECKPOINT_EVERY = 4
        for i in range(3):
            await storage.create_game(NewGame(f"g{i}", "standard", Mode.FRIEND, "0" * 64, "0" * 64))
        setup = sqlite3.connect(db)  # the schema and the games into the file: a clean start
        setup.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        setup.close()
        for i in range(3):
            await storage.append(f"g{i}", 0, batch(0, "9-12"))
        assert appender._checkpointing is None and in_file_alone() == 0  # all in the log
        await storage.append("g0", 2, batch(2, "10-13"))  # the fourth: a checkpoint
        assert appender._checkpointing is not None
        await appender._checkpointing
        assert in_file_alone() == 8
        await storage.close()

    run(main())


def test_times_are_stored_as_the_schema_stores_them(tmp_path: Path) -> None:
    """The writer's times are the text SQLAlchemy's DateTime writes on SQLite (the game's
    ``created_at``, written by SQLAlchemy, beside the append's ``updated_at`` and the actions'
    ``created_at``), so every reader of the file reads one format."""
    import sqlite3

    db = tmp_path / "db.sqlite3"

    async def main() -> None:
        storage = Storage(f"sqlite+aiosqlite:///{db}")
        await storage.init()
        await storage.create_game(NewGame("g", "standard", Mode.FRIEND, "0" * 64, "0" * 64))
        await storage.append("g", 0, batch(0, "9-12"))
        await storage.close()

    run(main())
    conn = sqlite3.connect(db)
    try:
        created, updated = conn.execute("SELECT created_at, updated_at FROM games").fetchone()
        stamps = [r[0] for r in conn.execute("SELECT created_at FROM actions")]
    finally:
        conn.close()
    pattern = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")
    assert pattern.fullmatch(created), created  # SQLAlchemy's own format
    assert pattern.fullmatch(updated) and stamps == [updated, updated], (updated, stamps)
    assert updated >= created


def test_a_database_in_memory_is_refused_with_its_reason() -> None:
    """The writer has a connection of its own: it could not share a database in memory."""

    async def main() -> None:
        storage = Storage("sqlite+aiosqlite:///:memory:")
        with pytest.raises(ValueError, match="in memory"):
            await storage.init()
        assert storage.engine is None  # refused before anything was opened

    run(main())
