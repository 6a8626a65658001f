"""Open games, quick pairing and the server's clock with several processes (PostgreSQL and
Redis): no double pairing, one taker, one loss on time, a cancelled game gone everywhere —
whichever process each request meets."""

from __future__ import annotations

import asyncio
import json

import httpx
from websockets.sync.client import connect

from .test_cluster import stored_actions
from .test_storage_pg import run as run_in_thread


def test_askers_on_two_processes_are_paired_once_each(clocked_pair) -> None:
    a, b = clocked_pair

    async def run() -> None:
        async def ask(i: int) -> dict:
            async with httpx.AsyncClient(timeout=20) as http:  # a browser of its own
                server = (a, b)[i % 2]
                r = await http.post(
                    f"{server.url}/api/pair", json={"variant": "kendall", "time_control": "move:60"}
                )
                assert r.status_code == 200, r.text
                return r.json()

        answers = await asyncio.gather(*(ask(i) for i in range(12)))
        waiting = [x["id"] for x in answers if x["waiting"]]
        joined = [x["id"] for x in answers if not x["waiting"]]
        assert len(waiting) == len(joined) == 6
        assert sorted(waiting) == sorted(joined)
        async with httpx.AsyncClient(timeout=10) as http:
            lobby = (await http.get(f"{b.url}/api/lobby")).json()
            assert not {g["id"] for g in lobby} & set(waiting)
            for game_id in waiting:
                seats = {x["seat"] for x in answers if x["id"] == game_id}
                assert seats == {0, 1}

    run_in_thread(run())


def test_racing_takers_on_two_processes_take_one_seat(clocked_pair) -> None:
    a, b = clocked_pair

    async def run() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            r = await http.post(f"{a.url}/api/games", json={"mode": "friend", "listed": True})
            game_id = r.json()["id"]

        async def take(i: int) -> int:
            async with httpx.AsyncClient(timeout=10) as http:
                server = (a, b)[i % 2]
                r = await http.post(f"{server.url}/api/lobby/{game_id}/take", json={})
                return r.status_code

        codes = await asyncio.gather(*(take(i) for i in range(10)))
        assert sorted(codes) == [200] + [409] * 9

    run_in_thread(run())


def test_a_game_cancelled_on_one_process_is_gone_on_the_other(clocked_pair) -> None:
    a, b = clocked_pair
    created = httpx.post(
        f"{a.url}/api/games", json={"variant": "bell", "mode": "friend", "listed": True}
    ).json()
    game_id = created["id"]
    assert httpx.get(f"{b.url}/api/games/{game_id}").status_code == 200  # cached on b too
    with connect(f"{b.ws_url}/ws/games/{game_id}") as watching:
        assert json.loads(watching.recv(timeout=10))["type"] == "state"
        answer = httpx.post(
            f"{a.url}/api/games/{game_id}/cancel",
            json={},
            headers={"x-seat-token": created["token"]},
        )
        assert answer.status_code == 204, answer.text
        while json.loads(watching.recv(timeout=10))["type"] != "cancelled":
            pass  # a presence count may come first
    for server in (a, b):
        gone = httpx.get(f"{server.url}/api/games/{game_id}")
        assert gone.status_code == 404 and gone.json()["code"] == "unknown_game"
        assert game_id not in {g["id"] for g in httpx.get(f"{server.url}/api/lobby").json()}
    taken = httpx.post(f"{b.url}/api/lobby/{game_id}/take", json={})
    assert taken.status_code == 404 and taken.json()["code"] == "unknown_game"


def test_a_deadline_watched_on_two_processes_ends_the_game_once(clocked_pair, pg_url) -> None:
    a, b = clocked_pair

    async def run() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            r = await http.post(
                f"{a.url}/api/games",
                json={"mode": "local", "time_control": "move:30", "seed": "both seats"},
            )
            game = r.json()
            http.cookies.clear()
            for server in (a, b):  # both processes hold the game and wait for its deadline
                state = (await http.get(f"{server.url}/api/games/{game['id']}")).json()
                assert state["clock"]["running"] in (0, 1)
            for server in (a, b):
                await http.post(f"{server.url}/api/testing/clock", json={"advance_ms": 31_000})
            for _ in range(100):
                stored = await stored_actions(pg_url, game["id"])
                if any(kind == "end" for _, kind, _, _ in stored):
                    break
                await asyncio.sleep(0.05)
            ends = [s for s in stored if s[1] == "end"]
            assert len(ends) == 1 and ends[0][3] == "time forfeit"
            for server in (a, b):
                final = (await http.get(f"{server.url}/api/games/{game['id']}")).json()
                assert final["phase"] == "over" and final["termination"] == "time forfeit"

    run_in_thread(run())
