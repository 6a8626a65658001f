"""WebSocket bots that play Senet against each other through real server processes.

Used by the multi-process tests and by ``bench/load.py``.  A bot holds one seat, connects with
``?since=N`` (events mode, see :mod:`senet.web.live.connection`), keeps every event it is sent in order
(it asks again with ``sync`` if it sees a gap), plays a move when it is its decision, and when
its connection breaks (a server process killed) reconnects to the next server in its list with
the number of events it has, so it gets exactly what it missed.  A new game waits for both
players' own seeds before its first throw: a bot sends its seed over
its WebSocket as soon as it sees its seat still needs one.  A forced pass (the only legal move,
which the server plays by itself after a pause) it leaves to the server, as the game page does.
It records the moves it sent,
the ones that were stored (seen coming back as events) and, for the opponent's moves, the
latency from the opponent's send to this bot's update.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import websockets

__all__ = ["GameSeats", "Bot", "create_friend_game", "game_bots", "play_game"]


@dataclass
class GameSeats:
    game_id: str
    tokens: dict[int, str]


async def create_friend_game(
    client: httpx.AsyncClient,
    create_base: str,
    join_base: str,
    variant: str = "standard",
    seeds: bool = False,
) -> GameSeats:
    """A friend game created on one process and joined (the invitation) on another; with
    ``seeds`` both players give their seeds through the REST API (each on its own process), so
    the first throw is made (bots give theirs themselves)."""
    r = await client.post(
        f"{create_base}/api/games", json={"variant": variant, "mode": "friend", "colour": "A"}
    )
    r.raise_for_status()
    data = r.json()
    invite_path = urlsplit(data["invite_url"]).path
    client.cookies.clear()  # the joiner is someone else: not the creator's seat cookie
    joined = await client.post(join_base + invite_path, follow_redirects=False)
    client.cookies.clear()
    name = f"senet_seat_{data['id']}="
    token_b = next(
        (
            c.split(";")[0][len(name) :]
            for c in joined.headers.get_list("set-cookie")
            if c.startswith(name)
        ),
        None,
    )
    if joined.status_code != 303 or not token_b:
        raise RuntimeError(f"could not join game {data['id']}: {joined.status_code}")
    seats = GameSeats(data["id"], {0: data["token"], 1: token_b})
    if seeds:
        for seat, base in ((0, create_base), (1, join_base)):
            r = await client.post(
                f"{base}/api/games/{seats.game_id}/seed",
                json={"seed": f"bot seed {seat}"},
                headers={"X-Seat-Token": seats.tokens[seat]},
            )
            r.raise_for_status()
    return seats


@dataclass
class Bot:
    game_id: str
    seat: int
    token: str
    servers: list[str]  # ws://host:port bases; the first is used first, then the next on failure
    sent_at: dict[int, float]  # shared by the two bots of a game: ply -> time the move was sent
    think: float = 0.0  # mean pause before a move (seconds; exponential), 0 = at once
    rng: random.Random = field(default_factory=random.Random)
    events: list[dict[str, Any]] = field(default_factory=list)
    sent: dict[int, str] = field(default_factory=dict)  # ply -> move sent at that ply
    latencies: list[float] = field(default_factory=list)
    latency_times: list[float] = field(default_factory=list)  # perf_counter of each latency sample
    opponent_moves_at: list[float] = field(
        default_factory=list
    )  # perf_counter of each opponent move seen
    outcome: dict[str, Any] | None = None
    reconnects: int = 0
    stalls: int = 0  # connections given up because a move sent on them got no answer
    stale: int = 0
    errors: list[str] = field(default_factory=list)
    server_index: int = 0
    idle_sync: float = 3.0  # ask for missed events after this long without a message
    seed: str = ""  # the bot's own seed; empty: a random one from its rng

    @property
    def ply(self) -> int:
        return len(self.events)

    def mine_stored(self) -> dict[int, str]:
        return {
            e["ply"]: e["text"]
            for e in self.events
            if e["kind"] != "throw" and e["seat"] == self.seat
        }

    def _take(self, msg: dict[str, Any]) -> bool:
        """Add the events of ``msg``; False if there is a gap (the caller asks with sync)."""
        if msg["type"] == "state":  # a full state: take its history whole
            history = msg["history"]
            self._check_overlap(history[: len(self.events)], 0)
            new = history[len(self.events) :]
            start = len(self.events)
        else:
            since = msg["since"]
            if since > len(self.events):
                return False
            self._check_overlap(msg["events"][: len(self.events) - since], since)
            new = msg["events"][len(self.events) - since :]
            start = len(self.events)
        now = time.perf_counter()
        for offset, event in enumerate(new):
            if event["ply"] != start + offset:
                raise AssertionError(
                    f"{self.game_id}: event {event['ply']} where {start + offset} was due"
                )
            self.events.append(event)
            if event["kind"] != "throw" and event["seat"] != self.seat:
                self.opponent_moves_at.append(now)
                t0 = self.sent_at.get(event["ply"])
                if t0 is not None:
                    self.latencies.append(now - t0)
                    self.latency_times.append(now)
        self.outcome = msg.get("outcome")
        self.decider = msg.get("decider")
        self.legal = msg.get("legal") or []
        self.forced = msg.get("forced_pass") is not None  # the server passes for the decider
        self.msg_ply = msg.get("ply", len(self.events))
        return True

    def _check_overlap(self, events: list[dict[str, Any]], since: int) -> None:
        for i, event in enumerate(events):
            mine = self.events[since + i]
            if (mine["kind"], mine.get("text"), mine.get("value")) != (
                event["kind"],
                event.get("text"),
                event.get("value"),
            ):
                raise AssertionError(
                    f"{self.game_id}: event {since + i} changed: {mine} then {event}"
                )

    async def run(self, deadline: float) -> None:
        """Play until the game is over or ``deadline`` (time.monotonic) passes."""
        self.decider, self.legal, self.msg_ply, self.forced = None, [], 0, False
        delay = 0.05
        while self.outcome is None and time.monotonic() < deadline:
            base = self.servers[self.server_index % len(self.servers)]
            url = f"{base}/ws/games/{self.game_id}?token={self.token}&since={len(self.events)}"
            try:
                async with websockets.connect(
                    url, open_timeout=10, ping_interval=None, max_size=2**22
                ) as ws:
                    delay = 0.05
                    await self._play(ws, deadline)
            except (
                TimeoutError,
                OSError,
                websockets.ConnectionClosed,
                websockets.InvalidHandshake,
            ) as exc:
                if self.outcome is not None or time.monotonic() >= deadline:
                    break  # over, or out of time (not a reconnection)
                self.reconnects += 1
                self.server_index += 1  # try the next process
                self.errors.append(f"reconnect after {type(exc).__name__}: {str(exc)[:50]}")
                await asyncio.sleep(delay)
                delay = min(delay * 2, 1.0)

    async def _play(self, ws: Any, deadline: float) -> None:
        pending: asyncio.Task[None] | None = None
        sync_asked = False
        seed_sent = False  # on this connection
        self._pending_ply = -1
        self._sent_here: set[int] = set()  # plies this connection has sent a move for
        try:
            while self.outcome is None:
                timeout = deadline - time.monotonic()
                if timeout <= 0:
                    return
                try:
                    raw = await asyncio.wait_for(ws.recv(), min(timeout, self.idle_sync))
                except TimeoutError:
                    if time.monotonic() < deadline:  # quiet for long: did we miss something?
                        if (
                            self.decider == self.seat
                            and not self.forced
                            and len(self.events) in self.sent
                        ):
                            # Our move went unanswered: open a new connection (as a reload would).
                            self.stalls += 1
                            return
                        sync_asked = True
                        await ws.send(json.dumps({"type": "sync", "since": len(self.events)}))
                        continue
                    raise
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind in ("events", "state"):
                    if not self._take(msg):
                        await ws.send(json.dumps({"type": "sync", "since": len(self.events)}))
                        continue
                elif kind == "error":
                    if msg.get("code") in ("already_seeded", "not_seeding"):
                        continue  # our seed arrived earlier (before a reconnection)
                    if msg.get("code") == "stale":
                        self.stale += 1
                    else:
                        self.errors.append(f"{msg.get('code')}: {msg.get('message')}")
                    await ws.send(json.dumps({"type": "sync", "since": len(self.events)}))
                    continue
                else:
                    continue
                needed = (
                    msg.get("seed_needed") or (msg.get("fairness") or {}).get("seed_needed") or []
                )
                if (
                    msg.get("phase") == "seeding"
                    and len(needed) > self.seat
                    and needed[self.seat]
                    and not seed_sent
                ):
                    seed_sent = True
                    self.seed = self.seed or f"bot-{self.rng.getrandbits(64):016x}"
                    await ws.send(json.dumps({"type": "seed", "seed": self.seed}))
                if (
                    self.outcome is None
                    and self.decider == self.seat
                    and self.legal
                    and not self.forced
                    and self.msg_ply == len(self.events)
                ):
                    # One move per ply; a move being sent is never cancelled (a half-sent frame).
                    if (
                        pending is None
                        or pending.done()
                        or self._pending_ply != len(self.events)
                        or sync_asked
                    ):
                        self._pending_ply = len(self.events)
                        pending = asyncio.create_task(
                            self._move(ws, len(self.events), list(self.legal))
                        )
                sync_asked = False
        finally:
            if pending is not None:
                pending.cancel()

    async def _move(self, ws: Any, ply: int, legal: list[str]) -> None:
        if self.think > 0:
            await asyncio.sleep(self.rng.expovariate(1 / self.think))
        if len(self.events) != ply or ply in self._sent_here:
            # Moved on, or this connection sent a move for this ply already.  (A move sent on a
            # connection that broke is sent again on the next one: the server may never have
            # received it, and if it did, the second is answered stale.)
            return
        self._sent_here.add(ply)
        move = (
            self.sent[ply] if self.sent.get(ply) in legal else self.rng.choice(legal)
        )  # the same move again
        self.sent[ply] = move
        self.sent_at[ply] = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "ply": ply, "move": move}))


def game_bots(
    seats: GameSeats, servers: list[list[str]], think: float = 0.0, seed: int | None = None
) -> tuple[Bot, Bot]:
    """The two bots of one game; ``servers[seat]`` is that seat's list of ws bases."""
    sent_at: dict[int, float] = {}
    rng = random.Random(seed)

    def bot(seat: int) -> Bot:
        return Bot(
            seats.game_id,
            seat,
            seats.tokens[seat],
            servers[seat],
            sent_at,
            think,
            random.Random(rng.random()),
        )

    return bot(0), bot(1)


async def play_game(
    seats: GameSeats,
    servers: list[list[str]],
    deadline: float,
    think: float = 0.0,
    seed: int | None = None,
) -> tuple[Bot, Bot]:
    """Two bots play one game to the end; ``servers[seat]`` is that seat's list of ws bases."""
    bots = game_bots(seats, servers, think, seed)
    await asyncio.gather(*(b.run(deadline) for b in bots))
    return bots
