"""The security middleware on a small real ASGI app: headers, body limits, rate limits, origins."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket, WebSocketDisconnect

from senet.settings import RateLimits
from senet.web.security import CSP, AddressLimiter, SecurityMiddleware, TokenBucket, origin_allowed


async def echo(request: Request) -> JSONResponse:
    body = await request.body()
    return JSONResponse({"length": len(body)})


async def page(request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


async def ws_echo(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.send_text(await websocket.receive_text())
    await websocket.close()


def make_app(**options) -> SecurityMiddleware:
    inner = Starlette(
        routes=[
            Route("/", page),
            Route("/echo", echo, methods=["POST"]),
            WebSocketRoute("/ws", ws_echo),
        ]
    )
    return SecurityMiddleware(inner, **options)


def test_every_response_carries_the_security_headers() -> None:
    client = TestClient(make_app())
    response = client.get("/")
    assert response.headers["content-security-policy"] == CSP
    assert (
        "script-src 'self'" in CSP
        and "unsafe-inline" not in CSP
        and "frame-ancestors 'none'" in CSP
    )
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert client.get("/missing").headers["content-security-policy"] == CSP  # errors too


def test_oversize_body_is_refused_by_length_and_by_stream() -> None:
    client = TestClient(make_app(max_body=100))
    assert client.post("/echo", content=b"x" * 100).json() == {"length": 100}
    refused = client.post("/echo", content=b"x" * 101)
    assert refused.status_code == 413 and "at most 100 bytes" in refused.text

    def chunks():
        for _ in range(5):
            yield b"y" * 50

    streamed = client.post("/echo", content=chunks())  # no Content-Length: counted as it arrives
    assert streamed.status_code == 413


def test_http_rate_limit_per_address() -> None:
    client = TestClient(make_app(limits=RateLimits(http_rate=0.001, http_burst=3)))
    codes = [client.get("/").status_code for _ in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_http_rate_limit_refills_with_the_clock() -> None:
    now = [100.0]
    client = TestClient(
        make_app(limits=RateLimits(http_rate=1.0, http_burst=2), clock=lambda: now[0])
    )
    assert [client.get("/").status_code for _ in range(3)] == [200, 200, 429]
    now[0] += 0.5  # half a token: still refused
    assert client.get("/").status_code == 429
    now[0] += 0.5  # one token back, spent at once
    assert [client.get("/").status_code for _ in range(2)] == [200, 429]
    now[0] += 60  # a long pause refills up to the burst, not beyond
    assert [client.get("/").status_code for _ in range(3)] == [200, 200, 429]


def test_websocket_from_another_site_is_refused() -> None:
    client = TestClient(make_app())
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect("/ws", headers={"origin": "https://evil.example"}):
            pass
    assert refused.value.code == 1008
    with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
        ws.send_text("hello")
        assert ws.receive_text() == "hello"


def test_websocket_connection_rate_limit() -> None:
    client = TestClient(make_app(limits=RateLimits(ws_rate=0.001, ws_burst=2)))
    for _ in range(2):
        with client.websocket_connect("/ws") as ws:
            ws.send_text("a")
            assert ws.receive_text() == "a"
    with pytest.raises(WebSocketDisconnect) as refused:
        with client.websocket_connect("/ws"):
            pass
    assert refused.value.code == 1013


def test_token_bucket_refills_with_time() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=2.0, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    now[0] = 0.5  # one token back
    assert bucket.take() and not bucket.take()


def test_address_limiter_keeps_addresses_apart_and_bounded() -> None:
    limiter = AddressLimiter(rate=0.0, burst=1.0, capacity=2)
    assert limiter.allow("a") and not limiter.allow("a")
    assert limiter.allow("b")
    assert limiter.allow("c")  # evicts "a", the least recently seen
    assert limiter.allow("a")


@pytest.mark.parametrize(
    ("origin", "host", "allowed"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", False),
        ("null", "127.0.0.1:8000", False),
        ("https://evil.example", "senet.example", False),
        (None, "senet.example", True),
    ],
)
def test_origin_check(origin: str | None, host: str, allowed: bool) -> None:
    assert origin_allowed(origin, host) is allowed


def test_an_application_failure_is_a_500_with_the_headers_and_one_log_line(caplog) -> None:
    async def nested(request: Request) -> JSONResponse:
        def deeper(n: int) -> int:
            return deeper(n + 1) + 1

        return JSONResponse(deeper(0))

    app = SecurityMiddleware(Starlette(routes=[Route("/deep", nested)]))
    with caplog.at_level("INFO", logger="senet.web"):
        answer = TestClient(app, raise_server_exceptions=False).get("/deep")
    assert answer.status_code == 500
    assert answer.headers["content-security-policy"] == CSP
    records = [r for r in caplog.records if r.name == "senet.web"]
    assert len(records) == 1 and "nested too deeply" in records[0].getMessage()
    assert records[0].exc_info is None  # no thousand-frame traceback


def test_hsts_only_over_https() -> None:
    over_https = TestClient(make_app(), base_url="https://senet.test").get("/")
    assert over_https.headers["strict-transport-security"].startswith("max-age=")
    plain = TestClient(make_app(), base_url="http://senet.test").get("/")
    assert "strict-transport-security" not in plain.headers
