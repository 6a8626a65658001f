"""Publish/subscribe between the game service and the open connections.

:class:`Broadcast` is the interface; :class:`MemoryBroadcast` is the in-process implementation
(one server process).  A Redis implementation for several processes plugs in behind the same
interface and is chosen by ``BROADCAST_URL`` (default ``memory://``).
"""

from __future__ import annotations

import asyncio
import os
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Protocol

__all__ = ["Broadcast", "MemoryBroadcast", "Subscription", "broadcast_from_url", "DEFAULT_BROADCAST_URL"]

DEFAULT_BROADCAST_URL = "memory://"


class Subscription:
    """Messages of one channel, in order, for one subscriber."""

    def __init__(self, channel: str, maxsize: int = 1000) -> None:
        self.channel = channel
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize)

    async def get(self) -> dict[str, Any]:
        return await self.queue.get()

    def __aiter__(self) -> "Subscription":
        return self

    async def __anext__(self) -> dict[str, Any]:
        return await self.queue.get()


class Broadcast(Protocol):
    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, channel: str) -> Any:  # an async context manager yielding a Subscription
        ...

    async def close(self) -> None: ...


class MemoryBroadcast:
    """In-process pub/sub: every subscriber of a channel gets every message published after it
    subscribed.  A subscriber that falls 1000 messages behind loses the oldest (it only ever
    needs the latest state, which it reloads on the next message)."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        for sub in list(self._subs.get(channel, ())):
            if sub.queue.full():
                sub.queue.get_nowait()
            sub.queue.put_nowait(message)

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        sub = Subscription(channel)
        self._subs.setdefault(channel, set()).add(sub)
        try:
            yield sub
        finally:
            subs = self._subs.get(channel)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[channel]

    def subscribers(self, channel: str) -> int:
        return len(self._subs.get(channel, ()))

    async def close(self) -> None:
        self._subs.clear()


def broadcast_from_url(url: str | None = None) -> MemoryBroadcast:
    url = url or os.environ.get("BROADCAST_URL") or DEFAULT_BROADCAST_URL
    if url.startswith("memory://"):
        return MemoryBroadcast()
    raise ValueError(f"unsupported BROADCAST_URL {url!r}: only memory:// is built in (Redis comes later)")
