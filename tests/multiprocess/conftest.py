"""Real PostgreSQL, real Redis and real ``senet serve`` processes for the multi-process tests.

Nothing is skipped: if a server cannot start, the fixture raises and the test fails.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from senet_testkit.servers import RedisServer, ServeProcess, postgres_server, redis_server


class SiteProcess(ServeProcess):
    """One ``senet serve`` process on PostgreSQL and Redis."""

    def __init__(self, database_url: str, broadcast_url: str, logdir: Path, name: str) -> None:
        super().__init__(
            logdir / f"{name}.log",
            ("--log-level", "warning"),
            {
                "SENET_COMPUTER_DELAY": "0.05",
                "SENET_FORCED_PASS_DELAY": "0.05",
                "SENET_RATE_LIMITS": "off",
                "DATABASE_URL": database_url,
                "BROADCAST_URL": broadcast_url,
            },
        )

    @property
    def ws(self) -> str:
        return self.ws_url


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
