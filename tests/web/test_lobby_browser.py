"""Playing strangers and finishing games, in real Chromium against a real server whose clock
the test moves (``SENET_MANUAL_CLOCK``): nothing waits for real time to pass.

Each player is a browser context of its own (its own cookies: its own seats)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from senet.engine.record import parse_record
from senet.service.players.levels import level_ratings

from .conftest import SiteServer
from .helpers import give_seed, state
from .test_browser import new_page, wait_started

pytestmark = pytest.mark.browser


class ClockedSite(SiteServer):
    """A server whose clock moves only when the test says (``POST /api/testing/clock``)."""

    def __init__(self, db: Path) -> None:
        super().__init__(db)
        self.env["SENET_MANUAL_CLOCK"] = "1"

    def advance(self, seconds: float) -> None:
        response = httpx.post(
            f"{self.url}/api/testing/clock", json={"advance_ms": int(seconds * 1000)}
        )
        assert response.status_code == 200, response.text


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClockedSite]:
    server = ClockedSite(tmp_path_factory.mktemp("clocked") / "senet.sqlite3")
    server.start()
    yield server
    server.stop()


def game_id_of_url(url: str) -> str:
    path = url.split("?")[0]
    return path.rsplit("/", 1)[-1] if "/g/" in path else ""


def game_id_of(page) -> str:
    return game_id_of_url(page.url)


def start_friend_game(page, variant="standard", time_control="untimed", listed=False) -> str:
    page.goto("/")
    page.select_option("#variant", variant)
    page.check("input[name=mode][value=friend]")
    page.select_option("#tc-home", time_control)
    if listed:
        page.check("form.start-form input[name=listed]")
    page.click("form.start-form button[type=submit]")
    page.wait_for_selector("#game[data-ply]")
    return game_id_of(page)


def join_by_invitation(page, host) -> None:
    invite = host.input_value("#invite-url")
    page.goto(invite)
    page.click("form button[type=submit]")
    page.wait_for_selector("#game[data-ply]")


def test_an_open_game_is_taken_from_the_lobby_by_exactly_one_stranger(browser, clocked):
    creator = new_page(browser, clocked, 390, 844)
    taker = new_page(browser, clocked, 390, 844)
    onlooker = new_page(browser, clocked)
    for page in (taker, onlooker):
        page.goto("/")
        page.wait_for_selector("#open-games li")
    game_id = start_friend_game(creator, "kendall", "move:60", listed=True)
    creator.wait_for_function(
        "() => document.getElementById('status').textContent.includes('Looking for an opponent')"
    )
    # the listing reaches the pages already open, without a reload
    row = f'#open-games li[data-game="{game_id}"]'
    for page in (taker, onlooker):
        page.wait_for_selector(row)
    assert "60" in onlooker.text_content(row) or "1" in onlooker.text_content(row)
    taker.click(f"{row} button.take")
    taker.wait_for_url(f"**/g/{game_id}")
    wait_started(taker)
    wait_started(creator)
    assert taker.text_content("#you") and "watch" not in taker.text_content("#you").lower()
    # gone at once for everybody else; a late click is told, and watches
    onlooker.wait_for_selector(row, state="detached")
    response = httpx.post(f"{clocked.url}/api/lobby/{game_id}/take", json={})
    assert response.status_code == 409 and response.json()["code"] == "taken"
    assert not creator.js_errors and not taker.js_errors and not onlooker.js_errors


def pairing_form_laid_out(page) -> list[str]:
    """What is wrong with the quick-pairing form's layout: a label on another line than its
    control, or a control running past the form's edge."""
    return page.eval_on_selector(
        "form.play-now",
        """form => {
            const edge = form.getBoundingClientRect().right + 1, faults = [];
            for (const field of form.querySelectorAll(".pn-field")) {
                const label = field.querySelector("label").getBoundingClientRect();
                const box = field.querySelector("select").getBoundingClientRect();
                const middle = (label.top + label.bottom) / 2;
                if (middle < box.top || middle > box.bottom) faults.push("apart: " + field.textContent.trim().slice(0, 20));
                if (box.right > edge) faults.push("past the edge: " + field.textContent.trim().slice(0, 20));
            }
            return faults;
        }""",
    )


def test_quick_pairing_puts_two_askers_in_one_game(browser, clocked, artifacts):
    first = new_page(browser, clocked)
    second = new_page(browser, clocked, 360, 740)
    for page in (first, second):
        page.goto("/?lang=ru" if page is second else "/")
        assert page.locator("form.play-now .pn-field").count() == 2  # variant, time
        assert pairing_form_laid_out(page) == []
    second.locator(".lobby").screenshot(path=str(artifacts / "pairing-ru-360x740.png"))
    first.select_option("#pn-variant", "bell")
    first.click("#play-now")
    first.wait_for_selector("#game[data-ply]")
    waiting_id = game_id_of(first)
    # the asker is told that an opponent is being looked for, not that a friend is awaited
    first.wait_for_function(
        "() => document.getElementById('status').textContent.includes('Looking for an opponent')"
    )
    assert first.text_content("h1").endswith("· player vs player online")  # a stranger is no friend
    second.select_option("#pn-variant", "bell")
    second.click("#play-now")
    second.wait_for_selector("#game[data-ply]")
    assert game_id_of(second) == waiting_id
    wait_started(first)
    wait_started(second)
    seats = {first.get_attribute("#game", "data-you"), second.get_attribute("#game", "data-you")}
    assert seats == {"[0]", "[1]"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_nobody_came_so_the_asker_plays_the_computer_until_a_person_takes_the_seek(
    browser, clocked, artifacts, lang
):
    """An empty lobby offers the computer at a middle level (an anonymous asker) while the
    request stays listed; the game against the computer keeps the asker present there, and
    says when a person takes it, with the way to the game."""
    asker = new_page(browser, clocked, 390, 844)
    onlooker = new_page(browser, clocked)
    asker.goto(f"/?lang={lang}")
    onlooker.goto("/")
    # the home page says how alive the site is
    asker.wait_for_selector("#activity:not([hidden])")
    counts = {
        "en": r"\d+ players? online · \d+ games? being played",
        "ru": r"\d+ игрок(а|ов)? в сети · (идёт|идут) \d+ парти(я|и|й)",
    }
    assert re.fullmatch(counts[lang], asker.inner_text("#activity")), asker.inner_text("#activity")
    asker.select_option("#pn-variant", "kendall-1978")
    asker.click("#play-now")
    asker.wait_for_selector("#game[data-ply]")
    waiting_id = game_id_of(asker)
    row = f'#open-games li[data-game="{waiting_id}"]'
    onlooker.wait_for_selector(row)
    asker.wait_for_selector("#computer-instead:not([hidden])")
    box = asker.locator("#computer-instead").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # in view beside the status
    asker.screenshot(path=str(artifacts / f"computer-instead-{lang}-390.png"))
    asker.click("#computer-instead")
    asker.wait_for_url(lambda url: game_id_of_url(url) not in ("", waiting_id))
    asker.wait_for_selector("#game[data-ply]")
    computer_id = game_id_of(asker)
    state = httpx.get(f"{clocked.url}/api/games/{computer_id}").json()
    assert (state["variant"], state["mode"]) == ("kendall-1978", "computer")
    # an anonymous player counts as a newcomer (1500): the level whose fixed rating is nearest
    fixed = level_ratings("kendall-1978")
    assert state["level"] == min(fixed, key=lambda level: abs(fixed[level] - 1500))
    # the request stays listed: the game against the computer keeps its seat present
    deadline = time.monotonic() + 20
    while not any(httpx.get(f"{clocked.url}/api/games/{waiting_id}").json()["presence"]["online"]):
        assert time.monotonic() < deadline, "the asker's seat never came back online"
        time.sleep(0.05)  # polling the server for the condition above
    clocked.advance(5 * 60)  # far past the creator's grace of 30 s
    assert waiting_id in {g["id"] for g in httpx.get(f"{clocked.url}/api/lobby").json()}
    assert asker.is_hidden("#seek-taken")
    # quick pairing passes over a request whose player is busy with the computer: a newcomer
    # asking the same waits in a request of their own instead of getting a game nobody plays
    newcomer = new_page(browser, clocked, 360, 740)
    newcomer.goto(f"/?lang={lang}")
    newcomer.select_option("#pn-variant", "kendall-1978")
    newcomer.click("#play-now")
    newcomer.wait_for_selector("#game[data-ply]")
    assert game_id_of(newcomer) != waiting_id
    assert newcomer.get_attribute("#game", "data-you") in ("[0]", "[1]")
    newcomer.wait_for_selector("#cancel-game:not([hidden])")  # nobody has come: it waits
    newcomer.click("#cancel-game")
    newcomer.click("#cancel-game-yes")
    newcomer.wait_for_url(lambda url: "/g/" not in url)
    newcomer.context.close()
    # a person takes it: the game against the computer says so, in the page's language
    onlooker.reload()
    onlooker.click(f"{row} button.take")
    onlooker.wait_for_url(f"**/g/{waiting_id}")
    asker.wait_for_selector("#seek-taken:not([hidden])")
    words = {"en": "Someone took your open game", "ru": "Вашу открытую партию занял соперник"}
    assert words[lang] in asker.inner_text("#seek-taken")
    box = asker.locator("#seek-taken").bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844
    asker.screenshot(path=str(artifacts / f"seek-taken-{lang}-390x844.png"))
    asker.click("#seek-taken a")
    asker.wait_for_url(f"**/g/{waiting_id}")
    wait_started(asker)
    wait_started(onlooker)
    assert asker.get_attribute("#game", "data-you") != onlooker.get_attribute("#game", "data-you")
    assert asker.is_hidden("#seek-taken")  # nothing waits any more
    assert asker.js_errors == []  # type: ignore[attr-defined]


def test_a_friend_game_offers_no_computer_instead(browser, clocked):
    host = new_page(browser, clocked)
    start_friend_game(host)  # the friend has the link: nobody else is looked for
    host.wait_for_selector("#cancel-game:not([hidden])")
    assert host.is_hidden("#computer-instead")


def test_resigning_asks_first_and_ends_the_game_for_both(browser, clocked):
    host = new_page(browser, clocked)
    guest = new_page(browser, clocked, 390, 844)
    game_id = start_friend_game(host)
    join_by_invitation(guest, host)
    wait_started(host)
    wait_started(guest)
    # the player whose move it is resigns, with their moves on the screen
    host_seat = int(host.get_attribute("#game", "data-you").strip("[]"))
    decider = host.get_attribute("#game", "data-decider")
    quitter = host if decider == str(host_seat) else guest
    quitter.wait_for_selector("#moves button[data-move]")
    if quitter.is_visible("#menu-toggle"):  # a phone held upright: Resign is in the menu
        quitter.click("#menu-toggle")
    quitter.click("#resign")
    quitter.click("#resign-no")  # changed their mind: nothing happens
    assert quitter.get_attribute("#game", "data-phase") == "playing"
    quitter.click("#resign")
    quitter.click("#resign-yes")
    for page in (host, guest):
        page.wait_for_selector("#over:not([hidden])")
        result = page.text_content("#result") or ""
        # each is told from their own side: who resigned, and who won
        if page is quitter:
            assert result.endswith("— you resigned"), result
        else:
            assert result.startswith("You won — ") and result.endswith(" resigned"), result
            assert "you resigned" not in result
        # over means over: no moves offered, no piece to pick, no "your turn" on the status
        assert page.locator("#moves button").count() == 0
        assert page.locator("#board .piece.movable, #board .target").count() == 0
        assert "your-turn" not in (page.get_attribute("#status", "class") or "")
        assert page.get_attribute("#game", "data-decider") == ""
    record = httpx.get(f"{clocked.url}/g/{game_id}/record").text
    parsed = parse_record(record)
    assert parsed.tags["Termination"] == "resignation"
    assert parsed.tags["Result"] == "AB"[host_seat if quitter is guest else 1 - host_seat]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_host_cancels_a_game_nobody_joined_and_every_page_showing_it_is_told(
    browser, clocked, artifacts, lang
):
    host = new_page(browser, clocked, 390, 844)
    onlooker = new_page(browser, clocked)
    spectator = new_page(browser, clocked, 360, 640)
    late = new_page(browser, clocked, 390, 844)
    if lang == "ru":
        for page in (host, onlooker, spectator, late):
            page.goto("/lang/ru")
    onlooker.goto("/")
    game_id = start_friend_game(host, "adelaida", listed=True)
    invite = host.input_value("#invite-url")
    row = f'#open-games li[data-game="{game_id}"]'
    onlooker.wait_for_selector(row)
    spectator.goto(f"/g/{game_id}")
    spectator.wait_for_selector("#game[data-ply]")
    # nobody to resign to: the way out is to cancel, in view on the phone with the board
    host.wait_for_selector("#cancel-game:not([hidden])")
    assert host.is_hidden("#resign")
    box = host.locator("#cancel-game").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844
    host.screenshot(path=str(artifacts / f"cancel-game-{lang}-390.png"))
    host.click("#cancel-game")
    assert host.is_visible("#cancel-game-dialog")
    host.screenshot(path=str(artifacts / f"cancel-dialog-{lang}-390.png"))
    host.click("#cancel-game-no")  # changed their mind: the game waits on
    assert httpx.get(f"{clocked.url}/g/{game_id}").status_code == 200
    host.click("#cancel-game")
    host.click("#cancel-game-yes")
    host.wait_for_url(f"{clocked.url}/")
    # gone from the host's games, from the lobby (live), and the pages showing it say so
    host.wait_for_selector("#my-games")
    assert not host.locator(f'#my-games li[data-game="{game_id}"]').count()
    onlooker.wait_for_selector(row, state="detached")
    spectator.wait_for_selector("#cancelled:not([hidden])")
    assert spectator.is_hidden("#board")
    expected = {"en": "This game was cancelled", "ru": "Партия отменена"}[lang]
    assert expected in spectator.text_content("#cancelled")
    spectator.screenshot(path=str(artifacts / f"cancelled-spectator-{lang}-360.png"))
    # the friend who opens the link later is told there is no such game
    response = late.goto(invite)
    assert response is not None and response.status == 404
    assert {"en": "cancelled", "ru": "отменили"}[lang] in late.text_content(".error-message")
    for page in (host, onlooker, spectator, late):
        assert not page.js_errors


def test_a_page_that_missed_the_cancellation_learns_it_on_reconnecting(browser, clocked):
    host = new_page(browser, clocked)
    game_id = start_friend_game(host)
    spectator = new_page(browser, clocked, 390, 844)
    dropped: list[str] = []

    def relay(ws) -> None:
        # between the page and the server: the "cancelled" message is lost on the way, and the
        # connection with it (a phone going through a tunnel, say)
        server = ws.connect_to_server()

        def to_page(message) -> None:
            if '"cancelled"' in str(message):
                dropped.append(str(message))
                ws.close(code=4000, reason="lost")
            else:
                ws.send(message)

        server.on_message(to_page)

    spectator.route_web_socket(f"**/ws/games/{game_id}", relay)
    spectator.goto(f"/g/{game_id}")
    spectator.wait_for_selector("#game[data-ply]")
    answer = host.request.post(f"/api/games/{game_id}/cancel", data={})
    assert answer.status == 204
    # the reconnection finds no game: the page says it was cancelled, and stops trying
    spectator.wait_for_selector("#cancelled:not([hidden])")
    assert dropped and spectator.is_hidden("#board")
    assert not spectator.text_content("#conn")
    assert not spectator.js_errors


def test_a_player_whose_time_runs_out_loses_once(browser, clocked):
    host = new_page(browser, clocked)
    guest = new_page(browser, clocked)
    game_id = start_friend_game(host, "standard", "move:30")
    join_by_invitation(guest, host)
    wait_started(host)
    wait_started(guest)
    host.wait_for_selector("#clocks:not([hidden])")
    state = httpx.get(f"{clocked.url}/api/games/{game_id}").json()
    loser = state["clock"]["running"]
    clocked.advance(29)
    assert httpx.get(f"{clocked.url}/api/games/{game_id}").json()["phase"] == "playing"
    for page in (host, guest):  # a note of what happened before, which the end makes old news
        page.evaluate("document.getElementById('events').textContent = 'Before the end.'")
    clocked.advance(2)
    for page in (host, guest):
        page.wait_for_selector("#over:not([hidden])")
        result = page.text_content("#result")
        assert "time" in result.lower()
        seat = int(page.get_attribute("#game", "data-you").strip("[]"))
        assert result.startswith("You lost" if seat == loser else "You won"), result
        assert page.text_content("#events") == ""
        # the clock that ran out reads nothing left; the other the limit of a move
        times = {
            seat: page.text_content(f'.clock[data-seat="{seat}"] .clock-time') for seat in (0, 1)
        }
        assert times == {loser: "0:00", 1 - loser: "0:30"}
    final = httpx.get(f"{clocked.url}/api/games/{game_id}").json()
    assert final["outcome"]["result"] == "AB"[1 - loser] and final["termination"] == "time forfeit"
    record = parse_record(httpx.get(f"{clocked.url}/g/{game_id}/record").text)
    assert record.tags["Termination"] == "time forfeit"
    assert (
        sum(
            1
            for line in httpx.get(f"{clocked.url}/g/{game_id}/record").text.splitlines()
            if "on time" in line
        )
        == 1
    )


def test_the_player_who_stays_may_claim_an_abandoned_game(browser, clocked):
    host = new_page(browser, clocked, 390, 844)
    guest = new_page(browser, clocked)
    game_id = start_friend_game(host)
    join_by_invitation(guest, host)
    wait_started(host)
    wait_started(guest)
    guest.context.close()  # the opponent walks away
    host.wait_for_selector("#claim:not([hidden])")
    assert host.is_disabled("#claim-button")
    opacity = "() => Number(getComputedStyle(document.getElementById('claim-button')).opacity)"
    assert host.evaluate(opacity) < 1  # and looks it, during the countdown
    assert "120" in host.text_content("#claim-text") or "119" in host.text_content("#claim-text")
    clocked.advance(121)
    host.reload()  # the page learns the server's time with each state; here, a fresh one
    host.wait_for_selector("#claim-button:not([disabled])")
    assert host.evaluate(opacity) == 1
    host.click("#claim-button")
    host.wait_for_selector("#over:not([hidden])")
    final = httpx.get(f"{clocked.url}/api/games/{game_id}").json()
    host_seat = int(host.get_attribute("#game", "data-you").strip("[]"))
    assert final["termination"] == "abandoned" and final["outcome"]["result"] == "AB"[host_seat]


def test_my_games_lists_every_game_this_browser_holds_a_seat_in(browser, clocked):
    me = new_page(browser, clocked, 360, 740)
    friend = new_page(browser, clocked)
    waiting = start_friend_game(me, "adelaida")
    playing = start_friend_game(me, "kendall")
    join_by_invitation(friend, me)
    wait_started(me)
    me.goto("/games/mine?lang=ru")
    rows = me.locator("#my-games li.my-game")
    assert rows.count() == 2
    ids = me.eval_on_selector_all("#my-games li.my-game", "ls => ls.map(l => l.dataset.game)")
    assert ids == [playing, waiting]  # newest first
    assert "ждём соперника" in me.text_content(f'#my-games li[data-game="{waiting}"]')
    # the kind of game, the time, the state: three items, the dots between them drawn by the
    # style (where they wrap, test_game_page's dot checks)
    metas = me.eval_on_selector_all(
        "#my-games .row-meta", "ms => ms.map(m => [...m.children].map(c => c.textContent))"
    )
    assert len(metas) == 2
    for meta in metas:
        assert len(meta) == 3 and meta[0] == "игрок против игрока по сети", meta
        assert meta[2] in ("ждём соперника", "ваш ход", "ход соперника"), meta
    # the dots are drawn: a screen reader hears a comma between the items, none before the first
    row_meta = me.locator("#my-games li.my-game .row-meta").first
    heard = ""
    for _ in range(20):  # the list is redrawn every 5 s: a row replaced mid-read reads empty
        heard = row_meta.aria_snapshot()
        if heard:
            break
    assert re.search(r"text: игрок против игрока по сети\s*,\s*\S", heard) and "·" not in heard, (
        heard
    )
    mine = me.evaluate("fetch('/api/mine').then((r) => r.json())")  # what the page reads again
    assert {g["mode_label"] for g in mine} == {"игрок против игрока по сети"}
    # the friend's browser holds only its own seat
    friend.goto("/games/mine")
    assert friend.eval_on_selector_all(
        "#my-games li.my-game", "ls => ls.map(l => l.dataset.game)"
    ) == [playing]
    assert me.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_a_timed_game_keeps_its_deadline_across_a_restart(browser, tmp_path):
    """The deadline is stored with the game: a restarted server waits for the same moment."""
    server = ClockedSite(tmp_path / "senet.sqlite3")
    server.start()
    try:
        created = httpx.post(
            f"{server.url}/api/games",
            json={"mode": "local", "time_control": "clock:60+2", "seed": "both"},
        ).json()
        before = httpx.get(f"{server.url}/api/games/{created['id']}").json()
        assert before["phase"] == "playing" and before["clock"]["deadline"] is not None
        server.stop()
        server.start()
        page = new_page(browser, server)
        page.goto(f"/g/{created['id']}")
        page.wait_for_selector("#clocks:not([hidden])")
        after = httpx.get(f"{server.url}/api/games/{created['id']}").json()
        assert after["clock"] == before["clock"]
        server.advance(61)
        page.wait_for_selector("#over:not([hidden])")
        final = httpx.get(f"{server.url}/api/games/{created['id']}").json()
        assert final["termination"] == "time forfeit"
        assert final["outcome"]["winner"] == 1 - before["clock"]["running"]
    finally:
        server.stop()


@pytest.mark.parametrize("width", [390, 360, 320])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_on_an_upright_phone_the_clocks_stand_beside_the_board_and_stay_on_screen(
    browser, clocked, lang, width
):
    """On a phone held upright the board is upright and the clocks stand one above the other in
    the column beside it (side by side they would not fit that column; there they take no height
    from the board): each clock whole, right of the board and inside the screen, in both
    languages (the Russian seat names are the longer)."""
    page = new_page(browser, clocked, width, 740, touch=True)
    page.goto(f"/?lang={lang}")
    page.select_option("#variant", "kendall")
    page.check("input[name=mode][value=computer]")
    page.select_option("#tc-home", "clock:300+5")
    page.click("form.start-form button[type=submit]")
    page.wait_for_selector("#clocks:not([hidden]) .clock-time:not(:empty)")
    layout = page.evaluate(
        """() => {
        const board = document.querySelector('#board').getBoundingClientRect();
        const clocks = [...document.querySelectorAll('#clocks .clock')]
          .map(c => c.getBoundingClientRect());
        return {
          rows: new Set(clocks.map(c => Math.round(c.top))).size,
          onScreen: clocks.every(c => c.left >= 0 && c.right <= document.documentElement.clientWidth),
          besideBoard: clocks.every(c => c.left >= board.right),
        };
    }"""
    )
    assert layout == {"rows": 2, "onScreen": True, "besideBoard": True}
    page.context.close()


def test_games_being_played_come_apart_from_a_few_whose_players_left(browser, clocked) -> None:
    """The watch page lists the games with a player here under "being played now", and after
    them only the most recent few of the games whose players left (which wait for them)."""
    from senet.web.routes.lobby import AWAY_SHOWN

    left = []
    for i in range(AWAY_SHOWN + 2):  # started, the first throw made, then left
        body = {"variant": "standard", "mode": "computer", "colour": "A", "public": True}
        created = httpx.post(f"{clocked.url}/api/games", json=body).json()
        seeded = give_seed(clocked.url, created["id"], created["token"], f"left {i}")
        assert seeded.status_code == 200
        left.append(created["id"])
        # where the first throw gave the computer the first move, it plays it after its delay:
        # wait for that, lest the game turn out more recently active than the ones after it
        # (a forced pass waits on the server's manual clock, which this test never moves)
        deadline = time.monotonic() + 30
        while (seen := state(clocked.url, created["id"]))["decider"] == 1 and not seen[
            "forced_pass"
        ]:
            assert time.monotonic() < deadline, "the computer did not play its first move"
    player = new_page(browser, clocked, 390, 844)
    player.goto("/")
    player.check("input[name=mode][value=computer]")
    player.click("form.start-form button[type=submit]")
    wait_started(player)
    playing = game_id_of(player)

    def sections() -> tuple[list[str], list[str]]:
        page = httpx.get(f"{clocked.url}/games/live").text
        now = re.search(r'<ul id="watch-games".*?</ul>', page, re.S)
        away = re.search(r'<ul id="watch-away".*?</ul>', page, re.S)
        assert now is not None and away is not None
        find = r'class="watch-game" data-game="([^"]+)"'
        return re.findall(find, now.group(0)), re.findall(find, away.group(0))

    now, away = sections()
    assert playing in now and not set(left) & set(now)
    assert playing not in away and len(away) == AWAY_SHOWN
    assert away == left[::-1][:AWAY_SHOWN]  # the most recently active first
    player.context.close()  # the player leaves too: the game waits among the others
    deadline = time.monotonic() + 30
    while playing in sections()[0]:
        assert time.monotonic() < deadline, "a player who left is still counted here"
    assert sections()[1][0] == playing
