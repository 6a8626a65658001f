"""The griefer's tries of tests/service/fair_play_scenarios.py on SQLite (PostgreSQL:
tests/multiprocess)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from . import fair_play_scenarios
from .test_games_service import run


@pytest.mark.parametrize("scenario", fair_play_scenarios.SCENARIOS, ids=lambda s: s.__name__)
def test_on_sqlite(tmp_path: Path, scenario: Callable[[str], Awaitable[None]]) -> None:
    run(scenario(f"sqlite+aiosqlite:///{tmp_path / 'fair.sqlite3'}"))
