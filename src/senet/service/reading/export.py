"""The games as open data, and a player's own data.

:func:`finished_games` streams every finished game of a month (by the time it was last
changed, which for a finished game is its end), of one variant or of all, in the order of their
ids, a page of games read at a time: each an :class:`ExportedGame`, its metadata beside its
record in the record format (:mod:`senet.engine.record`, with the fairness tags and the revealed
secret, so ``senet replay`` replays it and ``senet verify`` checks its every throw).  The games
are replayed on their own, never put in the store's memory, so an export does not push the live
games out of it.  Named players appear by name; anonymous seats as ``null``.

:func:`player_data` is everything the site keeps about a named player that they may take away:
the name, its ratings and their history, and the records of their games.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import TypedDict

from senet.engine import Game, find_variant
from senet.service.games.live_games import LiveGame
from senet.service.games.steps import replay
from senet.service.games.storage import Storage, StoredGame
from senet.service.games.views import game_record
from senet.service.players.storage import PlayerRow, PlayerStorage

__all__ = [
    "ExportedGame",
    "ExportedSeat",
    "PlayerData",
    "finished_games",
    "month_bounds",
    "player_data",
]

#: games read from the database at a time
PAGE = 100


class ExportedSeat(TypedDict):
    seat: str  # A | B
    kind: str  # human | computer | bot | anonymous
    name: str | None  # a named player's name or the computer's level; None: anonymous


class ExportedGame(TypedDict):
    """One line of the export (NDJSON): a finished game's metadata and its record."""

    id: str
    variant: str
    mode: str
    time_control: str
    rated: bool
    result: str | None  # A | B | draw
    termination: str | None  # resignation | time forfeit | abandoned; None: borne off
    score: list[int] | None  # bell's points, [A, B]
    created: str  # ISO 8601, UTC
    ended: str
    players: list[ExportedSeat]
    record: str


class RatingOut(TypedDict):
    variant: str
    rating: float
    rd: float
    games: int


class RatingChangeOut(TypedDict):
    variant: str
    game: str
    before: float
    after: float
    at: str


class PlayerData(TypedDict):
    """A named player's own data, as one download."""

    name: str
    kind: str
    created: str
    ratings: list[RatingOut]
    rating_history: list[RatingChangeOut]
    games: list[ExportedGame]


def month_bounds(month: str) -> tuple[datetime, datetime]:
    """The first moment of ``month`` (``YYYY-MM``) and of the month after, in UTC;
    ValueError if it is not such a month."""
    parts = month.split("-")
    if len(parts) != 2 or len(parts[0]) != 4 or len(parts[1]) != 2 or not month.isascii():
        raise ValueError(f"{month!r}: a month is written YYYY-MM")
    year, number = int(parts[0]), int(parts[1])
    if not 1 <= number <= 12 or year < 1970:
        raise ValueError(f"{month!r}: no such month")
    start = datetime(year, number, 1, tzinfo=UTC)
    end = datetime(year + number // 12, number % 12 + 1, 1, tzinfo=UTC)
    return start, end


def _iso(moment: datetime) -> str:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="seconds")


def _replayed(stored: StoredGame) -> LiveGame:
    game = Game(find_variant(stored.variant))
    for action in stored.actions:
        replay(game, action)
    return LiveGame(stored, game, list(stored.actions))


async def _exported(
    storage: Storage, players: PlayerStorage, ids: list[str], site: str
) -> list[ExportedGame]:
    holders = await players.seat_names(ids)
    out: list[ExportedGame] = []
    for game_id in ids:
        stored = await storage.get_game(game_id)
        if stored is None or stored.result is None:  # gone, or not finished after all
            continue
        flags = await players.game_flags(game_id)
        seats: list[ExportedSeat] = []
        for seat in stored.seats:
            holder = holders.get((game_id, seat.seat))
            if holder is not None:
                seats.append({"seat": "AB"[seat.seat], "kind": holder.kind, "name": holder.name})
            elif seat.kind.value == "computer":
                seats.append({"seat": "AB"[seat.seat], "kind": "computer", "name": stored.level})
            else:
                seats.append({"seat": "AB"[seat.seat], "kind": "anonymous", "name": None})
        score = (
            [stored.score_a, stored.score_b]
            if stored.score_a is not None and stored.score_b is not None
            else None
        )
        out.append(
            {
                "id": stored.id,
                "variant": stored.variant,
                "mode": str(stored.mode),
                "time_control": stored.time_control,
                "rated": bool(flags and flags[0]),
                "result": stored.result,
                "termination": stored.termination,
                "score": score,
                "created": _iso(stored.created_at),
                "ended": _iso(stored.updated_at),
                "players": seats,
                "record": game_record(_replayed(stored), site),
            }
        )
    return out


async def finished_games(
    storage: Storage,
    players: PlayerStorage,
    month: str,
    variant: str | None = None,
    site: str = "",
) -> AsyncIterator[ExportedGame]:
    """Every game of ``variant`` (None: of every variant) finished in ``month`` (YYYY-MM),
    in the order of their ids; ValueError for a malformed month."""
    start, end = month_bounds(month)
    after: str | None = None
    while True:
        ids = await storage.finished_ids(start, end, variant, after, PAGE)
        if not ids:
            return
        for exported in await _exported(storage, players, ids, site):
            yield exported
        after = ids[-1]


async def player_data(
    storage: Storage, players: PlayerStorage, player: PlayerRow, site: str = ""
) -> PlayerData:
    """The player's name, ratings, rating history and the records of their finished games."""
    ratings = await players.ratings_of(player.id)
    history = await players.history_of(player.id, limit=100_000)
    played = await players.games_of(player.id, limit=100_000)
    finished = [g.id for g in played if g.result is not None]
    games: list[ExportedGame] = []
    for i in range(0, len(finished), PAGE):
        games += await _exported(storage, players, finished[i : i + PAGE], site)
    return {
        "name": player.name,
        "kind": player.kind,
        "created": _iso(player.created_at),
        "ratings": [
            {"variant": r.variant, "rating": r.rating, "rd": r.rd, "games": r.games}
            for r in ratings
        ],
        "rating_history": [
            {
                "variant": c.variant,
                "game": c.game_id,
                "before": c.before,
                "after": c.after,
                "at": _iso(c.created_at),
            }
            for c in history
        ],
        "games": games,
    }
