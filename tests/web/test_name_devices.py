"""A name plays its games on every device it is signed in on, and only there.

The seat of a game is held by its secret (the seat cookie of the device that took it) and, for
a signed-in name, by the name: the server finds the seats linked to the name of the device's
session (``Players.holder``), never from anything the browser says.  A seat becomes a name's
only while the game is not over, so a name taken after the end cannot make a game rated."""

from __future__ import annotations

import json
import re
import sqlite3

import httpx
from websockets.sync.client import connect

from .test_players_http import device, fresh, take


def code_of(client: httpx.Client) -> str:
    made = client.post("/name/transfer")
    return re.search(r'id="transfer-code" translate="no">([A-Z0-9 ]+)<', made.text).group(1)


def second_device(site, first: httpx.Client) -> httpx.Client:
    """Another browser signed in with ``first``'s name by a transfer code."""
    other = device(site)
    assert other.post("/transfer", data={"code": code_of(first), "confirm": "1"}).status_code == 303
    return other


def friend_game_of(owner: httpx.Client, opponent: httpx.Client, **form: str) -> str:
    """A friend game made on ``owner``'s device (seat A), joined by ``opponent``."""
    made = owner.post("/games", data={"mode": "friend", "colour": "A", **form})
    path = made.headers["location"]
    invite = re.search(r"/g/[\w-]+/join/[\w-]+", owner.get(path).text).group(0)
    assert opponent.post(invite).status_code == 303
    assert opponent.get(path).status_code == 200
    return path.rsplit("/", 1)[1]


def you(client: httpx.Client, game_id: str) -> list[int]:
    return client.get(f"/api/games/{game_id}").json()["you"]


def test_a_name_plays_its_seat_on_a_second_device_and_nobody_else_does(site) -> None:
    phone, opponent = device(site), device(site)
    name = fresh("Thut")
    take(phone, name)
    game_id = friend_game_of(phone, opponent)
    laptop = second_device(site, phone)
    assert not laptop.cookies.get(f"senet_seat_{game_id}")

    page = laptop.get(f"/g/{game_id}")
    assert page.status_code == 200
    assert 'data-you="[0]"' in page.text  # seat A, not "You are watching this game"
    assert 'id="private-link"' not in page.text  # no secret of the seat on this device
    assert you(laptop, game_id) == [0]

    # Not to anyone else: a device without a name, another name, a forged cookie.
    stranger, other_name = device(site), device(site)
    take(other_name, fresh("Other"))
    stranger.cookies.set("senet_player", "not-a-session-secret")
    for spectator in (device(site), other_name, stranger):
        assert you(spectator, game_id) == []
        assert 'data-you="[]"' in spectator.get(f"/g/{game_id}").text
        refused = spectator.post(f"/api/games/{game_id}/resign", json={})
        assert refused.status_code == 403, refused.text

    # The laptop gives the seat's seed and resigns, by the name alone.
    seeded = laptop.post(f"/api/games/{game_id}/seed", json={"seed": "from the laptop"})
    assert seeded.status_code == 200 and seeded.json()["you"] == [0], seeded.text
    resigned = laptop.post(f"/api/games/{game_id}/resign", json={})
    assert resigned.status_code == 200, resigned.text
    assert resigned.json()["outcome"]["result"] == "B"
    over = laptop.get(f"/g/{game_id}")
    assert 'data-you="[0]"' in over.text

    # Signed out, the laptop watches again.
    laptop.post("/name/signout")
    assert you(laptop, game_id) == []


def test_the_challengers_seat_taken_on_one_device_is_theirs_on_every_device(site) -> None:
    anna_phone, boris = device(site), device(site)
    anna, boris_name = fresh("Anna"), fresh("Boris")
    take(anna_phone, anna)
    take(boris, boris_name)
    sent = anna_phone.post(f"/challenge/{boris_name}", data={"colour": "A"})
    assert sent.status_code == 303, sent.text
    challenge_id = sent.headers["location"].rsplit("/", 1)[1]
    accepted = boris.post(f"/challenges/{challenge_id}/accept")
    game_id = accepted.headers["location"].rsplit("/", 1)[1]

    played = anna_phone.post(f"/challenges/{challenge_id}/play")
    assert played.headers["location"] == f"/g/{game_id}"
    assert you(anna_phone, game_id) == [0]

    anna_laptop = second_device(site, anna_phone)
    again = anna_laptop.post(f"/challenges/{challenge_id}/play")
    assert again.headers["location"] == f"/g/{game_id}"
    assert 'data-you="[0]"' in anna_laptop.get(f"/g/{game_id}").text
    assert you(anna_laptop, game_id) == [0]
    assert you(boris, game_id) == [1]


def test_a_name_taken_after_the_end_makes_no_game_rated(site) -> None:
    """A named player's rated game joined by an anonymous device changes nobody's rating; the
    winner taking a name afterwards and opening the game does not change that."""
    anna, anonymous = device(site), device(site)
    a_name = fresh("Rated")
    take(anna, a_name)
    game_id = friend_game_of(anna, anonymous, rated="1")
    assert anna.post(f"/api/games/{game_id}/resign", json={}).status_code == 200

    winner = fresh("Late")
    take(anonymous, winner)
    assert anonymous.get(f"/g/{game_id}").status_code == 200
    assert you(anonymous, game_id) == [1]  # its seat still, by its secret

    ratings = anonymous.get(f"/api/games/{game_id}/ratings").json()
    assert [(s["seat"], s["name"], s["change"]) for s in ratings["seats"]] == [("A", a_name, None)]
    assert anonymous.get(f"/api/players/{winner}").json()["ratings"] == {}
    assert anna.get(f"/api/players/{a_name}").json()["ratings"] == {}
    with sqlite3.connect(site.db) as conn:
        linked = conn.execute(
            "SELECT seat, player_id IS NOT NULL FROM seats WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
        done = conn.execute("SELECT rating_done FROM games WHERE id = ?", (game_id,)).fetchone()
    assert linked == [(0, 1), (1, 0)]
    assert not done[0]


def test_a_transfer_link_says_whose_name_it_is_and_asks_before_replacing_a_name(site) -> None:
    attacker, victim = device(site), device(site, "ru")
    bad, own = fresh("Mallory"), fresh("Victim")
    take(attacker, bad)
    take(victim, own)
    code = code_of(attacker).replace(" ", "")

    page = victim.get(f"/transfer/{code}")
    assert page.status_code == 200
    assert f"войдёт под именем {bad}" in page.text
    assert f"вы вошли как {own}" in page.text and 'id="transfer-confirm"' in page.text
    english = victim.get(f"/transfer/{code}?lang=en").text
    assert f"signs this device in as {bad}" in english
    assert f"signed in as {own}" in english and f"signs {own} out here" in english

    # Pressing "Sign in" without ticking the box changes nothing and spends nothing.
    refused = victim.post("/transfer", data={"code": code})
    assert refused.status_code == 409 and "Tick the box" in refused.text  # (?lang=en stays)
    assert f"You are {own}" in victim.get("/name").text

    # Ticked, it is the person's choice: the code is spent and the device takes that name.
    assert victim.post("/transfer", data={"code": code, "confirm": "1"}).status_code == 303
    assert f"You are {bad}" in victim.get("/name").text

    # A device without a name is told whose name it takes, and asked nothing more.
    fresh_device = device(site)
    other_code = code_of(attacker).replace(" ", "")
    shown = fresh_device.get(f"/transfer/{other_code}").text
    assert f"signs this device in as {bad}" in shown and 'id="transfer-confirm"' not in shown
    assert fresh_device.post("/transfer", data={"code": other_code}).status_code == 303


def test_a_challenge_answered_before_its_page_listens_is_told_when_it_does(site) -> None:
    """A bot accepts within a second: the challenger's page opens ``/ws/challenges?id=``
    after the answer, and learns it at once instead of waiting for a reload."""
    anna, boris = device(site), device(site)
    anna_name, boris_name = fresh("Quick"), fresh("Bot")
    take(anna, anna_name)
    take(boris, boris_name)
    sent = anna.post(f"/challenge/{boris_name}", data={"colour": "A"})
    challenge_id = sent.headers["location"].rsplit("/", 1)[1]
    game_id = boris.post(f"/challenges/{challenge_id}/accept").headers["location"].split("/")[-1]
    cookies = "; ".join(f"{k}={v}" for k, v in anna.cookies.items())
    url = f"{site.url.replace('http', 'ws', 1)}/ws/challenges?id={challenge_id}"
    with connect(url, additional_headers={"Cookie": cookies}) as live:
        told = json.loads(live.recv(timeout=10))
    assert (told["type"], told["event"]) == ("challenge", "accepted")
    assert (told["challenge"]["id"], told["challenge"]["game"]) == (challenge_id, game_id)


def test_my_games_of_a_name_are_its_games_from_every_device(site) -> None:
    phone, opponent = device(site), device(site)
    name = fresh("Mine")
    take(phone, name)
    game_id = friend_game_of(phone, opponent, time_control="days:2")
    laptop = second_device(site, phone)

    page = laptop.get("/games/mine").text
    assert "<h1>My games</h1>" in page
    assert f"The games of your name {name}, from every device" in page
    assert "No account" not in page and "No game on this device yet" not in page
    assert '<li class="my-game state-' in page and f'href="/g/{game_id}"' in page
    assert [g["id"] for g in laptop.get("/api/mine").json()] == [game_id]
    ru = laptop.get("/games/mine?lang=ru").text
    assert "<h1>Мои партии</h1>" in ru and f"Партии вашего имени {name}" in ru

    # A device without a name keeps the words of a device without a name.
    anonymous = device(site)
    assert "No game on this device yet" in anonymous.get("/games/mine?lang=en").text
    assert "No account" in anonymous.get("/games/mine").text
    assert anonymous.get("/api/mine").json() == []
