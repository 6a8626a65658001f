"""Fair play with two processes on PostgreSQL and Redis, their clocks moved by the test: a
player who plays through the API on one process is present for a claim made on the other,
and a paired game whose seeds never come is called off on both."""

from __future__ import annotations

import asyncio
import time

import httpx
from websockets.sync.client import connect

from .test_storage_pg import run as run_in_thread


async def advance(http: httpx.AsyncClient, servers, ms: int) -> None:
    for server in servers:
        assert (
            await http.post(f"{server.url}/api/testing/clock", json={"advance_ms": ms})
        ).is_success


def test_moves_through_the_api_on_one_process_keep_a_claim_on_the_other_away(clocked_pair) -> None:
    a, b = clocked_pair

    async def main() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            created = (
                await http.post(f"{a.url}/api/games", json={"mode": "friend", "colour": "A"})
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
            claim = {"url": f"{a.url}/api/games/{game}/claim", "headers": {"X-Seat-Token": token_a}}
            # B opens the game page once, on process b, and closes it
            with connect(f"{b.ws_url}/ws/games/{game}?token={token_b}") as page:
                page.recv(timeout=10)

            for step in range(10):  # B acts only through the API on process b, every 30 s
                await advance(http, (a, b), 30_000)
                state = (
                    await http.get(f"{b.url}/api/games/{game}", headers={"X-Seat-Token": token_b})
                ).json()
                if state["decider"] == 1 and state["legal"]:
                    moved = await http.post(
                        f"{b.url}/api/games/{game}/moves",
                        json={"ply": state["ply"], "move": state["legal"][0]},
                        headers={"X-Seat-Token": token_b},
                    )
                    assert moved.status_code == 200, moved.text
                elif state["decider"] == 0:
                    mine = (
                        await http.get(
                            f"{a.url}/api/games/{game}", headers={"X-Seat-Token": token_a}
                        )
                    ).json()
                    if mine["legal"]:
                        await http.post(
                            f"{a.url}/api/games/{game}/moves",
                            json={"ply": mine["ply"], "move": mine["legal"][0]},
                            headers={"X-Seat-Token": token_a},
                        )
                refused = await http.post(claim["url"], json={}, headers=claim["headers"])
                assert refused.status_code == 409, (step, refused.text)
                assert refused.json()["code"] == "not_abandoned"
            await advance(http, (a, b), 120_001)
            claimed = await http.post(claim["url"], json={}, headers=claim["headers"])
            assert claimed.status_code == 200, claimed.text
            assert claimed.json()["termination"] == "abandoned"

    run_in_thread(main())


def test_a_paired_game_without_seeds_is_called_off_on_both_processes(clocked_pair) -> None:
    a, b = clocked_pair

    async def main() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            waiting = (await http.post(f"{a.url}/api/pair", json={"variant": "bell"})).json()
            assert waiting["waiting"]
            http.cookies.clear()
            paired = (await http.post(f"{b.url}/api/pair", json={"variant": "bell"})).json()
            assert not paired["waiting"] and paired["id"] == waiting["id"]
            game = waiting["id"]
            await advance(http, (a, b), 119_000)
            for server in (a, b):
                assert (await http.get(f"{server.url}/api/games/{game}")).status_code == 200
            # the deadline, and the next sweep of each process (every 5 s of its clock)
            await advance(http, (a, b), 1_000 + 5_000)
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                answers = [
                    (await http.get(f"{s.url}/api/games/{game}")).status_code for s in (a, b)
                ]
                if answers == [404, 404]:
                    break
                await asyncio.sleep(0.05)
            assert answers == [404, 404]

    run_in_thread(main())


def test_a_page_on_the_other_process_is_told_of_the_call_off(clocked_pair) -> None:
    """A page showing the game on the other process is told the game was called off."""
    a, b = clocked_pair
    created = httpx.post(f"{a.url}/api/games", json={"mode": "friend", "colour": "A"}).json()
    joined = httpx.post(created["invite_url"], follow_redirects=False)
    token_b = joined.cookies[f"senet_seat_{created['id']}"]
    with connect(f"{b.ws_url}/ws/games/{created['id']}?token={token_b}") as ws:
        for server in (a, b):
            httpx.post(f"{server.url}/api/testing/clock", json={"advance_ms": 121_000})
        deadline = time.monotonic() + 20
        seen = []
        while time.monotonic() < deadline:
            message = ws.recv(timeout=deadline - time.monotonic())
            seen.append(message)
            if '"cancelled"' in message:
                break
        assert '"aborted"' in seen[-1], seen
