"""A name moved to a phone by a transfer link plays its games there, in Chromium: a move of a
turn-based game, resigning a live game and the review from its own side, as on the device that
made the games.  The phone never had those games' seat secrets: its name holds the seats."""

from __future__ import annotations

import httpx
import pytest

from senet.web.i18n import translator

from .conftest import SEARCH_WAIT
from .helpers import best_move
from .test_browser import click_move, legal_buttons, new_page, ply, wait_started
from .test_lobby_browser import clocked, join_by_invitation, start_friend_game  # noqa: F401
from .test_players_browser import take_name
from .test_turn_based_browser import decider_page, start_turn_based

pytestmark = pytest.mark.browser


def sign_in_by_link(source, target) -> None:
    source.goto("/name")
    source.click("#transfer")
    target.goto(source.input_value("#transfer-link"))
    target.click("#use-code")
    target.wait_for_selector("#my-profile")


def test_a_name_signed_in_by_transfer_plays_resigns_and_reviews_on_the_phone(
    browser,
    clocked,  # noqa: F811 - the fixture
    artifacts,
) -> None:
    desk = new_page(browser, clocked)
    rival = new_page(browser, clocked)
    take_name(desk, "Spools_desk")
    take_name(rival, "Thutmose35")
    turn_based = start_turn_based(desk, rival, days=2)
    phone = new_page(browser, clocked, 360, 740, touch=True)
    sign_in_by_link(desk, phone)
    assert phone.inner_text("#nav-player") == "Spools_desk"

    # The turn-based game: the home page promises it, and the game page keeps the promise.
    phone.goto(f"/g/{turn_based}")
    wait_started(phone)
    assert phone.get_attribute("#game", "data-you") == "[0]"
    assert "watching" not in phone.inner_text("#status")
    for _ in range(4):
        mover = decider_page((phone, rival), clocked, turn_based)
        assert mover is not None
        before = ply(mover)
        click_move(mover, best_move(legal_buttons(mover)))
        assert ply(mover) > before
        if mover is phone:
            break
    else:
        raise AssertionError("the phone never had a move to play")
    phone.screenshot(path=str(artifacts / "name-on-a-second-phone-turn-based-en-360x740.png"))

    # A live game made on the desk, resigned on the phone: "you resigned", from its side.
    live = start_friend_game(desk)
    join_by_invitation(rival, desk)
    mine = desk.get_attribute("#game", "data-you")  # the colour was left to chance
    assert mine in ("[0]", "[1]")
    side = mine.strip("[]")
    phone.goto(f"/g/{live}")
    wait_started(phone)
    assert phone.get_attribute("#game", "data-you") == mine
    if phone.is_visible("#menu-toggle"):  # a phone held upright: Resign is in the menu
        phone.click("#menu-toggle")
    phone.click("#resign")
    phone.click("#resign-yes")
    phone.wait_for_selector("#over:not([hidden])")
    result = phone.text_content("#result") or ""
    assert result.endswith("— you resigned"), result
    rival.wait_for_selector("#over:not([hidden])")
    assert (rival.text_content("#result") or "").startswith("You won — ")
    phone.screenshot(path=str(artifacts / "name-on-a-second-phone-resigned-en-360x740.png"))

    # The review on the phone takes its own side: "your chance".
    ready = httpx.get(f"{clocked.url}/api/games/{live}/review", timeout=SEARCH_WAIT)
    assert ready.status_code == 200, ready.text[:300]
    phone.goto(f"/g/{live}/review?lang=en")
    phone.wait_for_selector("#review[data-ready='1']")
    t = translator("en")
    lead = phone.locator(f"p.lead[data-side='{side}']")
    assert lead.is_visible() and lead.inner_text() == t("review.lead_you")
    assert phone.get_attribute(f"a.side-link[data-side='{side}']", "aria-current") == "true"
    phone.screenshot(path=str(artifacts / "name-on-a-second-phone-review-en-360x740.png"))
    for page in (desk, rival, phone):
        assert page.js_errors == []  # type: ignore[attr-defined]
        page.context.close()


def test_a_transfer_link_names_its_name_and_asks_before_signing_a_name_out(
    browser, site, artifacts
) -> None:
    attacker = new_page(browser, site)
    victim = new_page(browser, site, 360, 740, touch=True)
    take_name(attacker, "Mallory_link")
    take_name(victim, "Nefertari_own")
    attacker.goto("/name")
    attacker.click("#transfer")
    link = attacker.input_value("#transfer-link")
    victim.goto(f"{link}?lang=ru")
    assert "войдёт под именем Mallory_link" in victim.inner_text("#transfer-owner")
    warning = victim.inner_text("#transfer-replaces")
    assert "вы вошли как Nefertari_own" in warning and "здесь выйдет" in warning
    width = victim.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the transfer page is wider than the phone: {width}"
    victim.screenshot(path=str(artifacts / "transfer-confirm-ru-360x740.png"), full_page=True)
    victim.click("#use-code")  # the box not ticked: the browser asks for it, nothing is sent
    assert victim.url.endswith("?lang=ru") and "/transfer/" in victim.url
    assert victim.inner_text("#nav-player") == "Nefertari_own"
    victim.check("#transfer-confirm")
    victim.click("#use-code")
    victim.wait_for_selector("#my-profile")
    assert victim.inner_text("#nav-player") == "Mallory_link"  # the person's own choice
    for page in (attacker, victim):
        assert page.js_errors == []  # type: ignore[attr-defined]
        page.context.close()
