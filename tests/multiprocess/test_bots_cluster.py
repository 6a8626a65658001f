"""The bot API over three processes (PostgreSQL and Redis): the bot's event stream is served by
one process, its game stream by another, its seek, seed and resignation go to the third, and a
person takes the seek there too; the event stream hears of the game's start and end, the game
stream carries every change and ends with the outcome, and the token made on one process is
refused on every process once revoked."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import httpx

from senet_testkit.botapi import Lines, api, bot, named


def test_a_bots_streams_follow_its_game_across_processes(cluster) -> None:
    events_at, game_at, acts_at = (p.url for p in cluster)
    name, token = bot(acts_at, "Cluster")
    events = Lines(events_at, token, "/api/bot/stream/event")
    assert events.status_code == 200
    seek = api(acts_at, token).post("/api/bot/seek", json={"rated": False}).json()
    assert seek["waiting"] is True
    taken = httpx.post(f"{acts_at}/api/lobby/{seek['id']}/take", json={})
    assert taken.status_code == 200, taken.text
    person = {"X-Seat-Token": taken.json()["token"]}
    start = events.until(lambda e: e["type"] == "gameStart")
    assert start["game"]["id"] == seek["id"]

    game = Lines(game_at, token, f"/api/bot/game/stream/{seek['id']}")
    first = game.next()
    assert first is not None and first["type"] == "state" and first["phase"] == "seeding"
    bot_api = api(acts_at, token)
    assert bot_api.post(f"/api/bot/game/{seek['id']}/seed", json={"seed": "b"}).status_code == 200
    given = httpx.post(f"{acts_at}/api/games/{seek['id']}/seed", json={"seed": "p"}, headers=person)
    assert given.status_code == 200, given.text
    thrown = game.until(lambda m: m["type"] == "events" and m["events"])
    assert thrown["events"][0]["kind"] == "throw" and thrown["phase"] == "playing"
    assert bot_api.post(f"/api/bot/game/{seek['id']}/resign").status_code == 200
    last = game.until(lambda m: m.get("outcome"))
    assert last["events"][-1]["text"] == "resignation"
    assert game.next() is None  # the game stream ends with the game
    finish = events.until(lambda e: e["type"] == "gameFinish")
    assert finish["game"]["id"] == seek["id"] and finish["game"]["termination"] == "resignation"
    events.close()
    game.close()

    # a token revoked on one process is refused by every process
    client, person_name = named(events_at, "Revoker")
    made = client.post("/account/tokens", data={"label": "x", "scope": ["challenge:read"]})
    secret = re.search(r'id="new-token" translate="no">(senet_[\w-]+)<', made.text).group(1)
    assert all(
        api(url, secret).get("/api/account").status_code == 200 for url in cluster_urls(cluster)
    )
    token_id = re.search(r'data-token="(\w+)"', client.get(f"/@/{person_name}").text).group(1)
    assert client.post(f"/account/tokens/{token_id}/revoke").status_code == 303
    for url in cluster_urls(cluster):
        refused = api(url, secret).get("/api/account")
        assert refused.status_code == 401 and refused.json()["code"] == "bad_token"


def cluster_urls(cluster) -> list[str]:
    return [p.url for p in cluster]


def seek_at_once(urls: list[str], token: str, n: int, control: str) -> list[httpx.Response]:
    """``n`` seeks of one bot sent at once, spread over the processes."""

    def one(i: int) -> httpx.Response:
        with api(urls[i % len(urls)], token) as client:
            return client.post("/api/bot/seek", json={"rated": False, "time_control": control})

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(one, range(n)))


def test_concurrent_seeks_of_one_bot_keep_its_caps_over_processes(cluster) -> None:
    """30 seeks of one bot at once over three processes: no more listed than the lobby's cap
    (3) shows anyone's, the rest 429 too_many_listed; with 6 of its games going, of 30 more
    at once exactly 2 are listed (its games quota is 8), the rest 429 too_many_games."""
    urls = cluster_urls(cluster)
    name, token = bot(urls[0], "Racer")
    control = "move:77"  # no other test's bot seeks it: nothing pairs with these
    for _ in range(2):
        answers = seek_at_once(urls, token, 30, control)
        listed = [a.json() for a in answers if a.status_code == 200]
        assert len(listed) == 3, [a.text for a in answers if a.status_code != 200][:3]
        refused = [a for a in answers if a.status_code != 200]
        assert {(a.status_code, a.json()["code"]) for a in refused} == {(429, "too_many_listed")}
        for seek in listed:  # people take them: games going
            assert httpx.post(f"{urls[1]}/api/lobby/{seek['id']}/take", json={}).status_code == 200
    answers = seek_at_once(urls, token, 30, control)
    assert sum(a.status_code == 200 for a in answers) == 2
    refused = [a for a in answers if a.status_code != 200]
    assert {(a.status_code, a.json()["code"]) for a in refused} == {(429, "too_many_games")}
    assert all(a.headers["retry-after"] == "60" for a in refused)
    lobby = httpx.get(f"{urls[2]}/api/lobby").text
    assert lobby.count(name) == 2
