"""Quick pairing for rated games: a named player is paired with a named player waiting for the
same variant and time control whose rating is close enough, the range widening the longer the
waiting one has waited (:func:`pairing_range`).  With nobody in range, the asker's own rated
seek is listed and waits, shown in the lobby with its player's name and rating.

Bots seek here too (rated, or casual: a pool of their own that people's casual quick pairing
never looks at), and :func:`may_pair` keeps people and bots apart: a person is given a bot,
and a bot a person, only if that person has ticked *accept games against bots*.

A seek is a listed friend game, rated, its creator's seat linked to the player, and its
``pairing`` the request (``rated|variant|time control``).  A seat is taken through the same
statement as any listed seat (:meth:`~senet.service.games.storage.Storage.take_listed_seat`: of
racing takers exactly one gets it).  This module must not import :mod:`senet.web`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from senet.service.errors import requested_variant
from senet.service.games.clocks import TimeControl
from senet.service.games.commands import GameCommands, too_many_listed
from senet.service.games.live_games import GameStore, hash_token, new_token
from senet.service.messages import refresh_message
from senet.service.players.accounts import Players
from senet.service.players.storage import PlayerRow, Seek

from .opponents import Lobby, Paired, pairing_key

__all__ = [
    "RatedPairing",
    "may_pair",
    "one_at_a_time",
    "pairing_range",
    "RANGE_START",
    "RANGE_WIDENING",
    "RANGE_MAX",
]

#: a new seek accepts opponents within this many rating points ...
RANGE_START = 100.0
#: ... a range that widens by this many points for each second it waits ...
RANGE_WIDENING = 5.0
#: ... up to this (after three minutes: nearly anyone)
RANGE_MAX = 1000.0


def pairing_range(waited_seconds: float) -> float:
    """How far apart two ratings may be for a seek that has waited this long."""
    return min(RANGE_MAX, RANGE_START + RANGE_WIDENING * max(0.0, waited_seconds))


def may_pair(asker: PlayerRow, seek: Seek) -> bool:
    """May ``asker`` take ``seek``?  Two people, or two bots, always; a person and a bot only
    if the person accepts games against bots."""
    if seek.kind == "bot" and not (asker.bot or asker.accepts_bots):
        return False
    return not (asker.bot and not (seek.kind == "bot" or seek.accepts_bots))


@contextlib.asynccontextmanager
async def one_at_a_time(
    engine: AsyncEngine | None, locks: dict[str, asyncio.Lock], key: str
) -> AsyncIterator[None]:
    """Hold ``key`` for the block: in this process (an asyncio lock per key, kept in
    ``locks``) and, on PostgreSQL, over every process (a session advisory lock held on a
    connection of its own for the block).  On SQLite one process serves the site and its one
    writer orders the rest."""
    lock = locks.setdefault(key, asyncio.Lock())
    async with lock:
        if engine is None or engine.dialect.name != "postgresql":
            yield
            return
        async with engine.connect() as conn:
            await conn.execute(text("SELECT pg_advisory_lock(hashtext(:k))"), {"k": key})
            await conn.commit()
            try:
                yield
            finally:
                await conn.execute(text("SELECT pg_advisory_unlock(hashtext(:k))"), {"k": key})
                await conn.commit()


class RatedPairing:
    def __init__(
        self, store: GameStore, commands: GameCommands, lobby: Lobby, players: Players
    ) -> None:
        self.store = store
        self.commands = commands
        self.lobby = lobby
        self.players = players
        self._locks: dict[str, asyncio.Lock] = {}

    async def pair(
        self,
        player: PlayerRow,
        variant: str,
        control: TimeControl,
        avoid: list[str],
        now: datetime | None = None,
        *,
        rated: bool = True,
        may_list: bool = True,
    ) -> Paired:
        """Take the oldest seek in range that :func:`may_pair` allows, or list the player's own
        seek and wait.  ``rated`` False: a bot's casual seek (a pool of bots' own);
        ``may_list`` False: the player has as many seeks listed as the lobby's cap allows
        (GameError ``too_many_listed`` rather than a new one)."""
        name = requested_variant(variant).name
        key = ("rated " if rated else "casual ") + pairing_key(name, control.text())
        async with self._one_at_a_time(key):
            return await self._pair(player, name, control, key, avoid, now, rated, may_list)

    def _one_at_a_time(self, key: str) -> contextlib.AbstractAsyncContextManager[None]:
        """One request of ``key`` at a time, so that two askers arriving at once are paired,
        never both left waiting."""
        return one_at_a_time(self.store.storage.engine, self._locks, key)

    async def _pair(
        self,
        player: PlayerRow,
        name: str,
        control: TimeControl,
        key: str,
        avoid: list[str],
        now: datetime | None,
        rated: bool = True,
        may_list: bool = True,
    ) -> Paired:
        now = now or datetime.now(UTC)
        mine = await self.players.db.ratings_for([player.id], name)
        rating = mine[player.id].rating if player.id in mine else 1500.0
        for seek in await self.players.db.seeks(key):
            if seek.player_id == player.id or seek.game_id in avoid:
                continue
            if not may_pair(player, seek):
                continue
            waited = (now - seek.since).total_seconds()
            if abs(seek.rating - rating) > pairing_range(waited):
                continue
            token = new_token()
            async with self.store.deciding(seek.game_id) as decision:
                taken = await decision.take_listed_seat(seek.seat, hash_token(token))
            if not taken:
                continue  # someone else was first
            paired = await self.store.reload(seek.game_id)
            await self.players.link(paired, (seek.seat,), player, as_bot=player.bot)
            await self.store.publish(seek.game_id, refresh_message(paired.ply))
            await self.lobby.announce()
            return Paired(seek.game_id, token, seek.seat, waiting=False)
        if not may_list:
            raise too_many_listed(self.commands.fair_play.listing_cap)
        created = await self.commands.create(
            name, "friend", "random", time_control=control, listed=False, public=True
        )
        live = await self.store.load(created.game_id)
        await self.players.db.set_pairing(created.game_id, key)
        if rated:
            await self.players.start_rated(live)
        await self.players.link(live, created.seats, player, as_bot=player.bot)
        listed_now = self.store.clock.now()
        await self.store.storage.set_listed(
            created.game_id, True, self.commands.fair_play.listed_until(listed_now, control)
        )
        await self.store.reload(created.game_id)
        await self.lobby.announce()
        return Paired(created.game_id, created.token, created.seats[0], waiting=True)
