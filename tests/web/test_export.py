"""The games as open data: ``GET /api/games/export`` and ``senet export`` stream the month's
finished games as NDJSON (metadata and record), the same lines both ways; each record replays
with ``senet replay`` and verifies with ``senet verify``; a bad month or variant is a 400 that
sends nothing.  ``GET /account/data``: a named player's own data as one download."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from senet_testkit.botapi import named

from .conftest import SiteServer
from .helpers import TwoSeats, friend_game, give_seed, play_out

pytestmark = pytest.mark.slow  # whole games on a server of the file's own, then subprocesses


def senet(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "senet.cli", *args],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def this_month() -> str:
    now = datetime.now(UTC)
    return f"{now.year:04d}-{now.month:02d}"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory):
    """A server with two finished games (kendall, bell), one going on, and a named player's
    finished game."""
    server = SiteServer(tmp_path_factory.mktemp("export") / "senet.sqlite3")
    server.start()
    try:
        finished = []
        for variant in ("kendall", "bell"):
            game = friend_game(server.url, variant)
            play_out(server.url, game)
            finished.append(game.game_id)
        going = friend_game(server.url, "kendall")
        play_out(server.url, going, moves=3)
        client, name = named(server.url, "Exporter")
        created = client.post(
            "/api/games", json={"variant": "kendall", "mode": "friend", "colour": "A"}
        )
        assert created.status_code == 201, created.text
        data = created.json()
        assert client.get(f"/g/{data['id']}").status_code == 200  # the name's device opens it
        joined = httpx.post(data["invite_url"], follow_redirects=False)
        theirs = joined.cookies[f"senet_seat_{data['id']}"]
        mine = TwoSeats(data["id"], {0: data["token"], 1: theirs})
        for seat in (0, 1):
            assert (
                give_seed(server.url, mine.game_id, mine.tokens[seat], f"s{seat}").status_code
                == 200
            )
        play_out(server.url, mine)
        yield server, finished + [mine.game_id], going.game_id, client, name
    finally:
        server.stop()


def test_the_export_holds_the_finished_games_whose_records_replay_and_verify(
    played, tmp_path: Path
) -> None:
    server, finished, going, _, name = played
    answer = httpx.get(f"{server.url}/api/games/export", params={"month": this_month()})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith(
        "application/x-ndjson"
    )
    lines = [json.loads(line) for line in answer.text.splitlines()]
    ids = [g["id"] for g in lines]
    assert ids == sorted(finished) and going not in ids
    for game in lines:
        assert game["result"] in ("A", "B", "draw") and game["record"].startswith("[")
        assert {p["seat"] for p in game["players"]} == {"A", "B"}
        path = tmp_path / f"{game['id']}.txt"
        path.write_text(game["record"], encoding="utf-8")
        replayed = senet("replay", str(path))
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
        verified = senet("verify", str(path))
        assert verified.returncode == 0 and "verified" in verified.stdout, verified.stdout
    named_game = next(g for g in lines if any(p["name"] == name for p in g["players"]))
    assert {p["kind"] for p in named_game["players"]} == {"human", "anonymous"}
    bell = next(g for g in lines if g["variant"] == "bell")
    assert bell["score"] is not None and len(bell["score"]) == 2
    # one variant's games only; another month's: none
    kendall = httpx.get(
        f"{server.url}/api/games/export", params={"month": this_month(), "variant": "kendall"}
    )
    assert [json.loads(x)["variant"] for x in kendall.text.splitlines()] == ["kendall", "kendall"]
    assert httpx.get(f"{server.url}/api/games/export", params={"month": "2001-01"}).text == ""
    # the command reads the database and writes the same lines (the Site tag aside)
    out = tmp_path / "export.ndjson"
    site = str(server.url)
    done = senet(
        "export",
        "--month",
        this_month(),
        "--out",
        str(out),
        "--site",
        site,
        DATABASE_URL=f"sqlite+aiosqlite:///{server.db}",
    )
    assert done.returncode == 0, done.stderr
    assert f"{len(finished)} games" in done.stderr
    assert [json.loads(x) for x in out.read_text().splitlines()] == lines


@pytest.mark.parametrize(
    "params",
    [
        {"month": "2026-13"},
        {"month": "26-01"},
        {"month": "2026-1"},
        {"month": "x"},
        {"variant": "chess"},
    ],
)
def test_a_bad_month_or_variant_is_refused_before_anything_is_sent(played, params) -> None:
    server = played[0]
    answer = httpx.get(f"{server.url}/api/games/export", params=params)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    refused = senet(
        "export",
        *[f"--{k}={v}" for k, v in params.items()],
        DATABASE_URL=f"sqlite+aiosqlite:///{server.db}",
    )
    assert refused.returncode != 0 and "Traceback" not in refused.stderr


def test_a_named_player_downloads_their_own_data(played, tmp_path: Path) -> None:
    server, finished, _, client, name = played
    page = client.get("/name")
    assert 'id="my-data" href="/account/data"' in page.text and "Download my data" in page.text
    data = client.get("/account/data")
    assert data.status_code == 200
    assert "attachment" in data.headers["content-disposition"]
    assert data.headers["cache-control"] == "no-store"
    mine = data.json()
    assert mine["name"] == name and mine["kind"] == "human"
    assert [g["id"] for g in mine["games"]] == [finished[-1]]
    path = tmp_path / "mine.txt"
    path.write_text(mine["games"][0]["record"], encoding="utf-8")
    assert senet("verify", str(path)).returncode == 0
    assert isinstance(mine["ratings"], list) and isinstance(mine["rating_history"], list)
    # no name, no data
    anonymous = httpx.get(f"{server.url}/account/data")
    assert anonymous.status_code == 403 and anonymous.json()["code"] == "no_name"
