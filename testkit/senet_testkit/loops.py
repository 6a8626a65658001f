"""``asyncio.run`` for tests that may share their thread with a browser."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["run"]

T = TypeVar("T")


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to its end in a thread of its own and return its result.

    Playwright's sync API keeps an event loop running in the thread that opened the browser:
    once a browser test has run in a test process (the session's browser stays open), a plain
    ``asyncio.run`` in that thread refuses to start.  Which tests share a process depends on
    the order and on how the parallel run hands out the files, so every test that runs a
    coroutine goes through here; a fresh thread has no loop."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-asyncio") as pool:
        return pool.submit(asyncio.run, coroutine).result()
