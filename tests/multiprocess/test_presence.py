"""Presence over several processes: a player on one process sees the opponent on another as
online, a spectator on a third is counted, and a disconnection anywhere is seen everywhere."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import websockets

from senet_testkit.wsbots import create_friend_game

from .test_storage_pg import run


async def presence_until(ws, predicate, timeout: float = 10.0) -> dict:
    """The first presence message (after those already received) for which ``predicate`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if msg["type"] == "presence" and predicate(msg):
            return msg


def test_presence_is_summed_over_every_process(cluster) -> None:
    a, b, c = cluster

    async def main() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            seats = await create_friend_game(http, a.url, b.url)
        game = seats.game_id
        async with websockets.connect(f"{a.ws}/ws/games/{game}?token={seats.tokens[0]}") as host:
            await presence_until(
                host, lambda m: m["online"] == [True, False] and m["spectators"] == 0
            )
            guest = await websockets.connect(f"{b.ws}/ws/games/{game}?token={seats.tokens[1]}")
            # the guest, on another process, sees the host online, and the host sees the guest
            await presence_until(guest, lambda m: m["online"] == [True, True])
            await presence_until(host, lambda m: m["online"] == [True, True])
            async with websockets.connect(f"{c.ws}/ws/games/{game}") as spectator:
                seen = await presence_until(
                    spectator, lambda m: m["online"] == [True, True] and m["spectators"] == 1
                )
                assert seen["spectators"] == 1
                await presence_until(host, lambda m: m["spectators"] == 1)
                await presence_until(guest, lambda m: m["spectators"] == 1)
            await presence_until(host, lambda m: m["spectators"] == 0)
            await guest.close()
            await presence_until(host, lambda m: m["online"] == [True, False])

    run(main())
