"""The simulated figures on the site, in a real browser: every variant page has its "How the
game plays" section with the shipped figures and their charts, in English and Russian, without
sideways scrolling on a phone; the comparison page puts every variant side by side.  A variant
whose random games do not end (jequier) draws its charts from the computer games and says so."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from senet.engine import VARIANTS
from senet.sim.dataset import load
from senet.web.routes.stats import EVENT_ORDER, basis_of

from .helpers import unfold
from .test_browser import new_page

pytestmark = pytest.mark.browser

PHONE = 360


def _fits(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


#: the variants with shipped statistics: every one the compiled simulator plays (a variant
#: without figures has no section, see tests/web/test_stats_pages.py and the test below)
SHIPPED = [name for name in VARIANTS if load(name) is not None]


@pytest.mark.parametrize("name", SHIPPED)
def test_variant_page_shows_how_the_game_plays(browser, site, artifacts, name: str) -> None:
    data = load(name)
    assert data is not None, f"no statistics shipped for {name}"
    page = new_page(browser, site, width=PHONE, height=740)
    page.goto(f"/variants/{name}?lang=en")
    unfold(page)
    section = page.wait_for_selector("#how-it-plays")
    assert page.text_content("#how-h") == "How the game plays"
    first = data["random"]["first_player"]["share"]
    cells = page.eval_on_selector_all(
        "#stats-first tbody tr:first-child td", "tds => tds.map(td => td.textContent)"
    )
    assert f"{data['random']['games']:,}" in cells[0]
    assert any(f"{100 * first:.{d}f}%" in cells[1] for d in (1, 2))
    # charts: the first player across variants, length in turns and decisions, the Houses
    charts = page.eval_on_selector_all("#how-it-plays svg.chart", "s => s.length")
    assert charts >= 4
    basis = basis_of(data)
    note = page.query_selector("#stats-basis")
    shown = data[basis]
    reproduce = page.text_content("#stats-reproduce")
    assert f"senet stats {name} " in reproduce and f"--games {shown['games']} " in reproduce
    assert ("--players expert" in reproduce) == (basis == "computer")
    if basis == "computer":
        assert note is not None and "expert players" in note.text_content()
        assert "expert players" in page.text_content("#how-it-plays figure figcaption >> nth=1")
    else:
        assert note is None
    widths = page.eval_on_selector_all(
        "#how-it-plays svg.chart", "s => s.map(e => e.getBoundingClientRect().width)"
    )
    assert all(0 < w <= PHONE for w in widths)
    events = page.eval_on_selector_all("#stats-events tbody tr", "rs => rs.length")
    assert events == len([k for k in EVENT_ORDER if k in data["random"]["events"]]) >= 3
    decisions = page.eval_on_selector_all(
        "#stats-decisions tr[data-decision]", "rs => rs.map(r => r.dataset.decision)"
    )
    assert decisions == list(data["alternatives"])
    assert _fits(page), "the page scrolls sideways on a phone"
    assert not page.js_errors  # type: ignore[attr-defined]
    section.screenshot(path=str(artifacts / f"how-it-plays-{name}-phone.png"))


def test_variant_page_in_russian(browser, site, artifacts) -> None:
    page = new_page(browser, site, width=PHONE, height=740)
    page.goto("/variants/kendall?lang=ru")
    unfold(page)
    assert page.text_content("#how-h") == "Как играется эта игра"
    head = page.eval_on_selector_all("#stats-first thead th", "ths => ths.map(t => t.textContent)")
    assert "Побед первого игрока" in head
    assert page.query_selector("#how-it-plays svg.chart title")
    assert _fits(page)
    page.screenshot(path=str(artifacts / "how-it-plays-kendall-ru.png"), full_page=True)


@pytest.mark.parametrize("width", [PHONE, 1280])
def test_comparison_page_puts_the_variants_side_by_side(browser, site, artifacts, width) -> None:
    page = new_page(browser, site, width=width, height=800)
    page.goto("/variants/bell?lang=en")
    unfold(page)
    page.click("#how-it-plays a[href='/compare']")
    page.wait_for_selector("#compare-table")
    rows = page.eval_on_selector_all(
        "#compare-table tbody tr", "rs => rs.map(r => r.dataset.variant)"
    )
    assert rows == SHIPPED
    for name in SHIPPED:
        share = load(name)["random"]["first_player"]["share"]  # type: ignore[index]
        cell = page.text_content(f"#compare-table tr[data-variant='{name}'] td:nth-child(3)")
        assert any(f"{100 * share:.{d}f}%" in cell for d in (1, 2))
    bars = page.eval_on_selector_all(".compare-page svg.chart rect.chart-bar", "r => r.length")
    on_length_chart = [n for n in SHIPPED if basis_of(load(n) or {}) == "random"]
    assert bars == len(SHIPPED) + len(on_length_chart)
    if len(on_length_chart) < len(SHIPPED):
        assert "random games there hardly ever end" in page.text_content(".compare-page")
    assert _fits(page)
    assert not page.js_errors  # type: ignore[attr-defined]
    page.screenshot(path=str(artifacts / f"compare-{width}.png"), full_page=True)


@pytest.mark.parametrize("name", [n for n in VARIANTS if n not in SHIPPED])
def test_a_variant_the_simulator_cannot_play_has_no_figures(browser, site, name: str) -> None:
    """No statistics are shown that were not computed with the variant's own rules (piccione:
    the compiled simulator refuses its divided throws)."""
    page = new_page(browser, site, width=PHONE, height=740)
    page.goto(f"/variants/{name}?lang=en")
    unfold(page)
    page.wait_for_selector("#rules-h")
    assert page.query_selector("#how-it-plays") is None
    page.goto("/compare?lang=en")
    page.wait_for_selector("#compare-table")
    assert page.query_selector(f"#compare-table tr[data-variant='{name}']") is None
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()


SHADED = """([selector, left, right]) => {
  const cue = document.querySelector(selector).closest('.scroll-cue');
  const shaded = side => getComputedStyle(cue, side).opacity === '1';
  const clear = side => getComputedStyle(cue, side).opacity === '0';
  return (left ? shaded('::before') : clear('::before'))
      && (right ? shaded('::after') : clear('::after'));
}"""


def _shaded(page, selector: str, *, left: bool, right: bool) -> bool:
    """Whether the table's edges settle (their fade done) to these shades within 5 s."""
    try:
        page.wait_for_function(SHADED, arg=[selector, left, right], timeout=5000)
    except PlaywrightTimeout:
        return False
    return True


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_table_wider_than_the_phone_shades_the_side_where_more_of_it_lies(
    browser, site, lang
) -> None:
    """On a phone the figures scroll sideways inside their box, which shows no scroll bar until
    touched: a shaded edge says where the rest is, and moves as the table is scrolled."""
    page = new_page(browser, site, width=PHONE, height=740, touch=True)
    page.goto(f"/variants/standard?lang={lang}")
    unfold(page)
    table = "#stats-decisions"
    assert _shaded(page, table, left=False, right=True)
    page.eval_on_selector(
        table, "t => { const s = t.closest('.table-scroll'); s.scrollLeft = s.scrollWidth; }"
    )
    assert _shaded(page, table, left=True, right=False)
    page.eval_on_selector(table, "t => { t.closest('.table-scroll').scrollLeft = 60; }")
    assert _shaded(page, table, left=True, right=True)
    page.context.close()


def test_a_table_that_fits_shows_no_shaded_edge(browser, site) -> None:
    page = new_page(browser, site, width=1280, height=900)
    page.goto("/compare?lang=ru")
    fits = page.eval_on_selector(
        "#compare-table",
        "t => { const s = t.closest('.table-scroll'); return s.scrollWidth <= s.clientWidth; }",
    )
    assert fits
    assert _shaded(page, "#compare-table", left=False, right=False)
    page.context.close()
