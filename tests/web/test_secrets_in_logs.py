"""No secret reaches a log: seat secrets, invitations and the fairness secret.

A whole friend game is played on a real server logging at ``info`` (every request line):
created over the API, joined with the invitation link, both private links opened, the moves
sent over WebSockets that carry the seat secret in ``?token=`` (as API clients may), to the
end, where the fairness secret is revealed.  Then the server's log is searched for every one
of those secrets.  A failed insert of a game (its id already taken) is made too: the error
that would be logged must not carry the game's fairness secret among its parameters.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from senet.service.games.storage import NewGame, Storage
from senet.service.messages import Mode
from senet_testkit.wsbots import GameSeats, play_game

from .conftest import SiteServer


def run(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(params=["text", "json"])
def logging_site(request: pytest.FixtureRequest, tmp_path: Path):
    """A server of the test's own writing its log as text lines or as JSON lines."""
    server = SiteServer(tmp_path / "senet.sqlite3")
    server.env["SENET_LOG_FORMAT"] = request.param
    server.start()
    yield server
    server.stop()


@pytest.mark.slow
def test_a_whole_game_leaves_no_secret_in_the_server_log(logging_site: SiteServer) -> None:
    own_site = logging_site

    async def main() -> list[str]:
        async with httpx.AsyncClient(timeout=10) as client:
            r = await client.post(
                f"{own_site.url}/api/games", json={"mode": "friend", "colour": "A"}
            )
            created = r.json()
            invite = created["invite_url"].rsplit("/", 1)[1]
            client.cookies.clear()
            await client.get(created["invite_url"])  # the invitation page
            client.cookies.clear()
            joined = await client.post(created["invite_url"], follow_redirects=False)
            token_b = joined.cookies[f"senet_seat_{created['id']}"]
            client.cookies.clear()
            for token in (created["token"], token_b):
                r = await client.get(f"{own_site.url}/g/{created['id']}/seat/{token}")
                assert r.status_code == 303  # to the game, with the seat cookie
                client.cookies.clear()
            seats = GameSeats(created["id"], {0: created["token"], 1: token_b})
            bots = await play_game(
                seats, [[own_site.ws_url], [own_site.ws_url]], time.monotonic() + 120, seed=3
            )
            assert all(b.outcome is not None for b in bots), [b.errors for b in bots]
            final = (await client.get(f"{own_site.url}/api/games/{created['id']}")).json()
            secret = final["fairness"]["secret"]
            assert secret
            return [created["token"], token_b, invite, secret]

    secrets_of_the_game = run(main())
    log = own_site.log.read_text()
    assert "/g/" in log and "WebSocket" in log  # the request lines are there
    for secret in secrets_of_the_game:
        assert secret not in log
    if own_site.env["SENET_LOG_FORMAT"] == "json":  # every line one object, access lines typed
        lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
        served = [line for line in log.splitlines() if not line.startswith("Senet is served")]
        assert len(lines) == len([x for x in served if x.strip()]), "a line that is not JSON"
        access = [x for x in lines if x["logger"] == "uvicorn.access"]
        assert access and all({"client", "method", "path", "status"} <= set(x) for x in access)
        assert any(x["path"].startswith("/g/") and x["status"] in (200, 303) for x in access)
        assert all({"time", "level", "logger", "message"} <= set(x) for x in lines)


def test_a_failed_insert_does_not_carry_the_fairness_secret(tmp_path: Path) -> None:
    secret = "5ec2e7" * 10 + "abcd"

    async def main() -> str:
        storage = Storage(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite3'}")
        await storage.init()
        row = NewGame("taken", "standard", Mode.FRIEND, secret, "c" * 64)
        try:
            await storage.create_game(row)
            with pytest.raises(Exception) as failed:
                await storage.create_game(row)
            return "".join(traceback.format_exception(failed.value))
        finally:
            await storage.close()

    logged = run(main())
    assert "INSERT INTO games" in logged  # the statement is there, its values are not
    assert secret not in logged
