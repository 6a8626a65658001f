"""Turn-based games in a real Chromium against a real server whose clock the test moves
(``SENET_MANUAL_CLOCK``): two named players play over three simulated days, each seeing the
game in "your turn" with its time left, the count in the tab's title and on "My games"; a
game whose deadline passes is lost on time by the server's own timer, also when the server
was restarted meanwhile."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .helpers import best_move, state
from .test_browser import click_move, is_over, legal_buttons, new_page, ply, wait_started
from .test_lobby_browser import ClockedSite, clocked, game_id_of  # noqa: F401 - the fixture
from .test_players_browser import take_name

pytestmark = pytest.mark.browser

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture
def clocked_own(tmp_path: Path) -> Iterator[ClockedSite]:
    """A clocked server of the test's own, which the test may restart."""
    server = ClockedSite(tmp_path / "senet.sqlite3")
    server.start()
    yield server
    server.stop()


def start_turn_based(host, guest, days: int, variant: str = "kendall") -> str:
    host.goto("/")
    form = host.locator("form.start-form").first
    form.locator("select[name=variant]").select_option(variant)
    form.locator("input[name=mode][value=friend]").check()
    form.locator("input[name=colour][value=A]").check()
    form.locator("select[name=time_control]").select_option(f"days:{days}")
    form.locator("button[type=submit]").click()
    host.wait_for_selector("#game[data-ply]")
    game_id = game_id_of(host)
    guest.goto(host.input_value("#invite-url"))
    guest.wait_for_selector("#game[data-ply]")
    for page in (host, guest):
        wait_started(page)
    return game_id


def decider_page(pages, site, game_id, timeout: float = 30.0):
    """The page whose player decides now, once their clock runs (the server's forced passes,
    played after a moment of the server's clock, moved on here); None once the game is over."""
    end = time.monotonic() + timeout
    while True:
        now = state(site.url, game_id)
        if now["phase"] == "over":
            return None
        clock = now["clock"]
        if now["decider"] is not None and clock and clock["running"] == now["decider"]:
            break
        if now["forced_pass"] is not None:
            site.advance(1)
        assert time.monotonic() < end, f"no player's decision came: {now}"
        time.sleep(0.05)  # polling the server's state for the condition above
    for page in pages:
        if page.get_attribute("#game", "data-you") == f"[{now['decider']}]":
            page.wait_for_selector("#moves button[data-move]", timeout=15_000)
            return page
    raise AssertionError(f"no page holds seat {now['decider']}")


def test_two_named_players_play_a_turn_based_game_over_three_days(
    browser,
    clocked,  # noqa: F811 - the fixture
    artifacts,
) -> None:
    anna = new_page(browser, clocked)
    boris = new_page(browser, clocked, 390, 844, touch=True)
    take_name(anna, "Anna_days")
    take_name(boris, "Boris_days")
    game_id = start_turn_based(anna, boris, days=3)
    # each player's home page, in a tab of its own on the same device
    homes = {anna: anna.context.new_page(), boris: boris.context.new_page()}
    for page in homes.values():
        page.goto("/")
    for page in (anna, boris):
        page.wait_for_selector("#turn-based-note:not([hidden])")
        assert "your move" in page.inner_text(".turn-based-note")
    elapsed = 0
    moves = 0
    photographed = False
    while elapsed < 3 * DAY:
        mover = decider_page((anna, boris), clocked, game_id)
        assert mover is not None, "the game ended early"
        other = boris if mover is anna else anna
        # the mover's home page lists the game under "your turn" with its time left; the
        # count is in the title and on "My games"
        home = homes[mover]
        home.reload()
        row = f'#your-turn li[data-game="{game_id}"]'
        home.wait_for_selector(row)
        left = home.inner_text(f"{row} .tg-left")
        assert re.fullmatch(r"(2|3) d \d+ h left", left), left
        assert home.title().startswith("(1) ")
        assert home.inner_text("#turn-badge") == "1"
        against = "Boris_days" if mover is anna else "Anna_days"
        assert f"against {against}" in home.inner_text(row)
        homes[other].reload()
        homes[other].wait_for_function(
            "() => document.getElementById('your-turn').dataset.count === '0'"
        )
        assert homes[other].is_hidden(
            "#your-turn"
        )  # the home page shows the list only with games in it
        assert not homes[other].title().startswith("(")
        # the clock of a move counts days and hours
        clock_text = mover.inner_text(".clock.running .clock-time")
        assert re.fullmatch(r"[23] d \d+ h", clock_text), clock_text
        if mover is boris and not photographed:
            mover.screenshot(path=str(artifacts / "turn-based-game-en-390x844.png"))
            photographed = True
        before = ply(mover)
        click_move(mover, best_move(legal_buttons(mover)))
        assert ply(mover) > before
        moves += 1
        clocked.advance(11 * HOUR)  # the next player moves half a day later
        elapsed += 11 * HOUR
    final = state(clocked.url, game_id)
    assert final["phase"] == "playing" and moves >= 6
    assert anna.js_errors == [] and boris.js_errors == []  # type: ignore[attr-defined]


def test_a_deadline_passed_ends_the_game_on_time_also_after_a_restart(browser, clocked_own) -> None:
    site = clocked_own
    host = new_page(browser, site)
    guest = new_page(browser, site, 390, 844)
    take_name(host, "Host_days")
    game_id = start_turn_based(host, guest, days=1, variant="bell")
    mover = decider_page((host, guest), site, game_id)
    assert mover is not None
    click_move(mover, best_move(legal_buttons(mover)))
    late_page = decider_page((host, guest), site, game_id)
    assert late_page is not None
    late = state(site.url, game_id)["decider"]
    token = late_page.context.cookies()
    secret = next(c["value"] for c in token if c["name"] == f"senet_seat_{game_id}")
    before = state(site.url, game_id)["ply"]
    # the server stops a few hours into the late player's day, and starts again: its clock
    # (a manual one) starts again from where a fresh server's starts
    site.advance(5 * HOUR)
    site.stop()
    site.start()
    started = httpx.get(f"{site.url}/api/games/{game_id}").json()
    assert started["phase"] == "playing" and started["ply"] == before
    deadline = started["clock"]["deadline"]
    site.advance((deadline - started["now"]) / 1000 - 60)  # a minute before the deadline
    assert httpx.get(f"{site.url}/api/games/{game_id}").json()["phase"] == "playing"
    site.advance(61)
    for page in (host, guest):
        page.wait_for_function(
            "() => document.getElementById('game').dataset.over === '1'", timeout=20_000
        )
    final = httpx.get(f"{site.url}/api/games/{game_id}").json()
    assert final["termination"] == "time forfeit"
    assert final["outcome"]["winner"] == 1 - late
    assert "time" in late_page.inner_text("#result").lower()
    # a move sent now is refused, and nothing is stored
    refused = httpx.post(
        f"{site.url}/api/games/{game_id}/moves",
        json={"ply": final["ply"], "move": "pass"},
        headers={"X-Seat-Token": secret},
    )
    assert refused.status_code == 409 and refused.json()["code"] == "game_over"
    assert httpx.get(f"{site.url}/api/games/{game_id}").json()["ply"] == final["ply"]
    assert is_over(host) and is_over(guest)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_phone_screenshots_of_your_turn_and_a_turn_based_game(
    browser,
    clocked,  # noqa: F811 - the fixture
    artifacts,
    lang,
) -> None:
    """The home page of a player whose move is due, and the game, on a 390×844 phone: the list
    first on the page, its row whole on the screen, in the page's language."""
    names = {"en": ("Ada_phone", "Ben_phone"), "ru": ("Ада", "Бен")}[lang]
    host = new_page(browser, clocked, 390, 844, touch=True)
    guest = new_page(browser, clocked, 390, 844, touch=True)
    for page, name in zip((host, guest), names, strict=True):
        take_name(page, name)
        page.goto(f"/lang/{lang}?next=/")
    game_id = start_turn_based(host, guest, days=3, variant="standard")
    mover = decider_page((host, guest), clocked, game_id)
    assert mover is not None
    mover.wait_for_selector("#turn-based-note:not([hidden])")
    mover.screenshot(path=str(artifacts / f"turn-based-game-{lang}-390x844.png"))
    home = mover.context.new_page()
    home.goto("/")
    row = f'#your-turn li[data-game="{game_id}"]'
    home.wait_for_selector(row)
    box = home.locator(row).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert box["y"] + box["height"] <= 844  # on the first screen
    left = home.inner_text(f"{row} .tg-left")
    assert re.search(r"\d", left)
    assert ("left" in left) if lang == "en" else ("осталось" in left)
    assert home.title().startswith("(1) ")
    home.screenshot(path=str(artifacts / f"your-turn-home-{lang}-390x844.png"))
    assert home.inner_text("#your-turn-h") == ("Your turn" if lang == "en" else "Ваш ход")
