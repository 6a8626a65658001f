"""Real PostgreSQL, real Redis and real ``senet serve`` processes for the multi-process tests.

Nothing is skipped: if a server cannot start, the fixture raises and the test fails.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest

from support.servers import RedisServer, free_port, postgres_server, redis_server

ROOT = Path(__file__).resolve().parents[2]


class SiteProcess:
    """One ``senet serve`` process on PostgreSQL and Redis."""

    def __init__(self, database_url: str, broadcast_url: str, logdir: Path, name: str) -> None:
        self.database_url = database_url
        self.broadcast_url = broadcast_url
        self.port = free_port()
        self.log = logdir / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, SENET_COMPUTER_DELAY="0.05", PYTHONUNBUFFERED="1", SENET_RATE_LIMITS="off",
                   DATABASE_URL=self.database_url, BROADCAST_URL=self.broadcast_url)  # fmt: skip
        self.process = subprocess.Popen(
            [sys.executable, "-m", "senet.cli", "serve", "--port", str(self.port), "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=self.log.open("ab"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start in 30 s: {self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no cleanup, as in a crash."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


@pytest.fixture(scope="package")
def pg_url() -> Iterator[str]:
    with postgres_server() as url:
        yield url


@pytest.fixture(scope="package")
def redis() -> Iterator[RedisServer]:
    with redis_server() as server:
        yield server


@pytest.fixture
def cluster(pg_url: str, redis: RedisServer, tmp_path: Path) -> Iterator[list[SiteProcess]]:
    """Three server processes on the same PostgreSQL database and Redis."""
    procs = [SiteProcess(pg_url, redis.url, tmp_path, f"site{i}") for i in range(3)]
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()
