"""Forced passes played by the server, written once for every database (SQLite in tests/service,
PostgreSQL in tests/multiprocess).

When a pass is the decider's only legal move, the server plays it after its delay (on the
server's clock: a ManualClock here, so nothing waits for real time), through the same command
path as a player's move: the stored action is the ``pass`` the player could have sent.  A pass
the player sends first is stored and the server's is dropped; two processes never store two;
no clock runs meanwhile.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

from senet.engine import parse_move
from senet.service.computer import choose_move
from senet.service.errors import GameError
from senet.service.games.clocks import ManualClock, parse_time_control
from senet.service.games.live_games import LiveGame
from senet.service.games.storage import Storage
from senet.service.games.views import game_record
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.messages import ActionKind
from senet.service.server import GameService

from .viewing import state_for

DELAY = 1.5  # seconds: the site's default pace
DELAY_MS = 1500


class SharedMemoryBroadcast(MemoryBroadcast):
    """In-process delivery, marked as shared: each service acts as one of several processes."""

    shared = True


async def service_on(
    url: str,
    clock: ManualClock,
    delay: float | None = DELAY,
    shared: bool = False,
) -> GameService:
    storage = Storage(url)
    await storage.init()
    broadcast = SharedMemoryBroadcast() if shared else MemoryBroadcast()
    service = GameService(
        storage, broadcast, computer_delay=0.0, forced_pass_delay=delay, clock=clock
    )
    await service.start()
    return service


async def shut(*services: GameService) -> None:
    for service in services:
        await service.close()
        await service.storage.close()


async def until(predicate: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Wait for ``predicate`` (the server's tasks run meanwhile), failing after ``timeout``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.005)


def waits_exactly_for_what_is_due(service: GameService, live: LiveGame) -> None:
    """The server holds a task for the game exactly when a forced pass is due in it now (a
    task for an earlier ply was dropped when the game moved on)."""
    assert service.turns.busy(live.id) == live.forced_pass, (live.ply, live.forced_pass)


async def forced_pass_game(
    service: GameService, variant: str = "bell", time_control: str = "untimed"
) -> tuple[str, dict[int, str], LiveGame]:
    """A friend game played (greedy moves for both seats) until the decider's only legal move
    is a pass; with a ManualClock that does not move, the server has not played it yet."""
    rng = random.Random(5)
    for _ in range(20):  # the throws are the game's own: try another game if one ends first
        created = await service.commands.create(
            variant, "friend", "A", time_control=parse_time_control(time_control)
        )
        claimed = await service.commands.claim(created.game_id, created.invite or "")
        assert claimed is not None
        tokens = {0: created.token, 1: claimed[0]}
        for seat in (0, 1):
            await service.commands.seed(created.game_id, tokens[seat], f"seed {seat}")
        for _ in range(600):
            live = await service.store.load(created.game_id)
            if live.over:
                break
            if live.forced_pass:
                return created.game_id, tokens, live
            pos = live.position
            assert pos.decider is not None
            move = choose_move(pos, "greedy", rng).text()
            await service.commands.act(
                created.game_id, tokens[pos.decider], live.ply, parse_move(move)
            )
    raise AssertionError("no forced pass in 20 games")


def passes_at(live: LiveGame, ply: int) -> list:
    return [a for a in live.history if a.ply == ply]


# ---------------------------------------------------------------------- scenarios
async def server_plays_the_forced_pass_after_its_delay(url: str) -> None:
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        game_id, tokens, live = await forced_pass_game(service)
        ply, seat, throw = live.ply, live.position.decider, live.position.throw
        assert seat is not None
        # Every viewer is told who passes, with which throw, and why; the decider's legal
        # moves still hold the pass (an API client may send it).
        expected = {"ply": ply, "seat": seat, "throw": throw, "reason": "no_move"}
        for seats in ((), (seat,), (1 - seat,)):
            assert state_for(service, live, seats)["forced_pass"] == expected
        assert state_for(service, live, (seat,))["legal"] == ["pass"]
        assert service.turns.busy(game_id)
        # Not before its delay (the server's clock decides) ...
        await clock.advance(DELAY_MS - 1)
        for _ in range(20):
            await asyncio.sleep(0)
        assert (await service.store.load(game_id)).ply == ply and service.turns.busy(game_id)
        # ... then once, the same action a player's pass is, and the next throw after it.
        await clock.advance(1)
        await until(lambda: live.ply > ply, "the server's pass")
        action = live.history[ply]
        assert (action.kind, action.seat, action.notation) == (ActionKind.MOVE, seat, "pass")
        assert live.history[ply + 1].kind == ActionKind.THROW
        assert state_for(service, live, ())["forced_pass"] != expected
        stored = await service.storage.get_game(game_id)
        assert stored is not None
        assert [(a.kind, a.seat, a.notation) for a in stored.actions[: ply + 1]] == [
            (a.kind, a.seat, a.notation) for a in live.history[: ply + 1]
        ]
        assert f"{'AB'[seat]}: ({throw}) pass" in game_record(live)
    finally:
        await shut(service)


async def the_players_own_pass_first_drops_the_servers(url: str) -> None:
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        game_id, tokens, live = await forced_pass_game(service)
        ply, seat = live.ply, live.position.decider
        assert seat is not None
        await service.commands.act(game_id, tokens[seat], ply, parse_move("pass"))  # accepted
        waits_exactly_for_what_is_due(service, live)
        live = await service.store.reload(game_id)
        assert len(passes_at(live, ply)) == 1 and live.history[ply].notation == "pass"
        assert live.history[ply + 1].kind == ActionKind.THROW  # the server stored nothing more
        # Racing head to head: exactly one is stored, the other answered stale.
        for _ in range(3):
            game_id, tokens, live = await forced_pass_game(service)
            ply, seat = live.ply, live.position.decider
            assert seat is not None
            answers = await asyncio.gather(
                service.commands.act(game_id, tokens[seat], ply, parse_move("pass")),
                service.commands.forced_pass(game_id, ply),
                return_exceptions=True,
            )
            refused = [a for a in answers if isinstance(a, BaseException)]
            assert len(refused) == 1 and isinstance(refused[0], GameError), answers
            assert refused[0].code == "stale"
            waits_exactly_for_what_is_due(service, live)
            live = await service.store.reload(game_id)
            assert len(passes_at(live, ply)) == 1 and live.history[ply].notation == "pass"
    finally:
        await shut(service)


async def a_forced_pass_costs_no_clock_time(url: str) -> None:
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        game_id, tokens, live = await forced_pass_game(service, time_control="clock:60+5")
        seat = live.position.decider
        assert seat is not None
        before = live.clock
        # No clock runs while the server is about to pass: nobody can lose on time meanwhile.
        assert before.running is None and before.deadline is None
        await clock.advance(DELAY_MS)
        ply = live.ply
        await until(lambda: len(live.history) > ply, "the server's pass")
        after = live.clock
        assert after.remaining[seat] == before.remaining[seat]  # not charged, no increment
        if not live.forced_pass and not live.over:  # the next person's clock runs
            assert after.running == live.position.decider and after.deadline is not None
        assert not live.over
    finally:
        await shut(service)


async def no_server_pass_when_switched_off(url: str) -> None:
    clock = ManualClock()
    service = await service_on(url, clock, delay=None)
    try:
        game_id, tokens, live = await forced_pass_game(service)
        assert state_for(service, live, ())["forced_pass"] is None
        assert not service.turns.busy(game_id)
        await clock.advance(60_000)
        assert (await service.store.load(game_id)).ply == live.ply
    finally:
        await shut(service)


async def two_processes_store_one_pass_and_a_stand_by_replaces_a_dead_one(url: str) -> None:
    clock = ManualClock()
    a = await service_on(url, clock, shared=True)
    b = await service_on(url, clock, shared=True)
    try:
        # Both processes hold the game: a stored the throw (it plays), b stands by.
        game_id, tokens, live = await forced_pass_game(a)
        ply = live.ply
        on_b = await b.store.load(game_id)
        assert on_b.ply == ply and b.turns.busy(game_id)
        await clock.advance(DELAY_MS)
        await until(lambda: live.ply > ply, "a's pass")
        await clock.advance(3_000)  # b's stand-by wakes, finds the pass stored, does nothing
        await until(lambda: on_b.ply > ply, "b's stand-by to read the game again")
        waits_exactly_for_what_is_due(b, on_b)
        stored = await a.storage.get_game(game_id)
        assert stored is not None and [x.ply for x in stored.actions] == list(range(live.ply))
        assert stored.actions[ply].notation == "pass" and stored.actions[ply + 1].kind == "throw"
        # The process that should pass dies first: the stand-by plays it, once.
        game_id, tokens, live = await forced_pass_game(a)
        ply = live.ply
        on_b = await b.store.load(game_id)
        await a.turns.close()  # as if a were gone: its task never runs
        await clock.advance(DELAY_MS)
        for _ in range(20):
            await asyncio.sleep(0)
        assert (await b.store.load(game_id)).ply == ply  # b waits its longer stand-by delay
        await clock.advance(3_000)
        await until(lambda: on_b.ply > ply, "b's stand-by pass")
        stored = await b.storage.get_game(game_id)
        assert stored is not None and [x.notation for x in stored.actions if x.ply == ply] == [
            "pass"
        ]
    finally:
        await shut(a, b)


async def a_game_read_again_after_a_restart_gets_its_pass(url: str) -> None:
    clock = ManualClock()
    first = await service_on(url, clock)
    game_id, tokens, live = await forced_pass_game(first)
    ply = live.ply
    await shut(first)  # stopped before its pass
    second = await service_on(url, clock)
    try:
        again = await second.store.load(game_id)
        assert again.ply == ply and second.turns.busy(game_id)
        # With several processes possible (PostgreSQL), a game read from the database gets a
        # stand-by: the pass comes after the stand-by's extra delay at the latest.
        await clock.advance(DELAY_MS + 3_000)
        await until(lambda: again.ply > ply, "the pass after the restart")
        assert again.history[ply].notation == "pass"
    finally:
        await shut(second)


SCENARIOS = (
    server_plays_the_forced_pass_after_its_delay,
    the_players_own_pass_first_drops_the_servers,
    a_forced_pass_costs_no_clock_time,
    no_server_pass_when_switched_off,
    two_processes_store_one_pass_and_a_stand_by_replaces_a_dead_one,
    a_game_read_again_after_a_restart_gets_its_pass,
)
