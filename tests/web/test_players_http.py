"""Players with a name over HTTP, against a real server: taking a name (refusals worded in both
languages, rate-limited), the device's secret never shown nor logged, transfer codes (once),
signing out here and everywhere, deleting a name, a rated game's ratings on both profiles, and
a game without names exactly as before."""

from __future__ import annotations

import itertools
import re
import sqlite3
from pathlib import Path

import httpx
import pytest

from senet.service.games.live_games import hash_token

from .conftest import SiteServer
from .helpers import both_move

_addresses = itertools.count(1)


def device(site, lang: str = "en") -> httpx.Client:
    """A browser of its own: its own cookies and its own address (the server trusts the
    loopback proxy's X-Forwarded-For), so the per-address limits of one test touch no other."""
    n = next(_addresses)
    return httpx.Client(
        base_url=site.url,
        headers={"X-Forwarded-For": f"10.1.{n // 250}.{n % 250 + 1}", "Accept-Language": lang},
        follow_redirects=False,
    )


_names = itertools.count(1)


def fresh(prefix: str = "Player") -> str:
    return f"{prefix}{next(_names)}x{id(_names) % 997}"


def take(client: httpx.Client, name: str) -> httpx.Response:
    return client.post("/name", data={"name": name})


def test_a_name_lives_in_an_httponly_cookie_whose_secret_is_never_shown(site) -> None:
    anna = device(site)
    name = fresh("Anna")
    taken = take(anna, name)
    assert taken.status_code == 303 and taken.headers["location"] == "/name"
    cookie = taken.headers["set-cookie"]
    assert cookie.startswith("senet_player=") and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Path=/" in cookie
    secret = anna.cookies["senet_player"]
    assert len(secret) >= 32
    page = anna.get("/name")
    assert f"You are {name}" in page.text
    assert f'href="/@/{name}"' in anna.get("/").text  # the header names the player
    game = anna.post("/games", data={"mode": "friend"})
    pages = [page, anna.get("/"), anna.get(f"/@/{name}"), anna.get(f"/api/players/{name}")]
    pages += [anna.get(game.headers["location"]), anna.get("/games/mine")]
    for shown in pages:
        assert shown.status_code == 200 and secret not in shown.text
    assert secret not in site.log.read_text()
    with sqlite3.connect(site.db) as conn:
        stored = [row[0] for row in conn.execute("SELECT token_hash FROM player_sessions")]
    assert hash_token(secret) in stored and secret not in stored


@pytest.mark.parametrize(
    ("lang", "name", "words"),
    [
        ("en", "adm1n", "reserved for the site"),
        ("ru", "adm1n", "занято сайтом"),
        ("en", "Ivan\u043e", "one alphabet"),  # a Cyrillic о at the end
        ("ru", "Ivan\u043e", "одним алфавитом"),
        ("en", "ab", "3 to 20 characters"),
        ("ru", "x y z", "только буквы"),
    ],
)
def test_a_refused_name_says_why_in_the_page_language(site, lang: str, name: str, words: str):
    client = device(site, lang)
    refused = take(client, name)
    assert refused.status_code == 400 and words in refused.text
    assert "senet_player" not in refused.headers.get("set-cookie", "")


def test_a_name_is_taken_once_whatever_its_case_or_alphabet(site) -> None:
    name = fresh("Olga")
    assert take(device(site), name).status_code == 303
    for other in (name.upper(), name.lower(), "\u041e" + name[1:].lower().replace("o", "\u043e")):
        refused = take(device(site), other)
        assert refused.status_code == 400
        assert "is taken" in refused.text or "one alphabet" in refused.text


@pytest.mark.slow  # tries up to the rate limits: more than a few seconds
def test_names_and_codes_are_rate_limited_per_address(tmp_path: Path) -> None:
    server = SiteServer(tmp_path / "limited.sqlite3")
    server.env["SENET_RATE_LIMITS"] = "50,300,10,100"  # the site's defaults: limits on
    server.env["SENET_MANUAL_CLOCK"] = "1"  # no try is given back while the tries are sent
    server.start()
    try:
        client = device(server)
        taken = fresh("Taken")
        assert take(device(server), taken).status_code == 303
        # four typos and a name taken already: refused on the form, and they cost nothing
        for typo in ("ab", "anna!", "1anna", "an--na", taken):
            assert take(client, typo).status_code == 400
        for _ in range(5):
            assert take(client, fresh("Many")).status_code == 303
            client.cookies.clear()
        typed = fresh("Many")
        refused = take(client, typed)
        # over the limit: the form, with what was typed and why it waits, in either language
        assert refused.status_code == 429 and 'id="take-name"' in refused.text
        assert f'value="{typed}"' in refused.text
        assert "another can be taken in ten minutes" in refused.text
        ru = client.post("/name?lang=ru", data={"name": typed})
        assert ru.status_code == 429 and "следующее можно взять через десять минут" in ru.text
        assert take(client, "ab").status_code == 400  # a typo is still said as a typo
        other = device(server)
        assert take(other, fresh("Other")).status_code == 303  # another address may
        tries = [other.post("/transfer", data={"code": "ABCD" * 3}) for _ in range(21)]
        assert [r.status_code for r in tries] == [400] * 20 + [429]
    finally:
        server.stop()


def test_a_transfer_code_signs_in_one_other_device_once(site) -> None:
    phone = device(site)
    name = fresh("Pavel")
    take(phone, name)
    made = phone.post("/name/transfer")
    assert made.status_code == 200 and made.headers["cache-control"] == "no-store"
    code = re.search(r'id="transfer-code" translate="no">([A-Z0-9 ]+)<', made.text).group(1)
    link = re.search(r'value="(http[^"]+/transfer/[A-Z0-9]+)"', made.text).group(1)
    assert link.endswith(code.replace(" ", ""))
    laptop = device(site)
    shown = laptop.get(link[len(site.url) :])  # opening the link spends nothing
    assert shown.status_code == 200 and "Sign in" in shown.text
    signed = laptop.post("/transfer", data={"code": code.lower()})
    assert signed.status_code == 303
    assert f"You are {name}" in laptop.get("/name").text
    assert laptop.cookies["senet_player"] != phone.cookies["senet_player"]
    again = device(site).post("/transfer", data={"code": code})
    assert again.status_code == 400 and "used already or expired" in again.text
    assert "/transfer/[redacted]" in site.log.read_text()
    assert code.replace(" ", "") not in site.log.read_text()


def test_sign_out_here_and_everywhere(site) -> None:
    phone, laptop = device(site), device(site)
    name = fresh("Vera")
    take(phone, name)
    code = re.search(
        r'id="transfer-code" translate="no">([A-Z0-9 ]+)<', phone.post("/name/transfer").text
    )
    laptop.post("/transfer", data={"code": code.group(1)})
    out = laptop.post("/name/signout")
    assert out.status_code == 303 and 'senet_player=""' in out.headers["set-cookie"]
    assert "Take this name" in laptop.get("/name").text
    assert f"You are {name}" in phone.get("/name").text
    stolen = phone.cookies["senet_player"]
    phone.post("/name/signout-all")
    thief = device(site)
    thief.cookies.set("senet_player", stolen)
    assert "Take this name" in thief.get("/name").text  # the old secret signs nobody in


def test_deleting_a_name_keeps_its_games_anonymous(site) -> None:
    anna, boris = device(site), device(site)
    a_name, b_name = fresh("Ada"), fresh("Bob")
    take(anna, a_name)
    take(boris, b_name)
    game_id = rated_game(site, anna, boris)
    wrong = anna.post("/name/delete", data={"confirm": "someone"})
    # a wrong confirmation is said on the form, which stays open, and deletes nothing
    assert wrong.status_code == 400 and 'id="delete-refused"' in wrong.text
    assert "Type your name exactly to delete it." in wrong.text
    assert '<details class="delete-name" open>' in wrong.text
    assert anna.get(f"/@/{a_name}").status_code == 200
    ru = anna.post("/name/delete?lang=ru", data={"confirm": "someone"})
    assert ru.status_code == 400 and "Чтобы удалить имя, введите его точно." in ru.text
    deleted = anna.post("/name/delete", data={"confirm": a_name.upper()})
    assert deleted.status_code == 303 and deleted.headers["location"] == "/name?deleted=1"
    assert anna.get(f"/@/{a_name}").status_code == 404
    assert anna.get(f"/api/players/{a_name}").json()["code"] == "unknown_player"
    assert anna.get(f"/g/{game_id}").status_code == 200  # the game stays
    recent = boris.get(f"/api/players/{b_name}").json()["recent"]
    assert [(g["id"], g["opponent"]) for g in recent] == [(game_id, None)]
    assert "anonymous" in boris.get(f"/@/{b_name}").text


def rated_game(site, first: httpx.Client, second: httpx.Client) -> str:
    """A rated friend game between two named devices, which ``second`` resigns once both
    players have moved."""
    made = first.post("/games", data={"mode": "friend", "colour": "A", "rated": "1"})
    game_path = made.headers["location"]
    page = first.get(game_path)
    assert 'data-rated="1"' in page.text
    invite = re.search(r"/g/[\w-]+/join/[\w-]+", page.text).group(0)
    assert second.post(invite).status_code == 303
    game_id = game_path.rsplit("/", 1)[1]
    assert second.get(game_path).status_code == 200  # links its seat to its player
    both_move({0: first, 1: second}, game_id)
    resigned = second.post(f"/api/games/{game_id}/resign", json={})
    assert resigned.status_code == 200, resigned.text
    return game_id


def test_a_rated_game_changes_both_ratings_once(site) -> None:
    anna, boris = device(site), device(site)
    a_name, b_name = fresh("Alla"), fresh("Boris")
    take(anna, a_name)
    take(boris, b_name)
    game_id = rated_game(site, anna, boris)
    ratings = anna.get(f"/api/games/{game_id}/ratings").json()
    assert ratings["rated"] and ratings["over"]
    assert [(s["seat"], s["name"], s["rating"], s["change"]) for s in ratings["seats"]] == [
        ("A", a_name, "1662?", 162),
        ("B", b_name, "1338?", -162),
    ]
    assert anna.get(f"/api/games/{game_id}/ratings").json() == ratings  # once, not again
    profile = boris.get(f"/api/players/{a_name}").json()
    assert profile["ratings"]["standard"]["text"] == "1662?"
    assert profile["ratings"]["standard"]["provisional"] is True
    assert [h["rating"] for h in profile["ratings"]["standard"]["history"]] == [1500, 1662]
    assert (profile["games"], profile["wins"], profile["losses"]) == (1, 1, 0)
    (game,) = profile["recent"]
    assert (game["opponent"], game["result"], game["termination"]) == (b_name, "win", "resignation")
    assert game["rating_change"] == 162 and game["record"] == f"/g/{game_id}/record"
    page = boris.get(f"/@/{b_name}")
    assert "1338?" in page.text and "<svg" in page.text and f"/g/{game_id}/review" in page.text
    ru = boris.get(f"/@/{b_name}?lang=ru")
    assert "Рейтинги" in ru.text and "поражение" in ru.text and "сдача" in ru.text
    mine = boris.get("/games/mine?lang=en")
    assert "Your games on every device" in mine.text and a_name in mine.text


def test_a_game_without_names_is_as_before(site) -> None:
    anonymous = device(site)
    home = anonymous.get("/")
    assert 'name="rated"' not in home.text and "Take a name" in home.text
    made = anonymous.post("/games", data={"mode": "friend", "rated": "1"})  # ignored
    game_path = made.headers["location"]
    page = anonymous.get(game_path)
    assert page.status_code == 200 and 'id="named-players"' not in page.text
    game_id = game_path.rsplit("/", 1)[1]
    assert anonymous.get(f"/api/games/{game_id}/ratings").json() == {
        "rated": False,
        "over": False,
        "seats": [],
    }
    assert "senet_player" not in anonymous.cookies


def test_an_unknown_player(site) -> None:
    client = device(site)
    assert client.get("/@/nobody-here").status_code == 404
    missing = client.get("/api/players/nobody-here")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_player"


def test_the_players_pages_speak_russian(site) -> None:
    from .test_russian import untranslated

    anna, boris = device(site, "ru"), device(site, "ru")
    anna.cookies.set("lang", "ru")
    boris.cookies.set("lang", "ru")
    pages = {"/name": anna.get("/name").text, "/transfer": anna.get("/transfer").text}
    pages["refused"] = take(anna, "adm1n").text
    a_name, b_name = fresh("Ivan"), fresh("Petr")
    take(anna, a_name)
    take(boris, b_name)
    game_id = rated_game(site, anna, boris)
    pages["/name (named)"] = anna.get("/name").text
    pages["/name/transfer"] = anna.post("/name/transfer").text
    pages["/transfer (failed)"] = boris.post("/transfer", data={"code": "nonsense"}).text
    pages["profile"] = anna.get(f"/@/{a_name}").text
    pages["game"] = anna.get(f"/g/{game_id}").text
    pages["mine"] = anna.get("/games/mine").text
    for path, html in pages.items():
        assert '<html lang="ru">' in html, path
        assert not untranslated(html), (path, untranslated(html))


def test_rated_quick_pairing_and_the_lobby_shows_each_seekers_name_and_rating(site) -> None:
    anna, boris, anonymous = device(site), device(site), device(site)
    a_name, b_name = fresh("Seeker"), fresh("Taker")
    take(anna, a_name)
    take(boris, b_name)
    assert 'name="rated"' in anna.get("/").text  # the play-now form offers it to a name
    assert 'name="rated"' not in anonymous.get("/").text
    request = {"variant": "piccione", "time_control": "move:30", "rated": "1"}
    waiting = anna.post("/play-now", data=request)
    game_id = waiting.headers["location"].rsplit("/", 1)[1]
    listing = {g["id"]: g for g in anonymous.get("/api/lobby").json()}
    assert (listing[game_id]["player"], listing[game_id]["rating"]) == (a_name, "1500?")
    paired = boris.post("/play-now", data=request)
    assert paired.headers["location"] == f"/g/{game_id}"
    assert game_id not in {g["id"] for g in anonymous.get("/api/lobby").json()}
    ratings = anna.get(f"/api/games/{game_id}/ratings").json()
    assert ratings["rated"] and {s["name"] for s in ratings["seats"]} == {a_name, b_name}
    # an anonymous player's quick pairing is the casual one, as before
    casual = anonymous.post("/play-now", data=request)
    casual_id = casual.headers["location"].rsplit("/", 1)[1]
    listing = {g["id"]: g for g in anonymous.get("/api/lobby").json()}
    assert listing[casual_id]["player"] is None
    assert anonymous.get(f"/api/games/{casual_id}/ratings").json()["rated"] is False


def test_a_computer_level_is_a_player_in_the_rating_pool(site) -> None:
    from senet.service.computer.players import level_options

    anna = device(site, "ru")
    anna.cookies.set("lang", "ru")
    take(anna, fresh("Vs"))
    made = anna.post(
        "/games", data={"mode": "computer", "level": "beginner", "colour": "A", "rated": "1"}
    )
    game_id = made.headers["location"].rsplit("/", 1)[1]
    assert anna.get(f"/g/{game_id}").status_code == 200
    both_move({0: anna}, game_id)
    resigned = anna.post(f"/api/games/{game_id}/resign", json={})
    assert resigned.status_code == 200, resigned.text
    seats = anna.get(f"/api/games/{game_id}/ratings").json()["seats"]
    level = next(s for s in seats if s["kind"] == "computer")
    ru_name = next(name for key, name, _ in level_options("ru") if key == "beginner")
    assert (level["name"], level["label"]) == ("beginner", ru_name)
    assert level["change"] == 0  # the level won, and its rating is fixed: 1246 in standard
    assert level["rating"] == "1246"
    profile = anna.get("/api/players/beginner").json()
    assert profile["kind"] == "computer" and profile["ratings"]["standard"]["games"] >= 1
    page = anna.get("/@/beginner")
    assert f'<h1 id="profile-name">{ru_name}' in page.text
    assert ru_name in anna.get(f"/g/{game_id}").text
    # the start form says the level's rating ("master ≈ 1850")
    home = anna.get("/?lang=en").text
    assert re.search(
        r'value="beginner"[^>]*data-description="[^"]*measured on the ladder: ≈ 1246', home
    )


def test_a_computer_levels_profile_exists_before_it_has_played(site) -> None:
    """/@/master is the level's profile from the start: its fixed rating per variant."""
    visitor = device(site)
    page = visitor.get("/@/master")
    assert page.status_code == 200 and "1677" in page.text
    profile = visitor.get("/api/players/master").json()
    assert profile["kind"] == "computer"
    assert profile["ratings"]["standard"]["text"] == "1677"
