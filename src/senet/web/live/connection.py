"""Live play: one WebSocket per game and viewer, JSON messages.

The protocol — every message both ways, the events mode, the error codes — is written down in
docs/protocol.md and typed in :mod:`senet.web.protocol`.  This module serves it: one
:class:`GameConnection` a socket, whose ``pump`` sends what changed (after the first full state
a delta against the last state this connection was sent, or in events mode the events the
client has not got) and whose ``read`` answers the client's messages, each kind of message by
its own method (the tables :data:`CLIENT_ANSWERS` and :data:`CHANNEL_ANSWERS`).  An error never
changes the game; the connection stays open.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from senet.service.chat import ChatMessage
from senet.service.errors import GameError
from senet.service.games import delta_message, parsed_move
from senet.service.infrastructure import PresenceCounts, Subscription
from senet.service.messages import (
    CancelledMessage,
    Holder,
    ResyncMessage,
    StateMessage,
    UpdateMessage,
)
from senet.service.reading import GameFacts, read_game_message
from senet.service.server import GameService

from ..common import seat_cookie
from ..deps import holder, service_of, settings_of
from ..protocol import (
    ChatRequest,
    MoveRequest,
    MuteRequest,
    PingRequest,
    SeedRequest,
    ServerMessage,
    StateRequest,
    SyncRequest,
    error_message,
    game_error_message,
    parse_client_message,
    pong_message,
    presence_message,
)
from ..security import MAX_WS_MESSAGE_BYTES, TokenBucket, parse_json

#: a move that takes longer than this (seconds) to store is logged
SLOW_ACTION = 1.0

router = APIRouter()
log = logging.getLogger("senet.web")


def _same_origin(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return (
            True  # not a browser (a script or a test client): it has only the cookies it was given
        )
    return urlsplit(origin).netloc == ws.headers.get("host", "")


def _int_or_none(text: str | None) -> int | None:
    """A whole number written in ASCII digits (int() would also read "１２"), else None."""
    if text is None or not text.isascii():
        return None
    try:
        return int(text)
    except ValueError:
        return None


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    service: GameService = service_of(ws)
    if not _same_origin(ws):
        await ws.close(code=1008, reason="cross-origin connection refused")
        return
    await ws.accept()
    secret = ws.cookies.get(seat_cookie(game_id)) or ws.query_params.get("token")
    try:  # the seat secret, or the seats linked to the device's name
        token = await holder(ws, game_id, secret)
    except GameError as exc:
        await ws.send_json(game_error_message(exc))
        await ws.close(code=4404)
        return
    # Listen first, then read the game once: nothing stored in between can be missed, and the
    # game read here is the one first sent (with several processes, one database read a
    # connection: the first message is built from that read, at its ply).
    async with service.subscribe(game_id) as sub:
        try:
            game = await service.queries.facts(game_id, token)
        except GameError as exc:
            await ws.send_json(game_error_message(exc))
            await ws.close(code=4404)
            return
        limits = settings_of(ws).rate_limits
        since = ws.query_params.get("since")
        connection = GameConnection(
            ws=ws,
            service=service,
            game_id=game_id,
            token=token,
            game=game,
            bucket=TokenBucket(rate=limits.message_rate, burst=limits.message_burst),
            events_mode=since is not None,
            sent=_int_or_none(since),
            # a seat holder's page of another game following this one (the computer's game
            # while a request waits, seekwatch.js): present, but busy elsewhere; only its own
            # seat is concerned
            away=ws.query_params.get("away") == "1",
        )
        await connection.serve(sub)


@dataclass(eq=False)
class GameConnection:
    """One viewer's socket of one game: what it was sent, what it asked for, and the two tasks
    that serve it (``pump``: updates to the client; ``read``: its messages)."""

    ws: WebSocket
    service: GameService
    game_id: str
    token: Holder
    #: the game as read once when the connection opened: its first message is built from it
    game: GameFacts
    bucket: TokenBucket
    #: the client asked for events (``?since=N``) rather than states
    events_mode: bool
    #: events mode: the number of events the client has (None: it named no valid number)
    sent: int | None
    #: a page of another game following this one: present, but busy elsewhere
    away: bool
    #: the player muted the opponent's phrases
    muted: bool = False
    #: state mode: the state this client was last sent (whole, or as a delta), and the number
    #: of deltas since the last whole one; every state after the first goes out as a delta
    #: against it, and both change only together with a send, under ``update_lock``
    shown: StateMessage | None = None
    deltas: int = 0
    send_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    update_lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def seats(self) -> tuple[int, ...]:
        return self.game.seats

    # ------------------------------------------------------------------ sending
    async def send(self, message: ServerMessage) -> None:
        async with self.send_lock:
            try:
                await self.ws.send_json(message)
            except RuntimeError as exc:  # starlette's WebSocketDisconnected: the socket is gone
                raise WebSocketDisconnect(1006, str(exc)) from None

    async def send_view(self, state: StateMessage, whole: bool = False) -> None:
        """The viewer's state: whole the first time (or when asked), else what changed."""
        before = self.shown
        delta = None if whole or before is None else delta_message(before, state, self.deltas + 1)
        if delta is not None and not delta["history"] and delta["changed"].keys() <= {"now"}:
            return  # nothing this viewer sees changed (a seat holder came, as seen by another)
        await self.send(state if delta is None else delta)
        self.shown, self.deltas = state, (0 if delta is None else delta["seq"])

    async def send_state(self) -> None:
        async with self.update_lock:
            await self.send_view(await self.service.queries.state(self.game_id, self.token), True)

    async def send_update(
        self, min_ply: int | None = None, force: bool = False, since: int | None = None
    ) -> None:
        """What changed: a delta (the state), or in events mode the events the client has not
        got."""
        async with self.update_lock:
            queries = self.service.queries
            if not self.events_mode:
                state = await queries.state(self.game_id, self.token, min_ply=min_ply, reread=force)
                await self.send_view(state)
                return
            start = self.sent if since is None else since
            missed = await queries.events(
                self.game_id, self.token, start, min_ply=min_ply, reread=force
            )
            if missed["type"] == "state" or missed["events"] or force or since is not None:
                await self.send(missed)
            self.sent = missed["ply"]

    # ------------------------------------------------------------------ the game's channel
    async def pump(self, sub: Subscription) -> None:
        """Pass on what the game's channel says, each kind by its method; ends when the game is
        gone."""
        async for raw in sub:
            started = time.monotonic()
            message = read_game_message(raw)
            if message is None:
                continue
            go_on = await CHANNEL_ANSWERS[message["type"]](self, message)
            if time.monotonic() - started > SLOW_ACTION:
                log.warning(
                    "an update of game %s took %.1f s to send",
                    self.game_id,
                    time.monotonic() - started,
                )
            if not go_on:
                return

    async def on_update(self, message: UpdateMessage) -> bool:
        # Its actions are in the cached game already (stored here, or absorbed as the message
        # arrived); if not, the query reads the database up to that ply.
        await self.send_update(message["ply"], force=message.get("refresh", False))
        return True

    async def on_resync(self, _message: ResyncMessage) -> bool:
        await self.send_update(force=True)  # messages may have been lost: read the database
        return True

    async def on_presence(self, _message: PresenceCounts) -> bool:
        # the counts of one process changed: send the sum
        await self.send(presence_message(self.service.presence(self.game_id)))
        return True

    async def on_chat(self, message: ChatMessage) -> bool:
        # players only; not the muted opponent's
        if self.seats and (message["seat"] in self.seats or not self.muted):
            await self.send(message)
        return True

    async def on_cancelled(self, message: CancelledMessage) -> bool:
        await self.send(message)  # the game is gone: say so, and hang up
        await self.ws.close(code=4404)
        return False

    # ------------------------------------------------------------------ the client's messages
    async def read(self) -> None:
        """Read the client's frames until it goes: each checked (text, size, rate, JSON, the
        message's fields) and then answered by the method of its type."""
        while True:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(frame.get("code", 1000))
            text = frame.get("text")
            if text is None:
                await self.send(
                    error_message("bad_frame", "a message is a JSON text frame, not binary")
                )
                continue
            if len(text.encode()) > MAX_WS_MESSAGE_BYTES:
                await self.send(
                    error_message("too_large", f"a message is at most {MAX_WS_MESSAGE_BYTES} bytes")
                )
                await self.ws.close(code=1009)
                return
            if not self.bucket.take():
                await self.send(error_message("rate_limited", "too many messages: slow down"))
                continue
            try:
                data = parse_json(text)
            except ValueError as exc:
                await self.send(error_message("bad_json", f"the message is not valid JSON ({exc})"))
                continue
            try:  # parsed at the edge: a broken message is refused here, and nothing is done
                message = parse_client_message(data)
            except GameError as exc:
                await self.send(game_error_message(exc))
                continue
            await CLIENT_ANSWERS[message["type"]](self, message)

    async def on_ping(self, _message: PingRequest) -> None:
        await self.send(pong_message())

    async def on_state(self, _message: StateRequest) -> None:
        await self.send_state()

    async def on_sync(self, message: SyncRequest) -> None:
        await self.send_update(force=True, since=message["since"])

    async def on_move(self, message: MoveRequest) -> None:
        started = time.monotonic()
        try:
            await self.service.commands.act(
                self.game_id, self.token, message["ply"], parsed_move(message["move"])
            )
        except GameError as exc:  # refused: the game is unchanged
            await self.send(game_error_message(exc))
        finally:
            if time.monotonic() - started > SLOW_ACTION:
                log.warning(
                    "a move in game %s took %.1f s", self.game_id, time.monotonic() - started
                )

    async def on_seed(self, message: SeedRequest) -> None:
        try:
            await self.service.commands.seed(
                self.game_id, self.token, message["seed"], message.get("seat")
            )
        except GameError as exc:
            await self.send(game_error_message(exc))

    async def on_chat_request(self, message: ChatRequest) -> None:
        try:
            await self.service.say(self.game_id, self.seats, message["phrase"])
        except GameError as exc:
            await self.send(game_error_message(exc))

    async def on_mute(self, message: MuteRequest) -> None:
        self.muted = message["muted"]

    # ------------------------------------------------------------------ the connection
    async def serve(self, sub: Subscription) -> None:
        """Send the first message (from the game read as the connection opened), then pump and
        read until either ends; the viewer is counted present meanwhile."""
        await self.service.connected(self.game_id, self.seats, +1, away=self.away)
        tasks = [asyncio.create_task(self.pump(sub)), asyncio.create_task(self.read())]
        try:
            if self.events_mode:  # what the client missed, from the game just read (no second read)
                since = self.sent if self.sent is not None else -1
                await self.send_update(self.game.ply, since=since)
            else:
                async with self.update_lock:
                    state = await self.service.queries.state(
                        self.game_id, self.token, min_ply=self.game.ply
                    )
                    await self.send_view(state, whole=True)
            await self.send(presence_message(self.service.presence(self.game_id)))
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                exc = task.exception()
                if exc and not isinstance(exc, WebSocketDisconnect):
                    log.warning("websocket of game %s ended: %r", self.game_id, exc)
        except WebSocketDisconnect:
            pass
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.service.connected(self.game_id, self.seats, -1, away=self.away)


# The dispatch tables, by the message's ``type``: each method is given the message of its key's
# type (the value is typed by the union because a table cannot tie each key to its own type).
#: the client's messages (every type of protocol.CLIENT_MESSAGES: a test checks it)
CLIENT_ANSWERS: Final[Mapping[str, Callable[[GameConnection, Any], Awaitable[None]]]] = {
    "move": GameConnection.on_move,
    "seed": GameConnection.on_seed,
    "state": GameConnection.on_state,
    "sync": GameConnection.on_sync,
    "ping": GameConnection.on_ping,
    "chat": GameConnection.on_chat_request,
    "mute": GameConnection.on_mute,
}
#: the game channel's messages (every kind read_game_message reads); False: hang up
CHANNEL_ANSWERS: Final[Mapping[str, Callable[[GameConnection, Any], Awaitable[bool]]]] = {
    "update": GameConnection.on_update,
    "resync": GameConnection.on_resync,
    "presence": GameConnection.on_presence,
    "chat": GameConnection.on_chat,
    "cancelled": GameConnection.on_cancelled,
}
