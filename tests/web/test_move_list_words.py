"""The game's move list writes a bearing off in the page's language, as the board names the
way off («выход» in Russian); the notation itself, which programs read (the record, the API),
stays as it is."""

from __future__ import annotations

import re

import httpx
import pytest

from .helpers import friend_game, play_out
from .test_browser import new_page

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang,off", [("ru", "выход"), ("en", "off")])
def test_the_move_list_bears_off_in_the_boards_words(browser, site, artifacts, lang, off) -> None:
    game = friend_game(site.url, "standard")
    play_out(site.url, game)
    page = new_page(browser, site, 390, 844, touch=True)
    page.goto(f"/g/{game.game_id}?lang={lang}")
    page.wait_for_selector("#move-list li")
    listed = " ".join(page.eval_on_selector_all("#move-list li", "l => l.map(i => i.textContent)"))
    board_word = page.text_content("#board .off-label")
    assert board_word == off
    assert re.search(rf"\d+-{off}\b", listed), listed[-300:]
    if lang != "en":
        assert "off" not in listed, listed[-300:]
    page.locator(".log").screenshot(path=str(artifacts / f"move-list-{lang}.png"))
    record = httpx.get(f"{site.url}/g/{game.game_id}/record").text
    assert re.search(r"\d+-off", record) and "выход" not in record  # the notation, as it is
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()
