"""A House's symbol and a piece on its square are both seen whole: the symbol, large on an empty
square, goes small into the square's corner under a piece, on the boards drawn in the browser
(board.js) and by the server (board_svg.py, the diagrams); and each symbol fits its tile in the
key of the Houses (the ankh's loop went past the tile's top)."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from senet import Position
from senet.web.render.board_svg import board_svg

from .test_browser import new_page

pytestmark = pytest.mark.browser

#: A piece on every House of Kendall's board (15, 26-30), spools and cones both.
CROWDED = "kendall ........../....A...../.....ABABA B 1"

#: Each House square holding a piece, on every board of the page: whether its symbol's box and
#: its piece's box overlap (both as drawn on the screen, strokes aside).
OVERLAPS = """() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg#board, svg.diagram-board')) {
    if (!svg.getBoundingClientRect().width) continue;
    for (const shape of svg.querySelectorAll('.piece')) {
      const sq = shape.dataset.square;
      const square = svg.querySelector(`.square.house[data-square="${sq}"]`);
      if (!square) continue;
      const mark = square.querySelector('.glyph, .house-symbol').getBoundingClientRect();
      const body = shape.querySelector('.piece-shape').getBoundingClientRect();
      const apart = mark.right <= body.left || mark.left >= body.right || mark.bottom <= body.top || mark.top >= body.bottom;
      out.push({board: svg.id || svg.getAttribute('class'), sq, apart});
    }
  }
  return out;
}"""

#: Each House icon of the page's keys: its symbol's drawing (stroke included) within its box.
ICONS = """() => [...document.querySelectorAll('svg.house-icon')].map((svg) => {
  const box = svg.viewBox.baseVal;
  const mark = svg.querySelector('.glyph, .house-symbol');
  const b = mark.getBBox();
  const half = mark.classList.contains('glyph') ? parseFloat(getComputedStyle(mark).strokeWidth) / 2 : 0;
  return {inside: b.x - half >= box.x - 0.01 && b.y - half >= box.y - 0.01
                  && b.x + b.width + half <= box.x + box.width + 0.01
                  && b.y + b.height + half <= box.y + box.height + 0.01,
          symbol: mark.getAttribute('d') || mark.textContent};
})"""


@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=lambda s: f"{s[0]}")
def test_a_house_symbol_and_the_piece_on_it_never_overlap(browser, site, artifacts, size) -> None:
    width, height = size
    page = new_page(browser, site, width, height, touch=width < height)
    page.goto(f"/analysis?position={quote(CROWDED)}")
    page.wait_for_selector("#analysis[data-ready='1']")
    # the server's drawing of the same position, as a variant page shows its diagrams
    drawn = str(board_svg(Position.from_fen(CROWDED), lang="en", crop=False))
    page.evaluate(
        """(svg) => { const f = document.createElement('figure'); f.className = 'diagram';
        f.innerHTML = `<div class="diagram-board-wrap">${svg}</div>`;
        document.querySelector('main').append(f); }""",
        drawn,
    )
    seen = page.evaluate(OVERLAPS)
    page.screenshot(path=str(artifacts / f"house-glyphs-{width}.png"), full_page=True)
    kinds = {s["board"] for s in seen}
    assert "board" in kinds and any("diagram-board" in k for k in kinds), kinds
    assert len([s for s in seen if s["board"] == "board"]) == 6
    assert [s for s in seen if not s["apart"]] == []
    icons = page.evaluate(ICONS)
    assert len(icons) >= 6 and [i for i in icons if not i["inside"]] == []
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()
