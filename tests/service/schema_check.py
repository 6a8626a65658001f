"""What the migrations make, compared with :mod:`senet.service.database.schema` by Alembic's own
comparison (``alembic.autogenerate.compare_metadata``, column types included), for
``test_schema.py`` (SQLite) and ``tests/multiprocess/test_schema_pg.py`` (PostgreSQL)."""

from __future__ import annotations

from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import MetaData

from senet.service.games.storage import Storage


async def differences(url: str, described: MetaData) -> list[Any]:
    """Upgrade the empty database at ``url`` to the head (as a server's start does), then what
    Alembic finds different between it and ``described``."""
    storage = Storage(url)
    await storage.init()
    try:

        def compare(conn: Any) -> list[Any]:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            return list(compare_metadata(context, described))

        assert storage.engine is not None
        async with storage.engine.connect() as conn:
            return await conn.run_sync(compare)
    finally:
        await storage.close()
