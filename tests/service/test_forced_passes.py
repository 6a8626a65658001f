"""Forced passes played by the server, on SQLite (PostgreSQL: tests/multiprocess)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace

import pytest

from senet.engine import Position, find_variant
from senet.service.games.steps import is_forced_pass
from senet.service.games.views import forced_pass_record

from . import forced_passes
from .test_games_service import run


@pytest.mark.parametrize("scenario", forced_passes.SCENARIOS, ids=lambda s: s.__name__)
def test_on_sqlite(tmp_path: Path, scenario: Callable[[str], Awaitable[None]]) -> None:
    run(scenario(f"sqlite+aiosqlite:///{tmp_path / 'passes.sqlite3'}"))


@pytest.mark.parametrize(
    ("fen", "expected"),
    [
        # adelaida: the throw of fate would carry B's piece from 26 onto its own piece on 29
        ("adelaida A........./........../.....B..B. B 3 pending=fate", (1, 3, "fate")),
        # kendall: A's only piece, on 27, leaves the board with a 4 only
        ("kendall .B......../........../......A... A 2", (0, 2, "no_move")),
    ],
)
def test_the_forced_pass_record_says_who_with_what_throw_and_why(fen, expected) -> None:
    position = Position.from_fen(fen)
    assert is_forced_pass(position)
    live = SimpleNamespace(position=position, forced_pass=True, ply=7)
    record = forced_pass_record(live, server_passes=True)  # type: ignore[arg-type]
    assert record == {"ply": 7, "seat": expected[0], "throw": expected[1], "reason": expected[2]}
    assert forced_pass_record(live, server_passes=False) is None  # type: ignore[arg-type]


def test_a_position_with_a_choice_or_a_throw_due_is_no_forced_pass() -> None:
    start = Position.initial(find_variant("standard"))
    assert not is_forced_pass(start)  # a throw is due: nobody decides
    assert not is_forced_pass(start.apply_throw(1))  # several moves to choose from


@pytest.mark.parametrize(
    ("fen", "reason", "throw"),
    [
        # the piece just entered on 1 cannot move with a 4: it goes back to the hand
        ("piccione AAAAB...../........../.......... A 4 direction=forward entered=yes", "stuck", 4),
        # the 2 left of a divided throw: 12-14 and 13 are taken, and the turn goes forward
        (
            "piccione ........../AABB....../.......... A 2 hand=3/3 direction=forward divided=yes",
            "rest",
            2,
        ),
        ("piccione ........../........../.......... A 3 hand=5/5", "no_move", 3),
    ],
)
def test_piccione_forced_passes_say_why(fen: str, reason: str, throw: int) -> None:
    """The forced-pass record names piccione's two reasons besides no move at all."""
    position = Position.from_fen(fen)
    assert [m.text() for m in position.legal_moves()] == ["pass"]
    live = SimpleNamespace(position=position, forced_pass=True, ply=9)
    record = forced_pass_record(live, True)  # type: ignore[arg-type]
    assert record == {"ply": 9, "seat": 0, "throw": throw, "reason": reason}
