"""The ASGI application: FastAPI with pages, a REST API and a WebSocket per game.

``create_app(settings)`` wires the service layer (storage and broadcasting as the settings
say, see :mod:`senet.settings`) into the routes of :mod:`senet.web.routes.pages`, :mod:`senet.web.routes.api` and
:mod:`senet.web.live.connection`.  ``uvicorn senet.web.app:app`` serves it.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

from senet import __version__
from senet.service.errors import GameError
from senet.service.games import FairPlay, ManualClock, Storage, SystemClock
from senet.service.infrastructure import Busy, broadcast_from_url, job_queue
from senet.service.push import PushConfig
from senet.service.server import GameService
from senet.settings import Settings

from . import template_globals
from .common import error_json, game_error_json, lang_of, render
from .i18n import error_text, translator
from .live import connection as live
from .routes import (
    api,
    bots,
    challenges,
    exports,
    learn,
    lobby,
    metrics,
    pages,
    passkeys,
    players,
    push,
    stats,
)
from .security import SecurityMiddleware, redact_server_logs
from .waiting import ClientGone

__all__ = ["create_app", "commit_id"]

HERE = Path(__file__).parent


def commit_id(setting: str | None = None) -> str:
    """The commit being served: the setting ``SENET_COMMIT`` or ``git rev-parse``, else
    ``unknown``."""
    if setting:
        return setting[:12]
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The site, with ``settings`` (default: read from the environment, once, here)."""
    settings = Settings.from_env() if settings is None else settings
    # tests only: the server's clock moves only by POST /api/testing/clock
    clock: SystemClock = ManualClock() if settings.manual_clock else SystemClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_server_logs()  # after the server has configured its logging
        storage = Storage(settings.database_url, settings.db_pool)
        await storage.init()
        broadcast = broadcast_from_url(settings.broadcast_url)
        jobs = job_queue(settings.job_queue_url, settings.workers)
        service = GameService(
            storage,
            broadcast,
            computer_delay=settings.computer_delay,
            forced_pass_delay=settings.forced_pass_delay,
            cache_size=settings.game_cache,
            clock=clock,
            jobs=jobs,
            fair_play=FairPlay(
                abandon_after=round(settings.abandon_grace * 1000),
                listing_lifetime=round(settings.listing_lifetime * 1000),
                listing_cap=settings.listing_cap,
                seeding_deadline=round(settings.seeding_deadline * 1000),
                challenges_per_pair=settings.challenges_per_pair,
                challenges_received=settings.challenges_received,
                challenge_notify_interval=round(settings.challenge_notify_interval * 1000),
                names_per_window=settings.names_per_hour,
                unused_name_lifetime=round(settings.unused_name_days * 86_400_000),
            ),
            push=PushConfig(settings.push_services, settings.push_contact),
        )
        service.push.compose = push.notice_text
        app.state.storage, app.state.service = storage, service
        service.jobs.on_finished.append(measured.job_finished)
        measured.watch_collector()
        await service.start()
        try:
            yield
        finally:
            measured.unwatch_collector()
            feed = getattr(app.state, "lobby_feed", None)
            if feed is not None:
                await feed.close()
            await service.close()
            await broadcast.close()
            await storage.close()

    app = FastAPI(
        title="Senet",
        version=__version__,
        description="Play Senet: create games, read their state, play moves. Live play uses /ws/games/{id}.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI needs a CDN and inline scripts, which the CSP forbids
        openapi_url="/api/openapi.json",
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.commit = commit_id(settings.commit)
    app.state.templates = Jinja2Templates(directory=str(HERE / "templates"))
    version = static_version()
    template_globals.register(app.state.templates.env, version)
    # Versioned URLs never change content: cached for a year.  The plain ones are revalidated.
    app.mount(
        f"/static/v/{version}",
        CachedStaticFiles(
            directory=str(HERE / "static"), cache="public, max-age=31536000, immutable"
        ),
        name="static-versioned",
    )
    app.mount(
        "/static",
        CachedStaticFiles(directory=str(HERE / "static"), cache="no-cache"),
        name="static",
    )

    def error_page(request: Request, status: int, title: str, code: str, **params: Any) -> Any:
        """A refused page request: the error page, its title and the code's words from the
        catalog (the English message of an error is for programs)."""
        lang = lang_of(request)
        message = error_text(lang, code, **params)
        title = translator(lang)(title)
        return render(request, "error.html", status, title=title, message=message, code=code)

    @app.exception_handler(GameError)
    async def _game_error(request: Request, exc: GameError) -> Any:
        if request.url.path.startswith("/api/"):
            return game_error_json(exc)
        if isinstance(exc, Busy):
            page = error_page(request, 429, "error.title", exc.code, seconds=exc.retry_after)
            page.headers["Retry-After"] = str(exc.retry_after)
            return page
        return error_page(request, exc.status, "error.title", exc.code)

    @app.exception_handler(ClientGone)
    async def _gone(request: Request, exc: ClientGone) -> Any:
        return Response(status_code=499)  # nobody reads it: the client has hung up

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Any:
        parts = [
            "{}: {}".format(".".join(str(p) for p in e.get("loc", ())), e.get("msg", ""))
            for e in exc.errors()
        ]
        return error_json("bad_request", "; ".join(parts) or "invalid request", 400)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Any:
        if request.url.path.startswith("/api/") or exc.status_code not in (404, 405):
            if exc.status_code == 404:
                return error_json("not_found", str(exc.detail), 404)
            return error_json("http_error", str(exc.detail), exc.status_code)
        return error_page(request, exc.status_code, "error.not_found", "not_found")

    app.include_router(pages.router)
    app.include_router(stats.pages)
    app.include_router(exports.router)  # before api's /api/games/{game_id}
    app.include_router(api.router)
    app.include_router(live.router)
    app.include_router(learn.pages)
    app.include_router(learn.api)
    lobby.install(app)
    players.install(app, clock)
    challenges.install(app)
    bots.install(app)
    app.include_router(passkeys.router)
    push.install(app)
    if isinstance(clock, ManualClock):
        lobby.install_test_clock(app, clock)
    measured = metrics.install(app)
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # pages, scripts, JSON: not WebSockets
    app.add_middleware(SecurityMiddleware, limits=settings.rate_limits)
    return app


class CachedStaticFiles(StaticFiles):
    """Static files with one Cache-Control for the whole mount."""

    def __init__(self, *, directory: str, cache: str) -> None:
        super().__init__(directory=directory)
        self.cache = cache

    async def get_response(self, path: str, scope: Any) -> Any:
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            response.headers["Cache-Control"] = self.cache
        return response


def static_version() -> str:
    """A short hash of every static file: the version in the static URLs of this build (the
    same in every server process of one deployment, new whenever a file changes)."""
    digest = hashlib.sha256()
    for path in sorted((HERE / "static").rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(HERE).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def __getattr__(name: str) -> Any:  # ``uvicorn senet.web.app:app`` builds the app on first use
    if name == "app":
        return create_app()
    raise AttributeError(name)
