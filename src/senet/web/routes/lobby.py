"""Finding an opponent and finishing a game, on the site and in the API.

Pages: the open games and "play someone now" on the home and variant pages (the
``_lobby.html`` include), ``/games/mine`` (the games this browser holds a seat in, found from
its seat cookies) and ``/games/live`` (games anyone may watch).  Actions: ``POST /play-now``,
``POST /g/{id}/take``, and the same as JSON under ``/api``, with ``resign``, ``cancel`` and
``claim``.
The open games are also pushed live over ``/ws/lobby``: the listing, again after every change
(:class:`LobbyFeed`: one read per change and variant for the whole process).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from senet.engine import VARIANTS
from senet.service.errors import GameError
from senet.service.games import (
    LOBBY_CHANNEL,
    PRESETS,
    TURN_BASED,
    ManualClock,
    parse_time_control,
    requested_time_control,
)
from senet.service.lobby import MyGame, OpenGame
from senet.service.messages import Holder
from senet.service.server import GameService

from ..common import form_fields, lister_of, render, seat_cookie, set_seat_cookie, to_game
from ..deps import (
    Lang,
    Player,
    Service,
    holder,
    player_of,
    put_state,
    service_of,
    settings_of,
    state_or_none,
)
from ..i18n import decimal, translator
from ..security import TokenBucket
from . import players

pages = APIRouter()
api = APIRouter(prefix="/api", tags=["lobby"])
live = APIRouter()

SEAT_COOKIE_PREFIX = seat_cookie("")


def time_control_label(text: str, lang: str) -> str:
    """``clock:300+5`` -> "5 min + 5 s" in the page's language."""
    t = translator(lang)
    try:
        control = parse_time_control(text)
    except ValueError:
        return text
    if control.days is not None:
        return t("tc.days", n=control.days)
    if control.kind == "move":
        if control.seconds % 60 == 0:
            return t("tc.move_min", m=control.seconds // 60)
        return t("tc.move", s=control.seconds)
    if control.kind == "clock":
        whole = control.seconds % 60 == 0
        minutes = decimal(control.seconds / 60, 0 if whole else 1, lang)
        return t("tc.clock", m=minutes, i=control.increment)
    return t("tc.untimed")


def time_control_options(lang: str) -> list[tuple[str, str]]:
    return [(c.text(), time_control_label(c.text(), lang)) for c in PRESETS + TURN_BASED]


def time_control_groups(lang: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The choices in two groups, live and turn-based (days per move)."""
    t = translator(lang)
    label = time_control_label
    return [
        (t("tc.live"), [(c.text(), label(c.text(), lang)) for c in PRESETS]),
        (t("tc.turn_based"), [(c.text(), label(c.text(), lang)) for c in TURN_BASED]),
    ]


def variant_title(name: str, lang: str) -> str:
    variant = VARIANTS.get(name)
    return variant.title(lang) if variant else name


def variant_titles(lang: str) -> dict[str, str]:
    return {name: v.title(lang) for name, v in VARIANTS.items()}


def install(app: FastAPI) -> None:
    """Mount the routes (the time controls' and variants' words are given to the templates by
    :mod:`senet.web.template_globals`)."""
    app.include_router(pages)
    app.include_router(api)
    app.include_router(live)


class ClockAdvance(BaseModel):
    advance_ms: int = Field(ge=0, le=30 * 86_400_000)


def install_test_clock(app: FastAPI, clock: ManualClock) -> None:
    """``POST /api/testing/clock`` moves a manual clock on (servers started by tests only)."""

    @app.post("/api/testing/clock", include_in_schema=False)
    async def advance(body: ClockAdvance) -> dict[str, int]:
        return {"now": await clock.advance(body.advance_ms)}


def held_tokens(request: Request) -> dict[str, str]:
    """Every game id -> seat secret that this browser's cookies hold."""
    return {
        name[len(SEAT_COOKIE_PREFIX) :]: value
        for name, value in request.cookies.items()
        if name.startswith(SEAT_COOKIE_PREFIX) and value
    }


def _open_json(game: OpenGame) -> dict[str, Any]:
    data = asdict(game)
    data["since"] = game.since.isoformat()
    return data


# ---------------------------------------------------------------------- pages
@pages.post("/play-now")
async def play_now(request: Request, service: Service) -> Any:
    form = await form_fields(request)
    rated = await players.pair_rated(request, form, list(held_tokens(request)))
    if rated is not None:
        return to_game(request, rated.game_id, rated.token)
    paired = await service.lobby.pair(
        form.get("variant", "standard"),
        requested_time_control(form.get("time_control")),
        list(held_tokens(request)),
        lister_of(request),
    )
    return to_game(request, paired.game_id, paired.token)


@pages.post("/g/{game_id}/take")
async def take(request: Request, service: Service, game_id: str) -> Any:
    if await service.queries.seats(game_id, request.cookies.get(seat_cookie(game_id))):
        return RedirectResponse(f"/g/{game_id}", status_code=303)  # already seated there
    try:
        taken = await service.lobby.take(game_id)
    except GameError as exc:
        if exc.code != "taken":
            raise
        return RedirectResponse(f"/g/{game_id}?taken=1", status_code=303)
    return to_game(request, game_id, taken.token)


async def my_games(request: Request) -> list[MyGame]:
    """The games this browser holds a seat in by its cookies, and, signed in with a name, the
    name's games not over yet (played from any device)."""
    service = service_of(request)
    player = player_of(request)
    linked = await service.players.unfinished_seats(player) if player is not None else None
    return await service.lobby.mine(held_tokens(request), linked)


@pages.get("/games/mine")
async def my_games_page(request: Request) -> Any:
    games = await my_games(request)
    return render(request, "my_games.html", games=games, **await players.everywhere(request))


#: Games whose players have left, shown on the watch page after those being played: the most
#: recently active few (they wait for their players; a long list of them hides the live ones).
AWAY_SHOWN = 8


@pages.get("/games/live")
async def watch_page(request: Request, service: Service) -> Any:
    games = await service.lobby.watchable()
    return render(request, "watch.html", games=games, away_shown=AWAY_SHOWN)


# ---------------------------------------------------------------------- API
class PairRequest(BaseModel):
    variant: str = Field("standard", description="the variant to play")
    time_control: str = Field(
        "untimed", description="untimed, move:SECONDS, clock:S+I or days:DAYS (turn-based)"
    )


class SeatTaken(BaseModel):
    id: str
    url: str
    seat: int
    token: str
    waiting: bool = False


@api.get("/lobby")
async def open_games(request: Request, service: Service, variant: str | None = None) -> Any:
    """The open games waiting for a taker, oldest first."""
    games = await service.lobby.open_games(variant)
    return await players.with_seekers(service, [_open_json(g) for g in games])


@api.post("/lobby/{game_id}/take", response_model=SeatTaken)
async def take_api(request: Request, service: Service, game_id: str) -> Any:
    """Take the free seat of an open game; 409 ``taken`` if someone was first."""
    taken = await service.lobby.take(game_id)
    base = str(request.base_url).rstrip("/")
    data = SeatTaken(id=game_id, url=f"{base}/g/{game_id}", seat=taken.seat, token=taken.token)
    response = JSONResponse(data.model_dump())
    set_seat_cookie(response, request, game_id, taken.token)
    return response


@api.post("/pair", response_model=SeatTaken)
async def pair_api(request: Request, service: Service, body: PairRequest) -> Any:
    """Be paired with whoever waits for the same variant and time control, or wait for the
    next asker (``waiting``: the game is listed until someone takes the other seat)."""
    paired = await service.lobby.pair(
        body.variant,
        requested_time_control(body.time_control),
        list(held_tokens(request)),
        lister_of(request),
    )
    base = str(request.base_url).rstrip("/")
    data = SeatTaken(
        id=paired.game_id,
        url=f"{base}/g/{paired.game_id}",
        seat=paired.seat,
        token=paired.token,
        waiting=paired.waiting,
    )
    response = JSONResponse(data.model_dump())
    set_seat_cookie(response, request, paired.game_id, paired.token)
    return response


@api.get("/watch")
async def watchable(request: Request, service: Service) -> Any:
    """Games in progress that anyone may watch, most recently active first."""
    return [asdict(g) for g in await service.lobby.watchable()]


@api.get("/mine")
async def mine(request: Request, lang: Lang) -> Any:
    """The games this browser's seat cookies hold a seat in (and, signed in, the name's
    games not over yet), newest first."""
    games = await my_games(request)
    t = translator(lang)
    return [
        {
            **asdict(g),
            "updated": g.updated.isoformat(),
            "label": _my_label(g.state, g.won, t),
            "title": variant_title(g.variant, lang),
            "mode_label": t(f"mode.{g.mode}"),
            "time_label": time_control_label(g.time_control, lang),
        }
        for g in games
    ]


@api.get("/turns")
async def your_turn(request: Request, service: Service, lang: Lang, player: Player) -> Any:
    """The games waiting for your move (a named player's on every device, and those this
    browser's seat cookies hold), those with a deadline first, the nearest first; ``now``
    is the server's time (ms) to count the time left from."""
    games = await service.your_turn.waiting(held_tokens(request), player)
    t = translator(lang)
    rows = []
    for g in games:
        opponent = None
        if g.opponent is not None:
            name = players.level_name(g.opponent, lang) if g.mode == "computer" else g.opponent
            opponent = t("turns.against", name=name)
        rows.append(
            {
                "id": g.id,
                "url": f"/g/{g.id}",
                "title": variant_title(g.variant, lang),
                "time_label": time_control_label(g.time_control, lang),
                "turn_based": parse_time_control(g.time_control).turn_based,
                "deadline": g.deadline,
                "opponent": opponent,
                "opponent_bot": g.opponent_bot,
            }
        )
    return {"now": service.clock.now(), "count": len(rows), "games": rows}


@api.get("/activity")
async def activity(request: Request, service: Service, lang: Lang) -> Any:
    """How many players are at a board now (over every process) and how many games are being
    played (with a player here, or turn-based), with the line the home page shows."""
    now = await service.lobby.activity()
    t = translator(lang)
    players_text = t("activity.players", n=now.players_online)
    games_text = t("activity.games", n=now.games_playing)
    return {
        "players_online": now.players_online,
        "games_playing": now.games_playing,
        "text": f"{players_text} · {games_text}",
    }


def _my_label(state: str, won: bool | None, t: Callable[..., str]) -> str:
    if state == "over" and won is not None:
        return t("mine.won") if won else t("mine.lost")
    return t(f"mine.{state}")


async def _token_of(request: Request, game_id: str) -> Holder:
    """The seat secret of the header or cookie, else the seats linked to the device's name."""
    secret = request.headers.get("x-seat-token") or request.cookies.get(seat_cookie(game_id))
    return await holder(request, game_id, secret)


class Resignation(BaseModel):
    seat: int | None = Field(None, description="only when one secret holds both seats")


@api.post("/games/{game_id}/resign")
async def resign(request: Request, service: Service, game_id: str, body: Resignation) -> Any:
    """Resign (the seat secret as for moves): the opponent wins, ``[Termination
    "resignation"]``."""
    token = await _token_of(request, game_id)
    await service.commands.resign(game_id, token, body.seat)
    return await service.queries.state(game_id, token)


@api.post("/games/{game_id}/cancel", status_code=204, response_class=Response)
async def cancel(request: Request, service: Service, game_id: str) -> Response:
    """Cancel a game nobody has joined (the seat secret as for moves): it is deleted, and
    every page showing it is told; 409 ``joined`` once the other seat is taken."""
    await service.commands.cancel(game_id, await _token_of(request, game_id))
    response = Response(status_code=204)
    response.delete_cookie(seat_cookie(game_id), path="/")  # a seat in nothing
    return response


@api.post("/games/{game_id}/claim")
async def claim(request: Request, service: Service, game_id: str) -> Any:
    """Claim the win of an untimed game whose opponent has been gone long enough (or never
    gave a seed): ``[Termination "abandoned"]``; 409 ``not_abandoned`` otherwise."""
    token = await _token_of(request, game_id)
    await service.commands.claim_abandoned(game_id, token)
    return await service.queries.state(game_id, token)


# ---------------------------------------------------------------------- live listing
class LobbyFeed:
    """The open games pushed to every ``/ws/lobby`` connection of this process: one
    subscription to the ``lobby`` channel, and per change the listing read once per variant
    shown (however many connections show it), never because a client sent something."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.watchers: dict[asyncio.Queue[dict[str, Any]], str | None] = {}
        self._listings: dict[str | None, dict[str, Any]] = {}  # valid while subscribed
        self._subscribed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @contextlib.asynccontextmanager
    async def watch(self, variant: str | None) -> AsyncIterator[asyncio.Queue[dict[str, Any]]]:
        """A queue holding the latest listing for ``variant`` (None: all), the current one
        first; only the latest is kept for a slow reader."""
        if self._task is None or self._task.done():
            self._subscribed.clear()
            self._listings.clear()
            self._task = asyncio.create_task(self._follow(), name="lobby feed")
        await self._subscribed.wait()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=1)
        self.watchers[queue] = variant
        try:
            queue.put_nowait(await self._listing(variant))
            yield queue
        finally:
            del self.watchers[queue]

    async def _listing(self, variant: str | None) -> dict[str, Any]:
        listing = self._listings.get(variant)
        if listing is None:
            games = await self.service.lobby.open_games(variant)
            shown = await players.with_seekers(self.service, [_open_json(g) for g in games])
            listing = {"type": "lobby", "games": shown}
            self._listings[variant] = listing
        return listing

    async def _follow(self) -> None:
        async with self.service.broadcast.subscribe(LOBBY_CHANNEL) as sub:
            self._subscribed.set()
            while True:
                await sub.get()
                while not sub.queue.empty():  # changes that came together: one read
                    sub.queue.get_nowait()
                self._listings.clear()
                for variant in set(self.watchers.values()):
                    listing = await self._listing(variant)
                    for queue, shown in list(self.watchers.items()):
                        if shown == variant:
                            if queue.full():
                                queue.get_nowait()
                            queue.put_nowait(listing)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)


def lobby_feed(conn: HTTPConnection) -> LobbyFeed:
    """The process's one feed of the lobby's changes, made at the first use."""
    feed = state_or_none(conn, "lobby_feed", LobbyFeed)
    if feed is None:
        feed = LobbyFeed(service_of(conn))
        put_state(conn.app, "lobby_feed", feed)
    return feed


@live.websocket("/ws/lobby")
async def lobby_socket(ws: WebSocket) -> None:
    """The open games (``?variant=`` for one variant), sent at once and after every change.
    The client has nothing to say: its frames are read and dropped, and a client that sends
    more than the per-connection message limit is disconnected (1008)."""
    await ws.accept()
    variant = ws.query_params.get("variant")
    if variant not in VARIANTS:
        variant = None
    limits = settings_of(ws).rate_limits
    bucket = TokenBucket(rate=limits.message_rate, burst=limits.message_burst)
    try:
        async with lobby_feed(ws).watch(variant) as listings:
            reader = asyncio.create_task(_drop_frames(ws, bucket))
            try:
                while True:
                    listing = asyncio.ensure_future(listings.get())
                    await asyncio.wait({listing, reader}, return_when=asyncio.FIRST_COMPLETED)
                    if reader.done():
                        listing.cancel()
                        return
                    await ws.send_json(listing.result())
            finally:
                reader.cancel()
                await asyncio.gather(reader, return_exceptions=True)
    except (WebSocketDisconnect, RuntimeError):
        return


async def _drop_frames(ws: WebSocket, bucket: TokenBucket) -> None:
    """Read the client's frames until it leaves; close the socket (1008) once it sends faster
    than its limit."""
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        if not bucket.take():
            await ws.close(code=1008, reason="too many messages")
            return
