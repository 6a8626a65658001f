"""Bot streams bench: held-open bot event streams against another player's moves.

    .venv/bin/python bench/bot_streams.py                   # 240 streams, 40 s each phase
    .venv/bin/python bench/bot_streams.py --seconds 60 --names 3 --tokens 20 --per-token 4

It starts one ``senet serve`` (SQLite file, the default settings but ``SENET_BOT_LIMITS``,
raised by ``--bot-limits`` so that the streams below may all be opened: the bench measures
what open streams cost, not the limit that now keeps a player's streams few) and, on it, in
one run:

* the victims: two players of a friend game over the WebSocket, each thinking ``--think``
  seconds on average, games one after another; a move's latency is from one player's send to
  the other's update;
* the lobby's churn, both phases: an open game listed and cancelled ``--churn`` times a
  second (two lobby changes each), from one address;
* **quiet**: ``--seconds`` of the above alone;
* **streams**: ``--names`` bot names with ``--tokens`` tokens each open ``--per-token`` event
  streams per token (3 × 20 × 4 = 240 by default), from five addresses given as
  ``X-Forwarded-For`` (the loopback proxy the server trusts), held open and read; then
  ``--seconds`` more of the same play and churn.

It prints each phase's victim move latency (median, p99, max, moves), a lobby read's
(``GET /api/lobby``, twice a second) median and max, the server process's CPU (cores, from
``/proc``), the ratio of the medians, and whether the target is met: the victim's median with
the streams open within 1.5x of the quiet one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from senet_testkit.botapi import api, make_token, named
from senet_testkit.servers import ServeProcess
from senet_testkit.wsbots import Bot, create_friend_game, game_bots

ADDRESSES = [f"203.0.113.{n}" for n in range(20, 25)]
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def victims(site: ServeProcess, bots: list[Bot], think: float, stop: asyncio.Event) -> None:
    """Friend games one after another until ``stop``; every bot is kept in ``bots``."""
    async with httpx.AsyncClient(timeout=60) as http:
        while not stop.is_set():
            seats = await create_friend_game(http, site.url, site.url)
            pair = game_bots(seats, [[site.ws_url], [site.ws_url]], think)
            bots.extend(pair)
            play = asyncio.gather(*(bot.run(time.monotonic() + 3600) for bot in pair))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({play, stopping}, return_when=asyncio.FIRST_COMPLETED)
            play.cancel()
            stopping.cancel()
            await asyncio.gather(play, stopping, return_exceptions=True)


async def churn(site: ServeProcess, per_second: float, stop: asyncio.Event) -> int:
    """An open game listed and cancelled ``per_second`` times a second; how many."""
    done = 0
    headers = {"X-Forwarded-For": "198.51.100.7"}
    async with httpx.AsyncClient(base_url=site.url, timeout=60, headers=headers) as http:
        while not stop.is_set():
            started = time.monotonic()
            made = await http.post(
                "/api/games",
                json={"variant": "standard", "mode": "friend", "colour": "A", "listed": True},
            )
            if made.status_code == 201:
                game = made.json()
                cancelled = await http.post(
                    f"/api/games/{game['id']}/cancel",
                    json={},
                    headers={"X-Seat-Token": game["token"]},
                )
                done += cancelled.is_success
            http.cookies.clear()
            await asyncio.sleep(max(0.0, 1 / per_second - (time.monotonic() - started)))
    return done


async def lobby_reads(site: ServeProcess, times: list[tuple[float, float]], stop: asyncio.Event):
    async with httpx.AsyncClient(base_url=site.url, timeout=60) as http:
        while not stop.is_set():
            started = time.perf_counter()
            (await http.get("/api/lobby")).raise_for_status()
            times.append((started, time.perf_counter() - started))
            await asyncio.sleep(0.5)


def bot_tokens(site: ServeProcess, names: int, tokens: int) -> list[str]:
    """``names`` BOT accounts with ``tokens`` tokens each: every token."""
    made: list[str] = []
    for _ in range(names):
        client, _name = named(site.url, "StreamBot")
        mine = [make_token(client, ["bot:play"]) for _ in range(tokens)]
        upgraded = api(site.url, mine[0]).post("/api/bot/account/upgrade")
        upgraded.raise_for_status()
        made += mine
    return made


async def hold_stream(url: str, token: str, address: str, opened: asyncio.Queue[int]) -> None:
    """One event stream held open and read to its end (its keep-alive lines)."""
    headers = {"Authorization": f"Bearer {token}", "X-Forwarded-For": address}
    timeout = httpx.Timeout(60, read=None)
    async with (
        httpx.AsyncClient(timeout=timeout, headers=headers) as http,
        http.stream("GET", f"{url}/api/bot/stream/event") as response,
    ):
        await opened.put(response.status_code)
        async for _line in response.aiter_lines():
            pass


def figures(name: str, moves: list[float], lobby: list[float], cores: float) -> float:
    median = statistics.median(moves) if moves else float("nan")
    p99 = sorted(moves)[min(len(moves) - 1, int(0.99 * len(moves)))] if moves else float("nan")
    print(
        f"{name:>8}: victim move median {median * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms, "
        f"max {max(moves, default=float('nan')) * 1000:.0f} ms ({len(moves)} moves); "
        f"lobby read median {statistics.median(lobby) * 1000:.0f} ms, "
        f"max {max(lobby) * 1000:.0f} ms; server CPU {cores:.2f} cores"
    )
    return median


async def main_async(args: argparse.Namespace) -> int:
    tmp = Path(tempfile.mkdtemp(prefix="senet-bot-streams-"))
    site = ServeProcess(
        tmp / "serve.log",
        (
            "--database-url",
            f"sqlite+aiosqlite:///{tmp / 'senet.sqlite3'}",
            "--log-level",
            "warning",
        ),
        {
            "DATABASE_URL": None,
            "SENET_RATE_LIMITS": "off",
            "SENET_BOT_LIMITS": args.bot_limits,
        },
    )
    site.start()
    assert site.process is not None
    pid = site.process.pid
    streams: list[asyncio.Task[None]] = []
    try:
        count = args.names * args.tokens * args.per_token
        print(f"server: one senet serve (SQLite); log {site.log}")
        tokens = bot_tokens(site, args.names, args.tokens)
        bots: list[Bot] = []
        lobby: list[tuple[float, float]] = []
        stop = asyncio.Event()
        players = [
            asyncio.create_task(victims(site, bots, args.think, stop)),
            asyncio.create_task(churn(site, args.churn, stop)),
            asyncio.create_task(lobby_reads(site, lobby, stop)),
        ]
        await asyncio.sleep(3)  # the first game under way
        quiet_from, cpu_from = time.perf_counter(), cpu_seconds(pid)
        await asyncio.sleep(args.seconds)
        quiet_to, quiet_cpu = time.perf_counter(), cpu_seconds(pid) - cpu_from

        opened: asyncio.Queue[int] = asyncio.Queue()
        for i in range(count):
            token = tokens[i // args.per_token]
            address = ADDRESSES[i % len(ADDRESSES)]
            streams.append(asyncio.create_task(hold_stream(site.url, token, address, opened)))
        statuses = [await asyncio.wait_for(opened.get(), 120) for _ in range(count)]
        refused = sum(status != 200 for status in statuses)
        print(f"streams: {count - refused} of {count} open ({refused} refused)")
        await asyncio.sleep(2)
        loud_from, cpu_from = time.perf_counter(), cpu_seconds(pid)
        await asyncio.sleep(args.seconds)
        loud_to, loud_cpu = time.perf_counter(), cpu_seconds(pid) - cpu_from
        stop.set()
        results = await asyncio.gather(*players, return_exceptions=True)
        print(f"lobby churn: {results[1]} open games listed and cancelled")

        moves = [p for bot in bots for p in zip(bot.latency_times, bot.latencies, strict=True)]

        def between(points: list[tuple[float, float]], start: float, end: float) -> list[float]:
            return [value for at, value in points if start <= at < end]

        quiet = figures(
            "quiet",
            between(moves, quiet_from, quiet_to),
            between(lobby, quiet_from, quiet_to),
            quiet_cpu / (quiet_to - quiet_from),
        )
        loud = figures(
            "streams",
            between(moves, loud_from, loud_to),
            between(lobby, loud_from, loud_to),
            loud_cpu / (loud_to - loud_from),
        )
        ratio = loud / quiet
        print(f"ratio of the victim's medians (streams / quiet): {ratio:.2f}")
        met = ratio <= 1.5 and refused == 0
        print(f"target: the median within 1.5x of the quiet one: {'met' if met else 'NOT met'}")
        return 0 if met else 1
    finally:
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        site.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=40.0, help="seconds of each phase")
    parser.add_argument("--names", type=int, default=3, help="bot names")
    parser.add_argument("--tokens", type=int, default=20, help="tokens per name (at most 20)")
    parser.add_argument("--per-token", type=int, default=4, help="event streams per token")
    parser.add_argument("--think", type=float, default=0.2, help="victims' mean pause (s)")
    parser.add_argument("--churn", type=float, default=2.0, help="open games listed a second")
    parser.add_argument(
        "--bot-limits",
        default="100000,4,8,80",
        help="SENET_BOT_LIMITS of the server (per player high enough for every stream)",
    )
    sys.exit(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
