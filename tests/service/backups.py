"""The backup scenario, for SQLite (tests/service/test_backup.py) and PostgreSQL
(tests/multiprocess/test_backup_pg.py): a real ``senet serve`` plays games between WebSocket
bots; ``senet backup`` runs while moves are being stored; the backup is restored with
``senet restore`` into a fresh database and a fresh server started on it.  Then every action
that a player had been sent before the backup began (the server sends an action only once it
is stored) is in the restored game, in order; the games that were in progress go on to their
end on the restored server; and every finished game's record verifies (``senet verify``'s
check: each throw follows from the revealed seed)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from senet.service.fairness.verify import verify_text
from senet_testkit.loops import run as run_coroutine
from senet_testkit.servers import ServeProcess
from senet_testkit.wsbots import Bot, GameSeats, create_friend_game, game_bots, play_game

FINISHED_FIRST = 2  # games played to their end before the backup
IN_PROGRESS = 4  # games being played while it is made
FIELDS = ("ply", "kind", "seat", "text", "value")


def senet(*args: str, database_url: str) -> subprocess.CompletedProcess[str]:
    """``senet ARGS`` as an operator runs it, with the site's DATABASE_URL."""
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", *args],
        env=dict(os.environ, DATABASE_URL=database_url),
        capture_output=True,
        text=True,
        timeout=300,
    )


def server(database_url: str, log: Path) -> ServeProcess:
    return ServeProcess(
        log,
        ("--log-level", "warning"),
        {
            "DATABASE_URL": database_url,
            "SENET_RATE_LIMITS": "off",
            "SENET_FORCED_PASS_DELAY": "0.02",
        },
    )


def shown(event: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(event.get(k) for k in FIELDS)


async def until(condition: Callable[[], bool], what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"waited {timeout:.0f} s for {what}"
        await asyncio.sleep(0.02)


def backup_restore_and_play_on(source_url: str, target_url: str, folder: Path) -> None:
    """The whole scenario; fails on the first thing that does not hold."""
    backup_file = folder / "senet.backup"
    first = server(source_url, folder / "first.log")
    first.start()
    try:
        acknowledged, seats, report = run_coroutine(
            _play_and_back_up(first, source_url, backup_file)
        )
    finally:
        first.stop()
    assert backup_file.is_file() and "backed up to" in report, report
    # a backup is never written over an existing file
    again = senet("backup", str(backup_file), database_url=source_url)
    assert again.returncode != 0 and "exists already" in again.stderr
    restored = senet("restore", str(backup_file), database_url=target_url)
    assert restored.returncode == 0, restored.stderr
    # a database that holds games is not overwritten without --replace
    twice = senet("restore", str(backup_file), database_url=target_url)
    assert twice.returncode != 0 and "--replace" in twice.stderr
    second = server(target_url, folder / "second.log")
    second.start()
    try:
        run_coroutine(_check_restored(second, acknowledged, seats))
    finally:
        second.stop()


async def _play_and_back_up(
    site: ServeProcess, database_url: str, path: Path
) -> tuple[dict[str, list[tuple[Any, ...]]], list[GameSeats], str]:
    async with httpx.AsyncClient(timeout=20) as http:
        done = [await create_friend_game(http, site.url, site.url) for _ in range(FINISHED_FIRST)]
        going = [await create_friend_game(http, site.url, site.url) for _ in range(IN_PROGRESS)]
    end = time.monotonic() + 240
    finished = await asyncio.gather(
        *(play_game(s, [[site.ws_url], [site.ws_url]], end, seed=i) for i, s in enumerate(done))
    )
    assert all(b.outcome is not None for pair in finished for b in pair)
    pairs = [
        game_bots(s, [[site.ws_url], [site.ws_url]], 0.005, seed=9 + i) for i, s in enumerate(going)
    ]
    bots: list[Bot] = [b for pair in pairs for b in pair]
    playing = [asyncio.create_task(b.run(end)) for b in bots]
    seen = lambda: sum(len(b.events) for b in bots)  # noqa: E731
    await until(lambda: seen() >= 40 * IN_PROGRESS, "moves before the backup")
    acknowledged: dict[str, list[tuple[Any, ...]]] = {}
    for s, pair in zip(done, finished):
        acknowledged[s.game_id] = [shown(e) for e in pair[0].events]
    for s, pair in zip(going, pairs):
        longest = max(pair, key=lambda b: len(b.events))
        acknowledged[s.game_id] = [shown(e) for e in longest.events]
    before = seen()
    made = await asyncio.to_thread(senet, "backup", str(path), database_url=database_url)
    assert made.returncode == 0, made.stderr
    # the site went on storing moves while the backup was made and after
    await until(lambda: seen() >= before + 10 * IN_PROGRESS, "moves after the backup")
    for task in playing:
        task.cancel()
    await asyncio.gather(*playing, return_exceptions=True)
    return acknowledged, done + going, made.stdout


async def _check_restored(
    site: ServeProcess, acknowledged: dict[str, list[tuple[Any, ...]]], seats: list[GameSeats]
) -> None:
    async with httpx.AsyncClient(base_url=site.url, timeout=30) as http:
        for game_id, events in acknowledged.items():
            state = (await http.get(f"/api/games/{game_id}")).json()
            history = [shown(e) for e in state["history"]]
            assert history[: len(events)] == events, f"{game_id}: an acknowledged action is missing"
        end = time.monotonic() + 240
        unfinished = [
            s
            for s in seats
            if (await http.get(f"/api/games/{s.game_id}")).json()["phase"] != "over"
        ]
        assert unfinished, "every game ended before the backup: nothing was in progress"
        await asyncio.gather(
            *(
                play_game(s, [[site.ws_url], [site.ws_url]], end, seed=30 + i)
                for i, s in enumerate(unfinished)
            )
        )
        for s in seats:
            record = await http.get(f"/g/{s.game_id}/record")
            assert record.status_code == 200, record.text
            result = verify_text(record.text)
            assert result.ok, f"{s.game_id}: {result.problem} {result.mismatches[:3]}"
            assert result.throws_checked > 0
