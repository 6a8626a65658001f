"""The review page's links and buttons are seen whole: each mistake's "Show on the board" link
begins inside its card (a link of a dotted row keeps its first letter: the row's first strip,
where a leading dot would fall, is cut off), and the replay's step buttons show their labels
("◀ Previous") in the column beside the upright board of a 360 px phone."""

from __future__ import annotations

import pytest

from .helpers import friend_game, play_out, review_page
from .test_browser import new_page

pytestmark = pytest.mark.browser

#: Each link of a dotted row of the page: where its words begin against where the row's cut
#: strip ends (test_game_page's dot checks: the row's left edge plus 1em less 3 px), and
#: against its card's left edge.
LINKS = """() => [...document.querySelectorAll('.dots a')].filter((a) => a.getClientRects().length)
  .map((a) => {
    const row = a.closest('.dots');
    const card = a.closest('figure, section') || row;
    const range = document.createRange();
    range.selectNodeContents(a);
    const words = range.getClientRects()[0];
    const cut = row.getBoundingClientRect().left + parseFloat(getComputedStyle(row).fontSize) - 3;
    return {text: a.textContent, left: words.left, cut, card: card.getBoundingClientRect().left,
            whole: words.left >= cut - 0.5 && words.left >= card.getBoundingClientRect().left - 0.5};
  })"""

#: Each step button of the replay: whether its label runs past it.
STEPS = """() => [...document.querySelectorAll('.rp-nav button')].map((b) => {
  const range = document.createRange();
  range.selectNodeContents(b);
  const words = range.getBoundingClientRect(), own = b.getBoundingClientRect();
  return {id: b.id, cut: b.scrollWidth > b.clientWidth + 0.5 || words.left < own.left - 0.5
          || words.right > own.right + 0.5};
})"""


@pytest.fixture(scope="module")
def reviewed(site) -> str:
    """A finished standard game whose review is computed (with mistakes to show)."""
    game = friend_game(site.url, "standard")
    play_out(site.url, game)
    assert review_page(site.url, game.game_id).status_code == 200
    return game.game_id


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(
    "size", [(360, 740), (390, 844), (1280, 900)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_the_reviews_links_and_step_buttons_are_seen_whole(
    browser, site, artifacts, reviewed, size, lang
) -> None:
    width, height = size
    page = new_page(browser, site, width, height, touch=width < height)
    page.goto(f"/g/{reviewed}/review?lang={lang}")
    page.wait_for_selector("#review[data-ready='1']", state="attached")
    links = page.evaluate(LINKS)
    shows = [link for link in links if link["text"] in ("Show on the board", "Показать на доске")]
    assert shows, links
    page.locator(".review-boards figure").first.screenshot(
        path=str(artifacts / f"review-card-{lang}-{width}.png")
    )
    assert [link for link in links if not link["whole"]] == []
    steps = page.evaluate(STEPS)
    assert {s["id"] for s in steps} == {"rp-first", "rp-prev", "rp-next", "rp-last"}
    page.locator(".replay-board").screenshot(path=str(artifacts / f"review-nav-{lang}-{width}.png"))
    assert [s for s in steps if s["cut"]] == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()
