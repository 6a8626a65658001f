"""Open games and quick pairing in storage, on SQLite (the same races on PostgreSQL are in
tests/multiprocess/test_lobby_pg.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from senet.service.games.storage import Storage
from senet_testkit.loops import run as run_coroutine

from . import lobby_races


@pytest.mark.parametrize(
    "race",
    [
        lobby_races.racing_takers_take_once,
        lobby_races.askers_are_paired_two_by_two,
        lobby_races.an_asker_is_not_paired_with_itself,
        lobby_races.a_cancel_and_takers_race,
    ],
)
def test_lobby_races_on_sqlite(tmp_path: Path, race: Callable[[Storage], Awaitable[None]]) -> None:
    async def main() -> None:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'lobby.sqlite3'}")
        await storage.init()
        try:
            await race(storage)
        finally:
            await storage.close()

    run_coroutine(main())
