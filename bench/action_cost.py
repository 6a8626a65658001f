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
from typing import Any

from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.reading.channel import read_game_message
from senet.service.server import GameService


class FriendGames:
    """``games`` friend games on a fresh SQLite file, both seats taken and seeded, each seat's
    viewer subscribed; :meth:`play_round` plays one action in every game as a server does."""

    def __init__(self, games: int, seed: int = 1) -> None:
        self.games = games
        self.rng = random.Random(seed)
        self.stack = AsyncExitStack()
        self.seats: list[tuple[str, dict[int, str]]] = []
        self.viewers: dict[str, list[tuple[Any, str]]] = {}
        self.shown: dict[str, list[int]] = {}

    async def __aenter__(self) -> FriendGames:
        folder = Path(tempfile.mkdtemp(prefix="senet-action-cost-"))
        storage = Storage(f"sqlite+aiosqlite:///{folder / 'db.sqlite3'}")
        await storage.init()
        self.service = service = GameService(storage, MemoryBroadcast(), computer_delay=3600.0)
        await service.start()
        self.stack.push_async_callback(service.close)
        for i in range(self.games):
            created = await service.commands.create("standard", "friend", "A", seed=f"a{i}")
            claimed = await service.commands.claim(created.game_id, created.invite or "")
            assert claimed is not None
            await service.commands.seed(created.game_id, claimed[0], f"b{i}")
            self.seats.append((created.game_id, {0: created.token, 1: claimed[0]}))
        for game_id, tokens in self.seats:
            self.viewers[game_id] = [
                (await self.stack.enter_async_context(service.subscribe(game_id)), tokens[seat])
                for seat in (0, 1)
            ]
            self.shown[game_id] = [0, 0]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stack.aclose()

    async def play_round(self) -> int:
        """Every unfinished game's decider plays a random legal move (a forced pass if that is
        all there is), and each of its two viewers turns the update it is sent into its events
        message, encoded as JSON, as a connection does; returns the moves played."""
        service, moves = self.service, 0
        for game_id, tokens in self.seats:
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
                move = self.rng.choice(pos.legal_moves())
                await service.commands.act(game_id, tokens[decider], live.ply, move)
                moves += 1
            for k, (sub, token) in enumerate(self.viewers[game_id]):
                while not sub.queue.empty():
                    message = read_game_message(sub.queue.get_nowait())
                    if message is not None and message["type"] == "update":
                        events = await service.queries.events(
                            game_id, token, self.shown[game_id][k], min_ply=message["ply"]
                        )
                        self.shown[game_id][k] = events["ply"]
                        json.dumps(events, separators=(",", ":"), ensure_ascii=False).encode()
        return moves


async def measure(games: int, rounds: int) -> None:
    async with FriendGames(games) as played:
        moves = 0
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(rounds):
            moves += await played.play_round()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
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
