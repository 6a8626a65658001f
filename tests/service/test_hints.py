"""Which analyses are hints (served before the analysis board's, counted against the seat
rather than the analysis quota): only in a game whose page offers hints — against the
computer or two people on one screen — for the game's current position, to a seat that
decides it now (``GameQueries.hint_allowed``).  Any other position sent with a seat cookie is
an analysis like anyone's."""

from __future__ import annotations

from pathlib import Path

from senet.engine import Position, find_variant
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService
from senet_testkit.loops import run

from .test_games_service import shut


async def service_on(db: Path) -> GameService:
    storage = Storage(f"sqlite+aiosqlite:///{db}")
    await storage.init()
    # the computer waits an hour: its turn stays its own while the test looks
    service = GameService(storage, MemoryBroadcast(), computer_delay=3600.0)
    await service.start()
    return service


def test_a_hint_is_only_the_current_position_for_the_seat_that_decides(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3")
        hint = service.queries.hint_allowed
        start = Position.initial(find_variant("standard"))

        # two people on one screen: the secret holds both seats, one of them decides
        local = await service.commands.create("standard", "local", seed="one screen")
        live = await service.store.load(local.game_id)
        assert live.decider is not None and not live.over
        now = live.position
        assert await hint(local.game_id, local.token, now)
        assert not await hint(local.game_id, None, now)
        assert not await hint(local.game_id, "not-a-seat", now)
        assert not await hint("no-such-game", local.token, now)
        assert start != now  # the first throw is made
        assert not await hint(local.game_id, local.token, start)  # any other position

        # against the computer, the person's seat decides: a hint; the computer's turn: not
        mine = await service.commands.create(
            "standard", "computer", "A", level="beginner", seed="a"
        )
        live = await service.store.load(mine.game_id)
        assert live.decider == 0
        assert await hint(mine.game_id, mine.token, live.position)
        theirs = await service.commands.create(
            "standard", "computer", "B", level="beginner", seed="b"
        )
        live = await service.store.load(theirs.game_id)
        assert live.decider == 0  # the computer's, waiting
        assert not await hint(theirs.game_id, theirs.token, live.position)

        # between two friends the page offers no hint: the decider's secret gets an analysis
        friends = await service.commands.create("standard", "friend", "A", seed="f")
        claimed = await service.commands.claim(friends.game_id, friends.invite or "")
        assert claimed is not None
        live = await service.commands.seed(friends.game_id, claimed[0], "g")
        assert live.decider == 0
        assert not await hint(friends.game_id, friends.token, live.position)

        # a game that is over: no hint
        await service.commands.resign(local.game_id, local.token)
        live = await service.store.load(local.game_id)
        assert live.over
        assert not await hint(local.game_id, local.token, live.position)
        await shut(service)

    run(main())
