"""Alembic environment: async-aware, the URL from the app's configuration.

Called two ways: by :mod:`senet.service.games.storage` with an open (sync-facing) connection in
``config.attributes["connection"]``, or standalone (``alembic -c .../alembic.ini upgrade head``)
when it opens its own async engine on ``DATABASE_URL`` (or ``sqlalchemy.url``).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from senet.service.database.schema import metadata
from senet.settings import Settings

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,  # the one description the migrations are checked against
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(url: str) -> None:
    engine = create_async_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_run)
    finally:
        await engine.dispose()


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or Settings.from_env().database_url
    if context.is_offline_mode():
        context.configure(url=url, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    asyncio.run(_run_async(url))


run()
