"""Live play: one WebSocket per game and viewer, JSON messages.

Client to server::

    {"type": "move", "ply": 12, "move": "9-12"}   # ply: the number of actions the client has seen
    {"type": "state"}                              # send me the state again
    {"type": "ping"}

Server to client: ``{"type": "state", ...}`` (see :func:`senet.service.views.state_message`) on
connect and after every change, ``{"type": "presence", "online": [a, b], "spectators": n}``,
``{"type": "pong"}`` and ``{"type": "error", "code": ..., "message": ...}``.  An error never
changes the game; the connection stays open.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from senet.service.games import GameError, GameService
from senet.service.views import state_message

from .app import seat_cookie

router = APIRouter()
log = logging.getLogger("senet.web")


def _error(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def _same_origin(ws: WebSocket) -> bool:
    origin = ws.headers.get("origin")
    if not origin:
        return True  # not a browser (a script or a test client): it has only the cookies it was given
    return urlsplit(origin).netloc == ws.headers.get("host", "")


@router.websocket("/ws/games/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    service: GameService = ws.app.state.service
    if not _same_origin(ws):
        await ws.close(code=1008, reason="cross-origin connection refused")
        return
    await ws.accept()
    try:
        live = await service.load(game_id)
    except GameError as exc:
        await ws.send_json(_error(exc.code, exc.message))
        await ws.close(code=4404)
        return
    token = ws.cookies.get(seat_cookie(game_id)) or ws.query_params.get("token")
    seats = live.seats_of(token)
    send_lock = asyncio.Lock()

    async def send(message: dict[str, Any]) -> None:
        async with send_lock:
            await ws.send_json(message)

    async def send_state() -> None:
        current = await service.load(game_id)
        await send(state_message(service, current, current.seats_of(token)))

    async with service.subscribe(game_id) as sub:
        await service.connected(game_id, seats, +1)

        async def pump() -> None:
            async for message in sub:
                if message.get("type") == "update":
                    await send_state()
                elif message.get("type") == "presence":
                    await send(message)

        async def read() -> None:
            while True:
                text = await ws.receive_text()
                try:
                    data = json.loads(text)
                except ValueError:
                    await send(_error("bad_json", "the message is not valid JSON"))
                    continue
                if not isinstance(data, dict):
                    await send(_error("bad_request", "a message is a JSON object with a type"))
                    continue
                kind = data.get("type")
                if kind == "ping":
                    await send({"type": "pong"})
                elif kind == "state":
                    await send_state()
                elif kind == "move":
                    try:
                        await service.act(game_id, token, data.get("ply"), data.get("move"))
                    except GameError as exc:
                        await send(_error(exc.code, exc.message))
                else:
                    await send(_error("unknown_type", f"unknown message type {kind!r}: use move, state or ping"))

        tasks = [asyncio.create_task(pump()), asyncio.create_task(read())]
        try:
            await send_state()
            await send({"type": "presence", **service.presence(game_id)})
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
            await service.connected(game_id, seats, -1)
