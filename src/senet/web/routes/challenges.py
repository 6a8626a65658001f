"""Challenges on the site: the challenge form (from a profile, or from a finished game against
a named player), the challenge's own page (its challenger waits there; the challenged player
answers there or on the home page), the home page's list of challenges, and a WebSocket that
tells those pages at once when a challenge changes.

Pages: ``GET/POST /challenge/NAME`` (the form; ``?from=GAME`` from a finished game),
``GET /challenges/ID``, ``POST /challenges/ID/accept|decline|cancel|play``,
``GET /challenges/box`` (the home page's list, which the page fetches again when told),
``POST /name/challenges`` (whom the player takes challenges from).  The socket
``/ws/challenges`` (a named player: their challenges; ``?id=ID``: one challenge, for its
challenger) sends each ``challenge`` message of the service's broadcast as it comes.

An anonymous challenger is known by the challenge's secret, kept in the cookie
``senet_challenge_<id>`` (HttpOnly) of the device that sent it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, FastAPI, Request, WebSocket
from fastapi.responses import RedirectResponse

from senet.engine import VARIANTS
from senet.service.challenges import (
    Acceptance,
    Challenge,
    ChallengeEvent,
    ChallengeEventKind,
    ChallengeStatus,
    ChallengeTerms,
    challenge_channel,
    challenge_message,
    player_channel,
)
from senet.service.errors import GameError
from senet.service.players import PlayerRow

from ..common import COOKIE_AGE, form_fields, lang_of, render, seat_cookie, to_game
from ..deps import PLAYER_COOKIE, Player, Service, player_of, service_of
from ..i18n import translator

__all__ = ["challenge_cookie", "home_box", "install"]

router = APIRouter(include_in_schema=False)


def challenge_cookie(challenge_id: str) -> str:
    return f"senet_challenge_{challenge_id}"


def _variants(lang: str) -> list[tuple[str, str]]:
    return [(v.name, v.title(lang)) for v in VARIANTS.values()]


# ---------------------------------------------------------------------- the form
async def _form(
    request: Request, name: str, status: int = 200, refused: str | None = None, **typed: Any
) -> Any:
    challenges = service_of(request).challenges
    target = await challenges.players.by_name(name)
    if target is None or target.kind == "computer":
        raise GameError("unknown_player", f"no player is named {name!r}", 404)
    me = player_of(request)
    accept = await challenges.acceptance(target)
    from_game = request.query_params.get("from") or typed.get("from_game")
    closed = None
    if me is not None and me.id == target.id:
        closed = "not_challengeable"
    elif accept == Acceptance.NOBODY:
        closed = "refuses_challenges"
    elif me is None and accept == Acceptance.NAMED:
        closed = "refuses_anonymous"
    elif me is None and not from_game:
        closed = "anonymous_needs_game"
    response = render(
        request,
        "challenge.html",
        status,
        target=target,
        closed=closed,
        refused=refused,
        from_game=from_game,
        variants=_variants(lang_of(request)),
        typed=typed,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/challenge/{name}")
async def challenge_form(request: Request, name: str) -> Any:
    return await _form(request, name)


@router.post("/challenge/{name}")
async def send_challenge(request: Request, service: Service, player: Player, name: str) -> Any:
    form = await form_fields(request)
    me = player
    from_game = form.get("from") or None
    typed = {
        "variant": form.get("variant", "standard"),
        "time_control": form.get("time_control", "untimed"),
        "colour": form.get("colour", "random"),
        "rated": form.get("rated") == "1",
        "from_game": from_game,
    }
    try:
        terms = ChallengeTerms.checked(
            typed["variant"], typed["time_control"], typed["colour"], typed["rated"]
        )
        sent = await service.challenges.create(
            name,
            terms,
            challenger=me,
            from_game=from_game,
            seat_token=request.cookies.get(seat_cookie(from_game)) if from_game else None,
        )
    except GameError as refused:
        if refused.code == "unknown_player":
            raise
        return await _form(request, name, refused.status, refused.code, **typed)
    response = RedirectResponse(f"/challenges/{sent.challenge.id}", status_code=303)
    response.set_cookie(
        challenge_cookie(sent.challenge.id),
        sent.secret,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )
    return response


# ---------------------------------------------------------------------- one challenge
def _secret(request: Request | WebSocket, challenge_id: str) -> str | None:
    return request.cookies.get(challenge_cookie(challenge_id))


async def _role(request: Request, challenge: Challenge) -> str | None:
    """``challenged``, ``challenger`` or None (anyone else sees nothing of it)."""
    me = player_of(request)
    if me is not None and me.id == challenge.challenged_id:
        return "challenged"
    if await service_of(request).challenges.is_challenger(
        challenge.id, me, _secret(request, challenge.id)
    ):
        return "challenger"
    return None


@router.get("/challenges/box")
async def box(request: Request) -> Any:
    """The home page's list of challenges (fetched again by the page when one changes)."""
    response = render(request, "_challenges.html", **await home_box(request))
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/challenges/{challenge_id}")
async def challenge_page(request: Request, service: Service, challenge_id: str) -> Any:
    challenge = await service.challenges.get(challenge_id)
    role = await _role(request, challenge)
    if role is None:
        raise GameError("unknown_challenge", f"there is no challenge {challenge_id!r}", 404)
    response = render(
        request,
        "challenge_page.html",
        c=challenge,
        role=role,
        now=service.challenges.clock.now(),
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/challenges/{challenge_id}/accept")
async def accept(request: Request, service: Service, challenge_id: str) -> Any:
    me = _named(request)
    accepted = await service.challenges.accept(challenge_id, me)
    return to_game(request, accepted.game_id, accepted.token)


@router.post("/challenges/{challenge_id}/decline")
async def decline(request: Request, service: Service, challenge_id: str) -> Any:
    await service.challenges.decline(challenge_id, _named(request))
    return RedirectResponse("/", status_code=303)


@router.post("/challenges/{challenge_id}/cancel")
async def cancel(request: Request, service: Service, player: Player, challenge_id: str) -> Any:
    await service.challenges.cancel(
        challenge_id, player=player, secret=_secret(request, challenge_id)
    )
    return RedirectResponse(f"/challenges/{challenge_id}", status_code=303)


@router.post("/challenges/{challenge_id}/play")
async def play(request: Request, service: Service, player: Player, challenge_id: str) -> Any:
    """The challenger goes to the game their accepted challenge made, seated once."""
    game_id, token = await service.challenges.take_seat(
        challenge_id, player=player, secret=_secret(request, challenge_id)
    )
    return to_game(request, game_id, token)


def _named(request: Request) -> PlayerRow:
    me = player_of(request)
    if me is None:
        raise GameError("not_yours", "only the challenged player answers a challenge", 403)
    return me


# ---------------------------------------------------------------------- the home page
async def home_box(request: Request) -> dict[str, Any]:
    """What the home page's list of challenges shows: those received and those sent by this
    device's player (nothing without a name)."""
    me = player_of(request)
    if me is None:
        return {"incoming": [], "outgoing": [], "now": 0}
    challenges = service_of(request).challenges
    return {
        "incoming": await challenges.incoming(me),
        "outgoing": await challenges.outgoing(me),
        "now": challenges.clock.now(),
    }


@router.post("/name/challenges")
async def set_acceptance(request: Request, service: Service, player: Player) -> Any:
    form = await form_fields(request)
    me = player
    if me is None:
        return RedirectResponse("/name", status_code=303)
    await service.challenges.set_acceptance(me, form.get("accept", ""))
    return RedirectResponse("/name#challenges-h", status_code=303)


# ---------------------------------------------------------------------- live
@router.websocket("/ws/challenges")
async def challenges_socket(ws: WebSocket) -> None:
    """A named player's challenges (or, with ``?id=``, one challenge for its challenger) as
    they change: each a ``challenge`` message (see senet.service.challenges.offers).  One challenge
    already answered when its socket opens is sent at once, as the event that answered it."""
    challenges = service_of(ws).challenges
    origin = ws.headers.get("origin")
    if origin and origin.split("://", 1)[-1] != ws.headers.get("host", ""):
        await ws.close(code=1008, reason="cross-origin connection refused")
        return
    secret = ws.cookies.get(PLAYER_COOKIE)
    me = await challenges.players.session(secret) if secret else None
    challenge_id = ws.query_params.get("id")
    if challenge_id:
        allowed = await challenges.is_challenger(challenge_id, me, _secret(ws, challenge_id))
        channel = challenge_channel(challenge_id) if allowed else None
    else:
        channel = player_channel(me.id) if me is not None else None
    if channel is None:
        await ws.close(code=4403, reason="nothing to follow here")
        return
    # subscribed before the handshake ends: once the client sees the socket open, nothing
    # published to the channel is missed
    async with challenges.broadcast.subscribe(channel) as sub:
        await ws.accept()
        if challenge_id:
            # answered before the socket opened (a bot accepts at once): its answer now, read
            # after subscribing, so it is told either way (a message after it changes nothing)
            now = await challenges.get(challenge_id)
            if now.status != ChallengeStatus.OPEN:
                event = ChallengeEvent(ChallengeEventKind(now.status.value), now)
                await ws.send_json(challenge_message(event))

        async def pump() -> None:
            async for message in sub:
                await ws.send_json(message)

        async def read() -> None:  # nothing to read: only notices that the client has gone
            while (await ws.receive())["type"] != "websocket.disconnect":
                pass

        tasks = [asyncio.create_task(pump()), asyncio.create_task(read())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def status_text(challenge: Challenge, lang: str) -> str:
    return translator(lang)(f"challenge.status.{challenge.status.value}")


def install(app: FastAPI) -> None:
    app.include_router(router)
