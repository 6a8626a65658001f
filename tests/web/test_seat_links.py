"""Someone else's private link never silently replaces the seat a device holds.

Opening the opponent's ``/g/ID/seat/TOKEN_B`` on a device signed into seat A asks first (and
shows seat A's own link); switching is a same-origin POST from that page, and afterwards the
device holds both seats: the game page offers the other one, and swapping back works."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .conftest import SiteServer
from .helpers import friend_game
from .test_request_forgery_browser import Attacker


def seat_cookie(client: httpx.Client, game_id: str, other: bool = False) -> str | None:
    name = f"senet_other_seat_{game_id}" if other else f"senet_seat_{game_id}"
    return client.cookies.get(name)


def test_anothers_link_asks_before_switching_and_both_seats_stay(site: SiteServer) -> None:
    game = friend_game(site.url)
    a, b = game.tokens[0], game.tokens[1]
    origin = {"Origin": site.url}
    with httpx.Client(base_url=site.url) as device:
        assert device.get(f"/g/{game.game_id}/seat/{a}").status_code == 303
        assert seat_cookie(device, game.game_id) == a

        asked = device.get(f"/g/{game.game_id}/seat/{b}")
        assert asked.status_code == 200, "the seat was switched without asking"
        assert "set-cookie" not in asked.headers
        assert seat_cookie(device, game.game_id) == a
        assert f"/g/{game.game_id}/seat/{a}" in asked.text  # the device's own link, to keep
        assert 'id="switch-form"' in asked.text and 'method="post"' in asked.text

        # The same link opened again without a seat on the device just takes the seat.
        with httpx.Client(base_url=site.url) as fresh:
            assert fresh.get(f"/g/{game.game_id}/seat/{b}").status_code == 303
            assert seat_cookie(fresh, game.game_id) == b

        # A page of another origin cannot make the switch for the player.
        forged = device.post(
            f"/g/{game.game_id}/seat/{b}", headers={"Origin": "http://127.0.0.1:1"}
        )
        assert forged.status_code == 403 and seat_cookie(device, game.game_id) == a

        switched = device.post(f"/g/{game.game_id}/seat/{b}", headers=origin)
        assert switched.status_code == 303
        assert seat_cookie(device, game.game_id) == b
        assert seat_cookie(device, game.game_id, other=True) == a

        page = device.get(f"/g/{game.game_id}").text
        assert 'id="other-seat"' in page and f'action="/g/{game.game_id}/other-seat"' in page
        back = device.post(f"/g/{game.game_id}/other-seat", headers=origin)
        assert back.status_code == 303
        assert seat_cookie(device, game.game_id) == a
        assert seat_cookie(device, game.game_id, other=True) == b
        state = device.get(f"/api/games/{game.game_id}").json()
        assert state["you"] == [0]

        # A wrong link changes nothing and asks nothing.
        wrong = device.get(f"/g/{game.game_id}/seat/not-a-secret")
        assert wrong.status_code == 303 and seat_cookie(device, game.game_id) == a


@pytest.fixture
def other_site() -> Iterator[Attacker]:
    """A page of another origin on the same host."""
    server = Attacker()
    yield server
    server.close()


@pytest.mark.browser
def test_in_chromium_a_link_from_another_site_asks_and_both_seats_stay(
    browser, site: SiteServer, other_site: Attacker
) -> None:
    attacker = other_site
    game = friend_game(site.url)
    a, b = game.tokens[0], game.tokens[1]
    attacker.pages["/"] = f'<a id="l" href="{site.url}/g/{game.game_id}/seat/{b}">a game</a>'
    context = browser.new_context()
    page = context.new_page()

    def seat() -> str | None:
        cookies = {c["name"]: c["value"] for c in context.cookies()}
        return cookies.get(f"senet_seat_{game.game_id}")

    try:
        page.goto(f"{site.url}/g/{game.game_id}/seat/{a}")
        assert seat() == a
        page.goto(f"{attacker.url}/")
        page.click("#l")
        page.wait_for_selector("#switch-form")
        assert seat() == a  # asked, not switched
        assert page.input_value("#own-url").endswith(f"/seat/{a}")
        page.click("#switch")  # a form of the site itself: Chromium sends Origin: null
        page.wait_for_selector("#other-seat")
        assert seat() == b
        page.click("#to-other-seat")
        page.wait_for_url(f"{site.url}/g/{game.game_id}")
        assert seat() == a
    finally:
        context.close()
