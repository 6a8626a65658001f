"""A turn-based game on two processes (PostgreSQL and Redis), their clocks moved by the test
past a move's deadline: both processes wait for it, and the loss on time is stored exactly
once — one ``end`` action, the same game on both."""

from __future__ import annotations

import asyncio
import time

import httpx
from sqlalchemy import text

from senet.service.games.storage import Storage

from .test_fair_play_cluster import advance
from .test_storage_pg import run as run_in_thread

DAY_MS = 86_400_000


async def ends_stored(pg_url: str, game_id: str) -> list[tuple[int, int | None, str]]:
    storage = Storage(pg_url)
    await storage.init()
    assert storage.engine is not None
    try:
        async with storage.engine.connect() as conn:
            rows = await conn.execute(
                text("SELECT ply, seat, notation FROM actions WHERE game_id = :g AND kind = 'end'"),
                {"g": game_id},
            )
            return [(r.ply, r.seat, r.notation) for r in rows]
    finally:
        await storage.close()


def test_a_turn_based_deadline_ends_the_game_once_with_two_processes(
    clocked_pair,
    pg_url: str,
) -> None:
    a, b = clocked_pair

    async def main() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            created = (
                await http.post(
                    f"{a.url}/api/games",
                    json={"mode": "friend", "colour": "A", "time_control": "days:1"},
                )
            ).json()
            game, token_a = created["id"], created["token"]
            http.cookies.clear()
            joined = await http.post(created["invite_url"].replace(a.url, b.url))
            token_b = joined.cookies[f"senet_seat_{game}"]
            http.cookies.clear()
            for server, token in ((a, token_a), (b, token_b)):
                seeded = await http.post(
                    f"{server.url}/api/games/{game}/seed",
                    json={"seed": "mine"},
                    headers={"X-Seat-Token": token},
                )
                assert seeded.status_code == 200, seeded.text
            # both processes hold the game and wait for its deadline: the player's decision due
            limit = time.monotonic() + 20
            while True:
                states = [(await http.get(f"{s.url}/api/games/{game}")).json() for s in (a, b)]
                clock = states[0]["clock"]
                if (
                    clock["running"] is not None
                    and states[0]["ply"] == states[1]["ply"]
                    and states[1]["clock"]["deadline"] == clock["deadline"]
                ):
                    break
                if states[0]["forced_pass"] is not None:
                    await advance(http, (a, b), 1_000)  # the server's pass, a moment later
                assert time.monotonic() < limit, states
                await asyncio.sleep(0.05)
            late, ply = clock["running"], states[0]["ply"]
            assert clock["kind"] == "days" and clock["seconds"] == 86_400
            await advance(http, (a, b), DAY_MS - 1_000)
            assert (await http.get(f"{b.url}/api/games/{game}")).json()["phase"] == "playing"
            await advance(http, (a, b), 1_000)  # the deadline, on both processes at once
            limit = time.monotonic() + 20
            while True:
                finals = [(await http.get(f"{s.url}/api/games/{game}")).json() for s in (a, b)]
                if all(f["phase"] == "over" for f in finals):
                    break
                assert time.monotonic() < limit, finals
                await asyncio.sleep(0.05)
            for final in finals:
                assert final["termination"] == "time forfeit"
                assert final["outcome"]["winner"] == 1 - late
                assert final["ply"] == ply + 1
            assert await ends_stored(pg_url, game) == [(ply, late, "time forfeit")]
            await advance(http, (a, b), DAY_MS)  # nothing more happens later
            assert await ends_stored(pg_url, game) == [(ply, late, "time forfeit")]

    run_in_thread(main())
