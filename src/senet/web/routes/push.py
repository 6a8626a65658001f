"""Web Push on the site: the service worker, the server's public key, a device's subscription
turned on and off, and the words of each notification.

* ``GET /sw.js``: the service worker (``static/sw.js``), served from the site's root so that
  its scope is the whole site; it shows a notice pushed to the device and opens its page when
  the notification is clicked.
* ``GET /api/push/key``: the server's VAPID public key (the ``applicationServerKey`` a page
  subscribes with).
* ``POST /api/push/subscriptions``: this device's subscription (``endpoint``, ``keys``) for
  the named player of the device, in the page's language; ``DELETE`` with the ``endpoint``:
  the device turned notifications off, the server forgets the subscription (only the
  named player's own).

The page offers notifications after the player's first move in a turn-based game, never on
loading (``static/push.js``); the name page turns them on and off for this device.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from senet.service.push import MAX_ENDPOINT, Notice, NoticeKind, PushText

from ..deps import PLAYER_COOKIE, Lang, Player, Service
from ..i18n import translator
from .players import level_name, variant_title

__all__ = ["install", "notice_text", "router"]

router = APIRouter()
WORKER = Path(__file__).parent.parent / "static" / "sw.js"


def notice_text(notice: Notice, lang: str) -> PushText:
    """A notice in ``lang``'s words: the site's name over one sentence ("Your move in
    Kendall-style Senet against Anna")."""
    t = translator(lang)
    variant = variant_title(notice.variant, lang)
    if notice.other is None:
        other = t("push.anonymous")
    elif notice.other_kind == "computer":
        other = t("push.computer", level=level_name(notice.other, lang))
    else:
        other = notice.other
    if notice.kind == NoticeKind.CHALLENGE:
        body = t("push.challenge", name=other, variant=variant)
    else:
        body = t("push.your_move", variant=variant, name=other)
    return PushText(t("site.name"), body)


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Any:
    # Revalidated on every check: a new version of the worker reaches every device at once.
    return FileResponse(
        WORKER,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


class PublicKey(BaseModel):
    key: str = Field(description="the server's VAPID public key: base64url, uncompressed P-256")


@router.get("/api/push/key", response_model=PublicKey)
async def public_key(request: Request, service: Service) -> Any:
    """The server's VAPID public key, the ``applicationServerKey`` to subscribe with."""
    return {"key": service.push.public_key}


class SubscriptionKeys(BaseModel):
    p256dh: str = Field(max_length=100, description="the device's P-256 public key (base64url)")
    auth: str = Field(max_length=40, description="the device's 16-byte secret (base64url)")


class SubscriptionIn(BaseModel):
    """A PushSubscription as the browser writes it (``subscription.toJSON()``)."""

    endpoint: str = Field(max_length=MAX_ENDPOINT)
    keys: SubscriptionKeys


class EndpointIn(BaseModel):
    endpoint: str = Field(max_length=MAX_ENDPOINT)


class Done(BaseModel):
    ok: bool


@router.post("/api/push/subscriptions", response_model=Done, status_code=201)
async def subscribe(
    request: Request, service: Service, lang: Lang, player: Player, body: SubscriptionIn
) -> Any:
    """Turn notifications on for this device of the named player (``no_name`` without a
    name; ``push_service`` for an endpoint of a push service not allowed)."""
    await service.push.subscribe(
        player,
        request.cookies.get(PLAYER_COOKIE),
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        lang,
    )
    return {"ok": True}


@router.delete("/api/push/subscriptions", response_model=Done)
async def unsubscribe(request: Request, service: Service, player: Player, body: EndpointIn) -> Any:
    """Turn notifications off for this device: the server forgets its subscription if it is
    this device's player's (``ok``: whether it had one)."""
    return {"ok": await service.push.unsubscribe(player, body.endpoint)}


def install(app: FastAPI) -> None:
    app.include_router(router)
