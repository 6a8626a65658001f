"""Players with a name on the site: taking a name, signing out, another device, profiles.

A name lives on a device as the cookie :data:`PLAYER_COOKIE` (HttpOnly, SameSite=Lax, Secure
over https): a 192-bit session secret that only the server reads (no script, no page and no
URL ever carries it), stored as its SHA-256.  :class:`PlayerCookie` reads it once per request
into ``request.state.player`` (None without a name), which the pages and the header use.

Pages: ``/name`` (take a name; for a named device: sign out, sign out everywhere, another
device, passkeys, delete the name), ``/transfer`` (sign in with a code or link from another
device), ``/@/NAME`` (a profile); the API: ``GET /api/players/NAME`` and
``GET /api/games/ID/ratings`` (the players of a game, their ratings and this game's changes).
Creating names and codes and trying codes are rate-limited per address.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup
from starlette.types import ASGIApp

from senet.engine import VARIANTS
from senet.service import computer
from senet.service.errors import GameError
from senet.service.games import SystemClock, requested_time_control
from senet.service.lobby import Paired
from senet.service.messages import Mode
from senet.service.players import (
    MAX_LENGTH,
    MIN_LENGTH,
    NameRefused,
    PlayedGame,
    PlayerRow,
    Profile,
    RatingView,
    SeatRating,
    check_name,
    rating_text,
)
from senet.service.reading import GameFacts
from senet.service.server import GameService
from senet.settings import Settings

from ..common import error_json, form_fields, lang_of, render
from ..deps import (
    PLAYER_COOKIE,
    Lang,
    Player,
    Service,
    holder,
    player_of,
    put_state,
    service_of,
    state_of,
    state_or_none,
)
from ..i18n import translator
from ..security import AddressLimiter

__all__ = [
    "PLAYER_COOKIE",
    "profile_response",
    "PlayerCookie",
    "install",
    "player_of",
    "set_player_cookie",
    "game_players",
    "holder",
    "started",
    "rating_chart",
]

PLAYER_COOKIE_AGE = 400 * 86400  # the longest a browser keeps a cookie

pages = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api")


def set_player_cookie(response: Response, request: Request, secret: str) -> None:
    response.set_cookie(
        PLAYER_COOKIE,
        secret,
        max_age=PLAYER_COOKIE_AGE,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


def _forget_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        PLAYER_COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


class PlayerCookie:
    """ASGI middleware: the player of the request's name cookie into ``scope["state"]``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not str(scope.get("path", "")).startswith("/static/"):
            player = None
            secret = _cookie(scope, PLAYER_COOKIE)
            app = scope.get("app")
            service = state_or_none(app, "service", GameService) if app is not None else None
            if secret and service is not None:
                player = await service.players.session(secret)
            scope.setdefault("state", {})["player"] = player
        await self.app(scope, receive, send)


def _cookie(scope: dict[str, Any], name: str) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            for part in value.decode("latin-1").split(";"):
                k, _, v = part.strip().partition("=")
                if k == name and v:
                    return v
    return None


class Limits:
    """Per address: names created (a few, then one every ten minutes), transfer codes made,
    and codes and passkeys tried (a guess at a time)."""

    def __init__(self, off: bool, clock: Callable[[], float] = time.monotonic) -> None:
        big = 1e9 if off else None
        self.names = AddressLimiter(big or 1 / 600, big or 5, clock=clock)
        self.codes = AddressLimiter(big or 1 / 60, big or 10, clock=clock)
        self.tries = AddressLimiter(big or 1 / 6, big or 20, clock=clock)


def client_address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def passkeys_possible(request: Request) -> bool:
    """Whether WebAuthn can work on the address the page was reached at: its relying party is
    a host name, never an IP address (``https://192.0.2.7`` or ``http://127.0.0.1:8000``; the
    loopback's name ``localhost`` works)."""
    host = request.url.hostname or ""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return bool(host)
    return False


def limits_of(request: Request) -> Limits:
    return state_of(request, "player_limits", Limits)


def _too_many(request: Request) -> Any:
    t = translator(lang_of(request))
    return render(request, "error.html", 429, title=t("error.title"), message=t("name.too_many"))


async def _name_page(request: Request, status: int = 200, **shown: Any) -> Any:
    """The name page: for a named device its settings, else the form to take a name (with
    ``refused``: why the name typed, ``typed``, was not taken)."""
    player = player_of(request)
    passkeys = await service_of(request).players.db.passkeys_of(player.id) if player else []
    values: dict[str, Any] = {
        "player": player,
        "passkeys": len(passkeys),
        "min_length": MIN_LENGTH,
        "max_length": MAX_LENGTH,
        "refused": None,
        "typed": "",
        "deleted": False,
        "delete_refused": False,
        "passkeys_possible": passkeys_possible(request),
        "accepting": (
            (await service_of(request).challenges.acceptance(player)).value if player else None
        ),
    }
    values.update(shown)
    response = render(request, "name.html", status, **values)
    response.headers["Cache-Control"] = "no-store"
    return response


# ---------------------------------------------------------------------- the name
@pages.get("/name")
async def name_page(request: Request) -> Any:
    return await _name_page(request, deleted=request.query_params.get("deleted") == "1")


@pages.post("/name")
async def take_name(request: Request, service: Service, player: Player) -> Any:
    """Take a name.  The name is checked first: a refused name (a typo, one taken) is said on
    the form and costs the address nothing; only names made count against its limit, and
    over it the form says so (429) and keeps what was typed."""
    form = await form_fields(request)
    if player is not None:
        return RedirectResponse("/name", status_code=303)
    typed = form.get("name", "")
    address = client_address(request)
    try:
        check_name(typed)
    except NameRefused as refused:
        return await _name_page(request, 400, refused=refused.code, typed=typed[:40])
    if not limits_of(request).names.allow(address):
        return await _name_page(request, 429, refused="too_many", typed=typed[:40])
    try:
        _, secret = await service.players.take_name(typed)
    except NameRefused as refused:
        limits_of(request).names.give_back(address)
        status = 429 if refused.code == "busy" else 400
        return await _name_page(request, status, refused=refused.code, typed=typed[:40])
    response = RedirectResponse(_next(form.get("next")), status_code=303)
    set_player_cookie(response, request, secret)
    return response


def _next(target: str | None) -> str:
    """Where to go after taking a name: a path of this site, else the name's page."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/name"


@pages.post("/name/signout")
async def sign_out(request: Request, service: Service) -> Any:
    secret = request.cookies.get(PLAYER_COOKIE)
    if secret:
        await service.players.sign_out(secret)
    response = RedirectResponse("/name", status_code=303)
    _forget_cookie(response, request)
    return response


@pages.post("/name/signout-all")
async def sign_out_everywhere(request: Request, service: Service, player: Player) -> Any:
    if player is not None:
        await service.players.sign_out_everywhere(player)
    response = RedirectResponse("/name", status_code=303)
    _forget_cookie(response, request)
    return response


@pages.post("/name/delete")
async def delete_name(request: Request, service: Service, player: Player) -> Any:
    form = await form_fields(request)
    if player is None:
        return RedirectResponse("/name", status_code=303)
    if form.get("confirm", "").strip().casefold() != player.name.casefold():
        return await _name_page(request, 400, delete_refused=True)
    await service.players.delete(player)
    response = RedirectResponse("/name?deleted=1", status_code=303)
    _forget_cookie(response, request)
    return response


# ---------------------------------------------------------------------- another device
@pages.post("/name/transfer")
async def new_transfer(request: Request, service: Service, player: Player) -> Any:
    if player is None:
        return RedirectResponse("/name", status_code=303)
    if not limits_of(request).codes.allow(client_address(request)):
        return _too_many(request)
    code = await service.players.new_transfer(player)
    base = str(request.base_url).rstrip("/")
    grouped = " ".join(code[i : i + 4] for i in range(0, len(code), 4))
    response = render(
        request,
        "transfer.html",
        code=grouped,
        link=f"{base}/transfer/{code}",
        player=player,
        failed=False,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@pages.get("/transfer")
async def transfer_form(request: Request) -> Any:
    return await _transfer_page(request, "")


@pages.get("/transfer/{code}")
async def transfer_link(request: Request, code: str) -> Any:
    """The link from another device: a button spends it (a link preview robot that only
    reads pages does not).  The page says whose name the code is, and, on a device signed in
    with another name, that this name will be signed out here (a box to tick first)."""
    if not limits_of(request).tries.allow(client_address(request)):
        return _too_many(request)
    return await _transfer_page(request, code[:64])


async def _transfer_page(
    request: Request,
    typed: str,
    status: int = 200,
    *,
    failed: bool = False,
    unconfirmed: bool = False,
) -> Any:
    owner = await service_of(request).players.transfer_owner(typed) if typed else None
    current = player_of(request)
    response = render(
        request,
        "transfer.html",
        status,
        code=None,
        link=None,
        typed=typed,
        failed=failed,
        owner=owner,
        # the name this device would lose (not when the code is for the name it has)
        replaced=current
        if current is not None and (owner is None or owner.id != current.id)
        else None,
        unconfirmed=unconfirmed,
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@pages.post("/transfer")
async def spend_transfer(request: Request, service: Service, player: Player) -> Any:
    form = await form_fields(request)
    if not limits_of(request).tries.allow(client_address(request)):
        return _too_many(request)
    code = form.get("code", "")[:64]
    players = service.players
    current = player
    if current is not None and form.get("confirm") != "1":
        # a device signed in with another name keeps it unless its person says otherwise
        owner = await players.transfer_owner(code)
        if owner is None:
            return await _transfer_page(request, "", 400, failed=True)
        if owner.id != current.id:
            return await _transfer_page(request, code, 409, unconfirmed=True)
    signed = await players.spend_transfer(code)
    if signed is None:
        return await _transfer_page(request, "", 400, failed=True)
    old = request.cookies.get(PLAYER_COOKIE)
    if old:
        await players.sign_out(old)
    response = RedirectResponse("/name", status_code=303)
    set_player_cookie(response, request, signed[1])
    return response


# ---------------------------------------------------------------------- profiles
@pages.get("/@/{name}")
async def profile_page(request: Request, service: Service, name: str) -> Any:
    players = service.players
    player = await players.by_name(name)
    if player is None:
        raise GameError("unknown_player", f"no player is named {name!r}", 404)
    if player.name != name:
        return RedirectResponse(f"/@/{player.name}", status_code=301)
    return await profile_response(request, player)


async def profile_response(request: Request, player: PlayerRow, **extra: Any) -> Any:
    """The profile page of ``player``; its own player also gets the parts that other routers
    add (``profile_sections``: the bots' tokens and settings), and ``extra``."""
    profile = await service_of(request).players.profile(player)
    me = player_of(request)
    own = me is not None and me.id == player.id
    sections: dict[str, Any] = {}
    if own:
        for section in state_or_none(request, "profile_sections", list) or ():
            sections.update(await section(request, me))
    sections.update(extra)
    return render(
        request,
        "profile.html",
        profile=profile,
        own=own,
        me=me,
        charts={r.variant: rating_chart(r, lang_of(request)) for r in profile.ratings},
        game_rows=[_game_row(g, profile, lang_of(request)) for g in profile.recent],
        since=_date(player.created_at, lang_of(request)),
        shown_name=(
            level_name(player.level, lang_of(request))
            if player.kind == "computer" and player.level
            else player.name
        ),
        **sections,
    )


@api.get("/players/{name}")
async def player_api(request: Request, service: Service, name: str) -> Any:
    """A player's profile: ratings per variant with their history, numbers of games, wins and
    losses, and the recent games."""
    players = service.players
    player = await players.by_name(name)
    if player is None:
        return error_json("unknown_player", f"no player is named {name!r}", 404)
    profile = await players.profile(player)
    return profile_json(profile)


def profile_json(profile: Profile) -> dict[str, Any]:
    p = profile.player
    return {
        "name": p.name,
        "kind": p.kind,
        "level": p.level,
        "since": p.created_at.isoformat(),
        "games": profile.games,
        "wins": profile.wins,
        "losses": profile.losses,
        "draws": profile.draws,
        "ratings": {
            r.variant: {
                "rating": r.rating,
                "rd": r.rd,
                "provisional": r.provisional,
                "text": r.text,
                "games": r.games,
                "history": [{"at": at, "rating": value} for at, value in r.history],
            }
            for r in profile.ratings
        },
        "recent": [
            {
                "id": g.id,
                "variant": g.variant,
                "mode": g.mode,
                "seat": "AB"[g.seat],
                "opponent": g.opponent,
                "opponent_kind": g.opponent_kind,
                "result": _outcome(g),
                "termination": _ending(g),
                "rated": g.rated,
                "rating_change": profile.rating_changes.get(g.id),
                "started": g.created_at.isoformat(),
                "updated": g.updated_at.isoformat(),
                "record": f"/g/{g.id}/record",
                "review": f"/g/{g.id}/review",
            }
            for g in profile.recent
        ],
    }


def _outcome(g: PlayedGame) -> str:
    """``win``, ``loss``, ``draw`` or ``playing`` for the player's seat."""
    if g.result is None:
        return "playing"
    if g.result == "draw":
        return "draw"
    return "win" if g.result == "AB"[g.seat] else "loss"


def _ending(g: PlayedGame) -> str | None:
    """How the game ended: ``bearing off`` (the rules), or its termination."""
    if g.result is None:
        return None
    return g.termination or "bearing off"


def _game_row(g: PlayedGame, profile: Profile, lang: str) -> dict[str, Any]:
    t = translator(lang)
    opponent: str | None
    if g.opponent_kind == "computer" and g.opponent:
        opponent = t("player.computer_level", level=level_name(g.opponent, lang))
    elif g.mode == Mode.COMPUTER and not g.opponent:
        opponent = t("player.computer")
    else:
        opponent = g.opponent
    outcome = _outcome(g)
    ending = _ending(g)
    return {
        "id": g.id,
        "title": variant_title(g.variant, lang),
        "opponent": opponent,
        "opponent_link": g.opponent if g.opponent_kind in ("human", "bot") else None,
        "opponent_bot": g.opponent_kind == "bot",
        "date": _date(g.updated_at, lang),
        "outcome": t(f"player.outcome.{outcome}"),
        "outcome_key": outcome,
        "ending": t(f"player.ending.{ending}") if ending else None,
        "rated": g.rated,
        "change": profile.rating_changes.get(g.id),
        "over": g.result is not None,
    }


async def level_options(request: Request, lang: str) -> list[tuple[str, str, str]]:
    """The start form's levels (key, name, description), each description followed by the
    level's fixed rating in standard Senet ("rated ≈ 1677 in Senet")."""
    t = translator(lang)
    players = service_of(request).players
    out = []
    for key, name, description in computer.level_options(lang):
        best = players.level_rating(key, "standard")
        if best is not None:
            said = t(
                "player.level_rating",
                rating=rating_text(best.rating, best.rd),
                variant=variant_title(best.variant, lang),
            )
            description = f"{description} {said}".strip()
        out.append((key, name, description))
    return out


def variant_title(name: str, lang: str) -> str:
    variant = VARIANTS.get(name)
    return variant.title(lang) if variant else name


def level_name(level: str, lang: str) -> str:
    """A computer level's name in ``lang`` (its key if it has none)."""
    return next((name for key, name, _ in computer.level_options(lang) if key == level), level)


def _date(moment: datetime, lang: str) -> str:
    from babel.dates import format_date

    return format_date(moment.date(), format="medium", locale=lang)


def rating_chart(view: RatingView, lang: str) -> Markup:
    """A rating's history as an SVG line (drawn here: no script needed): one point per rated
    game, the axis from the lowest to the highest rating shown with their values."""
    points = [value for _, value in view.history] or [view.rating]
    if len(points) == 1:
        points = points * 2
    width, height, pad = 320, 120, 28
    low, high = min(points), max(points)
    if high - low < 20:
        low, high = low - 10, high + 10
    step = (width - pad - 6) / (len(points) - 1)

    def y(value: float) -> float:
        return 8 + (height - 16) * (high - value) / (high - low)

    coords = " ".join(f"{pad + i * step:.1f},{y(v):.1f}" for i, v in enumerate(points))
    t = translator(lang)
    title = variant_title(view.variant, lang)
    label = t("player.chart_label", variant=title, low=min(points), high=max(points))
    return Markup(
        f'<svg class="rating-chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{label}">'
        f'<line x1="{pad}" y1="{y(high):.1f}" x2="{width}" y2="{y(high):.1f}" class="grid"/>'
        f'<line x1="{pad}" y1="{y(low):.1f}" x2="{width}" y2="{y(low):.1f}" class="grid"/>'
        f'<text x="0" y="{y(high) + 4:.1f}" class="axis">{high}</text>'
        f'<text x="0" y="{y(low) + 4:.1f}" class="axis">{low}</text>'
        f'<polyline points="{coords}" class="line"/>'
        f"</svg>"
    )


# ---------------------------------------------------------------------- the lobby
async def with_seekers(service: GameService, listing: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The lobby's open games with the name and rating of each named player waiting
    (``player``, ``rating``: ``1512?``; None for an anonymous one)."""
    seeks = {
        s.game_id: s for s in await service.players.db.seeks(game_ids=[g["id"] for g in listing])
    }
    for game in listing:
        seek = seeks.get(game["id"])
        game["player"] = seek.name if seek else None
        game["rating"] = rating_text(seek.rating, seek.rd) if seek else None
        game["bot"] = bool(seek and seek.kind == "bot")  # shown marked BOT
    return listing


async def pair_rated(request: Request, form: dict[str, str], avoid: list[str]) -> Paired | None:
    """Quick pairing for a rated game, asked by a named player (None otherwise: the casual
    pairing serves the request)."""
    player = player_of(request)
    if player is None or form.get("rated") != "1":
        return None
    return await service_of(request).rated_pairing.pair(
        player,
        form.get("variant", "standard"),
        requested_time_control(form.get("time_control")),
        avoid,
    )


# ---------------------------------------------------------------------- games
async def everywhere(request: Request) -> dict[str, Any]:
    """For "my games": a named player's games on every device (``game_rows``), or nothing."""
    player = player_of(request)
    if player is None:
        return {}
    profile = await service_of(request).players.profile(player, recent=200)
    return {"game_rows": [_game_row(g, profile, lang_of(request)) for g in profile.recent]}


async def started(request: Request, game_id: str, seats: tuple[int, ...], rated: bool) -> None:
    """A game was just made on this device: link its seats to the device's player, rated if
    asked (and possible: a named player, not on one screen)."""
    player = player_of(request)
    if player is None:
        return
    await service_of(request).players.link_game(game_id, seats, player, rated=rated)


async def game_players(request: Request, game: GameFacts, seats: tuple[int, ...]) -> dict[str, Any]:
    """The game page's players: the seats this device holds linked to its player first; then
    whether the game is rated and each named seat's rating (and change once rated); and, to
    the holder of an open game nobody has taken yet, the computer's level to play meanwhile
    (``computer_level``: near the player's rating, a middle level for an anonymous one)."""
    player = player_of(request)
    players = service_of(request).players
    extra: dict[str, Any] = {}
    if seats and game.listed and game.free_seat is not None:
        extra["computer_level"] = await players.level_near(player, game.variant.name)
    rated, seated = await players.game_seats(game.id, seats, player)
    return {"rated": rated, "named_seats": seated, **extra}


@api.get("/games/{game_id}/ratings")
async def game_ratings(request: Request, service: Service, lang: Lang, game_id: str) -> Any:
    """Whether the game is rated, and its named players: name, rating in the game's variant
    (``1500?`` while provisional) and, once the game is rated, the change it made."""
    queries = service.queries
    over = (await queries.facts(game_id)).over
    rated, seated = await queries.ratings(game_id)
    return {"rated": rated, "over": over, "seats": [_seat_json(s, lang) for s in seated]}


def _seat_json(s: SeatRating, lang: str) -> dict[str, Any]:
    return {
        "seat": "AB"[s.seat],
        "name": s.name,
        # as a page shows it: a computer level by its name in the page's language
        "label": level_name(s.name, lang) if s.kind == "computer" else s.name,
        "kind": s.kind,
        "rating": s.rating,
        "change": s.change,
    }


def install(app: FastAPI, clock: SystemClock) -> None:
    """Add the pages, the API and the cookie's middleware to the site; the limits on names,
    codes and tries refill on the server's clock (a manual one in tests)."""
    settings = state_of(app, "settings", Settings)
    limits = Limits(settings.rate_limits.http_rate >= 1e9, clock=lambda: clock.now() / 1000)
    put_state(app, "player_limits", limits)
    app.include_router(pages)
    app.include_router(api)
    app.add_middleware(PlayerCookie)


def signed(change: int) -> str:
    """A rating change as shown: ``+14``, ``−14`` (a minus sign), ``+0``."""
    return f"\u2212{-change}" if change < 0 else f"+{change}"
