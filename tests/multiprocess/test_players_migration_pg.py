"""The players' migration on a real PostgreSQL: a database from just before it, holding a game,
is upgraded to the head; the game is kept and plays on, and its seat can be linked to a name."""

from __future__ import annotations

import importlib
import secrets
from datetime import UTC, datetime

import asyncpg
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from senet.service.database.connections import upgrade_schema
from senet.service.games.live_games import hash_token
from senet.service.games.storage import Storage, games, seats
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService

from .test_cluster import _pg
from .test_storage_pg import run

BEFORE_PLAYERS = importlib.import_module(
    "senet.service.database.migrations.versions.0006_players"
).down_revision


def test_a_database_from_before_players_is_upgraded_and_keeps_its_games(pg_url: str) -> None:
    name = "before_players_" + secrets.token_hex(4)
    url = pg_url.rsplit("/", 1)[0] + "/" + name

    async def main() -> None:
        admin = await asyncpg.connect(_pg(pg_url))
        await admin.execute(f'CREATE DATABASE "{name}"')
        try:
            engine = create_async_engine(url)
            await upgrade_schema(engine, BEFORE_PLAYERS)
            now = datetime.now(UTC)
            async with engine.begin() as conn:
                await conn.execute(
                    insert(games).values(
                        id="oldgame",
                        variant="standard",
                        mode="friend",
                        ply=0,
                        secret="00" * 32,
                        commitment="11" * 32,
                        player_seeds="",
                        created_at=now,
                        updated_at=now,
                    )
                )
                for seat in (0, 1):
                    await conn.execute(
                        insert(seats).values(
                            game_id="oldgame",
                            seat=seat,
                            kind="human",
                            token_hash=hash_token(f"tok{seat}"),
                            claimed=True,
                        )
                    )
            await engine.dispose()
            storage = Storage(url)
            await storage.init()  # upgrades to the head
            service = GameService(storage, MemoryBroadcast(), computer_delay=0.0)
            await service.start()
            try:
                live = await service.store.load("oldgame")
                assert live.seats_of("tok0") == (0,) and live.ply == 0
                anna, _ = await service.players.take_name("Anna")
                await service.players.link(live, (0,), anna)
                assert [g.id for g in await service.players.games_of(anna)] == ["oldgame"]
                await service.commands.seed("oldgame", "tok0", "a")
                await service.commands.seed("oldgame", "tok1", "b")
                assert (await service.store.load("oldgame")).ply >= 1  # it plays on
                rated, seated = await service.players.seat_ratings(live)
                assert not rated and [(s.seat, s.name) for s in seated] == [(0, "Anna")]
            finally:
                await service.close()
                await storage.close()
        finally:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            await admin.close()

    run(main())
