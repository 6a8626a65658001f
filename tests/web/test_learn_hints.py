"""Hints in games against the computer and on one screen: the computer's best moves with
their winning chances (the analysis board's values), the best marked on the board; none in a
game between two friends."""

from __future__ import annotations

import httpx
import pytest

from .conftest import SEARCH_WAIT
from .helpers import friend_game
from .test_browser import new_page, wait_started
from .test_learn_why import open_game

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("mode,lang", [("computer", "en"), ("local", "ru")])
def test_a_hint_shows_the_best_moves(browser, site, artifacts, mode, lang) -> None:
    page = new_page(browser, site, 390, 844)
    page.goto(f"/?lang={lang}")
    body = {"variant": "standard", "mode": mode, "colour": "A", "level": "beginner"}
    open_game(page, site, body)
    for _ in range(40):  # until a decision of ours with a choice
        page.wait_for_function("() => document.querySelectorAll('#moves button').length > 0")
        if page.locator("#moves button").count() > 1 and page.is_visible("#hint-button"):
            break
        before = page.get_attribute("#game", "data-ply")
        page.click("#moves button >> nth=0")
        page.wait_for_function(f"() => document.getElementById('game').dataset.ply !== '{before}'")
    fen = page.get_attribute("#game", "data-fen")
    page.click("#hint-button")
    page.wait_for_selector("#hint li[data-move]")
    shown = page.eval_on_selector_all(
        "#hint li[data-move]", "ls => ls.map(l => [l.dataset.move, Number(l.dataset.chance)])"
    )
    analysis = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": fen}, timeout=SEARCH_WAIT
    ).json()
    best = sorted(analysis["moves"], key=lambda m: -m["chance"])[: len(shown)]
    assert [c for _, c in shown] == [m["chance"] for m in best]
    assert shown[0][0] in [m["move"] for m in analysis["moves"] if m["best"]]
    texts = page.eval_on_selector_all("#hint li[data-move]", "ls => ls.map(l => l.textContent)")
    # each hint names its move as the button that plays it does ("5 → 8 ⚔", not "5x8")
    buttons = dict(
        page.eval_on_selector_all(
            "#moves button[data-move]", "bs => bs.map(b => [b.dataset.move, b.textContent])"
        )
    )
    for (move, chance), text in zip(shown, texts, strict=True):  # the language's decimal mark
        written = f"{chance * 100:.1f}"
        assert (written.replace(".", ",") if lang == "ru" else written) + "%" in text, text
        assert text.startswith(buttons[move] + ":"), (text, buttons[move])
    assert page.locator("#board .hint-mark").count() == 2
    page.screenshot(path=str(artifacts / f"hint-{mode}-{lang}.png"), full_page=True)
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


def test_no_hint_between_two_friends(browser, site) -> None:
    game = friend_game(site.url)
    page = new_page(browser, site)
    page.context.add_cookies(
        [{"name": f"senet_seat_{game.game_id}", "value": game.tokens[0], "url": site.url}]
    )
    page.goto(f"/g/{game.game_id}")
    wait_started(page)
    page.wait_for_selector("#game[data-decider]")
    assert not page.is_visible("#hint-button")
    page.context.close()
