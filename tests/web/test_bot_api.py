"""The bot API against a real server: BOT accounts (who may become one, shown as BOT), personal
API tokens (shown once, stored hashed, scoped; a revoked or forged token refused with 401 and
nothing changed), the NDJSON streams (the game's first line is its whole state, the later
lines its changes), moves checked like anyone's (an illegal one refused with the engine's
reason and nothing changed), seeks kept apart from people who do not accept bots, the limits
per token (429 with Retry-After), and a whole rated game between two bots run by
examples/bot.py."""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from queue import Queue
from typing import NoReturn

import httpx
import pytest

from senet.service.games.live_games import hash_token
from senet.service.messages import StateMessage
from senet_testkit.botapi import ALL_SCOPES, Lines, api, bot, make_token, named

from .conftest import ROOT, SiteServer
from .helpers import best_move, state, wait_past

EXAMPLE = ROOT / "examples" / "bot.py"


def human_takes(site: SiteServer, game_id: str) -> str:
    """An anonymous person takes the listed seat: their seat secret."""
    taken = httpx.post(f"{site.url}/api/lobby/{game_id}/take", json={})
    assert taken.status_code == 200, taken.text
    return taken.json()["token"]


def actions(site: SiteServer, game_id: str) -> int:
    return site.actions_count(game_id)


# ---------------------------------------------------------------------- tokens
def test_a_token_is_shown_once_stored_hashed_and_refused_once_revoked(site) -> None:
    client, name = named(site.url, "Tokens")
    token = make_token(client, ["challenge:read"])
    assert token not in client.get(f"/@/{name}").text  # shown once, then never again
    with sqlite3.connect(site.db) as conn:
        stored = [r[0] for r in conn.execute("SELECT token_hash FROM api_tokens")]
    assert hash_token(token) in stored and token not in stored
    assert token not in site.log.read_text()
    me = api(site.url, token).get("/api/account")
    assert me.status_code == 200
    assert me.json() == {"name": name, "kind": "human", "bot": False, "scopes": ["challenge:read"]}
    # a scope it lacks: 403, and the name stays a person
    refused = api(site.url, token).post("/api/bot/account/upgrade")
    assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
    token_id = re.search(r'data-token="(\w+)"', client.get(f"/@/{name}").text).group(1)
    assert client.post(f"/account/tokens/{token_id}/revoke").status_code == 303
    revoked = api(site.url, token).get("/api/account")
    assert revoked.status_code == 401
    assert revoked.json() == {
        "type": "error",
        "code": "bad_token",
        "message": "this token is unknown or revoked: make a new one on your profile page",
    }
    assert revoked.headers["www-authenticate"].startswith("Bearer")
    assert 'id="no-tokens"' in client.get(f"/@/{name}").text
    # deleting the name deletes its tokens
    second = make_token(client)
    assert api(site.url, second).get("/api/account").status_code == 200
    assert client.post("/name/delete", data={"confirm": name}).status_code == 303
    gone = api(site.url, second).get("/api/account")
    assert gone.status_code == 401 and gone.json()["code"] == "bad_token"


def test_a_revoked_or_forged_token_changes_nothing(site) -> None:
    name, token = bot(site.url, "Revoked")
    seek = api(site.url, token).post("/api/bot/seek", json={"rated": False}).json()
    human = human_takes(site, seek["id"])
    before = actions(site, seek["id"])
    forged = "senet_" + "A" * 32
    for bad in (forged, token[:-1] + ("A" if token[-1] != "A" else "B"), "not-even-a-token"):
        for path in (f"/api/bot/game/{seek['id']}/seed", f"/api/bot/game/{seek['id']}/resign"):
            refused = api(site.url, bad).post(path, json={"seed": "mine"})
            assert refused.status_code == 401 and refused.json()["code"] == "bad_token"
    missing = httpx.post(f"{site.url}/api/bot/game/{seek['id']}/resign", json={})
    assert missing.status_code == 401 and missing.json()["code"] == "no_token"
    state = httpx.get(f"{site.url}/api/games/{seek['id']}", headers={"X-Seat-Token": human})
    assert state.json()["phase"] == "seeding" and state.json()["outcome"] is None
    assert state.json()["fairness"]["seed_needed"] == [True, True]
    assert actions(site, seek["id"]) == before == 0


# ---------------------------------------------------------------------- accounts
def test_a_name_that_played_rated_cannot_become_a_bot_and_a_bot_shows_as_bot(site) -> None:
    client, name = named(site.url, "Rated")
    token = make_token(client)
    created = client.post(
        "/games",
        data={"variant": "standard", "mode": "computer", "level": "beginner", "rated": "1"},
    )
    assert created.status_code == 303
    client.get(created.headers["location"])  # the game page links the seat
    refused = api(site.url, token).post("/api/bot/account/upgrade")
    assert refused.status_code == 409 and refused.json()["code"] == "rated_games"
    assert 'id="bot-refused"' in client.get(f"/@/{name}").text
    assert api(site.url, token).get("/api/account").json()["kind"] == "human"

    bot_name, bot_token = bot(site.url, "Shown")
    assert api(site.url, bot_token).get("/api/account").json()["bot"] is True
    again = api(site.url, bot_token).post("/api/bot/account/upgrade")
    assert again.status_code == 409 and again.json()["code"] == "already_bot"
    for lang, tag in (("en", "BOT"), ("ru", "БОТ")):
        page = httpx.get(f"{site.url}/@/{bot_name}?lang={lang}").text
        assert re.search(rf'<span class="bot-tag"[^>]*>{tag}</span>', page), lang
    assert httpx.get(f"{site.url}/api/players/{bot_name}").json()["kind"] == "bot"
    # a person's token may not use the bot API
    person = api(site.url, token).get("/api/bot/stream/event")
    assert person.status_code == 403 and person.json()["code"] == "not_a_bot"


def test_the_challenge_form_says_how_a_bot_hears_of_a_challenge(site) -> None:
    """A person hears of a challenge on the home page; a bot on its event stream: the form says
    which, in both languages."""
    bot_name, _ = bot(site.url, "Told")
    person, person_name = named(site.url, "Teller")
    other, _ = named(site.url, "Other")
    wording = {
        "en": ("gets your challenge through the bot API", "sees your challenge on the home page"),
        "ru": ("вызов придёт ей через API ботов", "увидит вызов на главной странице"),
    }
    for lang, (to_bot, to_person) in wording.items():
        to_a_bot = person.get(f"/challenge/{bot_name}?lang={lang}").text
        assert to_bot in to_a_bot and to_person not in to_a_bot, lang
        to_a_person = other.get(f"/challenge/{person_name}?lang={lang}").text
        assert to_person in to_a_person and to_bot not in to_a_person, lang


# ---------------------------------------------------------------------- streams and moves
def test_the_game_stream_is_the_whole_state_then_each_change(site) -> None:
    name, token = bot(site.url, "Streamer")
    seek = api(site.url, token).post("/api/bot/seek", json={"rated": False}).json()
    assert seek["waiting"] is True
    listed = httpx.get(f"{site.url}/api/lobby").json()
    mine = next(g for g in listed if g["id"] == seek["id"])
    assert mine["player"] == name and mine["bot"] is True
    events = Lines(site.url, token, "/api/bot/stream/event")
    assert events.status_code == 200 and events.headers["content-type"].startswith(
        "application/x-ndjson"
    )
    human = human_takes(site, seek["id"])
    start = events.until(lambda e: e["type"] == "gameStart")
    assert start["game"]["id"] == seek["id"] and start["game"]["rated"] is False
    assert start["game"]["opponent"] == {"name": None, "kind": "anonymous"}

    game = Lines(site.url, token, f"/api/bot/game/stream/{seek['id']}")
    first = game.next()
    assert first["type"] == "state" and set(first) == set(StateMessage.__annotations__)
    seat = first["you"][0]
    assert first["phase"] == "seeding" and first["fairness"]["seed_needed"] == [True, True]
    # the same state the seat's holder would read over the API (but for the time and presence)
    as_read = httpx.get(f"{site.url}/api/games/{seek['id']}").json()
    for key in ("fen", "ply", "variant", "history", "seats"):
        assert first[key] == as_read[key], key
    seeded = api(site.url, token).post(f"/api/bot/game/{seek['id']}/seed", json={"seed": "bot's"})
    assert seeded.status_code == 200, seeded.text
    change = game.next()
    assert change["type"] == "events" and change["seed_needed"][seat] is False
    httpx.post(
        f"{site.url}/api/games/{seek['id']}/seed",
        json={"seed": "person's"},
        headers={"X-Seat-Token": human},
    )
    thrown = game.until(lambda m: m["type"] == "events" and m["events"])
    assert thrown["since"] == 0 and thrown["events"][0]["kind"] == "throw"
    assert thrown["phase"] == "playing"
    # the bot resigns: the last line carries the outcome, then the stream ends
    assert api(site.url, token).post(f"/api/bot/game/{seek['id']}/resign").status_code == 200
    last = game.until(lambda m: m.get("outcome"))
    assert last["type"] == "events" and last["events"][-1]["text"] == "resignation"
    assert last["outcome"]["winner"] == 1 - seat
    assert game.next() is None
    finish = events.until(lambda e: e["type"] == "gameFinish")
    assert finish["game"] == {
        "id": seek["id"],
        "result": "AB"[1 - seat],
        "termination": "resignation",
    }
    events.close()
    game.close()


def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing(site) -> None:
    name, token = bot(site.url, "Illegal")
    seek = api(site.url, token).post("/api/bot/seek", json={"rated": False}).json()
    human = human_takes(site, seek["id"])
    bot_api = api(site.url, token)
    bot_api.post(f"/api/bot/game/{seek['id']}/seed", json={"seed": "b"})
    seat_header = {"X-Seat-Token": human}
    httpx.post(f"{site.url}/api/games/{seek['id']}/seed", json={"seed": "h"}, headers=seat_header)
    state = httpx.get(f"{site.url}/api/games/{seek['id']}", headers=seat_header).json()
    bot_seat = 1 - state["you"][0]
    # play the person's moves (the furthest legal one) until the bot decides
    for _ in range(200):
        if state["decider"] == bot_seat and not state["forced_pass"]:
            break
        if state["legal"] and not state["forced_pass"]:
            state = httpx.post(
                f"{site.url}/api/games/{seek['id']}/moves",
                json={"ply": state["ply"], "move": state["legal"][-1]},
                headers=seat_header,
            ).json()
        else:
            state = httpx.get(f"{site.url}/api/games/{seek['id']}", headers=seat_header).json()
    assert state["decider"] == bot_seat
    before, count = state["fen"], actions(site, seek["id"])
    refused = bot_api.post(f"/api/bot/game/{seek['id']}/move/29-30")
    assert refused.status_code == 400
    body = refused.json()
    assert body["code"] == "illegal" and body["message"], body
    # a slash is notation (a banked throw's move), not another path: the engine refuses it
    banked = bot_api.post(f"/api/bot/game/{seek['id']}/move/29-30/3")
    assert banked.status_code == 400 and banked.json()["code"] in ("illegal", "bad_move")
    garbled = bot_api.post(f"/api/bot/game/{seek['id']}/move/twelve")
    assert garbled.status_code == 400 and garbled.json()["code"] == "bad_move"
    # the person may not move for the bot, nor the bot in a game it holds no seat of
    other_name, other_token = bot(site.url, "Outsider")
    outsider = api(site.url, other_token).post(f"/api/bot/game/{seek['id']}/move/pass")
    assert outsider.status_code == 403 and outsider.json()["code"] == "forbidden"
    after = httpx.get(f"{site.url}/api/games/{seek['id']}", headers=seat_header).json()
    assert after["fen"] == before and actions(site, seek["id"]) == count
    # a legal move, from the bot's own state, is played
    legal = _state_of_bot(site, token, seek["id"])["legal"]
    moved = bot_api.post(f"/api/bot/game/{seek['id']}/move/{legal[0]}?ply={after['ply']}")
    assert moved.status_code == 200, moved.text
    assert actions(site, seek["id"]) > count


def _state_of_bot(site: SiteServer, token: str, game_id: str) -> dict:
    stream = Lines(site.url, token, f"/api/bot/game/stream/{game_id}")
    try:
        return stream.next()
    finally:
        stream.close()


def test_answering_challenges_needs_the_scope_and_a_challenge(site) -> None:
    name, token = bot(site.url, "Answers")
    client, _ = named(site.url, "Reader")
    reader = make_token(client, ["challenge:read"])
    for action in ("accept", "decline"):
        refused = api(site.url, reader).post(f"/api/challenge/nosuch/{action}")
        assert refused.status_code == 403 and refused.json()["code"] == "missing_scope"
        unknown = api(site.url, token).post(f"/api/challenge/nosuch/{action}")
        assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_challenge"


# ---------------------------------------------------------------------- pools
def test_people_are_paired_with_bots_only_if_they_accept_them(site) -> None:
    name, token = bot(site.url, "Seeker")
    variant = "bell"  # a pool of this test's own
    seek = (
        api(site.url, token)
        .post("/api/bot/seek", json={"variant": variant, "time_control": "move:60", "rated": True})
        .json()
    )
    assert seek["waiting"] is True
    wary, wary_name = named(site.url, "Wary")
    paired = wary.post(
        "/play-now", data={"variant": variant, "time_control": "move:60", "rated": "1"}
    )
    wary_game = paired.headers["location"].rsplit("/", 1)[-1]
    assert wary_game != seek["id"]  # not given the bot: a seek of their own waits
    # another bot's seek does not take the wary person's seek either
    other, other_token = bot(site.url, "Second")
    second = (
        api(site.url, other_token)
        .post("/api/bot/seek", json={"variant": variant, "time_control": "move:60", "rated": True})
        .json()
    )
    assert second["id"] == seek["id"] and second["waiting"] is False  # two bots pair
    lobby = {g["id"]: g for g in httpx.get(f"{site.url}/api/lobby").json()}
    assert wary_game in lobby and lobby[wary_game]["bot"] is False
    # one who accepts bots is given a bot's seek (in a pool where no person waits)
    third = (
        api(site.url, token)
        .post("/api/bot/seek", json={"variant": variant, "time_control": "move:90"})
        .json()
    )
    assert third["waiting"] is True
    keen, keen_name = named(site.url, "Keen")
    assert keen.post("/account/accept-bots", data={"accept": "1"}).status_code == 303
    assert "Quick pairing may give you a bot" in keen.get(f"/@/{keen_name}").text
    taken = keen.post(
        "/play-now", data={"variant": variant, "time_control": "move:90", "rated": "1"}
    )
    assert taken.headers["location"] == f"/g/{third['id']}"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"variant": []}, "variant"),
        ({"rated": []}, "rated"),
        ({"rated": "yes"}, "rated"),
        ({"time_control": 7}, "time_control"),
        ({"variant": {"a": 1}, "time_control": None}, "variant"),
    ],
)
def test_a_seek_with_a_wrong_typed_field_is_a_400_naming_it(site, body, field) -> None:
    """A seek's fields are checked at the edge: a wrong type is 400 ``bad_request`` with the
    field named, never a server error; nothing is listed."""
    name, token = bot(site.url, "Typed")
    client = api(site.url, token)
    refused = client.post("/api/bot/seek", json=body)
    assert refused.status_code == 400, refused.text
    assert refused.json()["code"] == "bad_request"
    assert refused.json()["message"].startswith(f"{field}: "), refused.json()
    lobby = httpx.get(f"{site.url}/api/lobby").json()
    assert name not in json.dumps(lobby)
    assert "Traceback" not in site.log.read_text()


# ---------------------------------------------------------------------- limits
@pytest.fixture
def limited(tmp_path: Path) -> Iterator[SiteServer]:
    server = SiteServer(tmp_path / "limited.sqlite3")
    server.env["SENET_BOT_LIMITS"] = "6,1,1"
    server.env["SENET_MANUAL_CLOCK"] = "1"
    server.start()
    yield server
    server.stop()


def test_the_limits_per_token_answer_429_with_retry_after(limited) -> None:
    name, token = bot(limited.url, "Limited")  # the upgrade is the token's first request
    client = api(limited.url, token)
    answers = [client.get("/api/account").status_code for _ in range(6)]
    assert answers == [200] * 5 + [429]
    refused = client.get("/api/account")
    assert refused.json()["code"] == "rate_limited" and int(refused.headers["retry-after"]) >= 1
    # another token of another player is not held back by this one's requests
    other_name, other_token = bot(limited.url, "Other")
    assert api(limited.url, other_token).get("/api/account").status_code == 200
    # the bucket refills on the server's clock
    httpx.post(f"{limited.url}/api/testing/clock", json={"advance_ms": 60_000})
    seek = client.post("/api/bot/seek", json={"rated": False})
    assert seek.status_code == 200
    more = client.post("/api/bot/seek", json={"rated": False})
    assert more.status_code == 429 and more.json()["code"] == "too_many_games"
    assert more.headers["retry-after"] == "60"
    stream = Lines(limited.url, token, "/api/bot/stream/event")
    assert stream.status_code == 200
    second = client.get("/api/bot/stream/event")
    assert second.status_code == 429 and second.json()["code"] == "too_many_streams"
    stream.close()


@pytest.fixture
def few_streams(tmp_path: Path) -> Iterator[SiteServer]:
    server = SiteServer(tmp_path / "streams.sqlite3")
    server.env["SENET_BOT_LIMITS"] = "120,2,8,3"  # 2 streams a token, 3 a player
    server.start()
    yield server
    server.stop()


@pytest.mark.slow  # opens streams up to the limit: more than a few seconds
def test_a_players_tokens_share_one_stream_limit(few_streams) -> None:
    """Streams are limited per player, whichever of its tokens opens them: a player with
    many tokens opens no more than the player's limit; another player is not held back; a
    stream closed frees its place."""
    url = few_streams.url
    client, name = named(url, "Streams")
    tokens = [make_token(client) for _ in range(3)]
    assert api(url, tokens[0]).post("/api/bot/account/upgrade").status_code == 200
    opened = [Lines(url, tokens[0], "/api/bot/stream/event") for _ in range(2)]
    opened.append(Lines(url, tokens[1], "/api/bot/stream/event"))
    assert [s.status_code for s in opened] == [200, 200, 200]
    for token in tokens:  # the player has its 3: a fresh token gets none either
        refused = api(url, token).get("/api/bot/stream/event")
        assert refused.status_code == 429, refused.text
        assert refused.json()["code"] == "too_many_streams"
        assert refused.headers["retry-after"] == "6"
    assert "for one player" in api(url, tokens[2]).get("/api/bot/stream/event").json()["message"]
    other_name, other_token = bot(url, "Unhindered")
    other = Lines(url, other_token, "/api/bot/stream/event")
    assert other.status_code == 200
    opened.pop().close()  # the server frees the place once it sees the stream gone
    deadline = time.monotonic() + 30
    while True:
        again = Lines(url, tokens[2], "/api/bot/stream/event")
        if again.status_code == 200:
            break
        again.close()
        assert time.monotonic() < deadline, "the closed stream's place was never freed"
        time.sleep(0.1)
    for stream in [*opened, other, again]:
        stream.close()


# ---------------------------------------------------------------------- a whole game
def run_example(site: SiteServer, token: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(EXAMPLE), site.url, token, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def fail_with_what_the_bots_said(site: SiteServer, bots: list[subprocess.Popen[str]]) -> NoReturn:
    """Stop the bots and fail with what each wrote and what the lobby lists: a stalled game
    says where it stalled."""
    said = []
    for process in bots:
        process.kill()
        out, err = process.communicate()
        said.append(f"exit {process.returncode}\nstdout: {out}\nstderr: {err}")
    lobby = httpx.get(f"{site.url}/api/lobby").json()
    pytest.fail("the bots did not finish:\n" + "\n".join(said) + f"\nlobby: {lobby}")


def stderr_lines(process: subprocess.Popen[str]) -> Queue[str | None]:
    """The lines the process writes on stderr as they come, read in a thread (None at its end)."""
    lines: Queue[str | None] = Queue()

    def read() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    return lines


def test_the_example_bot_says_it_is_connected_before_any_game(site) -> None:
    """A bot with nothing to play yet still tells the person running it that it is connected
    (its event stream open); it seeks nothing, so the other tests' bots never meet it."""
    _, token = bot(site.url, "Quiet")
    process = run_example(site, token)
    try:
        assert stderr_lines(process).get(timeout=60) == f"connected to {site.url}"
        assert process.poll() is None  # it goes on waiting for games
    finally:
        process.kill()
        process.communicate()


@pytest.mark.slow
def test_two_bots_play_a_whole_rated_game_over_the_api(site) -> None:
    """Two copies of examples/bot.py, each a BOT account: both seek, are paired, play the
    expert's moves to the end, and the game is rated through Glicko-2."""
    first_name, first = bot(site.url, "Alpha")
    second_name, second = bot(site.url, "Beta")
    bots = [run_example(site, first, "--seek", "--games", "1")]
    # the second seeks once the first's seek is listed (else both would list their own)
    for _ in range(600):
        listed = httpx.get(f"{site.url}/api/lobby").json()
        if any(g["player"] == first_name for g in listed):
            break
        try:
            bots[0].wait(0.1)
        except subprocess.TimeoutExpired:
            continue
    bots.append(run_example(site, second, "--seek", "--games", "1"))
    finished = []
    for process in bots:
        try:
            out, err = process.communicate(timeout=300)  # a game of two experts takes seconds
        except subprocess.TimeoutExpired:
            fail_with_what_the_bots_said(site, bots)
        assert process.returncode == 0, err
        finished.append(json.loads(out.strip().splitlines()[-1]))
        said = err.splitlines()
        assert said[:2] == ["seek listed: standard, rated", f"connected to {site.url}"], err
        game_id = finished[-1]["id"]
        (started,) = [line for line in said if "started:" in line]
        assert re.fullmatch(rf"{game_id} started: standard as [AB] against \S+", started)
        played = [line for line in said if line.startswith(f"{game_id} ply ")]
        assert played and all(re.fullmatch(r"\S+ ply \d+: \S+", line) for line in played)
    assert finished[0] == finished[1] and finished[0]["result"] in ("A", "B")
    game_id = finished[0]["id"]
    ratings = httpx.get(f"{site.url}/api/games/{game_id}/ratings").json()
    assert ratings["rated"] and ratings["over"]
    assert {s["name"] for s in ratings["seats"]} == {first_name, second_name}
    assert {s["kind"] for s in ratings["seats"]} == {"bot"}
    changes = sorted(s["change"] for s in ratings["seats"])
    assert changes[0] < 0 < changes[1]
    profile = httpx.get(f"{site.url}/api/players/{first_name}").json()
    assert profile["recent"][0]["id"] == game_id and profile["recent"][0]["opponent_kind"] == "bot"


# ---------------------------------------------------------------------- words
def test_the_bots_part_of_the_profile_is_all_russian_in_russian(site) -> None:
    from .test_russian import untranslated

    client, name = named(site.url, "Ru")
    client.cookies.set("lang", "ru")
    made = client.post("/account/tokens?lang=ru", data={"label": "бот", "scope": ALL_SCOPES})
    assert "Ваш новый ключ «бот»" in made.text
    pages = [made.text, client.get(f"/@/{name}?lang=ru").text]
    client.post("/account/accept-bots", data={"accept": "1"})
    pages.append(client.get(f"/@/{name}?lang=ru").text)
    bot_name, token = bot(site.url, "Ru")
    pages.append(httpx.get(f"{site.url}/@/{bot_name}?lang=ru").text)
    for page in pages:
        assert 'id="bots-h"' in page or "БОТ" in page
        assert untranslated(page) == []


@pytest.mark.slow
def test_the_example_bot_accepts_a_persons_challenge_and_plays_it_rated_to_the_end(site) -> None:
    """A person challenges the bot on the site (senet.web.routes.challenges); examples/bot.py hears
    of it on its event stream, accepts it over the API and plays; the person plays through
    the game API with the seat the challenge gave them; the game is rated."""
    bot_name, token = bot(site.url, "Challenged")
    process = run_example(site, token, "--games", "1")
    try:
        person, person_name = named(site.url, "Challenger")
        sent = person.post(
            f"/challenge/{bot_name}",
            data={"variant": "standard", "time_control": "untimed", "colour": "A", "rated": "1"},
        )
        assert sent.status_code == 303, sent.text
        challenge_id = sent.headers["location"].rsplit("/", 1)[-1]
        deadline = time.monotonic() + 120
        while True:  # the challenger's seat, once the bot has accepted
            seated = person.post(f"/challenges/{challenge_id}/play")
            if seated.status_code == 303:
                break
            assert seated.status_code == 409 and time.monotonic() < deadline, seated.text[:200]
            time.sleep(0.05)
        game_id = seated.headers["location"].rsplit("/", 1)[-1]
        seat = {"X-Seat-Token": person.cookies[f"senet_seat_{game_id}"]}
        given = httpx.post(f"{site.url}/api/games/{game_id}/seed", json={"seed": "p"}, headers=seat)
        assert given.status_code == 200, given.text
        seen = state(site.url, game_id, seat["X-Seat-Token"])
        for _ in range(5000):
            if seen["outcome"]:
                break
            if seen["legal"] and not seen["forced_pass"]:
                answer = httpx.post(
                    f"{site.url}/api/games/{game_id}/moves",
                    json={"ply": seen["ply"], "move": best_move(seen["legal"])},
                    headers=seat,
                )
                assert answer.status_code == 200, answer.text
                seen = answer.json()
            else:  # the bot's turn, or a forced pass the server plays
                wait_past(site.url, game_id, seen["ply"], timeout=120)
                seen = state(site.url, game_id, seat["X-Seat-Token"])
        assert seen["outcome"] is not None
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        assert json.loads(out.strip().splitlines()[-1])["id"] == game_id
        ratings = httpx.get(f"{site.url}/api/games/{game_id}/ratings").json()
        assert ratings["rated"]
        kinds = {s["name"]: s["kind"] for s in ratings["seats"]}
        assert kinds == {person_name: "human", bot_name: "bot"}
        assert all(s["change"] is not None for s in ratings["seats"])
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
