"""Fuzzing against a real server: the HTTP API from its OpenAPI description (schemathesis) and
the WebSocket protocol (hypothesis).  No input may cause a server error or change a game that
it has no right to change; the server log must stay free of tracebacks.

The number of inputs tried is written to test-artifacts/fuzz-counts.txt.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from .helpers import friend_game, state

pytestmark = pytest.mark.slow  # hundreds of generated requests and messages against a server

COUNTS: dict[str, int] = {"http": 0, "websocket": 0}
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def target(site):
    """A game in progress that no fuzz input has the right to change, and its state (both
    seeds given: any further seed must be refused too)."""
    game = friend_game(site.url, "adelaida")
    return game, state(site.url, game.game_id)


def test_http_api_never_fails_on_any_input(site, target) -> None:
    """Every operation of the OpenAPI description, with schemathesis-generated inputs (valid
    and invalid by the schema)."""
    schema = schemathesis.openapi.from_url(f"{site.url}/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 5

    for operation in operations:

        @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def fuzz(case) -> None:
            COUNTS["http"] += 1
            response = case.call(base_url=site.url, timeout=10)
            assert response.status_code < 500, (
                case.method,
                case.formatted_path,
                response.text[:300],
            )
            content_type = " ".join(
                response.headers.get("content-type") or []
            )  # schemathesis: header lists
            if response.status_code >= 400 and content_type.startswith("application/json"):
                body = response.json()
                assert body.get("type") == "error" and body.get("code") and body.get("message"), (
                    body
                )

        fuzz()


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False)
    | st.text(max_size=40),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_moves = st.one_of(
    st.sampled_from(
        ["pass", "revive", "risk", "return", "1-4", "9x12", "28-off", "30-31", "0-1", "", "12-15 x"]
    ),
    st.from_regex(r"\d{1,3}[-x](\d{1,3}|off)", fullmatch=True),
    _json_values,
)
_messages = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["move", "seed", "state", "sync", "ping", "teleport", "", None])},
        optional={
            "ply": _json_values,
            "move": _moves,
            "since": _json_values,
            "seed": st.text(max_size=70) | _json_values,
            "seat": _json_values,
        },
    ).map(json.dumps),
    st.text(max_size=200),  # not JSON at all, or JSON of the wrong shape
    _json_values.map(json.dumps),
)


def _replies(ws) -> list[dict]:
    """Everything the server sends until it falls quiet; each must be a JSON object."""
    replies = []
    while True:
        try:
            raw = ws.recv(timeout=0.3)
        except TimeoutError:
            return replies
        message = json.loads(raw)
        assert isinstance(message, dict) and "type" in message
        replies.append(message)


@pytest.mark.parametrize("as_seat", [False, True], ids=["spectator", "seat-holder"])
def test_websocket_protocol_never_fails_and_never_changes_the_game(
    site, target, as_seat: bool
) -> None:
    game, before = target
    seat = before["decider"] if before["decider"] is not None else 0
    headers = {"Cookie": f"senet_seat_{game.game_id}={game.tokens[seat]}"} if as_seat else {}
    with connect(f"{site.ws_url}/ws/games/{game.game_id}", additional_headers=headers) as ws:
        _replies(ws)

        @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
        @given(message=_messages)
        def fuzz(message: str) -> None:
            data = None
            try:
                data = json.loads(message)
            except ValueError:
                pass
            if (
                as_seat
                and isinstance(data, dict)
                and data.get("type") == "move"
                and data.get("ply") == before["ply"]
            ):
                data["ply"] = (
                    before["ply"] - 1
                )  # a seat may move; here every move must be stale or illegal
                message = json.dumps(data)
            COUNTS["websocket"] += 1
            ws.send(message)
            for reply in _replies(ws):
                if reply["type"] == "error":
                    assert reply["code"] and reply["message"]

        fuzz()
    after = state(site.url, game.game_id)
    assert (after["ply"], after["fen"]) == (before["ply"], before["fen"])


def test_after_fuzzing_the_server_is_healthy_and_logged_no_traceback(site, target) -> None:
    game, before = target
    assert httpx.get(f"{site.url}/healthz").status_code == 200
    after = state(site.url, game.game_id)
    assert (after["ply"], after["fen"]) == (before["ply"], before["fen"])
    log = site.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "fuzz-counts.txt").write_text(
        f"http inputs: {COUNTS['http']}\nwebsocket inputs: {COUNTS['websocket']}\n"
    )
    assert COUNTS["http"] >= 100 and COUNTS["websocket"] >= 200, COUNTS
