"""CPU per action of the service path alone, in one process, without the network.

    .venv/bin/python bench/action_cost.py [--games 40] [--rounds 60]

The per-action work of a game server minus its WebSockets: ``--games`` friend games on a
SQLite file (both seats taken and seeded), then ``--rounds`` rounds in which every game's
decider plays a random legal move through :meth:`GameCommands.act` (a forced pass through
:meth:`GameCommands.forced_pass`), and each of the game's two viewers turns the update it is
sent into its events message (:meth:`GameQueries.events`) encoded as JSON, as a connection
does.  It prints the process's CPU time (every thread: the SQLite writes too) per move.
Deterministic (seeded moves, one action at a time): to compare two versions of the code, run
each a few times alternately and compare the smallest figures (``PYTHONPATH=other/src``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

from senet.service.broadcast import MemoryBroadcast
from senet.service.channel import read_game_message
from senet.service.game_database import Storage
from senet.service.games import GameService


async def measure(games: int, rounds: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="senet-action-cost-"))
    storage = Storage(f"sqlite+aiosqlite:///{folder / 'db.sqlite3'}")
    await storage.init()
    service = GameService(storage, MemoryBroadcast(), computer_delay=3600.0)
    await service.start()
    seats: list[tuple[str, dict[int, str]]] = []
    for i in range(games):
        created = await service.commands.create("standard", "friend", "A", seed=f"a{i}")
        claimed = await service.commands.claim(created.game_id, created.invite or "")
        assert claimed is not None
        await service.commands.seed(created.game_id, claimed[0], f"b{i}")
        seats.append((created.game_id, {0: created.token, 1: claimed[0]}))
    rng = random.Random(1)
    async with AsyncExitStack() as stack:
        viewers = {
            game_id: [
                (await stack.enter_async_context(service.subscribe(game_id)), tokens[seat])
                for seat in (0, 1)
            ]
            for game_id, tokens in seats
        }
        shown = {game_id: [0, 0] for game_id, _ in seats}
        moves = 0
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(rounds):
            for game_id, tokens in seats:
                live = service.store.cached(game_id)
                assert live is not None
                if live.over:
                    continue
                if live.forced_pass:
                    await service.commands.forced_pass(game_id, live.ply)
                else:
                    pos = live.position
                    decider = pos.decider
                    assert decider is not None
                    move = rng.choice([pos.move_text(m) for m in pos.legal_moves()])
                    await service.commands.act(game_id, tokens[decider], live.ply, move)
                    moves += 1
                for k, (sub, token) in enumerate(viewers[game_id]):
                    while not sub.queue.empty():
                        message = read_game_message(sub.queue.get_nowait())
                        if message is not None and message["type"] == "update":
                            events = await service.queries.events(
                                game_id, token, shown[game_id][k], min_ply=message["ply"]
                            )
                            shown[game_id][k] = events["ply"]
                            json.dumps(events, separators=(",", ":"), ensure_ascii=False).encode()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await service.close()
    print(
        f"{moves} moves in {games} games: {cpu / moves * 1e6:.0f} us of CPU per move "
        f"({wall / moves * 1e6:.0f} us on the wall clock)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    asyncio.run(measure(max(1, args.games), max(1, args.rounds)))


if __name__ == "__main__":
    main()
