"""The server's collector policy (senet.web.collector): short pauses without giving up
collecting.  These tests change the process's collector and put it back afterwards."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import subprocess
import sys
import weakref
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from senet.engine import parse_move
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService
from senet.web.collector import Collector, CollectorPolicy


class Node:
    """Something that can sit in a reference cycle and be watched through a weak reference."""

    other: Node | None = None


def garbage_cycle() -> weakref.ref[Node]:
    """Two nodes that point at each other and at nothing else: only the collector frees them."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def collector() -> Iterator[tuple[Collector, Clock]]:
    clock = Clock()
    before = gc.get_threshold()
    # every pause logged (slow=0): a sweep's must be logged once, as the sweep
    collector = Collector(CollectorPolicy(settle=10.0, sweep=3600.0, slow=0.0), clock=clock)
    collector.install()
    try:
        yield collector, clock
    finally:
        collector.uninstall()
        gc.set_threshold(*before)


def test_allocation_counts_never_collect_the_old_generation(
    collector: tuple[Collector, Clock],
) -> None:
    c, _ = collector
    young, middle, old = gc.get_threshold()
    assert (young, middle) == (c.policy.young, c.policy.middle)
    assert middle >= 100 and old >= 10**9  # the settles collect them, on the clock


def test_a_settle_collects_what_is_not_frozen_and_freezes_the_survivors(
    collector: tuple[Collector, Clock],
) -> None:
    c, _ = collector
    dead = garbage_cycle()
    survivor = Node()
    survivor.other = Node()
    survivor.other.other = survivor  # a cycle still in use
    kept = weakref.ref(survivor)
    frozen_before = gc.get_freeze_count()
    assert c.settle() >= 2
    assert dead() is None
    assert gc.get_freeze_count() > frozen_before
    # Frozen, the cycle is no longer examined: once it turns to garbage it waits for a sweep.
    del survivor
    c.settle()
    assert kept() is not None
    assert c.sweep() >= 2
    assert kept() is None


def test_frozen_objects_without_cycles_are_still_freed_at_once(
    collector: tuple[Collector, Clock],
) -> None:
    c, _ = collector
    lone = Node()
    ref = weakref.ref(lone)
    c.settle()
    del lone
    assert ref() is None  # reference counting frees it: no settle, no sweep


def test_a_tick_settles_until_a_sweep_is_due(
    collector: tuple[Collector, Clock], caplog: pytest.LogCaptureFixture
) -> None:
    c, clock = collector
    caplog.set_level(logging.INFO, logger="senet.web")
    Node().other = Node()  # some work for the collector, no cycle
    kept = None

    def frozen_cycle_turned_garbage() -> weakref.ref[Node]:
        nonlocal kept
        kept = Node()
        kept.other = Node()
        kept.other.other = kept
        ref = weakref.ref(kept)
        c.settle()
        kept = None
        return ref

    ref = frozen_cycle_turned_garbage()
    clock.now += 3599.0
    c.tick()
    assert ref() is not None
    assert not [r for r in caplog.records if "garbage sweep" in r.getMessage()]
    clock.now += 1.0
    caplog.clear()
    c.tick()
    assert ref() is None
    assert c.swept_at == clock.now
    [swept] = [r for r in caplog.records if "garbage sweep" in r.getMessage()]
    assert swept.levelno == logging.WARNING  # shown by senet serve, like every long pause
    assert "unreachable objects freed" in swept.getMessage()
    assert not [r for r in caplog.records if "garbage collection of" in r.getMessage()]
    clock.now += 10.0
    ref = frozen_cycle_turned_garbage()
    c.tick()  # the next sweep is an hour after this one
    assert ref() is not None


def test_a_long_pause_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    before = gc.get_threshold()
    slow = Collector(CollectorPolicy(slow=0.0), clock=Clock())
    slow.install()
    try:
        caplog.set_level(logging.WARNING, logger="senet.web")
        gc.collect(0)
    finally:
        slow.uninstall()
        gc.set_threshold(*before)
    assert any("paused the server" in r.getMessage() for r in caplog.records)
    caplog.clear()
    gc.collect(0)
    assert not caplog.records  # uninstalled: no watcher left


def test_a_played_game_dropped_from_the_cache_is_freed_without_the_collector(
    tmp_path: Path,
) -> None:
    """A game's positions, actions and shown history hold no reference cycle, so freezing
    them (each settle does) never keeps a finished game in memory."""

    async def scenario() -> bool:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        service = GameService(storage, MemoryBroadcast(), computer_delay=3600.0, cache_size=1)
        await service.start()
        try:
            created = await service.commands.create("standard", "friend", "A", seed="a")
            claimed = await service.commands.claim(created.game_id, created.invite or "")
            assert claimed is not None
            await service.commands.seed(created.game_id, claimed[0], "b")
            tokens = {0: created.token, 1: claimed[0]}
            rng = random.Random(3)
            for _ in range(40):
                live = service.store.cached(created.game_id)
                assert live is not None
                if live.over:
                    break
                if live.forced_pass:
                    await service.commands.forced_pass(created.game_id, live.ply)
                    continue
                pos = live.position
                assert pos.decider is not None
                move = rng.choice([pos.move_text(m) for m in live.legal_moves()])
                await service.commands.act(
                    created.game_id, tokens[pos.decider], live.ply, parse_move(move)
                )
                for token in tokens.values():
                    await service.queries.events(created.game_id, token, 0)
            live = service.store.cached(created.game_id)
            assert live is not None and live.ply > 20 and live.shown_history
            ref = weakref.ref(live)
            del live
            gc.collect()
            gc.disable()
            try:
                await service.commands.create("standard", "friend", "A", seed="c")
                assert service.store.cached(created.game_id) is None  # evicted
                return ref() is None
            finally:
                gc.enable()
        finally:
            await service.close()

    # In a thread of its own: a browser test earlier in this worker leaves Playwright's event
    # loop set as running in this one, where asyncio.run would refuse to start.
    with ThreadPoolExecutor(1) as thread:
        assert thread.submit(asyncio.run, scenario()).result(timeout=120)


@pytest.mark.slow  # plays games under three policies: more than a few seconds
def test_the_collector_bench_compares_the_three_policies_on_played_games() -> None:
    """``bench/collector.py`` runs each policy in its own process on the same games and
    prints what each cost (timing itself is not asserted)."""
    bench = Path(__file__).resolve().parents[2] / "bench" / "collector.py"
    done = subprocess.run(
        [sys.executable, str(bench), "--games", "12", "--rounds", "6", "--per-second", "10"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for policy in ("python", "before", "senet"):
        [row] = [line for line in lines if line.lstrip().startswith(f"{policy}:")]
        assert "us of CPU per move" in row and "gen 2:" in row
    assert sum("one full collection of everything" in line for line in lines) == 3
