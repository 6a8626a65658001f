"""Passkeys (WebAuthn, through the ``webauthn`` library): a player with a name registers one
on a device, then signs in with it on any device.

Every ceremony starts with a challenge the server makes (32 random bytes, stored, good once
for five minutes: :meth:`senet.service.players.accounts.Players.new_challenge`); the answer's
``clientDataJSON`` names its challenge, which is spent before the answer is verified, so a
replayed answer finds it gone.  The relying party is this site's host name, the expected origin
the page's own (scheme and host, as the browser sent them).  Signing in is discoverable (the
authenticator offers the site's passkeys; no name is typed), and gives the device a new session
as a transfer code does.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..common import error_json
from ..deps import PLAYER_COOKIE, Player, Service
from ..security import parse_json
from .players import client_address, limits_of, passkeys_possible, set_player_cookie

__all__ = ["router"]

router = APIRouter(prefix="/api/passkeys", include_in_schema=False)


def _rp_id(request: Request) -> str:
    return request.url.hostname or "localhost"


def _unavailable() -> JSONResponse:
    return error_json(
        "passkeys_unavailable", "passkeys need the site's host name, not an IP address", 400
    )


def _origin(request: Request) -> str:
    return f"{request.url.scheme}://{request.url.netloc}"


async def _credential(request: Request) -> dict[str, Any] | None:
    try:
        data = parse_json(await request.body())
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    return data


def _challenge_of(credential: dict[str, Any]) -> bytes | None:
    """The challenge a credential's answer signs (read from its clientDataJSON), None if it
    cannot be read."""
    from webauthn.helpers import base64url_to_bytes

    try:
        client = json.loads(base64url_to_bytes(credential["response"]["clientDataJSON"]))
        return base64url_to_bytes(client["challenge"])
    except (KeyError, TypeError, ValueError):
        return None


def _refused(code: str = "passkey_refused") -> JSONResponse:
    return error_json(code, "the passkey was not accepted", 400)


@router.post("/register/options")
async def register_options(request: Request, service: Service, player: Player) -> Any:
    """The options of ``navigator.credentials.create`` for the signed-in player."""
    from webauthn import generate_registration_options, options_to_json
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        PublicKeyCredentialDescriptor,
        ResidentKeyRequirement,
    )

    if player is None:
        return error_json("no_name", "take a name first", 403)
    if not passkeys_possible(request):
        return _unavailable()
    players = service.players
    challenge = await players.new_challenge("register", player)
    existing = await players.db.passkeys_of(player.id)
    options = generate_registration_options(
        rp_id=_rp_id(request),
        rp_name="Senet",
        user_name=player.name,
        user_id=player.id.encode(),
        challenge=challenge,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in existing
        ],
    )
    return JSONResponse(json.loads(options_to_json(options)))


@router.post("/register")
async def register(request: Request, service: Service, player: Player) -> Any:
    """Verify a new passkey's attestation and keep its public key for the player."""
    from webauthn import verify_registration_response
    from webauthn.helpers import bytes_to_base64url
    from webauthn.helpers.exceptions import WebAuthnException

    if player is None:
        return error_json("no_name", "take a name first", 403)
    credential = await _credential(request)
    challenge = _challenge_of(credential) if credential else None
    if credential is None or challenge is None:
        return _refused()
    players = service.players
    valid, owner = await players.spend_challenge(challenge, "register")
    if not valid or owner != player.id:
        return _refused("challenge_spent")
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=_rp_id(request),
            expected_origin=_origin(request),
        )
    except WebAuthnException:  # the library's refusals of an answer, of every kind
        return _refused()
    added = await players.db.add_passkey(
        bytes_to_base64url(verified.credential_id),
        player.id,
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
    )
    if not added:
        return _refused("passkey_known")
    return {"ok": True, "passkeys": len(await players.db.passkeys_of(player.id))}


@router.post("/login/options")
async def login_options(request: Request, service: Service) -> Any:
    """The options of ``navigator.credentials.get``: any of this site's passkeys."""
    from webauthn import generate_authentication_options, options_to_json

    if not passkeys_possible(request):
        return _unavailable()
    if not limits_of(request).tries.allow(client_address(request)):
        return error_json("rate_limited", "too many tries: wait a moment", 429)
    challenge = await service.players.new_challenge("login", None)
    options = generate_authentication_options(rp_id=_rp_id(request), challenge=challenge)
    return JSONResponse(json.loads(options_to_json(options)))


@router.post("/login")
async def login(request: Request, service: Service) -> Any:
    """Verify a passkey's signature of a login challenge and sign this device in."""
    from webauthn import verify_authentication_response
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import WebAuthnException

    credential = await _credential(request)
    challenge = _challenge_of(credential) if credential else None
    if credential is None or challenge is None or not isinstance(credential.get("id"), str):
        return _refused()
    players = service.players
    valid, _ = await players.spend_challenge(challenge, "login")
    if not valid:
        return _refused("challenge_spent")
    stored = await players.db.passkey(credential["id"])
    if stored is None:
        return _refused()
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=_rp_id(request),
            expected_origin=_origin(request),
            credential_public_key=base64url_to_bytes(stored.public_key),
            credential_current_sign_count=stored.sign_count,
        )
    except WebAuthnException:  # a bad signature, origin, challenge or counter
        return _refused()
    await players.db.set_sign_count(stored.credential_id, verified.new_sign_count)
    player = await players.db.by_id(stored.player_id)
    if player is None:
        return _refused()
    old = request.cookies.get(PLAYER_COOKIE)
    if old:
        await players.sign_out(old)
    secret = await players.new_session(player)
    response = JSONResponse({"ok": True, "name": player.name})
    set_player_cookie(response, request, secret)
    return response
