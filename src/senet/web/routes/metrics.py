"""What an operator watches: ``GET /metrics`` in Prometheus's text format, and ``GET /readyz``.

Each server process has its own registry and answers for itself: Prometheus scrapes every
process on its own port (``127.0.0.1:8001``, ``:8002``, … beside nginx, which does not pass
``/metrics`` on: ``deploy/nginx.conf``).  ``/metrics`` answers only with the setting
``SENET_METRICS_TOKEN`` set, and only to ``Authorization: Bearer <token>`` (Prometheus's
``authorization`` scrape option); without the setting it is not there (404).

The figures, with where each comes from:

* ``senet_http_request_duration_seconds{method,route,status}``: every HTTP request, by its
  route's pattern (``/g/{game_id}``, not the game's id: a bounded set of series), measured
  here at the edge;
* ``senet_websocket_connections``: the WebSockets open now, counted here;
* ``senet_games_in_memory``, ``senet_actions_stored_total``: the store's cache and the actions
  it stored (:class:`~senet.service.games.live_games.GameStore`);
* ``senet_jobs_waiting{kind}``, ``senet_job_duration_seconds{kind,outcome}``: the search jobs
  asked and not yet answered, and each one's time from asked to answered, the wait for a
  worker included (:class:`~senet.service.infrastructure.jobs.JobQueue`);
* ``senet_gc_pause_seconds{generation}``: every pause of the cyclic garbage collector;
* ``senet_database_errors_total``, ``senet_redis_errors_total``: database errors that reached a
  request or a readiness check, and losses of the Redis connection;
* ``senet_push_sent_total``, ``senet_push_failed_total``: Web Push notices.

The service keeps plain counts; they are read when Prometheus scrapes, so the service layer
imports nothing of Prometheus.  ``/readyz`` asks the database (``SELECT 1``) and, with several
processes, Redis (``PING``), each within a second, and whether the search workers have warmed
up (compiled the computer's code): 200 when all hold, else 503 naming what did not — a load
balancer takes the process out of rotation meanwhile.
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import time
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from senet.service.server import GameService

from ..deps import Service, put_state, settings_of, state_of, state_or_none

__all__ = ["Metrics", "MetricsMiddleware", "install", "router"]

router = APIRouter()

#: a check of /readyz answers within this many seconds or counts as down
READY_TIMEOUT = 1.0
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class _ServiceCounts(Collector):
    """The service's own counts, read at each scrape."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def collect(self) -> Iterator[Metric]:
        service = state_or_none(self.app, "service", GameService)
        if service is None:  # before start-up or after shutdown
            return
        games = GaugeMetricFamily("senet_games_in_memory", "Games held in this process's memory")
        games.add_metric([], len(service.store))
        yield games
        stored = CounterMetricFamily("senet_actions_stored", "Actions stored by this process")
        stored.add_metric([], service.store.actions_stored)
        yield stored
        waiting = GaugeMetricFamily(
            "senet_jobs_waiting", "Search jobs asked and not yet answered", labels=["kind"]
        )
        for kind, count in sorted(service.jobs.unanswered.items()):
            waiting.add_metric([kind], count)
        yield waiting
        redis = CounterMetricFamily(
            "senet_redis_errors", "Losses of the connection to Redis (pub/sub)"
        )
        redis.add_metric([], getattr(service.broadcast, "errors", 0))
        yield redis
        sent = CounterMetricFamily("senet_push_sent", "Web Push notices accepted by a push service")
        sent.add_metric([], service.push.sent)
        yield sent
        failed = CounterMetricFamily("senet_push_failed", "Web Push notices not delivered")
        failed.add_metric([], service.push.failed)
        yield failed


class Metrics:
    """The metrics of one process (one registry, so tests' apps never share figures)."""

    def __init__(self, app: FastAPI) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Histogram(
            "senet_http_request_duration_seconds",
            "HTTP requests by route pattern, method and status class",
            ["method", "route", "status"],
            registry=self.registry,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
        )
        self.websockets = Gauge(
            "senet_websocket_connections", "WebSockets open now", registry=self.registry
        )
        self.jobs = Histogram(
            "senet_job_duration_seconds",
            "Search jobs from asked to answered (the wait for a worker included)",
            ["kind", "outcome"],
            registry=self.registry,
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0),
        )
        self.gc_pauses = Histogram(
            "senet_gc_pause_seconds",
            "Pauses of the cyclic garbage collector, by generation",
            ["generation"],
            registry=self.registry,
            buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
        )
        self.database_errors = Counter(
            "senet_database_errors",
            "Database errors that reached a request or a readiness check",
            registry=self.registry,
        )
        self.registry.register(_ServiceCounts(app))
        self._gc_started = 0.0

    def watch_collector(self) -> None:
        gc.callbacks.append(self._gc)

    def unwatch_collector(self) -> None:
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            pause = time.perf_counter() - self._gc_started
            self.gc_pauses.labels(str(info.get("generation", -1))).observe(pause)

    def job_finished(self, kind: str, seconds: float, outcome: str) -> None:
        self.jobs.labels(kind, outcome).observe(seconds)

    def text(self) -> bytes:
        return generate_latest(self.registry)


class MetricsMiddleware:
    """Times every HTTP request by its route's pattern and counts open WebSockets; a database
    error that escapes a handler is counted on its way out."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            self.metrics.websockets.inc()
            try:
                await self.app(scope, receive, send)
            finally:
                self.metrics.websockets.dec()
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500  # unless a response starts

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except SQLAlchemyError:
            self.metrics.database_errors.inc()
            raise
        finally:
            route = scope.get("route")
            pattern = getattr(route, "path", None) or "unmatched"
            self.metrics.requests.labels(scope["method"], pattern, f"{status // 100}xx").observe(
                time.perf_counter() - started
            )


def _metrics_of(request: Request) -> Metrics:
    return state_of(request, "metrics", Metrics)


@router.get("/metrics", include_in_schema=False)
async def metrics_text(request: Request) -> Response:
    token: str | None = settings_of(request).metrics_token
    given = request.headers.get("authorization", "")
    if not token:
        return Response("Not Found", status_code=404, media_type="text/plain")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return Response(
            "a bearer token is needed", status_code=401, headers={"WWW-Authenticate": "Bearer"}
        )
    return Response(_metrics_of(request).text(), media_type=CONTENT_TYPE)


async def _answers(check: Any) -> str | None:
    """None if ``check`` (a coroutine) answers within :data:`READY_TIMEOUT`, else why not."""
    try:
        await asyncio.wait_for(check, READY_TIMEOUT)
    except TimeoutError:
        return "no answer within a second"
    except Exception as exc:  # unreachable, refused, any driver's error: not ready
        return type(exc).__name__
    return None


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request, service: Service) -> Response:
    checks: dict[str, str | None] = {"database": await _answers(service.storage.ping())}
    if service.broadcast.shared:
        checks["redis"] = await _answers(service.broadcast.ping())
    # the search workers have loaded (compiled) the computer's code: until then a first move
    # would wait seconds for it
    checks["workers"] = None if service.jobs.ready() else "warming up"
    if checks["database"] is not None:
        _metrics_of(request).database_errors.inc()
    ready = all(v is None for v in checks.values())
    body = {name: "ok" if why is None else why for name, why in checks.items()}
    return JSONResponse({"ready": ready, **body}, status_code=200 if ready else 503)


def install(app: FastAPI) -> Metrics:
    """Metrics for ``app``: the routes, the middleware (outermost but for the security one, so
    refused requests are timed too) and the job listener, wired at start-up."""
    metrics = Metrics(app)
    put_state(app, "metrics", metrics)
    app.include_router(router)
    app.add_middleware(MetricsMiddleware, metrics=metrics)
    return metrics
