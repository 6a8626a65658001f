"""Helpers shared by the web tests: a two-seat game through the REST API and the invitation."""

from __future__ import annotations

from dataclasses import dataclass

import httpx

from senet.engine import OFF


@dataclass
class TwoSeats:
    game_id: str
    tokens: dict[int, str]  # seat -> seat secret


def friend_game(base: str, variant: str = "standard", colour: str = "A") -> TwoSeats:
    created = httpx.post(f"{base}/api/games", json={"variant": variant, "mode": "friend", "colour": colour})
    assert created.status_code == 201, created.text
    data = created.json()
    (mine,) = data["seats"]
    joined = httpx.post(data["invite_url"], follow_redirects=False)
    assert joined.status_code == 303
    cookie = joined.cookies.get(f"senet_seat_{data['id']}")
    assert cookie and cookie != data["token"]
    return TwoSeats(data["id"], {mine: data["token"], 1 - mine: cookie})


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
            return (2, OFF if target == "off" else int(target))
        return (1 if text in ("revive", "return") else 0, 0)

    return max(legal, key=key)
