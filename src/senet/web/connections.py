"""Slow and greedy clients, held off at the connection: before any request reaches the site.

uvicorn has no timeout for a request that is never finished (a client may send half a request
line and wait for ever, holding a descriptor) and no cap on the connections one address opens.
Its protocol classes are extended here:

* **Request timeout**: the head and body of a request must arrive within ``request_timeout``
  seconds of its first byte (of the connection, for the first request); otherwise the
  connection is closed.  Between requests, uvicorn's keep-alive timeout (``idle_timeout``)
  closes an idle connection.  A WebSocket, once open, is kept alive by pings (a peer that does
  not answer them is closed by uvicorn).
* **Connections per address**: at most ``per_address`` open connections from one client
  address, HTTP and WebSocket together (a WebSocket starts as an HTTP connection and is counted
  until it closes).  Over the cap, a connection is answered 503 and closed at once.  The
  addresses of trusted proxies (``trusted``, uvicorn's ``forwarded_allow_ips``) are not capped:
  behind nginx every client arrives from the proxy, which limits them itself
  (deploy/nginx.conf).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["ConnectionLimits", "AddressCounter", "guarded_protocols"]

log = logging.getLogger("senet.web")

_TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 41\r\nconnection: close\r\nretry-after: 10\r\n\r\n"
    b"Too many connections from your address.\r\n"
)


@dataclass(frozen=True)
class ConnectionLimits:
    """The guards' limits; ``senet serve`` builds them from :class:`senet.settings.Settings`,
    which holds the defaults."""

    request_timeout: float
    idle_timeout: float
    per_address: int  # 0: no cap
    trusted: str  # uvicorn's forwarded_allow_ips: "*", addresses or networks


class AddressCounter:
    """Open connections per client address, with a cap; addresses in ``trusted`` are free."""

    def __init__(self, cap: int, trusted: str = "") -> None:
        self.cap = cap
        parts = [p.strip() for p in trusted.split(",") if p.strip()]
        self.trust_all = "*" in parts
        self.trusted = []
        for part in parts:
            if part != "*":
                try:
                    self.trusted.append(ipaddress.ip_network(part, strict=False))
                except ValueError:
                    pass  # a unix socket path or a host name: nothing to match here
        self.open: dict[str, int] = {}
        self._by_transport: dict[int, str] = {}

    def _exempt(self, address: str) -> bool:
        if self.cap <= 0 or self.trust_all:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def admit(self, transport: Any) -> bool:
        """Count a new connection; False (and not counted) if its address is at the cap."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if not address or self._exempt(address):
            return True
        count = self.open.get(address, 0)
        if count >= self.cap:
            return False
        self.open[address] = count + 1
        self._by_transport[id(transport)] = address
        return True

    def release(self, transport: Any) -> None:
        """The connection is closed (idempotent; nothing if it was never counted)."""
        address = self._by_transport.pop(id(transport), None)
        if address is None:
            return
        left = self.open.get(address, 1) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


def guarded_protocols(limits: ConnectionLimits) -> tuple[type[Any], type[Any]]:
    """uvicorn's ``http`` and ``ws`` protocol classes with the limits above (one counter)."""
    counter = AddressCounter(limits.per_address, limits.trusted)

    class GuardedHttp(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not counter.admit(transport):
                transport.write(_TOO_MANY)
                transport.close()
                return
            self._arm()

        def _arm(self) -> None:
            if self._deadline is None:
                self._deadline = self.loop.call_later(limits.request_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_message_complete(self) -> None:
            self._disarm()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            counter.release(self.transport)
            super().connection_lost(exc)

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            counter.release(self.transport)
            super().connection_lost(exc)

    GuardedHttp.counter = counter  # type: ignore[attr-defined]
    return GuardedHttp, GuardedWebSocket
