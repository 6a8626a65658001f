"""Two service instances on one database, as two server processes are.

The process that stores an action announces it with the actions themselves; another process
brings its cached copy up to date from that message without reading the database
(``GameService.absorb``), and falls back to the database for anything it cannot apply.  A
process whose cached copy is behind never refuses an action the database would accept, and
never stores one the database has moved past.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from senet.engine import parse_move
from senet.service.errors import GameError
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService

from .test_games_service import count_actions, run, shut


class SharedMemoryBroadcast(MemoryBroadcast):
    """In-process delivery, but marked as shared: the service then acts as one of several."""

    shared = True


async def two_processes(db: Path) -> tuple[GameService, GameService]:
    services = []
    for _ in range(2):
        storage = Storage(f"sqlite+aiosqlite:///{db}")
        await storage.init()
        services.append(GameService(storage, SharedMemoryBroadcast(), computer_delay=0.0))
    return services[0], services[1]


async def friend_game(a: GameService, b: GameService) -> tuple[str, dict[int, str]]:
    created = await a.commands.create("standard", "friend", "A")
    claimed = await a.commands.claim(created.game_id, created.invite or "")
    assert claimed is not None
    for token, seed in (
        (created.token, "a"),
        (claimed[0], "b"),
    ):  # both seeds, then the first throw
        await a.commands.seed(created.game_id, token, seed)
    await b.store.load(created.game_id)  # process b has the game cached from here on
    return created.game_id, {0: created.token, 1: claimed[0]}


async def move_on_a(a: GameService, game_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play the first legal move through process a; returns the update message it published."""
    async with a.subscribe(game_id) as sub:
        live = await a.store.load(game_id)
        decider = live.position.decider
        await a.commands.act(
            game_id, tokens[decider], live.ply, parse_move(live.position.legal_moves()[0].text())
        )
        message = await asyncio.wait_for(sub.get(), 1)
    assert message["type"] == "update"
    return message


def forbid_reads(service: GameService) -> None:
    async def no(*_args: Any, **_kw: Any) -> Any:
        raise AssertionError("the database was read")

    service.storage.get_game = no  # type: ignore[method-assign]
    service.storage.head = no  # type: ignore[method-assign]


def test_an_update_carries_its_actions_and_another_process_applies_them_without_reading(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        a, b = await two_processes(tmp_path / "db.sqlite3")
        game_id, tokens = await friend_game(a, b)
        message = await move_on_a(a, game_id, tokens)
        before = b.store.cached(game_id).ply
        assert (
            message["from"] == before
            and message["ply"] == before + len(message["actions"]) > before
        )
        assert message["actions"][0][0] == "move" and all(
            x[0] == "throw" for x in message["actions"][1:]
        )
        reads = b.storage.get_game, b.storage.head
        forbid_reads(b)
        assert b.store.absorb(game_id, message) is True
        mirror, truth = b.store.cached(game_id), a.store.cached(game_id)
        assert mirror.ply == truth.ply and mirror.position == truth.position
        assert [(h.ply, h.kind, h.seat, h.notation, h.pattern) for h in mirror.history] == [
            (h.ply, h.kind, h.seat, h.notation, h.pattern) for h in truth.history
        ]
        assert (
            b.store.absorb(game_id, message) is True
        )  # a second socket of the same process: nothing to do
        assert b.store.cached(game_id).ply == truth.ply
        b.storage.get_game, b.storage.head = reads
        # and the copy is the database's: a fresh load agrees
        assert (await b.store.reload(game_id)).position == truth.position
        await shut(a)
        await shut(b)

    run(main())


def test_an_update_that_does_not_follow_the_cached_copy_is_not_applied(tmp_path: Path) -> None:
    async def main() -> None:
        a, b = await two_processes(tmp_path / "db.sqlite3")
        game_id, tokens = await friend_game(a, b)
        first = await move_on_a(a, game_id, tokens)
        second = await move_on_a(a, game_id, tokens)
        held = b.store.cached(game_id)
        before = (held.ply, held.position)
        # a gap (the first message was lost), forged or malformed actions: the copy stays as it is
        forged = dict(first, actions=[["move", 0, "30-off", None]] + first["actions"][1:])
        throw = next(i for i, a in enumerate(first["actions"]) if a[0] == "throw")
        other = (
            1 + int(first["actions"][throw][2]) % 4
        )  # another throw value than the committed one
        loaded = dict(
            first,
            actions=[
                a if i != throw else [a[0], a[1], str(other), a[3]]
                for i, a in enumerate(first["actions"])
            ],
        )
        for message in (
            second,
            forged,
            loaded,
            dict(first, actions="nonsense"),
            dict(first, actions=[["move"]]),
            dict(first, ply=first["ply"] + 1),
            {"type": "update", "ply": "x"},
        ):
            assert b.store.absorb(game_id, message) is False, message
            assert (held.ply, held.position) == before
        # what the caller does then: read the database, which has both moves
        assert (await b.store.load(game_id, second["ply"])).ply == second["ply"]
        await shut(a)
        await shut(b)

    run(main())


def test_a_process_whose_copy_is_behind_accepts_what_the_database_accepts(tmp_path: Path) -> None:
    """A player who saw the move (through process a) plays the next one through process b, whose
    copy missed the update: b checks against the database before refusing, and accepts."""

    async def main() -> None:
        a, b = await two_processes(tmp_path / "db.sqlite3")
        game_id, tokens = await friend_game(a, b)
        await move_on_a(a, game_id, tokens)  # b never hears of it
        truth = a.store.cached(game_id)
        assert b.store.cached(game_id).ply < truth.ply
        decider = truth.position.decider
        move = truth.position.legal_moves()[0].text()
        live = await b.commands.act(game_id, tokens[decider], truth.ply, parse_move(move))
        assert live.ply > truth.ply
        assert count_actions(tmp_path / "db.sqlite3", game_id) == live.ply
        await shut(a)
        await shut(b)

    run(main())


def test_a_process_whose_copy_is_behind_stores_nothing_for_an_outdated_ply(tmp_path: Path) -> None:
    async def main() -> None:
        a, b = await two_processes(tmp_path / "db.sqlite3")
        game_id, tokens = await friend_game(a, b)
        old = b.store.cached(game_id)
        old_ply, decider = old.ply, old.position.decider
        move = old.position.legal_moves()[-1].text()
        await move_on_a(a, game_id, tokens)  # b never hears of it
        stored = count_actions(tmp_path / "db.sqlite3", game_id)
        # b's copy says this is legal now; the database has moved on: stale, nothing stored
        with pytest.raises(GameError) as refused:
            await b.commands.act(game_id, tokens[decider], old_ply, parse_move(move))
        assert refused.value.code == "stale"
        assert count_actions(tmp_path / "db.sqlite3", game_id) == stored
        assert (await b.store.load(game_id)).ply == stored  # and b now holds the database's copy
        await shut(a)
        await shut(b)

    run(main())


def test_the_game_cache_is_bounded_and_keeps_the_games_someone_watches(tmp_path: Path) -> None:
    """The in-memory cache holds at most cache_size games; a game with a connection in
    this process stays; an evicted game comes back from the database unchanged."""

    async def main() -> None:
        a, _b = await two_processes(tmp_path / "db.sqlite3")
        a.store.cache_size = 2
        watched = await a.commands.create(
            "standard", "local", seed="s"
        )  # seeded, so thrown and cached
        async with a.subscribe(watched.game_id):
            kept: dict[str, tuple] = {}
            for variant in ("bell", "kendall", "adelaida"):
                created = await a.commands.create(variant, "local", seed="s")
                live = a.store.cached(created.game_id)
                kept[created.game_id] = (variant, live.ply, live.position)
            assert len(a.store) <= 3 and watched.game_id in a.store
            first = next(iter(kept))
            assert first not in a.store  # the least recently used unwatched game went first
            for game_id, (variant, ply, position) in kept.items():
                again = await a.store.load(game_id)  # from the database when it was dropped
                assert (again.game.variant.name, again.ply, again.position) == (
                    variant,
                    ply,
                    position,
                )
                assert len(a.store) <= 3 and watched.game_id in a.store
        await shut(a)
        await shut(_b)

    run(main())
