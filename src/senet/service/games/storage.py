"""Durable storage of games, seats and actions through SQLAlchemy 2 (async).

The games' :class:`Storage` is the site's :class:`~senet.service.database.connections.Database`
(its connections, transactions and migrations), with the games' tables.  Every action is a row of ``actions`` keyed UNIQUE by ``(game_id, ply)``; a batch of actions is
written in one transaction that also advances ``games.ply`` *only if it still equals the
expected ply* (optimistic concurrency), so two writers can never both append ply ``n``.

The tables are described once, in :mod:`senet.service.database.schema`, which the migrations
are checked against.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    and_,
    case,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import RowMapping
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from senet.service.database.connections import Database, to_the_end
from senet.service.database.schema import actions, games, reviews, seats
from senet.service.messages import ActionKind, ClockColumns, Finish, Mode, SeatKind
from senet.settings import DEFAULT_DATABASE_URL

from .clocks import parse_time_control
from .sqlite_writer import Append, Appender, Conflict, PgAppender, SqliteAppender

__all__ = [
    "ClockColumns",
    "NewGame",
    "NewSeat",
    "Listing",
    "ListingCapReached",
    "Storage",
    "StoredAction",
    "StoredGame",
    "StoredSeat",
    "ConflictError",
]


class ConflictError(Exception):
    """Someone else appended first: the expected ply is no longer the current one."""


class ListingCapReached(Exception):
    """The client has as many open games shown in the lobby as it may list."""


@dataclass(frozen=True)
class Listing:
    """Which open games the lobby shows at ``now`` (ms since the epoch): those listed, not past
    their ``listed_until``, whose creator was seen within ``grace`` ms (or is connected) —
    or turn-based (days per move: nobody need wait on its page)."""

    now: int
    grace: int

    def shown(self) -> Any:
        """The condition on ``games`` (a listing without an end, from before the column,
        stays shown)."""
        held = seats.alias("held")
        creator_gone = (
            select(held.c.game_id)
            .where(
                held.c.game_id == games.c.id,
                held.c.claimed.is_(True),
                held.c.left_at.is_not(None),
                held.c.left_at < self.now - self.grace,
            )
            .correlate_except(held)
            .exists()
        )
        return and_(
            games.c.listed.is_(True),
            or_(games.c.listed_until.is_(None), games.c.listed_until > self.now),
            or_(games.c.time_control.like("days:%"), ~creator_gone),
        )


@dataclass(frozen=True)
class NewSeat:
    """A ``seats`` row of a game about to be created."""

    seat: int  # 0 = A, 1 = B
    kind: SeatKind
    token_hash: str | None = None  # sha256 of the holder's seat secret; None while free
    invite_token: str | None = None  # the invitation that takes a free seat
    claimed: bool = True
    left_at: int | None = None  # ms since the epoch: its holder was last seen then


@dataclass(frozen=True)
class NewGame:
    """A game about to be created: its ``games`` row (the columns a new game sets; the others
    start empty) and its seats.  Built for the site by
    :func:`senet.service.games.commands.new_game_rows`; :meth:`Storage.create_game` stores it."""

    id: str
    variant: str
    mode: Mode
    secret: str  # hex of the fairness secret
    commitment: str
    level: str | None = None
    player_seeds: str = ""
    time_control: str = "untimed"
    clock_a: int | None = None
    clock_b: int | None = None
    colour_choice: str = "random"
    rematch_of: str | None = None
    listed: bool = False
    public: bool = False
    listed_until: int | None = None  # ms since the epoch; None: no end (not listed)
    listed_by: str | None = None  # a digest of the client that listed it
    seats: tuple[NewSeat, ...] = ()

    def columns(self) -> dict[str, Any]:
        """The values of its ``games`` row."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "seats"}
        return {**values, "mode": str(self.mode)}


@dataclass
class StoredSeat:
    seat: int
    kind: SeatKind
    token_hash: str | None
    invite_token: str | None
    claimed: bool
    seed: str | None = None
    left_at: int | None = None  # ms since the epoch; None while its holder is connected


@dataclass(slots=True)  # one per action of every game held in memory: no __dict__ each
class StoredAction:
    ply: int
    kind: ActionKind
    seat: int | None
    notation: str
    pattern: int | None = None
    created_at: datetime | None = None


@dataclass
class StoredGame:
    id: str
    variant: str
    mode: Mode
    level: str | None
    ply: int
    result: str | None
    reason: str | None
    score_a: int | None
    score_b: int | None
    secret: str
    commitment: str
    player_seeds: str
    rematch_of: str | None
    rematch_id: str | None
    created_at: datetime
    updated_at: datetime
    time_control: str = "untimed"
    clock_a: int | None = None
    clock_b: int | None = None
    clock_seat: int | None = None
    deadline: int | None = None
    termination: str | None = None
    listed: bool = False
    pairing: str | None = None
    colour_choice: str = "random"
    public: bool = False
    listed_until: int | None = None
    listed_by: str | None = None
    seeding_deadline: int | None = None
    seats: list[StoredSeat] = field(default_factory=list)
    actions: list[StoredAction] = field(default_factory=list)

    @property
    def days_per_move(self) -> int | None:
        """A turn-based game's days per move (``time_control`` ``days:D``); None otherwise."""
        return parse_time_control(self.time_control).days


#: the columns of ``games`` a :class:`StoredGame` holds (the players' columns, ``rated`` and
#: ``rating_done``, are :mod:`senet.service.players.storage`'s to read)
_STORED_COLUMNS = frozenset(f.name for f in fields(StoredGame)) - {"seats", "actions"}


def _game_of(row: RowMapping) -> StoredGame:
    """A ``games`` row as read (without its seats and actions)."""
    values = {k: v for k, v in row.items() if k in _STORED_COLUMNS}
    return StoredGame(**{**values, "mode": Mode(row["mode"])})


def _seat_of(row: RowMapping) -> StoredSeat:
    """A ``seats`` row as read."""
    return StoredSeat(
        row["seat"],
        SeatKind(row["kind"]),
        row["token_hash"],
        row["invite_token"],
        bool(row["claimed"]),
        row["seed"],
        row["left_at"],
    )


def _now() -> datetime:
    return datetime.now(UTC)


async def _delete_game(conn: AsyncConnection, game_id: str) -> None:
    """Delete a game that never started, its seats and actions, and any link to it as a
    rematch, inside the caller's transaction."""
    await conn.execute(delete(seats).where(seats.c.game_id == game_id))
    await conn.execute(delete(actions).where(actions.c.game_id == game_id))
    await conn.execute(delete(games).where(games.c.id == game_id))
    await conn.execute(
        update(games)
        .where(games.c.rematch_id == game_id)
        .values(rematch_id=None, updated_at=_now())
    )


class Storage(Database):
    """Async access to the tables above.  Create with a URL, ``await init()`` before use.

    Every method runs to its end even if its caller is cancelled, and on SQLite the writes
    take turns (one writer, as SQLite allows anyway): a write transaction never waits on
    another's lock, and none outlives the call that began it."""

    def __init__(self, url: str = DEFAULT_DATABASE_URL, pool_size: int = 10) -> None:
        super().__init__(url, pool_size)
        self._appender: Appender | None = None  # the one write path of actions (made by init)

    async def init(self, migrate: bool = True) -> None:
        if self._writer is not None:  # SQLite: refused here if it cannot be (a file in memory)
            self._appender = SqliteAppender(self.url, self._writer)
        await super().init(migrate)
        if self.pg_pool is not None:
            self._appender = PgAppender(self.pg_pool)

    async def close(self) -> None:
        await self.work.drain()
        if self._appender is not None:
            await self._appender.close()
            self._appender = None
        await super().close()

    # the database's parts, by the short names the games' statements use
    @property
    def _engine(self) -> AsyncEngine:
        return self.connected

    @property
    def _pg(self) -> Any:
        return self.pg_pool

    @_pg.setter
    def _pg(self, pool: Any) -> None:
        self.pg_pool = pool

    @property
    def _writer(self) -> asyncio.Lock | None:
        return self.writer

    # ------------------------------------------------------------------ writing
    @to_the_end(write=True)
    async def create_game(
        self, game: NewGame, cap: int | None = None, listing: Listing | None = None
    ) -> None:
        """Store a new game and its seats (one transaction).  A listed game with ``cap`` and
        ``listing``: refused with :class:`ListingCapReached` if its client (``listed_by``)
        has ``cap`` open games shown already (counted in the same transaction, one at a time
        per client on PostgreSQL)."""
        async with self._engine.begin() as conn:
            if game.listed and cap is not None and listing is not None:
                await self._check_cap(conn, game.listed_by, cap, listing)
            await self._insert_game(conn, game)

    @staticmethod
    async def _check_cap(
        conn: AsyncConnection, client: str | None, cap: int, listing: Listing
    ) -> None:
        if client is None:
            return
        if conn.dialect.name == "postgresql":
            await conn.execute(
                text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": "list:" + client}
            )
        shown = (
            select(func.count())
            .select_from(games)
            .where(games.c.listed_by == client, listing.shown())
        )
        if (await conn.execute(shown)).scalar_one() >= cap:
            raise ListingCapReached(f"at most {cap} open games per client")

    @staticmethod
    async def _insert_game(conn: AsyncConnection, game: NewGame, **columns: Any) -> None:
        """Insert ``game``'s row (with ``columns`` over its own) and its seats' rows."""
        now = _now()
        row = {**game.columns(), "ply": 0, "created_at": now, "updated_at": now, **columns}
        await conn.execute(insert(games).values(**row))
        for seat in game.seats:
            values = {**asdict(seat), "kind": str(seat.kind)}
            await conn.execute(insert(seats).values(game_id=game.id, **values))

    @to_the_end(write=False)  # on SQLite the appender takes the writer lock, batch by batch
    async def append(
        self,
        game_id: str,
        expected_ply: int,
        new_actions: Sequence[StoredAction],
        finish: Finish | None = None,
        player_seeds: str | None = None,
        clock: ClockColumns | None = None,
    ) -> None:
        """Store ``new_actions`` as plies ``expected_ply, expected_ply + 1, ...`` in one transaction.

        Raises :class:`ConflictError` (and stores nothing) if the game is not at ``expected_ply``
        (or one of these plies is stored already).  One write path on either database: the
        storage's :class:`~senet.service.games.sqlite_writer.Appender`.
        ``finish`` sets the result columns (and ``termination``, which also withdraws an open
        game's listing) in the same transaction; ``player_seeds`` (with the first throw) the
        encoded seeds that throw and every later one are derived with; ``clock`` the server's
        clock after these actions.
        """
        for offset, action in enumerate(new_actions):
            if action.ply != expected_ply + offset:
                raise ValueError("actions must be numbered consecutively from the expected ply")
        if not new_actions:
            raise ValueError("an append stores at least one action")
        if self._appender is None:
            raise RuntimeError("Storage.init() has not been awaited")
        rows = [(a.ply, str(a.kind), a.seat, a.notation, a.pattern) for a in new_actions]
        item = Append(game_id, expected_ply, rows, _now(), finish, player_seeds, clock)
        try:
            await self._appender.append(item)
        except Conflict as exc:
            raise ConflictError(str(exc)) from None

    @to_the_end(write=True)
    async def claim_seat(
        self,
        game_id: str,
        seat: int,
        invite_token: str,
        token_hash: str,
        now: int | None = None,
        seeding_deadline: int | None = None,
    ) -> bool:
        """Give the free seat to whoever holds the invitation, once (its holder seen ``now``;
        the seeds due by ``seeding_deadline``).  True if this call took it."""
        async with self._engine.begin() as conn:
            res = await conn.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.invite_token == invite_token,
                    seats.c.claimed.is_(False),
                )
                .values(claimed=True, token_hash=token_hash, left_at=now)
            )
            if res.rowcount != 1:
                return False
            await self._seeding_due(conn, game_id, seeding_deadline)
            return True

    @staticmethod
    async def _seeding_due(conn: AsyncConnection, game_id: str, deadline: int | None) -> None:
        if deadline is not None:
            await conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.ply == 0)
                .values(seeding_deadline=deadline)
            )

    @to_the_end(write=True)
    async def set_seed(self, game_id: str, seat: int, seed: str) -> bool:
        """Store a seat's own seed, once, and only before the first throw (the game still at
        ply 0, in the same statement).  True if this call stored it; False if the seat had one,
        is not a taken human seat, or the game has started."""
        started = select(games.c.id).where(games.c.id == game_id, games.c.ply == 0).exists()
        async with self._engine.begin() as conn:
            res = await conn.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.seed.is_(None),
                    seats.c.kind == SeatKind.HUMAN,
                    seats.c.claimed.is_(True),
                    started,
                )
                .values(seed=seed)
            )
            return res.rowcount == 1

    @to_the_end(write=True)
    async def take_listed_seat(
        self,
        game_id: str,
        seat: int,
        token_hash: str,
        listing: Listing | None = None,
        seeding_deadline: int | None = None,
    ) -> bool:
        """Give the free seat of an open game to one taker, once, and withdraw its listing in
        the same transaction.  True if this call took it (of racing takers exactly one does,
        on every process: the seat's row is updated only while still unclaimed).  With
        ``listing``, only a game the lobby shows then is taken (its taker seen at its
        ``now``), and the seeds are due by ``seeding_deadline``."""
        async with self._engine.begin() as conn:
            shown = games.c.listed.is_(True) if listing is None else listing.shown()
            listed = select(games.c.id).where(games.c.id == game_id, shown)
            res = await conn.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.claimed.is_(False),
                    listed.exists(),
                )
                .values(
                    claimed=True,
                    token_hash=token_hash,
                    invite_token=None,
                    left_at=None if listing is None else listing.now,
                )
            )
            if res.rowcount != 1:
                return False
            await self._seeding_due(conn, game_id, seeding_deadline)
            await conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(listed=False, pairing=None, updated_at=_now())
            )
            return True

    @to_the_end(write=True)
    async def set_listed(self, game_id: str, listed: bool, until: int | None = None) -> bool:
        """List an open game in the lobby (shown until ``until``, ms since the epoch, if given)
        or withdraw it (only while its free seat waits).  True if the listing changed."""
        free = (
            select(seats.c.game_id)
            .where(seats.c.game_id == game_id, seats.c.claimed.is_(False))
            .exists()
        )
        values: dict[str, Any] = {"listed": listed, "updated_at": _now()}
        if not listed:
            values["pairing"] = None
        elif until is not None:
            values["listed_until"] = until
        async with self._engine.begin() as conn:
            res = await conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.listed.is_(not listed), free)
                .values(**values)
            )
            return res.rowcount == 1

    @to_the_end(write=True)
    async def delete_unjoined(self, game_id: str) -> bool:
        """Delete a game whose free seat nobody has taken, with its seats and actions, in one
        transaction; a game linked to it as a rematch is unlinked (a rematch may be asked for
        again).  True if this call deleted it; False if the seat was taken first (the free
        seat's row goes first, and only while unclaimed: a racing taker and this call cannot
        both succeed) or the game is gone."""
        async with self._engine.begin() as conn:
            res = await conn.execute(
                delete(seats).where(seats.c.game_id == game_id, seats.c.claimed.is_(False))
            )
            if res.rowcount != 1:
                return False
            await _delete_game(conn, game_id)
            return True

    @to_the_end(write=True)
    async def pair(
        self,
        key: str,
        token_hash: str,
        avoid: Sequence[str],
        game: NewGame,
        listing: Listing | None = None,
        seeding_deadline: int | None = None,
        cap: int | None = None,
    ) -> tuple[str, int] | None:
        """Quick pairing for the request ``key``: take the free seat of a game whose seeker
        asked the same (and is not in ``avoid``: the asker's own games) and return ``(game
        id, seat)``; with nobody waiting, store ``game`` (listed, with ``pairing = key``) and
        return None.  One transaction, and on PostgreSQL one at a time per key (an advisory
        lock): two askers are paired, never both left waiting, no seeker taken twice.

        With ``listing`` only a seeker the lobby shows then is taken: a connected one first,
        then the oldest (the taker is seen at its ``now``, the seeds due by
        ``seeding_deadline``); a new request counts against ``cap`` (:meth:`create_game`)."""
        now = _now()
        creator = seats.alias("creator")
        async with self._engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                await conn.execute(
                    text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": "pair:" + key}
                )
            shown = games.c.listed.is_(True) if listing is None else listing.shown()
            waiting = (
                select(seats.c.game_id, seats.c.seat)
                .join(games, games.c.id == seats.c.game_id)
                .join(
                    creator,
                    and_(creator.c.game_id == games.c.id, creator.c.claimed.is_(True)),
                )
                .where(
                    games.c.pairing == key,
                    shown,
                    seats.c.claimed.is_(False),
                    games.c.id.not_in(list(avoid)),
                )
                .order_by(case((creator.c.left_at.is_(None), 0), else_=1), games.c.created_at)
                .limit(1)
            )
            row = (await conn.execute(waiting)).first()
            if row is not None:
                game_id, seat = row[0], row[1]
                await conn.execute(
                    update(seats)
                    .where(seats.c.game_id == game_id, seats.c.seat == seat)
                    .values(
                        claimed=True,
                        token_hash=token_hash,
                        invite_token=None,
                        left_at=None if listing is None else listing.now,
                    )
                )
                await conn.execute(
                    update(games)
                    .where(games.c.id == game_id)
                    .values(listed=False, pairing=None, updated_at=now)
                )
                await self._seeding_due(conn, game_id, seeding_deadline)
                return game_id, seat
            if cap is not None and listing is not None:
                await self._check_cap(conn, game.listed_by, cap, listing)
            await self._insert_game(conn, game, listed=True, pairing=key)
            return None

    @to_the_end(write=True)
    async def set_left(self, game_id: str, seat: int, left_at: int | None) -> None:
        """Note when a seat's holder left (ms since the epoch), or None: connected now."""
        async with self._engine.begin() as conn:
            await conn.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.seat == seat)
                .values(left_at=left_at)
            )

    @to_the_end(write=True)
    async def set_seen(self, game_id: str, seat: int, now: int) -> None:
        """A seat's holder acted at ``now`` without a connection (a move or a read through the
        API): its ``left_at`` moves on to ``now`` (unless it is connected: None stays)."""
        async with self._engine.begin() as conn:
            await conn.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.left_at.is_not(None),
                    seats.c.left_at < now,
                )
                .values(left_at=now)
            )

    @to_the_end(write=True)
    async def withdraw_hidden(self, listing: Listing) -> int:
        """Withdraw every listing the lobby no longer shows (past its end, or its creator
        gone): the number withdrawn."""
        async with self._engine.begin() as conn:
            res = await conn.execute(
                update(games)
                .where(games.c.listed.is_(True), ~listing.shown())
                .values(listed=False, pairing=None, updated_at=_now())
            )
            return res.rowcount

    @to_the_end(write=False)
    async def overdue_seeding(self, now: int, limit: int = 100) -> list[str]:
        """Ids of games still waiting for a seed after their seeding deadline."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(games.c.id)
                .where(
                    games.c.ply == 0,
                    games.c.seeding_deadline.is_not(None),
                    games.c.seeding_deadline <= now,
                )
                .limit(limit)
            )
            return [r[0] for r in rows]

    @to_the_end(write=True)
    async def delete_unstarted(self, game_id: str, now: int) -> bool:
        """Delete a game whose seeds did not come by its seeding deadline (no throw made),
        with its seats, and unlink it from the game it is a rematch of.  True if this call
        deleted it; False if the first throw was stored first, the deadline is not past, or
        the game is gone.  The game's row is changed first (locked on PostgreSQL), so the
        first throw and this call cannot both succeed."""
        async with self._engine.begin() as conn:
            res = await conn.execute(
                update(games)
                .where(
                    games.c.id == game_id,
                    games.c.ply == 0,
                    games.c.seeding_deadline <= now,
                )
                .values(listed=False)
            )
            if res.rowcount != 1:
                return False
            await _delete_game(conn, game_id)
            return True

    @to_the_end(write=True)
    async def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Link a rematch to a game, once.  True if this call set it."""
        async with self._engine.begin() as conn:
            res = await conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.rematch_id.is_(None))
                .values(rematch_id=rematch_id, updated_at=_now())
            )
            return res.rowcount == 1

    @to_the_end(write=True)
    async def store_review(self, game_id: str, rows: str) -> bool:
        """Keep a finished game's review (``rows``: its JSON); the first one stored stays.
        True if this call stored it."""
        async with self._engine.begin() as conn:
            try:
                async with conn.begin_nested():
                    await conn.execute(
                        insert(reviews).values(game_id=game_id, rows=rows, created_at=_now())
                    )
            except IntegrityError:
                return False
            return True

    # ------------------------------------------------------------------ reading
    @to_the_end(write=False)
    async def get_review(self, game_id: str) -> str | None:
        """The stored review of a game (its JSON), or None."""
        async with self._engine.connect() as conn:
            row = await conn.execute(select(reviews.c.rows).where(reviews.c.game_id == game_id))
            found = row.scalar_one_or_none()
            return str(found) if found is not None else None

    @to_the_end(write=False)
    async def get_game(self, game_id: str, since_ply: int = 0) -> StoredGame | None:
        """The game with its seats and its actions from ``since_ply`` on (None if unknown)."""
        async with self._engine.connect() as conn:
            row = (
                (await conn.execute(select(games).where(games.c.id == game_id))).mappings().first()
            )
            if row is None:
                return None
            seat_rows = (
                await conn.execute(
                    select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat)
                )
            ).mappings()
            action_rows = (
                await conn.execute(
                    select(actions)
                    .where(actions.c.game_id == game_id, actions.c.ply >= since_ply)
                    .order_by(actions.c.ply)
                )
            ).mappings()
            game = _game_of(row)
            game.seats = [_seat_of(r) for r in seat_rows]
            game.actions = [
                StoredAction(
                    r["ply"],
                    ActionKind(r["kind"]),
                    r["seat"],
                    r["notation"],
                    r["pattern"],
                    r["created_at"],
                )
                for r in action_rows
            ]
            if game.actions and game.actions[-1].ply >= game.ply:
                # The row was read before the append of these actions committed.  The players'
                # seeds are stored with the first throw: read them again, or a copy
                # holding that throw would derive the next throws without them.
                seeds_now = select(games.c.player_seeds).where(games.c.id == game_id)
                game.player_seeds = (await conn.execute(seeds_now)).scalar_one()
            return game

    @to_the_end(write=False)
    async def head(self, game_id: str) -> tuple[int, str | None] | None:
        """``(ply, rematch_id)`` of a game as stored now (one query), None if unknown."""
        if self._pg is not None:  # asked on every connection: straight through the driver
            row = await self._pg.fetchrow(
                "SELECT ply, rematch_id FROM games WHERE id = $1", game_id
            )
            return (row[0], row[1]) if row is not None else None
        async with self._engine.connect() as conn:
            row = (
                await conn.execute(
                    select(games.c.ply, games.c.rematch_id).where(games.c.id == game_id)
                )
            ).first()
            return (row[0], row[1]) if row is not None else None

    @to_the_end(write=False)
    async def listed_games(
        self, variant: str | None = None, limit: int = 50, listing: Listing | None = None
    ) -> list[StoredGame]:
        """Open games waiting for a taker, newest first (seats included, no actions); with
        ``listing``, those the lobby shows then."""
        query = select(games).where(
            games.c.listed.is_(True) if listing is None else listing.shown()
        )
        if variant is not None:
            query = query.where(games.c.variant == variant)
        return await self._games_with_seats(
            query.order_by(games.c.created_at.desc(), games.c.id).limit(limit)
        )

    @to_the_end(write=False)
    async def public_games(self, limit: int = 50) -> list[StoredGame]:
        """Games in progress that anyone may find and watch, most recently active first."""
        query = (
            select(games)
            .where(games.c.public.is_(True), games.c.result.is_(None), games.c.ply > 0)
            .order_by(games.c.updated_at.desc())
            .limit(limit)
        )
        return await self._games_with_seats(query)

    @to_the_end(write=False)
    async def games_playing(self, connected: Sequence[str]) -> int:
        """How many games are being played: started, not over, and either turn-based (played
        over days, its players mostly away) or among ``connected`` (a player is here)."""
        being_played: Any = games.c.time_control.like("days:%")
        if connected:
            being_played = or_(being_played, games.c.id.in_(list(connected)[:5000]))
        query = (
            select(func.count())
            .select_from(games)
            .where(games.c.result.is_(None), games.c.ply > 0, being_played)
        )
        async with self._engine.connect() as conn:
            return int((await conn.execute(query)).scalar_one())

    @to_the_end(write=False)
    async def finished_ids(
        self,
        start: datetime,
        end: datetime,
        variant: str | None = None,
        after: str | None = None,
        limit: int = 100,
    ) -> list[str]:
        """The ids of the games finished (last changed) from ``start`` to before ``end``, of
        ``variant`` if given, greater than ``after``, in order, at most ``limit``."""
        query = select(games.c.id).where(
            games.c.result.is_not(None), games.c.updated_at >= start, games.c.updated_at < end
        )
        if variant is not None:
            query = query.where(games.c.variant == variant)
        if after is not None:
            query = query.where(games.c.id > after)
        async with self._engine.connect() as conn:
            rows = await conn.execute(query.order_by(games.c.id).limit(limit))
            return [r.id for r in rows]

    async def games_by_id(self, ids: Sequence[str]) -> list[StoredGame]:
        """The games of ``ids`` that exist (seats included, no actions), newest first."""
        if not ids:
            return []
        query = select(games).where(games.c.id.in_(list(ids))).order_by(games.c.created_at.desc())
        return await self._games_with_seats(query)

    async def _games_with_seats(self, query: Any) -> list[StoredGame]:
        async with self._engine.connect() as conn:
            found = [_game_of(r) for r in (await conn.execute(query)).mappings()]
            if not found:
                return []
            by_id = {g.id: g for g in found}
            rows = await conn.execute(
                select(seats).where(seats.c.game_id.in_(list(by_id))).order_by(seats.c.seat)
            )
            for r in rows.mappings():
                by_id[r["game_id"]].seats.append(_seat_of(r))
            return found

    @to_the_end(write=False)
    async def running_clocks(self) -> list[str]:
        """Ids of unfinished games with a timed decision due (to wait for it after a restart)."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(games.c.id).where(games.c.deadline.is_not(None), games.c.result.is_(None))
            )
            return [r[0] for r in rows]

    @to_the_end(write=False)
    async def unfinished_computer_games(self) -> list[str]:
        """Ids of computer games not yet over (to resume the computer after a restart)."""
        async with self._engine.connect() as conn:
            rows = await conn.execute(
                select(games.c.id).where(games.c.mode == Mode.COMPUTER, games.c.result.is_(None))
            )
            return [r[0] for r in rows]
