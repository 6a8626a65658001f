"""Request forgery from the same site: state-changing requests must be same-origin, and the API's
must be JSON.  The policy of :func:`senet.web.security.forgery_refusal`, on a small real app."""

from __future__ import annotations

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from senet.web.common import error_json
from senet.web.protocol import ErrorMessage, error_message
from senet.web.security import CSP, SecurityMiddleware


async def changed(request: Request) -> JSONResponse:
    return JSONResponse({"changed": True})


def client() -> TestClient:
    inner = Starlette(
        routes=[
            Route("/api/games/x/moves", changed, methods=["POST"]),
            Route("/g/x/rematch", changed, methods=["POST"]),
            Route("/api/games/x", changed, methods=["GET"]),
        ]
    )
    return TestClient(SecurityMiddleware(inner), base_url="http://senet.test")


JSON = {"Content-Type": "application/json"}


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://senet.test:8001"},  # another port of the same host: the same site
        {"Origin": "http://evil.senet.test"},  # a sibling subdomain
        {"Origin": "null"},  # a sandboxed frame, a data: page (of a browser that says no more)
        {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_state_change_from_another_origin_is_refused(headers: dict[str, str]) -> None:
    api = client().post("/api/games/x/moves", content="{}", headers={**JSON, **headers})
    assert api.status_code == 403
    assert api.json()["code"] == "cross_origin"
    assert set(api.json()) == set(ErrorMessage.__required_keys__)  # the one error shape
    assert api.headers["content-security-policy"] == CSP
    form = client().post("/g/x/rematch", data={"a": "b"}, headers=headers)
    assert form.status_code == 403 and "changed" not in form.text


@pytest.mark.parametrize(
    "content_type",
    [
        "text/plain",  # <form enctype=text/plain> with a JSON-looking field name
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        None,  # fetch(..., {mode: "no-cors", body: ...}) without a type
    ],
)
def test_the_api_takes_only_json_bodies(content_type: str | None) -> None:
    headers = {"Origin": "http://senet.test"}  # even same-origin
    if content_type:
        headers["Content-Type"] = content_type
    answer = client().post(
        "/api/games/x/moves", content='{"ply": 1, "move": "pass"}', headers=headers
    )
    assert answer.status_code == 415
    assert answer.json()["code"] == "unsupported_media_type"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "http://senet.test"},
        {"Sec-Fetch-Site": "same-origin"},
        # a form of this site under Referrer-Policy: no-referrer, as Chromium posts it
        {"Origin": "null", "Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},  # typed into the address bar, a bookmark
        {},  # not a browser: a script or a bot
        {"X-Seat-Token": "s", "Origin": "http://elsewhere.test"},  # an API client's own header
    ],
)
def test_same_origin_and_api_clients_go_through(headers: dict[str, str]) -> None:
    answer = client().post("/api/games/x/moves", content="{}", headers={**JSON, **headers})
    assert answer.status_code == 200 and answer.json() == {"changed": True}
    if "X-Seat-Token" not in headers:
        form = client().post("/g/x/rematch", data={"a": "b"}, headers=headers)
        assert form.status_code == 200


def test_reading_is_not_restricted() -> None:
    answer = client().get("/api/games/x", headers={"Origin": "http://elsewhere.test"})
    assert answer.status_code == 200


def test_an_http_error_body_is_the_protocols_error_message() -> None:
    """The API's refusals (the app's and the middleware's) and the WebSocket's error message
    have one shape, built by one constructor."""
    response = error_json("stale", "the game has moved on", 409)
    assert response.status_code == 409
    assert response.body == JSONResponse(error_message("stale", "the game has moved on")).body
    assert error_message("stale", "x") == {"type": "error", "code": "stale", "message": "x"}
