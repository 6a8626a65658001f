"""Trust on a real server: security headers, size and rate limits, oversize WebSocket frames,
and the verify view recomputing a finished game's throws in a real browser."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from senet.web.security import CSP, MAX_BODY_BYTES, MAX_WS_MESSAGE_BYTES

from .conftest import SiteServer
from .helpers import friend_game, play_out, state


def play_to_the_end(base: str, variant: str) -> str:
    game = friend_game(base, variant)
    play_out(base, game)
    return game.game_id


def test_pages_and_api_carry_the_security_headers(site) -> None:
    for path in ("/", "/variants/bell", "/api/variants", "/no-such-page"):
        headers = httpx.get(site.url + path).headers
        assert headers["content-security-policy"] == CSP, path
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_pages_have_no_inline_script(site) -> None:
    game = friend_game(site.url)
    for path in ("/", "/variants/adelaida", f"/g/{game.game_id}", f"/g/{game.game_id}/verify"):
        html = httpx.get(site.url + path).text
        for chunk in html.split("<script")[1:]:
            assert 'src="/static/' in chunk.split(">")[0], (
                path,
                chunk[:80],
            )  # every script is a file
        assert " onclick=" not in html and " onload=" not in html


def test_oversize_body_is_refused_and_creates_nothing(site) -> None:
    before = httpx.get(f"{site.url}/healthz")
    assert before.status_code == 200
    big = {"variant": "standard", "mode": "friend", "padding": "x" * MAX_BODY_BYTES}
    refused = httpx.post(f"{site.url}/api/games", json=big)
    assert refused.status_code == 413
    assert "Traceback" not in refused.text


def test_oversize_websocket_frame_is_refused_and_changes_nothing(site) -> None:
    game = friend_game(site.url, "kendall")
    before = state(site.url, game.game_id)
    with connect(
        f"{site.ws_url}/ws/games/{game.game_id}",
        additional_headers={"Cookie": f"senet_seat_{game.game_id}={game.tokens[0]}"},
    ) as ws:
        json.loads(ws.recv(timeout=5))
        ws.send(
            json.dumps({"type": "move", "ply": before["ply"], "move": "x" * MAX_WS_MESSAGE_BYTES})
        )
        codes = []
        try:
            while True:
                codes.append(json.loads(ws.recv(timeout=5)).get("code"))
        except Exception:  # the server closes the connection after the error
            pass
        assert "too_large" in codes
    after = state(site.url, game.game_id)
    assert (after["ply"], after["fen"]) == (before["ply"], before["fen"])


@pytest.mark.slow  # waits for the buckets to refill on a server of its own
def test_rate_limits_on_a_real_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No refill (rate 0): 8 requests, then 429 however slowly the requests run on a busy machine.
    # The refill itself is checked with an injected clock in tests/trust.
    monkeypatch.setenv("SENET_RATE_LIMITS", "0,8,0,2")
    server = SiteServer(tmp_path / "limited.sqlite3")
    server.start()  # the start-up probe spends one request
    try:
        codes = [httpx.get(server.url + "/api/variants").status_code for _ in range(12)]
        assert codes[0] == 200 and codes[-1] == 429 and codes == sorted(codes)  # then only 429
        assert "Too many requests" in httpx.get(server.url + "/").text
    finally:
        server.stop()


@pytest.mark.browser
def test_the_verify_view_recomputes_a_finished_game(site, browser, artifacts) -> None:
    game_id = play_to_the_end(site.url, "bell")
    record = httpx.get(f"{site.url}/g/{game_id}/record").text
    assert "[Seed " in record  # revealed now that the game is over
    page = browser.new_page()
    try:
        page.goto(f"{site.url}/g/{game_id}/verify")
        summary = page.locator(".verify-summary.good")
        summary.wait_for(timeout=15000)
        throws = record.count("(")
        assert f"all {throws} throws" in summary.inner_text()
        assert page.locator(".verify-table tbody tr.ok").count() == throws
        assert page.locator(".verify-table tbody tr.mismatch").count() == 0
        page.screenshot(path=str(artifacts / "verify.png"), full_page=True)
        page.goto(f"{site.url}/variants/standard?lang=ru")
        assert "Честные броски: как проверить партию" in page.content()
    finally:
        page.close()


@pytest.mark.browser
def test_the_verify_view_of_a_game_in_progress_waits_for_the_seed(site, browser) -> None:
    game = friend_game(site.url)
    page = browser.new_page()
    try:
        page.goto(f"{site.url}/g/{game.game_id}/verify")
        page.locator(
            ".verify-summary.pending", has_text="The seed is revealed when the game is over"
        ).wait_for(timeout=15000)
    finally:
        page.close()
