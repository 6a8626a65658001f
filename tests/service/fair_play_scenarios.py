"""A griefer's tries against fair play, written once for every database (SQLite in
tests/service, PostgreSQL in tests/multiprocess): claiming a game whose opponent plays
through the API, flooding the lobby, taking a game and never seeding, pairing with someone
who is gone.  The server's clock is a manual one: nothing here waits for real time."""

from __future__ import annotations

import asyncio
import secrets

from senet.engine import parse_move
from senet.service.errors import GameError
from senet.service.games.clocks import ManualClock, parse_time_control
from senet.service.games.fair_play import FairPlay
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService

from .ending_races import ends, friend_game

PLAY = FairPlay()  # the defaults: 120 s grace, 30 s for a creator, 600 s listed, cap 3, 120 s seeds


async def service_on(url: str, clock: ManualClock) -> GameService:
    storage = Storage(url)
    await storage.init()
    service = GameService(
        storage, MemoryBroadcast(), computer_delay=0.0, clock=clock, fair_play=PLAY
    )
    await service.start()
    return service


async def refused(code: str, call) -> None:
    try:
        await call
    except GameError as exc:
        assert exc.code == code, exc.code
    else:
        raise AssertionError(f"accepted where {code} was due")


async def a_player_moving_through_the_api_is_present(url: str) -> None:
    """B opens the game once and closes it, then plays on through the API (a move, then a
    read of the state, then a move...): A's claim is refused all along; once B stops, after
    the grace time it is accepted."""
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        game_id, tokens = await friend_game(service)
        await service.connected(game_id, (0,), +1)  # A stays
        await service.connected(game_id, (1,), +1)
        await service.connected(game_id, (1,), -1)  # B leaves the page...
        for step in range(12):  # ...and acts every 30 s for six minutes
            await clock.advance(30_000)
            live = await service.store.load(game_id)
            if step % 2 == 0 and live.position.decider == 1:
                move = live.position.move_text(live.position.legal_moves()[0])
                await service.commands.act(game_id, tokens[1], live.ply, parse_move(move))
                await service.seen(game_id, (1,))  # what the API does after a move
            else:
                await service.seen(game_id, (1,), read=True)  # a read of the state
            await refused("not_abandoned", service.commands.claim_abandoned(game_id, tokens[0]))
        await clock.advance(PLAY.abandon_after - 1)
        await refused("not_abandoned", service.commands.claim_abandoned(game_id, tokens[0]))
        await clock.advance(1)
        live = await service.commands.claim_abandoned(game_id, tokens[0])
        (end,) = ends(await service.store.reload(game_id))
        assert end.notation == "abandoned" and end.seat == 1 and live.over
    finally:
        await service.close()
        await service.storage.close()


async def the_lobby_shows_what_a_newcomer_can_take(url: str) -> None:
    """A flood from one client stops at the cap; games whose creator never comes back drop
    out after the creator's grace time, every listing after its lifetime; a real player's
    new open game is shown first, whatever was listed before it.  (Only this scenario's own
    games are looked at: on PostgreSQL the database is shared with other tests.)"""
    clock = ManualClock()
    service = await service_on(url, clock)
    run = secrets.token_hex(4)  # this run's clients
    made: dict[str, tuple[int, ...]] = {}  # game -> the creator's seats
    here: list[str] = []  # the games whose creator has the page open

    async def open_page(game_id: str) -> None:
        await service.connected(game_id, made[game_id], +1)
        here.append(game_id)

    async def create(client: str) -> str:
        created = await service.commands.create(
            "standard", "friend", listed=True, client=f"{client}-{run}"
        )
        made[created.game_id] = created.seats
        return created.game_id

    async def shown() -> list[str]:
        return [g.id for g in await service.lobby.open_games() if g.id in made]

    try:
        refusals = 0
        for _ in range(20):
            try:
                await create("spam")
            except GameError as exc:
                assert exc.code == "too_many_listed" and exc.status == 429
                refusals += 1
        assert len(made) == PLAY.listing_cap and refusals == 20 - PLAY.listing_cap
        # sixty more, each from a client of its own, made through the API and left
        for i in range(60):
            await create(f"bot{i}")
        await clock.advance(1_000)
        real = await create("me")
        await open_page(real)
        listing = [g.id for g in await service.lobby.open_games()]
        assert listing[0] == real and len(listing) == 50  # newest first
        async with service.broadcast.subscribe("lobby") as lobby:
            await clock.advance(PLAY.creator_grace)
            assert await shown() == [real]  # the creators who never came back are not shown
            # the hidden ones are withdrawn by the sweep (here, or the one the clock woke),
            # and that is announced
            await service.lobby.sweep()
            assert (await asyncio.wait_for(lobby.get(), 10))["type"] == "lobby"
        flood = await service.storage.listed_games(limit=1000)
        assert [g.id for g in flood if g.id in made] == [real]
        # the spammer may list again now that theirs are no longer shown
        again = await create("spam")
        await open_page(again)
        assert set(await shown()) == {real, again}
        await clock.advance(PLAY.listing_lifetime)
        assert await shown() == []  # present, but listed long enough
        await refused("taken", service.lobby.take(real))
    finally:
        for game_id in here:  # nobody left connected in a shared database
            await service.connected(game_id, made[game_id], -1)
        await service.close()
        await service.storage.close()


async def a_taker_who_never_seeds_has_the_game_called_off(url: str) -> None:
    """Someone takes an open game and never connects nor seeds: the creator's claim is
    refused (there is nothing to win yet), and after the seeding deadline the game is called
    off without a result — deleted, everyone showing it told ``aborted``.  A game whose seeds
    came in time is left alone."""
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        created = await service.commands.create("standard", "friend", listed=True, client="c")
        await service.connected(created.game_id, created.seats, +1)
        taken = await service.lobby.take(created.game_id)
        await service.commands.seed(created.game_id, created.token, "mine")
        started, tokens = await friend_game(service)  # seeded at once: not touched
        await clock.advance(PLAY.seeding_deadline - 1)
        await service.lobby.sweep()
        assert await service.storage.get_game(created.game_id) is not None
        await refused(
            "not_abandoned", service.commands.claim_abandoned(created.game_id, created.token)
        )
        async with service.subscribe(created.game_id) as game_channel:
            await clock.advance(1)
            await service.lobby.sweep()  # or the one the clock woke: the game is called off once
            message = await asyncio.wait_for(game_channel.get(), 10)
            while message.get("type") != "cancelled":
                message = await asyncio.wait_for(game_channel.get(), 10)
            assert message == {"type": "cancelled", "reason": "aborted"}
        assert await service.storage.get_game(created.game_id) is None
        await refused("unknown_game", service.commands.seed(created.game_id, taken.token, "late"))
        assert not (await service.store.load(started)).seeding
    finally:
        await service.close()
        await service.storage.close()


async def pairing_prefers_a_seeker_who_is_here(url: str) -> None:
    """Two seekers wait for the same game: the older one left, the newer one is connected.
    The next asker is paired with the one who is here."""
    clock = ManualClock()
    service = await service_on(url, clock)
    try:
        gone = await service.lobby.pair("kendall", parse_time_control("untimed"), [], client="gone")
        await service.connected(gone.game_id, (gone.seat,), +1)
        await service.connected(gone.game_id, (gone.seat,), -1)
        await clock.advance(1_000)
        # (avoiding the first seeker's game, as one browser's own games are, so both wait)
        here = await service.lobby.pair(
            "kendall", parse_time_control("untimed"), [gone.game_id], client="here"
        )
        await service.connected(here.game_id, (here.seat,), +1)
        assert gone.waiting and here.waiting
        asker = await service.lobby.pair(
            "kendall", parse_time_control("untimed"), [], client="asker"
        )
        assert not asker.waiting and asker.game_id == here.game_id
        await clock.advance(PLAY.creator_grace + 1)
        late = await service.lobby.pair("kendall", parse_time_control("untimed"), [], client="late")
        assert late.waiting and late.game_id != gone.game_id  # gone too long: not paired
    finally:
        await service.close()
        await service.storage.close()


SCENARIOS = [
    a_player_moving_through_the_api_is_present,
    the_lobby_shows_what_a_newcomer_can_take,
    a_taker_who_never_seeds_has_the_game_called_off,
    pairing_prefers_a_seeker_who_is_here,
]
