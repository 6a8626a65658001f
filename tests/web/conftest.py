"""A real server for the web tests: ``senet serve`` in a subprocess on a free loopback port,
with its own SQLite file; it can be stopped and started again on the same port and file."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from senet_testkit.push_receiver import PushReceiver
from senet_testkit.servers import ROOT, ServeProcess, free_port

__all__ = ["SiteServer", "free_port", "ROOT", "ARTIFACTS"]

ARTIFACTS = ROOT / "test-artifacts"
#: how long a test waits for an answer a worker computes (analysis, hints): a worker's first job
#: waits for its warm-up (compiling, loading tables), 52 s once on a loaded machine
SEARCH_WAIT = 180.0


class SiteServer(ServeProcess):
    """The site on its own SQLite file (the log beside it), with the embedded broadcasting."""

    def __init__(
        self,
        db: Path,
        port: int | None = None,
        computer_delay: float = 0.05,
        forced_pass_delay: float = 0.05,
    ) -> None:
        super().__init__(
            db.with_suffix(".log"),
            ("--database-url", f"sqlite+aiosqlite:///{db}", "--log-level", "info"),
            {
                "SENET_COMPUTER_DELAY": str(computer_delay),
                "SENET_FORCED_PASS_DELAY": str(forced_pass_delay),
                "DATABASE_URL": None,
            },
            port,
        )
        self.db = db

    def actions_count(self, game_id: str) -> int:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(
                "SELECT count(*) FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()[0]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteServer]:
    server = SiteServer(tmp_path_factory.mktemp("site") / "senet.sqlite3")
    server.start()
    yield server
    server.stop()


@pytest.fixture
def own_site(tmp_path: Path) -> Iterator[SiteServer]:
    """A server of the test's own, which the test may restart."""
    server = SiteServer(tmp_path / "senet.sqlite3")
    server.start()
    yield server
    server.stop()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def require_chromium(path: str = CHROMIUM, env: Mapping[str, str] = os.environ) -> None:
    """Skip a browser test where Chromium is missing on a developer's machine; fail it in CI
    (``CI`` set to true, as CI services do), where a skipped browser test would hide a broken
    set-up behind a green run."""
    if Path(path).exists():
        return
    message = f"Debian's chromium is not installed at {path} (apt-get install chromium)"
    if env.get("CI", "").lower() in ("true", "1", "yes"):
        pytest.fail(f"{message}; CI runs every browser test", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def pages_closed_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Closes every page a test opened in the session's browser when the test ends.  A page left
    open keeps its scripts running (the turn poll, live connections, animations) in a renderer
    process of its own for the rest of the worker's run: left alone they added up to over a
    hundred renderers a worker, most of a core between them."""
    yield
    if "browser" in request.fixturenames:
        chromium = request.getfixturevalue("browser")
        for context in list(chromium.contexts):
            context.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="module")
def receiver() -> Iterator[PushReceiver]:
    """A local push service (RFC 8030/8291) that records and decrypts what it is sent."""
    with PushReceiver() as running:
        yield running


@pytest.fixture(scope="module")
def push_site(tmp_path_factory: pytest.TempPathFactory, receiver: PushReceiver):
    """A site of its own that accepts the local push service's endpoints."""
    server = SiteServer(tmp_path_factory.mktemp("push") / "senet.sqlite3")
    server.env["SENET_PUSH_SERVICES"] = receiver.origin
    server.start()
    yield server
    server.stop()
