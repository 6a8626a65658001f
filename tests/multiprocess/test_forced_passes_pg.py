"""The forced-pass scenarios of tests/service/forced_passes.py on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from service import forced_passes

from .test_storage_pg import run


@pytest.mark.parametrize("scenario", forced_passes.SCENARIOS, ids=lambda s: s.__name__)
def test_on_postgresql(pg_url: str, scenario: Callable[[str], Awaitable[None]]) -> None:
    run(scenario(pg_url))
