"""The passkey ceremonies refuse what the WebAuthn library refuses, and only that: a fault of
the server's own (a programming error in or around the verification) is an error, never a
"passkey refused" that would hide it.  The router runs in a small app of its own, with the
players' store stood in for."""

from __future__ import annotations

import base64
import json
from types import SimpleNamespace
from typing import Any

import pytest
import webauthn
from fastapi import FastAPI
from starlette.testclient import TestClient

from senet.service.players.storage import PasskeyRow
from senet.web.deps import player_of, service_of
from senet.web.routes.passkeys import router

CHALLENGE = b"c" * 32


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Players:
    """What the router asks of :class:`senet.service.players.Players`: the challenge is good
    once, and one passkey is known."""

    def __init__(self) -> None:
        self.spent: list[bytes] = []
        self.db = SimpleNamespace(passkey=self.passkey)

    async def spend_challenge(self, challenge: bytes, kind: str) -> tuple[bool, None]:
        fresh = challenge not in self.spent
        self.spent.append(challenge)
        return fresh, None

    async def passkey(self, credential_id: str) -> PasskeyRow | None:
        return PasskeyRow(credential_id, "p1", b64(b"\x01" * 77), 0)


def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    service = SimpleNamespace(players=Players())
    app.state.service = service
    # the router takes its service through the typed dependency: the stand-in is given there
    app.dependency_overrides[service_of] = lambda: service
    return TestClient(app, base_url="http://senet.test")


def login_answer() -> dict[str, Any]:
    """A login answer for CHALLENGE, well formed, signed by nobody."""
    client_data = {
        "type": "webauthn.get",
        "challenge": b64(CHALLENGE),
        "origin": "http://senet.test",
    }
    return {
        "id": b64(b"key"),
        "rawId": b64(b"key"),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64(json.dumps(client_data).encode()),
            "authenticatorData": b64(b"\x00" * 37),
            "signature": b64(b"\x00" * 70),
        },
    }


def test_an_answer_the_library_refuses_is_a_refused_passkey() -> None:
    answer = client().post("/api/passkeys/login", json=login_answer())
    assert answer.status_code == 400 and answer.json()["code"] == "passkey_refused"


def test_a_programming_error_in_the_verification_is_not_a_refused_passkey(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(**_: Any) -> None:
        raise TypeError("a verifier called wrongly")

    monkeypatch.setattr(webauthn, "verify_authentication_response", broken)
    with pytest.raises(TypeError, match="called wrongly"):
        client().post("/api/passkeys/login", json=login_answer())


def test_a_programming_error_in_registering_is_not_a_refused_passkey(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(**_: Any) -> None:
        raise TypeError("a verifier called wrongly")

    monkeypatch.setattr(webauthn, "verify_registration_response", broken)
    app = client()
    player = SimpleNamespace(id="p1")

    app.app.dependency_overrides[player_of] = lambda: player  # the device is signed in

    answer = login_answer()
    client_data = {
        "type": "webauthn.create",
        "challenge": b64(CHALLENGE),
        "origin": "http://senet.test",
    }
    answer["response"] = {
        "clientDataJSON": b64(json.dumps(client_data).encode()),
        "attestationObject": b64(b"\x00" * 8),
    }
    app.app.state.service.players.spend_challenge = _owned_by(player.id)
    with pytest.raises(TypeError, match="called wrongly"):
        app.post("/api/passkeys/register", json=answer)
    monkeypatch.undo()
    refused = app.post("/api/passkeys/register", json=answer)
    assert refused.status_code == 400 and refused.json()["code"] == "passkey_refused"


def _owned_by(player_id: str) -> Any:
    async def spend(challenge: bytes, kind: str) -> tuple[bool, str]:
        return True, player_id

    return spend
