"""Bots in the service layer, on real SQLite and PostgreSQL storage: a BOT account may only be a name with no
rated game; its event feed tells it of the challenges made to it (from
senet.service.challenges.offers, no second model), of the game an accepted challenge made (at once,
before the challenger sits) and of its end; withdrawn and declined challenges; a token without
``challenge:read`` hears of no challenge; and the pool rule between people and bots."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from senet.service.bots.accounts import EventFeed, GamesQuotaReached
from senet.service.challenges.offers import ChallengeMessage, ChallengeTerms
from senet.service.errors import GameError
from senet.service.games.clocks import ManualClock
from senet.service.games.fair_play import FairPlay
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.lobby.rated_pairing import may_pair
from senet.service.players.storage import PlayerRow, Seek
from senet.service.server import GameService
from senet_testkit.loops import run
from senet_testkit.servers import postgres_server

from .test_challenges import refused
from .test_games_service import shut

TERMS = ChallengeTerms.checked("standard", "untimed", "A", True)


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]
)
def database(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database of the module's own: SQLite, and PostgreSQL in the slow run."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('bots') / 'senet.sqlite3'}"
    else:
        with postgres_server() as url:
            yield url


async def service_at(url: str, fair_play: FairPlay | None = None) -> GameService:
    storage = Storage(url)
    await storage.init()
    service = GameService(
        storage, MemoryBroadcast(), computer_delay=0.0, clock=ManualClock(), fair_play=fair_play
    )
    await service.start()
    return service


async def next_message(inbox) -> ChallengeMessage:
    return await asyncio.wait_for(inbox.get(), 5)


def test_the_event_feed_tells_a_bot_of_challenges_and_of_the_game_accepting_makes(
    database: str,
) -> None:
    async def main() -> None:
        service = await service_at(database)
        bots, challenges = service.bots, service.challenges
        anna, _ = await service.players.take_name("Anna")
        robot, _ = await service.players.take_name("Robot")  # once per database: one test
        await bots.upgrade(robot)
        robot = await service.players.by_name("Robot")
        assert robot is not None and robot.bot
        first = await challenges.create("Robot", TERMS, challenger=anna)
        feed = EventFeed(bots, robot, challenges=True)
        opening = await feed.opening()  # a challenge waiting when the stream opens
        assert opening == [
            {"type": "challenge", "challenge": opening[0]["challenge"]},
        ]
        assert opening[0]["challenge"]["id"] == first.challenge.id
        assert opening[0]["challenge"]["challenger"] == "Anna"
        async with challenges.subscribe(robot.id) as inbox:
            await challenges.cancel(first.challenge.id, player=anna)
            cancelled = feed.challenge(await next_message(inbox))
            assert cancelled is not None and cancelled["type"] == "challengeCanceled"
            second = await challenges.create("Robot", TERMS, challenger=anna)
            received = feed.challenge(await next_message(inbox))
            assert received is not None and received["type"] == "challenge"
            assert received["challenge"]["id"] == second.challenge.id
            accepted = await bots.accept(second.challenge.id, robot)
            assert feed.challenge(await next_message(inbox)) is None  # the game follows
        # the game starts for the bot at once, its seat linked to its account
        (start,) = await feed.changes()
        assert start["type"] == "gameStart"
        assert start["game"]["id"] == accepted.game_id and start["game"]["rated"] is True
        assert start["game"]["seat"] == "B"  # Anna chose A
        assert await bots.db.seat_of(accepted.game_id, robot.id) == (1,)
        assert await feed.changes() == []  # told once
        # the challenger sits; the bot resigns: the game's end
        game_id, token = await challenges.take_seat(second.challenge.id, player=anna)
        assert game_id == accepted.game_id and token
        await bots.resign(game_id, robot)
        (finish,) = await feed.changes()
        assert finish == {
            "type": "gameFinish",
            "game": {"id": game_id, "result": "A", "termination": "resignation"},
        }
        # a declined challenge; and a feed whose token may not read challenges hears nothing
        third = await challenges.create("Robot", TERMS, challenger=anna)
        with refused("not_yours"):  # only the challenged player answers
            await bots.accept(third.challenge.id, anna)
        deaf = EventFeed(bots, robot, challenges=False)
        assert await deaf.opening() == []
        async with challenges.subscribe(robot.id) as inbox:
            await bots.decline(third.challenge.id, robot)
            message = await next_message(inbox)
        assert deaf.challenge(message) is None
        declined = feed.challenge(message)
        assert declined is not None and declined["type"] == "challengeDeclined"
        await shut(service)

    run(main())


def test_only_a_name_without_rated_games_becomes_a_bot(database: str) -> None:
    async def main() -> None:
        service = await service_at(database)
        bots = service.bots
        vera, _ = await service.players.take_name("Vera")
        token, row = await bots.new_token(vera, "mine", ["bot:play"])
        found = await bots.authenticate(token)
        assert found is not None and found.player.id == vera.id and found.allows("bot:play")
        assert not found.allows("challenge:write") and row.scopes == ("bot:play",)
        created = await service.commands.create("standard", "computer", "A", "beginner")
        live = await service.store.load(created.game_id)
        await service.players.start_rated(live)
        await service.players.link(live, created.seats, vera)
        with refused("rated_games"):
            await bots.upgrade(vera)
        assert (await service.players.by_name("Vera")).kind == "human"  # type: ignore[union-attr]
        level = await service.players.computer_player("beginner")
        with refused("not_a_person"):
            await bots.upgrade(level)
        await shut(service)

    run(main())


def _player(kind: str, accepts: bool = False) -> PlayerRow:
    return PlayerRow("p", "P", kind, None, datetime.now(UTC), accepts)


def _seek(kind: str, accepts: bool = False) -> Seek:
    return Seek("g", 1, datetime.now(UTC), "q", "Q", 1500.0, 350.0, kind, accepts)


def test_people_and_bots_meet_only_where_the_person_accepts_bots() -> None:
    assert may_pair(_player("human"), _seek("human"))
    assert may_pair(_player("bot"), _seek("bot"))
    assert not may_pair(_player("human"), _seek("bot"))
    assert may_pair(_player("human", accepts=True), _seek("bot"))
    assert not may_pair(_player("bot"), _seek("human"))
    assert may_pair(_player("bot"), _seek("human", accepts=True))


async def seek_at_once(
    services: list[GameService], bot: PlayerRow, n: int, most: int, control: str
) -> list:
    """``n`` casual seeks of one bot at once for ``control`` (a time control no other test
    seeks, so that no other bot's seek pairs with them), spread over ``services`` (processes
    on one database): each one's game, or the GameError it was refused with."""
    answers = await asyncio.gather(
        *(
            services[i % len(services)].bots.seek(bot, "standard", control, False, most)
            for i in range(n)
        ),
        return_exceptions=True,
    )
    for answer in answers:
        if not isinstance(answer, GameError) and isinstance(answer, BaseException):
            raise answer
    return answers


def processes_on(database: str) -> int:
    """Server processes on the database: SQLite serves one (its one writer), PostgreSQL two."""
    return 2 if database.startswith("postgresql") else 1


async def a_bot(service: GameService, name: str) -> PlayerRow:
    player, _ = await service.players.take_name(name)
    await service.bots.upgrade(player)
    found = await service.players.by_name(name)
    assert found is not None and found.bot
    return found


def test_concurrent_seeks_of_one_bot_stay_within_its_games_quota(database: str) -> None:
    """30 seeks of one bot at once (on PostgreSQL over two services: two processes) are
    counted and listed one at a time per bot: exactly the quota of 8 is listed, the others
    refused with too_many_games, and the bot then has 8 games."""

    async def main() -> None:
        roomy = FairPlay(listing_cap=50)  # the games quota binds, not the lobby's cap
        services = [await service_at(database, roomy) for _ in range(processes_on(database))]
        robot = await a_bot(services[0], "Quota")
        answers = await seek_at_once(services, robot, 30, 8, "move:71")
        listed = [a for a in answers if not isinstance(a, GameError)]
        refused = [a for a in answers if isinstance(a, GameError)]
        assert len(listed) == 8 and all(a.waiting for a in listed)
        assert {type(e) for e in refused} == {GamesQuotaReached}
        assert {(e.code, e.status) for e in refused} == {("too_many_games", 429)}
        assert len(await services[0].bots.active_games(robot)) == 8
        assert len({a.game_id for a in listed}) == 8
        for service in services:
            await shut(service)

    run(main())


def test_a_bot_lists_no_more_seeks_at_once_than_the_lobbys_cap(database: str) -> None:
    """A bot's seeks waiting in the lobby are held to the cap anyone's open games are (3):
    of 30 at once, 3 are listed and 27 refused too_many_listed; none shows past the cap."""

    async def main() -> None:
        services = [await service_at(database) for _ in range(processes_on(database))]
        robot = await a_bot(services[0], "Capped")
        answers = await seek_at_once(services, robot, 30, 8, "move:73")
        listed = [a for a in answers if not isinstance(a, GameError)]
        assert len(listed) == 3
        assert {e.code for e in answers if isinstance(e, GameError)} == {"too_many_listed"}
        shown = [
            g for g in await services[0].lobby.open_games() if g.id in {a.game_id for a in listed}
        ]
        assert len(shown) == 3
        assert len(await services[0].bots.active_games(robot)) == 3
        for service in services:
            await shut(service)

    run(main())


def test_one_read_per_lobby_change_whatever_the_streams_and_only_changed_bots_wake(
    database: str,
) -> None:
    """The event streams of one process follow the lobby through one reader: a lobby change
    is one read of every followed bot's games (not one per stream), and wakes the streams of
    the bots whose games it changed, not the others'."""

    async def main() -> None:
        service = await service_at(database)
        watch = service.bots.games_watch
        seeker, idle = await a_bot(service, "Waker"), await a_bot(service, "Sleeper")
        reads: list[int] = []
        real = service.bots.db.unfinished_games_of

        async def counted(player_ids):
            reads.append(len(player_ids))
            return await real(player_ids)

        service.bots.db.unfinished_games_of = counted  # type: ignore[method-assign]
        wakes = {p.id: [asyncio.Event() for _ in range(40)] for p in (seeker, idle)}
        async with contextlib.AsyncExitStack() as stack:
            for player_id, events in wakes.items():
                for wake in events:
                    await stack.enter_async_context(watch.follow(player_id, wake))
            await service.lobby.announce()  # the first change: every bot's games seen
            await wait_for(lambda: all(w.is_set() for ws in wakes.values() for w in ws))
            assert reads == [2]
            for events in wakes.values():
                for wake in events:
                    wake.clear()
            await service.bots.seek(seeker, "standard", "move:79", False, 8)  # announces
            await wait_for(lambda: all(w.is_set() for w in wakes[seeker.id]))
            # one read per change (a seek may announce more than one), for both bots at once:
            # never one per stream
            assert reads[0] == 2 and set(reads) == {2} and len(reads) <= 3
            assert not any(w.is_set() for w in wakes[idle.id])
        await shut(service)

    run(main())


async def wait_for(condition, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)
