"""Ratings with several processes (PostgreSQL and Redis): both players of a rated game resign
at the same moment on two processes while every process is asked for the game's ratings (each
asking rates a finished game not yet rated): the game ends once and each player's rating moves
once.  A rated game resigned before both players moved rates nobody (rating farming between
two names of one person), and a rated game whose end was stored without its ratings (its
process killed) is rated by the processes that start next, once, with nobody reading it."""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import asyncpg
import httpx

from .conftest import SiteProcess, started
from .test_cluster import _pg
from .test_storage_pg import run as run_in_thread


async def _named(http: httpx.AsyncClient, url: str, name: str) -> None:
    taken = await http.post(f"{url}/name", data={"name": name})
    assert taken.status_code == 303, taken.text


async def _rated_game(a: httpx.AsyncClient, b: httpx.AsyncClient, first: str, second: str) -> str:
    made = await a.post(f"{first}/games", data={"mode": "friend", "colour": "A", "rated": "1"})
    path = made.headers["location"]
    page = await a.get(f"{first}{path}")
    invite = re.search(r"/g/[\w-]+/join/[\w-]+", page.text)
    assert invite and 'data-rated="1"' in page.text
    assert (await b.post(f"{second}{invite.group(0)}")).status_code == 303
    assert (await b.get(f"{second}{path}")).status_code == 200  # links B's seat
    return path.rsplit("/", 1)[1]


async def _both_move(clients: dict[int, tuple[httpx.AsyncClient, str]], game_id: str) -> None:
    """Seed both seats, then play until each player has made a move of their own (a rated
    game is rated only from then on); ``clients``: each seat's device and its process."""
    for seat, (client, url) in clients.items():
        seeded = await client.post(f"{url}/api/games/{game_id}/seed", json={"seed": f"s{seat}"})
        assert seeded.status_code == 200, seeded.text
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        client, url = clients[0]
        seen = (await client.get(f"{url}/api/games/{game_id}")).json()
        moved = {h["seat"] for h in seen["history"] if h["kind"] not in ("throw", "pass")}
        if moved == {0, 1}:
            return
        if seen["forced_pass"]:
            await asyncio.sleep(0.02)  # the server plays it
            continue
        client, url = clients[seen["decider"]]
        mine = (await client.get(f"{url}/api/games/{game_id}")).json()
        legal = [m for m in mine["legal"] if m != "pass"]
        if mine["ply"] == seen["ply"] and legal:
            await client.post(
                f"{url}/api/games/{game_id}/moves", json={"ply": mine["ply"], "move": legal[0]}
            )
    raise AssertionError("the players made no move of their own")


def test_a_rated_game_resigned_before_both_moved_rates_nobody(cluster, pg_url: str) -> None:
    """Two names from one device's owner: one makes a rated game on one process, the other
    joins on another and resigns at once, five times: neither rating moves."""
    urls = [p.url for p in cluster]

    async def main() -> None:
        async with httpx.AsyncClient(timeout=20) as a, httpx.AsyncClient(timeout=20) as b:
            await _named(a, urls[0], "Farmer_A")
            await _named(b, urls[1], "Farmer_B")
            games = []
            for _ in range(5):
                game_id = await _rated_game(a, b, urls[0], urls[1])
                resigned = await b.post(f"{urls[1]}/api/games/{game_id}/resign", json={})
                assert resigned.status_code == 200, resigned.text
                # the other process learns of the end over Redis: until then its copy of the
                # game goes on, rated; once it knows, the game is casual and rates nobody
                deadline = time.monotonic() + 20
                while True:
                    got = (await a.get(f"{urls[0]}/api/games/{game_id}/ratings")).json()
                    if got["rated"] is False:
                        break
                    assert [s["change"] for s in got["seats"]] == [None, None], got
                    assert time.monotonic() < deadline, f"{game_id} stays rated: {got}"
                    await asyncio.sleep(0.05)
                assert [s["change"] for s in got["seats"]] == [None, None]
                games.append(game_id)
            conn = await asyncpg.connect(_pg(pg_url))
            try:
                changes = await conn.fetchval(
                    "SELECT count(*) FROM rating_changes WHERE game_id = ANY($1::text[])", games
                )
                counted = await conn.fetchval(
                    "SELECT count(*) FROM ratings r JOIN players p ON p.id = r.player_id"
                    " WHERE p.name LIKE 'Farmer_%' AND r.games > 0"
                )
                assert (changes, counted) == (0, 0)
            finally:
                await conn.close()

    run_in_thread(main())


def test_a_game_ended_without_its_ratings_is_rated_by_the_next_processes_once(
    cluster, pg_url: str, redis, tmp_path: Path
) -> None:
    """The end of a rated game is written as a process killed after storing it leaves it: over,
    ``rating_done`` false, no change.  Two processes started then rate it, once, by
    themselves: nobody asks for the game's ratings."""
    urls = [p.url for p in cluster]

    async def prepare() -> str:
        async with httpx.AsyncClient(timeout=20) as a, httpx.AsyncClient(timeout=20) as b:
            await _named(a, urls[0], "Crashed_A")
            await _named(b, urls[1], "Crashed_B")
            game_id = await _rated_game(a, b, urls[0], urls[1])
            await _both_move({0: (a, urls[0]), 1: (b, urls[1])}, game_id)
        conn = await asyncpg.connect(_pg(pg_url))
        try:
            ply = await conn.fetchval("SELECT ply FROM games WHERE id = $1", game_id)
            async with conn.transaction():
                await conn.execute(
                    "INSERT INTO actions (game_id, ply, kind, seat, notation, created_at)"
                    " VALUES ($1, $2, 'end', 1, 'resignation', now())",
                    game_id,
                    ply,
                )
                await conn.execute(
                    "UPDATE games SET ply = ply + 1, result = 'A', termination = 'resignation'"
                    " WHERE id = $1",
                    game_id,
                )
            assert (
                await conn.fetchval("SELECT rating_done FROM games WHERE id = $1", game_id) is False
            )
        finally:
            await conn.close()
        return game_id

    game_id = run_in_thread(prepare())
    fresh = [SiteProcess(pg_url, redis.url, tmp_path, f"restarted{i}") for i in range(2)]

    async def rated() -> tuple[bool, int]:
        conn = await asyncpg.connect(_pg(pg_url))
        try:
            done = await conn.fetchval("SELECT rating_done FROM games WHERE id = $1", game_id)
            changes = await conn.fetchval(
                "SELECT count(*) FROM rating_changes WHERE game_id = $1", game_id
            )
            return bool(done), int(changes)
        finally:
            await conn.close()

    with started(fresh):
        # both processes are serving: each swept the finished games at start-up
        assert run_in_thread(rated()) == (True, 2)

    async def counted() -> list[tuple[str, int]]:
        conn = await asyncpg.connect(_pg(pg_url))
        try:
            rows = await conn.fetch(
                "SELECT p.name, r.games FROM ratings r JOIN players p ON p.id = r.player_id"
                " WHERE p.name LIKE 'Crashed_%' ORDER BY p.name"
            )
            return [(r["name"], r["games"]) for r in rows]
        finally:
            await conn.close()

    assert run_in_thread(counted()) == [("Crashed_A", 1), ("Crashed_B", 1)]


def test_a_rated_game_ended_on_two_processes_at_once_moves_each_rating_once(
    cluster, pg_url: str
) -> None:
    urls = [p.url for p in cluster]

    async def main() -> None:
        async with (
            httpx.AsyncClient(timeout=20) as a,
            httpx.AsyncClient(timeout=20) as b,
            httpx.AsyncClient(timeout=20) as watcher,
        ):
            await _named(a, urls[0], "Racer_A")
            await _named(b, urls[1], "Racer_B")
            games = []
            for _ in range(4):
                game_id = await _rated_game(a, b, urls[0], urls[1])
                await _both_move({0: (a, urls[0]), 1: (b, urls[1])}, game_id)
                resign = [
                    a.post(f"{urls[0]}/api/games/{game_id}/resign", json={}),
                    b.post(f"{urls[1]}/api/games/{game_id}/resign", json={}),
                ]
                asks = [watcher.get(f"{url}/api/games/{game_id}/ratings") for url in urls * 2]
                answers = await asyncio.gather(*resign, *asks)
                assert sorted(r.status_code for r in answers[:2]) == [200, 409]
                # after the end, any process's answer has both changes (it rates the game if
                # no process has yet, or waits for the one that is)
                got = await watcher.get(f"{urls[2]}/api/games/{game_id}/ratings")
                assert [s["change"] is not None for s in got.json()["seats"]] == [True, True]
                games.append(game_id)
            conn = await asyncpg.connect(_pg(pg_url))
            try:
                for game_id in games:
                    ends = await conn.fetchval(
                        "SELECT count(*) FROM actions WHERE game_id = $1 AND kind = 'end'", game_id
                    )
                    changes = await conn.fetchval(
                        "SELECT count(*) FROM rating_changes WHERE game_id = $1", game_id
                    )
                    done = await conn.fetchval(
                        "SELECT rating_done FROM games WHERE id = $1", game_id
                    )
                    assert (ends, done, changes) == (1, True, 2)
                counted = await conn.fetch(
                    "SELECT p.name, r.games FROM ratings r JOIN players p ON p.id = r.player_id"
                    " WHERE p.name LIKE 'Racer_%' ORDER BY p.name"
                )
                assert [(r["name"], r["games"]) for r in counted] == [
                    ("Racer_A", 4),
                    ("Racer_B", 4),
                ]
                # each rating is the chain of its changes: every change starts where the last
                # one ended
                for name in ("Racer_A", "Racer_B"):
                    rows = await conn.fetch(
                        "SELECT c.before, c.after FROM rating_changes c"
                        " JOIN players p ON p.id = c.player_id WHERE p.name = $1 ORDER BY c.id",
                        name,
                    )
                    for earlier, later in zip(rows, rows[1:]):
                        assert later["before"] == earlier["after"]
            finally:
                await conn.close()

    run_in_thread(main())


def test_rated_askers_on_two_processes_are_paired_once_each(cluster) -> None:
    urls = [p.url for p in cluster[:2]]

    async def main() -> None:
        clients = [httpx.AsyncClient(timeout=30) for _ in range(12)]
        try:
            for i, client in enumerate(clients):
                await _named(client, urls[i % 2], f"Seeker_{i}")
            request = {"variant": "kendall", "time_control": "move:45", "rated": "1"}
            answers = await asyncio.gather(
                *(c.post(f"{urls[i % 2]}/play-now", data=request) for i, c in enumerate(clients))
            )
            games = [r.headers["location"].rsplit("/", 1)[1] for r in answers]
            # six games of two players each: nobody left waiting, nobody paired twice
            assert sorted(games.count(g) for g in set(games)) == [2] * 6
            for game_id in set(games):
                got = await clients[0].get(f"{urls[0]}/api/games/{game_id}/ratings")
                assert got.json()["rated"] and len(got.json()["seats"]) == 2
            lobby = (await clients[0].get(f"{urls[1]}/api/lobby")).json()
            assert not {g["id"] for g in lobby} & set(games)
        finally:
            for client in clients:
                await client.aclose()

    run_in_thread(main())
