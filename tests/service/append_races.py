"""The append's promises, for each backend of the one write path: SQLite
(tests/service/test_sqlite_writer.py) and PostgreSQL (tests/multiprocess/test_storage_pg.py).

Each scenario takes a database URL whose schema is at the head (or will be made so) and plays
fresh games (new ids), so several can share one database: an append stores its actions and
what came with them together; one at an old ply stores nothing; of racing appends (in one
storage, or from several as from several processes) exactly one is stored; one whose ply is
in ``actions`` already (written around the game row's bookkeeping) stores nothing; and every
append a writer was told is stored survives that writer being killed (SIGKILL, no shutdown).
:func:`stored_rows` reads back everything a sequence of appends left, to compare backends."""

from __future__ import annotations

import asyncio
import secrets
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert, select

from senet.service.database.schema import actions, games
from senet.service.games.storage import ConflictError, NewGame, Storage, StoredAction
from senet.service.messages import ActionKind, ClockColumns, Finish, Mode


async def storage_on(url: str) -> Storage:
    storage = Storage(url)
    await storage.init()
    return storage


async def new_game(storage: Storage, game_id: str | None = None, listed: bool = False) -> str:
    game_id = game_id or "t" + secrets.token_hex(6)
    await storage.create_game(
        NewGame(game_id, "standard", Mode.FRIEND, "0" * 64, "0" * 64, listed=listed)
    )
    return game_id


def batch(ply: int, move: str = "9-12") -> list[StoredAction]:
    return [
        StoredAction(ply, ActionKind.MOVE, 0, move),
        StoredAction(ply + 1, ActionKind.THROW, 1, "3", 7),
    ]


async def actions_of(storage: Storage, game_id: str) -> list[tuple[Any, ...]]:
    game = await storage.get_game(game_id)
    assert game is not None
    return [(a.ply, str(a.kind), a.seat, a.notation, a.pattern) for a in game.actions]


async def stores_the_actions_and_the_result_together(url: str) -> None:
    storage = await storage_on(url)
    try:
        game_id = await new_game(storage)
        await storage.append(game_id, 0, batch(0), player_seeds="seeds")
        await storage.append(game_id, 2, batch(2, "12-15"), Finish("A", "all borne off", 1, 0))
        assert await actions_of(storage, game_id) == [
            (0, "move", 0, "9-12", None),
            (1, "throw", 1, "3", 7),
            (2, "move", 0, "12-15", None),
            (3, "throw", 1, "3", 7),
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
        assert game.player_seeds == "seeds"
        assert all(isinstance(a.created_at, datetime) for a in game.actions)
        assert game.updated_at >= game.created_at
        assert await storage.head(game_id) == (4, None)
    finally:
        await storage.close()


async def an_append_at_an_old_ply_stores_nothing(url: str) -> None:
    storage = await storage_on(url)
    try:
        game_id = await new_game(storage)
        await storage.append(game_id, 0, batch(0))
        for ply in (0, 1, 3):  # behind, inside, ahead of the stored plies
            with pytest.raises(ConflictError):
                await storage.append(game_id, ply, batch(ply, "1-4"), Finish("B", "r", 0, 1))
        assert len(await actions_of(storage, game_id)) == 2
        assert await storage.head(game_id) == (2, None)
        game = await storage.get_game(game_id)
        assert game is not None and game.result is None
    finally:
        await storage.close()


async def racing_appends_in_one_storage_store_exactly_one_each(url: str) -> None:
    """Thirty games, two appends racing for ply 0 of each, all at once in one storage (on
    SQLite: one batch of the writer; each conflicting one rolled back alone)."""
    storage = await storage_on(url)
    try:
        ids = [await new_game(storage) for _ in range(30)]
        racers = [storage.append(g, 0, batch(0, move)) for g in ids for move in ("9-12", "8-11")]
        outcomes = await asyncio.gather(*racers, return_exceptions=True)
        for i, game_id in enumerate(ids):
            results = outcomes[2 * i : 2 * i + 2]
            assert sum(r is None for r in results) == 1, results
            assert all(isinstance(r, ConflictError) for r in results if r is not None)
            won = "9-12" if results[0] is None else "8-11"
            assert [row[3] for row in await actions_of(storage, game_id)] == [won, "3"]
            assert await storage.head(game_id) == (2, None)
    finally:
        await storage.close()


async def racing_writers_store_exactly_one(url: str, writers: int = 5, rounds: int = 10) -> None:
    """Ten rounds of five writers (separate storages, as separate processes) racing for one
    ply of one game."""
    storages = [await storage_on(url) for _ in range(writers)]
    try:
        game_id = await new_game(storages[0])
        ply = 0
        for _ in range(rounds):
            moves = [f"{k + 1}-{k + 4}" for k in range(writers)]
            results = await asyncio.gather(
                *(w.append(game_id, ply, batch(ply, m)) for w, m in zip(storages, moves)),
                return_exceptions=True,
            )
            won = [m for m, r in zip(moves, results) if r is None]
            assert len(won) == 1, results
            assert all(isinstance(r, ConflictError) for r in results if r is not None)
            stored = await actions_of(storages[0], game_id)
            assert len(stored) == ply + 2 and stored[ply][3] == won[0]
            ply += 2
    finally:
        for w in storages:
            await w.close()


async def a_ply_stored_already_makes_the_whole_append_fail(url: str) -> None:
    """If ``actions`` already holds one of the plies (written around the game row's
    bookkeeping), the append fails as a whole: ConflictError, the game row not advanced, its
    other action not stored."""
    storage = await storage_on(url)
    try:
        game_id = await new_game(storage)
        assert storage.engine is not None
        async with storage.engine.begin() as conn:
            await conn.execute(
                insert(actions).values(
                    game_id=game_id,
                    ply=1,
                    kind="throw",
                    seat=1,
                    notation="2",
                    created_at=datetime.now(UTC),
                )
            )
        with pytest.raises(ConflictError):
            await storage.append(game_id, 0, batch(0), Finish("A", "r", 1, 0))
        assert await storage.head(game_id) == (0, None)
        assert await actions_of(storage, game_id) == [(1, "throw", 1, "2", None)]
        game = await storage.get_game(game_id)
        assert game is not None and game.result is None
    finally:
        await storage.close()


#: a writer that appends ``n`` moves and throws to a game, says each is stored, and is then
#: killed (SIGKILL: no close, no checkpoint, no shutdown of any kind)
_WRITER = """
import asyncio, os, signal, sys
from senet.service.games.storage import Storage, StoredAction
from senet.service.messages import ActionKind

async def main(url, game_id, n):
    storage = Storage(url)
    await storage.init(migrate=False)
    for k in range(n):
        ply = 2 * k
        await storage.append(game_id, ply, [
            StoredAction(ply, ActionKind.MOVE, 0, f"{k}-{k + 3}"),
            StoredAction(ply + 1, ActionKind.THROW, 1, "3", 7),
        ])
        print(ply + 2, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
"""


async def acknowledged_appends_survive_the_writer_being_killed(url: str, n: int = 40) -> None:
    storage = await storage_on(url)
    try:
        game_id = await new_game(storage)
    finally:
        await storage.close()
    writer = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-c", _WRITER, url, game_id, str(n)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert writer.returncode == -9, writer.stderr
    assert [int(line) for line in writer.stdout.split()] == [2 * (k + 1) for k in range(n)]
    # a fresh storage, as the restarted process: every append it was told of is there
    again = await storage_on(url)
    try:
        stored = await actions_of(again, game_id)
        assert [row[0] for row in stored] == list(range(2 * n))
        assert [row[3] for row in stored[::2]] == [f"{k}-{k + 3}" for k in range(n)]
        assert await again.head(game_id) == (2 * n, None)
    finally:
        await again.close()


SCENARIOS = [
    stores_the_actions_and_the_result_together,
    an_append_at_an_old_ply_stores_nothing,
    racing_appends_in_one_storage_store_exactly_one_each,
    racing_writers_store_exactly_one,
    a_ply_stored_already_makes_the_whole_append_fail,
    acknowledged_appends_survive_the_writer_being_killed,
]


# ---------------------------------------------------------------------- drift between backends
def fixed_times() -> Callable[[], datetime]:
    """The storage's clock for :func:`play_a_sequence`: the same times, in turn, on each
    backend (a second and a microsecond apart)."""
    times = iter([datetime(2026, 3, 1, 12, 0, s, 250_000 + s, tzinfo=UTC) for s in range(60)])
    return lambda: next(times)


async def play_a_sequence(url: str, prefix: str) -> list[str]:
    """One sequence of appends (with every kind of column an append sets, and conflicts) on
    fresh games named ``prefix...``; returns their ids."""
    storage = await storage_on(url)
    clock_a: ClockColumns = {
        "clock_a": 59_000,
        "clock_b": 60_000,
        "clock_seat": 1,
        "deadline": 10**12,
    }
    clock_b: ClockColumns = {
        "clock_a": 59_000,
        "clock_b": 58_500,
        "clock_seat": 0,
        "deadline": None,
    }
    try:
        plain, listed = f"{prefix}p", f"{prefix}l"
        await new_game(storage, plain)
        await new_game(storage, listed, listed=True)
        await storage.append(plain, 0, batch(0), player_seeds="ab:cd", clock=clock_a)
        with pytest.raises(ConflictError):
            await storage.append(plain, 0, batch(0, "1-4"))
        await storage.append(plain, 2, batch(2, "12-15"), clock=clock_b)
        await storage.append(plain, 4, batch(4, "15-18"), Finish("B", "all borne off", 0, 2))
        await storage.append(listed, 0, [StoredAction(0, ActionKind.THROW, 0, "pass", None)])
        await storage.append(
            listed,
            1,
            [StoredAction(1, ActionKind.MOVE, 1, "resign")],
            Finish("A", "resigned", 1, 0, termination="resignation"),
        )
        with pytest.raises(ConflictError):
            await storage.append(listed, 1, [StoredAction(1, ActionKind.MOVE, 1, "1-2")])
        return [plain, listed]
    finally:
        await storage.close()


def _utc(value: Any) -> Any:
    """A stored time as one value whatever the driver gives back (naive on SQLite)."""
    if isinstance(value, datetime):
        return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    return value


async def stored_rows(url: str, ids: list[str], prefix: str) -> list[Any]:
    """Every row the sequence left: the games' rows and their actions' (ids without the
    prefix, the actions' own key left out), times in UTC."""
    storage = await storage_on(url)
    try:
        assert storage.engine is not None
        async with storage.engine.connect() as conn:
            game_rows = (
                await conn.execute(select(games).where(games.c.id.in_(ids)).order_by(games.c.id))
            ).mappings()
            found: list[Any] = [
                {k: _utc(v) for k, v in row.items()} | {"id": row["id"][len(prefix) :]}
                for row in game_rows
            ]
            action_rows = (
                await conn.execute(
                    select(*(c for c in actions.c if c.name != "id"))
                    .where(actions.c.game_id.in_(ids))
                    .order_by(actions.c.game_id, actions.c.ply)
                )
            ).mappings()
            found += [
                {k: _utc(v) for k, v in row.items()} | {"game_id": row["game_id"][len(prefix) :]}
                for row in action_rows
            ]
        return found
    finally:
        await storage.close()
