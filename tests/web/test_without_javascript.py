"""With JavaScript off the pages drawn by scripts (the game, the analysis board) say so in a
notice as wide as the page, and nothing scrolls sideways on a phone: the empty board and the
controls that only a script makes work are not shown."""

from __future__ import annotations

import pytest

from .helpers import friend_game

pytestmark = pytest.mark.browser

#: The notice's box, and whether any of its words runs past it or past the screen.
NOTICE = """() => {
  const n = document.querySelector('.noscript');
  if (!n) return null;
  const box = n.getBoundingClientRect();
  const range = document.createRange();
  range.selectNodeContents(n);
  const words = range.getBoundingClientRect();
  return {width: box.width, cut: n.scrollWidth > n.clientWidth + 1 || words.right > innerWidth + 0.5
          || words.right > box.right + 0.5};
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("width", [390, 360])
def test_without_javascript_the_game_and_the_analysis_board_fit_a_phone_and_say_why(
    browser, site, artifacts, lang, width
) -> None:
    context = browser.new_context(
        viewport={"width": width, "height": 800},
        base_url=site.url,
        java_script_enabled=False,
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    game = friend_game(site.url, "kendall")
    for name, address in {"game": f"/g/{game.game_id}", "analysis": "/analysis"}.items():
        page.goto(f"{address}?lang={lang}")
        page.screenshot(path=str(artifacts / f"nojs-{name}-{lang}-{width}.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        notice = page.evaluate(NOTICE)
        assert notice is not None, name
        assert notice["width"] >= width * 0.8 and not notice["cut"], (name, notice)
        assert "JavaScript" in page.inner_text(".noscript")
        assert not page.locator("#board").is_visible(), name  # an empty board says nothing
        assert page.locator('.noscript a[href^="/variants/"]').count() == 1, name
    context.close()
