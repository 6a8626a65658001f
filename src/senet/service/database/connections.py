"""The site's one database: its connections and transactions, whichever store they serve.

The database is chosen by a URL (``DATABASE_URL``; default a SQLite file under ``./var``), so
another backend such as PostgreSQL (``postgresql+asyncpg://...``) needs no code change.  A
:class:`Database` opens the engine (SQLite's pragmas; PostgreSQL's bounded pool and, for the
statement of every move, an asyncpg pool), upgrades the schema by the Alembic migrations of
:mod:`senet.service.database.migrations` (several processes starting at once on PostgreSQL
take turns under an advisory lock), and makes the writes take turns on SQLite (one writer, as
SQLite allows anyway).  The games' store is a :class:`Database`; the stores of the tables kept
beside the games (players, bots, challenges, push) are :class:`StorageTables` on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from senet.service.infrastructure.unstoppable import Unstoppable
from senet.settings import DEFAULT_DATABASE_URL

__all__ = ["Database", "MIGRATIONS", "StorageTables", "to_the_end", "upgrade_schema"]

MIGRATIONS = Path(__file__).with_name("migrations")
_MIGRATION_LOCK = 0x53454E4554  # "SENET": one process at a time upgrades a PostgreSQL schema


async def _keep_session(_connection: Any) -> None:
    """The pool's reset between uses, which does nothing: only single autocommit statements run
    on these connections, so there is no session state to clear — and asyncpg's default reset
    (a round trip of RESET ALL, UNLISTEN, ...) doubled the cost of every move."""


def _alembic_upgrade(connection: Any, revision: str = "head") -> None:
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, revision)


async def upgrade_schema(engine: AsyncEngine, revision: str = "head") -> None:
    """Run the Alembic migrations up to ``revision`` on ``engine`` (idempotent)."""
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
        await conn.run_sync(_alembic_upgrade, revision)


def _engine_options(url: str, size: int) -> dict[str, Any]:
    if url.startswith("postgresql"):
        # Several processes share one server: a bounded pool each (``size`` connections, as
        # many again in bursts).
        # Bounded waits: a statement or a connection attempt that hangs fails (the action is
        # refused, the client asks again) instead of holding its game for ever.
        bounded = {"connect_args": {"command_timeout": 10, "timeout": 5}, "pool_timeout": 10}
        if size <= 0:
            from sqlalchemy.pool import NullPool

            return {"poolclass": NullPool, **bounded}
        return {"pool_size": size, "max_overflow": size, "pool_recycle": 1800, **bounded}
    return {}


class Database:
    """The connections to one database.  Create with a URL, ``await init()`` before use.

    For the stores built on it (the games' :class:`~senet.service.games.storage.Storage` is
    one): :attr:`connected` is the opened engine, ``pg_pool`` the asyncpg pool on PostgreSQL
    (else None), ``writer`` the lock the writes take turns under on SQLite (else None) and
    ``work`` what runs their methods to the end (:func:`to_the_end`)."""

    def __init__(self, url: str = DEFAULT_DATABASE_URL, pool_size: int = 10) -> None:
        self.url = url
        self.pool_size = pool_size  # PostgreSQL connections (0: none kept open)
        self.engine: AsyncEngine | None = None
        self.pg_pool: Any = None  # PostgreSQL: an asyncpg pool for the statement of every move
        self.work = Unstoppable("a database call")
        self.writer: asyncio.Lock | None = asyncio.Lock() if self.url.startswith("sqlite") else None

    async def init(self, migrate: bool = True) -> None:
        """Open the engine (and a SQLite file's folder), upgrade the schema unless ``migrate``
        is false, and on PostgreSQL open the asyncpg pool."""
        if self.url.startswith("sqlite") and ":///" in self.url:
            path = self.url.split(":///", 1)[1]
            if path and path != ":memory:":
                Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # hide_parameters: an error's message never carries the values of its statement (a
        # game's row holds its fairness secret, a seat's the hash of its secret).
        self.engine = create_async_engine(
            self.url, hide_parameters=True, **_engine_options(self.url, self.pool_size)
        )
        if self.url.startswith("sqlite"):

            @event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:  # pragma: no cover - driver detail
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()

        if migrate:
            await upgrade_schema(self.engine)
        if self.engine.dialect.name == "postgresql":
            import asyncpg

            dsn = (
                make_url(self.url)
                .set(drivername="postgresql")
                .render_as_string(hide_password=False)
            )
            size = max(1, self.pool_size)
            self.pg_pool = await asyncpg.create_pool(
                dsn, min_size=1, max_size=size, command_timeout=10, timeout=5, reset=_keep_session
            )

    async def ping(self) -> None:
        """Raise if the database does not answer ``SELECT 1`` (the readiness check)."""
        async with self.connected.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def close(self) -> None:
        """Wait for the calls under way, then close the engine and the asyncpg pool."""
        await self.work.drain()
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None
        if self.pg_pool is not None:
            await self.pg_pool.close()
            self.pg_pool = None

    def writing(self) -> contextlib.AbstractAsyncContextManager[Any]:
        """Held around a write transaction of another module on this database (the players'
        tables): on SQLite the writes take turns with this storage's own (one writer); on
        PostgreSQL it holds nothing."""
        return self.writer or contextlib.nullcontext()

    @property
    def connected(self) -> AsyncEngine:
        """The engine, once :meth:`init` has opened it."""
        if self.engine is None:
            raise RuntimeError("Storage.init() has not been awaited")
        return self.engine


P = ParamSpec("P")
R = TypeVar("R")
D = TypeVar("D", bound=Database)


def to_the_end(
    write: bool,
) -> Callable[
    [Callable[Concatenate[D, P], Awaitable[R]]],
    Callable[Concatenate[D, P], Awaitable[R]],
]:
    """Run a method of a :class:`Database` to its end in a task of its own (see
    :mod:`senet.service.infrastructure.unstoppable`): a cancelled caller never abandons a
    connection half-way through a transaction.  ``write``: on SQLite, one such method at a time
    (one writer)."""

    def decorate(
        method: Callable[Concatenate[D, P], Awaitable[R]],
    ) -> Callable[Concatenate[D, P], Awaitable[R]]:
        @functools.wraps(method)
        async def wrapper(self: D, /, *args: P.args, **kwargs: P.kwargs) -> R:
            async def work() -> R:
                if write and self.writer is not None:
                    async with self.writer:
                        return await method(self, *args, **kwargs)
                return await method(self, *args, **kwargs)

            return await self.work.run(work())

        return wrapper

    return decorate


class StorageTables:
    """Tables kept beside the games, on a :class:`Database` (players, bots, challenges, push
    subscriptions): its engine, and write transactions that take turns with the games' writes
    on SQLite."""

    def __init__(self, storage: Database) -> None:
        self.storage = storage

    @property
    def engine(self) -> AsyncEngine:
        if self.storage.engine is None:
            raise RuntimeError("Storage.init() has not been awaited")
        return self.storage.engine

    async def write(self, work: Callable[[AsyncConnection], Awaitable[Any]]) -> Any:
        """Run ``work`` in one write transaction."""
        async with self.storage.writing(), self.engine.begin() as conn:
            return await work(conn)
