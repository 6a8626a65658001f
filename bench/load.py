"""Load test: WebSocket bots play N concurrent games across two server processes.

    .venv/bin/python bench/load.py --games 1000 --duration 60 --think 1.0

Everything runs on loopback and stops by itself: it starts a PostgreSQL and a Redis server
(tests/support/servers.py; or give --database-url/--broadcast-url), two ``senet serve``
processes, then N friend games whose two players are on different processes (so every move
crosses Redis).  Each bot thinks (exponential pauses, mean --think seconds) and plays a random
legal move whenever it is its decision.  It prints actions (moves) per second and the
p50/p95/p99 latency from a player's send to the opponent's update, then the same figures for a
bare WebSocket relay server (the same number of pairs, the same pacing, two processes), and
the ratio.  Bounded: at most --max-games games and --duration seconds of play.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import httpx  # noqa: E402
import websockets  # noqa: E402

from support.servers import free_port, postgres_server, redis_server  # noqa: E402
from support.wsbots import Bot, create_friend_game  # noqa: E402

MAX_GAMES = 5000
MAX_DURATION = 600.0


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def figures(name: str, latencies: list[float], seconds: float) -> dict[str, float]:
    out = {
        "actions_per_s": len(latencies) / seconds,
        "p50_ms": pct(latencies, 0.50) * 1000,
        "p95_ms": pct(latencies, 0.95) * 1000,
        "p99_ms": pct(latencies, 0.99) * 1000,
    }
    print(f"{name:>12}: {len(latencies)} actions in {seconds:.0f} s = {out['actions_per_s']:.0f}/s; "
          f"latency p50 {out['p50_ms']:.1f} ms, p95 {out['p95_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms")  # fmt: skip
    return out


# ---------------------------------------------------------------------- the senet servers
def start_site(port: int, database_url: str, broadcast_url: str, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DATABASE_URL=database_url, BROADCAST_URL=broadcast_url, PYTHONUNBUFFERED="1",
               SENET_DB_POOL=os.environ.get("SENET_DB_POOL", "15"), SENET_RATE_LIMITS="off")  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "senet.cli", "serve", "--port", str(port), "--log-level", "warning"],
                            cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(log.read_text())
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    raise RuntimeError("server did not start")


async def run_senet(ports: list[int], games: int, duration: float, think: float) -> tuple[list[float], float, dict]:
    http_bases = [f"http://127.0.0.1:{p}" for p in ports]
    ws_bases = [f"ws://127.0.0.1:{p}" for p in ports]
    limits = httpx.Limits(max_connections=50)
    sem = asyncio.Semaphore(40)

    async def make(i: int):
        async with sem:
            return await create_friend_game(http, http_bases[i % 2], http_bases[(i + 1) % 2])

    t0 = time.monotonic()
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        seats = await asyncio.gather(*(make(i) for i in range(games)))
    print(f"created {games} games across two processes in {time.monotonic() - t0:.1f} s")
    rng = random.Random(7)
    bots: list[Bot] = []
    for i, s in enumerate(seats):
        sent_at: dict[int, float] = {}
        for seat in (0, 1):
            home = (i + seat) % 2  # the two players of a game are on different processes
            bots.append(Bot(s.game_id, seat, s.tokens[seat], [ws_bases[home], ws_bases[1 - home]], sent_at, think,
                            random.Random(rng.random()), idle_sync=30.0))  # fmt: skip
    start = time.perf_counter()
    deadline = time.monotonic() + duration
    # Connect gradually (a thundering herd of 2N handshakes is not what is measured).
    async def run_bot(k: int, bot: Bot) -> None:
        await asyncio.sleep(k * 0.002)
        await bot.run(deadline)

    await asyncio.gather(*(run_bot(k, b) for k, b in enumerate(bots)))
    seconds = time.perf_counter() - start
    warm = start + 5.0  # leave out the first seconds (connections still opening)
    latencies = []
    for bot in bots:
        for t, lat in zip(bot.latency_times, bot.latencies):
            if t >= warm:
                latencies.append(lat)
    info = {
        "finished": sum(1 for b in bots if b.outcome is not None) // 2,
        "reconnects": sum(b.reconnects for b in bots),
        "stale": sum(b.stale for b in bots),
        "errors": sum(len(b.errors) for b in bots),
        "events": sum(len(b.events) for b in bots) // 2,
    }
    return latencies, seconds - 5.0, info


# ---------------------------------------------------------------------- the bare relay baseline
async def relay_server(port: int) -> None:
    """A bare WebSocket relay: a message from one member of a pair goes to the other."""
    from websockets.asyncio.server import serve

    pairs: dict[str, set] = {}

    async def handler(ws) -> None:
        key = ws.request.path
        pairs.setdefault(key, set()).add(ws)
        try:
            async for message in ws:
                for other in list(pairs.get(key, ())):
                    if other is not ws:
                        await other.send(message)
        finally:
            pairs[key].discard(ws)

    async with serve(handler, "127.0.0.1", port, ping_interval=None):
        await asyncio.Future()


async def run_relay(ports: list[int], pairs: int, duration: float, think: float) -> tuple[list[float], float]:
    latencies: list[float] = []
    start = time.perf_counter()
    warm = start + 5.0
    deadline = time.monotonic() + duration

    async def player(url: str, first: bool, rng: random.Random, k: int) -> None:
        await asyncio.sleep(k * 0.002)
        async with websockets.connect(url, ping_interval=None) as ws:
            if first:
                await asyncio.sleep(1.0)
                await ws.send(json.dumps({"t": time.perf_counter()}))
            while time.monotonic() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    return
                now = time.perf_counter()
                sent = json.loads(raw)["t"]
                if now >= warm:
                    latencies.append(now - sent)
                await asyncio.sleep(rng.expovariate(1 / think) if think > 0 else 0)
                await ws.send(json.dumps({"t": time.perf_counter()}))

    rng = random.Random(11)
    tasks = []
    for i in range(pairs):
        url = f"ws://127.0.0.1:{ports[i % 2]}/pair/{i}"
        tasks.append(player(url, True, random.Random(rng.random()), 2 * i))
        tasks.append(player(url, False, random.Random(rng.random()), 2 * i + 1))
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies, time.perf_counter() - warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play (each part)")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause before a move, seconds")
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: start one)")
    parser.add_argument("--broadcast-url", default=None, help="Redis URL (default: start one)")
    parser.add_argument("--relay-server", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.relay_server:
        asyncio.run(relay_server(args.relay_server))
        return
    games = max(1, min(args.games, MAX_GAMES))
    duration = max(10.0, min(args.duration, MAX_DURATION))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * games + 1000)), hard))
    print(f"bench/load.py: {games} games, {duration:.0f} s of play, think {args.think} s, {os.cpu_count()} cores")
    from contextlib import ExitStack

    logdir = ROOT / "test-artifacts" / "bench-load"
    logdir.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        db = args.database_url or stack.enter_context(postgres_server())
        bc = args.broadcast_url or stack.enter_context(redis_server()).url
        ports = [free_port(), free_port()]
        procs = [start_site(p, db, bc, logdir / f"site{i}.log") for i, p in enumerate(ports)]
        try:
            lat, seconds, info = asyncio.run(run_senet(ports, games, duration, args.think))
        finally:
            for p in procs:
                p.terminate()
                p.wait(10)
        print(f"games finished {info['finished']}, events {info['events']}, reconnects {info['reconnects']}, "
              f"stale {info['stale']}, bot errors {info['errors']}")  # fmt: skip
        senet = figures("senet", lat, seconds)
        rports = [free_port(), free_port()]
        relays = [subprocess.Popen([sys.executable, __file__, "--relay-server", str(p)]) for p in rports]
        time.sleep(1.5)
        try:
            rlat, rseconds = asyncio.run(run_relay(rports, games, duration, args.think))
        finally:
            for r in relays:
                r.terminate()
                r.wait(10)
        relay = figures("bare relay", rlat, rseconds)
    print("ratio senet/relay: " + ", ".join(
        f"{k} {senet[k] / relay[k]:.2f}x" for k in ("actions_per_s", "p50_ms", "p95_ms", "p99_ms") if relay[k]
    ))  # fmt: skip
    target = senet["p99_ms"] < 100
    print(f"target (p99 < 100 ms at {games} games): {'met' if target else 'NOT met'}")


if __name__ == "__main__":
    main()
