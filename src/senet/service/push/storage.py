"""Durable storage of Web Push: the server's VAPID key pair, the players' subscriptions and the
notices sent (the tables of migration ``0006_push``).

* **The key pair** is one row, inserted by the first process that needs it; a process that
  loses the race reads the winner's (the primary key is fixed), so every process signs with
  the same key and the browsers' subscriptions, made against its public half, stay valid.
* **A subscription** belongs to a named player and to the device's session: the foreign keys
  delete it with either (signing out on the device, signing out everywhere, deleting the
  name).  It is keyed by the SHA-256 of its endpoint, which the push service made unique.
* **A notice** (a turn of a game, a challenge) is a row inserted once: of the processes that
  try to send it, the one whose insert succeeds sends it.  Rows older than any claim of their
  key can come are deleted (:meth:`PushStorage.prune_notices`).

Only this module writes these tables; :mod:`senet.service.push.notifications` decides what to write.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import (
    delete,
    func,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from senet.service.database.connections import StorageTables
from senet.service.database.rows import from_row
from senet.service.database.schema import push_keys as keys
from senet.service.database.schema import push_notices as notices
from senet.service.database.schema import push_subscriptions as subscriptions

__all__ = ["KeyPair", "PushStorage", "SubscriptionRow", "endpoint_hash"]

#: the one row of ``push_keys``
_KEY_ROW = 1


@dataclass(frozen=True)
class KeyPair:
    """The server's VAPID key pair (P-256), each half base64url without padding: the private
    scalar (32 bytes) and the public point, uncompressed (65 bytes: the browsers'
    ``applicationServerKey``)."""

    private_key: str
    public_key: str


@dataclass(frozen=True)
class SubscriptionRow:
    """One device's push subscription: where to send and the keys to encrypt with."""

    endpoint: str
    p256dh: str  # the device's public key (base64url, an uncompressed P-256 point)
    auth: str  # the device's authentication secret (base64url, 16 bytes)
    player_id: str
    lang: str
    created_at: datetime


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode()).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


class PushStorage(StorageTables):
    """The push tables on the database of a :class:`~senet.service.database.connections.Database`."""

    # ------------------------------------------------------------------ the key pair
    async def key_pair(self, make: Callable[[], KeyPair]) -> KeyPair:
        """The stored key pair; the first caller stores ``make()``'s (of racing processes one
        stores, the others read it)."""
        found = await self._read_keys()
        if found is not None:
            return found
        made = make()

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(
                insert(keys).values(
                    id=_KEY_ROW,
                    private_key=made.private_key,
                    public_key=made.public_key,
                    created_at=_now(),
                )
            )

        try:
            await self.write(work)
        except IntegrityError:
            pass  # another process stored its pair first: that one is the server's
        found = await self._read_keys()
        if found is None:
            raise RuntimeError("the server's key pair was stored and is not found")
        return found

    async def _read_keys(self) -> KeyPair | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(keys).where(keys.c.id == _KEY_ROW))).first()
            return from_row(KeyPair, row) if row is not None else None

    # ------------------------------------------------------------------ subscriptions
    async def subscribe(
        self,
        endpoint: str,
        p256dh: str,
        auth: str,
        player_id: str,
        session_hash: str,
        lang: str,
        keep: int,
    ) -> bool:
        """Store a device's subscription for the player, replacing the endpoint's earlier one
        if it was the player's own or carried the same keys (the same browser's subscription,
        whoever it was stored for); the player keeps their ``keep`` newest subscriptions.
        False, and nothing changed: the endpoint is another player's with other keys."""
        key = endpoint_hash(endpoint)

        async def work(conn: AsyncConnection) -> bool:
            held = (
                await conn.execute(
                    select(subscriptions.c.player_id, subscriptions.c.p256dh, subscriptions.c.auth)
                    .where(subscriptions.c.endpoint_hash == key)
                    .with_for_update()
                )
            ).first()
            if held is not None and held.player_id != player_id:
                same_keys = hmac.compare_digest(
                    f"{held.p256dh} {held.auth}".encode(), f"{p256dh} {auth}".encode()
                )
                if not same_keys:
                    return False
            await conn.execute(delete(subscriptions).where(subscriptions.c.endpoint_hash == key))
            await conn.execute(
                insert(subscriptions).values(
                    endpoint_hash=key,
                    endpoint=endpoint,
                    p256dh=p256dh,
                    auth=auth,
                    player_id=player_id,
                    session_hash=session_hash,
                    lang=lang,
                    created_at=_now(),
                )
            )
            newest = (
                select(subscriptions.c.endpoint_hash)
                .where(subscriptions.c.player_id == player_id)
                .order_by(subscriptions.c.created_at.desc(), subscriptions.c.endpoint_hash)
                .limit(keep)
            )
            kept = [r[0] for r in await conn.execute(newest)]
            await conn.execute(
                delete(subscriptions).where(
                    subscriptions.c.player_id == player_id,
                    subscriptions.c.endpoint_hash.not_in(kept),
                )
            )
            return True

        return bool(await self.write(work))

    async def unsubscribe(self, endpoint: str, player_id: str | None = None) -> bool:
        """Forget the subscription of ``endpoint`` (only if it is ``player_id``'s, when
        given); whether there was one."""

        async def work(conn: AsyncConnection) -> bool:
            query = delete(subscriptions).where(
                subscriptions.c.endpoint_hash == endpoint_hash(endpoint)
            )
            if player_id is not None:
                query = query.where(subscriptions.c.player_id == player_id)
            res = await conn.execute(query)
            return bool(res.rowcount)

        return bool(await self.write(work))

    async def subscriptions_of(self, player_id: str) -> list[SubscriptionRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(subscriptions)
                .where(subscriptions.c.player_id == player_id)
                .order_by(subscriptions.c.created_at)
            )
            return [from_row(SubscriptionRow, r) for r in rows]

    async def subscription(self, endpoint: str) -> SubscriptionRow | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(subscriptions).where(
                        subscriptions.c.endpoint_hash == endpoint_hash(endpoint)
                    )
                )
            ).first()
            return from_row(SubscriptionRow, row) if row is not None else None

    async def count(self) -> int:
        async with self.engine.connect() as conn:
            return int(
                (await conn.execute(select(func.count()).select_from(subscriptions))).one()[0]
            )

    # ------------------------------------------------------------------ notices
    async def claim_notice(self, key: str, now: datetime) -> bool:
        """Take the right to send the notice ``key`` (at ``now``, the server's clock): True
        once, whichever processes ask, as long as its row is kept (:meth:`prune_notices`)."""

        async def work(conn: AsyncConnection) -> None:
            await conn.execute(insert(notices).values(key=key, created_at=now))

        try:
            await self.write(work)
        except IntegrityError:
            return False
        return True

    async def prune_notices(self, before: datetime) -> int:
        """Forget the notices claimed before ``before``; how many."""

        async def work(conn: AsyncConnection) -> int:
            res = await conn.execute(delete(notices).where(notices.c.created_at < before))
            return int(res.rowcount)

        return int(await self.write(work))
