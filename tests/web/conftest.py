"""A real server for the web tests: ``senet serve`` in a subprocess on a free loopback port,
with its own SQLite file; it can be stopped and started again on the same port and file."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import httpx
import pytest



def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


class SiteServer:
    def __init__(self, db: Path, port: int | None = None, computer_delay: float = 0.05) -> None:
        self.db = db
        self.port = port or free_port()
        self.computer_delay = computer_delay
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, SENET_COMPUTER_DELAY=str(self.computer_delay), PYTHONUNBUFFERED="1")
        env.pop("DATABASE_URL", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "senet.cli", "serve", "--port", str(self.port),
             "--database-url", f"sqlite+aiosqlite:///{self.db}", "--log-level", "info"],
            cwd=ROOT, env=env, stdout=self.log.open("a"), stderr=subprocess.STDOUT, text=True,
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
        raise RuntimeError("server did not start in 30 s")

    @property
    def log(self) -> Path:
        return self.db.with_suffix(".log")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def actions_count(self, game_id: str) -> int:
        with sqlite3.connect(self.db) as conn:
            return conn.execute("SELECT count(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0]


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
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]  # fmt: skip


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
