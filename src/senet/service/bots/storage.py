"""Durable storage of bot accounts and personal API tokens (the tables of migration
``0006_bots``), on the players' database.

A token is stored only as its SHA-256, as device sessions are; its short public ``id`` names it
on the profile page (to revoke it) and never authenticates anything.  Upgrading a player to a
bot is one statement that changes only a person who holds no seat of a rated game, so a
rated game and the upgrade cannot both win a race.  Only this module writes ``api_tokens``;
:mod:`senet.service.bots.accounts` decides what to write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from senet.service.database.connections import StorageTables
from senet.service.database.rows import from_row
from senet.service.database.schema import api_tokens, games, players, seats
from senet.service.players.storage import PlayerRow, PlayerStorage

__all__ = ["BotStorage", "GameOfPlayer", "TokenRow"]


@dataclass(frozen=True)
class TokenRow:
    """A personal API token as stored: never the token itself."""

    id: str  # public: names the token on the profile page
    player_id: str
    label: str
    scopes: tuple[str, ...]
    created_at: datetime


@dataclass(frozen=True)
class GameOfPlayer:
    """An unfinished game in which a player holds a seat."""

    id: str
    seat: int  # the player's
    variant: str
    time_control: str
    rated: bool
    started: bool  # both seats are taken (else: a seek or challenge game waiting)
    listed: bool


class BotStorage(StorageTables):
    """Bot accounts and tokens, over a :class:`~senet.service.players.storage.PlayerStorage`."""

    def __init__(self, db: PlayerStorage) -> None:
        super().__init__(db.storage)

    # ------------------------------------------------------------------ tokens
    async def add_token(
        self, token_hash: str, token_id: str, player_id: str, label: str, scopes: Sequence[str]
    ) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(api_tokens).values(
                    token_hash=token_hash,
                    id=token_id,
                    player_id=player_id,
                    label=label,
                    scopes=" ".join(scopes),
                    created_at=datetime.now(UTC),
                )
            )

        await self.write(work)

    async def by_token(self, token_hash: str) -> tuple[PlayerRow, TokenRow] | None:
        """The player a token authenticates and the token's row (None: unknown or revoked)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(players, *(c.label(f"token_{c.name}") for c in api_tokens.c))
                    .join(api_tokens, api_tokens.c.player_id == players.c.id)
                    .where(api_tokens.c.token_hash == token_hash)
                )
            ).first()
        if row is None:
            return None
        return from_row(PlayerRow, row), from_row(TokenRow, row, prefix="token_")

    async def tokens_of(self, player_id: str) -> list[TokenRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(api_tokens)
                .where(api_tokens.c.player_id == player_id)
                .order_by(api_tokens.c.created_at)
            )
            return [from_row(TokenRow, r) for r in rows]

    async def revoke(self, player_id: str, token_id: str) -> bool:
        """Delete one of the player's tokens: False if it has no such token."""

        async def work(conn: AsyncConnection) -> bool:
            res = await conn.execute(
                delete(api_tokens).where(
                    api_tokens.c.player_id == player_id, api_tokens.c.id == token_id
                )
            )
            return bool(res.rowcount == 1)

        return bool(await self.write(work))

    # ------------------------------------------------------------------ accounts
    async def make_bot(self, player_id: str) -> bool:
        """Make a person a bot, for good: only a person who holds no seat of a rated game (one
        statement, so a rated game linked meanwhile wins the race and the upgrade fails)."""
        rated_seat = (
            select(seats.c.game_id)
            .join(games, games.c.id == seats.c.game_id)
            .where(seats.c.player_id == player_id, games.c.rated.is_(True))
            .exists()
        )

        async def work(conn: AsyncConnection) -> bool:
            res = await conn.execute(
                update(players)
                .where(players.c.id == player_id, players.c.kind == "human", ~rated_seat)
                .values(kind="bot")
            )
            return bool(res.rowcount == 1)

        return bool(await self.write(work))

    async def rated_games(self, player_id: str) -> int:
        """How many rated games the player holds a seat in (finished or not)."""
        async with self.engine.connect() as conn:
            count = (
                await conn.execute(
                    select(func.count())
                    .select_from(seats.join(games, games.c.id == seats.c.game_id))
                    .where(seats.c.player_id == player_id, games.c.rated.is_(True))
                )
            ).scalar()
            return int(count or 0)

    async def set_accepts_bots(self, player_id: str, accepts: bool) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                update(players)
                .where(players.c.id == player_id, players.c.kind == "human")
                .values(accepts_bots=accepts)
            )

        await self.write(work)

    # ------------------------------------------------------------------ games
    async def unfinished_games(self, player_id: str) -> list[GameOfPlayer]:
        """The unfinished games in which the player holds a seat, oldest first."""
        query = _unfinished(seats.c.player_id == player_id)
        async with self.engine.connect() as conn:
            return [from_row(GameOfPlayer, r) for r in await conn.execute(query)]

    async def unfinished_games_of(self, player_ids: Sequence[str]) -> dict[str, list[GameOfPlayer]]:
        """:meth:`unfinished_games` of several players in one query: each player's (a player
        with none is absent)."""
        found: dict[str, list[GameOfPlayer]] = {}
        if not player_ids:
            return found
        query = _unfinished(seats.c.player_id.in_(list(player_ids)))
        async with self.engine.connect() as conn:
            for row in await conn.execute(query):
                found.setdefault(row.player_id, []).append(from_row(GameOfPlayer, row))
        return found

    async def seat_of(self, game_id: str, player_id: str) -> tuple[int, ...]:
        """The seats of a game linked to the player (() for none)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(seats.c.seat).where(
                    seats.c.game_id == game_id, seats.c.player_id == player_id
                )
            )
            return tuple(sorted(r.seat for r in rows))

    async def result_of(self, game_id: str) -> tuple[str | None, str | None] | None:
        """``(result, termination)`` of a game, None if it no longer exists."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(games.c.result, games.c.termination).where(games.c.id == game_id)
                )
            ).first()
            return (row.result, row.termination) if row is not None else None


def _unfinished(holders: Any) -> Any:
    """The unfinished games whose seat ``holders`` (a condition on ``seats``) selects, with
    that seat's player, oldest first: the columns of a :class:`GameOfPlayer`."""
    other = seats.alias("other")
    return (
        select(
            seats.c.player_id,
            games.c.id,
            seats.c.seat,
            games.c.variant,
            games.c.time_control,
            games.c.rated,
            games.c.listed,
            other.c.claimed.label("started"),
        )
        .join(seats, seats.c.game_id == games.c.id)
        .join(other, and_(other.c.game_id == games.c.id, other.c.seat != seats.c.seat))
        .where(holders, games.c.result.is_(None))
        .order_by(games.c.created_at)
    )
