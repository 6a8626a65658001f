"""The review's graph from the viewer's side: a player sees their own chance of winning ("your
chance"); anyone else sees the first player's, named; a switch shows the other side's."""

from __future__ import annotations

import html as html_lib
import re

import httpx
import pytest

from senet.engine import find_variant
from senet.web.i18n import translator

from .helpers import friend_game, play_out, review_page
from .test_game_page import seat_context

LINE = re.compile(
    r'<g class="chart-side" data-side="(\d)"( display="none")?>\s*<polyline[^>]*points="([^"]+)"'
)


@pytest.fixture(scope="module")
def reviewed(site):
    """A finished standard game (both seats' tokens) whose review is computed."""
    game = friend_game(site.url, "standard")
    play_out(site.url, game)
    assert review_page(site.url, game.game_id).status_code == 200
    return game


def graph(html: str) -> tuple[int, dict[int, list[float]]]:
    """The side whose line is shown, and each side's line (its heights, 0 at the top)."""
    lines = {int(side): points for side, _, points in LINE.findall(html)}
    shown = [int(side) for side, hidden, _ in LINE.findall(html) if not hidden]
    assert len(shown) == 1, shown
    heights = {side: [float(p.split(",")[1]) for p in pts.split()] for side, pts in lines.items()}
    return shown[0], heights


def lead(html: str) -> str:
    (said,) = re.findall(r'<p class="lead" data-side="\d">([^<]*)</p>', html)
    return html_lib.unescape(said)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_each_player_sees_their_own_chance_and_anyone_else_the_first_players(
    site, reviewed, lang
) -> None:
    t = translator(lang)
    standard = find_variant("standard")
    address = f"{site.url}/g/{reviewed.game_id}/review"
    pages = {
        seat: httpx.get(
            address,
            params={"lang": lang},
            cookies={f"senet_seat_{reviewed.game_id}": reviewed.tokens[seat]},
        ).text
        for seat in (0, 1)
    }
    stranger = httpx.get(address, params={"lang": lang}).text
    for seat, html in pages.items():
        shown, heights = graph(html)
        assert shown == seat
        assert lead(html) == t("review.lead_you")
        # the two lines mirror each other: one side's chance is the other's loss
        assert all(abs(a + b - 200) < 0.11 for a, b in zip(heights[0], heights[1], strict=True))
        pressed = re.findall(r'data-side="(\d)" aria-current="true"\s*>([^<]+)</a>', html)
        assert pressed == [(str(seat), t("review.side_you", seat=standard.seat_name(seat, lang)))]
    shown, _ = graph(stranger)
    assert shown == 0
    assert lead(stranger) == t("review.lead", seat=standard.seat_name(0, lang))
    assert t("review.lead_you") not in html_lib.unescape(stranger)
    # the switch: the other side, by its link
    other = httpx.get(address, params={"lang": lang, "side": "1"}).text
    assert graph(other)[0] == 1
    assert lead(other) == t("review.lead", seat=standard.seat_name(1, lang))


@pytest.mark.browser
def test_the_switch_shows_the_other_sides_line_on_the_page(browser, site, reviewed) -> None:
    page = seat_context(browser, site, reviewed.game_id, reviewed.tokens[1], 390, 844)
    page.goto(f"/g/{reviewed.game_id}/review?lang=en")
    page.wait_for_selector("#review[data-ready='1']")
    visible = "() => [...document.querySelectorAll('.chart-side')].filter((g) => g.getBoundingClientRect().width > 0).map((g) => g.dataset.side)"
    assert page.evaluate(visible) == ["1"]
    assert page.is_visible("p.lead[data-side='1']") and "your chance" in page.text_content(
        "p.lead[data-side='1']"
    )
    assert "Your chance" in page.get_attribute("#chance-graph", "aria-label")
    page.click(".side-link[data-side='0']")
    assert page.evaluate(visible) == ["0"]
    assert page.is_visible("p.lead[data-side='0']") and not page.is_visible("p.lead[data-side='1']")
    assert "spools" in page.text_content("p.lead[data-side='0']")
    assert page.get_attribute(".side-link[data-side='0']", "aria-current") == "true"
    assert page.get_attribute(".side-link[data-side='1']", "aria-current") is None
    assert "side=0" in page.url
    # a tap on a marked point still shows its decision
    page.locator(".chart-side[data-side='0'] circle[data-step]").first.click()
    page.wait_for_function("() => location.hash.startsWith('#d=')")
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()
