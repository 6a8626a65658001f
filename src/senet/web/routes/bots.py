"""The bot API on the site, in the manner of lichess's, and the profile's part of it.

A program authenticates with a personal API token (``Authorization: Bearer senet_...``), made
and revoked on its player's profile page (:mod:`senet.service.bots.accounts`); a refused token is 401
with a JSON error and ``WWW-Authenticate: Bearer``, and changes nothing.  Each token has
limits (:class:`senet.settings.BotLimits`, per server process): requests a minute, streams
open at once, unfinished games of its player; and its player streams open at once over all
its tokens; beyond them, 429 with ``Retry-After``.

* ``GET /api/account``: who the token is (name, kind, scopes).
* ``POST /api/bot/account/upgrade``: make the token's player a BOT account, for good.
* ``GET /api/bot/stream/event``: NDJSON, the bot's events (``challenge``,
  ``challengeCanceled``, ``challengeDeclined``, ``gameStart``, ``gameFinish``), a newline
  every few seconds to keep the connection alive.
* ``GET /api/bot/game/stream/{id}``: NDJSON, first the game's whole ``state`` message (as
  the WebSocket sends it), then one ``events`` message per change, ``cancelled`` if the game
  is called off; it ends with the game.  While it is open the bot's seat is connected.
* ``POST /api/bot/game/{id}/move/{move}`` (``?ply=N`` optional), ``/resign``, ``/seed``;
  ``POST /api/bot/seek``; ``POST /api/challenge/{id}/accept`` and ``/decline`` (the
  challenges of :mod:`senet.service.challenges.offers`).

Every line of a stream is built by :mod:`senet.service.games.views` (the state and events
messages of the live protocol) or :mod:`senet.service.bots.accounts` (the events); nothing is rendered
twice.  Pages: the profile's *bots and API tokens* part (its own player only): accept games
against bots, become a bot, make and revoke tokens (a new token is shown once).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import parse_qs

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.background import BackgroundTask

from senet.service.bots import (
    SCOPES,
    Authenticated,
    EventFeed,
    GamesQuotaReached,
    player_channel,
)
from senet.service.challenges import ChallengeMessage
from senet.service.errors import GameError
from senet.service.players import PlayerRow
from senet.service.reading import read_game_message
from senet.service.server import GameService
from senet.settings import BotLimits, Settings

from ..deps import Service, player_of, put_state, service_of, state_of, state_or_none
from ..protocol import game_error_message
from ..security import TokenBucket, parse_json
from . import players

__all__ = ["install", "TokenRefused", "KEEPALIVE_SECONDS"]

api = APIRouter(prefix="/api", tags=["bots"])
pages = APIRouter(include_in_schema=False)

#: a stream with nothing to say sends a newline this often (seconds), and a bot's listed seeks
#: stay shown in the lobby while its event stream is open
KEEPALIVE_SECONDS = 6.0
NDJSON = "application/x-ndjson"
#: an event stream nothing woke reads its bot's games again this often (seconds), in case a
#: message was lost
REREAD_SECONDS = 60.0
_Model = TypeVar("_Model", bound=BaseModel)


class TokenRefused(GameError):
    """A refused bot request that carries headers: ``WWW-Authenticate`` (401) or
    ``Retry-After`` (429)."""

    def __init__(
        self, code: str, message: str, status: int, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(code, message, status)
        self.headers = headers or {}


# ---------------------------------------------------------------------- limits
class TokenLimits:
    """Per token, in this process: a request bucket on the server's clock, and the streams
    open now (per token, and per player over all its tokens)."""

    def __init__(self, limits: BotLimits, now: Callable[[], float]) -> None:
        self.limits = limits
        self.now = now  # seconds
        self.buckets: dict[str, TokenBucket] = {}
        self.streams: dict[str, int] = {}  # per token
        self.player_streams: dict[str, int] = {}  # per player, over its tokens

    def request(self, token_id: str) -> None:
        bucket = self.buckets.get(token_id)
        if bucket is None:
            rate = self.limits.requests_per_minute
            bucket = self.buckets[token_id] = TokenBucket(rate / 60, rate, self.now)
            if len(self.buckets) > 10_000:
                self.buckets.pop(next(iter(self.buckets)))
        if not bucket.take():
            wait = max(1, math.ceil((1 - bucket.tokens) / bucket.rate))
            raise TokenRefused(
                "rate_limited",
                f"more than {self.limits.requests_per_minute} requests a minute with this "
                f"token: try again in {wait} s",
                429,
                {"Retry-After": str(wait)},
            )

    def open_stream(self, token_id: str, player_id: str) -> Callable[[], None]:
        """Count one more stream of the token and of its player (429 beyond either limit: a
        player's tokens share the player's); the function that ends it (once, however often
        it is called)."""
        refused = None
        if self.streams.get(token_id, 0) >= self.limits.streams:
            refused = f"at most {self.limits.streams} streams open at once with one token"
        elif self.player_streams.get(player_id, 0) >= self.limits.player_streams:
            refused = (
                f"at most {self.limits.player_streams} streams open at once for one player, "
                "whichever of its tokens open them"
            )
        if refused is not None:
            raise TokenRefused(
                "too_many_streams", refused, 429, {"Retry-After": str(round(KEEPALIVE_SECONDS))}
            )
        for counts, key in ((self.streams, token_id), (self.player_streams, player_id)):
            counts[key] = counts.get(key, 0) + 1
        closed = False

        def close() -> None:
            nonlocal closed
            if not closed:
                closed = True
                for counts, key in ((self.streams, token_id), (self.player_streams, player_id)):
                    left = counts.get(key, 1) - 1
                    if left:
                        counts[key] = left
                    else:
                        counts.pop(key, None)

        return close


def _limits(request: Request) -> TokenLimits:
    return state_of(request, "bot_limits", TokenLimits)


async def authenticated(request: Request, scope: str | None = None) -> Authenticated:
    """The token's player (401 without a valid token, 403 without ``scope``), counted against
    the token's request limit (429)."""
    header = request.headers.get("authorization", "")
    kind, _, token = header.partition(" ")
    if kind.lower() != "bearer" or not token.strip():
        raise TokenRefused(
            "no_token",
            "send a personal API token as the header 'Authorization: Bearer senet_...'",
            401,
            {"WWW-Authenticate": 'Bearer realm="senet"'},
        )
    auth = await service_of(request).bots.authenticate(token.strip())
    if auth is None:
        raise TokenRefused(
            "bad_token",
            "this token is unknown or revoked: make a new one on your profile page",
            401,
            {"WWW-Authenticate": 'Bearer realm="senet", error="invalid_token"'},
        )
    _limits(request).request(auth.token.id)
    if scope is not None and not auth.allows(scope):
        raise GameError("missing_scope", f"this token lacks the scope {scope}", 403)
    return auth


async def bot_of(request: Request, scope: str = "bot:play") -> Authenticated:
    auth = await authenticated(request, scope)
    if not auth.player.bot:
        raise GameError(
            "not_a_bot", "only a BOT account uses the bot API: POST /api/bot/account/upgrade", 403
        )
    return auth


# ---------------------------------------------------------------------- account
@api.get("/account")
async def account(request: Request) -> Any:
    """Who the token is: the player's name, kind (``human`` or ``bot``) and the token's
    scopes."""
    auth = await authenticated(request)
    return {
        "name": auth.player.name,
        "kind": auth.player.kind,
        "bot": auth.player.bot,
        "scopes": list(auth.token.scopes),
    }


@api.post("/bot/account/upgrade")
async def upgrade(request: Request, service: Service) -> Any:
    """Make the token's player a BOT account, for good: only a name that has played no rated
    game (409 ``rated_games``)."""
    auth = await authenticated(request, "bot:play")
    await service.bots.upgrade(auth.player)
    return {"ok": True, "name": auth.player.name, "kind": "bot"}


# ---------------------------------------------------------------------- streams
def _line(message: Any) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def _stream(
    request: Request, auth: Authenticated, lines: Callable[[], AsyncIterator[bytes]]
) -> Any:
    close = _limits(request).open_stream(auth.token.id, auth.player.id)

    async def body() -> AsyncIterator[bytes]:
        try:
            async for line in lines():
                yield line
        finally:
            close()

    return StreamingResponse(
        body(),
        media_type=NDJSON,
        # never compressed (a compressor would hold the lines back), never cached
        headers={"Content-Encoding": "identity", "Cache-Control": "no-store"},
        background=BackgroundTask(close),
    )


@api.get("/bot/stream/event")
async def event_stream(request: Request, service: Service) -> Any:
    """NDJSON: the bot's events, one JSON object a line — ``challenge`` (a challenge made to
    it: accept or decline it), ``challengeCanceled``, ``challengeDeclined`` (with the token's
    ``challenge:read``), ``gameStart`` (a game of its own started: every game going on is
    announced again when the stream opens) and ``gameFinish`` — and an empty line every few
    seconds.  While it is open, the bot's listed seeks stay shown in the lobby."""
    auth = await bot_of(request)
    feed = EventFeed(service.bots, auth.player, challenges=auth.allows("challenge:read"))

    async def lines() -> AsyncIterator[bytes]:
        wake = asyncio.Event()
        told: list[ChallengeMessage] = []  # the challenge channel's messages, in order
        broadcast = service.broadcast
        async with (
            broadcast.subscribe(player_channel(auth.player.id)) as mine,
            service.challenges.subscribe(auth.player.id) as challenges,
            # the lobby's changes: read once per change for every stream of this process,
            # waking this one only when they change its bot's games
            service.bots.games_watch.follow(auth.player.id, wake),
        ):

            async def relay(sub: Any, keep: bool) -> None:
                async for message in sub:
                    if keep and message.get("type") == "challenge":
                        told.append(message)
                    wake.set()

            relays = [
                asyncio.create_task(relay(mine, False)),
                asyncio.create_task(relay(challenges, True)),
            ]
            try:
                loop = asyncio.get_running_loop()
                kept = read = loop.time()
                keep_every = round(KEEPALIVE_SECONDS * 900)  # ms: once a keep-alive, any stream
                await feed.keep_seeks()
                events = await feed.opening()
                while True:
                    for event in events:
                        yield _line(event)
                    woken = True
                    try:
                        await asyncio.wait_for(wake.wait(), KEEPALIVE_SECONDS)
                    except TimeoutError:
                        woken = False
                        if not events:
                            yield b"\n"
                    wake.clear()
                    if loop.time() - kept >= KEEPALIVE_SECONDS:
                        kept = loop.time()
                        await feed.keep_seeks(keep_every)
                    answered = [feed.challenge(message) for message in told]
                    told.clear()
                    events = [e for e in answered if e is not None]
                    if woken or loop.time() - read >= REREAD_SECONDS:
                        read = loop.time()  # now and then: in case a message was lost
                        events += await feed.changes()
            finally:
                for task in relays:
                    task.cancel()
                await asyncio.gather(*relays, return_exceptions=True)

    return _stream(request, auth, lines)


@api.get("/bot/game/stream/{game_id}")
async def game_stream(request: Request, service: Service, game_id: str) -> Any:
    """NDJSON: the game's whole ``state`` message (the live protocol's, for the bot's seat),
    then an ``events`` message for every change (the new throws and moves, the decider, the
    bot's legal moves, the outcome), ``cancelled`` if the game is called off, and an empty
    line every few seconds; it ends after the game does.  The bot's seat counts as connected
    while the stream is open."""
    auth = await bot_of(request)
    _, seats = await service.bots.seats(game_id, auth.player)

    async def lines() -> AsyncIterator[bytes]:
        async with service.subscribe(game_id) as sub:
            read = (await service.queries.facts(game_id)).ply
            await service.connected(game_id, seats, +1)
            try:
                state = await service.queries.state(game_id, seats=seats, min_ply=read)
                yield _line(state)
                sent, over = state["ply"], state["outcome"] is not None
                while not over:
                    try:
                        message = read_game_message(
                            await asyncio.wait_for(sub.get(), KEEPALIVE_SECONDS)
                        )
                    except TimeoutError:
                        yield b"\n"
                        continue
                    if message is None:
                        continue
                    if message["type"] == "cancelled":
                        yield _line(message)
                        return
                    if message["type"] == "update":
                        ply: int | None = message["ply"]
                        refresh = message.get("refresh", False)
                    elif message["type"] == "resync":
                        ply, refresh = None, True
                    else:
                        continue  # presence, chat: not the bot's concern
                    missed = await service.queries.events(
                        game_id, None, sent, seats=seats, min_ply=ply, reread=refresh
                    )
                    if missed["ply"] > sent or refresh:
                        yield _line(missed)
                    sent, over = missed["ply"], missed["outcome"] is not None
            finally:
                await service.connected(game_id, seats, -1)

    return _stream(request, auth, lines)


# ---------------------------------------------------------------------- acting
@api.post("/bot/game/{game_id}/move/{move:path}")  # a banked throw's move: 12-15/3
async def bot_move(
    request: Request, service: Service, game_id: str, move: str, ply: int | None = None
) -> Any:
    """Play ``move`` in the game's notation (``12-15``, ``28-off``, ``pass``, ``12-15/3``
    where every throw of a turn is made first, ...) for the bot's seat; ``ply`` (optional): the ply the bot decided at, refused as ``stale`` if the
    game has moved on.  An illegal move is 400 ``illegal`` with the engine's reason."""
    auth = await bot_of(request)
    live = await service.bots.move(game_id, auth.player, move, ply)
    return {"ok": True, "ply": live.ply}


@api.post("/bot/game/{game_id}/resign")
async def bot_resign(request: Request, service: Service, game_id: str) -> Any:
    auth = await bot_of(request)
    live = await service.bots.resign(game_id, auth.player)
    return {"ok": True, "ply": live.ply}


@api.post("/challenge/{challenge_id}/accept")
async def accept_challenge(request: Request, service: Service, challenge_id: str) -> Any:
    """Accept a challenge made to the token's player (scope ``challenge:write``): the game
    is made with its terms and the player seated in it; a bot gets its ``gameStart`` (its
    games quota counts: 429 ``too_many_games``).  A person's token gets its seat's secret
    (``token``, for the game API); a bot plays its seat through the bot API."""
    auth = await authenticated(request, "challenge:write")
    most = _limits(request).limits.games if auth.player.bot else None
    with games_quota():
        accepted = await service.bots.accept(challenge_id, auth.player, most)
    answer: dict[str, Any] = {
        "ok": True,
        "game": accepted.game_id,
        "seat": "AB"[accepted.seat],
    }
    if not auth.player.bot:
        answer["token"] = accepted.token
    return answer


@api.post("/challenge/{challenge_id}/decline")
async def decline_challenge(request: Request, service: Service, challenge_id: str) -> Any:
    """Decline a challenge made to the token's player (scope ``challenge:write``)."""
    auth = await authenticated(request, "challenge:write")
    await service.bots.decline(challenge_id, auth.player)
    return {"ok": True}


class SeedBody(BaseModel):
    seed: str = Field(description="1-64 printable ASCII characters, no ':'")


@api.post("/bot/game/{game_id}/seed")
async def bot_seed(request: Request, service: Service, game_id: str) -> Any:
    """Body ``{"seed": "..."}``: the bot's own seed, mixed into every throw
    ([fair play](fair-play.md)); once, before the first throw."""
    auth = await bot_of(request)
    body = await _object(request)
    live = await service.bots.seed(game_id, auth.player, body.get("seed"))
    return {"ok": True, "ply": live.ply}


class SeekBody(BaseModel):
    model_config = ConfigDict(strict=True)  # JSON as sent: no "yes" or 1 for a boolean

    variant: str = "standard"
    time_control: str = "untimed"
    rated: bool = True


@api.post("/bot/seek")
async def bot_seek(request: Request, service: Service) -> Any:
    """Body ``{"variant": "standard", "time_control": "untimed", "rated": true}``: take a
    waiting seek that accepts bots (another bot's, or a person's who accepts games against
    bots), or list the bot's own in the lobby, marked BOT, until someone takes it (a
    ``gameStart`` event)."""
    auth = await bot_of(request)
    body = _validated(SeekBody, await _object(request))
    most = _limits(request).limits.games
    with games_quota():
        paired = await service.bots.seek(
            auth.player, body.variant, body.time_control, body.rated, most
        )
    return {"id": paired.game_id, "seat": "AB"[paired.seat], "waiting": paired.waiting}


@contextlib.contextmanager
def games_quota() -> Iterator[None]:
    """A bot's games quota reached (counted with the new game, one request at a time per bot:
    :meth:`senet.service.bots.accounts.Bots.one_game_more`): 429 ``too_many_games``, ``Retry-After``."""
    try:
        yield
    except GamesQuotaReached as exc:
        raise TokenRefused(exc.code, exc.message, 429, {"Retry-After": "60"}) from None


def _validated(model: type[_Model], body: dict[str, Any]) -> _Model:
    """``body`` read as ``model``: GameError ``bad_request`` (400) naming each wrong field,
    as FastAPI's own validation of a declared body answers."""
    try:
        return model.model_validate(body)
    except ValidationError as exc:
        parts = [
            "{}: {}".format(".".join(str(p) for p in e["loc"]) or "body", e["msg"])
            for e in exc.errors()
        ]
        raise GameError("bad_request", "; ".join(parts)) from None


async def _object(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = parse_json(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise GameError("bad_json", f"the body is not valid JSON ({exc})") from None
    if not isinstance(body, dict):
        raise GameError("bad_request", "the body must be a JSON object")
    return body


# ---------------------------------------------------------------------- the profile's part
async def profile_section(request: Request, player: PlayerRow) -> dict[str, Any]:
    """What the profile page shows its own player: the tokens, the scopes, whether the name
    may still become a bot."""
    bots = service_of(request).bots
    return {
        "api_tokens": await bots.tokens(player),
        "api_scopes": list(SCOPES),
        "may_become_bot": player.kind == "human" and not await bots.db.rated_games(player.id),
    }


def _own(request: Request) -> PlayerRow:
    player = player_of(request)
    if player is None:
        raise GameError("no_name", "take a name first", 403)
    return player


async def _form(request: Request) -> dict[str, list[str]]:
    body = (await request.body())[:10_000].decode("utf-8", "replace")
    return parse_qs(body)


@pages.post("/account/accept-bots")
async def accept_bots(request: Request, service: Service) -> Any:
    player = _own(request)
    form = await _form(request)
    await service.bots.accept_bots(player, form.get("accept", [""])[0] == "1")
    return RedirectResponse(f"/@/{player.name}#bots", status_code=303)


@pages.post("/account/bot")
async def become_bot(request: Request, service: Service) -> Any:
    player = _own(request)
    form = await _form(request)
    if form.get("confirm", [""])[0].strip().casefold() != player.name.casefold():
        raise GameError("bot_confirm", "type the name to confirm", 400)
    await service.bots.upgrade(player)
    return RedirectResponse(f"/@/{player.name}#bots", status_code=303)


@pages.post("/account/tokens")
async def new_token(request: Request, service: Service) -> Any:
    player = _own(request)
    form = await _form(request)
    token, row = await service.bots.new_token(
        player, form.get("label", [""])[0], form.get("scope", [])
    )
    response = await players.profile_response(request, player, new_token=token, new_row=row)
    response.headers["Cache-Control"] = "no-store"
    return response


@pages.post("/account/tokens/{token_id}/revoke")
async def revoke_token(request: Request, service: Service, token_id: str) -> Any:
    player = _own(request)
    await service.bots.revoke(player, token_id)
    return RedirectResponse(f"/@/{player.name}#bots", status_code=303)


def install(app: FastAPI) -> None:
    """The routes, the per-token limits, the refusals with their headers, and the profile's
    part."""
    settings = state_of(app, "settings", Settings)

    def seconds() -> float:
        service = state_or_none(app, "service", GameService)
        return service.clock.now() / 1000 if service is not None else 0.0

    put_state(app, "bot_limits", TokenLimits(settings.bot_limits, seconds))
    app.include_router(api)
    app.include_router(pages)
    sections: list[Callable[[Request, PlayerRow], Awaitable[dict[str, Any]]]] = (
        state_or_none(app, "profile_sections", list) or []
    )
    sections.append(profile_section)
    put_state(app, "profile_sections", sections)

    @app.exception_handler(TokenRefused)
    async def _refused(request: Request, exc: TokenRefused) -> Any:
        return JSONResponse(game_error_message(exc), exc.status, headers=exc.headers)
