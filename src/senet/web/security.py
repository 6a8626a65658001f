"""Hardening for every request: security headers, body size limits, rate limits, origin checks.

Plain ASGI middleware, so it wraps HTTP and WebSocket traffic alike without depending on the
framework's request objects.  The policies:

* **Headers** on every HTTP response: a Content-Security-Policy with no inline scripts and
  ``frame-ancestors 'none'``, ``Referrer-Policy: no-referrer`` (seat links carry secrets and
  must never leak to another site), ``X-Content-Type-Options: nosniff``, ``X-Frame-Options``;
  over https also ``Strict-Transport-Security``.
* **Body size**: an HTTP body over ``max_body`` bytes is refused with 413 before the
  application reads it (by Content-Length, and by counting a streamed body).
* **Rate**: a token bucket per client address for HTTP requests and WebSocket connections;
  over the limit, 429 (HTTP) or a refused handshake (WebSocket).  Per-connection message
  limits use :class:`TokenBucket` directly in the WebSocket handler.
* **Origin**: a WebSocket handshake whose ``Origin`` is not this site's is refused (a page on
  another site cannot drive a player's seat with the player's cookie).
* **Request forgery**: a request that may change something (any method but GET, HEAD and
  OPTIONS) is refused with 403 if a browser says it comes from another origin — its ``Origin``
  is not this site, or (without an Origin) its ``Sec-Fetch-Site`` is neither ``same-origin``
  nor ``none`` (``Origin: null``, which browsers send with this site's own forms under
  ``Referrer-Policy: no-referrer``, counts only with ``Sec-Fetch-Site: same-origin``).
  SameSite=Lax cookies do not stop a page on another port or a sibling
  subdomain (the same *site*); this does.  The API's state-changing endpoints also take only
  ``application/json`` bodies (415 otherwise), which no HTML form and no ``no-cors`` fetch can
  send.  A request with neither header is not a browser's (a script, a bot), so it carries
  only the secrets it was given, and a request that sends its seat secret as ``X-Seat-Token``
  or a personal API token as ``Authorization: Bearer`` proves it read the secret itself:
  both are let through.
* **Secrets in URLs**: a seat's private link, an invitation link and a ``token`` query
  parameter are accepted only as the site writes them (:func:`noncanonical_secret`): a
  percent-encoded spelling (``/g/ID/%73eat/TOKEN``, ``?%74oken=``) is refused (404, 400, or a
  refused handshake), so that no secret reaches the site in a form a log filter might miss.
* **Logs**: :class:`RedactSecrets` on uvicorn's loggers replaces the secrets that URLs may
  carry (a seat's private link, an invitation, a WebSocket's ``?token=``) before any line is
  written; it looks at the text after percent-decoding it, so an encoded spelling is caught
  too.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import unquote, unquote_plus, urlsplit

from senet.settings import RateLimits

from .protocol import error_message

__all__ = [
    "CSP",
    "SecurityMiddleware",
    "TokenBucket",
    "AddressLimiter",
    "origin_allowed",
    "RedactSecrets",
    "parse_json",
    "forgery_refusal",
    "redact_server_logs",
    "noncanonical_secret",
    "MAX_BODY_BYTES",
    "MAX_WS_MESSAGE_BYTES",
]

log = logging.getLogger("senet.web")

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 16 * 1024
MAX_WS_MESSAGE_BYTES = 4 * 1024

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
#: browsers that have seen the site over https never use plain http for it again (a year)
_HSTS = [(b"strict-transport-security", b"max-age=31536000")]


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; :meth:`take` says whether one was available."""

    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.stamp = clock()

    def take(self, cost: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


class AddressLimiter:
    """One token bucket per client address, remembering at most ``capacity`` addresses."""

    def __init__(
        self,
        rate: float,
        burst: float,
        capacity: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate, self.burst, self.capacity, self.clock = rate, burst, capacity, clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, address: str) -> bool:
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self.clock)
            if len(self._buckets) > self.capacity:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket.take()

    def give_back(self, address: str) -> None:
        """Return the token :meth:`allow` took for something that was not done after all
        (a name refused once checked: only names made count)."""
        bucket = self._buckets.get(address)
        if bucket is not None:
            bucket.tokens = min(bucket.burst, bucket.tokens + 1.0)


def origin_allowed(origin: str | None, host: str | None, extra: tuple[str, ...] = ()) -> bool:
    """Is a WebSocket ``Origin`` this site (same host and port as the ``Host`` header)?

    A missing Origin is allowed: browsers always send one on WebSockets, so only non-browser
    clients (tests, bots) omit it, and they cannot carry a victim's cookie.
    """
    if origin is None:
        return True
    if origin in extra:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return host is not None and parts.netloc.lower() == host.lower()


#: a seat's private link, an invitation link, a transfer link (a name's sign-in on another
#: device), a ``token`` query parameter: the secret part
_SECRET_IN_URL = re.compile(r"(/seat/|/join/|/transfer/|[?&]token=)[^/?&#\s\"']+", re.IGNORECASE)
REDACTED = "[redacted]"


def _decoded(text: str) -> str:
    """``text`` percent-decoded until nothing changes (a few rounds at most)."""
    for _ in range(4):
        plain = unquote(text)
        if plain == text:
            break
        text = plain
    return text


def redact(text: str) -> str:
    """``text`` with every secret a URL of this site may carry replaced by ``[redacted]``.

    The secret is looked for in the percent-decoded text (``/g/ID/%73eat/TOKEN`` is a seat
    link too): when the decoded text holds one, the decoded text is returned, redacted."""
    plain = _decoded(text)
    if plain != text and _SECRET_IN_URL.search(plain):
        text = plain
    return _SECRET_IN_URL.sub(lambda m: m.group(1) + REDACTED, text)


#: the paths that carry a secret: a seat's private link and an invitation link
_SECRET_PATH = re.compile(r"/g/[^/]+/(seat|join)/", re.IGNORECASE)


def noncanonical_secret(scope: Scope) -> tuple[int, str, str] | None:
    """``(status, code, message)`` if the request carries a secret spelled other than the
    site writes it — a seat or invitation link with a percent-escape in its path, or a
    ``token`` query parameter whose name or value is percent-encoded — None if not.  The
    secrets are URL-safe as written (letters, digits, ``-`` and ``_``): an escape in one is
    never needed, only a way around a filter."""
    raw_path = scope.get("raw_path")
    if (
        isinstance(raw_path, bytes)
        and b"%" in raw_path
        and _SECRET_PATH.search(_decoded(raw_path.decode("latin-1")))
    ):
        return 404, "not_found", "a seat or invitation link is written without escapes"
    query = scope.get("query_string", b"")
    if isinstance(query, bytes) and query:
        for pair in query.decode("latin-1").split("&"):
            name, _, value = pair.partition("=")
            if _decoded(unquote_plus(name)).lower() != "token":
                continue
            if name != "token" or value != unquote_plus(value):
                return 400, "bad_request", "the token parameter is written as ?token=SECRET"
    return None


class RedactSecrets(logging.Filter):
    """Rewrites a log record's message and arguments so that no URL secret reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


#: the loggers that write request lines: uvicorn's access log, and its error log, where it
#: writes every WebSocket handshake (``"WebSocket /ws/games/...?token=..." [accepted]``)
SERVER_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def redact_server_logs() -> None:
    """Put :class:`RedactSecrets` on the server's loggers (once; idempotent)."""
    for name in SERVER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def forgery_refusal(
    scope: Scope, allowed_origins: tuple[str, ...] = ()
) -> tuple[int, str, str] | None:
    """``(status, code, message)`` if a state-changing request must be refused (see the module
    docstring, *Request forgery*), None if it may go on."""
    if scope.get("method") in SAFE_METHODS:
        return None
    if (_header(scope, b"authorization") or "").lower().startswith("bearer "):
        # a personal API token (the bot API): no browser adds it to a request another site
        # makes, and the request proves it holds the token; bot requests may have no body
        return None
    if str(scope.get("path", "")).startswith("/api/"):
        media = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if media != "application/json":
            return 415, "unsupported_media_type", "send the body as application/json"
    if _header(scope, b"x-seat-token") is not None:
        return None  # set by a script that holds the secret: a browser sends it only same-origin
    origin = _header(scope, b"origin")
    if origin == "null":
        # Under ``Referrer-Policy: no-referrer`` browsers send ``Origin: null`` with a form
        # posted from this very site: Sec-Fetch-Site decides (a sandboxed frame elsewhere
        # also says null, and its Sec-Fetch-Site is cross-site).  Only browsers say null, so
        # one that does not say where the request comes from is refused.
        if _header(scope, b"sec-fetch-site") == "same-origin":
            return None
        return 403, "cross_origin", "a request from another origin is refused"
    if origin is not None:
        if origin_allowed(origin, _header(scope, b"host"), allowed_origins):
            return None
        return 403, "cross_origin", "a request from another origin is refused"
    if (_header(scope, b"sec-fetch-site") or "none") not in ("same-origin", "none"):
        return 403, "cross_origin", "a request from another origin is refused"
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class SecurityMiddleware:
    """Wraps the whole application; see the module docstring for the policies."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        max_body: int = MAX_BODY_BYTES,
        limits: RateLimits = RateLimits(),  # noqa: B008 - frozen: one shared default is safe
        allowed_origins: tuple[str, ...] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.http_limiter = AddressLimiter(limits.http_rate, limits.http_burst, clock=clock)
        self.ws_limiter = AddressLimiter(limits.ws_rate, limits.ws_burst, clock=clock)
        self.allowed_origins = allowed_origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http_guarded(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http_guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """:meth:`_http`, and if the application fails, a 500 that still carries the security
        headers (the server's own error page would not), logged once."""
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self._http(scope, receive, tracking)
        except Exception as exc:
            where = f"{scope.get('method')} {redact(str(scope.get('path', '')))}"
            if isinstance(exc, RecursionError):  # its traceback is a thousand frames long
                log.error("%s failed: input nested too deeply", where)
            else:
                log.exception("%s failed", where)
            if started:
                raise
            await _plain(_with_headers(send, scope), 500, "Internal error: please try again later.")

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        send_with_headers = _with_headers(send, scope)

        if not self.http_limiter.allow(_client(scope)):
            await _plain(
                send_with_headers, 429, "Too many requests: slow down and try again in a moment."
            )
            return
        refusal = noncanonical_secret(scope) or forgery_refusal(scope, self.allowed_origins)
        if refusal is not None:
            status, code, text = refusal
            if str(scope.get("path", "")).startswith("/api/"):
                await _json_error(send_with_headers, status, code, text)
            else:
                await _plain(send_with_headers, status, text[0].upper() + text[1:] + ".")
            return
        length = _header(scope, b"content-length")
        if length is not None and (
            not (length.isascii() and length.isdigit()) or int(length) > self.max_body
        ):
            await _plain(
                send_with_headers, 413, f"Request body too large (at most {self.max_body} bytes)."
            )
            return
        if length is None and scope.get("method") not in ("GET", "HEAD", "OPTIONS"):
            # A streamed body: read it here, at most max_body bytes, then hand it on whole.
            chunks: list[bytes] = []
            size = 0
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_body:
                    await _plain(
                        send_with_headers,
                        413,
                        f"Request body too large (at most {self.max_body} bytes).",
                    )
                    return
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
            body = b"".join(chunks)
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        allowed = noncanonical_secret(scope) is None and origin_allowed(
            _header(scope, b"origin"), _header(scope, b"host"), self.allowed_origins
        )
        if not allowed or not self.ws_limiter.allow(_client(scope)):
            message = await receive()  # the websocket.connect event
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close", "code": 1008 if not allowed else 1013})
            return
        await self.app(scope, receive, send)


def _with_headers(send: Send, scope: Scope) -> Send:
    """``send``, adding the security headers to the start of a response (those it lacks), and
    over https (as the server sees it: behind a trusted proxy, its X-Forwarded-Proto) HSTS."""
    headers = _HEADERS + (_HSTS if scope.get("scheme") == "https" else [])

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            names = {key.lower() for key, _ in message.get("headers", ())}
            extra = [(k, v) for k, v in headers if k not in names]
            message = {**message, "headers": list(message.get("headers", ())) + extra}
        await send(message)

    return send_with_headers


def parse_json(data: str | bytes) -> Any:
    """``json.loads``, except that input nested too deeply for the parser is a ValueError like
    any other invalid JSON (it was a RecursionError)."""
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


async def _json_error(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps(error_message(code, message)).encode()
    await _respond(send, status, b"application/json", body)


async def _plain(send: Send, status: int, text: str) -> None:
    await _respond(send, status, b"text/plain; charset=utf-8", text.encode())


async def _respond(send: Send, status: int, content_type: bytes, body: bytes) -> None:
    """A whole response, sent by the middleware itself (the site never sees the request)."""
    headers = [(b"content-type", content_type), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
