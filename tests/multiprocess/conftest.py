"""Real PostgreSQL, real Redis and real ``senet serve`` processes for the multi-process tests.

Nothing is skipped: if a server cannot start, the fixture raises and the test fails.

The processes are started once for the package (in each pytest-xdist worker that runs its
tests), not for each test: starting three servers costs about 15 CPU-seconds, more than most of
the tests that use them.  The tests that share them play fresh games (new ids, new players) and
never stop, kill or restart a process, Redis or PostgreSQL; a test that does has processes of
its own (``own_cluster``, or :class:`SiteProcess` started in the test).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def started(procs: list[SiteProcess]) -> Iterator[list[SiteProcess]]:
    try:
        for p in procs:
            p.start()
        yield procs
    finally:
        for p in procs:
            p.stop()


@pytest.fixture(scope="package")
def cluster(
    pg_url: str, redis: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[SiteProcess]]:
    """Three server processes on the same PostgreSQL database and Redis, shared by the tests
    of the package (see the module's doc)."""
    logs = tmp_path_factory.mktemp("cluster")
    with started([SiteProcess(pg_url, redis.url, logs, f"site{i}") for i in range(3)]) as procs:
        yield procs


@pytest.fixture
def own_redis() -> Iterator[RedisServer]:
    """A Redis of the test's own, for a test that stops and restarts it: the shared processes
    stay on ``redis``, which is never stopped."""
    with redis_server() as server:
        yield server


@pytest.fixture
def own_cluster(pg_url: str, own_redis: RedisServer, tmp_path: Path) -> Iterator[list[SiteProcess]]:
    """Three server processes of the test's own on ``own_redis``, for a test that disturbs
    them."""
    procs = [SiteProcess(pg_url, own_redis.url, tmp_path, f"site{i}") for i in range(3)]
    with started(procs):
        yield procs


@pytest.fixture(scope="package")
def clocked_pair(
    pg_url: str, redis: RedisServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[SiteProcess]]:
    """Two processes whose clocks move only when a test says, shared by the tests of the
    package: each test plays games of its own, created at the clock's time when it starts, so
    what an earlier test moved the clock by changes nothing for it."""
    logs = tmp_path_factory.mktemp("clocked")
    procs = [SiteProcess(pg_url, redis.url, logs, f"clocked{i}") for i in range(2)]
    for p in procs:
        p.env["SENET_MANUAL_CLOCK"] = "1"
    with started(procs):
        yield procs
