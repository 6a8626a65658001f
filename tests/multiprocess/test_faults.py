"""Faults with real processes: bots play 20 games across two server processes; Redis is
restarted mid-game (live updates resume), then one process is killed with SIGKILL mid-game
(its players reconnect to the other process with their event numbers and finish).  At the end
every stored game equals, action for action, what the bots saw and the moves they made:
nothing lost, nothing doubled."""

from __future__ import annotations

import asyncio
import time

import httpx

from senet.engine import parse_move
from senet_testkit.loops import run as run_coroutine
from senet_testkit.wsbots import Bot, create_friend_game, game_bots

from .conftest import SiteProcess
from .test_cluster import stored_actions

GAMES = 20


async def until(condition, what: str, timeout: float = 60.0) -> None:
    """Wait until ``condition()`` holds, checking every 20 ms; fail naming ``what`` after
    ``timeout`` seconds (a generous bound: the condition, not the time, moves the test on)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        await asyncio.sleep(0.02)


def _same(event: dict, stored: tuple[int, str, int | None, str]) -> bool:
    if event["ply"] != stored[0]:
        return False
    if event["kind"] == "throw":
        return stored[1] == "throw" and str(event["value"]) == stored[3]
    return (
        stored[1] == "move"
        and stored[2] == event["seat"]
        and parse_move(event["text"]).text() == stored[3]
    )


def test_sigkill_and_redis_restart_mid_game_lose_nothing(pg_url, own_redis, tmp_path) -> None:
    redis = own_redis  # stopped and restarted below: not the shared one
    a = SiteProcess(pg_url, redis.url, tmp_path, "a")
    b = SiteProcess(pg_url, redis.url, tmp_path, "b")
    a.start()
    b.start()
    marks: dict[str, float] = {}
    try:

        def moves_seen(bots: list[Bot], after: float = 0.0) -> int:
            return sum(1 for bot in bots for t in bot.opponent_moves_at if t > after)

        def logged(text: str) -> bool:
            return all(text in p.log.read_text() for p in (a, b))

        async def faults(bots: list[Bot]) -> None:
            # Each fault comes when the one before has shown its effect, not after a set time.
            await until(lambda: moves_seen(bots) >= 2 * GAMES, "moves crossing the processes")
            redis.stop()  # every process loses its pub/sub connection
            marks["redis_down"] = time.perf_counter()
            await until(lambda: logged("lost Redis"), "both processes to notice Redis is gone")
            redis.start()
            marks["redis_up"] = time.perf_counter()
            await until(lambda: logged("reconnected to Redis"), "both processes to reconnect")
            await until(
                lambda: moves_seen(bots, marks["redis_up"]) >= GAMES, "moves after the restart"
            )
            playing = sum(1 for bot in bots if bot.seat == 0 and bot.outcome is None)
            assert playing >= GAMES // 2, "most games ended before the crash: make them longer"
            a.kill()  # SIGKILL mid-game: no shutdown at all
            marks["killed"] = time.perf_counter()

        async def run() -> list:
            async with httpx.AsyncClient(timeout=20) as http:
                seats = await asyncio.gather(
                    *(create_friend_game(http, a.url, b.url) for _ in range(GAMES))
                )
            # Seat A plays on process a (then b when a dies), seat B on process b.
            pairs = [
                game_bots(s, [[a.ws, b.ws], [b.ws, a.ws]], think=0.03, seed=i)
                for i, s in enumerate(seats)
            ]
            everyone = [bot for pair in pairs for bot in pair]
            deadline = time.monotonic() + 120
            # A failed fault step fails the run at once (gather raises its first exception).
            await asyncio.gather(faults(everyone), *(bot.run(deadline) for bot in everyone))
            return [
                (s, bots, await stored_actions(pg_url, s.game_id)) for s, bots in zip(seats, pairs)
            ]

        games = run_coroutine(run())
    finally:
        a.stop()
        b.stop()

    assert {"redis_down", "redis_up", "killed"} <= set(marks)
    moved_after_redis = moved_after_kill = reconnected = 0
    for seats, bots, stored in games:
        for bot in bots:
            assert bot.outcome is not None, (
                seats.game_id,
                bot.seat,
                bot.errors[-3:],
                len(bot.events),
                len(stored),
            )
            assert not [e for e in bot.errors if not e.startswith("reconnect")], bot.errors
            # What each bot saw is exactly what is stored: no action lost, none doubled.
            assert len(bot.events) == len(stored), (seats.game_id, len(bot.events), len(stored))
            assert all(_same(e, s) for e, s in zip(bot.events, stored)), seats.game_id
            # Every stored move of this seat is the move this bot sent at that ply, or a forced
            # pass that the server played (bots leave those to the server).
            for ply, kind, seat, notation in stored:
                if kind == "move" and seat == bot.seat:
                    sent = bot.sent.get(ply, "pass")
                    assert parse_move(sent).text() == notation, (seats.game_id, ply)
            moved_after_redis += sum(
                1 for t in bot.opponent_moves_at if marks["redis_up"] < t < marks["killed"]
            )
            moved_after_kill += sum(1 for t in bot.opponent_moves_at if t > marks["killed"])
        reconnected += bots[0].reconnects > 0
        assert [s[0] for s in stored] == list(range(len(stored)))
    # Live updates crossed the processes again once Redis was back, and after the crash.
    assert moved_after_redis > 0 and moved_after_kill > 0, (moved_after_redis, moved_after_kill)
    # The players of the killed process reconnected (those whose game was not over yet).
    assert reconnected > 0
    stalls = sum(bot.stalls for _, bots, _ in games for bot in bots)
    print(
        f"fault test: {len(games)} games, {sum(len(st) for _, _, st in games)} actions stored, "
        f"{reconnected} players reconnected after the SIGKILL, {moved_after_redis} moves crossed after the "
        f"Redis restart, {moved_after_kill} after the crash, {stalls} connections given up on an unanswered move"
    )
    log_b = b.log.read_text()
    assert "reconnected to Redis" in log_b, log_b[-2000:]
    # Every move was answered on the connection it was sent on (a bot gives a connection up
    # after 3 s of silence following its move).
    assert stalls == 0
