"""``senet serve``: run the site with its embedded defaults (SQLite file, in-process broadcast),
or on PostgreSQL and Redis (``DATABASE_URL``, ``BROADCAST_URL``) as one of several processes.
``senet migrate``: upgrade the database schema (``serve`` also does it on start).

Both read the settings (:class:`senet.settings.Settings`) once, from the environment, and let
the options override them (the database, the broadcast, and ``serve``'s connection guards)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from senet.settings import VARIABLES, SettingError, Settings

__all__ = ["serve", "migrate", "COMMANDS"]

#: The defaults the options name in their help (the settings own them).
_DEFAULTS = Settings()

F = TypeVar("F", bound=Callable[..., Any])


def _setting_option(field: str, text: str, kind: Any = None) -> Callable[[F], F]:
    """An option that overrides the setting ``field``; its help names the variable and the
    default (the settings own both)."""
    variable = next(v for v in VARIABLES if v.field == field)
    default = getattr(_DEFAULTS, field)
    shown = f"{default:g}" if isinstance(default, float) else default
    return click.option(
        "--" + field.replace("_", "-"),
        default=None,
        type=kind,
        help=f"{text} [default: {variable.name}, else {shown}].",
    )


_DATABASE_URL_OPTION = _setting_option("database_url", "SQLAlchemy URL")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=int, help="Port to listen on.")
@_DATABASE_URL_OPTION
@_setting_option("broadcast_url", "Broadcast URL")
@click.option("--log-level", default="info", show_default=True)
@_setting_option(
    "request_timeout",
    "Seconds a request's head and body may take to arrive; then the connection is closed",
    click.FloatRange(min=0),
)
@_setting_option(
    "idle_timeout", "Seconds an idle keep-alive connection is kept open", click.FloatRange(min=0)
)
@_setting_option(
    "connections_per_address",
    "Open connections (HTTP and WebSocket) one client address may hold; 0: no cap",
    click.IntRange(min=0),
)
@_setting_option(
    "forwarded_allow_ips",
    "Trusted proxies: their X-Forwarded-For/-Proto are believed, and their connections are "
    "not capped per address",
)
def serve(
    host: str,
    port: int,
    database_url: str | None,
    broadcast_url: str | None,
    log_level: str,
    request_timeout: float | None,
    idle_timeout: float | None,
    connections_per_address: int | None,
    forwarded_allow_ips: str | None,
) -> None:
    """Serve the Senet web site."""
    import uvicorn

    from .app import create_app
    from .connections import ConnectionLimits, guarded_protocols

    settings = _settings().but(
        database_url=database_url,
        broadcast_url=broadcast_url,
        request_timeout=request_timeout,
        idle_timeout=idle_timeout,
        connections_per_address=connections_per_address,
        forwarded_allow_ips=forwarded_allow_ips,
    )
    app = create_app(settings)
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]"}.get(host, f"[{host}]" if ":" in host else host)
    click.echo(
        f"Senet is served at http://{shown}:{port}/  (database: {settings.database_url})",
        err=False,
    )
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    _tune_gc(settings.gc_sweep)
    # WebSocket messages are compressed when the client offers it (browsers do):
    # permessage-deflate as uvicorn configures it, one zlib stream a connection (window 2^12,
    # memLevel 5: some 40 KB each).  Live play sends deltas of a few hundred bytes, which the
    # shared context shrinks about 7x for some 50 us of CPU each (bench/payload.py); full
    # states cost six times that, which is why it was off before deltas.
    # Slow clients are held off at the connection (senet.web.connections).
    http, ws = guarded_protocols(
        ConnectionLimits(
            settings.request_timeout,
            settings.idle_timeout,
            settings.connections_per_address,
            settings.forwarded_allow_ips,
        )
    )
    from uvicorn.config import LOGGING_CONFIG

    from .logs import log_config

    logging_setup = log_config(log_level) if settings.log_format == "json" else LOGGING_CONFIG
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=logging_setup,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=True,
        http=http,
        ws=ws,
        timeout_keep_alive=max(1, round(settings.idle_timeout)),
        proxy_headers=True,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )


def _tune_gc(sweep: float) -> None:
    """Short collector pauses with thousands of games in memory (:mod:`senet.web.collector`)."""
    from .collector import Collector, CollectorPolicy

    collector = Collector(CollectorPolicy(sweep=sweep))
    collector.install()
    collector.start()


@click.command()
@_DATABASE_URL_OPTION
@click.option(
    "--revision", default="head", show_default=True, help="Alembic revision to upgrade to."
)
def migrate(database_url: str | None, revision: str) -> None:
    """Create or upgrade the database schema (Alembic migrations shipped with the package)."""
    import asyncio

    from senet.service.database import Database, upgrade_schema

    settings = _settings().but(database_url=database_url)

    async def run() -> str:
        database = Database(settings.database_url, settings.db_pool)
        await database.init(migrate=False)
        try:
            if database.engine is None:
                raise RuntimeError("the database opened no database engine")
            await upgrade_schema(database.engine, revision)
        finally:
            await database.close()
        return database.url

    url = asyncio.run(run())
    click.echo(f"schema upgraded to {revision} ({url.split('@')[-1]})")


def _settings() -> Settings:
    try:
        return Settings.from_env()
    except SettingError as exc:
        raise click.ClickException(str(exc)) from None


COMMANDS = [serve, migrate]
