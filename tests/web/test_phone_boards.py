"""Every board of the site is the game page's board: on a phone held upright it stands upright
(three columns of ten, squares a finger can tap), elsewhere it lies wide. The boards drawn in the
browser (board.js: the review's replay, the analysis board, the lessons) and those drawn by the
server (board_svg.py: the variant pages' rule diagrams, the review's mistakes) alike."""

from __future__ import annotations

import pytest

from .helpers import friend_game, play_out, review_page, unfold
from .test_browser import new_page

pytestmark = pytest.mark.browser

#: Each board shown on the page: its kind, whether it is upright, its smallest square's shorter
#: side in CSS pixels, its smallest piece's tap area's (the boards played on: board.js's
#: ``.piece-hit``), and whether it stays within the screen's width.
BOARDS = """() => [...document.querySelectorAll('svg#board, svg.diagram-board')]
  .filter((svg) => svg.getBoundingClientRect().width > 0)
  .map((svg) => {
    const cells = [...svg.querySelectorAll('.square .cell')].map((c) => c.getBoundingClientRect());
    const box = svg.getBoundingClientRect();
    const taps = [...svg.querySelectorAll('.piece-hit')].map((h) => h.getBoundingClientRect());
    return {kind: svg.id || svg.getAttribute('class'),
            upright: svg.classList.contains('upright'),
            square: Math.min(...cells.map((c) => Math.min(c.width, c.height))),
            tap: taps.length ? Math.min(...taps.map((t) => Math.min(t.width, t.height))) : null,
            inside: box.left >= -0.5 && box.right <= innerWidth + 0.5};
  })"""


@pytest.fixture(scope="module")
def reviewed_game(site) -> str:
    """A finished standard game whose review is computed."""
    game = friend_game(site.url, "standard")
    play_out(site.url, game)
    assert review_page(site.url, game.game_id).status_code == 200
    return game.game_id


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(
    "size", [(390, 844), (360, 740), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_every_board_stands_upright_on_a_phone_held_upright_and_lies_wide_on_a_desktop(
    browser, site, artifacts, reviewed_game, size, lang
) -> None:
    width, height = size
    phone = width < height
    page = new_page(browser, site, width, height, touch=phone)
    pages = {
        "variant": (f"/variants/kendall-1978?lang={lang}", "figure.diagram", 10),
        "review": (f"/g/{reviewed_game}/review?lang={lang}", "#review[data-ready='1']", 2),
        "analysis": (f"/analysis?variant=adelaida&lang={lang}", "#board .square", 1),
        "lesson": (f"/learn/bell?lang={lang}", "#tutorial[data-ready='1']", 1),
    }
    for name, (address, ready, least) in pages.items():
        page.goto(address)
        page.wait_for_selector(ready, state="attached")
        unfold(page)
        boards = page.evaluate(BOARDS)
        assert len(boards) >= least, (name, boards)
        for board in boards:
            assert board["upright"] == phone, (name, board)
            assert board["inside"], (name, board)
            if phone:
                assert board["square"] >= 44, (name, board)
                if board["kind"] == "board":  # a piece is tapped on a board played on
                    assert board["tap"] is not None and board["tap"] >= 44, (name, board)
        if name == "review":  # the replay's board (board.js) and each mistake's (the server's)
            kinds = {board["kind"] for board in boards}
            assert "board" in kinds and any("diagram-board" in k for k in kinds), kinds
        assert page.evaluate("document.documentElement.scrollWidth") <= width, name
        page.screenshot(path=str(artifacts / f"boards-{name}-{lang}-{width}x{height}.png"))
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()
