"""Storing actions on PostgreSQL: one statement per append against a transaction of three.

    .venv/bin/python bench/storage.py --appends 2000 --concurrency 20

Starts a PostgreSQL server (senet_testkit.servers) unless --database-url is given, then
appends a move and a throw ``--appends`` times (to ``--concurrency`` games at once, the way
many games are played at the same time) with each path of :meth:`Storage.append`: the
transaction through SQLAlchemy (BEGIN, UPDATE games, INSERT actions, COMMIT: what SQLite uses)
and the single ``WITH ... UPDATE ... INSERT`` statement straight through asyncpg that
PostgreSQL uses.  Prints appends per second,
p50/p99 latency and the CPU time of this process per append (the SQLAlchemy and driver cost),
and the ratios.  Both paths run in the same process against the same server, alternating.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from contextlib import ExitStack

from senet.service.games.storage import NewGame, Storage, StoredAction
from senet.service.messages import ActionKind, Mode
from senet_testkit.servers import postgres_server


async def run(storage: Storage, label: str, appends: int, concurrency: int) -> dict[str, float]:
    ids = [f"{label}-{i}" for i in range(concurrency)]
    for game_id in ids:
        await storage.create_game(NewGame(game_id, "standard", Mode.FRIEND, "0" * 64, "0" * 64))
    latencies: list[float] = []
    per_game = appends // concurrency

    async def play(game_id: str) -> None:
        ply = 0
        for _ in range(per_game):
            batch = [
                StoredAction(ply, ActionKind.MOVE, 0, "9-12"),
                StoredAction(ply + 1, ActionKind.THROW, 1, "3", 7),
            ]
            t = time.perf_counter()
            await storage.append(game_id, ply, batch)
            latencies.append(time.perf_counter() - t)
            ply += 2

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(play(g) for g in ids))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    latencies.sort()
    n = len(latencies)
    return {
        "per_s": n / wall,
        "p50_ms": latencies[n // 2] * 1e3,
        "p99_ms": latencies[int(n * 0.99)] * 1e3,
        "cpu_ms": cpu / n * 1e3,
    }


async def main_async(url: str, appends: int, concurrency: int, rounds: int) -> None:
    storage = Storage(url)
    await storage.init()
    one_statement = storage._pg
    results: dict[str, list[dict[str, float]]] = {"transaction": [], "one statement": []}
    try:
        for r in range(rounds):
            for label in results:
                storage._pg = one_statement if label == "one statement" else None
                results[label].append(await run(storage, f"{label[:3]}{r}", appends, concurrency))
    finally:
        storage._pg = one_statement
        await storage.close()
    best = {label: max(rs, key=lambda x: x["per_s"]) for label, rs in results.items()}
    for label, f in best.items():
        print(
            f"{label:>14}: {f['per_s']:7.0f} appends/s  p50 {f['p50_ms']:.2f} ms  p99 {f['p99_ms']:.2f} ms  "
            f"client CPU {f['cpu_ms']:.3f} ms/append"
        )
    a, b = best["one statement"], best["transaction"]
    print(
        f"one statement / transaction: throughput {a['per_s'] / b['per_s']:.2f}x, p50 {a['p50_ms'] / b['p50_ms']:.2f}x, "
        f"client CPU {a['cpu_ms'] / b['cpu_ms']:.2f}x  (best of {rounds} alternating rounds)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database-url", default=None)
    args = parser.parse_args()
    with ExitStack() as stack:
        url = args.database_url or stack.enter_context(postgres_server())
        asyncio.run(
            main_async(
                url, max(args.concurrency, args.appends), max(1, args.concurrency), args.rounds
            )
        )


if __name__ == "__main__":
    main()
