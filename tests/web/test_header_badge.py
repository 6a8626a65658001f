"""The number of games waiting for your move sits on the corner of "My games" in the header,
where it must cover no letter of any link (the Russian «Мои партии», followed closely by
«Смотреть» on a 360 px phone), one digit or two, and leave the links on one line."""

from __future__ import annotations

import pytest

from .helpers import friend_game, state
from .test_browser import new_page

pytestmark = pytest.mark.browser

#: The badge's box, and every piece of the header's text other than the badge's (each text
#: node's boxes, a line at a time) that it overlaps or comes within ``margin`` px of.
CROWDED = """(margin) => {
  const badge = document.getElementById('turn-badge').getBoundingClientRect();
  const near = [];
  const walker = document.createTreeWalker(document.querySelector('.site-header'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest('#turn-badge')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.right + margin > badge.left && r.left - margin < badge.right
          && r.bottom + margin > badge.top && r.top - margin < badge.bottom) {
        near.push(node.textContent.trim());
      }
    }
  }
  return {badge: [badge.left, badge.top, badge.right, badge.bottom], near};
}"""


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("width", [360, 390, 320, 1280])
def test_the_turn_badge_covers_no_letter_of_the_header(
    browser, site, artifacts, lang, width
) -> None:
    game = friend_game(site.url)
    decider = state(site.url, game.game_id)["decider"]
    page = new_page(browser, site, width, 740, touch=True)
    page.context.add_cookies(
        [{"name": f"senet_seat_{game.game_id}", "value": game.tokens[decider], "url": site.url}]
    )
    page.goto(f"/?lang={lang}")
    page.wait_for_selector("#turn-badge:not([hidden])")
    for count in ("1", "12"):
        page.evaluate("(n) => { document.getElementById('turn-badge').textContent = n; }", count)
        crowded = page.evaluate(CROWDED, 1)
        page.locator(".site-header").screenshot(
            path=str(artifacts / f"badge-{lang}-{width}-{count}.png")
        )
        assert crowded["near"] == [], (count, crowded)
        # and the five links keep to one line under the brand (test_game_page's header test)
        tops = page.eval_on_selector_all(
            ".site-header nav a",
            "links => links.map((a) => Math.round(a.getBoundingClientRect().top))",
        )
        assert len(tops) == 5 and len(set(tops)) == 1, (count, tops)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.context.close()
