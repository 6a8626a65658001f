"""A game page showing a position of the test's choosing, for tests of how the page lays out a
decision (its buttons, its board): a real friend game of the variant is opened as seat A, and
the state the server sends over the page's WebSocket is rewritten to the position's (its pieces,
its counters, the decider's legal moves, the decider as this viewer's seat).  The server still
checks every move; only what the page is shown changes, so these tests look, they do not play.
A game cannot start from a position on the site, which is why the state is staged."""

from __future__ import annotations

import json
import re
from typing import Any

from senet import Position

from .helpers import friend_game

GAME_FRAMES = re.compile(r"/ws/games/")
DIRECTIONS = {0: "", 1: "forward", -1: "backward"}


def position_fields(fen: str) -> dict[str, Any]:
    """The fields of a state message (senet.service.games.views.state_message) that the position
    decides, with the decider's legal moves and the decider as the viewer's seat."""
    pos = Position.from_fen(fen)
    decider = pos.decider
    assert decider is not None, f"nobody decides in {fen}"
    return {
        "fen": pos.fen(),
        "phase": "play",
        "turn": pos.turn,
        "decider": decider,
        "throw": pos.throw,
        "throws": list(pos.throws),
        "pending": pos.pending_name,
        "pieces": [list(pos.pieces(0)), list(pos.pieces(1))],
        "off": [pos.off(0), pos.off(1)],
        "captured": [pos.captured(0), pos.captured(1)],
        "drowned": [pos.drowned(0), pos.drowned(1)],
        "hand": [pos.hand(0), pos.hand(1)],
        "divided": pos.divided,
        "entered": pos.entered,
        "direction": DIRECTIONS.get(int(pos.direction), ""),
        "extra": [pos.extra(0), pos.extra(1)],
        "skip": [pos.skip(0), pos.skip(1)],
        "legal": [pos.move_text(m) for m in pos.legal_moves()],
        "you": [decider],
        "outcome": None,
        "forced_pass": None,
        "clock": None,
        "abandon": None,
    }


def stage(page, site, fen: str, lang: str) -> None:
    """Open a game page of ``fen``'s variant showing ``fen`` with its decision to make."""
    variant = fen.split()[0]
    game = friend_game(site.url, variant)
    page.context.add_cookies(
        [{"name": f"senet_seat_{game.game_id}", "value": game.tokens[0], "url": site.url}]
    )
    fields = position_fields(fen)

    def route(ws) -> None:
        server = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            if data["type"] == "state":
                data.update(fields)
                ws.send(json.dumps(data))
            elif data["type"] != "delta":  # nothing happens in the game; a delta would undo
                ws.send(message)

        server.on_message(to_page)
        ws.on_message(server.send)

    page.route_web_socket(GAME_FRAMES, route)
    page.goto(f"/g/{game.game_id}?lang={lang}")
    page.wait_for_function(
        "(fen) => document.getElementById('game').dataset.fen === fen", arg=fields["fen"]
    )
    page.wait_for_selector("#moves button[data-move]")
