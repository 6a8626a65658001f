"""Requests that wait for a worker (hints, analyses, reviews): who asks, and giving up when
the asker hangs up.

:func:`client_of` names the client for the job queue's limits: its address (as the trusted
proxy reports it) and, for a player's hint, its seat.  :func:`unless_gone` awaits the work
while listening for the client's disconnection; if the client goes first, the work is
cancelled (the job queue drops the job, or stops it if it runs) and :class:`ClientGone`
raised, which the application answers with nothing (the client is not there to read it).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable
from typing import TypeVar

from fastapi import Request

from senet.service.infrastructure import Client

__all__ = ["ClientGone", "client_of", "unless_gone"]

T = TypeVar("T")


class ClientGone(Exception):
    """The client closed its connection before the answer was ready."""


def client_of(request: Request, seat_token: str | None = None, game_id: str = "") -> Client:
    """The client of ``request``: its address, and its seat when it holds ``seat_token`` of
    ``game_id`` (only a digest of the secret is kept)."""
    address = request.client.host if request.client else None
    seat = None
    if seat_token:
        seat = f"{game_id}:{hashlib.sha256(seat_token.encode()).hexdigest()[:16]}"
    return Client(address, seat)


async def unless_gone(request: Request, work: Awaitable[T]) -> T:
    """The result of ``work``, unless the client hangs up first: then ``work`` is cancelled
    and :class:`ClientGone` raised."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        raise
    finally:
        if not gone.done():
            gone.cancel()
    if task.done():
        return task.result()
    task.cancel()
    try:
        await task
    except (asyncio.CancelledError, Exception):
        pass
    raise ClientGone


async def _disconnected(request: Request) -> None:
    """Return when the client disconnects (the request's body, if any, is read and ignored)."""
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
