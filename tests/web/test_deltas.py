"""Live play sends the whole state once, then deltas: over real WebSockets to a real server,
every viewer (both seats and a spectator) rebuilds, delta by delta, exactly the full state the
server gives at that ply, through whole games of several variants, timed and untimed, ended by
the rules or by a resignation; a delta rebuilds any later state from any earlier one; a client
that misses a delta asks for the state and is whole again."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from senet.service.games.views import apply_delta, delta_message

from .conftest import SiteServer
from .helpers import LiveView, TwoSeats, best_move, give_seed, wait_past


@pytest.fixture(scope="module")
def fast_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteServer]:
    """A server without rate limits: the tests play whole games as fast as it answers."""
    server = SiteServer(tmp_path_factory.mktemp("deltas") / "senet.sqlite3")
    server.env["SENET_RATE_LIMITS"] = "off"
    server.start()
    yield server
    server.stop()


#: One keep-alive connection for the tests' requests (a new connection per request would cost
#: more than the game); it is sent no seat cookie, so it keeps none: the seats are headers.
HTTP = httpx.Client(timeout=10)


def new_game(base: str, variant: str, time_control: str) -> TwoSeats:
    created = httpx.post(
        f"{base}/api/games",
        json={"variant": variant, "mode": "friend", "colour": "A", "time_control": time_control},
    )
    assert created.status_code == 201, created.text
    data = created.json()
    joined = httpx.post(data["invite_url"], follow_redirects=False)  # cookies of its own
    cookie = joined.cookies.get(f"senet_seat_{data['id']}")
    assert cookie
    return TwoSeats(data["id"], {0: data["token"], 1: cookie})


def fresh(base: str, game_id: str, token: str | None) -> dict[str, Any]:
    """The full state the server gives this viewer now (the REST API builds the same one)."""
    headers = {"X-Seat-Token": token} if token else {}
    response = HTTP.get(f"{base}/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def timeless(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what depends on the moment it was built, not on the game: the server's
    time, and who is connected (a connection's coming is announced by a ``presence`` message;
    the state's copy is as of the last change of the game)."""
    return {k: v for k, v in state.items() if k not in ("now", "presence")}


def differences(state: dict[str, Any] | None, expected: dict[str, Any]) -> dict[str, Any]:
    """The fields in which ``state`` is not ``expected``: (its value, the expected one)."""
    state = state or {}
    return {k: (state.get(k), v) for k, v in timeless(expected).items() if state.get(k) != v}


def settle(view: LiveView, expected: dict[str, Any], timeout: float = 10) -> None:
    """Read the view's messages until its state is ``expected`` (the connections' own arrival
    changes the presence, which the server announces to everyone)."""
    deadline = time.monotonic() + timeout
    while view.state is None or timeless(view.state) != timeless(expected):
        try:
            view.next(timeout=max(0.1, deadline - time.monotonic()))
        except TimeoutError:
            pytest.fail(f"the view differs: {differences(view.state, expected)}")


def catch_up(view: LiveView, expected: dict[str, Any]) -> None:
    """The view, followed to ``expected``'s ply, is ``expected`` (but for the time)."""
    while view.state is None or view.state["ply"] < expected["ply"]:
        view.next()
    assert view.state["ply"] == expected["ply"]
    assert timeless(view.state) == timeless(expected)


GAMES = [  # B resigns at ply resign_at (None: played to the end the rules set)
    ("bell", "clock:300+5", None, 2),
    ("standard", "untimed", 150, 1),
    ("kendall", "move:60", 40, 3),
    ("adelaida", "untimed", 150, 4),
]


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "time_control", "resign_at", "seed"), GAMES)
def test_every_viewer_rebuilds_the_full_state_from_deltas_at_every_ply(
    fast_site: SiteServer, variant: str, time_control: str, resign_at: int | None, seed: int
) -> None:
    base, rng = fast_site.url, random.Random(seed)
    game = new_game(base, variant, time_control)
    gid = game.game_id
    tokens: dict[str, str | None] = {"A": game.tokens[0], "B": game.tokens[1], "watcher": None}
    seat_a_states: list[dict[str, Any]] = []
    with ExitStack() as stack:
        views = {
            name: LiveView(
                stack.enter_context(
                    connect(
                        f"{fast_site.ws_url}/ws/games/{gid}",
                        additional_headers={"Cookie": f"senet_seat_{gid}={token}"} if token else {},
                    )
                )
            )
            for name, token in tokens.items()
        }
        for name, view in views.items():
            settle(view, fresh(base, gid, tokens[name]))
        for seat, words in ((0, "alpha"), (1, "beta")):  # the seeds, then the first throw
            assert give_seed(base, gid, game.tokens[seat], words).status_code == 200
            for name, view in views.items():
                settle(view, fresh(base, gid, tokens[name]))
        for _ in range(3000):
            now = fresh(base, gid, game.tokens[0])
            seat_a_states.append(now)
            if now["outcome"]:
                break
            if resign_at is not None and now["ply"] >= resign_at:
                answer = HTTP.post(
                    f"{base}/api/games/{gid}/resign",
                    json={},
                    headers={"X-Seat-Token": game.tokens[1]},
                )
            elif now["forced_pass"]:  # the server's to play: a pass sent too would race it
                wait_past(base, gid, now["ply"])
                for name, view in views.items():
                    catch_up(view, fresh(base, gid, tokens[name]))
                continue
            else:
                token = game.tokens[now["decider"]]
                legal = fresh(base, gid, token)["legal"]
                move = best_move(legal) if rng.random() < 0.7 else rng.choice(legal)
                answer = HTTP.post(
                    f"{base}/api/games/{gid}/moves",
                    json={"ply": now["ply"], "move": move},
                    headers={"X-Seat-Token": token},
                )
            assert answer.status_code == 200, answer.text
            for name, view in views.items():
                catch_up(view, fresh(base, gid, tokens[name]))
        else:
            pytest.fail("the game did not end")
    final = seat_a_states[-1]
    assert final["outcome"] and final["fairness"]["secret"]  # the end and the secret, by delta
    if resign_at is not None:
        assert final["termination"] == "resignation" and final["history"][-1]["kind"] == "end"
    if time_control != "untimed":
        assert final["clock"] is not None
    for view in views.values():  # one whole state, then only deltas
        assert view.kinds[0] == "state" and set(view.kinds[1:]) == {"delta"}, view.kinds[:5]
        assert len(view.kinds) > len(final["history"]) // 2

    # Property: from any state to any later one, the delta rebuilds the later one exactly (the
    # server's time included), and it is smaller than the state it replaces.
    for _ in range(300):
        i = rng.randrange(len(seat_a_states))
        j = rng.randrange(i, len(seat_a_states))
        before, after = seat_a_states[i], seat_a_states[j]
        delta = delta_message(before, after)  # type: ignore[arg-type]
        assert delta is not None and (delta["since"], delta["ply"]) == (before["ply"], after["ply"])
        assert apply_delta(before, delta) == after  # type: ignore[arg-type]
        assert len(json.dumps(delta)) < len(json.dumps(after))
        if i != j:  # out of order, or for a state the delta does not start from: nothing
            assert apply_delta(after, delta) is None  # type: ignore[arg-type]


def test_a_delta_is_refused_for_another_game_or_a_history_that_does_not_continue(
    site: SiteServer,
) -> None:
    one, other = (new_game(site.url, "standard", "untimed") for _ in range(2))
    for game in (one, other):
        for seat in (0, 1):
            give_seed(site.url, game.game_id, game.tokens[seat], f"seed {seat}")
    a = fresh(site.url, one.game_id, one.tokens[0])
    b = fresh(site.url, other.game_id, other.tokens[0])
    assert delta_message(a, b) is None  # type: ignore[arg-type]
    rewritten = dict(a, history=[dict(a["history"][0], value=9)])
    assert delta_message(rewritten, a) is None  # type: ignore[arg-type]
    assert delta_message(a, dict(a, history=[])) is None  # type: ignore[arg-type]


def test_a_client_that_misses_a_delta_asks_for_the_state_and_is_whole_again(
    fast_site: SiteServer,
) -> None:
    base = fast_site.url
    game = new_game(base, "kendall", "untimed")
    gid = game.game_id
    for seat in (0, 1):
        give_seed(base, gid, game.tokens[seat], f"seed {seat}")

    def move() -> None:
        now = fresh(base, gid, None)
        token = game.tokens[now["decider"]]
        legal = fresh(base, gid, token)["legal"]
        answer = HTTP.post(
            f"{base}/api/games/{gid}/moves",
            json={"ply": now["ply"], "move": best_move(legal)},
            headers={"X-Seat-Token": token},
        )
        assert answer.status_code == 200, answer.text

    with connect(f"{fast_site.ws_url}/ws/games/{gid}") as ws:
        view = LiveView(ws)
        settle(view, fresh(base, gid, None))
        move()
        target = fresh(base, gid, None)["ply"]
        while True:  # lost on the way: every delta of the first move
            missed = json.loads(ws.recv(timeout=5))
            if missed["type"] == "delta" and missed["ply"] >= target:
                break
        move()
        late = json.loads(ws.recv(timeout=5))
        while late["type"] != "delta":
            late = json.loads(ws.recv(timeout=5))
        assert late["seq"] > view.seq + 1 and late["since"] > view.state["ply"]
        assert apply_delta(view.state, late) is None  # type: ignore[arg-type]
        ws.send(json.dumps({"type": "state"}))
        whole = json.loads(ws.recv(timeout=5))
        while whole["type"] != "state":  # deltas still on their way are ignored
            whole = json.loads(ws.recv(timeout=5))
        view.state, view.seq = whole, 0
        assert timeless(whole) == timeless(fresh(base, gid, None))
        move()  # and the deltas after it apply to it again, numbered from 1
        catch_up(view, fresh(base, gid, None))
        assert view.kinds[-1] == "delta" and view.seq >= 1
