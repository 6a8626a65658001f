"""The computer players' one adapter: failures are logged, never swallowed, and a missing AI
stops the site from starting instead of quietly offering weaker players."""

from __future__ import annotations

import logging
import random
import sys
import types
from pathlib import Path

import pytest

from senet.engine import Position, find_variant
from senet.service import computer
from senet.service.games.storage import Storage
from senet.service.infrastructure.broadcast import MemoryBroadcast
from senet.service.server import GameService

from .test_games_service import run

POSITION = Position.initial(find_variant("standard")).apply_throw(3)


def fake_ai(monkeypatch: pytest.MonkeyPatch, choose) -> None:
    fake = types.ModuleType("senet.ai")
    fake.LEVELS = ("novice", "master")  # type: ignore[attr-defined]
    fake.choose_move = choose  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "senet.ai", fake)


def test_a_level_that_raises_is_logged_and_the_fallback_plays(monkeypatch, caplog) -> None:
    def broken(position, level, rng):
        raise ZeroDivisionError("a bug in the search")

    fake_ai(monkeypatch, broken)
    with caplog.at_level(logging.WARNING, logger="senet.computer"):
        move = computer.choose_move(POSITION, "master", random.Random(1), computer.greedy_player)
    assert move == computer.greedy_player(POSITION, random.Random(1))
    failed = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert (
        failed
        and "ZeroDivisionError" in failed[0].exc_text
        and POSITION.fen() in (failed[0].getMessage())
    )
    assert any("greedy_player plays instead" in r.getMessage() for r in caplog.records)
    with pytest.raises(computer.ComputerFailed, match="failed in"):
        computer.choose_move(POSITION, "master", random.Random(1))  # no fallback: raised


def test_an_illegal_move_is_logged_and_never_played(monkeypatch, caplog) -> None:
    fake_ai(monkeypatch, lambda position, level, rng: "1-30")
    with caplog.at_level(logging.ERROR, logger="senet.computer"):
        with pytest.raises(computer.ComputerFailed, match="illegal move 1-30"):
            computer.choose_move(POSITION, "novice", random.Random(1))
    assert "illegal move 1-30" in caplog.records[0].getMessage()


def test_a_level_is_chosen_by_key_and_an_unknown_one_plays_the_default(monkeypatch) -> None:
    asked = []

    def choose(position, level, rng):
        asked.append(level)
        return position.legal_moves()[0]

    fake_ai(monkeypatch, choose)
    assert computer.levels() == ("novice", "master") and computer.default_level() == "master"
    computer.choose_move(POSITION, "novice", random.Random(1))
    computer.choose_move(POSITION, "a level of an older version", random.Random(1))
    assert asked == ["novice", "master"]
    assert computer.choose_move(POSITION, "greedy", random.Random(1)) == (
        computer.greedy_player(POSITION, random.Random(1))
    )


def test_the_site_does_not_start_without_its_ai(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "senet.ai", None)  # "import senet.ai" raises ImportError

    async def main() -> None:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        service = GameService(storage, MemoryBroadcast())
        try:
            with pytest.raises(computer.AIUnavailable, match="cannot be imported"):
                await service.start()
        finally:
            await service.close()
            await storage.close()

    run(main())
    with pytest.raises(computer.AIUnavailable):
        computer.level_options("en")


def test_the_levels_warm_up_in_the_background_and_a_failure_is_logged(monkeypatch, caplog) -> None:
    fake_ai(monkeypatch, lambda position, level, rng: position.legal_moves()[0])
    assert computer.warm_up() is None  # an AI without a warm-up: nothing to do
    loaded = []
    sys.modules["senet.ai"].warm_up = lambda: loaded.append(True)  # type: ignore[attr-defined]
    thread = computer.warm_up()
    assert thread is not None and thread.daemon
    thread.join(timeout=10)
    assert loaded == [True]

    def broken() -> None:
        raise OSError("no cache directory")

    sys.modules["senet.ai"].warm_up = broken  # type: ignore[attr-defined]
    with caplog.at_level(logging.ERROR, logger="senet.computer"):
        thread = computer.warm_up()
        assert thread is not None
        thread.join(timeout=10)
    assert any("warming up" in r.getMessage() and "OSError" in r.exc_text for r in caplog.records)


def test_the_real_levels_warm_up_the_rollout_code() -> None:
    import senet.ai

    senet.ai.warm_up()  # loads (or compiles) the compiled rollouts of every variant that uses them
    thread = computer.warm_up()
    assert thread is not None
    thread.join(timeout=120)
    assert not thread.is_alive()
