"""Challenges and quick chat in real Chromium, against a real server whose clock the test moves
(``SENET_MANUAL_CLOCK``): a challenge sent from a profile appears on the challenged player's
open home page without a reload, is accepted and played to its end with both players sent to
the game; one is declined, one expires after a day of the server's clock, one is refused by a
player who takes none, and an anonymous player challenges the named opponent of a game just
finished.  Quick chat: a phrase shows on both players' screens and never reaches a spectator
(nor can a spectator send one), a muted opponent's phrases are not shown, and anything but a
set phrase is refused.  Phone screenshots (390×844) of the challenge form and the chat row in
both languages go to the artifacts folder."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from websockets.sync.client import connect

from senet_testkit.botapi import api, make_token, named

from .helpers import friend_game
from .test_api import recv_type
from .test_browser import new_page, play_until_over, wait_started
from .test_lobby_browser import ClockedSite
from .test_players_browser import take_name

pytestmark = pytest.mark.browser

DAY = 24 * 3600


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClockedSite]:
    server = ClockedSite(tmp_path_factory.mktemp("challenges") / "senet.sqlite3")
    server.start()
    yield server
    server.stop()


def home_live(page) -> None:
    """The home page, following the player's challenges."""
    page.goto("/")
    page.wait_for_selector("body[data-challenges-live='1']")


def send_challenge(
    page, name: str, variant: str = "kendall", colour: str = "A", time_control: str = "untimed"
) -> str:
    page.goto(f"/@/{name}")
    page.click("#challenge-link")
    page.select_option("#ch-variant", variant)
    page.select_option("#ch-tc", time_control)
    page.check(f"input[name=colour][value={colour}]")
    page.click("#send-challenge")
    page.wait_for_selector("#challenge[data-status='open']")
    page.wait_for_selector("body[data-challenges-live='1']")
    return page.locator("#challenge").get_attribute("data-challenge")


def close_all(*pages) -> None:
    for page in pages:
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_a_challenge_is_sent_seen_live_accepted_and_played(browser, site, artifacts) -> None:
    # the site whose clock runs (the server's forced passes wait on it)
    anna = new_page(browser, site)
    boris = new_page(browser, site, 390, 844, touch=True)
    take_name(anna, "Anna_ch")
    take_name(boris, "Boris_ch")
    home_live(boris)
    assert boris.locator("#incoming").count() == 0
    challenge = send_challenge(anna, "Boris_ch", "kendall", "A")
    # on Boris's open home page, without a reload
    item = boris.locator(f'#incoming [data-challenge="{challenge}"]')
    item.wait_for()
    text = item.inner_text()
    assert "Anna_ch" in text and "Kendall" in text and "you play second" in text, text
    assert "expires in 24 hours" in text
    boris.screenshot(path=str(artifacts / "challenge-received-phone-en.png"))
    # Anna's own home page lists it as sent
    anna_home = new_page(browser, site)
    anna_home.context.add_cookies(anna.context.cookies())
    anna_home.goto("/")
    assert anna_home.locator(f'#outgoing [data-challenge="{challenge}"]').count() == 1
    anna_home.context.close()
    # accepted: both are sent to the game, Anna (who asked for A) first
    item.locator(".ch-accept").click()
    boris.wait_for_selector("#game[data-ply]")
    anna.wait_for_url("**/g/*")
    anna.wait_for_selector("#game[data-ply]")
    assert anna.url == boris.url
    for page in (anna, boris):
        wait_started(page)
    assert anna.evaluate("JSON.parse(document.getElementById('game').dataset.you)") == [0]
    assert boris.evaluate("JSON.parse(document.getElementById('game').dataset.you)") == [1]
    assert "Kendall" in anna.inner_text("h1")
    play_until_over([anna, boris])
    # from the finished game, the way to the next one
    assert anna.inner_text("#challenge-opponent") == "Challenge Boris_ch to another game"
    boris.goto("/")
    assert boris.locator("#incoming").count() == 0  # answered: no longer listed
    close_all(anna, boris)


def test_a_declined_challenge_tells_the_challenger(browser, clocked) -> None:
    anna = new_page(browser, clocked)
    boris = new_page(browser, clocked)
    take_name(anna, "Anna_dc")
    take_name(boris, "Boris_dc")
    home_live(boris)
    challenge = send_challenge(anna, "Boris_dc", time_control="days:3")  # turn-based
    assert anna.inner_text(".ch-tc") == "3 days a move", anna.inner_text(".ch-tc")
    item = boris.locator(f'#incoming [data-challenge="{challenge}"]')
    assert item.locator(".ch-tc").inner_text() == "3 days a move"
    item.locator(".ch-decline").click()
    anna.wait_for_selector("#challenge[data-status='declined']")  # told at once
    assert anna.inner_text("#challenge-status") == "Declined"
    boris.wait_for_selector("body[data-challenges-live='1']")
    assert boris.locator("#incoming").count() == 0
    # answering it again is refused, in words
    boris.goto(f"/challenges/{challenge}")
    assert boris.locator(".ch-accept").count() == 0
    response = boris.request.post(f"/challenges/{challenge}/accept", max_redirects=0)
    assert response.status == 409
    close_all(anna, boris)


def test_a_challenge_expires_after_a_day_of_the_servers_clock(browser, clocked) -> None:
    anna = new_page(browser, clocked)
    boris = new_page(browser, clocked)
    take_name(anna, "Anna_ex")
    take_name(boris, "Boris_ex")
    challenge = send_challenge(anna, "Boris_ex")
    home_live(boris)
    item = boris.locator(f'#incoming [data-challenge="{challenge}"]')
    assert item.count() == 1
    clocked.advance(DAY - 3600)
    boris.goto("/")
    boris.wait_for_selector("body[data-challenges-live='1']")
    assert "expires in 1 hour" in item.inner_text()
    clocked.advance(3600 + 61)  # the day is over, and the sweep (every minute) has run
    anna.wait_for_selector("#challenge[data-status='expired']")
    assert "Expired" in anna.inner_text("#challenge-status")
    boris.wait_for_function("() => !document.querySelector('#incoming')")  # gone, live
    response = boris.request.post(f"/challenges/{challenge}/accept", max_redirects=0)
    assert response.status == 409 and "expired" in response.text()
    close_all(anna, boris)


def test_challenges_refused_by_the_players_setting_and_one_from_an_anonymous_opponent(
    browser, clocked
) -> None:
    anna = new_page(browser, clocked)
    boris = new_page(browser, clocked)
    carol = new_page(browser, clocked)  # no name
    take_name(anna, "Anna_rf")
    take_name(boris, "Boris_rf")
    boris.goto("/name")
    boris.check("input[name=accept][value=nobody]")
    boris.click("#save-challenges")
    boris.wait_for_selector("input[name=accept][value=nobody]:checked")
    anna.goto("/challenge/Boris_rf")
    assert anna.inner_text("#challenge-closed") == "This player takes no challenges."
    assert anna.locator("#send-challenge").count() == 0
    refused = anna.request.post(
        "/challenge/Boris_rf", form={"variant": "standard"}, max_redirects=0
    )
    assert refused.status == 403
    home_live(boris)
    assert boris.locator("#incoming").count() == 0  # nothing was stored
    # an anonymous player finishes a game against Boris, then challenges him from it
    carol.goto("/")
    carol.check("input[name=mode][value=friend]")
    carol.check("input[name=colour][value=A]")
    carol.click("form.start-form button[type=submit]")
    carol.wait_for_selector("#game[data-ply]")
    boris.goto(carol.input_value("#invite-url"))
    boris.wait_for_selector("#game[data-ply]")
    for page in (carol, boris):
        wait_started(page)
    carol.click("#resign")
    carol.click("#resign-yes")
    carol.wait_for_selector("#over:not([hidden])")
    boris.goto("/name")
    boris.check("input[name=accept][value=named]")
    boris.click("#save-challenges")
    boris.wait_for_selector("input[name=accept][value=named]:checked")
    carol.click("#challenge-opponent")
    assert "only from players with a name" in carol.inner_text("#challenge-closed")
    boris.check("input[name=accept][value=everyone]")
    boris.click("#save-challenges")
    boris.wait_for_selector("input[name=accept][value=everyone]:checked")
    home_live(boris)
    carol.reload()
    assert carol.locator("input[name=rated]").count() == 0  # no name: casual only
    carol.click("#send-challenge")
    carol.wait_for_selector("#challenge[data-status='open']")
    item = boris.locator("#incoming .challenge")
    item.wait_for()
    assert "A player without a name" in item.inner_text()
    # without a name and without a game, nobody can be challenged
    dave = new_page(browser, clocked)
    dave.goto("/challenge/Boris_rf")
    assert "game you have finished" in dave.inner_text("#challenge-closed")
    close_all(anna, boris, carol, dave)


def test_challenge_form_on_a_phone_in_both_languages(browser, clocked, artifacts) -> None:
    anna = new_page(browser, clocked, 390, 844, touch=True)
    take_name(anna, "Anna_ph")
    take_name(new_page(browser, clocked), "Вера")
    for lang in ("en", "ru"):
        anna.goto(f"/challenge/Вера?lang={lang}")
        anna.wait_for_selector("#send-challenge")
        anna.screenshot(path=str(artifacts / f"challenge-form-phone-{lang}.png"), full_page=True)
        width = anna.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the challenge form is wider than the phone in {lang}: {width}"
    assert anna.inner_text("#challenge-h") == "Вызов игроку Вера"
    anna.goto("/?lang=en")
    close_all(anna)


# ---------------------------------------------------------------------- quick chat
def friend_game_with_spectator(browser, site, lang: str = "en"):
    host = new_page(browser, site)
    host.goto(f"/?lang={lang}")
    host.check("input[name=mode][value=friend]")
    host.check("input[name=colour][value=A]")
    host.click("form.start-form button[type=submit]")
    host.wait_for_selector("#game[data-ply]")
    game_id = host.url.rsplit("/", 1)[-1]
    guest = new_page(browser, site, 390, 844, touch=True)
    guest.goto(f"/?lang={lang}")
    guest.goto(host.input_value("#invite-url"))
    guest.wait_for_selector("#game[data-ply]")
    for page in (host, guest):
        wait_started(page)
    watcher = new_page(browser, site)
    watcher.goto(f"/g/{game_id}")
    watcher.wait_for_selector("#game[data-connected='1']")
    return game_id, host, guest, watcher


def chat_log(page) -> list[str]:
    return page.eval_on_selector_all("#chat-log li", "items => items.map((i) => i.dataset.phrase)")


def test_quick_chat_shows_on_both_screens_never_to_a_spectator_and_mute_works(
    browser, clocked, artifacts
) -> None:
    game_id, host, guest, watcher = friend_game_with_spectator(browser, clocked)
    assert watcher.locator("#chat").count() == 0  # no row for a spectator
    host.click("#chat button[data-phrase=good_luck]")
    for page in (host, guest):
        page.wait_for_selector("#chat-log li[data-phrase=good_luck]")
    assert host.inner_text("#chat-log li") == "You: Good luck"
    assert guest.inner_text("#chat-log li").endswith(": Good luck")
    guest.click("#chat button[data-phrase=hello]")
    host.wait_for_selector("#chat-log li[data-phrase=hello]")
    assert chat_log(host) == chat_log(guest) == ["good_luck", "hello"]
    # the guest mutes the host: the host's phrases reach the host only
    guest.click("#chat-mute")
    assert guest.get_attribute("#chat-mute", "aria-pressed") == "true"
    assert guest.inner_text("#chat-mute") == "Unmute opponent"
    host.click("#chat button[data-phrase=oops]")
    host.wait_for_selector("#chat-log li[data-phrase=oops]")
    guest.click("#chat button[data-phrase=thanks]")  # sent after the host's: arrives after it
    for page in (host, guest):
        page.wait_for_selector("#chat-log li[data-phrase=thanks]")
    assert chat_log(guest) == ["good_luck", "hello", "thanks"]
    assert chat_log(host) == ["good_luck", "hello", "oops", "thanks"]
    # the mute and the log outlive a reload (kept on the device; the mute told to the server
    # again), with the same words
    said = guest.inner_text("#chat-log")
    guest.reload()
    guest.wait_for_selector("#game[data-connected='1']")
    assert guest.get_attribute("#chat-mute", "aria-pressed") == "true"
    guest.wait_for_selector("#chat-log li[data-phrase=thanks]")
    assert chat_log(guest) == ["good_luck", "hello", "thanks"]
    assert guest.inner_text("#chat-log") == said
    host.click("#chat button[data-phrase=good_game]")
    guest.click("#chat button[data-phrase=well_played]")
    guest.wait_for_selector("#chat-log li[data-phrase=well_played]")
    assert chat_log(guest) == ["good_luck", "hello", "thanks", "well_played"]
    # the spectator got no phrase at all
    assert not any('"chat"' in f for f in watcher.frames_log if f.startswith("recv"))
    assert watcher.locator("#chat-log").count() == 0
    # the chat row on a phone, in both languages (each player's fourth phrase: within the burst)
    guest.click("#chat-mute")  # unmuted again
    assert guest.get_attribute("#chat-mute", "aria-pressed") == "false"
    for lang, speaker, phrase in (("en", host, "hello"), ("ru", guest, "good_luck")):
        guest.goto(f"/g/{game_id}?lang={lang}")
        guest.wait_for_selector("#game[data-connected='1']")
        speaker.click(f"#chat button[data-phrase={phrase}]")
        guest.wait_for_selector(f"#chat-log li[data-phrase={phrase}]")
        guest.locator("#chat").scroll_into_view_if_needed()
        guest.screenshot(path=str(artifacts / f"quick-chat-phone-{lang}.png"))
        width = guest.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the game page is wider than the phone in {lang}: {width}"
    assert guest.inner_text("#chat button[data-phrase=good_luck]") == "Удачи"
    close_all(host, guest, watcher)


def test_quick_chat_refuses_spectators_and_anything_but_a_set_phrase(clocked) -> None:
    import httpx

    created = httpx.post(
        f"{clocked.url}/games", data={"mode": "friend", "colour": "A"}, follow_redirects=False
    )
    game_id = created.headers["location"].rsplit("/", 1)[-1]
    token = created.cookies[f"senet_seat_{game_id}"]
    url = f"{clocked.ws_url}/ws/games/{game_id}"
    with connect(url) as spectator, connect(f"{url}?token={token}") as player:
        recv_type(spectator, "state")
        recv_type(player, "state")
        spectator.send(json.dumps({"type": "chat", "phrase": "hello"}))
        assert recv_type(spectator, "error")["code"] == "forbidden"
        for bad in ("Hello", "free text", 3, None, "hello " * 3):
            player.send(json.dumps({"type": "chat", "phrase": bad}))
            assert recv_type(player, "error")["code"] == "bad_phrase"
        player.send(json.dumps({"type": "mute", "muted": "yes"}))
        assert recv_type(player, "error")["code"] == "bad_request"
        player.send(json.dumps({"type": "chat", "phrase": "hello"}))
        assert recv_type(player, "chat") == {"type": "chat", "seat": 0, "phrase": "hello"}
        codes = []
        for _ in range(12):  # past the burst: refused, each with an error, nothing sent
            player.send(json.dumps({"type": "chat", "phrase": "oops"}))
        for _ in range(12):
            message = json.loads(player.recv(timeout=10))
            while message["type"] not in ("chat", "error"):
                message = json.loads(player.recv(timeout=10))
            codes.append(message.get("code", "chat"))
        assert "rate_limited" in codes and codes.count("chat") <= 4, codes
        # the spectator never heard a phrase
        spectator.send(json.dumps({"type": "ping"}))
        while (message := json.loads(spectator.recv(timeout=10)))["type"] != "pong":
            assert message["type"] != "chat", message


def next_of(ws, *types: str) -> dict:
    """The next message of one of ``types`` (presence and state updates skipped)."""
    while (message := json.loads(ws.recv(timeout=10)))["type"] not in types:
        pass
    return message


def test_a_muted_opponents_phrases_are_not_sent_to_the_player_who_muted(clocked) -> None:
    game = friend_game(clocked.url)
    url = f"{clocked.ws_url}/ws/games/{game.game_id}"
    with (
        connect(f"{url}?token={game.tokens[0]}") as a,
        connect(f"{url}?token={game.tokens[1]}") as b,
    ):
        for ws in (a, b):
            recv_type(ws, "state")
        a.send(json.dumps({"type": "mute", "muted": True}))
        a.send(json.dumps({"type": "ping"}))  # answered after the mute is applied (in order)
        next_of(a, "pong")
        b.send(json.dumps({"type": "chat", "phrase": "oops"}))
        assert next_of(b, "chat") == {"type": "chat", "seat": 1, "phrase": "oops"}
        a.send(json.dumps({"type": "chat", "phrase": "hello"}))  # one's own still comes
        assert next_of(a, "chat", "pong") == {"type": "chat", "seat": 0, "phrase": "hello"}
        assert next_of(b, "chat") == {"type": "chat", "seat": 0, "phrase": "hello"}
        a.send(json.dumps({"type": "mute", "muted": False}))
        a.send(json.dumps({"type": "ping"}))
        next_of(a, "pong")
        b.send(json.dumps({"type": "chat", "phrase": "thanks"}))
        assert next_of(a, "chat") == {"type": "chat", "seat": 1, "phrase": "thanks"}


def test_bot_accounts_are_marked_bot_on_the_challenge_pages(browser, clocked, artifacts) -> None:
    """A bot is marked as on profiles and in games: on the challenge form, a challenge's own
    page (either side) and the home page's lists of challenges received and sent, in both
    languages."""
    robot_device, robot = named(clocked.url, "Robo_ch")
    upgraded = api(clocked.url, make_token(robot_device)).post("/api/bot/account/upgrade")
    assert upgraded.status_code == 200, upgraded.text
    anna = new_page(browser, clocked)
    take_name(anna, "Anna_bt")
    # a person challenges the bot: the form, the challenge's page, the list of those sent
    anna.goto(f"/challenge/{robot}")
    assert anna.inner_text("#challenge-h") == f"Challenge {robot} BOT"
    challenge = send_challenge(anna, robot)
    assert anna.inner_text("h1") == f"Your challenge to {robot} BOT"
    assert anna.locator("h1 .bot-tag").get_attribute("title") == (
        "A program playing through the bot API"
    )
    anna.screenshot(path=str(artifacts / "challenge-to-bot-en.png"))
    home_live(anna)
    sent = anna.locator(f'#outgoing [data-challenge="{challenge}"]')
    assert sent.inner_text() == f"Your challenge to {robot} BOT: waiting for the answer"
    # the bot (signed in on its own device) challenges a person: received, marked
    made = robot_device.post("/challenge/Anna_bt", data={"variant": "standard"})
    assert made.status_code == 303, made.text
    from_bot = made.headers["location"].rsplit("/", 1)[1]
    received = anna.locator(f'#incoming [data-challenge="{from_bot}"]')
    received.wait_for()  # live, on the open home page
    assert received.locator(".ch-from").inner_text() == f"{robot} BOT"
    # nobody else is marked: the person's name in the bot's own list of those sent
    assert "BOT" not in robot_device.get("/challenges/box").text.split("outgoing")[1]
    for lang, mark, words in (("en", "BOT", "A challenge from"), ("ru", "БОТ", "Вызов от игрока")):
        anna.goto(f"/challenges/{from_bot}?lang={lang}")
        assert anna.inner_text("h1") == f"{words} {robot} {mark}"
        anna.goto(f"/?lang={lang}")
        assert anna.locator("#incoming .bot-tag").inner_text() == mark
        assert anna.locator("#outgoing .bot-tag").inner_text() == mark
    anna.goto(f"/challenge/{robot}?lang=ru")
    assert anna.inner_text("#challenge-h") == f"Вызов игроку {robot} БОТ"
    anna.goto("/?lang=en")
    close_all(anna)
    robot_device.close()


def test_the_challenge_setting_shows_one_choice_a_line_on_a_phone(browser, clocked) -> None:
    """Each choice of the name page's challenge setting stands on a line of its own, its radio
    beside its words (inline, a radio could wrap to the line before its words)."""
    vera = new_page(browser, clocked, 390, 844, touch=True)
    take_name(vera, "Vera_setting")
    for lang in ("en", "ru"):
        vera.goto(f"/name?lang={lang}")
        boxes = vera.eval_on_selector_all(
            ".challenge-setting label",
            """labels => labels.map(l => {
                const r = l.querySelector('input').getBoundingClientRect();
                const b = l.getBoundingClientRect();
                return {top: b.top, bottom: b.bottom, radio: r.top, radioLeft: r.left, left: b.left};
            })""",
        )
        assert len(boxes) == 3
        for above, below in zip(boxes, boxes[1:], strict=False):
            assert below["top"] >= above["bottom"] - 1, (lang, boxes)  # one a line
        for box in boxes:
            assert box["top"] - 1 <= box["radio"] <= box["bottom"], (lang, box)
            assert abs(box["radioLeft"] - boxes[0]["radioLeft"]) < 1, (lang, boxes)  # aligned
    vera.goto("/?lang=en")
    close_all(vera)
