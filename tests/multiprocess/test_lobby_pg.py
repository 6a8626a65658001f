"""Open games and quick pairing on a real PostgreSQL: the races of tests/service/lobby_races.py
through the connection pool (several transactions at once, as several processes would)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from service import lobby_races

from senet.service.games.storage import Storage

from .test_storage_pg import run


@pytest.mark.parametrize(
    "race",
    [
        lobby_races.racing_takers_take_once,
        lobby_races.askers_are_paired_two_by_two,
        lobby_races.an_asker_is_not_paired_with_itself,
        lobby_races.a_cancel_and_takers_race,
    ],
)
def test_lobby_races_on_postgresql(pg_url: str, race: Callable[[Storage], Awaitable[None]]) -> None:
    async def main() -> None:
        storage = Storage(pg_url)
        await storage.init()
        try:
            await race(storage)
        finally:
            await storage.close()

    run(main())
