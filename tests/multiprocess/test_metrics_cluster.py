"""The operator's view of two processes on PostgreSQL and Redis: after a game played across
them (and its review computed by a worker), each process's ``/metrics`` shows every figure,
its own; ``/metrics`` needs the bearer token; ``/readyz`` answers 503 naming Redis while Redis
is stopped, and 200 once it is back."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from senet_testkit.loops import run as run_coroutine
from senet_testkit.servers import ROOT, RedisServer
from senet_testkit.wsbots import create_friend_game, play_game

from .conftest import SiteProcess

TOKEN = "metrics-token-for-the-test"


def scraped(url: str) -> dict[str, list]:
    """The samples of ``url``'s /metrics, by metric family name."""
    answer = httpx.get(f"{url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {f.name: f.samples for f in text_string_to_metric_families(answer.text)}


def value(samples: list, name: str, **labels: str) -> float:
    return sum(
        s.value
        for s in samples
        if s.name == name and all(s.labels.get(k) == v for k, v in labels.items())
    )


def wait_for(check, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"waited {timeout:.0f} s for {what}"
        time.sleep(0.05)


def test_each_process_shows_its_metrics_and_readiness_follows_redis(
    pg_url: str, own_redis: RedisServer, tmp_path: Path
) -> None:
    procs = [SiteProcess(pg_url, own_redis.url, tmp_path, name) for name in ("a", "b")]
    for p in procs:
        p.env["SENET_METRICS_TOKEN"] = TOKEN
        p.start()
    a, b = procs
    try:

        async def game() -> str:
            async with httpx.AsyncClient(timeout=20) as http:
                seats = await create_friend_game(http, a.url, b.url)
            bots = await play_game(seats, [[a.ws], [b.ws]], time.monotonic() + 180, seed=3)
            assert all(bot.outcome is not None for bot in bots)
            return seats.game_id

        game_id = run_coroutine(game())
        review = httpx.get(f"{a.url}/api/games/{game_id}/review", timeout=300)
        assert review.status_code == 200, review.text[:200]
        httpx.get(f"{b.url}/g/{game_id}")
        for proc in procs:
            m = scraped(proc.url)
            requests = m["senet_http_request_duration_seconds"]
            assert (
                value(
                    requests,
                    "senet_http_request_duration_seconds_count",
                    route="/api/games/{game_id}",
                )
                >= 0
            )
            assert value(requests, "senet_http_request_duration_seconds_count") > 0
            assert value(m["senet_games_in_memory"], "senet_games_in_memory") >= 1
            assert (
                value(m["senet_actions_stored"], "senet_actions_stored_total") > 0
            )  # both seats moved here
            assert "senet_websocket_connections" in m
            assert "senet_gc_pause_seconds" in m and "senet_jobs_waiting" in m
            for family in (
                "senet_database_errors",
                "senet_redis_errors",
                "senet_push_sent",
                "senet_push_failed",
            ):
                assert family in m, family
        on_a = scraped(a.url)
        # routes by pattern, never by a game's id
        routes = {s.labels["route"] for s in on_a["senet_http_request_duration_seconds"]}
        assert "/api/games" in routes and not any(game_id in r for r in routes)
        assert "/api/games/{game_id}/review" in routes
        # the dashboard in deploy/ draws only figures a process shows
        shown = {s.name for samples in on_a.values() for s in samples}
        board = json.loads((ROOT / "deploy" / "grafana-dashboard.json").read_text())
        used = {
            name
            for p in board["panels"]
            for t in p["targets"]
            for name in re.findall(r"senet_\w+", t["expr"])
        }
        assert used and used <= shown, used - shown
        jobs = on_a["senet_job_duration_seconds"]
        assert value(jobs, "senet_job_duration_seconds_count", kind="review", outcome="done") >= 1
        # the token is needed, and a wrong one is refused
        assert httpx.get(f"{a.url}/metrics").status_code == 401
        wrong = httpx.get(
            f"{a.url}/metrics", headers={"Authorization": "Bearer not-the-token-at-all"}
        )
        assert wrong.status_code == 401
        # readiness follows Redis
        ready = {"ready": True, "database": "ok", "redis": "ok", "workers": "ok"}
        wait_for(lambda: httpx.get(f"{a.url}/readyz").json() == ready, "ready", timeout=300)
        own_redis.stop()
        wait_for(
            lambda: httpx.get(f"{a.url}/readyz", timeout=5).status_code == 503, "503 without Redis"
        )
        down = httpx.get(f"{a.url}/readyz", timeout=5).json()
        assert down["ready"] is False and down["redis"] != "ok" and down["database"] == "ok"
        own_redis.start()
        wait_for(
            lambda: httpx.get(f"{a.url}/readyz", timeout=5).status_code == 200,
            "200 with Redis back",
        )
        wait_for(
            lambda: value(scraped(a.url)["senet_redis_errors"], "senet_redis_errors_total") >= 1,
            "the lost connection counted",
        )
    finally:
        for p in procs:
            p.stop()
