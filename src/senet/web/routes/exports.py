"""The games as open data, and a named player's own data, as downloads.

* ``GET /api/games/export?month=YYYY-MM[&variant=NAME]``: every game finished in that month
  (default: the current month of the server's clock), of one variant or all, streamed as
  NDJSON, one finished game a line (:class:`senet.service.reading.export.ExportedGame`: its metadata
  and its record, which ``senet replay`` and ``senet verify`` read); a malformed month or an
  unknown variant is a 400 before anything is sent.  The same as ``senet export``.
* ``GET /account/data``: the device's named player's name, ratings, rating history and the
  records of their games, as one JSON file (``senet-data-NAME.json``); 403 with no name.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse

from senet.engine import UnknownVariant, find_variant
from senet.service.errors import GameError
from senet.service.reading import ExportedGame

from ..common import game_error_json
from ..deps import Player, Service

__all__ = ["router"]

router = APIRouter()


def _site(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def _lines(games: AsyncIterator[ExportedGame]) -> AsyncIterator[bytes]:
    async for game in games:
        yield (json.dumps(game, ensure_ascii=False) + "\n").encode()


@router.get("/api/games/export")
async def export_games(
    request: Request, service: Service, month: str | None = None, variant: str | None = None
) -> Response:
    """Every game finished in ``month`` (YYYY-MM), of ``variant`` if given, one NDJSON line a
    game, in the order of their ids."""
    if month is None:
        now = datetime.fromtimestamp(service.clock.now() / 1000, UTC)
        month = f"{now.year:04d}-{now.month:02d}"
    try:
        if variant is not None:
            find_variant(variant)
        games = service.queries.export(month, variant, _site(request))
    except (ValueError, UnknownVariant) as exc:
        return game_error_json(GameError("bad_request", str(exc), 400))
    name = f"senet-{variant or 'all'}-{month}.ndjson"
    return StreamingResponse(
        _lines(games),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("/account/data")
async def my_data(request: Request, service: Service, player: Player) -> Response:
    """The device's named player's own data, as one JSON download (403 with no name)."""
    if player is None:
        return game_error_json(GameError("no_name", "this device has no name", 403))
    data = await service.queries.player_data(player, _site(request))
    return JSONResponse(
        data,
        headers={
            # the name may be any script's letters: RFC 6266's UTF-8 form beside a plain one
            "Content-Disposition": 'attachment; filename="senet-data.json"; '
            f"filename*=UTF-8''senet-data-{quote(player.name)}.json",
            "Cache-Control": "no-store",
        },
    )
