"""The griefer's tries of tests/service/fair_play_scenarios.py on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from service import fair_play_scenarios

from .test_storage_pg import run


@pytest.mark.parametrize("scenario", fair_play_scenarios.SCENARIOS, ids=lambda s: s.__name__)
def test_on_postgresql(pg_url: str, scenario: Callable[[str], Awaitable[None]]) -> None:
    run(scenario(pg_url))
