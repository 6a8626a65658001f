"""Real PostgreSQL and Redis servers for tests, started on free loopback ports and stopped after.

PostgreSQL refuses to run as root, so as root the data directory is handed to the ``postgres``
user and the server is started through ``runuser``.  Nothing here is mocked: the tests that use
these fixtures talk to the real servers over TCP.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["free_port", "postgres_server", "redis_server", "pg_binary"]


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
    subprocess.run(_as_postgres([pg_binary("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
                   check=True, capture_output=True)  # fmt: skip
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    subprocess.run(_as_postgres([pg_binary("pg_ctl"), "-D", str(data), "-o", options, "-l", str(root / "log"), "-w", "start"]),
                   check=True, capture_output=True)  # fmt: skip
    try:
        subprocess.run(_as_postgres([pg_binary("createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "senet"]),
                       check=True, capture_output=True)  # fmt: skip
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/senet"
    finally:
        subprocess.run(_as_postgres([pg_binary("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]), capture_output=True)
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
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
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
