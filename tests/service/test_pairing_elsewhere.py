"""Quick pairing never hands a newcomer the request of a player who is playing the computer
meanwhile: that player's seat is present (their game against the computer keeps a connection
to the request, marked as from elsewhere), but they are not there to play.  The request stays
listed, for a taker who chooses it in the lobby."""

from __future__ import annotations

from pathlib import Path

from senet.service.games.clocks import ManualClock, parse_time_control
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.infrastructure.presence import Presence
from senet_testkit.loops import run

from .test_turn_based import service_on, shut


def test_a_seeker_playing_the_computer_is_not_paired_but_stays_listed(tmp_path: Path) -> None:
    async def main() -> None:
        service = await service_on(tmp_path / "db.sqlite3", ManualClock())
        control = parse_time_control("move:60")
        waiting = await service.lobby.pair("kendall", control, [], "c1")
        assert waiting.waiting
        # the seeker went to play the computer: only that page follows the request
        await service.connected(waiting.game_id, (waiting.seat,), +1, away=True)
        assert service.presence(waiting.game_id)["online"][waiting.seat]  # still present
        newcomer = await service.lobby.pair("kendall", control, [], "c2")
        assert newcomer.waiting and newcomer.game_id != waiting.game_id
        shown = {g.id for g in await service.lobby.open_games()}
        assert waiting.game_id in shown  # still there, to take by hand
        # back on the request's own page: the next asker is paired with them
        await service.connected(waiting.game_id, (waiting.seat,), +1)
        await service.connected(newcomer.game_id, (newcomer.seat,), +1)
        third = await service.lobby.pair("kendall", control, [], "c3")
        assert not third.waiting and third.game_id == waiting.game_id
        await shut(service)

    run(main())


def test_elsewhere_sums_the_away_connections_of_every_process() -> None:
    here, there = Presence(MemoryBroadcast()), Presence(MemoryBroadcast())
    message = there.count("g1", (0,), +1, away=True)
    here.absorb("g1", dict(message), now=0.0)
    assert here.elsewhere(now=1.0) == ["g1"]
    assert here.summary("g1", now=1.0)["online"] == [True, False]
    here.count("g1", (0,), +1)  # a connection of its own page too: there to play
    assert here.elsewhere(now=1.0) == []
    here.count("g1", (0,), -1)
    assert here.elsewhere(now=1.0) == ["g1"]
    assert here.elsewhere(now=1.0 + Presence.TTL + 1) == []  # that origin died
