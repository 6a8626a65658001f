"""The one write path for actions on a real PostgreSQL: the one-statement append (straight
through asyncpg) keeps every promise of the append (tests/service/append_races.py, the same
scenarios as on SQLite): all or nothing, exactly one of racing appends, the result columns with
the last actions, every acknowledged append kept when its writer is killed.  And the two
backends cannot drift: one sequence of appends leaves the same rows on SQLite and on
PostgreSQL."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from service import append_races

from senet.service.games import storage as game_database
from senet.service.games.sqlite_writer import PgAppender


def run(coro: Any) -> Any:
    """On a fresh event loop in a thread (a session's Playwright may own this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def test_postgresql_takes_the_one_statement_backend(pg_url: str) -> None:
    async def main() -> None:
        storage = await append_races.storage_on(pg_url)
        assert isinstance(storage._appender, PgAppender)
        await storage.close()

    run(main())


@pytest.mark.parametrize("scenario", append_races.SCENARIOS, ids=lambda f: f.__name__)
def test_the_append_keeps_its_promises_on_postgresql(pg_url: str, scenario: Any) -> None:
    run(scenario(pg_url))


def test_one_sequence_of_appends_leaves_the_same_rows_on_both_backends(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every column of the games' rows and of their actions' rows, times included (the same
    clock on both), after appends with seeds, clocks, a finish, a resignation of a listed game
    and conflicts."""
    sqlite_url = f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}"
    found = []
    for url in (sqlite_url, pg_url):
        prefix = "d" + secrets.token_hex(4)
        monkeypatch.setattr(game_database, "_now", append_races.fixed_times())
        ids = run(append_races.play_a_sequence(url, prefix))
        found.append(run(append_races.stored_rows(url, ids, prefix)))
    on_sqlite, on_pg = found
    assert len(on_sqlite) == 2 + 6 + 2  # two games, their actions
    assert on_sqlite == on_pg
    resigned = next(row for row in on_pg if row.get("id") == "l")
    assert (resigned["termination"], resigned["listed"]) == ("resignation", False)  # left the lobby
