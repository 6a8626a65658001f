"""Races around the end of a game, written once for every database (SQLite in tests/service,
PostgreSQL in tests/multiprocess): a resignation racing a move, a move arriving after its
deadline, a claim racing the opponent's return, a cancel racing the friend's arrival.  Exactly one outcome holds, the loser of the
race gets a clear error, and nothing else changes."""

from __future__ import annotations

import asyncio

from senet.engine import parse_move
from senet.service.errors import GameError
from senet.service.games.clocks import ManualClock, parse_time_control
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.messages import ActionKind
from senet.service.server import GameService


async def service_on(url: str, clock: ManualClock) -> GameService:
    storage = Storage(url)
    await storage.init()
    service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, clock=clock)
    await service.start()
    return service


async def friend_game(service: GameService, time_control: str = "untimed") -> tuple[str, dict]:
    created = await service.commands.create(
        "standard", "friend", "A", time_control=parse_time_control(time_control)
    )
    claimed = await service.commands.claim(created.game_id, created.invite or "")
    assert claimed is not None
    tokens = {0: created.token, 1: claimed[0]}
    for seat in (0, 1):
        await service.commands.seed(created.game_id, tokens[seat], f"seed {seat}")
    return created.game_id, tokens


def ends(live) -> list:
    return [a for a in live.history if a.kind == ActionKind.END]


async def resign_racing_a_move(url: str) -> None:
    service = await service_on(url, ManualClock())
    try:
        for _ in range(6):
            game_id, tokens = await friend_game(service)
            live = await service.store.load(game_id)
            decider = live.position.decider
            assert decider is not None
            move = live.position.legal_moves()[0]
            answers = await asyncio.gather(
                service.commands.act(
                    game_id, tokens[decider], live.ply, parse_move(live.position.move_text(move))
                ),
                service.commands.resign(game_id, tokens[1 - decider]),
                return_exceptions=True,
            )
            live = await service.store.reload(game_id)
            assert len(ends(live)) == 1 and live.history[-1].kind == ActionKind.END
            assert live.history[-1].seat == 1 - decider and live.outcome.winner == decider
            moved, resigned = answers
            assert not isinstance(resigned, BaseException)  # resigning is always possible
            if isinstance(moved, GameError):  # the resignation came first: the move is refused
                assert moved.code in ("game_over", "stale")
                assert not any(a.kind == ActionKind.MOVE for a in live.history)
            else:
                assert [a.kind for a in live.history][:3] == ["throw", "move", "throw"]
    finally:
        await service.close()
        await service.storage.close()


async def a_move_after_its_deadline_loses_on_time(url: str) -> None:
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        game_id, tokens = await friend_game(service, "move:30")
        live = await service.store.load(game_id)
        decider = live.clock.running
        assert decider is not None and live.clock.deadline == clock.now() + 30_000
        ply, move = live.ply, live.position.move_text(live.position.legal_moves()[0])
        await clock.advance(30_000)
        try:
            await service.commands.act(game_id, tokens[decider], ply, parse_move(move))
            raise AssertionError("a move after its deadline was accepted")
        except GameError as exc:  # the watcher or the move itself ended the game first
            assert exc.code in ("time_out", "game_over"), exc.code
        await service.deadlines.close()
        live = await service.store.reload(game_id)
        (end,) = ends(live)
        assert end.notation == "time forfeit" and end.seat == decider
        assert not any(a.kind == ActionKind.MOVE for a in live.history)
    finally:
        await service.close()
        await service.storage.close()


async def a_claim_racing_the_opponents_return(url: str) -> None:
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        outcomes = set()
        for _ in range(6):
            game_id, tokens = await friend_game(service)
            await service.connected(game_id, (0,), +1)
            await service.connected(game_id, (1,), +1)
            await service.connected(game_id, (1,), -1)  # B walks away
            try:
                await service.commands.claim_abandoned(game_id, tokens[0])
                raise AssertionError("claimed before the opponent was gone long enough")
            except GameError as exc:
                assert exc.code == "not_abandoned"
            await clock.advance(120_000)
            answers = await asyncio.gather(
                service.commands.claim_abandoned(game_id, tokens[0]),
                service.connected(game_id, (1,), +1),  # B comes back at that very moment
                return_exceptions=True,
            )
            live = await service.store.reload(game_id)
            claimed = answers[0]
            if isinstance(claimed, GameError):
                assert claimed.code == "not_abandoned" and not ends(live)
                outcomes.add("returned")
            else:
                (end,) = ends(live)
                assert end.notation == "abandoned" and end.seat == 1
                outcomes.add("claimed")
            await service.connected(game_id, (0,), -1)
            await service.connected(game_id, (1,), -1)
        assert outcomes  # each round ended one way or the other, never both
    finally:
        await service.close()
        await service.storage.close()


async def an_open_game_whose_creator_leaves_is_withdrawn(url: str) -> None:
    service = await service_on(url, ManualClock())
    service.lobby.GRACE = 0.0
    try:
        created = await service.commands.create("kendall", "friend", listed=True)
        listed = {g.id for g in await service.lobby.open_games()}
        assert created.game_id in listed
        await service.connected(created.game_id, created.seats, +1)
        await service.connected(created.game_id, created.seats, -1)
        await service.lobby.settled()
        assert created.game_id not in {g.id for g in await service.lobby.open_games()}
        # a creator who comes back within the grace time keeps the listing
        again = await service.commands.create("kendall", "friend", listed=True)
        service.lobby.GRACE = 3600.0
        await service.connected(again.game_id, again.seats, +1)
        await service.connected(again.game_id, again.seats, -1)
        await service.connected(again.game_id, again.seats, +1)
        assert again.game_id in {g.id for g in await service.lobby.open_games()}
    finally:
        await service.close()
        await service.storage.close()


async def games_to_watch_are_those_opened_to_everyone(url: str) -> None:
    service = await service_on(url, ManualClock())
    try:
        private, _ = await friend_game(service)
        public = await service.commands.create("bell", "friend", public=True)
        claimed = await service.commands.claim(public.game_id, public.invite or "")
        assert claimed is not None
        await service.commands.seed(public.game_id, public.token, "a")
        await service.commands.seed(public.game_id, claimed[0], "b")
        computer = await service.commands.create("kendall", "computer", seed="c")
        watched = {g.id for g in await service.lobby.watchable()}
        assert public.game_id in watched and computer.game_id in watched
        assert private not in watched
    finally:
        await service.close()
        await service.storage.close()


async def a_cancel_racing_the_friends_arrival(url: str) -> None:
    """The host cancels as the friend opens the link (or a stranger takes the open game):
    either the game is gone and the arrival finds nothing, or the arrival is seated and the
    cancel is refused with ``joined`` — never a seated friend in a deleted game."""
    service = await service_on(url, ManualClock())
    try:
        outcomes = set()
        for round in range(8):
            listed = round % 2 == 1
            created = await service.commands.create("standard", "friend", "A", listed=listed)
            arrival = (
                service.lobby.take(created.game_id)
                if listed
                else service.commands.claim(created.game_id, created.invite or "")
            )
            cancelled, arrived = await asyncio.gather(
                service.commands.cancel(created.game_id, created.token),
                arrival,
                return_exceptions=True,
            )
            stored = await service.storage.get_game(created.game_id)
            if isinstance(cancelled, GameError):
                assert cancelled.code == "joined"
                assert not isinstance(arrived, BaseException) and arrived is not None
                assert stored is not None and all(s.claimed for s in stored.seats)
                outcomes.add("joined")
            else:
                assert stored is None  # gone, seats and all
                assert arrived is None or (
                    isinstance(arrived, GameError) and arrived.code in ("unknown_game", "taken")
                )
                outcomes.add("cancelled")
        assert outcomes
    finally:
        await service.close()
        await service.storage.close()


RACES = [
    resign_racing_a_move,
    a_cancel_racing_the_friends_arrival,
    a_move_after_its_deadline_loses_on_time,
    a_claim_racing_the_opponents_return,
    an_open_game_whose_creator_leaves_is_withdrawn,
    games_to_watch_are_those_opened_to_everyone,
]
