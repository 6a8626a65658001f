"""What the cyclic garbage collector costs a server holding thousands of games, by policy.

    .venv/bin/python bench/collector.py [--games 3000] [--rounds 60] [--per-second 600]

In one process, without the network: ``--games`` friend games on a SQLite file, played
``--rounds`` rounds through the service as a server plays them (``bench/action_cost.py``'s
:class:`FriendGames`: every game's decider moves and both viewers' events messages are built),
once under each collector policy, each in a fresh child process so that none inherits another's
heap:

* ``python``: CPython's defaults (700, 10, 10), nothing frozen;
* ``before``: what ``senet serve`` did before :mod:`senet.web.collector` (everything imported
  frozen, then thresholds 50,000, 20, 10);
* ``senet``: :class:`senet.web.collector.Collector` as ``senet serve`` installs it, its clock
  advanced one second every ``--per-second`` moves (3,000 games at a five-second pace make
  about 600 moves a second), so that it settles as often as on a server under that load.

Per policy it prints the collections of each generation, their total and longest pause, the
CPU per move (the collector's share included), the tracked objects the games hold, and last
the pause of one full collection of everything (what the hourly sweep costs at that size).
The longest pause, not the total, is what a game notices: every game waits for it.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from action_cost import FriendGames

POLICIES = ("python", "before", "senet")


class Pauses:
    """Every collection's pause, by generation (a ``gc.callbacks`` watcher)."""

    def __init__(self) -> None:
        self.by_generation: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._started = 0.0
        gc.callbacks.append(self._watch)

    def _watch(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.by_generation[info["generation"]].append(time.perf_counter() - self._started)

    def stop(self) -> None:
        gc.callbacks.remove(self._watch)


def tracked() -> int:
    """Objects the collector tracks, frozen ones included (``gc.get_objects`` omits them)."""
    return len(gc.get_objects()) + gc.get_freeze_count()


async def run(policy: str, games: int, rounds: int, per_second: int) -> None:
    from senet.web.collector import Collector, CollectorPolicy

    clock = [0.0]
    collector = Collector(CollectorPolicy(slow=1e9), clock=lambda: clock[0])
    if policy == "before":
        gc.freeze()
        gc.set_threshold(50_000, 20, 10)
    elif policy == "senet":
        collector.install()
    async with FriendGames(games) as played:
        if policy == "senet":
            collector.settle()  # as a server would have while the games were set up
        else:
            gc.collect()
        base = tracked()  # the set-up's own objects are not the games' play
        pauses = Pauses()
        moves, since = 0, 0
        cpu = time.process_time()
        for _ in range(rounds):
            made = await played.play_round()
            moves, since = moves + made, since + made
            while policy == "senet" and since >= per_second:
                since -= per_second
                clock[0] += 1.0
                collector.tick()
        cpu = time.process_time() - cpu
        pauses.stop()
        held = tracked() - base
        gc.unfreeze()
        started = time.perf_counter()
        gc.collect()
        sweep = time.perf_counter() - started
    cells = []
    for generation, values in pauses.by_generation.items():
        longest = max(values, default=0.0)
        cells.append(
            f"gen {generation}: {len(values):4d} x, {sum(values) * 1e3:6.0f} ms in all, "
            f"longest {longest * 1e3:5.1f} ms"
        )
    print(f"{policy:>6}: {cpu / moves * 1e6:5.0f} us of CPU per move; " + "; ".join(cells))
    print(
        f"        {held:,} more tracked objects after {moves:,} moves; "
        f"one full collection of everything: {sweep * 1e3:.0f} ms",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--per-second", type=int, default=600)
    parser.add_argument("--policy", choices=POLICIES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    games, rounds = max(1, args.games), max(1, args.rounds)
    if args.policy:
        asyncio.run(run(args.policy, games, rounds, max(1, args.per_second)))
        return
    print(f"bench/collector.py: {games} games, {rounds} rounds, {args.per_second} moves a second")
    for policy in POLICIES:
        subprocess.run(
            [sys.executable, __file__, "--policy", policy, "--games", str(games)]
            + ["--rounds", str(rounds), "--per-second", str(args.per_second)],
            check=True,
        )


if __name__ == "__main__":
    main()
