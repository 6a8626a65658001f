"""Races at the end of a game and the listings, on SQLite (PostgreSQL: tests/multiprocess)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from . import ending_races
from .test_games_service import run


@pytest.mark.parametrize("race", ending_races.RACES, ids=lambda r: r.__name__)
def test_on_sqlite(tmp_path: Path, race: Callable[[str], Awaitable[None]]) -> None:
    run(race(f"sqlite+aiosqlite:///{tmp_path / 'races.sqlite3'}"))
