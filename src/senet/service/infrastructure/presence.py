"""Who is connected to a game — both seats and the spectators — summed over every process.

Each server process counts its own WebSocket connections per game and announces its counts
for a game whenever they change (``{"type": "presence", "origin": ..., "counts": {...}}`` on
the game's channel); every process keeps the latest counts of each other origin and shows the
sum.  A process that dies cannot say goodbye, so every process also repeats all its counts on
the ``presence`` channel every :attr:`Presence.EVERY` seconds, and counts that an origin has not
repeated for :attr:`Presence.TTL` seconds are dropped.  With one process (``memory://``) there
are no other origins and nothing is repeated.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Literal, TypedDict

from senet.service.messages import PresenceSummary

from .broadcast import MemoryBroadcast, Message

__all__ = ["Presence", "PresenceCounts", "PresenceRepeat"]


class PresenceCounts(TypedDict):
    """One process's connections to one game changed (on the game's channel)."""

    type: Literal["presence"]
    origin: str
    # "0", "1" (the seats' holders), "spectators", and "away0", "away1": the seats' holders
    # connected from another game's page (playing the computer while their request waits)
    counts: dict[str, int]


class PresenceRepeat(TypedDict):
    """One process's counts of every game, repeated (on the ``presence`` channel)."""

    origin: str
    games: dict[str, dict[str, int]]


_KEYS = ("0", "1", "spectators", "away0", "away1")


class Presence:
    EVERY = 10.0
    TTL = 35.0

    def __init__(self, broadcast: MemoryBroadcast) -> None:
        self.broadcast = broadcast
        self.origin = secrets.token_hex(6)  # this process, in presence messages
        self.local: dict[str, dict[str, int]] = {}  # game -> this process's counts
        self.remote: dict[
            str, dict[str, tuple[dict[str, int], float]]
        ] = {}  # game -> origin -> (counts, seen)
        self._task: asyncio.Task[None] | None = None

    def count(
        self, game_id: str, seats: tuple[int, ...], delta: int, away: bool = False
    ) -> PresenceCounts:
        """Count a connection (+1) or a disconnection (-1); returns the message announcing it.
        ``away``: a seat holder's connection from another game's page (it keeps the seat
        present, and says its holder is busy elsewhere)."""
        counts = self.local.setdefault(game_id, {})
        keys = [str(s) for s in seats] or ["spectators"]
        if away and seats:
            keys += [f"away{s}" for s in seats]
        for key in keys:
            counts[key] = max(0, counts.get(key, 0) + delta)
        if not any(counts.values()):
            del self.local[game_id]
        return {"type": "presence", "origin": self.origin, "counts": dict(counts)}

    def absorb(self, game_id: str, message: Message, now: float | None = None) -> None:
        """Take another origin's counts for a game (malformed parts are ignored)."""
        origin, counts = message.get("origin"), message.get("counts")
        if origin == self.origin or not isinstance(origin, str) or not isinstance(counts, dict):
            return
        clean = {k: v for k, v in counts.items() if k in _KEYS and isinstance(v, int) and v > 0}
        remote = self.remote.setdefault(game_id, {})
        if clean:
            remote[origin] = (clean, time.monotonic() if now is None else now)
        else:
            remote.pop(origin, None)
        if not remote:
            del self.remote[game_id]

    def _total(self, game_id: str, now: float | None = None) -> dict[str, int]:
        total = dict(self.local.get(game_id, {}))
        now = time.monotonic() if now is None else now
        for counts, seen in self.remote.get(game_id, {}).values():
            if now - seen <= self.TTL:
                for key, n in counts.items():
                    total[key] = total.get(key, 0) + n
        return total

    def elsewhere(self, now: float | None = None) -> list[str]:
        """The games one of whose seat holders is connected only from another game's page
        (over every live origin): present, but not there to play (quick pairing passes them
        over)."""
        found = []
        for game_id in set(self.local) | set(self.remote):
            total = self._total(game_id, now)
            if any(0 < total.get(str(s), 0) <= total.get(f"away{s}", 0) for s in (0, 1)):
                found.append(game_id)
        return found

    def summary(self, game_id: str, now: float | None = None) -> PresenceSummary:
        """``{"online": [A, B], "spectators": n}`` over this process and every live origin."""
        total = self._total(game_id, now)
        return {
            "online": [total.get("0", 0) > 0, total.get("1", 0) > 0],
            "spectators": total.get("spectators", 0),
        }

    def at_boards(self, now: float | None = None) -> tuple[int, set[str]]:
        """``(seats whose holder is connected, the games they are in)`` over every game and
        live origin: the people playing now (a game on one screen counts its two seats)."""
        seats = 0
        games = set()
        for game_id in set(self.local) | set(self.remote):
            online = sum(self.summary(game_id, now)["online"])
            if online:
                seats += online
                games.add(game_id)
        return seats, games

    def absorb_all(self, message: Message, now: float | None = None) -> None:
        """Take an origin's repeated counts of every game (games it no longer lists are gone)."""
        origin, games = message.get("origin"), message.get("games")
        if origin == self.origin or not isinstance(origin, str) or not isinstance(games, dict):
            return
        listed_before = {g for g, by in self.remote.items() if origin in by}
        for game_id, counts in games.items():
            if isinstance(game_id, str):
                self.absorb(game_id, {"origin": origin, "counts": counts}, now)
                listed_before.discard(game_id)
        for game_id in listed_before:
            self.absorb(game_id, {"origin": origin, "counts": {}}, now)

    def expire(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        for game_id, remote in list(self.remote.items()):
            for origin, (_counts, seen) in list(remote.items()):
                if now - seen > self.TTL:
                    del remote[origin]
            if not remote:
                del self.remote[game_id]

    # ------------------------------------------------------------------ several processes
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._repeat(), name="presence")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _repeat(self) -> None:
        async with self.broadcast.subscribe("presence") as sub:
            next_at = 0.0
            while True:
                now = time.monotonic()
                if now >= next_at:
                    next_at = now + self.EVERY
                    repeat: PresenceRepeat = {"origin": self.origin, "games": self.local}
                    await self.broadcast.publish("presence", repeat)
                    self.expire(now)
                try:
                    message = await asyncio.wait_for(
                        sub.get(), max(0.01, next_at - time.monotonic())
                    )
                except TimeoutError:
                    continue
                self.absorb_all(message)
