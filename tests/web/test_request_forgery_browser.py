"""Same-site request forgery, in Chromium: a page on another port of the same host (the same
*site*, so SameSite=Lax cookies go along) tries to play a move for a player signed into their
seat — with a ``text/plain`` form whose field name looks like JSON, and with a ``no-cors``
fetch.  Neither may change the game; the player's own page on the site still can."""

from __future__ import annotations

import html
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .helpers import friend_game, state

pytestmark = pytest.mark.browser


class Attacker:
    """Another origin on the same host: serves whatever page the test puts in ``pages``."""

    def __init__(self) -> None:
        self.pages: dict[str, str] = {}
        pages = self.pages

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # the name http.server calls
                body = pages.get(self.path, "not here").encode()
                self.send_response(200 if self.path in pages else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def attacker() -> Iterator[Attacker]:
    server = Attacker()
    yield server
    server.close()


def test_a_page_of_another_origin_of_the_same_site_cannot_play_for_the_seat(
    browser, site, attacker: Attacker
) -> None:
    game = friend_game(site.url)
    before = state(site.url, game.game_id)
    decider = before["decider"]
    mine = state(site.url, game.game_id, game.tokens[decider])
    target = f"{site.url}/api/games/{game.game_id}/moves"
    body = {"ply": mine["ply"], "move": mine["legal"][0]}
    # The form's one field: name = the JSON up to a string, value = its end.  text/plain sends
    # "name=value", which is this JSON object.
    name = json.dumps(body)[:-1] + ', "x": "'
    attacker.pages["/form"] = (
        f'<form id="f" method="post" enctype="text/plain" action="{target}">'
        f'<input name="{html.escape(name)}" value="&quot;}}"></form>'
        '<script>document.getElementById("f").submit()</script>'
    )
    attacker.pages["/fetch"] = (
        "<script>fetch("
        + json.dumps(target)
        + ', {method: "POST", mode: "no-cors", credentials: "include", body: '
        + json.dumps(json.dumps(body))
        + '}).then(() => { document.title = "sent" }, () => { document.title = "failed" })'
        + "</script>"
    )

    context = browser.new_context()
    page = context.new_page()
    try:
        # The player signs into their seat: the seat cookie is set for the site's host.
        page.goto(f"{site.url}/g/{game.game_id}/seat/{game.tokens[decider]}")
        assert any(c["name"] == f"senet_seat_{game.game_id}" for c in context.cookies())

        with page.expect_response(target) as answer:
            page.goto(f"{attacker.url}/form")
        assert answer.value.status in (403, 415)
        assert state(site.url, game.game_id)["ply"] == before["ply"]

        page.goto(f"{attacker.url}/fetch")
        page.wait_for_function("document.title !== ''")
        assert state(site.url, game.game_id)["ply"] == before["ply"]

        # The same request from the site's own page, as JSON, is the player's own move.
        page.goto(f"{site.url}/g/{game.game_id}")
        status = page.evaluate(
            """([url, body]) => fetch(url, {method: "POST", body,
                   headers: {"Content-Type": "application/json"}}).then(r => r.status)""",
            [target, json.dumps(body)],
        )
        assert status == 200
        assert state(site.url, game.game_id)["ply"] > before["ply"]
    finally:
        context.close()
