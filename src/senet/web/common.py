"""What the routers share: the request's language, the seat cookie, pages rendered from the
templates, refusals as JSON, and the redirect to a game.

The application (:mod:`senet.web.app`) builds the app and includes the routers; a router
imports these helpers from here, never from the application, so that the routers sit below it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from senet import __version__
from senet.service.errors import GameError
from senet.service.games import client_key
from senet.service.infrastructure import Busy

from .deps import commit_of, lang_of, seat_cookie, templates_of
from .i18n import LANG_COOKIE, translator
from .protocol import error_message, game_error_message

__all__ = [
    "COOKIE_AGE",
    "error_json",
    "form_fields",
    "game_error_json",
    "lang_of",
    "lister_of",
    "render",
    "seat_cookie",
    "set_seat_cookie",
    "to_game",
]

#: How long a browser keeps a game's seat cookie.
COOKIE_AGE = 180 * 86400


def lister_of(request: Request) -> str | None:
    """Who asks, as the lobby counts open games per client: a digest of the address (behind
    a trusted proxy, its X-Forwarded-For)."""
    return client_key(request.client.host if request.client else None)


def error_json(code: str, message: str, status: int) -> JSONResponse:
    """A refused HTTP request: the error message of the WebSocket protocol as its body."""
    return JSONResponse(error_message(code, message), status_code=status)


def game_error_json(exc: GameError) -> JSONResponse:
    """A request the service refused, with where its text went wrong when it did; a busy
    refusal says when to try again (``Retry-After``, and ``retry_after`` for the page's
    words)."""
    if isinstance(exc, Busy):
        body: dict[str, Any] = {**game_error_message(exc), "retry_after": exc.retry_after}
        return JSONResponse(body, 429, headers={"Retry-After": str(exc.retry_after)})
    return JSONResponse(game_error_message(exc), status_code=exc.status)


def render(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
    """The page of ``template`` in the request's language (and its cookie set when the page
    was asked for in a language by ``?lang=``)."""
    lang = lang_of(request)
    context.update(
        request=request,
        lang=lang,
        t=translator(lang),
        version=__version__,
        commit=commit_of(request),
        path=request.url.path,
    )
    response = templates_of(request).TemplateResponse(
        request, template, context, status_code=status
    )
    if request.query_params.get("lang") == lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="lax")
    return response


def set_seat_cookie(
    response: Response, request: Request, game_id: str, token: str, name: str | None = None
) -> None:
    response.set_cookie(
        name or seat_cookie(game_id),
        token,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def to_game(request: Request, game_id: str, token: str | None = None) -> RedirectResponse:
    """Go to the game's page (303 See Other), seated on this device with ``token`` if given."""
    response = RedirectResponse(f"/g/{game_id}", status_code=303)
    if token:
        set_seat_cookie(response, request, game_id, token)
    return response


async def form_fields(request: Request) -> dict[str, str]:
    """An urlencoded form (the start form has no files: no multipart parser needed)."""
    body = (await request.body())[:10_000].decode("utf-8", "replace")
    return {key: values[0] for key, values in parse_qs(body).items()}
