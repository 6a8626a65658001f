"""Search in ``senet worker`` processes fed through the Redis job queue (RQ), with two server
processes on PostgreSQL: the computer's moves are searched there, a game's review is computed
once, stored, and read by the other process, a position's analysis is answered, and a worker
whose job's process is killed (SIGKILL) runs the job again.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from senet_testkit.loops import run as run_coroutine
from senet_testkit.servers import ROOT, RedisServer
from senet_testkit.wsbots import create_friend_game, play_game

from .conftest import SiteProcess
from .test_cluster import stored_actions


def _pg(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://")


class WorkerProcess:
    """One ``senet worker`` process on the job queue's Redis."""

    def __init__(self, redis_url: str, log: Path) -> None:
        self.redis_url = redis_url
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1", JOB_QUEUE_URL=self.redis_url)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "senet.cli", "worker"],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )

    def children(self) -> list[int]:
        """The worker's forked children: the process of the job it runs, if any."""
        assert self.process is not None
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


@pytest.fixture
def sites_and_worker(
    pg_url: str, redis: RedisServer, tmp_path: Path
) -> Iterator[tuple[list[SiteProcess], WorkerProcess]]:
    jobs_url = redis.url.rsplit("/", 1)[0] + "/1"
    sites = [SiteProcess(pg_url, redis.url, tmp_path, f"site{i}") for i in range(2)]
    for site in sites:
        site.env["JOB_QUEUE_URL"] = jobs_url
    worker = WorkerProcess(jobs_url, tmp_path / "worker.log")
    try:
        worker.start()
        for site in sites:
            site.start()
        yield sites, worker
    finally:
        for site in sites:
            site.stop()
        worker.stop()


async def until(condition, what: str, limit: float = 180.0) -> None:
    """Wait for an async ``condition`` (a bound against a hang, not a pause)."""
    deadline = time.monotonic() + limit
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.05)


async def review_rows(pg_url: str, game_id: str) -> int:
    conn = await asyncpg.connect(_pg(pg_url))
    try:
        return await conn.fetchval("SELECT count(*) FROM reviews WHERE game_id = $1", game_id)
    finally:
        await conn.close()


def test_workers_on_redis_play_the_computer_judge_positions_and_review_once(
    sites_and_worker, pg_url
) -> None:
    (a, b), worker = sites_and_worker

    async def run() -> None:
        async with httpx.AsyncClient(timeout=120) as http:
            # the computer's moves: searched by the worker, stored by a site
            r = await http.post(
                f"{a.url}/api/games",
                json={"variant": "standard", "mode": "computer", "colour": "B", "seed": "me"},
            )
            r.raise_for_status()
            game_id = r.json()["id"]

            async def computer_moved() -> bool:
                actions = await stored_actions(pg_url, game_id)
                return any(kind == "move" and seat == 0 for _, kind, seat, _ in actions)

            await until(computer_moved, "the computer's first move")

            # a position's analysis, through the other site
            fen = "standard ........../........../..AAB.B... A 3"
            r = await http.get(f"{b.url}/api/learn/analysis", params={"position": fen})
            assert r.status_code == 200, r.text
            assert r.json()["moves"]

            # a finished game's review: computed once, stored, read by the other process
            seats = await create_friend_game(http, a.url, b.url)
            bots = await play_game(seats, [[a.ws], [b.ws]], time.monotonic() + 120, seed=3)
            assert all(bot.outcome is not None for bot in bots)
            first = await http.get(f"{a.url}/api/games/{seats.game_id}/review")
            assert first.status_code == 200, first.text
            assert await review_rows(pg_url, seats.game_id) == 1
            page = await http.get(f"{b.url}/g/{seats.game_id}/review")
            assert page.status_code == 200 and 'id="review-wait"' not in page.text
            second = await http.get(f"{b.url}/api/games/{seats.game_id}/review")
            assert second.json() == first.json()
            assert await review_rows(pg_url, seats.game_id) == 1

    run_coroutine(run())


def test_a_job_whose_process_is_killed_runs_again_on_the_redis_queue(
    sites_and_worker, pg_url
) -> None:
    """The review of a long game (seconds of search) is asked for; the forked process running
    it is killed with SIGKILL: RQ's worker sees it die and runs the job once more; the review
    arrives and is stored once."""
    (a, b), worker = sites_and_worker

    async def run() -> None:
        async with httpx.AsyncClient(timeout=300) as http:
            seats = await create_friend_game(http, a.url, b.url, variant="adelaida-long")
            bots = await play_game(seats, [[a.ws], [b.ws]], time.monotonic() + 240, seed=5)
            assert all(bot.outcome is not None for bot in bots)
            asked = asyncio.create_task(http.get(f"{a.url}/api/games/{seats.game_id}/review"))

            async def running() -> bool:
                return bool(worker.children())

            await until(running, "the review runs in a forked process")
            [child] = worker.children()
            os.kill(child, signal.SIGKILL)
            answer = await asyncio.wait_for(asked, 600)
            assert answer.status_code == 200, answer.text
            assert await review_rows(pg_url, seats.game_id) == 1
        assert "terminated unexpectedly" in worker.log.read_text()

    run_coroutine(run())
