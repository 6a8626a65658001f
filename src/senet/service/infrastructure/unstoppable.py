"""Work that, once started, runs to its end whatever happens to whoever asked for it.

A WebSocket that closes cancels the task reading its messages; a client that goes away may
cancel its request.  If that cancellation lands inside a database transaction, the driver's
connection is abandoned half-way: SQLAlchemy invalidates it without closing it, and an
abandoned SQLite connection keeps its write lock until the garbage collector happens to free
it — every later write of the site fails meanwhile.  So storing an action never runs in the
caller's task: it runs in a task of its own, which the caller awaits through
:func:`asyncio.shield`.  A cancelled caller stops waiting; the work commits (or fails and rolls
back) and releases its connection as if nobody had left.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["Unstoppable"]

T = TypeVar("T")

log = logging.getLogger("senet.service")


class Unstoppable:
    """Runs coroutines to their end in tasks of their own; remembers them until they are done."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._running: set[asyncio.Task[Any]] = set()

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """``await work``, except that cancelling the caller does not cancel ``work``."""
        task = asyncio.get_running_loop().create_task(work)
        self._running.add(task)
        task.add_done_callback(self._done)
        return await asyncio.shield(task)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._running.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # Seen by the caller if it is still waiting; otherwise nobody will ask for it.
            log.debug("%s finished after its caller left: %r", self.name, task.exception())

    def __len__(self) -> int:
        return len(self._running)

    async def drain(self) -> None:
        """Wait for everything started so far (at shutdown, before the connections close)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)
