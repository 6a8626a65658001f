"""Clients of the bot API for the tests: a named player and its token made through the site's
own pages, a BOT account, and an NDJSON stream read line by line in a thread of its own."""

from __future__ import annotations

import itertools
import json
import re
import threading
from queue import Queue
from typing import Any

import httpx

__all__ = ["ALL_SCOPES", "Lines", "api", "bot", "device", "make_token", "named"]

ALL_SCOPES = ["bot:play", "challenge:read", "challenge:write"]
_numbers = itertools.count(1)


def device(base: str) -> httpx.Client:
    """A browser of its own (its own cookies and address)."""
    n = next(_numbers)
    return httpx.Client(
        base_url=base,
        headers={"X-Forwarded-For": f"10.7.{n // 250}.{n % 250 + 1}"},
        follow_redirects=False,
        timeout=30,
    )


def named(base: str, prefix: str) -> tuple[httpx.Client, str]:
    """A device signed in with a new name: (the device, the name)."""
    client = device(base)
    name = f"{prefix}{next(_numbers)}"
    assert client.post("/name", data={"name": name}).status_code == 303
    return client, name


def make_token(client: httpx.Client, scopes: list[str] = ALL_SCOPES) -> str:
    """A new token of the device's player, made on its profile page (shown once there)."""
    made = client.post("/account/tokens", data={"label": "my bot", "scope": scopes})
    assert made.status_code == 200, made.text
    assert made.headers["cache-control"] == "no-store"
    found = re.search(r'id="new-token" translate="no">(senet_[\w-]+)<', made.text)
    assert found, made.text
    return found.group(1)


def api(base: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=30)


def bot(base: str, prefix: str = "Bot") -> tuple[str, str]:
    """A new BOT account and a token with every scope: (name, token)."""
    client, name = named(base, prefix)
    token = make_token(client)
    upgraded = api(base, token).post("/api/bot/account/upgrade")
    assert upgraded.status_code == 200, upgraded.text
    return name, token


class Lines:
    """An NDJSON stream read in a thread of its own: its lines as they come (an empty line,
    the keep-alive, as ``{}``; the end of the stream as None)."""

    def __init__(self, base: str, token: str, path: str) -> None:
        self.queue: Queue[dict[str, Any] | None] = Queue()
        self.client = api(base, token)
        self.headers: httpx.Headers = httpx.Headers()
        status: Queue[int] = Queue()
        self.thread = threading.Thread(target=self._read, args=(path, status), daemon=True)
        self.thread.start()
        self.status_code = status.get(timeout=30)

    def _read(self, path: str, status: Queue[int]) -> None:
        try:
            with self.client.stream("GET", path, timeout=httpx.Timeout(30, read=None)) as r:
                self.headers = r.headers
                status.put(r.status_code)
                for line in r.iter_lines():
                    self.queue.put(json.loads(line) if line.strip() else {})
        except httpx.HTTPError:
            status.put(0)
        finally:
            self.queue.put(None)

    def next(self, timeout: float = 60) -> dict[str, Any] | None:
        """The next line that says something (keep-alive lines skipped); None at the end."""
        while True:
            line = self.queue.get(timeout=timeout)
            if line != {}:
                return line

    def until(self, check: Any, timeout: float = 60) -> dict[str, Any]:
        """The next line for which ``check`` is true (the stream must not end first)."""
        while True:
            line = self.next(timeout)
            assert line is not None, "the stream ended"
            if check(line):
                return line

    def close(self) -> None:
        self.client.close()
