"""The review's luck and skill: both players' luck, chance lost by decisions, error rate,
mistakes and blunders, in the review API and on the review page (a phone too), in English and
Russian."""

from __future__ import annotations

import html
import re

import httpx
import pytest

from senet.web.i18n import percent

from .helpers import friend_game, play_out, review_page
from .test_browser import new_page


@pytest.fixture(scope="module")
def resigned(site) -> str:
    """A short standard game ended by a resignation (a short review)."""
    game = friend_game(site.url, "standard")
    play_out(site.url, game, moves=8)
    answer = httpx.post(
        f"{site.url}/api/games/{game.game_id}/resign",
        json={},
        headers={"X-Seat-Token": game.tokens[1]},
    )
    assert answer.status_code == 200, answer.text
    return game.game_id


def _account(site, game_id: str) -> dict:
    answer = httpx.get(f"{site.url}/api/games/{game_id}/review", timeout=300)
    assert answer.status_code == 200, answer.text[:300]
    account = answer.json()["account"]
    assert account is not None
    return account


def test_the_review_api_sums_luck_and_decisions_per_player(site, resigned) -> None:
    account = _account(site, resigned)
    steps = httpx.get(f"{site.url}/api/games/{resigned}/review").json()["steps"]
    a, b = account["seats"]
    assert [a["seat"], b["seat"]] == [0, 1]
    for seat in (a, b):
        own = [s for s in steps if s[1] == seat["seat"]]
        # the replay's loss is rounded to 0.1%: the sums agree within that per decision
        assert seat["loss"] * 100 == pytest.approx(sum(s[6] for s in own), abs=0.06 * len(own))
        assert seat["mistakes"] == sum(s[5] == "mistake" for s in own)
        assert seat["blunders"] == sum(s[5] == "blunder" for s in own)
        assert seat["error_rate"] == pytest.approx(seat["loss"] / max(seat["decisions"], 1))
        assert -1.0 <= seat["luck"] <= 1.0
    # Luck and decisions of both sides, and the judge's revisions, make the whole change.
    change = account["end"] - account["start"]
    explained = a["luck"] - b["luck"] - a["loss"] + b["loss"] + account["remainder"]
    assert explained == pytest.approx(change, abs=1e-9)
    assert 0.3 < account["start"] < 0.7  # the start of a standard game is near even


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("Luck and skill", "Spools:", "Cones:", "compared with an average throw")),
        ("ru", ("Везение и мастерство", "Катушки:", "Конусы:", "по сравнению со средним броском")),
    ],
)
def test_the_review_page_says_how_much_came_from_throws_and_decisions(
    site, resigned, lang, words
) -> None:
    account = _account(site, resigned)
    page = review_page(site.url, resigned, cookies={"lang": lang})
    assert page.status_code == 200
    section = re.search(r'<section class="luck-skill".*?</section>', page.text, re.S)
    assert section is not None
    text = html.unescape(re.sub(r"<[^>]+>", " ", section.group(0)))
    for w in words:
        assert w in text, (w, text)
    for seat in account["seats"]:  # each player's luck and error rate, as the API has them
        assert percent(abs(seat["luck"]), lang) + "%" in text
        assert percent(seat["error_rate"], lang) + "%" in text
    assert percent(account["start"], lang) + "%" in text


@pytest.mark.slow  # a browser
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_phone_shows_both_players_luck_and_error_rate(browser, site, resigned, lang) -> None:
    _account(site, resigned)
    page = new_page(browser, site, width=390, height=844, touch=True)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": site.url}])
    page.goto(f"/g/{resigned}/review")
    table = page.locator(".luck-table")
    table.scroll_into_view_if_needed()
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    for row in ("luck-row", "rate-row"):
        cells = page.locator(f".luck-table .{row} td")
        assert cells.count() == 2
        for i in range(2):
            cell = cells.nth(i).bounding_box()
            assert cell is not None and cell["x"] + cell["width"] <= 390
            assert re.fullmatch(r"[+−]?\d+[.,]\d%", cells.nth(i).inner_text().strip())
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=f"/tmp/review-luck-{lang}.png", full_page=False)
    assert page.js_errors == []  # type: ignore[attr-defined]
    page.context.close()
