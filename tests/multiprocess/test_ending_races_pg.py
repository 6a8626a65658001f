"""The races of tests/service/ending_races.py on a real PostgreSQL."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from service import ending_races

from .test_storage_pg import run


@pytest.mark.parametrize("race", ending_races.RACES, ids=lambda r: r.__name__)
def test_on_postgresql(pg_url: str, race: Callable[[str], Awaitable[None]]) -> None:
    run(race(pg_url))
