"""Challenges across server processes (PostgreSQL and Redis): a challenge made on one process
reaches the challenged player's live list served by another (its WebSocket and its page);
accepted there, it tells the challenger waiting on the first process, who takes their seat
there, and the game starts for both: each player seeds on their own process and both see the
first throw."""

from __future__ import annotations

import json
from contextlib import ExitStack

import httpx
from websockets.sync.client import ClientConnection, connect

from senet_testkit.botapi import named

WAIT = 30.0  # seconds to wait for a message before failing (a loaded machine)


def cookies(client: httpx.Client) -> dict[str, str]:
    """The device's cookies, for its WebSockets."""
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items())}


def next_challenge(ws: ClientConnection, event: str) -> dict:
    """The next ``challenge`` message of the stream, which must be ``event``."""
    message = json.loads(ws.recv(timeout=WAIT))
    assert message["type"] == "challenge" and message["event"] == event, message
    return message["challenge"]


def first_throw(ws: ClientConnection) -> dict:
    """Messages of a game's connection up to the first throw: its entry."""
    while True:
        message = json.loads(ws.recv(timeout=WAIT))
        entries = message.get("history") or message.get("events") or []
        throws = [e for e in entries if e.get("kind") == "throw"]
        if throws:
            return throws[0]


def test_a_challenge_made_on_one_process_is_seen_and_accepted_on_another(cluster) -> None:
    here, there = cluster[0], cluster[1]  # Anna's process, Boris's process
    anna, anna_name = named(here.url, "AnnaX")
    boris, boris_name = named(there.url, "BorisX")
    with connect(f"{there.ws}/ws/challenges", additional_headers=cookies(boris)) as boris_live:
        sent = anna.post(
            f"/challenge/{boris_name}",
            data={"variant": "kendall", "colour": "A", "time_control": "untimed"},
        )
        assert sent.status_code == 303, sent.text
        challenge_id = sent.headers["location"].rsplit("/", 1)[1]
        received = next_challenge(boris_live, "received")  # through Redis, from the other process
        assert received["id"] == challenge_id
        assert (received["challenger"], received["challenged"]) == (anna_name, boris_name)
        assert (received["variant"], received["colour"], received["status"]) == (
            "kendall",
            "A",
            "open",
        )
        # the pages the other process serves show it, to be answered
        box = boris.get("/challenges/box").text
        assert f'data-challenge="{challenge_id}"' in box and anna_name in box
        page = boris.get(f"/challenges/{challenge_id}")
        assert page.status_code == 200 and 'class="primary ch-accept"' in page.text
        # Anna waits on her challenge's page, served by her process
        waiting = f"{here.ws}/ws/challenges?id={challenge_id}"
        with connect(waiting, additional_headers=cookies(anna)) as anna_live:
            accepted = boris.post(f"/challenges/{challenge_id}/accept")
            assert accepted.status_code == 303, accepted.text
            game_id = accepted.headers["location"].rsplit("/", 1)[1]
            told = next_challenge(anna_live, "accepted")
            assert (told["id"], told["status"], told["game"]) == (challenge_id, "accepted", game_id)
        assert next_challenge(boris_live, "accepted")["game"] == game_id
    # Anna takes her seat on her process, once
    seated = anna.post(f"/challenges/{challenge_id}/play")
    assert seated.status_code == 303 and seated.headers["location"] == f"/g/{game_id}"
    tokens = {
        0: anna.cookies[f"senet_seat_{game_id}"],
        1: boris.cookies[f"senet_seat_{game_id}"],
    }
    again = anna.post(f"/challenges/{challenge_id}/play")  # taken: no second seat secret
    assert again.status_code == 303 and f"senet_seat_{game_id}" not in again.cookies
    # the game starts for both, each on their own process: Anna plays first, as she asked
    servers = {0: here, 1: there}
    for seat, server in servers.items():
        state = httpx.get(
            f"{server.url}/api/games/{game_id}", headers={"X-Seat-Token": tokens[seat]}
        ).json()
        assert (state["phase"], state["variant"], state["mode"]) == ("seeding", "kendall", "friend")
    with ExitStack() as stack:
        games = {
            seat: stack.enter_context(
                connect(f"{server.ws}/ws/games/{game_id}?token={tokens[seat]}")
            )
            for seat, server in servers.items()
        }
        for seat, ws in games.items():
            ws.send(json.dumps({"type": "seed", "seed": f"seed of seat {seat}"}))
        throws = [first_throw(ws) for ws in games.values()]
        assert throws[0] == throws[1] and throws[0]["seat"] == 0
    for client in (anna, boris):
        client.close()


def test_challenge_and_withdraw_spam_over_two_processes_is_counted_once(cluster) -> None:
    """One name challenges and withdraws the same player thirty times, alternating between two
    processes: three challenges an hour reach the player (withdrawn ones count, whichever
    process stored them), the rest are refused on the form with why.  Twelve names challenge
    one player: ten wait, the others are refused."""
    here, there = cluster[0], cluster[1]
    spammer, _ = named(here.url, "Spammer")
    victim, victim_name = named(there.url, "Victim")
    codes = []
    for i in range(30):
        url = (here, there)[i % 2].url
        sent = spammer.post(
            f"{url}/challenge/{victim_name}",
            data={"variant": "kendall", "colour": "A", "time_control": "untimed"},
        )
        codes.append(sent.status_code)
        if sent.status_code == 303:
            challenge_id = sent.headers["location"].rsplit("/", 1)[1]
            withdrawn = spammer.post(f"{url}/challenges/{challenge_id}/cancel")
            assert withdrawn.status_code == 303
        else:
            assert "as often as you may within an hour" in sent.text
    assert codes == [303] * 3 + [429] * 27
    crowded, crowded_name = named(here.url, "Crowded")
    answers = []
    for i in range(12):
        sender, _ = named((here, there)[i % 2].url, f"Crowder{i}")
        answers.append(
            sender.post(
                f"/challenge/{crowded_name}",
                data={"variant": "kendall", "colour": "A", "time_control": "untimed"},
            ).status_code
        )
    assert answers == [303] * 10 + [429] * 2
    box = crowded.get("/challenges/box").text
    assert box.count("data-challenge=") == 10
