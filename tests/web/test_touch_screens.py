"""On a touch screen (a phone: no mouse to hover, no keys) the site hides what only a keyboard
can use and keeps every other explanation: what to tap, what a field is for, what a choice
means.  Playwright's ``is_mobile``/``has_touch`` make Chromium match ``(hover: none)``."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from .helpers import friend_game
from .test_browser import new_page, start_game

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_touch_phone_hides_the_keyboard_help_and_keeps_every_other_explanation(
    browser, site, artifacts, lang
) -> None:
    page = new_page(browser, site, 390, 844, touch=True)
    page.goto(f"/lang/{lang}")
    assert page.evaluate("matchMedia('(hover: none)').matches")

    # the start form: the advanced field's help says what the seed is for
    page.goto("/")
    page.click("form.start-form details.seed-field summary")
    assert page.is_visible("form.start-form .seed-field .hint")

    # the analysis board: setting up a position is done by tapping, and the help says how
    page.goto(f"/analysis?position={quote('standard A.B......./........../.......... A -')}")
    page.click("#an-edit")
    page.wait_for_selector("#an-edit-help", state="visible")
    page.screenshot(path=str(artifacts / f"touch-analysis-edit-{lang}-390.png"))

    # a game: the keyboard's instructions are of no use here
    start_game(page, "standard", "local")
    page.wait_for_selector("#moves button[data-move]")
    assert page.locator(".keys-hint").count() == 1 and not page.is_visible(".keys-hint")

    # another seat's link on a device that holds a seat: the note on keeping both stays
    game = friend_game(site.url)
    page.goto(f"/g/{game.game_id}/seat/{game.tokens[0]}")
    page.goto(f"/g/{game.game_id}/seat/{game.tokens[1]}")
    page.wait_for_selector("#switch-form")
    assert page.is_visible(".seat-switch .hint")
    assert page.js_errors == []  # type: ignore[attr-defined]
    page.context.close()
