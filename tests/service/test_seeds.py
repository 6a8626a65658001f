"""Player seeds, in the service layer with real SQLite storage: the seeds of two seats
given at once through two service instances (as two server processes would) start the game
exactly once; a database from before the seeds is migrated and its games play on unchanged."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from senet.engine import find_variant
from senet.service.database.connections import upgrade_schema
from senet.service.errors import GameError
from senet.service.fairness.throws import (
    FairDice,
    check_seed,
    commitment_of,
    encode_player_seeds,
    new_secret,
)
from senet.service.games.live_games import hash_token
from senet.service.games.seeding import seed_needed, seeds_of
from senet.service.games.storage import Storage, games, seats

from .test_games_service import count_actions, run, service_on, shut


@pytest.mark.parametrize(
    "seed", ["a", "x" * 64, " spaces inside ", "~!@#$%^&*()_+{}|\"<>?`-=[]\\;',./"]
)
def test_valid_seeds(seed: str) -> None:
    assert check_seed(seed) == seed


@pytest.mark.parametrize("seed", ["", "x" * 65, "a:b", ":", "new\nline", "\x7f", "é", None, 3])
def test_invalid_seeds(seed) -> None:
    with pytest.raises(ValueError):
        check_seed(seed)


def test_the_encoding_of_two_seats_seeds_is_unambiguous() -> None:
    """Different pairs never give the same HMAC message."""
    pairs = [("a", "b"), ("a:b", ""), ("ab", ""), ("a", ""), ("", "a"), ("b", "a")]
    encoded = {encode_player_seeds(p) for p in pairs if ":" not in p[0] + p[1]}
    assert len(encoded) == len([p for p in pairs if ":" not in p[0] + p[1]])
    dice = [
        FairDice("g", b"k" * 32, e, find_variant("standard").instrument) for e in sorted(encoded)
    ]
    assert len({tuple(d.throw(n)[0] for n in range(40)) for d in dice}) == len(dice)


def test_two_seeds_given_at_once_on_two_services_start_the_game_once(tmp_path: Path) -> None:
    """Each seed is stored once and the first throw exactly once."""
    db = tmp_path / "db.sqlite3"

    async def main() -> None:
        one, two = await service_on(db), await service_on(db)
        try:
            for round_ in range(8):
                created = await one.commands.create("standard", "local")
                await two.store.load(created.game_id)
                results = await asyncio.gather(
                    one.commands.seed(created.game_id, created.token, f"a{round_}", 0),
                    two.commands.seed(created.game_id, created.token, f"b{round_}", 1),
                    return_exceptions=True,
                )
                assert not [r for r in results if isinstance(r, BaseException)], results
                assert count_actions(db, created.game_id) == 1
                for service in (one, two):
                    live = await service.store.refresh(created.game_id)
                    assert live.ply == 1 and live.stored.player_seeds == f"a{round_}:b{round_}"
                    assert live.history[0].kind == "throw"
                with pytest.raises(GameError) as err:
                    await two.commands.seed(created.game_id, created.token, "late", 0)
                assert err.value.code == "not_seeding" and count_actions(db, created.game_id) == 1
        finally:
            await shut(one)
            await shut(two)

    run(main())


def test_a_database_from_before_the_seeds_is_migrated_and_its_games_play_on(tmp_path: Path) -> None:
    """Migration 0002 adds the seats' seeds; an old game (thrown at
    creation with one free PlayerSeeds string) keeps its throws and refuses seeds."""
    db = tmp_path / "old.sqlite3"
    secret = new_secret()

    async def make_old() -> None:
        engine = create_async_engine(f"sqlite+aiosqlite:///{db}")
        await upgrade_schema(engine, "0001")
        dice = FairDice(
            "oldgame",
            secret,
            "creator's free text: with colons",
            find_variant("standard").instrument,
        )
        pattern, value = dice.throw(0)
        now = datetime.now(UTC)
        async with engine.begin() as conn:
            await conn.execute(
                insert(games).values(
                    id="oldgame",
                    variant="standard",
                    mode="local",
                    level=None,
                    ply=1,
                    secret=secret.hex(),
                    commitment=commitment_of(secret),
                    player_seeds=dice.player_seeds,
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
                        token_hash=hash_token("tok"),
                        invite_token=None,
                        claimed=True,
                    )
                )
            await conn.exec_driver_sql(
                "INSERT INTO actions (game_id, ply, kind, seat, notation, pattern, created_at) "
                f"VALUES ('oldgame', 0, 'throw', 0, '{value}', {pattern}, '2026-11-29 10:00:00')"
            )
        await engine.dispose()

    run(make_old())
    with sqlite3.connect(db) as conn:
        assert "seed" not in [row[1] for row in conn.execute("PRAGMA table_info(seats)")]

    async def after() -> None:
        service = await service_on(db)  # upgrades to head
        live = await service.store.load("oldgame")
        assert live.ply == 1 and not live.seeding and seeds_of(live) == [None, None]
        assert seed_needed(live) == [False, False]
        assert live.dice().player_seeds == "creator's free text: with colons"
        with pytest.raises(GameError) as err:
            await service.commands.seed("oldgame", "tok", "late", 0)
        assert err.value.code == "not_seeding"
        assert (
            await service.storage.set_seed("oldgame", 0, "late") is False
        )  # the database refuses it too
        await shut(service)

    run(after())
    with sqlite3.connect(db) as conn:
        assert "seed" in [row[1] for row in conn.execute("PRAGMA table_info(seats)")]


class _RacingEngine:
    """An engine whose connections run ``hook`` once, right after their first statement: another
    process's append committing in the middle of a read."""

    def __init__(self, engine, hook) -> None:
        self.engine, self.hook, self.fired = engine, hook, False

    def connect(self):
        racing = self

        class _Conn:
            async def __aenter__(self):
                self.conn = await racing.engine.connect().__aenter__()
                return self

            async def __aexit__(self, *exc):
                return await self.conn.__aexit__(*exc)

            async def execute(self, *args, **kwargs):
                result = await self.conn.execute(*args, **kwargs)
                if not racing.fired:
                    racing.fired = True
                    await racing.hook()
                return result

        return _Conn()


def test_a_copy_read_while_the_first_throw_commits_has_the_seeds(tmp_path: Path) -> None:
    """A process that reads the game while another stores the first
    throw (games row before, actions after) still gets the seeds the throws derive from."""
    db = tmp_path / "db.sqlite3"

    async def main() -> None:
        one = await service_on(db)
        reader = Storage(f"sqlite+aiosqlite:///{db}")
        await reader.init()
        try:
            created = await one.commands.create("standard", "local")
            await one.commands.seed(created.game_id, created.token, "first", 0)
            real = reader.engine

            async def throw_now() -> None:
                await one.commands.seed(created.game_id, created.token, "second", 1)

            reader.engine = _RacingEngine(real, throw_now)  # type: ignore[assignment]
            stored = await reader.get_game(created.game_id)
            reader.engine = real
            assert stored is not None and stored.ply == 0  # the row was read before the throw
            assert [a.ply for a in stored.actions] == [0]  # the actions after it
            assert stored.player_seeds == "first:second"
        finally:
            await shut(one)
            await reader.close()

    run(main())
