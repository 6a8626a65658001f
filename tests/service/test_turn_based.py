"""Turn-based games (days per move) on the service with real SQLite storage and the server's
clock moved by the test: each move has its days, the deadline alone decides (never an
absence), the server's own timer ends a game whose deadline passed, also after a restart,
and a turn-based open game stays listed for a day whether its creator is here or not."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from senet.engine import parse_move
from senet.service.errors import GameError
from senet.service.games.clocks import (
    DAY,
    TURN_BASED,
    ManualClock,
    TimeControl,
    parse_time_control,
    requested_time_control,
)
from senet.service.games.live_games import LiveGame
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.lobby import Activity
from senet.service.server import GameService
from senet.web.routes.lobby import time_control_label
from senet_testkit.loops import run

from .forced_passes import until

DAY_MS = DAY * 1000


async def service_on(db: Path, clock: ManualClock) -> GameService:
    storage = Storage(f"sqlite+aiosqlite:///{db}")
    await storage.init()
    service = GameService(
        storage, MemoryBroadcast(), computer_delay=0.0, forced_pass_delay=0.0, clock=clock
    )
    await service.start()
    return service


async def shut(service: GameService) -> None:
    await service.close()
    await service.storage.close()


async def started_game(
    service: GameService, days: int = 3, variant: str = "standard"
) -> tuple[str, dict[int, str]]:
    control = requested_time_control(f"days:{days}")
    created = await service.commands.create(variant, "friend", "A", time_control=control)
    claimed = await service.commands.claim(created.game_id, created.invite or "")
    assert claimed is not None
    tokens = {0: created.token, 1: claimed[0]}
    await service.commands.seed(created.game_id, tokens[0], "a")
    await service.commands.seed(created.game_id, tokens[1], "b")
    return created.game_id, tokens


async def decision_due(service: GameService, game_id: str) -> LiveGame:
    """The game once a player's decision is due (the server's forced passes played)."""

    def due() -> bool:
        live = service.store.cached(game_id)
        return live is not None and (live.over or live.clock.running is not None)

    await until(due, "a player's decision")
    live = service.store.cached(game_id)
    assert live is not None
    return live


async def move(service: GameService, game_id: str, tokens: dict[int, str]) -> LiveGame:
    live = await decision_due(service, game_id)
    decider = live.position.decider
    assert decider is not None
    first = sorted(m.text() for m in live.position.legal_moves())[0]
    return await service.commands.act(game_id, tokens[decider], live.ply, parse_move(first))


def test_days_per_move_are_written_read_and_labelled() -> None:
    assert [c.text() for c in TURN_BASED] == ["days:1", "days:2", "days:3", "days:7"]
    three = parse_time_control("days:3")
    assert three == TimeControl("days", 3 * DAY) and three.turn_based and three.days == 3
    assert three.per_decision and three.timed
    assert not parse_time_control("move:30").turn_based
    assert parse_time_control("move:30").days is None
    for bad in ("days:0", "days:15", "days:", "days:３", "days:1.5"):
        with pytest.raises(GameError) as refused:
            requested_time_control(bad)
        assert refused.value.code == "bad_time_control"
    assert time_control_label("days:1", "en") == "1 day a move"
    assert time_control_label("days:7", "en") == "7 days a move"
    assert time_control_label("days:2", "ru") == "2 дня на ход"
    assert time_control_label("days:7", "ru") == "7 дней на ход"


def test_each_move_has_its_days_whatever_the_last_one_took(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        game_id, tokens = await started_game(service, days=3)
        live = await decision_due(service, game_id)
        assert live.turn_based and live.stored.days_per_move == 3
        for _ in range(6):  # six moves, each two days and 23 hours after the last
            live = await decision_due(service, game_id)
            assert live.clock.deadline == clock.now() + 3 * DAY_MS
            await clock.advance(3 * DAY_MS - 3_600_000)
            await move(service, game_id, tokens)
        live = await decision_due(service, game_id)
        assert not live.over
        await shut(service)

    run(main())


def test_an_absent_player_loses_only_when_the_deadline_passes(tmp_path: Path) -> None:
    """Nobody claims a turn-based game for an absence (fair play's rule for untimed games);
    the server's timer ends it at the deadline, and a move sent after it is refused."""

    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        game_id, tokens = await started_game(service, days=1)
        live = await decision_due(service, game_id)
        late = live.clock.running
        assert late is not None
        await service.seen(game_id, (late,))
        await clock.advance(DAY_MS - 1)  # gone for a day: far past any grace for an absence
        with pytest.raises(GameError) as refused:
            await service.commands.claim_abandoned(game_id, tokens[1 - late])
        assert refused.value.code == "not_abandoned"
        assert not (await service.store.reload(game_id)).over
        await clock.advance(1)
        await until(lambda: (service.store.cached(game_id) or live).over, "the loss on time")
        live = await service.store.reload(game_id)
        assert live.stored.termination == "time forfeit" and live.stored.result == "AB"[1 - late]
        with pytest.raises(GameError) as refused:
            await service.commands.act(game_id, tokens[late], live.ply, parse_move("pass"))
        assert refused.value.code == "game_over"
        await shut(service)

    run(main())


def test_a_move_after_the_deadline_is_refused_and_the_game_is_lost_on_time(
    tmp_path: Path,
) -> None:
    """With the server stopped when the deadline passed, the late move itself ends the game."""

    async def main() -> None:
        db = tmp_path / "db.sqlite3"
        clock = ManualClock()
        service = await service_on(db, clock)
        game_id, tokens = await started_game(service, days=2)
        live = await decision_due(service, game_id)
        late, ply = live.clock.running, live.ply
        first = sorted(m.text() for m in live.position.legal_moves())[0]
        await shut(service)
        assert late is not None
        await clock.advance(2 * DAY_MS + 1)
        storage = Storage(f"sqlite+aiosqlite:///{db}")
        await storage.init()
        service = GameService(storage, MemoryBroadcast(), computer_delay=0.0, clock=clock)
        # the move finds the deadline passed (or the timer, woken by loading the game, was
        # first): refused either way, and the game is lost on time
        with pytest.raises(GameError) as refused:
            await service.commands.act(game_id, tokens[late], ply, parse_move(first))
        assert refused.value.code in ("time_out", "game_over")
        live = await service.store.reload(game_id)
        assert live.over and live.stored.termination == "time forfeit"
        assert live.stored.result == "AB"[1 - late]
        await service.close()
        await storage.close()

    run(main())


def test_the_deadline_is_kept_across_a_restart(tmp_path: Path) -> None:
    async def main() -> None:
        db = tmp_path / "db.sqlite3"
        clock = ManualClock()
        service = await service_on(db, clock)
        game_id, tokens = await started_game(service, days=7)
        await move(service, game_id, tokens)
        live = await decision_due(service, game_id)
        late, deadline = live.clock.running, live.clock.deadline
        await shut(service)
        await clock.advance(7 * DAY_MS)
        service = await service_on(db, clock)  # resumes the timer of every running clock
        assert deadline == clock.now()
        await until(
            lambda: (c := service.store.cached(game_id)) is not None and c.over,
            "the loss on time after the restart",
        )
        live = await service.store.reload(game_id)
        assert live.stored.termination == "time forfeit" and live.stored.result == "AB"[1 - late]
        ends = [a for a in live.history if a.kind == "end"]
        assert len(ends) == 1
        await shut(service)

    run(main())


def test_a_turn_based_open_game_stays_listed_for_a_day_its_creator_here_or_not(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        turn_based = await service.lobby.pair("kendall", parse_time_control("days:1"), [], "c1")
        live_seek = await service.lobby.pair("kendall", parse_time_control("move:60"), [], "c2")
        for paired, seat in ((turn_based, turn_based.seat), (live_seek, live_seek.seat)):
            await service.seen(paired.game_id, (seat,))  # seen now, then never again
        await clock.advance(10 * 60_000)  # both creators gone ten minutes
        await service.lobby.sweep()
        shown = {g.id for g in await service.lobby.open_games()}
        assert shown == {turn_based.game_id}
        await clock.advance(DAY_MS - 10 * 60_000)
        await service.lobby.sweep()
        assert await service.lobby.open_games() == []
        await shut(service)

    run(main())


def test_a_taken_turn_based_seek_waits_a_move_s_days_for_the_seeds(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        seek = await service.lobby.pair("bell", parse_time_control("days:2"), [], "c1")
        taker = await service.lobby.pair("bell", parse_time_control("days:2"), [], "c2")
        assert not taker.waiting and taker.game_id == seek.game_id
        await service.commands.seed(seek.game_id, taker.token, "taker's")
        await clock.advance(2 * DAY_MS - 1)  # the creator comes back the next evening
        await service.lobby.sweep()
        live = await service.commands.seed(seek.game_id, seek.token, "creator's")
        assert not live.seeding and live.turn_based
        await shut(service)

    run(main())


def test_a_rematch_keeps_the_days_per_move(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        game_id, tokens = await started_game(service, days=2)
        await decision_due(service, game_id)
        await service.commands.resign(game_id, tokens[0])
        new_id, _ = await service.commands.rematch(game_id, tokens[1])
        rematch = await service.store.load(new_id)
        assert rematch.turn_based and rematch.stored.time_control == "days:2"
        await shut(service)

    run(main())


async def set_rating(service: GameService, player_id: str, variant: str, rating: float) -> None:
    assert service.storage.engine is not None
    async with service.storage.engine.begin() as conn:
        await conn.execute(
            text(
                "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games,"
                " updated_at) VALUES (:p, :v, :r, 60, 0.06, 20, :t)"
            ),
            {"p": player_id, "v": variant, "r": rating, "t": datetime.now(UTC)},
        )


def test_the_computer_offered_meanwhile_is_near_the_player_s_rating(tmp_path: Path) -> None:
    """Anonymous (or new: 1500) plays the level whose fixed rating is nearest 1500 in the
    variant; a strong player a strong one.  The levels' ratings are the ladder's, whatever
    their rows say (kendall: beginner 1320, casual 1441, expert 1538, master 1700; bell:
    casual 1462, expert 1547)."""

    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3", ManualClock())
        players = service.players
        assert await players.level_near(None, "kendall") == "expert"
        assert await players.level_near(None, "bell") == "casual"
        anna, _ = await players.take_name("Anna_level")
        assert await players.level_near(anna, "kendall") == "expert"  # a newcomer: 1500
        await set_rating(service, anna.id, "kendall", 2010)
        assert await players.level_near(anna, "kendall") == "master"
        assert await players.level_near(anna, "bell") == "casual"  # not rated in bell
        boris, _ = await players.take_name("Boris_level")
        await set_rating(service, boris.id, "kendall", 1430)
        assert await players.level_near(boris, "kendall") == "casual"
        # a level's rating row does not move it: its rating is the measured one
        await set_rating(service, (await players.computer_player("casual")).id, "kendall", 2400)
        assert await players.level_near(boris, "kendall") == "casual"
        await shut(service)

    run(main())


def test_the_home_page_counts_players_at_a_board_and_games_being_played(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3", ManualClock())
        service.lobby.ACTIVITY_EVERY = 0.0  # counted afresh at every look here
        assert await service.lobby.activity() == Activity(0, 0)
        live_id, _ = await started_game(service, days=1)  # turn-based: played, nobody here
        await decision_due(service, live_id)
        assert await service.lobby.activity() == Activity(0, 1)
        created = await service.commands.create(
            "standard", "computer", "A", time_control=parse_time_control("untimed"), seed="s"
        )
        await service.connected(created.game_id, created.seats, +1)
        await service.connected(live_id, (0,), +1)
        await service.connected(live_id, (), +1)  # a spectator is no player
        assert await service.lobby.activity() == Activity(2, 2)
        await service.connected(created.game_id, created.seats, -1)
        assert await service.lobby.activity() == Activity(1, 1)
        await shut(service)

    run(main())


def test_your_turn_finds_a_named_player_s_games_on_any_device_and_a_browser_s_by_its_secrets(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        clock = ManualClock()
        service = await service_on(tmp_path / "db.sqlite3", clock)
        anna, _ = await service.players.take_name("Anna_turns")
        boris, _ = await service.players.take_name("Boris_turns")
        game_id, tokens = await started_game(service, days=2)
        live = await service.store.load(game_id)
        await service.players.link(live, (0,), anna)
        await service.players.link(live, (1,), boris)
        untimed, untimed_tokens = await started_game(service, days=1)
        await service.commands.resign(untimed, untimed_tokens[0])  # over: waits for nobody
        live = await decision_due(service, game_id)
        mover = live.clock.running
        assert mover is not None
        named = {0: anna, 1: boris}
        # by name alone (another device: no seat secret), and by the secret alone (anonymous)
        for tokens_held, player in (({}, named[mover]), ({game_id: tokens[mover]}, None)):
            waiting = await service.your_turn.waiting(tokens_held, player)
            assert [(w.id, w.seat, w.deadline) for w in waiting] == [
                (game_id, mover, clock.now() + 2 * DAY_MS)
            ]
        assert waiting[0].opponent == named[1 - mover].name
        assert await service.your_turn.waiting({}, named[1 - mover]) == []
        assert await service.your_turn.waiting({game_id: tokens[1 - mover]}) == []
        assert await service.your_turn.waiting({untimed: untimed_tokens[1]}) == []
        await move(service, game_id, tokens)
        after = await decision_due(service, game_id)
        if after.clock.running != mover:  # the turn passed to the other player
            assert await service.your_turn.waiting({}, named[mover]) == []
            assert [w.id for w in await service.your_turn.waiting({}, named[1 - mover])] == [
                game_id
            ]
        await shut(service)

    run(main())
