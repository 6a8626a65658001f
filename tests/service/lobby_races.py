"""Races on open games and quick pairing, written once for every database (SQLite here,
PostgreSQL in tests/multiprocess): exactly one taker, no seeker paired twice, never two
askers both left waiting, never a game both deleted by its host and taken."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from senet.service.games.storage import NewGame, NewSeat, Storage
from senet.service.messages import Mode, SeatKind

#: a friend game's seats: A taken, B free
ONE_FREE_SEAT = (
    NewSeat(0, SeatKind.HUMAN, "c" * 64),
    NewSeat(1, SeatKind.HUMAN, claimed=False),
)


def new_game(game_id: str, seats: tuple[NewSeat, ...] = ONE_FREE_SEAT, **extra: Any) -> NewGame:
    return NewGame(game_id, "standard", Mode.FRIEND, "0" * 64, "0" * 64, seats=seats, **extra)


async def open_game(storage: Storage) -> str:
    game_id = "o" + secrets.token_hex(6)
    await storage.create_game(new_game(game_id, listed=True))
    return game_id


async def racing_takers_take_once(storage: Storage, takers: int = 8) -> None:
    game_id = await open_game(storage)
    assert [g.id for g in await storage.listed_games()].count(game_id) == 1
    won = await asyncio.gather(
        *(storage.take_listed_seat(game_id, 1, f"{i:064x}") for i in range(takers))
    )
    assert won.count(True) == 1
    taken = await storage.get_game(game_id)
    assert taken is not None and not taken.listed
    seat = taken.seats[1]
    assert seat.claimed and seat.token_hash == f"{won.index(True):064x}"
    assert game_id not in [g.id for g in await storage.listed_games()]
    assert not await storage.take_listed_seat(game_id, 1, "f" * 64)  # and never again


async def askers_are_paired_two_by_two(storage: Storage, askers: int = 10) -> None:
    key = "standard|untimed|" + secrets.token_hex(4)

    async def ask(i: int) -> tuple[str, bool]:
        game_id = f"p{i}" + secrets.token_hex(5)
        paired = await storage.pair(key, f"{i:064x}", [], new_game(game_id))
        return (paired[0], True) if paired else (game_id, False)

    results = await asyncio.gather(*(ask(i) for i in range(askers)))
    created = [g for g, took in results if not took]
    taken = [g for g, took in results if took]
    assert len(created) == len(taken) == askers // 2  # nobody left waiting alone
    assert sorted(created) == sorted(taken)  # each waiting game taken exactly once
    for game_id in created:
        game = await storage.get_game(game_id)
        assert game is not None and not game.listed and game.pairing is None
        assert all(s.claimed for s in game.seats)


async def an_asker_is_not_paired_with_itself(storage: Storage) -> None:
    key = "kendall|move:30|" + secrets.token_hex(4)
    mine = "m" + secrets.token_hex(5)
    assert await storage.pair(key, "a" * 64, [], new_game(mine)) is None
    again = "n" + secrets.token_hex(5)
    assert await storage.pair(key, "a" * 64, [mine], new_game(again)) is None
    other = await storage.pair(key, "b" * 64, [], new_game("x" + secrets.token_hex(5), seats=()))
    assert other is not None and other[0] == mine  # the oldest seeker first


async def a_cancel_and_takers_race(storage: Storage, takers: int = 6) -> None:
    """Deleting an unjoined game while takers race for its seat, in concurrent transactions:
    either it is deleted and no taker got the seat, or one taker did and it stays."""
    for _ in range(4):
        game_id = await open_game(storage)
        answers = await asyncio.gather(
            storage.delete_unjoined(game_id),
            *(storage.take_listed_seat(game_id, 1, f"{i:064x}") for i in range(takers)),
        )
        deleted, taken = answers[0], answers[1:]
        stored = await storage.get_game(game_id)
        if deleted:
            assert stored is None and not any(taken)
            assert game_id not in [g.id for g in await storage.listed_games()]
        else:
            assert taken.count(True) == 1
            assert stored is not None and all(s.claimed for s in stored.seats)
