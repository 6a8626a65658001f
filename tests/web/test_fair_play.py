"""Fair play at the edges of the site, tried as a griefer would on a real server (SQLite):
a seat link or token spelled with percent-escapes, resigning a game nobody joined, numbers
written in other scripts' digits."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import connect

from senet.engine import NotationError, parse_move, parse_position

from .conftest import SiteServer
from .helpers import friend_game, state


def _log_since(site: SiteServer, offset: int) -> str:
    return site.log.read_bytes()[offset:].decode("utf-8", "replace")


def test_an_encoded_seat_link_is_refused_and_never_logged(site: SiteServer) -> None:
    game = friend_game(site.url)
    token = game.tokens[0]
    offset = site.log.stat().st_size
    with httpx.Client(base_url=site.url) as device:
        for path in (
            f"/g/{game.game_id}/%73eat/{token}",
            f"/g/{game.game_id}/se%61t/{token}",
            f"/g/{game.game_id}/%2573eat/{token}",
        ):
            refused = device.get(path)
            assert refused.status_code == 404, path
            assert not device.cookies.get(f"senet_seat_{game.game_id}")  # no seat taken
        encoded = f"{token[:4]}%{ord(token[4]):02X}{token[5:]}"
        for query in (f"?%74oken={token}", f"?TOK%45N={token}", f"?token={encoded}"):
            refused = device.get(f"/api/games/{game.game_id}{query}")
            assert refused.status_code == 400 and refused.json()["code"] == "bad_request"
        # the site's own spelling still works
        assert device.get(f"/g/{game.game_id}/seat/{token}").status_code == 303

    def socket(query: str) -> None:
        with connect(f"{site.ws_url}/ws/games/{game.game_id}{query}") as ws:
            ws.recv(timeout=10)

    with pytest.raises(WebSocketException):
        socket(f"?%74oken={token}")
    socket(f"?token={token}")
    httpx.get(f"{site.url}/healthz")  # a request after them all: their lines are written
    log = _log_since(site, offset)
    assert token not in log, "a seat secret reached the log"


def test_the_creator_cannot_resign_a_game_nobody_joined(site: SiteServer) -> None:
    created = httpx.post(f"{site.url}/api/games", json={"mode": "friend", "colour": "A"}).json()
    headers = {"X-Seat-Token": created["token"]}
    refused = httpx.post(f"{site.url}/api/games/{created['id']}/resign", json={}, headers=headers)
    assert refused.status_code == 409 and refused.json()["code"] == "not_joined"
    after = state(site.url, created["id"], created["token"])
    assert after["outcome"] is None and after["termination"] is None  # nothing changed
    # cancelling is the way out of it
    cancelled = httpx.post(f"{site.url}/api/games/{created['id']}/cancel", json={}, headers=headers)
    assert cancelled.status_code == 204
    # with both seats taken, resigning works as ever
    game = friend_game(site.url)
    resigned = httpx.post(
        f"{site.url}/api/games/{game.game_id}/resign",
        json={},
        headers={"X-Seat-Token": game.tokens[0]},
    )
    assert resigned.status_code == 200 and resigned.json()["termination"] == "resignation"


FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def test_a_move_in_other_digits_is_refused_and_changes_nothing(site: SiteServer) -> None:
    game = friend_game(site.url)
    before = state(site.url, game.game_id)
    decider = before["decider"]
    legal = state(site.url, game.game_id, game.tokens[decider])["legal"]
    move = next(m for m in legal if m[0].isdigit())
    for digits in (FULLWIDTH, ARABIC_INDIC):
        refused = httpx.post(
            f"{site.url}/api/games/{game.game_id}/moves",
            json={"ply": before["ply"], "move": move.translate(digits)},
            headers={"X-Seat-Token": game.tokens[decider]},
        )
        assert refused.status_code == 400, refused.text
        error = refused.json()
        assert error["code"] == "bad_move" and error["column"] == 1, error
    assert state(site.url, game.game_id)["ply"] == before["ply"]


def test_a_time_control_in_other_digits_is_refused(site: SiteServer) -> None:
    for text in ("move:３０", "clock:３００+５", "clock:300+٥"):
        refused = httpx.post(f"{site.url}/api/games", json={"mode": "friend", "time_control": text})
        assert refused.status_code == 400 and refused.json()["code"] == "bad_time_control", text
    assert httpx.post(
        f"{site.url}/api/games", json={"mode": "friend", "time_control": "move:30"}
    ).is_success


def test_the_engine_reads_only_ascii_digits() -> None:
    """The notation parsers name the line, column and expectation, as for any other error."""
    with pytest.raises(NotationError) as refused:
        parse_move("9-１１", line=3, column=5)
    assert (refused.value.line, refused.value.column) == (3, 7)
    assert refused.value.expected == "the digits 0-9"
    assert parse_move("9-11").text() == "9-11"
    start = "kendall-1978 BABABABABA/BAB.A...../.......... A"
    assert parse_position(start + " 1").throw == 1
    with pytest.raises(NotationError) as refused:
        parse_position(start + " １")
    assert refused.value.column == len(start) + 2


@pytest.mark.slow  # many lobby messages over a socket: more than a few seconds
def test_the_lobby_socket_pushes_changes_and_limits_what_a_client_sends(tmp_path: Path) -> None:
    """Frames from the client bring no listing (it is pushed when it changes); a client that
    sends faster than the per-connection limit (20 a second, 60 at once) is disconnected."""
    site = SiteServer(tmp_path / "senet.sqlite3")
    site.env["SENET_RATE_LIMITS"] = "1000,1000,1000,1000"  # the per-connection limits stay
    site.start()
    try:
        lobby_socket_session(site)
    finally:
        site.stop()


def lobby_socket_session(site: SiteServer) -> None:
    with connect(f"{site.ws_url}/ws/lobby?variant=bell") as ws:
        first = json.loads(ws.recv(timeout=10))
        assert first["type"] == "lobby"
        for _ in range(40):  # within the burst
            ws.send("give me the listing")
        created = httpx.post(
            f"{site.url}/api/games", json={"mode": "friend", "variant": "bell", "listed": True}
        ).json()
        listings = []
        while True:  # the change is pushed; the frames brought nothing
            listing = json.loads(ws.recv(timeout=10))
            listings.append(listing)
            if created["id"] in {g["id"] for g in listing["games"]}:
                break
        assert len(listings) <= 3, len(listings)
        with pytest.raises(ConnectionClosed) as closed:
            for _ in range(500):
                ws.send("x")
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


@pytest.mark.slow  # a flood of open games: more than a few seconds
def test_a_flood_of_open_games_leaves_a_real_players_game_in_view(tmp_path: Path) -> None:
    """One client lists 80 games through the API: after the cap the rest are refused (429);
    sixty more clients list one each and never come back; a real player's new open game is
    the first one shown (the lobby lists what a newcomer can take, newest first)."""
    site = SiteServer(tmp_path / "senet.sqlite3")
    site.env["SENET_MANUAL_CLOCK"] = "1"  # however slow the machine, no creator's time runs out
    site.start()
    try:

        def listed(address: str) -> httpx.Response:
            return httpx.post(
                f"{site.url}/api/games",
                json={"mode": "friend", "listed": True},
                headers={"X-Forwarded-For": address},  # the server's trusted proxy says who
            )

        answers = [listed("10.0.0.66").status_code for _ in range(80)]
        assert answers.count(201) == 3 and answers.count(429) == 77
        assert listed("10.0.0.66").json()["code"] == "too_many_listed"
        for i in range(60):
            assert listed(f"10.0.1.{i}").status_code == 201
        real = listed("10.0.2.1").json()
        with connect(f"{site.ws_url}/ws/games/{real['id']}?token={real['token']}") as page:
            page.recv(timeout=10)
            shown = httpx.get(f"{site.url}/api/lobby").json()
            assert shown[0]["id"] == real["id"] and len(shown) == 50
    finally:
        site.stop()
