"""Forced passes played by the server, on SQLite (PostgreSQL: tests/multiprocess)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from . import forced_passes
from .test_games_service import run


@pytest.mark.parametrize("scenario", forced_passes.SCENARIOS, ids=lambda s: s.__name__)
def test_on_sqlite(tmp_path: Path, scenario: Callable[[str], Awaitable[None]]) -> None:
    run(scenario(f"sqlite+aiosqlite:///{tmp_path / 'passes.sqlite3'}"))
