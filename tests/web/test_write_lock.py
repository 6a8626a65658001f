"""The embedded default (one process, SQLite) under the abandoned-move attack.

Many friend games at once; in each, the player to move opens a WebSocket, sends a legal move and
aborts the TCP connection within 0-4 ms, while two spectators open and close sockets on the same
game.  Aborting cancels the server's task that is storing the move: it must still commit (or roll
back) and release the database, so that afterwards every game takes its next move at once and
new games can be created.  (Before, one such round could leave a write lock that failed every
write of the site until the process restarted.)
"""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
import websockets

from senet_testkit.wsbots import GameSeats, create_friend_game

from .conftest import SiteServer

GAMES = 24
ROUNDS = 12
#: "at once": far below SQLite's 5 s wait for a lock, far above a move's cost
AT_ONCE = 3.0


def run(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


async def state_of(
    client: httpx.AsyncClient, base: str, seats: GameSeats, seat: int = 0
) -> dict[str, Any]:
    r = await client.get(
        f"{base}/api/games/{seats.game_id}", headers={"X-Seat-Token": seats.tokens[seat]}
    )
    r.raise_for_status()
    return r.json()


async def abandoned_move(ws_base: str, seats: GameSeats, rng: random.Random) -> None:
    """The decider's socket sends a legal move and is torn down (no close frame) at once."""
    url = f"{ws_base}/ws/games/{seats.game_id}"
    for seat, token in seats.tokens.items():
        async with websockets.connect(
            url, additional_headers={"Cookie": f"senet_seat_{seats.game_id}={token}"}
        ) as ws:
            state = json.loads(await ws.recv())
            if state.get("decider") != seat or not state.get("legal"):
                continue
            await ws.send(
                json.dumps(
                    {"type": "move", "ply": state["ply"], "move": rng.choice(state["legal"])}
                )
            )
            await asyncio.sleep(rng.uniform(0, 0.004))
            ws.transport.abort()
            return


async def spectator(ws_base: str, seats: GameSeats, stop: asyncio.Event) -> None:
    """Opens and closes sockets on the game until ``stop``: each is news to every viewer."""
    while not stop.is_set():
        async with websockets.connect(f"{ws_base}/ws/games/{seats.game_id}") as ws:
            await ws.recv()


async def healthy(client: httpx.AsyncClient, base: str, games: list[GameSeats]) -> None:
    """Every game takes its decider's next move at once, over HTTP; creating a game works."""
    for seats in games:
        seen = await state_of(client, base, seats)
        for _ in range(500):  # a forced pass is the server's to play: wait for it
            if not seen["forced_pass"]:
                break
            await asyncio.sleep(0.01)
            seen = await state_of(client, base, seats)
        decider = seen.get("decider")
        if decider is None:
            continue  # over
        state = await state_of(client, base, seats, decider)
        r = await client.post(
            f"{base}/api/games/{seats.game_id}/moves",
            json={"ply": state["ply"], "move": state["legal"][0]},
            headers={"X-Seat-Token": seats.tokens[decider]},
            timeout=AT_ONCE,
        )
        assert r.status_code == 200, r.text
    r = await client.post(f"{base}/api/games", json={"mode": "friend"}, timeout=AT_ONCE)
    assert r.status_code == 201, r.text


@pytest.mark.slow  # 24 games, 12 rounds of aborted moves on a server of its own
def test_abandoned_moves_never_lock_the_database(own_site: SiteServer) -> None:
    async def main() -> None:
        rng = random.Random(10)
        async with httpx.AsyncClient(timeout=AT_ONCE) as client:
            games = [
                await create_friend_game(client, own_site.url, own_site.url, seeds=True)
                for _ in range(GAMES)
            ]
            for _ in range(ROUNDS):
                stop = asyncio.Event()
                watchers = [
                    asyncio.create_task(spectator(own_site.ws_url, g, stop))
                    for g in games
                    for _ in range(2)
                ]
                attacks = [abandoned_move(own_site.ws_url, g, rng) for g in games]
                results = await asyncio.gather(*attacks, return_exceptions=True)
                stop.set()
                results += await asyncio.gather(*watchers, return_exceptions=True)
                errors = [r for r in results if isinstance(r, BaseException)]
                assert not errors, errors[:3]
            await healthy(client, own_site.url, games)
        log = own_site.log.read_text()
        assert "database is locked" not in log
        assert "Traceback" not in log

    run(main())
