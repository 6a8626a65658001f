"""Player seeds, on a real server.

A game is created with its secret and public commitment but no throw (the seeding phase);
each human seat gives a seed of its own, once; the first throw follows when every human seat
has, and every throw is HMAC-SHA256(secret, "game id:n:seed A:seed B").  The server so commits
before it sees any player seed.  Refused seeds (spectators, forged secrets, a second seed,
malformed ones, any after the first throw) change nothing, over REST and over the WebSocket.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time

import httpx
import pytest
from websockets.sync.client import connect

from senet.engine import find_variant
from senet.service.fairness.throws import FairDice
from senet.service.fairness.verify import verify_text

from .helpers import LiveView, TwoSeats, friend_game, give_seed, play_out, state


def snapshot(site, game_id: str) -> tuple:
    s = state(site.url, game_id)
    return s["ply"], s["phase"], s["fen"], s["fairness"]["seeds"], site.actions_count(game_id)


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["type"] == "error" and body["code"] == code and body["message"], body


def recv_type(ws, kind: str) -> dict:
    while True:
        message = json.loads(ws.recv(timeout=5))
        if message["type"] == kind:
            return message


def test_no_throw_before_every_human_seed_and_the_commitment_comes_first(site) -> None:
    """The commitment is shown before any seed is accepted, nothing is
    thrown until both seats have given theirs, and the revealed secret hashes to it."""
    created = httpx.post(
        f"{site.url}/api/games", json={"variant": "kendall", "mode": "friend", "colour": "A"}
    ).json()
    gid = created["id"]
    first = state(site.url, gid)
    assert (
        first["phase"] == "seeding"
        and first["ply"] == 0
        and first["history"] == []
        and first["last_throw"] is None
    )
    assert site.actions_count(gid) == 0
    commitment = first["fairness"]["commitment"]
    assert commitment == created["commitment"] and len(commitment) == 64
    assert first["fairness"]["seeds"] == [None, None] and first["fairness"]["seed_needed"] == [
        True,
        True,
    ]
    assert first["fairness"]["secret"] is None
    answer = give_seed(site.url, gid, created["token"], "alpha words")
    assert answer.status_code == 200, answer.text
    after_a = answer.json()
    assert after_a["phase"] == "seeding" and after_a["ply"] == 0 and site.actions_count(gid) == 0
    assert after_a["fairness"]["seeds"] == ["alpha words", None] and after_a["seats"][0]["seeded"]
    # nothing to play yet, for anyone
    move = httpx.post(
        f"{site.url}/api/games/{gid}/moves",
        headers={"X-Seat-Token": created["token"]},
        json={"ply": 0, "move": "10-13"},
    )
    assert_error(move, 409, "seeding")
    joined = httpx.post(created["invite_url"], follow_redirects=False)
    token_b = joined.cookies.get(f"senet_seat_{gid}")
    assert state(site.url, gid)["ply"] == 0  # B is seated but has given no seed: still no throw
    started = give_seed(site.url, gid, token_b, "beta-2").json()
    assert started["phase"] == "playing" and started["ply"] == 1 and site.actions_count(gid) == 1
    assert (
        started["history"][0]["kind"] == "throw" and started["fairness"]["commitment"] == commitment
    )
    assert started["fairness"]["player_seeds"] == "alpha words:beta-2"
    # a few moves, then B resigns: the end of the game reveals the secret (a game played to
    # its last move reveals it too: see the finished game below)
    play_out(site.url, TwoSeats(gid, {0: created["token"], 1: token_b}), moves=12)
    resigned = httpx.post(
        f"{site.url}/api/games/{gid}/resign", headers={"X-Seat-Token": token_b}, json={}
    )
    assert resigned.status_code == 200, resigned.text
    over = state(site.url, gid)
    assert over["outcome"] and over["ply"] > 12
    secret = bytes.fromhex(over["fairness"]["secret"])
    assert hashlib.sha256(secret).hexdigest() == commitment
    record = httpx.get(f"{site.url}/g/{gid}/record").text
    assert (
        '[PlayerSeeds "alpha words:beta-2"]' in record and f'[Commitment "{commitment}"]' in record
    )
    assert verify_text(record).ok


@pytest.fixture(scope="module")
def finished(site) -> tuple[str, str]:
    """A finished game with two known seeds, and its record."""
    game = friend_game(site.url, "standard", seeds=("my lucky day", "R2-D2 says hi"))
    play_out(site.url, game)
    return game.game_id, httpx.get(f"{site.url}/g/{game.game_id}/record").text


@pytest.mark.slow  # a whole game over HTTP
def test_both_seeds_go_into_every_throw(site, finished) -> None:
    """The same secret with another seed of either player gives other
    throws; the recorded throws are exactly those of both seeds."""
    game_id, record = finished
    s = state(site.url, game_id)
    secret, patterns = bytes.fromhex(s["fairness"]["secret"]), s["fairness"]["throws"]
    instrument = find_variant("standard").instrument
    assert len(patterns) > 20

    def throws(player_seeds: str) -> list[int]:
        dice = FairDice(game_id, secret, player_seeds, instrument)
        return [dice.throw(n)[0] for n in range(len(patterns))]

    assert throws("my lucky day:R2-D2 says hi") == patterns
    assert throws("my lucky day:R2-D2 says ho") != patterns  # B's seed matters
    assert throws("my lucky dax:R2-D2 says hi") != patterns  # A's seed matters
    assert throws("R2-D2 says hi:my lucky day") != patterns  # and which seat gave which
    assert throws("") != patterns
    result = verify_text(record)
    assert result.ok and result.throws_checked == len(patterns)
    assert result.player_seeds == ("my lucky day", "R2-D2 says hi")


@pytest.mark.slow  # a whole game over HTTP
@pytest.mark.parametrize(
    "altered", ["my lucky dax:R2-D2 says hi", "my lucky day:R2-D2 says ho", "my lucky day"]
)
def test_a_record_with_an_altered_seed_fails_and_names_the_throw(
    finished, altered: str, tmp_path
) -> None:
    """Change a player's seed in the PlayerSeeds tag and the record no
    longer verifies, at a named throw; `senet verify FILE` says so too."""
    _, record = finished
    forged = record.replace(
        '[PlayerSeeds "my lucky day:R2-D2 says hi"]', f'[PlayerSeeds "{altered}"]'
    )
    assert forged != record
    result = verify_text(forged)
    assert not result.ok and result.commitment_ok and result.mismatches
    first = result.mismatches[0]
    assert str(first).startswith(f"throw {first.number + 1} (turn ")
    path = tmp_path / "forged.txt"
    path.write_text(forged)
    cli = subprocess.run(
        [sys.executable, "-m", "senet.cli", "verify", str(path)], capture_output=True, text=True
    )
    assert cli.returncode == 1 and f"NOT VERIFIED: throw {first.number + 1} (turn" in cli.stdout
    good = tmp_path / "good.txt"
    good.write_text(record)
    ok = subprocess.run(
        [sys.executable, "-m", "senet.cli", "verify", str(good)], capture_output=True, text=True
    )
    assert ok.returncode == 0 and "A 'my lucky day', B 'R2-D2 says hi'" in ok.stdout, (
        ok.stdout + ok.stderr
    )


BAD_SEEDS = ["", "a:b", "x" * 65, "tab\there", "кириллица", 42, None, ["list"], {"seed": "x"}]


def test_refused_seeds_over_rest_change_nothing(site) -> None:
    """A spectator, a forged secret, a malformed seed, a wrong seat, a
    second seed and a seed after the first throw are clear JSON errors and change nothing."""
    game = friend_game(site.url, "bell", seeds=None)
    gid = game.game_id
    before = snapshot(site, gid)
    assert before[1] == "seeding"
    forged = game.tokens[0][:-2] + ("AA" if not game.tokens[0].endswith("AA") else "BB")
    assert_error(give_seed(site.url, gid, None, "spectator"), 403, "forbidden")
    assert_error(give_seed(site.url, gid, forged, "forger"), 403, "forbidden")
    assert_error(give_seed(site.url, gid, game.tokens[0], "not mine", seat=1), 403, "forbidden")
    for bad in BAD_SEEDS:
        assert_error(give_seed(site.url, gid, game.tokens[0], bad), 400, "bad_seed")
    for seat in ("0", True, 2, -1):
        assert_error(
            give_seed(site.url, gid, game.tokens[0], "fine", seat=seat), 400, "bad_request"
        )
    headers = {"X-Seat-Token": game.tokens[0], "Content-Type": "application/json"}
    assert_error(
        httpx.post(f"{site.url}/api/games/{gid}/seed", content="{oops", headers=headers),
        400,
        "bad_json",
    )
    assert_error(
        httpx.post(f"{site.url}/api/games/{gid}/seed", content="[1]", headers=headers),
        400,
        "bad_request",
    )
    assert_error(give_seed(site.url, "nope", game.tokens[0], "x"), 404, "unknown_game")
    assert snapshot(site, gid) == before
    assert give_seed(site.url, gid, game.tokens[0], "first and only").status_code == 200
    once = snapshot(site, gid)
    assert once[3] == ["first and only", None] and once[0] == 0
    assert_error(give_seed(site.url, gid, game.tokens[0], "second thoughts"), 409, "already_seeded")
    assert snapshot(site, gid) == once
    assert give_seed(site.url, gid, game.tokens[1], "b").status_code == 200
    started = snapshot(site, gid)
    assert started[0] == 1 and started[1] == "playing" and started[4] == 1
    for token in game.tokens.values():
        assert_error(give_seed(site.url, gid, token, "too late"), 409, "not_seeding")
    assert snapshot(site, gid) == started


def test_refused_seeds_over_the_websocket_change_nothing(site) -> None:
    """The same refusals over the WebSocket; a good seed is published
    to every viewer, and the last one starts the game for everyone."""
    game = friend_game(site.url, "adelaida", seeds=None)
    gid = game.game_id
    before = snapshot(site, gid)

    def ws_for(token: str | None):
        headers = {"Cookie": f"senet_seat_{gid}={token}"} if token else {}
        return connect(f"{site.ws_url}/ws/games/{gid}", additional_headers=headers)

    with (
        ws_for(game.tokens[0]) as a,
        ws_for(game.tokens[1]) as b,
        ws_for(None) as spectator,
        ws_for("forged-secret") as forger,
    ):
        views = {ws: LiveView(ws) for ws in (a, b, spectator, forger)}
        for view in views.values():
            first = view.next()
            assert first["phase"] == "seeding" and first["fairness"]["seed_needed"] == [True, True]
        spectator.send(json.dumps({"type": "seed", "seed": "watcher"}))
        assert recv_type(spectator, "error")["code"] == "forbidden"
        forger.send(json.dumps({"type": "seed", "seed": "forger"}))
        assert recv_type(forger, "error")["code"] == "forbidden"
        for bad in BAD_SEEDS:
            a.send(json.dumps({"type": "seed", "seed": bad}))
            assert recv_type(a, "error")["code"] == "bad_seed", bad
        a.send(json.dumps({"type": "seed", "seed": "ok", "seat": 1}))
        assert recv_type(a, "error")["code"] == "forbidden"
        a.send(json.dumps({"type": "move", "ply": 0, "move": "pass"}))
        assert recv_type(a, "error")["code"] == "seeding"
        assert snapshot(site, gid) == before
        a.send(json.dumps({"type": "seed", "seed": "from A"}))
        for ws in (a, b, spectator):  # published to every viewer
            seen = views[ws].next()
            while seen["fairness"]["seeds"][0] is None:
                seen = views[ws].next()
            assert seen["fairness"]["seeds"] == ["from A", None] and seen["ply"] == 0
        a.send(json.dumps({"type": "seed", "seed": "again"}))
        assert recv_type(a, "error")["code"] == "already_seeded"
        b.send(json.dumps({"type": "seed", "seed": "from B"}))
        for ws in (a, b, spectator):
            seen = views[ws].next()
            while seen["ply"] == 0:
                seen = views[ws].next()
            assert (
                seen["ply"] == 1
                and seen["phase"] == "playing"
                and seen["fairness"]["seeds"] == ["from A", "from B"]
            )
        started = snapshot(site, gid)
        b.send(json.dumps({"type": "seed", "seed": "late"}))
        assert recv_type(b, "error")["code"] == "not_seeding"
    assert snapshot(site, gid) == started and started[4] == 1


def _computer_moved(base: str, gid: str, timeout: float = 30) -> dict:
    """The game's state once the computer (seat A) has made a move (polled, bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        s = state(base, gid)
        if any(h["kind"] == "move" and h["seat"] == 0 for h in s["history"]):
            return s
        time.sleep(0.05)
    raise AssertionError(f"the computer did not move in {gid} within {timeout} s")


def test_computer_game_starts_after_the_human_seed(site) -> None:
    """The computer gives no seed and makes no move before the first throw, which waits for
    the human's seed; then it plays."""

    def computer_game() -> dict:
        body = {"mode": "computer", "colour": "B", "variant": "standard"}
        return httpx.post(f"{site.url}/api/games", json=body).json()

    data = computer_game()
    gid = data["id"]
    s = state(site.url, gid)
    assert s["phase"] == "seeding" and s["fairness"]["seed_needed"] == [False, True]
    assert s["seats"][0]["kind"] == "computer" and not s["seats"][0]["seeded"]
    # A witness instead of a pause: a second game, created later and seeded at once, in which
    # the computer has moved.  Had the first game's computer been going to move unseeded, it
    # had longer to do it than this one.
    witness = computer_game()
    assert give_seed(site.url, witness["id"], witness["token"], "witness").status_code == 200
    _computer_moved(site.url, witness["id"])
    assert state(site.url, gid)["ply"] == 0 and site.actions_count(gid) == 0
    assert give_seed(site.url, gid, data["token"], "human only").status_code == 200
    s = _computer_moved(site.url, gid)
    assert (
        s["history"][0]["kind"] == "throw"
        and s["history"][1]["kind"] == "move"
        and s["history"][1]["seat"] == 0
    )
    assert s["fairness"]["player_seeds"] == ":human only"  # the computer's seat adds nothing


def test_an_api_client_may_give_its_seed_at_creation(site) -> None:
    """``seed`` in the creation body seeds every seat the creator holds."""
    data = httpx.post(
        f"{site.url}/api/games", json={"mode": "local", "variant": "bell", "seed": "bot"}
    ).json()
    s = state(site.url, data["id"], data["token"])
    assert (
        s["phase"] == "playing"
        and s["ply"] == 1
        and s["fairness"]["player_seeds"] == "bot:bot"
        and s["legal"]
    )
    refused = httpx.post(f"{site.url}/api/games", json={"mode": "local", "seed": "no:colons"})
    assert_error(refused, 400, "bad_seed")
    assert_error(
        httpx.post(f"{site.url}/api/games", json={"mode": "local", "seed": ""}), 400, "bad_request"
    )


def test_the_seed_fields_refusal_is_said_in_the_pages_language_alone(site) -> None:
    # the message a browser shows for a malformed seed: the catalog's sentence, with no
    # English appended on the Russian page
    for lang, said in (
        ("ru", "Неверное зерно: от 1 до 64 печатных знаков без двоеточия."),
        ("en", "Not a valid seed: 1 to 64 printable characters without a colon."),
    ):
        html = httpx.get(f"{site.url}/", params={"lang": lang}).text
        assert f'data-invalid="{said}"' in html, lang
