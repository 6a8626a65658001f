"""Live play: one WebSocket per game and viewer, JSON messages.

The protocol — every message both ways, the events mode, the error codes — is written down in
docs/protocol.md and typed in :mod:`senet.web.protocol`.  This module serves it: ``pump`` sends
what changed (after the first full state a delta against the last state this connection was
sent, or in events mode the events the client has not got), ``read`` answers the client's
messages.  An error never changes the game; the connection stays open.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import assert_never
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from senet.service.errors import GameError
from senet.service.games import delta_message
from senet.service.infrastructure import Subscription
from senet.service.messages import Holder, StateMessage
from senet.service.reading import GameFacts, read_game_message
from senet.service.server import GameService

from .common import seat_cookie
from .players import holder
from .protocol import (
    ClientMessage,
    ServerMessage,
    error_message,
    game_error_message,
    parse_client_message,
    pong_message,
    presence_message,
)
from .security import MAX_WS_MESSAGE_BYTES, TokenBucket, parse_json

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
    service: GameService = ws.app.state.service
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
        await _serve(ws, service, game_id, token, game, sub)


async def _serve(
    ws: WebSocket,
    service: GameService,
    game_id: str,
    token: Holder,
    game: GameFacts,
    sub: Subscription,
) -> None:
    """The connection's two tasks: ``pump`` (updates to the client) and ``read`` (its messages)."""
    seats = game.seats
    muted = [False]  # the player muted the opponent's phrases
    send_lock = asyncio.Lock()
    update_lock = asyncio.Lock()
    since_param = ws.query_params.get("since")
    events_mode = since_param is not None
    sent = [
        _int_or_none(since_param) if events_mode else None
    ]  # events the client has (events mode)

    async def send(message: ServerMessage) -> None:
        async with send_lock:
            try:
                await ws.send_json(message)
            except RuntimeError as exc:  # starlette's WebSocketDisconnected: the socket is gone
                raise WebSocketDisconnect(1006, str(exc)) from None

    # State mode: the state this connection's client was last sent (whole, or as a delta) and
    # the number of deltas since the last whole one.  Every state after the first goes out as
    # a delta against it; both change only together with a send, under update_lock.
    shown: list[StateMessage | None] = [None]
    deltas = [0]

    async def send_view(state: StateMessage, whole: bool = False) -> None:
        """The viewer's state: whole the first time (or when asked), else what changed."""
        before = shown[0]
        delta = None if whole or before is None else delta_message(before, state, deltas[0] + 1)
        if delta is not None and not delta["history"] and delta["changed"].keys() <= {"now"}:
            return  # nothing this viewer sees changed (a seat holder came, as seen by another)
        await send(state if delta is None else delta)
        shown[0], deltas[0] = state, (0 if delta is None else delta["seq"])

    async def send_state() -> None:
        async with update_lock:
            await send_view(await service.queries.state(game_id, token), whole=True)

    async def send_update(
        min_ply: int | None = None, force: bool = False, since: int | None = None
    ) -> None:
        """What changed: a delta (the state), or in events mode the events the client has not
        got."""
        async with update_lock:
            queries = service.queries
            if not events_mode:
                await send_view(await queries.state(game_id, token, min_ply=min_ply, reread=force))
                return
            start = sent[0] if since is None else since
            missed = await queries.events(game_id, token, start, min_ply=min_ply, reread=force)
            if missed["type"] == "state" or missed["events"] or force or since is not None:
                await send(missed)
            sent[0] = missed["ply"]

    # a seat holder's page of another game following this one (the computer's game while a
    # request waits, seekwatch.js): present, but busy elsewhere; only its own seat is concerned
    away = ws.query_params.get("away") == "1"
    await service.connected(game_id, seats, +1, away=away)

    async def pump() -> None:
        async for raw in sub:
            started = time.monotonic()
            message = read_game_message(raw)
            if message is None:
                continue
            if message["type"] == "update":
                # Its actions are in the cached game already (stored here, or absorbed as the
                # message arrived); if not, the query reads the database up to that ply.
                await send_update(message["ply"], force=message.get("refresh", False))
            elif message["type"] == "resync":  # messages may have been lost: read the database
                await send_update(force=True)
            elif message["type"] == "presence":  # counts of one process changed: send the sum
                await send(presence_message(service.presence(game_id)))
            elif message["type"] == "chat":  # players only; not the muted opponent's
                if seats and (message["seat"] in seats or not muted[0]):
                    await send(message)
            elif message["type"] == "cancelled":  # the game is gone: say so, and hang up
                await send(message)
                await ws.close(code=4404)
                return
            if time.monotonic() - started > SLOW_ACTION:
                log.warning(
                    "an update of game %s took %.1f s to send", game_id, time.monotonic() - started
                )

    limits = ws.app.state.settings.rate_limits
    bucket = TokenBucket(rate=limits.message_rate, burst=limits.message_burst)

    async def read() -> None:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(frame.get("code", 1000))
            text = frame.get("text")
            if text is None:
                await send(error_message("bad_frame", "a message is a JSON text frame, not binary"))
                continue
            if len(text.encode()) > MAX_WS_MESSAGE_BYTES:
                await send(
                    error_message("too_large", f"a message is at most {MAX_WS_MESSAGE_BYTES} bytes")
                )
                await ws.close(code=1009)
                return
            if not bucket.take():
                await send(error_message("rate_limited", "too many messages: slow down"))
                continue
            try:
                data = parse_json(text)
            except ValueError as exc:
                await send(error_message("bad_json", f"the message is not valid JSON ({exc})"))
                continue
            try:  # parsed at the edge: a broken message is refused here, and nothing is done
                message = parse_client_message(data)
            except GameError as exc:
                await send(game_error_message(exc))
                continue
            await answer(message)

    async def answer(message: ClientMessage) -> None:
        if message["type"] == "ping":
            await send(pong_message())
        elif message["type"] == "state":
            await send_state()
        elif message["type"] == "sync":
            await send_update(force=True, since=message["since"])
        elif message["type"] == "move":
            started = time.monotonic()
            try:
                await service.commands.act(game_id, token, message["ply"], message["move"])
            except GameError as exc:
                await send(game_error_message(exc))
            finally:
                if time.monotonic() - started > SLOW_ACTION:
                    log.warning(
                        "a move in game %s took %.1f s", game_id, time.monotonic() - started
                    )
        elif message["type"] == "seed":
            try:
                await service.commands.seed(game_id, token, message["seed"], message.get("seat"))
            except GameError as exc:
                await send(game_error_message(exc))
        elif message["type"] == "chat":
            try:
                await service.say(game_id, seats, message["phrase"])
            except GameError as exc:
                await send(game_error_message(exc))
        elif message["type"] == "mute":
            muted[0] = message["muted"]
        else:
            assert_never(message)

    tasks = [asyncio.create_task(pump()), asyncio.create_task(read())]
    try:
        if events_mode:  # what the client missed, from the game just read (no second read)
            await send_update(game.ply, since=sent[0] if sent[0] is not None else -1)
        else:
            async with update_lock:
                await send_view(
                    await service.queries.state(game_id, token, min_ply=game.ply), whole=True
                )
        await send(presence_message(service.presence(game_id)))
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            exc = task.exception()
            if exc and not isinstance(exc, WebSocketDisconnect):
                log.warning("websocket of game %s ended: %r", game_id, exc)
    except WebSocketDisconnect:
        pass
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await service.connected(game_id, seats, -1, away=away)
