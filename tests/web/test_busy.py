"""Search requests beyond a client's quota are refused with 429 ``busy``, ``Retry-After`` and
words for people; a client that hangs up gives its job up.  A real ``senet serve`` with one
worker process, held still (SIGSTOP) while the requests arrive, so nothing waits on time."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from senet.engine import Game, find_variant
from senet.web.i18n import error_text
from senet_testkit.loops import run as run_coroutine

from .conftest import SiteServer


class OneWorkerSite(SiteServer):
    def __init__(self, db: Path) -> None:
        super().__init__(db)
        self.env["SENET_WORKERS"] = "1"

    def workers(self) -> list[int]:
        assert self.process is not None
        pid = self.process.pid
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


@pytest.fixture
def one_worker_site(tmp_path: Path) -> Iterator[OneWorkerSite]:
    server = OneWorkerSite(tmp_path / "senet.sqlite3")
    server.start()
    yield server
    server.stop()


def fresh_positions(n: int) -> list[str]:
    rng = random.Random(9)
    found: list[str] = []
    while len(found) < n:
        game = Game(find_variant("standard"))
        for _ in range(rng.randint(4, 30)):
            pos = game.position
            if pos.is_over():
                break
            if pos.is_chance():
                game.push_throw(rng.choice([v for v, _ in pos.chance_outcomes()]))
            else:
                game.push(rng.choice(pos.legal_moves()))
        if not game.position.is_over() and game.position.fen() not in found:
            found.append(game.position.fen())
    return found


@pytest.mark.slow  # a server of its own, filled with jobs: more than a few seconds
def test_a_client_beyond_its_quota_is_told_busy_and_one_that_hangs_up_gives_its_jobs_up(
    one_worker_site: OneWorkerSite,
) -> None:
    """Six requests of one address while the worker is held: four wait (the quota), the other
    two are refused at once — the only answers that can come while the worker stands still.
    The four hang up: the job handed to the worker is stopped (its process killed and
    replaced), the queued ones dropped, and the address may ask again."""
    site = one_worker_site
    attacker = {"X-Forwarded-For": "203.0.113.9"}
    positions = fresh_positions(9)

    async def ask(fen: str, headers: dict[str, str]) -> httpx.Response:
        async with httpx.AsyncClient(base_url=site.url, timeout=300) as http:
            return await http.get("/api/learn/analysis", params={"position": fen}, headers=headers)

    async def main() -> None:
        warm = await ask(positions[0], attacker)  # the worker is up and idle
        assert warm.status_code == 200, warm.text
        [worker] = site.workers()
        os.kill(worker, signal.SIGSTOP)
        try:
            asked = {asyncio.create_task(ask(fen, attacker)) for fen in positions[1:7]}
            refused: list[httpx.Response] = []
            while len(refused) < 2:
                done, asked = await asyncio.wait(asked, return_when=asyncio.FIRST_COMPLETED)
                refused += [task.result() for task in done]
            assert len(asked) == 4  # waiting for the held worker
            for answer in refused:
                assert answer.status_code == 429, answer.text
                assert answer.headers["Retry-After"] == "5"
                assert (answer.json()["code"], answer.json()["retry_after"]) == ("busy", 5)
            other = asyncio.create_task(ask(positions[7], {"X-Forwarded-For": "198.51.100.7"}))
            for task in asked:
                task.cancel()  # the four hang up
            await asyncio.gather(*asked, return_exceptions=True)
            while worker in site.workers():  # the running job stopped: its worker killed
                await asyncio.sleep(0.05)
        finally:
            for pid in site.workers():
                os.kill(pid, signal.SIGCONT)
        assert (await other).status_code == 200
        while (again := await ask(positions[8], attacker)).status_code == 429:
            await asyncio.sleep(0.05)  # not all hang-ups seen yet: they will be
        assert again.status_code == 200, again.text

    run_coroutine(main())


def test_the_busy_words_say_when_to_try_again_in_both_languages() -> None:
    assert error_text("en", "busy", seconds=5) == "Busy — try again in 5 s."
    assert error_text("ru", "busy", seconds=5) == "Сервер занят — попробуйте снова через 5 с."
