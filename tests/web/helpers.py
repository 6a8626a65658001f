"""Helpers shared by the web tests: a two-seat game through the REST API and the invitation, and
a live viewer's state kept from its WebSocket as the game page keeps it."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from senet.engine import OFF
from senet.service.games.views import apply_delta


@dataclass
class TwoSeats:
    game_id: str
    tokens: dict[int, str]  # seat -> seat secret


def friend_game(
    base: str,
    variant: str = "standard",
    colour: str = "A",
    seeds: tuple[str, str] | None = ("seed of A", "seed of B"),
) -> TwoSeats:
    """A friend game with both seats taken; with ``seeds`` (seat A's, seat B's) both players
    give theirs, so the first throw is made; None leaves it seeding."""
    created = httpx.post(
        f"{base}/api/games", json={"variant": variant, "mode": "friend", "colour": colour}
    )
    assert created.status_code == 201, created.text
    data = created.json()
    (mine,) = data["seats"]
    joined = httpx.post(data["invite_url"], follow_redirects=False)
    assert joined.status_code == 303
    cookie = joined.cookies.get(f"senet_seat_{data['id']}")
    assert cookie and cookie != data["token"]
    game = TwoSeats(data["id"], {mine: data["token"], 1 - mine: cookie})
    if seeds is not None:
        for seat in (0, 1):
            response = give_seed(base, game.game_id, game.tokens[seat], seeds[seat])
            assert response.status_code == 200, response.text
    return game


def give_seed(base: str, game_id: str, token: str | None, seed, seat=None) -> httpx.Response:
    """POST a seat's own seed."""
    headers = {"X-Seat-Token": token} if token else {}
    body = {"seed": seed} if seat is None else {"seed": seed, "seat": seat}
    return httpx.post(f"{base}/api/games/{game_id}/seed", json=body, headers=headers)


def state(base: str, game_id: str, token: str | None = None) -> dict:
    headers = {"X-Seat-Token": token} if token else {}
    response = httpx.get(f"{base}/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def best_move(legal: list[str]) -> str:
    """Prefer bearing off, then the move that lands furthest (games end quickly)."""

    def key(text: str) -> tuple[int, int]:
        if "-" in text or "x" in text:
            origin, target = text.replace("x", "-").split("-")
            return (2, OFF if target.startswith("off") else int(target))  # off, off/2
        return (1 if text in ("revive", "return", "enter") else 0, 0)

    return max(legal, key=key)


def wait_past(base: str, game_id: str, ply: int, timeout: float = 20.0) -> dict:
    """The state once the game has gone past ``ply`` (a forced pass there is the server's to
    play: a client that sent it too would race the server's)."""
    deadline = time.monotonic() + timeout
    while True:
        seen = state(base, game_id)
        if seen["ply"] > ply:
            return seen
        assert time.monotonic() < deadline, f"the game stayed at ply {ply}: {seen['forced_pass']}"
        time.sleep(0.01)


def play_out(base: str, game: TwoSeats, moves: int | None = None) -> dict:
    """Both seats play (the furthest move, through the REST API) until the game is over, or
    until ``moves`` moves have been played; returns the last state seen.  A move's answer is
    the mover's state: it carries the legal moves when the mover decides again, else the
    other seat's state is read.  Forced passes are left to the server, which plays them."""
    seen = state(base, game.game_id)
    played = 0
    for _ in range(5000):
        if seen.get("outcome") or (moves is not None and played >= moves):
            return seen
        if seen["forced_pass"]:
            seen = wait_past(base, game.game_id, seen["ply"])
            continue
        token = game.tokens[seen["decider"]]
        mine = seen if seen.get("legal") else state(base, game.game_id, token)
        answer = httpx.post(
            f"{base}/api/games/{game.game_id}/moves",
            headers={"X-Seat-Token": token},
            json={"ply": mine["ply"], "move": best_move(mine["legal"])},
        )
        assert answer.status_code == 200, answer.text
        seen = answer.json()
        played += 1
    raise AssertionError("the game did not end")


def review_page(base: str, game_id: str, **kwargs: Any) -> httpx.Response:
    """The review page of a finished game once its review is computed: the API's review waits
    for the computation, after which the page is the review itself, not "being judged"."""
    ready = httpx.get(f"{base}/api/games/{game_id}/review", timeout=300)
    assert ready.status_code == 200, ready.text[:300]
    return httpx.get(f"{base}/g/{game_id}/review", **kwargs)


@dataclass
class LiveView:
    """A viewer's state on a game's WebSocket (``websockets.sync`` client), kept as the game
    page keeps it: the first state whole, then every delta applied to it."""

    ws: Any
    state: dict[str, Any] | None = None
    kinds: list[str] = field(default_factory=list)  # "state" or "delta", in the order received
    seq: int = 0  # the last delta's number since the last full state

    def next(self, timeout: float = 5) -> dict[str, Any]:
        """The state after the next state or delta message (other messages are skipped)."""
        while True:
            message = json.loads(self.ws.recv(timeout=timeout))
            kind = message["type"]
            if kind == "state":
                self.state, self.seq = message, 0
            elif kind == "delta":
                assert self.state is not None, "a delta before the first state"
                assert message["seq"] == self.seq + 1, f"delta {self.seq + 1} missing: {message}"
                self.seq = message["seq"]
                rebuilt = apply_delta(self.state, message)  # type: ignore[arg-type]
                assert rebuilt is not None, f"a delta that does not apply: {message}"
                self.state = dict(rebuilt)
            else:
                continue
            self.kinds.append(kind)
            return self.state


def unfold(page) -> None:
    """Open every section a variant page folds on a phone (fold.js), to look inside them."""
    page.wait_for_load_state("load")
    page.evaluate(
        "() => { for (const d of document.querySelectorAll('details.fold')) d.open = true; }"
    )


def decided_seats(seen: dict) -> set[int]:
    """The seats that have made a move of their own in a game's state (a pass is none)."""
    return {
        h["seat"]
        for h in seen["history"]
        if h["kind"] not in ("throw", "pass") and h.get("seat") is not None
    }


def both_move(clients: dict[int, httpx.Client], game_id: str, timeout: float = 30.0) -> dict:
    """Seed the seats that ``clients`` hold (each client carries its seat's cookie; a seat
    missing is the computer's), then play until each player has made a move of their own:
    only from then on is a rated game rated.  The last state seen."""
    for seat, client in clients.items():
        seeded = client.post(f"/api/games/{game_id}/seed", json={"seed": f"seat {seat}"})
        assert seeded.status_code == 200, seeded.text
    any_client = next(iter(clients.values()))
    deadline = time.monotonic() + timeout
    while True:
        seen = any_client.get(f"/api/games/{game_id}").json()
        assert not seen.get("outcome"), "the game ended before both players moved"
        if decided_seats(seen) == {0, 1}:
            return seen
        assert time.monotonic() < deadline, "the players made no move of their own"
        decider = seen["decider"]
        if decider not in clients or seen["forced_pass"]:
            time.sleep(0.01)  # the computer's turn, or a forced pass the server plays
            continue
        mine = clients[decider].get(f"/api/games/{game_id}").json()
        if mine["ply"] != seen["ply"] or not mine["legal"]:
            continue
        moves = [m for m in mine["legal"] if m != "pass"] or mine["legal"]
        answer = clients[decider].post(
            f"/api/games/{game_id}/moves", json={"ply": mine["ply"], "move": best_move(moves)}
        )
        assert answer.status_code in (200, 409), answer.text
