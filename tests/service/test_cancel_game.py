"""Cancelling a game nobody has joined: the host leaves cleanly, the game and its link are gone,
everyone showing it is told; once the other seat is taken only resigning ends it, and a refused
cancel changes nothing.  (The race with an arriving friend is in ending_races.py, on SQLite and
PostgreSQL.)"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from senet.engine import parse_move
from senet.service.computer import choose_move
from senet.service.errors import GameError
from senet.service.games.clocks import UNTIMED, ManualClock
from senet.service.server import GameService

from . import ending_races
from .test_games_service import run, shut


async def service_on(db: Path) -> GameService:
    return await ending_races.service_on(f"sqlite+aiosqlite:///{db}", ManualClock())


def rows(db: Path, game_id: str) -> tuple[int, int, int]:
    """The game's rows in games, seats and actions."""
    with sqlite3.connect(db) as conn:
        return tuple(  # type: ignore[return-value]
            conn.execute(f"SELECT count(*) FROM {table} WHERE {key}=?", (game_id,)).fetchone()[0]
            for table, key in (("games", "id"), ("seats", "game_id"), ("actions", "game_id"))
        )


def test_the_host_cancels_a_game_nobody_joined(tmp_path: Path) -> None:
    async def main() -> None:
        db = tmp_path / "db.sqlite3"
        service = await service_on(db)
        created = await service.commands.create("kendall", "friend", "A")
        await service.commands.seed(created.game_id, created.token, "host's seed")
        assert rows(db, created.game_id) == (1, 2, 0)
        async with service.subscribe(created.game_id) as watching:
            await service.commands.cancel(created.game_id, created.token)
            assert await asyncio.wait_for(watching.get(), 5) == {"type": "cancelled"}
        assert rows(db, created.game_id) == (0, 0, 0)
        assert created.game_id not in service.store
        with pytest.raises(GameError) as err:
            await service.store.load(created.game_id)
        assert err.value.code == "unknown_game"
        # the friend's link leads nowhere: no seat to take
        with pytest.raises(GameError) as err:
            await service.commands.claim(created.game_id, created.invite or "")
        assert err.value.code == "unknown_game"
        # the host's tab closing afterwards is not an error (nobody to tell)
        await service.connected(created.game_id, created.seats, +1)
        await service.connected(created.game_id, created.seats, -1)
        await shut(service)

    run(main())


def test_cancelling_an_open_game_withdraws_it_from_the_lobby(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        created = await service.commands.create("bell", "friend", listed=True)
        other = await service.commands.create("bell", "friend", listed=True)
        assert {created.game_id, other.game_id} <= {g.id for g in await service.lobby.open_games()}
        async with service.broadcast.subscribe("lobby") as lobby:
            await service.commands.cancel(created.game_id, created.token)
            assert await asyncio.wait_for(lobby.get(), 5) == {"type": "lobby"}
        listed = {g.id for g in await service.lobby.open_games()}
        assert created.game_id not in listed and other.game_id in listed
        assert created.game_id not in {g.id for g in await service.lobby.watchable()}
        await shut(service)

    run(main())


def test_quick_pairing_stops_looking_when_the_seeker_cancels(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        seeker = await service.lobby.pair("standard", UNTIMED, [])
        assert seeker.waiting
        await service.commands.cancel(seeker.game_id, seeker.token)
        # the next asker is not paired into the cancelled game: they wait in a game of their own
        asker = await service.lobby.pair("standard", UNTIMED, [])
        assert asker.waiting and asker.game_id != seeker.game_id
        await shut(service)

    run(main())


@pytest.mark.parametrize("who", ["nobody", "a stranger", "the invitation"])
def test_only_the_host_may_cancel_and_a_refusal_changes_nothing(tmp_path: Path, who: str) -> None:
    async def main() -> None:
        db = tmp_path / "db.sqlite3"
        service = await service_on(db)
        created = await service.commands.create("standard", "friend", "B", listed=True)
        token = {"nobody": None, "a stranger": "x" * 43, "the invitation": created.invite}[who]
        with pytest.raises(GameError) as err:
            await service.commands.cancel(created.game_id, token)
        assert err.value.code == "forbidden" and err.value.status == 403
        assert rows(db, created.game_id) == (1, 2, 0)
        assert created.game_id in {g.id for g in await service.lobby.open_games()}
        # the invitation still seats the friend
        assert await service.commands.claim(created.game_id, created.invite or "")
        await shut(service)

    run(main())


@pytest.mark.parametrize("mode", ["friend (joined)", "computer", "local"])
def test_a_game_with_both_seats_taken_cannot_be_cancelled(tmp_path: Path, mode: str) -> None:
    async def main() -> None:
        db = tmp_path / "db.sqlite3"
        service = await service_on(db)
        created = await service.commands.create("standard", mode.split()[0], "A", seed="s")
        if mode == "friend (joined)":
            assert await service.commands.claim(created.game_id, created.invite or "")
        before = rows(db, created.game_id)
        with pytest.raises(GameError) as err:
            await service.commands.cancel(created.game_id, created.token)
        assert err.value.code == "joined" and err.value.status == 409
        assert rows(db, created.game_id) == before
        await service.commands.resign(created.game_id, created.token, 0)  # the way out
        assert (await service.store.load(created.game_id)).over
        with pytest.raises(GameError) as err:
            await service.commands.cancel(created.game_id, created.token)
        assert err.value.code == "game_over"
        await shut(service)

    run(main())


def test_a_cancelled_rematch_can_be_asked_for_again(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        game_id, tokens = await ending_races.friend_game(service)
        live = await service.store.load(game_id)
        rng = random.Random(3)
        while not live.position.is_over():
            d = live.position.decider
            move = choose_move(live.position, "greedy", rng).text()
            await service.commands.act(live.id, tokens[d], live.ply, parse_move(move))
        first_id, first_token = await service.commands.rematch(game_id, tokens[0])
        assert (await service.store.load(game_id)).stored.rematch_id == first_id
        async with service.subscribe(game_id) as old_game:
            await service.commands.cancel(first_id, first_token)
            # the finished game's page is told to read itself again: no rematch offered now
            message = await asyncio.wait_for(old_game.get(), 5)
        assert message["type"] == "update" and message.get("refresh")
        assert (await service.store.load(game_id)).stored.rematch_id is None
        # the other player asks: a new rematch, which the first player then joins
        second_id, token_b = await service.commands.rematch(game_id, tokens[1])
        assert second_id != first_id and token_b
        again_id, token_a = await service.commands.rematch(game_id, tokens[0])
        assert again_id == second_id and token_a
        assert (await service.store.load(second_id)).free_seat() is None
        await shut(service)

    run(main())
