"""Real PostgreSQL and Redis servers for tests, started on free loopback ports and stopped after.

PostgreSQL refuses to run as root, so as root the data directory is handed to the ``postgres``
user and the server is started through ``runuser``.  Nothing here is mocked: the tests that use
these fixtures talk to the real servers over TCP.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["free_port", "postgres_server", "redis_server", "pg_binary", "ServeProcess", "ROOT"]

ROOT = Path(__file__).resolve().parents[2]
#: How long a site process may take to answer /healthz: a bound, not a pause (the wait ends
#: as soon as it answers); generous, because a shared machine under load starts it slowly.
START_TIMEOUT = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def pg_binary(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if candidates:
        return candidates[-1]
    raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")


def _as_postgres(args: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


@contextmanager
def postgres_server() -> Iterator[str]:
    """Yield a SQLAlchemy URL (asyncpg) of a fresh PostgreSQL server with database ``senet``."""
    root = Path(tempfile.mkdtemp(prefix="senet-pg-"))
    data = root / "data"
    port = free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    subprocess.run(
        _as_postgres(
            [pg_binary("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
        ),
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    )
    subprocess.run(
        _as_postgres(
            [
                pg_binary("pg_ctl"),
                "-D",
                str(data),
                "-o",
                options,
                "-l",
                str(root / "log"),
                "-w",
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            _as_postgres(
                [
                    pg_binary("createdb"),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    str(port),
                    "-U",
                    "postgres",
                    "senet",
                ]
            ),
            check=True,
            capture_output=True,
        )
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/senet"
    finally:
        subprocess.run(
            _as_postgres([pg_binary("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


class RedisServer:
    """A redis-server process that a test may stop and start again on the same port."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


class ServeProcess:
    """One real ``senet serve`` process on a free loopback port, started and waited for on
    ``/healthz``; it can be stopped, killed (SIGKILL, as in a crash) and started again on the
    same port.  ``args`` are extra command-line options; ``env`` is added to (or, with None
    values, removed from) this process's environment."""

    def __init__(
        self,
        log: Path,
        args: tuple[str, ...] = (),
        env: dict[str, str | None] | None = None,
        port: int | None = None,
        fd_limit: int | None = None,
    ) -> None:
        self.fd_limit = fd_limit  # the process's limit of open files (RLIMIT_NOFILE), if set
        self.log = log
        self.args = args
        self.env = env or {}
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        import httpx

        env = dict(os.environ, PYTHONUNBUFFERED="1")
        for key, value in self.env.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        self.process = subprocess.Popen(
            [sys.executable, "-m", "senet.cli", "serve", "--port", str(self.port), *self.args],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
            preexec_fn=self._limit_files if self.fd_limit else None,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()  # a fixture that fails here is never torn down: the process must not outlive it
        raise RuntimeError(f"server did not start in {START_TIMEOUT:.0f} s: {self.log.read_text()}")

    def _limit_files(self) -> None:
        import resource

        assert self.fd_limit is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.fd_limit, self.fd_limit))

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
