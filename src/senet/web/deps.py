"""What a route is given, typed: the service, the settings, the templates, the player of the
device, who the caller is in a game, and the request's language.

The application (:mod:`senet.web.app`) puts the service and the rest into ``app.state`` once,
at startup; this module is the one place that reads them back, each as its type.  A route
names what it needs in its signature (``service: Service``, ``lang: Lang``); a helper that is
not a route calls the function (``service_of(request)``).  A router's own object (its rate
limits, the lobby's feed) is put into ``app.state`` by the router's ``install`` and read back
by :func:`state_of`, which checks its type.
"""

from __future__ import annotations

from typing import Annotated, TypeVar

from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates
from starlette.applications import Starlette
from starlette.datastructures import State
from starlette.requests import HTTPConnection

from senet.service.messages import Holder
from senet.service.players import PlayerRow
from senet.service.server import GameService
from senet.settings import Settings

from .i18n import LANG_COOKIE, pick_lang

__all__ = [
    "PLAYER_COOKIE",
    "AppSettings",
    "Lang",
    "Player",
    "Seat",
    "Service",
    "commit_of",
    "holder",
    "lang_of",
    "player_of",
    "put_state",
    "seat_of",
    "seat_cookie",
    "service_of",
    "settings_of",
    "state_of",
    "state_or_none",
    "templates_of",
]

#: the cookie of the name a device is signed in with
PLAYER_COOKIE = "senet_player"

T = TypeVar("T")


def _state(where: HTTPConnection | Starlette) -> State:
    return where.state if isinstance(where, Starlette) else where.app.state


def state_of(where: HTTPConnection | Starlette, name: str, kind: type[T]) -> T:
    """The object ``name`` that the application or a router's ``install`` put into
    ``app.state`` (of the app, or of a request's app), checked to be a ``kind``."""
    value = getattr(_state(where), name)
    if not isinstance(value, kind):
        raise TypeError(f"app.state.{name} is a {type(value).__name__}, not a {kind.__name__}")
    return value


def state_or_none(where: HTTPConnection | Starlette, name: str, kind: type[T]) -> T | None:
    """Like :func:`state_of`, or None while nothing is there (before start-up, after
    shutdown: the service; before the first use: the lobby's feed)."""
    value = getattr(_state(where), name, None)
    return value if isinstance(value, kind) else None


def put_state(app: Starlette, name: str, value: object) -> None:
    """Keep ``value`` as ``app.state.<name>`` (a router's ``install``: its limits, its feed)."""
    setattr(app.state, name, value)


def service_of(conn: HTTPConnection) -> GameService:
    """The game service the application was built with."""
    return state_of(conn, "service", GameService)


def settings_of(conn: HTTPConnection) -> Settings:
    """The settings, read once at startup."""
    return state_of(conn, "settings", Settings)


def templates_of(conn: HTTPConnection) -> Jinja2Templates:
    return state_of(conn, "templates", Jinja2Templates)


def commit_of(conn: HTTPConnection) -> str:
    """The commit the site runs (shown at the foot of each page), or ``""``."""
    return state_of(conn, "commit", str)


def lang_of(request: Request) -> str:
    """The request's language: ``?lang=``, else the language cookie, else Accept-Language."""
    return pick_lang(
        request.query_params.get("lang"),
        request.cookies.get(LANG_COOKIE),
        request.headers.get("accept-language"),
    )


def player_of(request: Request) -> PlayerRow | None:
    """The named player of this request's device (read by :class:`players.PlayerCookie`)."""
    player = getattr(request.state, "player", None)
    return player if isinstance(player, PlayerRow) else None


def seat_cookie(game_id: str) -> str:
    return f"senet_seat_{game_id}"


async def holder(conn: HTTPConnection, game_id: str, token: str | None) -> Holder:
    """Who this device is in a game (:meth:`Players.holder`): its seat secret ``token`` when
    that holds a seat, else the seats linked to the name it is signed in with (read from the
    name's cookie by the server, on a page or a WebSocket alike)."""
    service = service_of(conn)
    if conn.scope["type"] == "http":
        player = getattr(conn.state, "player", None)
    else:  # a WebSocket: the middleware reads the cookie of pages only
        player = await service.players.session(conn.cookies.get(PLAYER_COOKIE))
    return await service.players.holder(game_id, token, player)


async def seat_of(request: Request, game_id: str) -> Holder:
    """Who the caller is in the game: the seat secret of its header or cookie, else the seats
    linked to the name its device is signed in with (see :func:`holder`)."""
    secret = request.headers.get("x-seat-token") or request.cookies.get(seat_cookie(game_id))
    return await holder(request, game_id, secret)


#: the game service
Service = Annotated[GameService, Depends(service_of)]
#: the settings
AppSettings = Annotated[Settings, Depends(settings_of)]
#: the request's language
Lang = Annotated[str, Depends(lang_of)]
#: the named player of the device, if it is signed in
Player = Annotated[PlayerRow | None, Depends(player_of)]
#: who the caller is in the game of the path's ``game_id``
Seat = Annotated[Holder, Depends(seat_of)]
