"""Publish/subscribe between the game service and the open connections.

The implementation is chosen by the setting ``BROADCAST_URL``:

* ``memory://`` (the default): :class:`MemoryBroadcast`, in-process (one server process);
* ``redis://host:port/db``: :class:`RedisBroadcast`, between several server processes.

A message is a small JSON object (``{"type": "update", "ply": n, ...}``, which also carries
the new actions so that other processes need not read them back); the database stays the
truth, so a lost message costs latency, never correctness.  Every
subscriber may also get ``{"type": "resync"}``: messages may have been lost (Redis came back
after an outage) and it should reload what it shows.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from senet.service.messages import resync_message

__all__ = [
    "MemoryBroadcast",
    "RedisBroadcast",
    "Message",
    "Subscription",
    "broadcast_from_url",
]

log = logging.getLogger("senet.broadcast")

#: A message: a small JSON object with a ``type`` (see :mod:`senet.service.messages`).
Message = Mapping[str, Any]


class Subscription:
    """Messages of one channel, in order, for one subscriber."""

    def __init__(self, channel: str, maxsize: int = 1000) -> None:
        self.channel = channel
        self.queue: asyncio.Queue[Message] = asyncio.Queue(maxsize)

    async def get(self) -> Message:
        return await self.queue.get()

    def __aiter__(self) -> Subscription:
        return self

    async def __anext__(self) -> Message:
        return await self.queue.get()


class MemoryBroadcast:
    """In-process pub/sub: every subscriber of a channel gets every message published after it
    subscribed.  A subscriber that falls 1000 messages behind loses the oldest (it only ever
    needs the latest state, which it reloads on the next message)."""

    shared = False  # one process: nothing to share with

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}
        #: Called with (channel, message) for every message from another process, before it is
        #: delivered here — also when nobody here subscribes to its channel.
        self.observers: list[Callable[[str, Message], None]] = []

    async def ping(self) -> None:
        """Raise if the messages between processes cannot pass (in memory: they always can)."""

    async def publish(self, channel: str, message: Message) -> None:
        for sub in list(self._subs.get(channel, ())):
            if sub.queue.full():
                sub.queue.get_nowait()
            sub.queue.put_nowait(message)

    async def publish_local(self, channel: str, message: Message) -> None:
        """Deliver to this process's subscribers only."""
        await MemoryBroadcast.publish(self, channel, message)

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


class RedisBroadcast(MemoryBroadcast):
    """Pub/sub between processes through Redis.

    Local subscribers get a message at once (from :meth:`publish`, also while Redis is down);
    other processes get it through Redis, where each process listens to every channel under its
    prefix with one pattern subscription (no per-game subscribe churn).  A process skips its own
    messages coming back.  When the connection to Redis is lost, the listener reconnects with
    exponential backoff (0.1 s up to 5 s) and then sends ``{"type": "resync"}`` to every local
    subscriber, since messages published meanwhile are gone.

    Publishing never waits for Redis: :meth:`publish` queues the message and one writer task
    sends everything queued so far in one pipelined round trip, in order, over one connection.
    A game's lock is held while its update is published, so a slow Redis must not slow the
    game; and under load, batching turns hundreds of round trips a second into a few.
    """

    #: Messages waiting for Redis, at most (beyond that the oldest are dropped: Redis is down
    #: and the other processes resync from the database when it is back).
    MAX_QUEUED = 10_000

    shared = True  # several processes: a process's cached games may be behind the database

    def __init__(self, url: str, prefix: str = "senet:") -> None:
        super().__init__()
        import redis.asyncio as redis

        self.url = url
        self.prefix = prefix
        self.origin = secrets.token_hex(8)
        self._redis_module = redis
        # Bounded waits: a publish happens while a game is locked, it must never hang.
        self._client = redis.from_url(
            url, socket_connect_timeout=1.0, socket_timeout=2.0, socket_keepalive=True
        )
        self._task: asyncio.Task[None] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._outbox: list[tuple[str, str]] = []
        self._wake = asyncio.Event()
        self._sending = False  # a batch is on its way to Redis
        self._ready = asyncio.Event()
        self._closing = False
        self.reconnects = 0  # how many times the listener came back after losing Redis
        self.errors = 0  # how many times the listener lost Redis

    async def ping(self) -> None:
        """Raise if Redis does not answer a PING (the readiness check)."""
        await self._client.ping()

    def _start(self) -> None:
        if self._task is None and not self._closing:
            self._task = asyncio.create_task(self._listen(), name="redis-broadcast")
        if self._writer is None and not self._closing:
            self._writer = asyncio.create_task(self._write(), name="redis-publish")

    async def ready(self, timeout: float = 2.0) -> bool:
        """Start listening if not yet, and wait (at most ``timeout``) until Redis answers."""
        self._start()
        try:
            await asyncio.wait_for(self._ready.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def publish(self, channel: str, message: Message) -> None:
        self._start()
        await super().publish(channel, message)
        if len(self._outbox) >= self.MAX_QUEUED:
            del self._outbox[0]
        self._outbox.append((self.prefix + channel, json.dumps({"o": self.origin, "m": message})))
        self._wake.set()

    async def flush(self, timeout: float = 2.0) -> bool:
        """Wait until every queued message has gone to Redis (at most ``timeout``; for tests)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self._outbox or self._sending:
            if asyncio.get_running_loop().time() > deadline:
                return False
            await asyncio.sleep(0.005)
        return True

    async def _write(self) -> None:
        """The one writer: everything queued goes out in one pipeline, oldest first."""
        delay = 0.1
        while not self._closing:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox and not self._closing:
                batch, self._outbox = self._outbox, []
                self._sending = True
                try:
                    pipe = self._client.pipeline(transaction=False)
                    for channel, payload in batch:
                        pipe.publish(channel, payload)
                    await asyncio.wait_for(pipe.execute(), 3.0)
                    delay = 0.1
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    # The actions are stored; other processes resync when Redis is back.
                    (log.warning if delay <= 0.1 else log.debug)(
                        "cannot publish %d messages to Redis (%r): other processes catch up on reconnect",
                        len(batch),
                        exc,
                    )
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 2.0)
                finally:
                    self._sending = False

    @asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        await self.ready()
        async with super().subscribe(channel) as sub:
            yield sub

    def _resync_all(self) -> None:
        for subs in list(self._subs.values()):
            for sub in list(subs):
                if sub.queue.full():
                    sub.queue.get_nowait()
                sub.queue.put_nowait(resync_message())

    async def _listen(self) -> None:
        redis = self._redis_module
        delay = 0.1
        connected_before = False
        own = json.dumps({"o": self.origin}).encode()[
            :-1
        ]  # how our own payloads begin (see publish)
        while not self._closing:
            client = redis.from_url(
                self.url,
                socket_connect_timeout=1.0,
                socket_keepalive=True,
                health_check_interval=10,
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(self.prefix + "*")
                # The subscription is confirmed once its first reply is read.
                await pubsub.get_message(timeout=1.0)
                self._ready.set()
                delay = 0.1
                if connected_before:
                    self.reconnects += 1
                    log.warning("reconnected to Redis: resyncing every connection")
                    self._resync_all()
                connected_before = True
                while not self._closing:
                    msg = await pubsub.get_message(ignore_subscribe_messages=True, timeout=5.0)
                    if msg is None or msg.get("type") != "pmessage":
                        continue
                    raw = msg["data"]
                    if isinstance(raw, bytes) and raw.startswith(own):
                        continue  # our own message coming back: not even decoded
                    try:
                        data = json.loads(raw)
                    except (ValueError, TypeError):
                        continue
                    if not isinstance(data, dict) or data.get("o") == self.origin:
                        continue
                    channel = msg["channel"]
                    if isinstance(channel, bytes):
                        channel = channel.decode()
                    channel, message = channel[len(self.prefix) :], data.get("m") or {}
                    for observe in self.observers:
                        try:
                            observe(channel, message)
                        except Exception:
                            log.exception("observer of %s failed", channel)
                    await MemoryBroadcast.publish(self, channel, message)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._ready.clear()
                if not self._closing:
                    self.errors += 1
                    (log.warning if delay <= 0.1 else log.debug)(
                        "lost Redis (%r): reconnecting, backoff %.1f s", exc, delay
                    )
            finally:
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:
                    pass
            if self._closing:
                break
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def close(self) -> None:
        if self._outbox and self._ready.is_set():
            await self.flush(1.0)  # what this process announced last still reaches the others
        self._closing = True
        for task in (self._task, self._writer):
            if task is not None:
                task.cancel()
                try:
                    await task
                except BaseException:
                    pass
        self._task = self._writer = None
        try:
            await self._client.aclose()
        except Exception:
            pass
        await super().close()


def broadcast_from_url(url: str) -> MemoryBroadcast:
    """``memory://`` or ``redis://...`` / ``rediss://...`` (the setting ``BROADCAST_URL``)."""
    if url.startswith("memory://"):
        return MemoryBroadcast()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisBroadcast(url)
    raise ValueError(f"unsupported BROADCAST_URL {url!r}: use memory:// or redis://host:port/db")
