"""The cyclic garbage collector of a server process that holds thousands of games.

CPython's collector stops the process for a time proportional to the objects it examines.  A
server keeps every live game's positions, actions and shown history in memory (some 170
tracked objects a game twenty rounds in, several hundred by the end of a game), so with 3,000
games one collection of the oldest generation examines millions of objects and stops every
game at once: 0.4-0.8 s each, every 10-30 s under load.

Most of what a busy server allocates survives (a move adds a position, an action and a
history entry to its game), so CPython's generations examine the same objects again and again
on their way to the old generation, whose collections then examine everything.  The policy
here examines each object about twice and keeps every pause short without giving up
collecting:

* The young generation is collected every :attr:`CollectorPolicy.young` allocations: a few
  milliseconds each.
* Every :attr:`CollectorPolicy.settle` seconds (one), :meth:`Collector.settle` collects every
  object that is not frozen — only what survived since the last settle, since ``gc.collect``
  skips frozen objects — and freezes the survivors (``gc.freeze``): they are not examined
  again.  The middle and old generations are (almost) never collected by allocation counts.
* Freezing changes nothing for objects freed by reference counting, which is how a game's
  positions, actions and history go (none of them is in a reference cycle).  Only a cycle that
  becomes garbage after it was frozen outlives its use, so every
  :attr:`CollectorPolicy.sweep` seconds (``SENET_GC_SWEEP``, an hour) :meth:`Collector.sweep`
  unfreezes everything and collects it once: one long pause an hour instead of one every few
  seconds, logged with what it found.

Measured with ``bench/load.py`` (docs/workers.md, *The garbage collector*).
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["CollectorPolicy", "Collector"]

#: Never, in allocation counts: the old generation is collected by :meth:`Collector.settle`.
_NEVER = 1_000_000_000


@dataclass(frozen=True)
class CollectorPolicy:
    """When the collector runs (see the module's text for why)."""

    #: allocations (net of frees) between collections of the young generation
    young: int = 10_000
    #: young collections between collections of the middle generation (rarely reached: a
    #: settle collects it first)
    middle: int = 1000
    #: seconds between settles: the survivors since the last one collected, then frozen
    settle: float = 1.0
    #: seconds between sweeps: everything unfrozen and collected once
    sweep: float = 3600.0
    #: a pause longer than this many seconds is logged (it delayed every game)
    slow: float = 0.1


class Collector:
    """Runs :class:`CollectorPolicy` in one process: :meth:`install` once at start-up, then
    :meth:`tick` every ``policy.settle`` seconds (:meth:`start` runs a thread that does)."""

    def __init__(
        self,
        policy: CollectorPolicy | None = None,
        clock: Callable[[], float] = time.monotonic,
        log: logging.Logger | None = None,
    ) -> None:
        self.policy = policy or CollectorPolicy()
        self.clock = clock
        self.log = log or logging.getLogger("senet.web")
        self.swept_at = clock()
        self._stop = threading.Event()
        self._started = 0.0
        self._sweeping = False  # the sweep logs its own pause, with what it found

    def install(self) -> None:
        """Freeze what exists (the imported modules live as long as the process), set the
        thresholds, and log every pause longer than ``policy.slow``."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(self.policy.young, self.policy.middle, _NEVER)
        gc.callbacks.append(self._watch)

    def uninstall(self) -> None:
        """Undo :meth:`install` (for tests): default thresholds, nothing frozen, no watcher."""
        self._stop.set()
        if self._watch in gc.callbacks:
            gc.callbacks.remove(self._watch)
        gc.set_threshold(700, 10, 10)
        gc.unfreeze()

    def settle(self) -> int:
        """Collect every object not frozen yet, then freeze the survivors; returns how many
        unreachable objects were found."""
        found = gc.collect()
        gc.freeze()
        return found

    def sweep(self) -> int:
        """Unfreeze everything, collect it all, freeze the survivors again; returns how many
        unreachable objects were found (cycles that became garbage after being frozen)."""
        started = time.perf_counter()
        self._sweeping = True
        try:
            gc.unfreeze()
            found = gc.collect()
            gc.freeze()
        finally:
            self._sweeping = False
        self.swept_at = self.clock()
        # A warning, as every long pause is: it delayed every game (and ``senet serve``
        # shows the package's warnings, not its information).
        self.log.warning(
            "garbage sweep paused the server %.0f ms: %d unreachable objects freed, %d kept",
            (time.perf_counter() - started) * 1e3,
            found,
            gc.get_freeze_count(),
        )
        return found

    def tick(self) -> None:
        """A sweep when one is due, else a settle."""
        if self.clock() - self.swept_at >= self.policy.sweep:
            self.sweep()
        else:
            self.settle()

    def start(self) -> threading.Thread:
        """Tick every ``policy.settle`` seconds in a daemon thread.  A collection holds the
        interpreter lock wherever it runs, so the thread only chooses when: the pause is the
        same as if the event loop ran it."""

        def run() -> None:
            while not self._stop.wait(self.policy.settle):
                self.tick()

        thread = threading.Thread(target=run, name="senet-gc", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        """Stop the thread of :meth:`start` (at its next wake-up)."""
        self._stop.set()

    def _watch(self, phase: str, info: dict[str, int]) -> None:
        if self._sweeping:
            return
        if phase == "start":
            self._started = time.perf_counter()
        elif (pause := time.perf_counter() - self._started) > self.policy.slow:
            self.log.warning(
                "garbage collection of generation %d paused the server %.0f ms",
                info["generation"],
                pause * 1e3,
            )
