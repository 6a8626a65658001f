"""Storing actions through the one write path (:meth:`Storage.append`), on PostgreSQL or SQLite.

    .venv/bin/python bench/storage.py --appends 2000 --concurrency 20 [--setup sqlite]

Starts a PostgreSQL server (senet_testkit.servers) unless --database-url is given (``--setup
sqlite``: a fresh SQLite file), then appends a move and a throw ``--appends`` times (to
``--concurrency`` games at once, the way many games are played at the same time), ``--rounds``
times.  PostgreSQL takes the one ``WITH ... UPDATE ... INSERT`` statement straight through
asyncpg, SQLite the batched writer (several waiting appends in one transaction).  Prints the
appends per second, p50/p99 latency and the CPU time of this process per append (SQLAlchemy's
compiled statement, the driver; on SQLite the write itself too) of the best round.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

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
    try:
        results = [await run(storage, f"r{r}", appends, concurrency) for r in range(rounds)]
    finally:
        await storage.close()
    f = max(results, key=lambda x: x["per_s"])
    print(
        f"{url.split(':', 1)[0]}: {f['per_s']:7.0f} appends/s  p50 {f['p50_ms']:.2f} ms  "
        f"p99 {f['p99_ms']:.2f} ms  client CPU {f['cpu_ms']:.3f} ms/append  "
        f"(best of {rounds} rounds)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--setup", choices=("postgresql", "sqlite"), default="postgresql")
    args = parser.parse_args()
    with ExitStack() as stack:
        if args.database_url:
            url = args.database_url
        elif args.setup == "sqlite":
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="senet-storage-")))
            url = f"sqlite+aiosqlite:///{folder / 'db.sqlite3'}"
        else:
            url = stack.enter_context(postgres_server())
        asyncio.run(
            main_async(
                url, max(args.concurrency, args.appends), max(1, args.concurrency), args.rounds
            )
        )


if __name__ == "__main__":
    main()
