"""Deeply nested JSON and binary frames: a clear error, the security headers, one log line.

JSON nested thousands deep made the parser raise RecursionError: over HTTP an uncaught 500
without the security headers and a traceback of some 75 lines; over a WebSocket the socket
closed without a word."""

from __future__ import annotations

import json

import httpx
from websockets.sync.client import connect

from senet.web.security import CSP

from .conftest import SiteServer
from .helpers import friend_game

DEEP = "[" * 7000 + "]" * 7000
DEEP_FRAME = "[" * 2000 + "]" * 2000  # within the 4 KB a WebSocket message may have


def test_deep_json_is_a_400_with_the_headers_and_one_log_line(own_site: SiteServer) -> None:
    game = friend_game(own_site.url)
    headers = {"Content-Type": "application/json", "X-Seat-Token": game.tokens[0]}
    for path in (f"/api/games/{game.game_id}/moves", f"/api/games/{game.game_id}/seed"):
        before = own_site.log.read_text().splitlines()
        answer = httpx.post(own_site.url + path, content=DEEP, headers=headers)
        assert answer.status_code == 400, answer.text
        assert answer.json()["code"] == "bad_json"
        assert answer.headers["content-security-policy"] == CSP
        assert answer.headers["x-content-type-options"] == "nosniff"
        added = own_site.log.read_text().splitlines()[len(before) :]
        assert len(added) == 1 and path in added[0] and " 400" in added[0], added
    created = httpx.post(f"{own_site.url}/api/games", content=DEEP, headers=headers)
    assert created.status_code in (400, 422) and created.headers["content-security-policy"] == CSP
    assert "Traceback" not in own_site.log.read_text()


def test_deep_and_binary_frames_get_an_error_and_the_socket_stays(own_site: SiteServer) -> None:
    game = friend_game(own_site.url)
    cookie = {"Cookie": f"senet_seat_{game.game_id}={game.tokens[0]}"}
    with connect(f"{own_site.ws_url}/ws/games/{game.game_id}", additional_headers=cookie) as ws:
        seen = []
        for frame, code in ((DEEP_FRAME, "bad_json"), (b"\x00\x01binary", "bad_frame")):
            ws.send(frame)
            while True:
                message = json.loads(ws.recv(timeout=10))
                seen.append(message.get("type"))
                if message.get("type") == "error":
                    assert message["code"] == code, message
                    break
        ws.send(json.dumps({"type": "ping"}))
        while (message := json.loads(ws.recv(timeout=10))).get("type") != "pong":
            pass
    assert "Traceback" not in own_site.log.read_text()
