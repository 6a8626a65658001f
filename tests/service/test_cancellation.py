"""An action that has started finishes (or rolls back) whatever happens to whoever asked for it.

A WebSocket that closes cancels the task that was storing its move; a client that goes away
cancels its request.  Here the cancellation is injected at every await point of an action in
turn (the k-th time the action's coroutine suspends, the future it waits on is cancelled and
``CancelledError`` is thrown in, exactly what ``Task.cancel`` does), on SQLite and on a real
PostgreSQL.  After each: the game shown is the game stored, it accepts its next move at once,
another game does too, and a new game can be created — no transaction outlives the action.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Coroutine, Generator, Iterator
from typing import Any

import pytest

from senet.engine import parse_move
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService
from senet_testkit.loops import run
from senet_testkit.servers import postgres_server

#: "at once": far below SQLite's 5 s wait for a lock, far above a move's cost
AT_ONCE = 3.0


class CancelAt:
    """Await ``coro``, cancelling it at its ``k``-th suspension (counting from 0).

    ``injected`` says whether it suspended that often; if it did, awaiting raises whatever the
    coroutine lets out after the cancellation (normally ``CancelledError``)."""

    def __init__(self, coro: Coroutine[Any, Any, Any], k: int) -> None:
        self.coro, self.k, self.injected = coro, k, False

    def __await__(self) -> Generator[Any, Any, Any]:
        count = 0
        value: Any = None
        error: BaseException | None = None
        while True:
            try:
                if error is not None:
                    pending, error = error, None
                    yielded = self.coro.throw(pending)
                else:
                    yielded = self.coro.send(value)
            except StopIteration as stop:
                return stop.value
            if count == self.k and not self.injected:
                self.injected = True
                if isinstance(yielded, asyncio.Future):
                    yielded.cancel()
                error = asyncio.CancelledError()
                continue
            count += 1
            try:
                value = yield yielded
            except BaseException as exc:  # passed on into the coroutine
                error = exc


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]
)
def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('cancel') / 'senet.sqlite3'}"
    else:
        with postgres_server() as url:
            yield url


async def settle(baseline: set[asyncio.Task[Any]]) -> None:
    """Wait until every task started since ``baseline`` (an action left running) is done."""
    deadline = asyncio.get_running_loop().time() + AT_ONCE
    while True:
        extra = [t for t in asyncio.all_tasks() if t not in baseline and not t.done()]
        extra = [t for t in extra if t is not asyncio.current_task()]
        if not extra:
            return
        assert asyncio.get_running_loop().time() < deadline, f"still running: {extra}"
        await asyncio.wait(extra, timeout=0.05)


async def seated_game(service: GameService) -> tuple[str, dict[int, str]]:
    """A friend game with both seats taken and seeded: the first throw is made."""
    created = await service.commands.create("standard", "friend", "A")
    claimed = await service.commands.claim(created.game_id, created.invite or "")
    assert claimed is not None
    await service.commands.seed(created.game_id, created.token, "a")
    await service.commands.seed(created.game_id, claimed[0], "b")
    return created.game_id, {0: created.token, 1: claimed[0]}


async def next_move(service: GameService, game_id: str, tokens: dict[int, str]) -> None:
    """The decider plays its first legal move, at the ply shown; it must be stored at once."""
    live = await service.store.load(game_id)
    decider = live.position.decider
    assert decider is not None
    move = live.position.legal_moves()[0].text()
    await asyncio.wait_for(
        service.commands.act(game_id, tokens[decider], live.ply, parse_move(move)), AT_ONCE
    )


async def check_healthy(service: GameService, fresh: Storage, games: list[Any]) -> None:
    """Every game shows what is stored and takes its next move at once; creation works."""
    for game_id, tokens in games:
        stored = await fresh.get_game(game_id)
        assert stored is not None
        shown = await service.store.load(game_id)
        assert shown.ply == stored.ply, "the game shown is not the game stored"
        assert [s.claimed for s in shown.stored.seats] == [s.claimed for s in stored.seats]
        assert [s.seed for s in shown.stored.seats] == [s.seed for s in stored.seats]
        if not shown.seeding and not shown.position.is_over():
            await next_move(service, game_id, tokens)
    await asyncio.wait_for(service.commands.create("standard", "friend"), AT_ONCE)


Action = Callable[[GameService, str, dict[int, str]], Awaitable[Any]]


async def _move(service: GameService, game_id: str, tokens: dict[int, str]) -> Any:
    live = await service.store.load(game_id)
    decider = live.position.decider
    assert decider is not None
    move = live.position.legal_moves()[0].text()
    return await service.commands.act(game_id, tokens[decider], live.ply, parse_move(move))


ACTIONS: dict[str, Action] = {
    "move": _move,
    "claim": lambda s, g, t: s.commands.claim(g, t[-1]),
    "seed-and-first-throw": lambda s, g, t: s.commands.seed(g, t[1], "zz"),
    "create": lambda s, g, t: s.commands.create("standard", "friend"),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_cancelling_an_action_at_any_await_point_leaves_every_game_playable(
    database: str, action: str
) -> None:
    act = ACTIONS[action]

    async def main() -> None:
        storage = Storage(database)
        await storage.init()
        fresh = Storage(database)  # the truth, read through connections of its own
        await fresh.init(migrate=False)
        service = GameService(storage, MemoryBroadcast(), computer_delay=0.0)
        await service.start()
        try:
            bystander = await seated_game(service)
            k, injected = 0, True
            while injected:
                assert k < 200, "the action never completed: it suspends too often"
                if action == "claim":  # a game whose seat B is still free
                    created = await service.commands.create("standard", "friend", "A")
                    game_id = created.game_id
                    tokens = {0: created.token, -1: created.invite or ""}
                elif action == "seed-and-first-throw":  # B's seed will start the game
                    created = await service.commands.create("standard", "friend", "A")
                    await service.commands.seed(created.game_id, created.token, "a")
                    claimed = await service.commands.claim(created.game_id, created.invite or "")
                    assert claimed is not None
                    game_id, tokens = created.game_id, {0: created.token, 1: claimed[0]}
                else:
                    game_id, tokens = await seated_game(service)
                baseline = set(asyncio.all_tasks())
                cancel = CancelAt(act(service, game_id, tokens), k)  # type: ignore[arg-type]
                with contextlib.suppress(asyncio.CancelledError):
                    await cancel
                injected = cancel.injected
                await settle(baseline)
                await check_healthy(service, fresh, [(game_id, tokens), bystander])
                k += 1
            assert k >= 2, "the action had no await point to cancel at"
        finally:
            await service.close()
            await storage.close()
            await fresh.close()

    run(main())
