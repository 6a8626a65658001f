"""The game page on deltas, in real Chromium against a real server: after the first state its
WebSocket carries only deltas; the history it rebuilds is the one a fresh page shows, also
after a reload mid-game; a lost delta makes it ask for the state; and its delta.js rebuilds,
from the messages a real connection got, the very states the server's rule rebuilds."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from senet.service.games.views import apply_delta

from .helpers import best_move, friend_game
from .test_browser import is_over, legal_buttons, new_page, ply, start_game

pytestmark = pytest.mark.browser

GAME_FRAMES = re.compile(r"/ws/games/")


def watch_game_socket(page) -> list[list[dict[str, Any]]]:
    """The messages the page's game WebSocket receives, one list per connection."""
    connections: list[list[dict[str, Any]]] = []

    def opened(ws) -> None:
        if not GAME_FRAMES.search(ws.url):
            return
        received: list[dict[str, Any]] = []
        connections.append(received)
        ws.on("framereceived", lambda frame: received.append(json.loads(frame)))

    page.on("websocket", opened)
    return connections


def move_list(page) -> list[str]:
    return page.eval_on_selector_all("#move-list li", "items => items.map(i => i.textContent)")


def fresh_view(browser, site, game_id: str) -> tuple[list[str], str]:
    """What a page opened now shows: its move list and its position."""
    page = new_page(browser, site)
    page.goto(f"/g/{game_id}")
    page.wait_for_selector("#game[data-ply]")
    shown = (move_list(page), page.get_attribute("#game", "data-fen") or "")
    page.context.close()
    return shown


def my_turn(page) -> bool:
    """The page waits for this player's move (the computer cannot move meanwhile)."""
    return bool(legal_buttons(page)) and not page.evaluate(
        "document.getElementById('game').classList.contains('waiting')"
    )


def play_one(page) -> None:
    before = ply(page)
    page.click(f'#moves button[data-move="{best_move(legal_buttons(page))}"]')
    page.wait_for_function(
        f"() => document.getElementById('game').dataset.ply !== '{before}'", timeout=15_000
    )


def wait_my_turn_or_end(page) -> None:
    page.wait_for_function(
        """() => { const g = document.getElementById('game');
                   return g.dataset.over === '1' || (!g.classList.contains('waiting')
                     && document.querySelector('#moves button[data-move]') !== null); }""",
        timeout=30_000,
    )


def test_the_page_gets_deltas_after_the_first_state_and_keeps_its_history_across_a_reload(
    browser, site
) -> None:
    page = new_page(browser, site)
    connections = watch_game_socket(page)
    handshakes: list[dict[str, str]] = []  # what Chromium itself negotiated
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.on(
        "Network.webSocketHandshakeResponseReceived",
        lambda event: handshakes.append(
            {k.lower(): v for k, v in event["response"]["headers"].items()}
        ),
    )
    game_id = start_game(page, "kendall", "computer", "A", "beginner")
    decisions, reloaded, checked = 0, False, 0
    while True:
        wait_my_turn_or_end(page)
        if is_over(page):
            break
        if decisions % 15 == 7:  # the game stands still until this player moves: compare
            assert (move_list(page), page.get_attribute("#game", "data-fen")) == fresh_view(
                browser, site, game_id
            )
            checked += 1
        if decisions == 30 and not reloaded:  # a reload mid-game: a new connection, whole again
            page.reload()
            page.wait_for_selector("#game[data-ply]")
            reloaded = True
            continue
        play_one(page)
        decisions += 1
        assert decisions < 400, "the game did not end"
    final = httpx.get(f"{site.url}/api/games/{game_id}").json()
    assert final["outcome"] and reloaded and checked >= 2
    assert (move_list(page), page.get_attribute("#game", "data-fen")) == fresh_view(
        browser, site, game_id
    )
    assert len(connections) == 2  # before and after the reload
    assert handshakes and all(
        "permessage-deflate" in h.get("sec-websocket-extensions", "") for h in handshakes
    )
    for received in connections:
        kinds = [m["type"] for m in received if m["type"] in ("state", "delta")]
        assert kinds[0] == "state" and set(kinds[1:]) == {"delta"}, kinds[:6]
        deltas = [m for m in received if m["type"] == "delta"]
        assert [d["seq"] for d in deltas] == list(range(1, len(deltas) + 1))
    whole = len(json.dumps(final))
    largest = max(len(json.dumps(m)) for r in connections for m in r if m["type"] == "delta")
    assert largest * 5 < whole, (largest, whole)
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_lost_delta_makes_the_page_ask_for_the_state(browser, site) -> None:
    game = friend_game(site.url, "standard")
    gid, api = game.game_id, f"{site.url}/api/games/{game.game_id}"
    page = new_page(browser, site)
    page.context.add_cookies(
        [{"name": f"senet_seat_{gid}", "value": game.tokens[0], "url": site.url}]
    )
    asked: list[str] = []
    dropped: list[dict[str, Any]] = []

    def lost(delta: dict[str, Any]) -> bool:
        """The first delta with a move of seat B after which B throws again (so B's next move
        brings the next delta while the page still waits for this one)."""
        entries = delta["history"]
        return (
            not dropped
            and any(e["kind"] != "throw" and e["seat"] == 1 for e in entries)
            and entries[-1]["kind"] == "throw"
            and entries[-1]["seat"] == 1
        )

    def route(ws) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "delta" and lost(data):
                dropped.append(data)
                return
            ws.send(message)

        def to_server(message: str | bytes) -> None:
            asked.append(json.loads(message)["type"])
            server.send(message)

        server.on_message(to_page)
        ws.on_message(to_server)

    def page_at(ply: int) -> None:
        page.wait_for_function(f"() => document.getElementById('game').dataset.ply === '{ply}'")

    def b_moves(ply: int) -> int:
        legal = httpx.get(api, headers={"X-Seat-Token": game.tokens[1]}).json()["legal"]
        answer = httpx.post(
            f"{api}/moves",
            json={"ply": ply, "move": best_move(legal)},
            headers={"X-Seat-Token": game.tokens[1]},
        )
        answer.raise_for_status()
        return answer.json()["ply"]

    page.route_web_socket(GAME_FRAMES, route)
    page.goto(f"/g/{gid}")
    page.wait_for_selector("#game[data-ply]")
    for _ in range(300):  # A plays in the page, B through the API, until a delta is lost
        state = httpx.get(api).json()
        assert not state["outcome"], "no delta was lost"
        if state["decider"] == 0:
            page_at(state["ply"])
            play_one(page)
            continue
        reached = b_moves(state["ply"])
        for _ in range(200):  # until the page has it, or the route has dropped it
            if dropped or ply(page) == reached:
                break
            page.wait_for_timeout(25)
        if dropped:
            break
    assert dropped and ply(page) == state["ply"]  # the page does not know of B's move
    latest = b_moves(reached)  # B's next move: its delta shows the page the gap
    page_at(latest)
    assert "state" in asked and page.get_attribute("#game", "data-resyncs") == "1"
    assert (move_list(page), page.get_attribute("#game", "data-fen")) == fresh_view(
        browser, site, gid
    )
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_page_script_rebuilds_what_the_server_rule_rebuilds(browser, site) -> None:
    """delta.js's DeltaFeed, fed the messages a real connection got over a game, gives the
    states senet.service.games.views.apply_delta gives; with a delta missing it waits for a state."""
    game = friend_game(site.url, "bell")
    messages: list[dict[str, Any]] = []
    rebuilt: list[dict[str, Any]] = []
    with connect(f"{site.ws_url}/ws/games/{game.game_id}") as ws:
        while not messages:
            first = json.loads(ws.recv(timeout=5))
            if first["type"] == "state":
                messages.append(first)
                rebuilt.append(first)
        for _ in range(30):
            state = httpx.get(f"{site.url}/api/games/{game.game_id}").json()
            if state["outcome"]:
                break
            token = game.tokens[state["decider"]]
            legal = httpx.get(
                f"{site.url}/api/games/{game.game_id}", headers={"X-Seat-Token": token}
            ).json()["legal"]
            httpx.post(
                f"{site.url}/api/games/{game.game_id}/moves",
                json={"ply": state["ply"], "move": best_move(legal)},
                headers={"X-Seat-Token": token},
            ).raise_for_status()
            while rebuilt[-1]["ply"] <= state["ply"]:
                message = json.loads(ws.recv(timeout=5))
                if message["type"] != "delta":
                    continue
                after = apply_delta(rebuilt[-1], message)
                assert after is not None
                messages.append(message)
                rebuilt.append(dict(after))
    assert len(messages) > 10
    page = new_page(browser, site)
    page.goto("/")
    feed = page.evaluate(
        """async (messages) => {
             const { DeltaFeed } = await import('/static/delta.js');
             const whole = new DeltaFeed(), gap = new DeltaFeed();
             const states = messages.map((m) => whole.take(m));
             const gapped = messages.filter((m, i) => i !== 3).map((m) => gap.take(m));
             const again = gap.take(messages[0]);  // the whole state makes it whole again
             return { states, gapped, lost: gap.lost, again };
           }""",
        messages,
    )
    assert feed["states"] == rebuilt
    assert feed["gapped"][:3] == rebuilt[:3]
    assert all(s is None for s in feed["gapped"][3:]) and feed["again"] == rebuilt[0]
    assert page.js_errors == []  # type: ignore[attr-defined]
