"""The embedded default's one writer: appends of actions to a SQLite file, batched.

SQLite lets one connection write at a time, and through SQLAlchemy and aiosqlite an append is
five round trips to the driver's thread (BEGIN, UPDATE, INSERT, COMMIT and the pool), each
waiting for that thread to be scheduled: on a busy machine a few hundred moves a second queued
behind one another.  Here one ``sqlite3`` connection stores every append waiting at the moment
in one ``BEGIN IMMEDIATE`` ... ``COMMIT``; each append of a batch of several has a SAVEPOINT of
its own, so one that conflicts (the game moved on: its expected ply is gone) is rolled back
alone and the others are stored.  The caller's :class:`asyncio.Lock` (the storage's one-writer
lock) is held around each batch, so these transactions never wait on another connection's
write lock.

The batch is written in the event loop's own thread: in write-ahead-log mode with
``synchronous=NORMAL`` a commit appends a few pages to the log and syncs nothing, some tens of
microseconds, where handing it to a thread and back cost several times that in CPU (waking the
thread, the interpreter lock going back and forth).  What may take long, copying the log into
the database file and syncing it (a checkpoint), is never done by a commit here
(``wal_autocheckpoint`` off on this connection): every :attr:`SqliteAppender.CHECKPOINT_EVERY`
appends a passive checkpoint runs in a thread of its own, on its own connection, which waits
for no writer and blocks none.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from typing import Any

__all__ = ["SqliteAppender", "Append", "Conflict"]

log = logging.getLogger("senet.storage")

#: how SQLAlchemy stores a DateTime on SQLite (read back by it)
_STAMP = "%Y-%m-%d %H:%M:%S.%f"
#: the columns of ``games`` an append may set
_COLUMNS = (
    "ply",
    "updated_at",
    "result",
    "reason",
    "score_a",
    "score_b",
    "player_seeds",
    "termination",
    "listed",
    "clock_a",
    "clock_b",
    "clock_seat",
    "deadline",
)


@dataclass
class Append:
    game_id: str
    expected_ply: int
    values: dict[str, Any]  # columns of the game row to set (keys from _COLUMNS)
    rows: Sequence[tuple[Any, ...]]  # (ply, kind, seat, notation, pattern) of each action
    now: datetime


class Conflict(Exception):
    """The game is not at the expected ply, or that ply is stored already."""


class SqliteAppender:
    #: appends stored between two checkpoints of the write-ahead log (SQLite's own default
    #: checkpoints every 1,000 pages; an append writes two to four)
    CHECKPOINT_EVERY = 300

    def __init__(self, path: str, lock: asyncio.Lock) -> None:
        self.path = path
        self.lock = lock
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="senet-sqlite-checkpoint")
        self._conn: sqlite3.Connection | None = None
        self._checkpoint_conn: sqlite3.Connection | None = None
        self._waiting: list[tuple[Append, asyncio.Future[None]]] = []
        self._flushing: asyncio.Task[None] | None = None
        self._since_checkpoint = 0
        self._checkpointing: asyncio.Future[None] | None = None

    async def append(self, item: Append) -> None:
        """Store ``item`` with whatever else is waiting; :class:`Conflict` if it cannot be."""
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
    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
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
            conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
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

    @staticmethod
    def _one(conn: sqlite3.Connection, item: Append, savepoint: bool = True) -> Exception | None:
        """Store one append; its Conflict if it cannot be (then its own changes are rolled
        back to its savepoint, or, without one, left for the caller to roll back)."""
        stamp = item.now.strftime(_STAMP)
        values = {k: v for k, v in item.values.items() if k in _COLUMNS}
        values["updated_at"] = stamp
        assignments = ", ".join(f"{column} = ?" for column in values)
        if savepoint:
            conn.execute("SAVEPOINT one_append")
        try:
            cursor = conn.execute(
                f"UPDATE games SET {assignments} WHERE id = ? AND ply = ?",
                (*values.values(), item.game_id, item.expected_ply),
            )
            if cursor.rowcount != 1:
                raise Conflict(f"game {item.game_id} is no longer at ply {item.expected_ply}")
            conn.executemany(
                "INSERT INTO actions (game_id, ply, kind, seat, notation, pattern, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(item.game_id, *row, stamp) for row in item.rows],
            )
        except (Conflict, sqlite3.IntegrityError) as exc:
            if savepoint:
                conn.execute("ROLLBACK TO one_append")
                conn.execute("RELEASE one_append")
            if isinstance(exc, Conflict):
                return exc
            return Conflict(f"ply {item.expected_ply} of game {item.game_id} is already stored")
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
