"""The one write path for actions: an :class:`Appender`, on SQLite or on PostgreSQL.

An append stores a game's new actions as plies ``expected_ply, expected_ply + 1, ...`` and
advances the game's row (its ply, and what came with the actions: the result, the players'
seeds, the clock) *only if the row is still at the expected ply*; otherwise, or if one of those
plies is stored already (``actions`` is UNIQUE by ``(game_id, ply)``), it stores nothing and
raises :class:`Conflict`.  Of two racing appends at one ply exactly one is stored.

Both backends run the same two changes, built once from the tables of
:mod:`senet.service.database.schema` with SQLAlchemy Core and compiled once for their dialect (no SQL
written by hand, so they cannot drift apart), and give every value to the driver as the
schema's column types store it (a time as SQLAlchemy's ``DateTime`` stores it on that
dialect, read back by it):

* :class:`PgAppender`: one statement, ``WITH g AS (UPDATE games ... RETURNING id) INSERT INTO
  actions SELECT ... FROM g, unnest(...)``, straight through an asyncpg pool: one round trip in
  its own transaction.  Of two racing appends the second waits for the row, sees ``ply``
  changed and inserts nothing.  This is the statement of every move, and SQLAlchemy's
  connection layer around it cost three times the CPU of the driver (``bench/storage.py``).

* :class:`SqliteAppender`, the embedded default's one writer, batched.  SQLite lets one
  connection write at a time, and through SQLAlchemy and aiosqlite an append is five round
  trips to the driver's thread (BEGIN, UPDATE, INSERT, COMMIT and the pool), each waiting for
  that thread to be scheduled: on a busy machine a few hundred moves a second queued behind one
  another.  Here one ``sqlite3`` connection stores every append waiting at the moment in one
  ``BEGIN IMMEDIATE`` ... ``COMMIT``; each append of a batch of several has a SAVEPOINT of its
  own, so one that conflicts is rolled back alone and the others are stored.  The caller's
  :class:`asyncio.Lock` (the storage's one-writer lock) is held around each batch, so these
  transactions never wait on another connection's write lock.

  The batch is written in the event loop's own thread: in write-ahead-log mode with
  ``synchronous=NORMAL`` a commit appends a few pages to the log and syncs nothing, some tens
  of microseconds, where handing it to a thread and back cost several times that in CPU
  (waking the thread, the interpreter lock going back and forth).  What may take long, copying
  the log into the database file and syncing it (a checkpoint), is never done by a commit
  here (``wal_autocheckpoint`` off on this connection): every
  :attr:`SqliteAppender.CHECKPOINT_EVERY` appends a passive checkpoint runs in a thread of its
  own, on its own connection, which waits for no writer and blocks none.
"""

from __future__ import annotations

import abc
import asyncio
import functools
import logging
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, and_, bindparam, case, cast, func, insert, select, true, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect, make_url
from sqlalchemy.sql.compiler import Compiled

from senet.service.database.schema import actions, games
from senet.service.messages import ClockColumns, Finish

__all__ = ["Append", "Appender", "Conflict", "PgAppender", "SqliteAppender"]

log = logging.getLogger("senet.storage")

#: the columns of ``actions`` an append gives for each action, in this order
ACTION_COLUMNS = ("ply", "kind", "seat", "notation", "pattern")
#: the result columns a finish may set (each kept as it is when not given)
_RESULT_COLUMNS = ("result", "reason", "score_a", "score_b", "player_seeds", "termination")
#: the clock columns, all set together (``v_set_clock``) or all kept
_CLOCK_COLUMNS = ("clock_a", "clock_b", "clock_seat", "deadline")


@dataclass(slots=True)
class Append:
    """A game's new actions, to be stored from ``expected_ply`` on, and what comes with them."""

    game_id: str
    expected_ply: int
    rows: Sequence[tuple[Any, ...]]  # (ply, kind, seat, notation, pattern) of each action
    now: datetime
    finish: Finish | None = None
    player_seeds: str | None = None  # the players' seeds, given with the first throw
    clock: ClockColumns | None = None  # the server's clock after these actions

    def game_values(self) -> dict[str, Any]:
        """The parameters of the game row's change (:func:`_advance`)."""
        finish = self.finish
        values: dict[str, Any] = {
            "v_game": self.game_id,
            "v_expected": self.expected_ply,
            "v_ply": self.expected_ply + len(self.rows),
            "v_now": self.now,
            "v_result": finish.result if finish else None,
            "v_reason": finish.reason if finish else None,
            "v_score_a": finish.score_a if finish else None,
            "v_score_b": finish.score_b if finish else None,
            "v_player_seeds": self.player_seeds,
            "v_termination": finish.termination if finish else None,
            "v_set_clock": self.clock is not None,
        }
        clock = self.clock
        for column in _CLOCK_COLUMNS:
            values[f"v_{column}"] = clock[column] if clock is not None else None  # type: ignore[literal-required]
        return values


class Conflict(Exception):
    """The game is not at the expected ply, or that ply is stored already."""


class Appender(abc.ABC):
    """Stores appends (see the module's docstring); one per storage, for its whole life."""

    @abc.abstractmethod
    async def append(self, item: Append) -> None:
        """Store ``item`` all or nothing; :class:`Conflict` (and nothing stored) if it cannot be."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Finish what was asked and let go of connections and threads."""


# ---------------------------------------------------------------------- the statements
def _param(name: str, column: Any) -> Any:
    return bindparam(name, type_=column.type)


def _advance() -> Any:
    """The game row's change: from the expected ply to the new one, with what came along."""
    c = games.c
    kept = {
        column: func.coalesce(_param(f"v_{column}", c[column]), c[column])
        for column in _RESULT_COLUMNS
    }
    set_clock = bindparam("v_set_clock", type_=Boolean())
    clock = {
        column: case((set_clock, _param(f"v_{column}", c[column])), else_=c[column])
        for column in _CLOCK_COLUMNS
    }
    return (
        update(games)
        .where(c.id == _param("v_game", c.id), c.ply == _param("v_expected", c.ply))
        .values(
            ply=_param("v_ply", c.ply),
            updated_at=_param("v_now", c.updated_at),
            # a game a player ended (a termination) leaves the lobby
            listed=and_(c.listed, _param("v_termination", c.termination).is_(None)),
            **kept,
            **clock,
        )
    )


class _Statement:
    """A statement compiled once for a dialect, and the bind processors of its parameters (how
    the schema's column types give a value to that dialect's driver)."""

    def __init__(self, statement: Any, dialect: Dialect, **compile_kwargs: Any) -> None:
        compiled: Compiled = statement.compile(dialect=dialect, **compile_kwargs)
        self.sql = str(compiled)
        self.order: list[str] = list(getattr(compiled, "positiontup", None) or ())
        self.processors: dict[str, Callable[[Any], Any]] = {}
        for name, bind in getattr(compiled, "binds", {}).items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.processors[name] = processor

    def named(self, values: dict[str, Any]) -> dict[str, Any]:
        for name, processor in self.processors.items():
            if name in values:
                values[name] = processor(values[name])
        return values

    def positional(self, values: dict[str, Any]) -> list[Any]:
        values = self.named(values)
        return [values[name] for name in self.order]


@functools.cache
def _sqlite_statements() -> tuple[_Statement, _Statement]:
    """SQLite: the game row's UPDATE (named parameters) and the actions' INSERT (positional:
    one tuple per action, ``(game_id, ply, kind, seat, notation, pattern, created_at)``, the
    time as the UPDATE's ``v_now`` gives it)."""
    columns = ["game_id", *ACTION_COLUMNS, "created_at"]
    advance = _Statement(_advance(), sqlite.dialect(paramstyle="named"))
    rows = _Statement(insert(actions), sqlite.dialect(), column_keys=columns)
    if rows.order != columns or set(rows.processors) - {"created_at"}:
        raise RuntimeError(f"the actions' INSERT takes {rows.order}, not {columns} as they are")
    return advance, rows


@functools.cache
def _pg_statement() -> _Statement:
    """PostgreSQL: the UPDATE and the INSERT as one statement (the actions as arrays)."""
    from sqlalchemy.dialects.postgresql.asyncpg import dialect

    game = _advance().returning(games.c.id).cte("g")
    # the arrays cast in the statement, their parameters untyped: asyncpg takes a list as it
    # is (a typed ARRAY parameter would copy each list through SQLAlchemy first)
    arrays = [
        cast(bindparam(f"a_{column}"), postgresql.ARRAY(actions.c[column].type))
        for column in ACTION_COLUMNS
    ]
    given = func.unnest(*arrays).table_valued(*ACTION_COLUMNS).render_derived(name="a")
    rows = select(
        game.c.id,
        *(given.c[column] for column in ACTION_COLUMNS),
        _param("v_now", games.c.updated_at),
    ).select_from(game.join(given, true()))
    statement = insert(actions).from_select(["game_id", *ACTION_COLUMNS, "created_at"], rows)
    return _Statement(statement, dialect())  # type: ignore[no-untyped-call]


# ---------------------------------------------------------------------- PostgreSQL
class PgAppender(Appender):
    """Each append one statement through ``pool`` (an asyncpg pool the storage owns)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self._statement = _pg_statement()

    async def append(self, item: Append) -> None:
        import asyncpg

        if not item.rows:
            raise ValueError("an append stores at least one action")
        values = item.game_values()
        for k, column in enumerate(ACTION_COLUMNS):
            values[f"a_{column}"] = [row[k] for row in item.rows]
        statement = self._statement
        try:
            status = await self.pool.execute(statement.sql, *statement.positional(values))
        except asyncpg.UniqueViolationError:
            raise _already_stored(item) from None
        if status != f"INSERT 0 {len(item.rows)}":
            raise _moved_on(item)

    async def close(self) -> None:
        """Nothing of its own to let go of: the pool is the storage's."""


def _moved_on(item: Append) -> Conflict:
    return Conflict(f"game {item.game_id} is no longer at ply {item.expected_ply}")


def _already_stored(item: Append) -> Conflict:
    return Conflict(f"ply {item.expected_ply} of game {item.game_id} is already stored")


# ---------------------------------------------------------------------- SQLite
class SqliteAppender(Appender):
    #: appends stored between two checkpoints of the write-ahead log (SQLite's own default
    #: checkpoints every 1,000 pages; an append writes two to four)
    CHECKPOINT_EVERY = 300

    def __init__(self, url: str, lock: asyncio.Lock) -> None:
        """``url``: the SQLite file's SQLAlchemy URL (opened with the arguments SQLAlchemy's
        own connections are opened with); ``lock``: the storage's one-writer lock."""
        parsed = make_url(url)
        if (
            not parsed.database
            or parsed.database == ":memory:"
            or "memory" in str(parsed.query.get("mode", ""))
        ):
            raise ValueError(
                f"the SQLite database {url!r} is in memory: the site's connections cannot share"
                " it, give a file (sqlite+aiosqlite:///path/to/senet.sqlite3)"
            )
        args, kwargs = parsed.get_dialect()().create_connect_args(parsed)
        self._connect_args: tuple[list[Any], dict[str, Any]] = (list(args), dict(kwargs))
        self.lock = lock
        self._advance, self._insert = _sqlite_statements()
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="senet-sqlite-checkpoint")
        self._conn: sqlite3.Connection | None = None
        self._checkpoint_conn: sqlite3.Connection | None = None
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Future[None] | None = None

    async def append(self, item: Append) -> None:
        """Store ``item`` with whatever else is waiting; :class:`Conflict` if it cannot be."""
        if not item.rows:
            raise ValueError("an append stores at least one action")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((item, future))
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(self._flush())
        await future

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            async with self.lock:
                batch, self._waiting = self._waiting, []
                try:
                    outcomes = self._write([item for item, _ in batch])
                except BaseException as exc:  # the whole batch failed (and was rolled back)
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    if isinstance(exc, Exception):
                        continue
                    raise
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if outcome is None:
                    future.set_result(None)
                else:
                    future.set_exception(outcome)
            self._since_checkpoint += len(batch)
            if self._since_checkpoint >= self.CHECKPOINT_EVERY and (
                self._checkpointing is None or self._checkpointing.done()
            ):
                self._since_checkpoint = 0
                self._checkpointing = loop.run_in_executor(self._thread, self._checkpoint)
                self._checkpointing.add_done_callback(_log_failure)

    # ------------------------------------------------------------------ writing
    def _open(self) -> sqlite3.Connection:
        args, kwargs = self._connect_args
        conn: sqlite3.Connection = sqlite3.connect(*args, **{**kwargs, "check_same_thread": False})
        return conn

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = self._open()
            conn.isolation_level = None  # transactions begun and ended here, explicitly
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=5000")
            conn.execute("PRAGMA wal_autocheckpoint=0")  # see _checkpoint
            self._conn = conn
        return self._conn

    def _checkpoint(self) -> None:
        """Copy what the log holds into the database file (in the checkpoint thread)."""
        if self._checkpoint_conn is None:
            conn = self._open()
            conn.isolation_level = None
            conn.execute("PRAGMA busy_timeout=5000")
            self._checkpoint_conn = conn
        self._checkpoint_conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def _write(self, batch: list[Append]) -> list[Exception | None]:
        conn = self._connection()
        outcomes: list[Exception | None] = []
        # A batch of one needs no savepoint: the transaction is its own (one statement less
        # each way; most batches are of one when the server is not busy).
        alone = len(batch) == 1
        conn.execute("BEGIN IMMEDIATE")
        try:
            for item in batch:
                outcomes.append(self._one(conn, item, savepoint=not alone))
            conn.execute("ROLLBACK" if alone and outcomes[0] is not None else "COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return outcomes

    def _one(
        self, conn: sqlite3.Connection, item: Append, savepoint: bool = True
    ) -> Exception | None:
        """Store one append; its Conflict if it cannot be (then its own changes are rolled
        back to its savepoint, or, without one, left for the caller to roll back)."""
        values = self._advance.named(item.game_values())
        stamp = values["v_now"]  # as the schema's DateTime stores it on SQLite
        if savepoint:
            conn.execute("SAVEPOINT one_append")
        try:
            cursor = conn.execute(self._advance.sql, values)
            if cursor.rowcount != 1:
                raise _moved_on(item)
            conn.executemany(self._insert.sql, [(item.game_id, *row, stamp) for row in item.rows])
        except (Conflict, sqlite3.IntegrityError) as exc:
            if savepoint:
                conn.execute("ROLLBACK TO one_append")
                conn.execute("RELEASE one_append")
            if isinstance(exc, Conflict):
                return exc
            return _already_stored(item)
        if savepoint:
            conn.execute("RELEASE one_append")
        return None

    async def close(self) -> None:
        if self._flushing is not None:
            await asyncio.gather(self._flushing, return_exceptions=True)
        if self._checkpointing is not None:
            await asyncio.gather(self._checkpointing, return_exceptions=True)

        def shut() -> None:
            if self._checkpoint_conn is not None:
                self._checkpoint_conn.close()
                self._checkpoint_conn = None

        await asyncio.get_running_loop().run_in_executor(self._thread, shut)
        self._thread.shutdown(wait=True)
        if self._conn is not None:
            self._conn.close()  # the log is checkpointed as the last connection closes
            self._conn = None


def _log_failure(future: asyncio.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a checkpoint of the SQLite log failed: %r", future.exception())
