"""Slow and greedy clients from one address cannot take the site from everyone else.

A real server with a small descriptor limit (200 open files), a request timeout of 2 s and at
most 32 connections per address.  From 127.0.0.2: 20 WebSockets held open, then 300 requests
sent half-way (a request line and one header, never finished).  Meanwhile a player on
127.0.0.1 plays moves and opens a WebSocket: every answer comes at once.  Then every half-sent
request is closed by the server (those over the cap at once, the others after the timeout),
and WebSockets count against the cap too.  (Before: no connection was ever closed, and the storm
used up the descriptors, so the player's requests failed.)
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from .conftest import SiteServer
from .helpers import friend_game, state

STORM_ADDRESS = "127.0.0.2"
CAP = 32
SOCKETS = 20
HALF_SENT = 300
REQUEST_TIMEOUT = 2.0
#: a player's answer "at once" on a shared, loaded test machine
AT_ONCE = 3.0


def run(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture
def small_site(tmp_path: Path) -> Iterator[SiteServer]:
    server = SiteServer(tmp_path / "senet.sqlite3")
    server.fd_limit = 200
    server.env.update(
        {
            "SENET_REQUEST_TIMEOUT": str(REQUEST_TIMEOUT),
            "SENET_CONNECTIONS_PER_ADDRESS": str(CAP),
        }
    )
    server.start()
    yield server
    server.stop()


async def half_request(
    host: str, port: int
) -> tuple[asyncio.StreamReader, float, asyncio.StreamWriter]:
    """A connection that sends half a request head and never the rest; when it was opened."""
    reader, writer = await asyncio.open_connection(host, port, local_addr=(STORM_ADDRESS, 0))
    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    await writer.drain()
    return reader, time.monotonic(), writer  # (a writer let go of would close the socket)


async def closed_after(reader: asyncio.StreamReader, opened: float) -> float:
    """Seconds from opening until the server closed the connection."""
    try:
        await reader.read()
    except ConnectionResetError:  # closed with the half request unread: a reset
        pass
    return time.monotonic() - opened


@pytest.mark.slow  # hundreds of connections and a request timeout on a server of its own
def test_a_slow_client_storm_does_not_slow_a_player(small_site: SiteServer) -> None:
    game = friend_game(small_site.url)
    port = small_site.port

    async def main() -> None:
        sockets = []
        for _ in range(SOCKETS):
            sockets.append(
                await websockets.connect(
                    f"{small_site.ws_url}/ws/games/{game.game_id}",
                    local_addr=(STORM_ADDRESS, 0),
                    max_queue=None,  # never stop reading: each close is answered at once
                )
            )
        half = []
        for _ in range(HALF_SENT):
            try:
                half.append(await half_request("127.0.0.1", port))
            except OSError:
                break  # the storm's own side ran out: enough
        waits = [asyncio.create_task(closed_after(r, opened)) for r, opened, _ in half]

        # The player, meanwhile: moves over HTTP and a WebSocket of their own, all at once.
        async with httpx.AsyncClient(base_url=small_site.url, timeout=AT_ONCE) as player:
            for _ in range(4):
                seen = (await player.get(f"/api/games/{game.game_id}")).json()
                while seen["forced_pass"]:  # the server's to play: wait for it
                    await asyncio.sleep(0.01)
                    seen = (await player.get(f"/api/games/{game.game_id}")).json()
                token = game.tokens[seen["decider"]]
                mine = (
                    await player.get(f"/api/games/{game.game_id}", headers={"X-Seat-Token": token})
                ).json()
                answer = await player.post(
                    f"/api/games/{game.game_id}/moves",
                    json={"ply": mine["ply"], "move": mine["legal"][0]},
                    headers={"X-Seat-Token": token},
                )
                assert answer.status_code == 200, answer.text
            async with websockets.connect(
                f"{small_site.ws_url}/ws/games/{game.game_id}", open_timeout=AT_ONCE
            ) as ws:
                assert json.loads(await asyncio.wait_for(ws.recv(), AT_ONCE))["type"] == "state"

        # Every half-sent request is closed by the server: those over the cap at once, the
        # others when their time is up (how soon "at once" is depends on the machine's load).
        closed = await asyncio.wait_for(asyncio.gather(*waits), REQUEST_TIMEOUT + 10)
        assert len(closed) == len(half) > CAP
        for _, _, writer in half:
            writer.close()
        # WebSockets are capped like the rest: up to the cap they open, then one is refused.
        for _ in range(CAP - SOCKETS):
            sockets.append(
                await websockets.connect(
                    f"{small_site.ws_url}/ws/games/{game.game_id}",
                    local_addr=(STORM_ADDRESS, 0),
                    max_queue=None,
                )
            )
        with pytest.raises((websockets.InvalidHandshake, ConnectionResetError)):
            await websockets.connect(
                f"{small_site.ws_url}/ws/games/{game.game_id}", local_addr=(STORM_ADDRESS, 0)
            )
        for ws in sockets:
            await ws.close()

    run(main())
    assert state(small_site.url, game.game_id)["ply"] > 0
