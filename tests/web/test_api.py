"""HTTP and WebSocket tests against a real server process: bad input is a clear JSON error and
leaves the game exactly as it was (state and stored actions)."""

from __future__ import annotations

import json

import httpx
import pytest
from markupsafe import escape
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from senet.ai import LEVELS
from senet.engine import VARIANTS
from senet.web.protocol import ErrorMessage

from .helpers import LiveView, TwoSeats, best_move, friend_game, state


def snapshot(site, game: TwoSeats) -> tuple[int, str, int]:
    s = state(site.url, game.game_id)
    return s["ply"], s["fen"], site.actions_count(game.game_id)


def post_move(site, game_id: str, body, token: str | None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["X-Seat-Token"] = token
    content = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return httpx.post(f"{site.url}/api/games/{game_id}/moves", content=content, headers=headers)


def decider_and_other(site, game: TwoSeats) -> tuple[int, int, dict]:
    s = state(site.url, game.game_id)
    decider = s["decider"]
    return decider, 1 - decider, state(site.url, game.game_id, game.tokens[decider])


def assert_error(response: httpx.Response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code and body["message"]
    # the WebSocket's error shape; where the text went wrong only for refused text
    assert ErrorMessage.__required_keys__ <= set(body) <= set(ErrorMessage.__annotations__)
    assert ("line" in body) == ("column" in body) == code.startswith(("bad_move", "bad_position"))
    return body


def test_a_legal_move_is_stored_and_the_throw_that_follows(site) -> None:
    game = friend_game(site.url)
    decider, _, s = decider_and_other(site, game)
    assert s["legal"] and s["ply"] == 1 and site.actions_count(game.game_id) == 1  # the first throw
    response = post_move(
        site, game.game_id, {"ply": s["ply"], "move": best_move(s["legal"])}, game.tokens[decider]
    )
    assert response.status_code == 200, response.text
    after = response.json()
    assert (
        after["ply"] >= 3
        and after["history"][1]["kind"] == "move"
        and after["history"][2]["kind"] == "throw"
    )
    assert site.actions_count(game.game_id) == after["ply"]


@pytest.mark.parametrize(
    "body, status, code",
    [
        ("{not json", 400, "bad_json"),
        (b"\xff\xfe", 400, "bad_json"),
        ("[1, 2]", 400, "bad_request"),
        ({"move": "1-4"}, 400, "bad_request"),  # no ply
        ({"ply": "1", "move": "1-4"}, 400, "bad_request"),
        ({"ply": 1, "move": 42}, 400, "bad_request"),
        ({"ply": 1, "move": "fly away"}, 400, "bad_move"),
    ],
)
def test_malformed_requests_are_refused_and_change_nothing(site, body, status, code) -> None:
    game = friend_game(site.url)
    decider, _, _ = decider_and_other(site, game)
    before = snapshot(site, game)
    assert_error(post_move(site, game.game_id, body, game.tokens[decider]), status, code)
    assert snapshot(site, game) == before


def test_illegal_out_of_turn_stale_and_forged_moves_change_nothing(site) -> None:
    game = friend_game(site.url)
    decider, other, s = decider_and_other(site, game)
    before = snapshot(site, game)
    legal = set(s["legal"])
    illegal = next(
        f"{a}-{b}"
        for a in range(1, 30)
        for b in range(a + 1, 31)
        if f"{a}-{b}" not in legal and f"{a}x{b}" not in legal
    )
    body = assert_error(
        post_move(site, game.game_id, {"ply": s["ply"], "move": illegal}, game.tokens[decider]),
        422,
        "illegal",
    )
    assert "legal:" in body["message"]
    move = best_move(s["legal"])
    assert_error(
        post_move(site, game.game_id, {"ply": s["ply"], "move": move}, game.tokens[other]),
        409,
        "not_your_turn",
    )
    assert_error(
        post_move(site, game.game_id, {"ply": s["ply"] - 1, "move": move}, game.tokens[decider]),
        409,
        "stale",
    )
    assert_error(
        post_move(site, game.game_id, {"ply": s["ply"] + 5, "move": move}, game.tokens[decider]),
        409,
        "stale",
    )
    forged = game.tokens[decider][:-2] + ("AA" if not game.tokens[decider].endswith("AA") else "BB")
    assert_error(
        post_move(site, game.game_id, {"ply": s["ply"], "move": move}, forged), 403, "forbidden"
    )
    assert_error(
        post_move(site, game.game_id, {"ply": s["ply"], "move": move}, None), 403, "forbidden"
    )
    assert snapshot(site, game) == before
    # a double click: the same move twice with the same ply is played once
    first = post_move(site, game.game_id, {"ply": s["ply"], "move": move}, game.tokens[decider])
    assert first.status_code == 200
    after_first = snapshot(site, game)
    assert_error(
        post_move(site, game.game_id, {"ply": s["ply"], "move": move}, game.tokens[decider]),
        409,
        "stale",
    )
    assert snapshot(site, game) == after_first


def test_unknown_game_is_a_clear_error(site) -> None:
    assert_error(httpx.get(f"{site.url}/api/games/nope"), 404, "unknown_game")
    assert_error(post_move(site, "nope", {"ply": 0, "move": "1-2"}, "x"), 404, "unknown_game")
    page = httpx.get(f"{site.url}/g/nope")
    assert page.status_code == 404 and "nope" in page.text
    with connect(f"{site.ws_url}/ws/games/nope") as ws:
        message = json.loads(ws.recv(timeout=5))
        assert message == {
            "type": "error",
            "code": "unknown_game",
            "message": "there is no game 'nope'",
        }


def test_creating_a_game_validates_its_input(site) -> None:
    assert_error(
        httpx.post(f"{site.url}/api/games", json={"variant": "chess"}), 400, "unknown_variant"
    )
    assert_error(
        httpx.post(f"{site.url}/api/games", json={"mode": "telepathy"}), 400, "bad_request"
    )
    assert_error(
        httpx.post(
            f"{site.url}/api/games", content="{oops", headers={"Content-Type": "application/json"}
        ),
        400,
        "bad_request",
    )
    assert_error(
        httpx.post(f"{site.url}/api/games", json={"mode": "computer", "level": "god"}),
        400,
        "bad_level",
    )
    assert httpx.get(f"{site.url}/api/openapi.json").json()["paths"]["/api/games"]["post"]


def test_the_api_description_names_every_variant_it_accepts(site) -> None:
    schema = httpx.get(f"{site.url}/api/openapi.json").json()["components"]["schemas"]
    described = schema["NewGame"]["properties"]["variant"]["description"]
    assert all(name in described for name in VARIANTS)
    for name in VARIANTS:
        made = httpx.post(f"{site.url}/api/games", json={"variant": name, "mode": "local"})
        assert made.status_code == 201, (name, made.text)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_level_is_offered_with_its_description_in_both_languages(site, lang: str) -> None:
    """The start form and /api/levels show each level's name and what it measured against
    the level below, in the page's language (the form adds the level's fixed rating)."""
    served = httpx.get(f"{site.url}/api/levels", params={"lang": lang}).json()
    assert served == [
        {"key": lv.key, "name": lv.name(lang), "description": lv.description(lang)} for lv in LEVELS
    ]
    page = httpx.get(f"{site.url}/", params={"lang": lang}).text
    for lv in LEVELS:
        # each description, then the level's measured rating (docs/players.md, Ratings)
        assert f'data-description="{escape(lv.description(lang))} ' in page
    other = "ru" if lang == "en" else "en"
    assert all(lv.description(other) not in page for lv in LEVELS)


def ws_for(site, game_id: str, token: str | None):
    headers = {"Cookie": f"senet_seat_{game_id}={token}"} if token else {}
    return connect(f"{site.ws_url}/ws/games/{game_id}", additional_headers=headers)


def recv_type(ws, kind: str) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message["type"] == kind:
            return message


def test_websocket_bad_input_is_an_error_and_changes_nothing(site) -> None:
    game = friend_game(site.url, "kendall")
    decider, other, _ = decider_and_other(site, game)
    before = snapshot(site, game)
    with (
        ws_for(site, game.game_id, game.tokens[decider]) as ws,
        ws_for(site, game.game_id, game.tokens[other]) as ws2,
    ):
        s = recv_type(ws, "state")
        assert s["legal"] and s["you"] == [decider]
        assert recv_type(ws2, "state")["legal"] == []  # only the deciding seat sees its moves
        ws.send("{broken")
        assert recv_type(ws, "error")["code"] == "bad_json"
        ws.send('"just a string"')
        assert recv_type(ws, "error")["code"] == "bad_request"
        ws.send(json.dumps({"type": "teleport"}))
        assert recv_type(ws, "error")["code"] == "unknown_type"
        ws.send(json.dumps({"type": "move", "ply": s["ply"] - 1, "move": s["legal"][0]}))
        assert recv_type(ws, "error")["code"] == "stale"
        ws.send(json.dumps({"type": "move", "ply": s["ply"], "move": "29-30"}))
        assert recv_type(ws, "error")["code"] == "illegal"
        ws2.send(json.dumps({"type": "move", "ply": s["ply"], "move": s["legal"][0]}))
        assert recv_type(ws2, "error")["code"] == "not_your_turn"
        ws.send(json.dumps({"type": "ping"}))
        assert recv_type(ws, "pong") == {"type": "pong"}
    with ws_for(site, game.game_id, "forged-secret") as spectator:
        s = recv_type(spectator, "state")
        assert s["you"] == [] and s["legal"] == [] and s["invite"] is None
        spectator.send(json.dumps({"type": "move", "ply": s["ply"], "move": "1-2"}))
        assert recv_type(spectator, "error")["code"] == "forbidden"
    assert snapshot(site, game) == before


#: Each kind of client message in its broken forms, and the error each gets (the HTTP API's
#: for the same field).
BROKEN_FRAMES = [
    ({"type": "move", "move": "1-2"}, "bad_request"),  # no ply
    ({"type": "move", "ply": "3", "move": "1-2"}, "bad_request"),
    ({"type": "move", "ply": True, "move": "1-2"}, "bad_request"),
    ({"type": "move", "ply": -1, "move": "1-2"}, "bad_request"),
    ({"type": "move", "ply": 3}, "bad_request"),  # no move
    ({"type": "move", "ply": 3, "move": 12}, "bad_request"),
    ({"type": "move", "ply": 3, "move": "  "}, "bad_request"),
    ({"type": "move", "ply": 3, "move": "1-2" * 10}, "bad_request"),
    ({"type": "seed"}, "bad_seed"),
    ({"type": "seed", "seed": 42}, "bad_seed"),
    ({"type": "seed", "seed": "a:b"}, "bad_seed"),
    ({"type": "seed", "seed": "x" * 65}, "bad_seed"),
    ({"type": "seed", "seed": "fine", "seat": 2}, "bad_request"),
    ({"type": "seed", "seed": "fine", "seat": "0"}, "bad_request"),
    ({"type": "chat"}, "bad_phrase"),
    ({"type": "chat", "phrase": "you lose"}, "bad_phrase"),
    ({"type": "chat", "phrase": ["hello"]}, "bad_phrase"),
    ({"type": "mute"}, "bad_request"),
    ({"type": "mute", "muted": "yes"}, "bad_request"),
    ({"type": "mute", "muted": 1}, "bad_request"),
    ({"type": None}, "unknown_type"),
    ({"type": ["move"]}, "unknown_type"),
    ({}, "unknown_type"),
    ([{"type": "move", "ply": 3, "move": "1-2"}], "bad_request"),
    (None, "bad_request"),
]


def test_each_client_message_kind_broken_is_refused_at_the_edge_and_changes_nothing(site) -> None:
    game = friend_game(site.url)
    decider, _, s = decider_and_other(site, game)
    before = snapshot(site, game)
    with ws_for(site, game.game_id, game.tokens[decider]) as ws:
        recv_type(ws, "state")
        for frame, code in BROKEN_FRAMES:
            ws.send(json.dumps(frame))
            error = recv_type(ws, "error")
            assert error["code"] == code, (frame, error)
            assert error["message"]
        # a sync with no event number is no error (in events mode it brings the whole state),
        # and a field a message does not have is ignored
        ws.send(json.dumps({"type": "sync", "since": "soon"}))
        ws.send(json.dumps({"type": "ping", "extra": "ignored"}))
        answers = []
        while not answers or answers[-1]["type"] != "pong":
            answers.append(json.loads(ws.recv(timeout=5)))
        assert all(a["type"] != "error" for a in answers) and answers[-1] == {"type": "pong"}
        ws.send(json.dumps({"type": "state"}))
        assert recv_type(ws, "state")["ply"] == s["ply"]
    assert snapshot(site, game) == before


def test_websocket_move_reaches_every_viewer(site) -> None:
    game = friend_game(site.url)
    decider, other, _ = decider_and_other(site, game)
    with (
        ws_for(site, game.game_id, game.tokens[decider]) as ws,
        ws_for(site, game.game_id, None) as spectator,
    ):
        s = recv_type(ws, "state")
        watching = LiveView(spectator)
        watching.next()
        ws.send(json.dumps({"type": "move", "ply": s["ply"], "move": best_move(s["legal"])}))
        seen = watching.next()
        assert (
            seen["ply"] > s["ply"] and seen["last_move"]["seat"] == decider and seen["legal"] == []
        )
        assert watching.kinds == ["state", "delta"]


def test_cross_origin_websocket_is_refused(site) -> None:
    game = friend_game(site.url)
    with pytest.raises(InvalidStatus):
        with connect(f"{site.ws_url}/ws/games/{game.game_id}", origin="http://evil.example") as ws:
            ws.recv(timeout=5)


def test_invitation_takes_the_free_seat_once(site) -> None:
    created = httpx.post(
        f"{site.url}/api/games", json={"variant": "bell", "mode": "friend", "colour": "B"}
    ).json()
    cookie_name = f"senet_seat_{created['id']}"
    preview = httpx.get(created["invite_url"], follow_redirects=False)  # a link preview robot, say
    assert (
        preview.status_code == 200
        and not preview.cookies.get(cookie_name)
        and 'method="post"' in preview.text
    )
    assert state(site.url, created["id"])["seats"][0]["taken"] is False  # looking takes nothing
    first = httpx.post(created["invite_url"], follow_redirects=False)
    assert first.cookies.get(cookie_name)
    assert "httponly" in first.headers["set-cookie"].lower()
    second = httpx.post(created["invite_url"], follow_redirects=False)
    assert second.status_code == 303 and not second.cookies.get(cookie_name)  # a spectator now
    used = httpx.get(created["invite_url"], follow_redirects=False)
    assert used.status_code == 303 and used.headers["location"] == f"/g/{created['id']}"
    assert state(site.url, created["id"], first.cookies.get(cookie_name))["you"] == [0]
    assert state(site.url, created["id"], created["token"])["you"] == [1]
    assert state(site.url, created["id"])["you"] == []
    assert len(created["token"]) >= 32  # 192 bits, URL-safe


def test_cancelling_over_http_tells_every_socket_and_forgets_the_seat(site) -> None:
    created = httpx.post(
        f"{site.url}/api/games", json={"variant": "kendall", "mode": "friend", "colour": "A"}
    ).json()
    game_id, token = created["id"], created["token"]
    cancel = f"{site.url}/api/games/{game_id}/cancel"
    # a spectator, a forged secret and the invitation itself may not cancel: nothing changes
    for headers in ({}, {"x-seat-token": "forged-secret"}):
        assert_error(httpx.post(cancel, json={}, headers=headers), 403, "forbidden")
    assert state(site.url, game_id, token)["you"] == [0]
    with ws_for(site, game_id, token) as host, ws_for(site, game_id, None) as spectator:
        recv_type(host, "state")
        recv_type(spectator, "state")
        answer = httpx.post(cancel, json={}, headers={"x-seat-token": token})
        assert answer.status_code == 204 and not answer.content
        assert (
            f"senet_seat_{game_id}=" in answer.headers["set-cookie"]
        )  # deleted: a seat in nothing
        assert "max-age=0" in answer.headers["set-cookie"].lower()
        for ws in (host, spectator):
            assert recv_type(ws, "cancelled") == {"type": "cancelled"}
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert_error(httpx.get(f"{site.url}/api/games/{game_id}"), 404, "unknown_game")
    assert_error(httpx.post(cancel, json={}, headers={"x-seat-token": token}), 404, "unknown_game")
    page = httpx.get(created["invite_url"])
    assert page.status_code == 404 and "cancelled it before anyone joined" in page.text
    # once the friend has taken the seat, only resigning ends the game
    joined = friend_game(site.url, "bell")
    answer = httpx.post(
        f"{site.url}/api/games/{joined.game_id}/cancel",
        json={},
        headers={"x-seat-token": joined.tokens[0]},
    )
    assert_error(answer, 409, "joined")
    assert state(site.url, joined.game_id, joined.tokens[0])["phase"] != "over"


def test_record_download_verifies(site) -> None:
    game = friend_game(site.url)
    record = httpx.get(f"{site.url}/g/{game.game_id}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    assert '[Variant "standard"]' in record.text and '[Result "*"]' in record.text
    assert "[Seed " not in record.text  # the secret stays secret while the game is on
