"""The REST API (described at /api/openapi.json): create games, read their state, play.

A seat is proven by its secret, sent as the ``X-Seat-Token`` header or the seat cookie the
site sets.  Errors are JSON ``{"type": "error", "code": ..., "message": ...}``.

A new game has no throw yet: its state shows the commitment, and each
seat holder gives a seed of their own with ``POST /api/games/{id}/seed``; the first throw is
made when every human seat has.  A bot may instead pass ``seed`` when it creates the game.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from senet.engine import VARIANTS
from senet.service import computer
from senet.service.errors import GameError
from senet.service.games import (
    checked_move,
    checked_ply,
    checked_seat,
    checked_seed,
    parsed_move,
    requested_time_control,
)
from senet.service.messages import Holder
from senet.service.reviews import replay

from ..common import error_json, lister_of, seat_cookie, set_seat_cookie
from ..deps import Lang, Service, holder
from ..i18n import LANGS, client_catalog
from ..security import parse_json
from ..waiting import client_of, unless_gone

router = APIRouter(prefix="/api", tags=["games"])


class NewGame(BaseModel):
    variant: str = Field("standard", description="the variant's name: " + ", ".join(VARIANTS))
    mode: Literal["friend", "computer", "local"] = "friend"
    colour: Literal["A", "B", "random"] = "random"
    level: str | None = Field(None, description="the computer's level (computer games)")
    seed: str | None = Field(
        None,
        min_length=1,
        max_length=64,
        description="your own seed for your seat(s), given right after creation (1-64 printable ASCII "
        "characters, no ':'); to give it only after seeing the commitment, use POST /api/games/{id}/seed",
    )
    time_control: str = Field(
        "untimed",
        max_length=24,
        description="untimed, move:SECONDS (a limit per decision), clock:SECONDS+INCREMENT or"
        " days:DAYS (a turn-based game: 1 to 14 days per move)",
    )
    listed: bool = Field(False, description="friend games: list it among the open games")
    public: bool = Field(False, description="let anyone find it among the games to watch")


class CreatedGame(BaseModel):
    id: str
    url: str
    commitment: str
    seats: list[int]
    token: str
    private_url: str
    invite_url: str | None


async def token_of(request: Request, game_id: str) -> Holder:
    """Who the caller is in the game: the seat secret of its header or cookie, else the seats
    linked to the name its device is signed in with (see :func:`holder`)."""
    secret = request.headers.get("x-seat-token") or request.cookies.get(seat_cookie(game_id))
    return await holder(request, game_id, secret)


@router.get("/variants")
async def variants(request: Request, lang: Lang) -> list[dict[str, Any]]:
    return [
        {
            "name": v.name,
            "title": v.title(lang),
            "pieces": v.pieces,
            "instrument": v.instrument.name,
        }
        for v in VARIANTS.values()
    ]


@router.get("/levels")
async def levels(request: Request, lang: Lang) -> list[dict[str, str]]:
    return [{"key": k, "name": n, "description": d} for k, n, d in computer.level_options(lang)]


@router.post("/games", response_model=CreatedGame, status_code=201)
async def create_game(request: Request, service: Service, body: NewGame) -> Any:
    created = await service.commands.create(
        body.variant,
        body.mode,
        body.colour,
        body.level,
        body.seed,
        time_control=requested_time_control(body.time_control),
        listed=body.listed,
        public=body.public,
        client=lister_of(request),
    )
    base = str(request.base_url).rstrip("/")
    gid = created.game_id
    data = CreatedGame(
        id=gid,
        url=f"{base}/g/{gid}",
        commitment=(await service.queries.facts(gid)).commitment,
        seats=list(created.seats),
        token=created.token,
        private_url=f"{base}/g/{gid}/seat/{created.token}",
        invite_url=f"{base}/g/{gid}/join/{created.invite}" if created.invite else None,
    )
    response = JSONResponse(data.model_dump(), status_code=201)
    set_seat_cookie(response, request, gid, created.token)
    return response


@router.get("/games/{game_id}")
async def game_state(request: Request, service: Service, game_id: str) -> Any:
    """The state as the caller may see it (legal moves only for the deciding seat's holder)."""
    return await service.view(game_id, await token_of(request, game_id), read=True)


async def _json_object(request: Request, example: str) -> dict[str, Any] | Any:
    """The request body as a JSON object, or the error response to send instead."""
    try:
        body = parse_json(await request.body())
    except (ValueError, UnicodeDecodeError) as exc:
        return error_json("bad_json", f"the body is not valid JSON ({exc})", 400)
    if not isinstance(body, dict):
        return error_json("bad_request", f"the body must be an object such as {example}", 400)
    return body


@router.post("/games/{game_id}/moves")
async def play(request: Request, service: Service, game_id: str) -> Any:
    """Body ``{"ply": N, "move": "12-15"}``: N is the number of actions so far (the state's ply)."""
    body = await _json_object(request, '{"ply": 3, "move": "12-15"}')
    if not isinstance(body, dict):
        return body
    token = await token_of(request, game_id)
    ply, move = checked_ply(body.get("ply")), checked_move(body.get("move"))
    await service.commands.act(game_id, token, ply, parsed_move(move))
    return await service.view(game_id, token)


_SEED_BODY = {
    "required": True,
    "content": {
        "application/json": {
            "schema": {
                "type": "object",
                "required": ["seed"],
                "properties": {
                    "seed": {
                        "type": "string",
                        "minLength": 1,
                        "maxLength": 64,
                        "pattern": "^[ -9;-~]+$",
                    },
                    "seat": {"type": "integer", "enum": [0, 1]},
                },
            }
        }
    },
}


@router.post("/games/{game_id}/seed", openapi_extra={"requestBody": _SEED_BODY})
async def give_seed(request: Request, service: Service, game_id: str) -> Any:
    """Body ``{"seed": "my own words"}`` (and ``"seat": 0`` or ``1`` when the secret holds both
    seats): the seat's own seed, mixed into every throw.  Once per seat, before the first
    throw; the state returned shows who has given theirs."""
    body = await _json_object(request, '{"seed": "my own words"}')
    if not isinstance(body, dict):
        return body
    token = await token_of(request, game_id)
    seed, seat = checked_seed(body.get("seed")), checked_seat(body.get("seat"))
    await service.commands.seed(game_id, token, seed, seat)
    return await service.view(game_id, token)


@router.get("/games/{game_id}/review")
async def game_review(request: Request, service: Service, game_id: str) -> Any:
    """Every decision of a finished game judged by the master: per decision the turn number,
    the seat, the position, the move played, the best move, the verdict and the winning chance
    lost in percent; and under ``account`` where the result came from: seat A's chance at the
    start and at the end, and per seat the luck of its throws, the chance its decisions lost,
    its error rate (lost per decision with a choice), its mistakes and blunders, each from the
    seat's own side.  Waits while a worker computes the review (seconds; once, then stored with
    the game); 409 ``not_over`` while the game goes on; 429 ``busy`` (with ``Retry-After``)
    when too many reviews wait, from everyone or from this client."""
    return replay(await unless_gone(request, service.queries.review(game_id, client_of(request))))


@router.get("/i18n/{lang}")
async def messages(lang: str) -> Any:
    if lang not in LANGS:
        raise GameError("unknown_language", f"languages: {', '.join(LANGS)}", 404)
    return client_catalog(lang)
