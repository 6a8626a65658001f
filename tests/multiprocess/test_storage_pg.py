"""Storage on a real PostgreSQL: the one-statement append (straight through asyncpg) keeps every
promise of the transaction it replaces — all or nothing, exactly one of two racing appends,
the result columns with the last actions (exactly-once actions)."""

from __future__ import annotations

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import asyncpg
import pytest

from senet.service.games.storage import ConflictError, NewGame, Storage, StoredAction
from senet.service.messages import ActionKind, Finish, Mode

from .test_cluster import _pg, stored_actions


def run(coro: Any) -> Any:
    """On a fresh event loop in a thread (a session's Playwright may own this thread's loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def storage_on(pg_url: str, one_statement: bool) -> Storage:
    storage = Storage(pg_url)
    await storage.init()
    assert storage._pg is not None  # PostgreSQL takes the one-statement path
    if not one_statement:
        await storage._pg.close()
        storage._pg = None  # the SQLAlchemy transaction, as on SQLite
    return storage


async def new_game(storage: Storage) -> str:
    game_id = "t" + secrets.token_hex(6)
    await storage.create_game(NewGame(game_id, "standard", Mode.FRIEND, "0" * 64, "0" * 64))
    return game_id


def batch(ply: int, move: str = "9-12") -> list[StoredAction]:
    return [
        StoredAction(ply, ActionKind.MOVE, 0, move),
        StoredAction(ply + 1, ActionKind.THROW, 1, "3", 7),
    ]


@pytest.mark.parametrize("one_statement", [True, False], ids=["one-statement", "transaction"])
def test_append_stores_the_actions_and_the_result_together(
    pg_url: str, one_statement: bool
) -> None:
    async def main() -> None:
        storage = await storage_on(pg_url, one_statement)
        game_id = await new_game(storage)
        await storage.append(game_id, 0, batch(0))
        await storage.append(
            game_id,
            2,
            batch(2, "12-15"),
            Finish("A", "all borne off", 1, 0),
        )
        assert await stored_actions(pg_url, game_id) == [
            (0, "move", 0, "9-12"),
            (1, "throw", 1, "3"),
            (2, "move", 0, "12-15"),
            (3, "throw", 1, "3"),
        ]
        game = await storage.get_game(game_id)
        assert game is not None
        assert (game.ply, game.result, game.reason, game.score_a, game.score_b) == (
            4,
            "A",
            "all borne off",
            1,
            0,
        )
        assert [a.pattern for a in game.actions] == [None, 7, None, 7]
        assert await storage.head(game_id) == (4, None)
        await storage.close()

    run(main())


@pytest.mark.parametrize("one_statement", [True, False], ids=["one-statement", "transaction"])
def test_an_append_at_an_old_ply_stores_nothing(pg_url: str, one_statement: bool) -> None:
    async def main() -> None:
        storage = await storage_on(pg_url, one_statement)
        game_id = await new_game(storage)
        await storage.append(game_id, 0, batch(0))
        for ply in (0, 1, 3):  # behind, inside, ahead of the stored plies
            with pytest.raises(ConflictError):
                await storage.append(game_id, ply, batch(ply, "1-4"))
        assert len(await stored_actions(pg_url, game_id)) == 2
        assert await storage.head(game_id) == (2, None)
        await storage.close()

    run(main())


@pytest.mark.parametrize("one_statement", [True, False], ids=["one-statement", "transaction"])
def test_of_racing_appends_exactly_one_is_stored(pg_url: str, one_statement: bool) -> None:
    """Ten rounds of five writers (separate pools, as separate processes) racing for one ply."""

    async def main() -> None:
        writers = [await storage_on(pg_url, one_statement) for _ in range(5)]
        game_id = await new_game(writers[0])
        ply = 0
        for _ in range(10):
            moves = [f"{k + 1}-{k + 4}" for k in range(len(writers))]
            results = await asyncio.gather(
                *(w.append(game_id, ply, batch(ply, m)) for w, m in zip(writers, moves)),
                return_exceptions=True,
            )
            won = [m for m, r in zip(moves, results) if r is None]
            assert len(won) == 1, results
            assert all(isinstance(r, ConflictError) for r in results if r is not None)
            stored = await stored_actions(pg_url, game_id)
            assert len(stored) == ply + 2 and stored[ply][3] == won[0]
            ply += 2
        for w in writers:
            await w.close()

    run(main())


def test_the_one_statement_path_survives_a_unique_violation(pg_url: str) -> None:
    """If the actions table already holds a ply (written outside the game row's bookkeeping), the
    statement fails as a whole: ConflictError, and the game row is not advanced."""

    async def main() -> None:
        storage = await storage_on(pg_url, True)
        game_id = await new_game(storage)
        conn = await asyncpg.connect(_pg(pg_url))
        try:
            await conn.execute(
                "INSERT INTO actions (game_id, ply, kind, seat, notation, created_at) VALUES ($1, 1, 'throw', 1, '2', now())",
                game_id,
            )
        finally:
            await conn.close()
        with pytest.raises(ConflictError):
            await storage.append(game_id, 0, batch(0))
        assert await storage.head(game_id) == (0, None)
        assert len(await stored_actions(pg_url, game_id)) == 1
        await storage.close()

    run(main())
