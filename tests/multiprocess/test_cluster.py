"""Several real server processes on one PostgreSQL database and one Redis.

A player on one process and the opponent on another see each other's moves live, a spectator
on a third sees both; two actions racing for the same ply through two processes: exactly one
is stored, the other is answered ``stale``; a client that reconnects with the number of events
it has gets exactly the ones it missed.
"""

from __future__ import annotations

import asyncio
import json
import time

import asyncpg
import httpx
import websockets

from senet.engine import parse_move
from senet_testkit.loops import run as run_coroutine
from senet_testkit.wsbots import create_friend_game, play_game


def _pg(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


async def stored_actions(pg_url: str, game_id: str) -> list[tuple[int, str, int | None, str]]:
    conn = await asyncpg.connect(_pg(pg_url))
    try:
        rows = await conn.fetch(
            "SELECT ply, kind, seat, notation FROM actions WHERE game_id = $1 ORDER BY ply", game_id
        )
    finally:
        await conn.close()
    return [(r["ply"], r["kind"], r["seat"], r["notation"]) for r in rows]


async def recv_until(ws, predicate, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if predicate(msg):
            return msg


def test_players_and_spectator_on_three_processes_see_every_move(cluster, pg_url) -> None:
    a, b, c = cluster

    async def run() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            seats = await create_friend_game(http, a.url, b.url)
        # The spectator (no seat) on the third process, in events mode from the start.
        async with websockets.connect(f"{c.ws}/ws/games/{seats.game_id}?since=0") as spectator:
            bots = await play_game(seats, [[a.ws], [b.ws]], time.monotonic() + 120, seed=1)
            assert all(bot.outcome is not None for bot in bots), [bot.errors for bot in bots]
            final_ply = bots[0].ply
            seen: list[dict] = []
            while len(seen) < final_ply:
                msg = await recv_until(spectator, lambda m: m["type"] in ("events", "state"))
                if msg["type"] == "events":
                    assert msg["since"] <= len(seen)
                    seen.extend(msg["events"][len(seen) - msg["since"] :])
        stored = await stored_actions(pg_url, seats.game_id)
        assert [e["ply"] for e in seen] == list(range(final_ply)) == [s[0] for s in stored]
        for bot in bots:
            assert bot.events == seen  # both players saw exactly what the spectator saw
            mine = bot.mine_stored()
            # Each of its stored moves is the one it sent, or a forced pass the server played.
            assert {p: m for p, m in mine.items() if p in bot.sent} == {
                p: m for p, m in bot.sent.items() if p in mine
            }
            assert all(m == "pass" for p, m in mine.items() if p not in bot.sent)
        moves = {**bots[0].mine_stored(), **bots[1].mine_stored()}
        extra = [s for s in stored if s[1] == "move" and s[0] not in moves]
        assert sorted(moves) == [s[0] for s in stored if s[1] == "move"], (
            extra[:5],
            [seen[s[0]] for s in extra[:5]],
        )
        # Each bot saw its opponent's every move live: a latency for each one the opponent sent.
        for bot in bots:
            opponent = bots[1 - bot.seat]
            assert len(bot.latencies) == len(set(opponent.mine_stored()) & set(opponent.sent))

    run_coroutine(run())


def test_racing_actions_on_two_processes_store_exactly_one(cluster, pg_url) -> None:
    a, b, _ = cluster

    async def run() -> None:
        stale = 0
        async with httpx.AsyncClient(timeout=10) as http:
            for _ in range(10):
                # An on-this-screen game: one secret holds both seats, so both processes accept it.
                r = await http.post(
                    f"{a.url}/api/games",
                    json={"mode": "local", "variant": "standard", "seed": "both seats"},
                )
                game = r.json()
                http.cookies.clear()
                headers = {"X-Seat-Token": game["token"]}
                state = (await http.get(f"{a.url}/api/games/{game['id']}", headers=headers)).json()
                ply, legal = state["ply"], state["legal"]
                moves = [legal[0], legal[-1]]
                answers = await asyncio.gather(
                    *(
                        http.post(
                            f"{p.url}/api/games/{game['id']}/moves",
                            headers=headers,
                            json={"ply": ply, "move": m},
                        )
                        for p, m in zip((a, b), moves)
                    )
                )
                codes = sorted(r.status_code for r in answers)
                stored = await stored_actions(pg_url, game["id"])
                assert [s[0] for s in stored] == list(range(len(stored)))
                assert sum(1 for s in stored if s[0] == ply) == 1  # ply `ply` is stored once
                if codes == [200, 409]:
                    loser = next(r for r in answers if r.status_code == 409).json()
                    assert loser["code"] == "stale", loser
                    winner = next(m for r, m in zip(answers, moves) if r.status_code == 200)
                    assert stored[ply][3] == parse_move(winner).text()
                    stale += 1
                else:
                    # Not concurrent after all: the second saw the first's ply and was stale,
                    # or both were identical and the second one stale: never both stored.
                    assert codes == [200, 409] or codes.count(200) == 1, codes
                # Both processes now show the same single history.
                states = [
                    (await http.get(f"{p.url}/api/games/{game['id']}")).json() for p in (a, b)
                ]
                assert states[0]["ply"] == states[1]["ply"] == len(stored)
        assert stale == 10

    run_coroutine(run())


def test_reconnect_with_event_number_gets_exactly_what_was_missed(cluster) -> None:
    a, b, _ = cluster

    async def run() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            seats = await create_friend_game(http, a.url, b.url, seeds=True)
            token_a = seats.tokens[0]
            # Player A plays on process a while player B is away.
            async with websockets.connect(
                f"{a.ws}/ws/games/{seats.game_id}?token={token_a}&since=0"
            ) as ws:
                first = await recv_until(ws, lambda m: m["type"] == "events")
                known = first["ply"]
                assert first["decider"] == 0 and first["legal"]
                await ws.send(json.dumps({"type": "move", "ply": known, "move": first["legal"][0]}))
                after = await recv_until(ws, lambda m: m["type"] == "events" and m["ply"] > known)
            # B comes back on process b with the number of events it had: it gets just the rest.
            async with websockets.connect(
                f"{b.ws}/ws/games/{seats.game_id}?token={seats.tokens[1]}&since={known}"
            ) as ws:
                missed = await recv_until(ws, lambda m: m["type"] in ("events", "state"))
                assert (
                    missed["type"] == "events"
                    and missed["since"] == known
                    and missed["ply"] == after["ply"]
                )
                assert [e["ply"] for e in missed["events"]] == list(range(known, after["ply"]))
                # An impossible number (from the future): the full state instead.
                await ws.send(json.dumps({"type": "sync", "since": 10_000}))
                full = await recv_until(ws, lambda m: m["type"] == "state")
                assert full["ply"] == after["ply"] and len(full["history"]) == after["ply"]

    run_coroutine(run())


def test_computer_moves_are_stored_once_with_several_processes(cluster, pg_url) -> None:
    a, b, c = cluster

    async def run() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            r = await http.post(
                f"{a.url}/api/games", json={"mode": "computer", "colour": "A", "seed": "human"}
            )
            game = r.json()
            gid, token = game["id"], game["token"]
            # Spectators on the two other processes: each of them could play the computer.
            watchers = [await websockets.connect(f"{p.ws}/ws/games/{gid}?since=0") for p in (b, c)]
            deadline = time.monotonic() + 90
            state = (
                await http.get(f"{a.url}/api/games/{gid}", headers={"X-Seat-Token": token})
            ).json()
            while state["outcome"] is None and time.monotonic() < deadline:
                if state["decider"] == 0 and state["legal"]:
                    r = await http.post(
                        f"{b.url}/api/games/{gid}/moves",
                        headers={"X-Seat-Token": token},
                        json={"ply": state["ply"], "move": state["legal"][-1]},
                    )
                    assert r.status_code in (200, 409), r.text
                await asyncio.sleep(0.05)
                state = (
                    await http.get(f"{c.url}/api/games/{gid}", headers={"X-Seat-Token": token})
                ).json()
            for ws in watchers:
                await ws.close()
        assert state["outcome"] is not None
        stored = await stored_actions(pg_url, gid)
        assert [s[0] for s in stored] == list(range(len(stored))) == list(range(state["ply"]))
        assert any(s[1] == "move" and s[2] == 1 for s in stored)  # the computer played

    run_coroutine(run())


def test_seeds_given_on_two_processes_at_once_start_the_game_once(cluster, pg_url) -> None:
    """The two seats' seeds reach two processes at the same moment:
    each is stored once, the first throw exactly once, and every process shows both seeds."""
    a, b, c = cluster

    async def run() -> None:
        async with httpx.AsyncClient(timeout=10) as http:
            for i in range(25):
                r = await http.post(
                    f"{a.url}/api/games", json={"mode": "local", "variant": "standard"}
                )
                game = r.json()
                http.cookies.clear()
                headers = {"X-Seat-Token": game["token"]}
                answers = await asyncio.gather(
                    *(
                        http.post(
                            f"{p.url}/api/games/{game['id']}/seed",
                            headers=headers,
                            json={"seed": f"seed {seat} of {i}", "seat": seat},
                        )
                        for seat, p in ((0, a), (1, b))
                    )
                )
                assert [r.status_code for r in answers] == [200, 200], [r.text for r in answers]
                stored = await stored_actions(pg_url, game["id"])
                assert [(s[0], s[1]) for s in stored] == [(0, "throw")]  # the first throw, once
                for p in (a, b, c):
                    s = (await http.get(f"{p.url}/api/games/{game['id']}")).json()
                    assert s["ply"] == 1 and s["phase"] == "playing", (p.url, s["ply"])
                    assert s["fairness"]["player_seeds"] == f"seed 0 of {i}:seed 1 of {i}"
                late = await http.post(
                    f"{c.url}/api/games/{game['id']}/seed", headers=headers, json={"seed": "late"}
                )
                assert late.status_code == 409 and late.json()["code"] == "not_seeding"

    run_coroutine(run())
