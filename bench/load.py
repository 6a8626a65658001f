"""Load test: WebSocket bots play N concurrent games across two server processes.

    .venv/bin/python bench/load.py --games 1000 --duration 60 --think 5 --connect-rate 50
    .venv/bin/python bench/load.py --setup sqlite --games 1000 --duration 30 --no-relay
    .venv/bin/python bench/load.py --games 200 --pair-rate 5     # with the lobby scenario

Everything runs on loopback and stops by itself: it starts a PostgreSQL and a Redis server
(senet_testkit.servers; or give --database-url/--broadcast-url), two ``senet serve``
processes, then N friend games whose two players are on different processes (so every move
crosses Redis).  Each bot thinks (exponential pauses, mean --think seconds) and plays a random
legal move whenever it is its decision.  It prints actions (moves) per second and the
p50/p95/p99 latency from a player's send to the opponent's update, then the same figures for a
bare WebSocket relay server (the same number of pairs, the same pacing, two processes), and
the ratio.  Bounded: at most --max-games games and --duration seconds of play.

The lobby scenario (``--pair-rate``, default 2 a second, 0 to skip) runs beside the games:
pairs of players ask to "play someone now" (one on each process), are paired and give their
seeds, so a new game starts; it prints the latency of a pairing request and of a whole round
(first ask to the first throw) beside the move latency.

``--setup sqlite`` measures the embedded default instead: one ``senet serve`` process on a
SQLite file with its in-process broadcasting (no PostgreSQL, no Redis), both players of every
game on it (and the relay baseline, if run, as one process too).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import httpx
import websockets

from senet_testkit.servers import ROOT, free_port, postgres_server, redis_server
from senet_testkit.wsbots import Bot, create_friend_game

MAX_GAMES = 5000
MAX_DURATION = 600.0


class GeneratorPauses:
    """The load generator's own collector: set like a server's (senet.web.collector), since it
    holds every bot's events and CPython's defaults would pause it for hundreds of
    milliseconds, counted as the server's latency; its pauses over 50 ms are reported."""

    def __init__(self) -> None:
        from collector import Pauses

        from senet.web.collector import Collector, CollectorPolicy

        self.collector = Collector(CollectorPolicy(slow=1e9))  # its pauses are counted here
        self.collector.install()
        self.collector.start()
        self.pauses = Pauses()

    def report(self) -> None:
        long = [p for ps in self.pauses.by_generation.values() for p in ps if p > 0.05]
        longest = f", the longest {max(long) * 1e3:.0f} ms" if long else ""
        print(f"  load generator's own collector: {len(long)} pauses over 50 ms{longest}")


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
    print(
        f"{name:>12}: {len(latencies)} actions in {seconds:.0f} s = {out['actions_per_s']:.0f}/s; "
        f"latency p50 {out['p50_ms']:.1f} ms, p95 {out['p95_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms"
    )
    return out


# ---------------------------------------------------------------------- CPU accounting
_TICK = os.sysconf("SC_CLK_TCK")


def _proc_stat(pid: int) -> tuple[int, float] | None:
    """(parent pid, CPU seconds so far) of a process, None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def _postmaster(port: int) -> int | None:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if cmd and cmd[0].endswith(b"postgres") and str(port).encode() in b" ".join(cmd):
                return int(entry.name)
    return None


class CpuMeter:
    """CPU seconds used by each part of the benchmark (this machine is shared and noisy: CPU
    time per action is the figure that other work on the machine disturbs least).  Parts: the
    two server processes, the bots (this process), PostgreSQL (the postmaster and every
    backend it started, including those that have exited by the end, via its children's
    counters) and Redis."""

    def __init__(self, parts: dict[str, list[int]], pg_port: int | None) -> None:
        self.parts = parts
        self.pg_port = pg_port

    def _postgres(self) -> float:
        root = _postmaster(self.pg_port) if self.pg_port else None
        if root is None:
            return float("nan")
        total = 0.0
        try:  # the postmaster's own time plus the time of its children, finished ones included
            fields = Path(f"/proc/{root}/stat").read_text().rsplit(")", 1)[1].split()
            total += sum(int(x) for x in fields[11:15]) / _TICK
        except OSError:
            return float("nan")
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                st = _proc_stat(int(entry.name))
                if st is not None and st[0] == root:
                    total += st[1]
        return total

    def read(self) -> dict[str, float]:
        out = {
            name: sum((_proc_stat(pid) or (0, 0.0))[1] for pid in pids)
            for name, pids in self.parts.items()
        }
        out["bots"] = time.process_time()
        if self.pg_port:
            out["postgres"] = self._postgres()
        return out


def cpu_report(
    before: dict[str, float], after: dict[str, float], actions: int, seconds: float
) -> None:
    parts = {k: after[k] - before[k] for k in after}
    per = ", ".join(f"{k} {v / max(actions, 1) * 1000:.2f}" for k, v in parts.items())
    servers = [v for k, v in parts.items() if k.startswith("server ")]
    if len(servers) > 1:  # each process's share, and both together (each action crosses both)
        per += f" (servers together {sum(servers) / max(actions, 1) * 1000:.2f})"
    busy = sum(v for v in parts.values() if v == v)
    print(
        f"  CPU per action (ms): {per}; all parts {busy / max(actions, 1) * 1000:.2f} ms; "
        f"{busy / seconds:.2f} of {os.cpu_count()} cores busy with the benchmark"
    )


# ---------------------------------------------------------------------- the senet servers
def start_site(
    port: int, database_url: str, broadcast_url: str | None, log: Path
) -> subprocess.Popen[bytes]:
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        PYTHONUNBUFFERED="1",
        SENET_DB_POOL=os.environ.get("SENET_DB_POOL", "15"),
        SENET_RATE_LIMITS="off",
        # every bot is on loopback: no per-address cap (the cap is tested in tests/web)
        SENET_CONNECTIONS_PER_ADDRESS="0",
        # the games are created first and their bots connect over the ramp (minutes at 3,000
        # games): the players' seeds may come later than the two minutes a player has
        SENET_SEEDING_DEADLINE="3600",
    )
    if broadcast_url:
        env["BROADCAST_URL"] = broadcast_url
    else:
        env.pop("BROADCAST_URL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "senet.cli", "serve", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
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


def wait_listening(port: int, timeout: float = 60.0) -> None:
    """Return once something accepts connections on ``port`` (RuntimeError after ``timeout``)."""
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server: SIGTERM (a graceful shutdown closes every connection), then SIGKILL if
    it has not exited within 30 s (on a loaded machine closing thousands of WebSockets may
    take that long): nothing is left running."""
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


async def run_senet(
    ports: list[int],
    games: int,
    duration: float,
    think: float,
    meter: CpuMeter,
    timeline: bool = False,
    connect_rate: float = 200.0,
    pair_rate: float = 0.0,
) -> tuple[list[float], float, dict]:
    http_bases = [f"http://127.0.0.1:{p}" for p in ports]
    ws_bases = [f"ws://127.0.0.1:{p}" for p in ports]
    limits = httpx.Limits(max_connections=50)
    sem = asyncio.Semaphore(40)

    async def make(i: int):
        async with sem:
            for attempt in range(
                5
            ):  # a kept-alive connection the server closed meanwhile: ask again
                try:
                    return await create_friend_game(
                        http, http_bases[i % len(ports)], http_bases[(i + 1) % len(ports)]
                    )
                except httpx.TransportError:
                    if attempt == 4:
                        raise
                    await asyncio.sleep(0.2)

    t0 = time.monotonic()
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        seats = await asyncio.gather(*(make(i) for i in range(games)))
    print(f"created {games} games on {len(ports)} process(es) in {time.monotonic() - t0:.1f} s")
    rng = random.Random(7)
    bots: list[Bot] = []
    for i, s in enumerate(seats):
        sent_at: dict[int, float] = {}
        for seat in (0, 1):
            home = (i + seat) % len(ports)  # with two processes, the players are on different ones
            bots.append(
                Bot(
                    s.game_id,
                    seat,
                    s.tokens[seat],
                    [ws_bases[home], ws_bases[(home + 1) % len(ports)]],
                    sent_at,
                    think,
                    random.Random(rng.random()),
                    idle_sync=30.0,
                )
            )
    start = time.perf_counter()
    ramp = (
        len(bots) / connect_rate
    )  # bots connect at a bounded rate: a herd of 2N handshakes is not what is measured
    settle = ramp + 5.0  # measured from here: everyone connected, and 5 s more
    deadline = time.monotonic() + settle + duration
    cpu: dict[str, dict[str, float]] = {}

    async def sample_cpu() -> None:  # after the warm-up, and at the end of the measured span
        await asyncio.sleep(settle)
        cpu["warm"] = meter.read()
        await asyncio.sleep(max(0.0, deadline - time.monotonic() - 0.5))
        cpu["end"] = meter.read()
        cpu["end"]["at"] = time.perf_counter()

    sampler = asyncio.create_task(sample_cpu())

    async def run_bot(k: int, bot: Bot) -> None:
        await asyncio.sleep(k / connect_rate)
        await bot.run(deadline)

    pairing = (
        asyncio.create_task(
            run_pairings(http_bases, pair_rate, time.monotonic() + settle, deadline)
        )
        if pair_rate > 0
        else None
    )
    await asyncio.gather(*(run_bot(k, b) for k, b in enumerate(bots)))
    await sampler
    if pairing is not None:
        asks, rounds, unmatched = await pairing
        if asks and rounds:
            figures("lobby: one pairing request", asks, duration)
            figures("lobby: first ask to first throw", rounds, duration)
        print(f"lobby: {len(rounds)} games paired and started, {unmatched} askers not met")
    seconds = time.perf_counter() - start - settle
    warm = start + settle
    latencies = []
    span = 0
    for bot in bots:
        for t, lat in zip(bot.latency_times, bot.latencies):
            if t >= warm:
                latencies.append(lat)
                span += t <= cpu["end"]["at"]
    end = {k: v for k, v in cpu["end"].items() if k != "at"}
    cpu_report(cpu["warm"], end, span, cpu["end"]["at"] - warm)
    if timeline:  # latency by 5-second window: is the tail spread out or bunched?
        windows: dict[int, list[float]] = {}
        for bot in bots:
            for t, lat in zip(bot.latency_times, bot.latencies):
                windows.setdefault(int((t - start) // 5), []).append(lat)
        for w in sorted(windows):
            v = windows[w]
            print(
                f"    {w * 5:3d}-{w * 5 + 5:3d} s: {len(v):5d} actions, p50 {pct(v, 0.5) * 1e3:7.1f} ms, "
                f"p99 {pct(v, 0.99) * 1e3:7.1f} ms, max {max(v) * 1e3:7.1f} ms"
            )
    info = {
        "finished": sum(1 for b in bots if b.outcome is not None) // 2,
        "reconnects": sum(b.reconnects for b in bots),
        "stale": sum(b.stale for b in bots),
        "errors": sum(len(b.errors) for b in bots),
        "events": sum(len(b.events) for b in bots) // 2,
        "stalls": sum(b.stalls for b in bots),
        "why": collections.Counter(e for b in bots for e in b.errors).most_common(4),
    }
    print(
        f"bots connected at {connect_rate:.0f}/s over {ramp:.1f} s; measured from {settle:.1f} s for {seconds:.0f} s"
    )
    return latencies, seconds, info


# ---------------------------------------------------------------------- the lobby scenario
async def run_pairings(
    http_bases: list[str], rate: float, start_at: float, deadline: float
) -> tuple[list[float], list[float], int]:
    """Players asking to "play someone now" at a steady rate while the games run: every round
    two askers (on different processes when there are two) are paired and give their seeds, so
    a game starts.  Returns the latency of each pairing request, of each whole round (first ask
    to the first throw) and the number of rounds whose two askers did not meet."""
    asks: list[float] = []
    rounds: list[float] = []
    unmatched = 0
    variants = ("standard", "kendall", "bell", "adelaida")
    async with httpx.AsyncClient(timeout=30) as http:

        async def ask(base: str, variant: str, control: str) -> dict:
            http.cookies.clear()  # each asker is a browser of its own
            t = time.perf_counter()
            r = await http.post(
                f"{base}/api/pair", json={"variant": variant, "time_control": control}
            )
            asks.append(time.perf_counter() - t)
            r.raise_for_status()
            return r.json()

        async def one_round(k: int) -> None:
            nonlocal unmatched
            variant = variants[k % len(variants)]
            control = f"move:{30 + k % 3000}"  # a request of its own: rounds never cross
            t = time.perf_counter()
            first = await ask(http_bases[0], variant, control)
            second = await ask(http_bases[-1], variant, control)
            if second["waiting"] or second["id"] != first["id"]:
                unmatched += 1
                return
            for answer in (first, second):
                await http.post(
                    f"{http_bases[0]}/api/games/{answer['id']}/seed",
                    json={"seed": f"bench {answer['seat']}"},
                    headers={"X-Seat-Token": answer["token"]},
                )
            rounds.append(time.perf_counter() - t)

        await asyncio.sleep(max(0.0, start_at - time.monotonic()))
        tasks = []
        k = 0
        while time.monotonic() < deadline:
            tasks.append(asyncio.create_task(one_round(k)))
            k += 1
            await asyncio.sleep(1.0 / rate)
        await asyncio.gather(*tasks, return_exceptions=True)
    return asks, rounds, unmatched


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
                        try:
                            await other.send(message)
                        except websockets.ConnectionClosed:
                            pass  # the partner has finished
        except websockets.ConnectionClosed:
            pass
        finally:
            pairs[key].discard(ws)

    async with serve(handler, "127.0.0.1", port, ping_interval=None):
        await asyncio.Future()


async def run_relay(
    ports: list[int], pairs: int, duration: float, think: float, connect_rate: float = 200.0
) -> tuple[list[float], float]:
    """The same pairs, pacing, connection ramp and measured span as :func:`run_senet`."""
    latencies: list[float] = []
    start = time.perf_counter()
    settle = 2 * pairs / connect_rate + 5.0
    warm = start + settle
    deadline = time.monotonic() + settle + duration

    async def player(url: str, first: bool, rng: random.Random, k: int) -> None:
        await asyncio.sleep(k / connect_rate)
        async with websockets.connect(url, ping_interval=None) as ws:
            if first:
                await asyncio.sleep(1.0)
                await ws.send(json.dumps({"t": time.perf_counter()}))
            while time.monotonic() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
                except TimeoutError:
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
        url = f"ws://127.0.0.1:{ports[i % len(ports)]}/pair/{i}"
        tasks.append(player(url, True, random.Random(rng.random()), 2 * i))
        tasks.append(player(url, False, random.Random(rng.random()), 2 * i + 1))
    await asyncio.gather(*tasks, return_exceptions=True)
    return latencies, time.perf_counter() - warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--duration",
        type=float,
        default=60.0,
        help="seconds of measured play (each part), after the connection ramp and 5 s more",
    )
    parser.add_argument(
        "--think", type=float, default=5.0, help="mean pause before a move, seconds (a human pace)"
    )
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: start one)")
    parser.add_argument("--broadcast-url", default=None, help="Redis URL (default: start one)")
    parser.add_argument("--timeline", action="store_true", help="latency per 5-second window")
    parser.add_argument(
        "--connect-rate", type=float, default=50.0, help="bot connections opened per second"
    )
    parser.add_argument("--no-relay", action="store_true", help="skip the bare relay baseline")
    parser.add_argument(
        "--pair-rate",
        type=float,
        default=2.0,
        help="the lobby scenario: quick pairings started per second while the games run "
        "(two askers each, then both seeds: a new game); 0 to skip",
    )
    parser.add_argument(
        "--setup",
        choices=("cluster", "sqlite"),
        default="cluster",
        help="cluster: two processes on PostgreSQL and Redis; sqlite: the embedded default, "
        "one process on a SQLite file",
    )
    parser.add_argument("--relay-server", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.relay_server:
        asyncio.run(relay_server(args.relay_server))
        return
    games = max(1, min(args.games, MAX_GAMES))
    duration = max(10.0, min(args.duration, MAX_DURATION))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * games + 1000)), hard))
    print(
        f"bench/load.py: {games} games, {duration:.0f} s of play, think {args.think} s, {os.cpu_count()} cores, "
        f"load average before {os.getloadavg()[0]:.1f}"
    )
    from contextlib import ExitStack

    pauses = GeneratorPauses()
    logdir = ROOT / "test-artifacts" / "bench-load"
    logdir.mkdir(parents=True, exist_ok=True)
    with ExitStack() as stack:
        if args.setup == "sqlite":
            sqlite_file = logdir / "load.sqlite3"
            for old in logdir.glob("load.sqlite3*"):
                old.unlink()
            ports = [free_port()]
            procs = [
                start_site(
                    ports[0], f"sqlite+aiosqlite:///{sqlite_file}", None, logdir / "site.log"
                )
            ]
            meter = CpuMeter({"server": [procs[0].pid]}, None)
        else:
            db = args.database_url or stack.enter_context(postgres_server())
            redis = None if args.broadcast_url else stack.enter_context(redis_server())
            bc = args.broadcast_url or redis.url  # type: ignore[union-attr]
            ports = [free_port(), free_port()]
            procs = [start_site(p, db, bc, logdir / f"site{i}.log") for i, p in enumerate(ports)]
            redis_pids = (
                [redis.process.pid] if redis is not None and redis.process is not None else []
            )
            pg_port = (
                int(db.rsplit(":", 1)[1].split("/")[0])
                if db.startswith("postgresql") and not args.database_url
                else None
            )
            meter = CpuMeter(
                {**{f"server {i + 1}": [p.pid] for i, p in enumerate(procs)}, "redis": redis_pids},
                pg_port,
            )
        try:
            lat, seconds, info = asyncio.run(
                run_senet(
                    ports,
                    games,
                    duration,
                    args.think,
                    meter,
                    args.timeline,
                    args.connect_rate,
                    args.pair_rate,
                )
            )
        finally:
            for p in procs:
                stop(p)
        print(
            f"games finished {info['finished']}, events {info['events']}, reconnects {info['reconnects']}, "
            f"stale {info['stale']}, stalls {info['stalls']}, bot errors {info['errors']} {info['why'] or ''}"
        )
        senet = figures("senet", lat, seconds)
        if not args.no_relay:
            rports = [free_port() for _ in ports]
            relays = [
                subprocess.Popen([sys.executable, __file__, "--relay-server", str(p)])
                for p in rports
            ]
            for port in rports:  # wait until each relay listens (its imports may take a while)
                wait_listening(port)
            relay_meter = CpuMeter({"relays": [r.pid for r in relays]}, None)
            try:
                before = relay_meter.read()
                rlat, rseconds = asyncio.run(
                    run_relay(rports, games, duration, args.think, args.connect_rate)
                )
                after = relay_meter.read()
            finally:
                for r in relays:
                    stop(r)
            relay = figures("bare relay", rlat, rseconds)
            cpu_report(before, after, len(rlat), rseconds)
            print(
                "ratio senet/relay: "
                + ", ".join(
                    f"{k} {senet[k] / relay[k]:.2f}x"
                    for k in ("actions_per_s", "p50_ms", "p95_ms", "p99_ms")
                    if relay[k]
                )
            )
    pauses.report()
    target = senet["p99_ms"] < 100
    print(f"target (p99 < 100 ms at {games} games, {args.setup}): {'met' if target else 'NOT met'}")


if __name__ == "__main__":
    main()
