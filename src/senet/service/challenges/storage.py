"""Durable storage of challenges and of whom each player takes them from (the tables of
migration ``0006_challenges``).

Every change of a challenge's status is one statement that changes it only from ``open``
(and, for an answer, only before it expires), so of two racing answers exactly one counts,
whichever processes give them.  Only this module writes these tables;
:mod:`senet.service.challenges.offers` decides what to write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from senet.service.database.connections import StorageTables
from senet.service.database.rows import from_row, values_of
from senet.service.database.schema import challenge_settings as settings
from senet.service.database.schema import game_challenges as challenges
from senet.service.database.schema import players

__all__ = ["ChallengeRow", "ChallengeStorage"]


@dataclass(frozen=True)
class ChallengeRow:
    id: str
    challenger_id: str | None
    challenger_name: str | None
    secret_hash: str
    challenged_id: str
    challenged_name: str
    variant: str
    time_control: str
    colour: str
    rated: bool
    from_game: str | None
    status: str
    created_at: int
    expires_at: int
    game_id: str | None
    challenger_kind: str | None = None  # the players' kinds (human | bot), read with the names
    challenged_kind: str = "human"


class ChallengeStorage(StorageTables):
    """The challenges' tables on the site's :class:`~senet.service.database.connections.Database`."""

    def _select(self) -> Any:
        asker = players.alias("asker")
        asked = players.alias("asked")
        return (
            select(
                challenges,
                asker.c.name.label("challenger_name"),
                asker.c.kind.label("challenger_kind"),
                asked.c.name.label("challenged_name"),
                asked.c.kind.label("challenged_kind"),
            )
            .outerjoin(asker, asker.c.id == challenges.c.challenger_id)
            .join(asked, asked.c.id == challenges.c.challenged_id)
        )

    async def add(self, row: ChallengeRow) -> None:
        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(challenges).values(values_of(row, challenges) | {"game_id": None})
            )

        await self.write(work)

    async def get(self, challenge_id: str) -> ChallengeRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(self._select().where(challenges.c.id == challenge_id))
            ).first()
            return from_row(ChallengeRow, row) if row is not None else None

    async def open_for(self, player_id: str, now: int, *, incoming: bool) -> list[ChallengeRow]:
        """The open challenges not yet expired that ``player_id`` received (``incoming``) or
        sent, oldest first."""
        side = challenges.c.challenged_id if incoming else challenges.c.challenger_id
        query = (
            self._select()
            .where(side == player_id, challenges.c.status == "open", challenges.c.expires_at > now)
            .order_by(challenges.c.created_at, challenges.c.id)
        )
        async with self.engine.connect() as conn:
            return [from_row(ChallengeRow, r) for r in await conn.execute(query)]

    async def count_open(
        self, now: int, *, challenger_id: str | None = None, from_game: str | None = None
    ) -> int:
        """How many open challenges not yet expired a named challenger has sent, or were sent
        from one game."""
        query = select(func.count()).where(
            challenges.c.status == "open", challenges.c.expires_at > now
        )
        if challenger_id is not None:
            query = query.where(challenges.c.challenger_id == challenger_id)
        if from_game is not None:
            query = query.where(challenges.c.from_game == from_game)
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def count_received(self, player_id: str, now: int) -> int:
        """How many open challenges not yet expired ``player_id`` has received."""
        query = select(func.count()).where(
            challenges.c.challenged_id == player_id,
            challenges.c.status == "open",
            challenges.c.expires_at > now,
        )
        async with self.engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    async def sent_since(self, challenger_id: str, challenged_id: str, since: int) -> list[int]:
        """When (ms) ``challenger_id`` challenged ``challenged_id`` since ``since``, whatever
        became of those challenges (withdrawn, declined, open), newest first."""
        query = (
            select(challenges.c.created_at)
            .where(
                challenges.c.challenger_id == challenger_id,
                challenges.c.challenged_id == challenged_id,
                challenges.c.created_at >= since,
            )
            .order_by(challenges.c.created_at.desc())
        )
        async with self.engine.connect() as conn:
            return [int(r.created_at) for r in await conn.execute(query)]

    async def close(
        self, challenge_id: str, status: str, now: int, *, game_id: str | None = None
    ) -> bool:
        """Change an open challenge to ``status``; an answer (accepted, declined) only before
        it expires, ``expired`` only after.  False if it was not open (any more)."""
        where = [challenges.c.id == challenge_id, challenges.c.status == "open"]
        if status == "expired":
            where.append(challenges.c.expires_at <= now)
        elif status in ("accepted", "declined"):
            where.append(challenges.c.expires_at > now)

        async def work(conn: AsyncConnection) -> bool:
            res = await conn.execute(
                update(challenges).where(*where).values(status=status, game_id=game_id)
            )
            return bool(res.rowcount == 1)

        return bool(await self.write(work))

    async def due(self, now: int, limit: int = 500) -> list[str]:
        """Open challenges whose day is over (the sweep expires them)."""
        query = (
            select(challenges.c.id)
            .where(challenges.c.status == "open", challenges.c.expires_at <= now)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            return [r.id for r in await conn.execute(query)]

    async def forget_player(self, player_id: str) -> None:
        """A deleted player's challenges (sent and received) and setting."""

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                delete(challenges).where(
                    or_(
                        challenges.c.challenger_id == player_id,
                        challenges.c.challenged_id == player_id,
                    )
                )
            )
            await conn.execute(delete(settings).where(settings.c.player_id == player_id))

        await self.write(work)

    # ------------------------------------------------------------------ settings
    async def accepting(self, player_id: str) -> str | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(settings.c.accept).where(settings.c.player_id == player_id)
                )
            ).first()
            return str(row.accept) if row is not None else None

    async def set_accepting(self, player_id: str, accept: str) -> None:
        async def work(conn: AsyncConnection) -> None:
            done = await conn.execute(
                update(settings).where(settings.c.player_id == player_id).values(accept=accept)
            )
            if done.rowcount == 0:
                await conn.execute(insert(settings).values(player_id=player_id, accept=accept))

        await self.write(work)
