"""Viewers in state mode (the game page's) across processes: players on two processes, a
spectator and the holder of seat A watching on a third; Redis restarted mid-game.  Each viewer
gets one state and then only deltas, numbered without a gap, each continuing the last; what
they rebuild at the end is the full state the server gives."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

from senet.service.games.views import apply_delta
from senet_testkit.loops import run as run_coroutine
from senet_testkit.wsbots import create_friend_game, game_bots

from .conftest import SiteProcess


async def follow(ws: Any, states: list[dict[str, Any]], kinds: list[str], stop: asyncio.Event):
    """Apply every state and delta the viewer gets until the game is over (or ``stop``)."""
    seq = 0
    while not stop.is_set():
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
        except TimeoutError:
            continue
        if message["type"] == "state":
            states.append(message)
            seq = 0
        elif message["type"] == "delta":
            assert message["seq"] == seq + 1, (seq, message)
            rebuilt = apply_delta(states[-1], message)  # type: ignore[arg-type]
            assert rebuilt is not None, message
            states.append(dict(rebuilt))
            seq = message["seq"]
        else:
            continue
        kinds.append(message["type"])
        if states[-1]["outcome"]:
            return


def moment_free(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("now", "presence")}


def test_state_mode_viewers_on_another_process_rebuild_the_game_from_deltas(
    pg_url: str, own_redis: Any, own_cluster: list[SiteProcess]
) -> None:
    cluster, redis = own_cluster, own_redis
    a, b, c = cluster

    async def until(condition, what: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            assert time.monotonic() < deadline, f"waited too long for {what}"
            await asyncio.sleep(0.05)

    async def run() -> None:
        async with httpx.AsyncClient(timeout=20) as http:
            seats = await create_friend_game(http, a.url, b.url, "kendall")
        gid = seats.game_id
        viewers: dict[str, tuple[list[dict[str, Any]], list[str]]] = {
            "spectator": ([], []),
            "seat A": ([], []),
        }
        stop = asyncio.Event()
        async with (
            websockets.connect(f"{c.ws}/ws/games/{gid}") as spectator,
            websockets.connect(f"{c.ws}/ws/games/{gid}?token={seats.tokens[0]}") as holder,
        ):
            watching = [
                asyncio.create_task(follow(spectator, *viewers["spectator"], stop)),
                asyncio.create_task(follow(holder, *viewers["seat A"], stop)),
            ]
            bots = game_bots(seats, [[a.ws, b.ws], [b.ws, a.ws]], think=0.02, seed=3)
            deadline = time.monotonic() + 150

            async def restart_redis() -> None:
                states = viewers["spectator"][0]
                await until(lambda: bool(states) and states[-1]["ply"] >= 30, "ply 30")
                redis.stop()
                await until(
                    lambda: all("lost Redis" in p.log.read_text() for p in cluster), "lost Redis"
                )
                redis.start()

            await asyncio.gather(restart_redis(), *(bot.run(deadline) for bot in bots))
            assert all(bot.outcome is not None for bot in bots), [bot.errors for bot in bots]
            try:
                await asyncio.wait_for(asyncio.gather(*watching), 30)
            finally:
                stop.set()
        async with httpx.AsyncClient(timeout=20) as http:
            full = {
                "spectator": (await http.get(f"{c.url}/api/games/{gid}")).json(),
                "seat A": (
                    await http.get(
                        f"{c.url}/api/games/{gid}", headers={"X-Seat-Token": seats.tokens[0]}
                    )
                ).json(),
            }
        for name, (states, kinds) in viewers.items():
            assert kinds[0] == "state" and set(kinds[1:]) == {"delta"}, (name, kinds[:5])
            final = states[-1]
            assert moment_free(final) == moment_free(full[name]), name
            for before, after in zip(states, states[1:]):  # each continues the last
                assert after["history"][: len(before["history"])] == before["history"]
            assert [e["ply"] for e in final["history"]] == list(range(final["ply"]))
        assert viewers["seat A"][0][-1]["you"] == [0] and viewers["spectator"][0][-1]["you"] == []

    run_coroutine(run())
