"""Every text of the pages that list a player's games is readable in both colour schemes: the
"Your turn" cards (home page, my games), the lists of games with their "won" and "lost", and a
named player's profile; each text's contrast against the background it is drawn on is
measured in Chromium (tests/web/contrast.py) and must reach WCAG AA's 4.5:1."""

from __future__ import annotations

import httpx
import pytest

from .contrast import AA, poor_contrast
from .helpers import TwoSeats, give_seed, state, wait_past
from .test_players_browser import take_name

pytestmark = pytest.mark.browser

NAME = "Contrast_Reader"


def named_game(page, site) -> TwoSeats:
    """A friend game the named player of ``page`` starts (as seat A) and a guest joins."""
    page.goto("/")
    form = page.locator("form.start-form").first
    form.locator("select[name=variant]").select_option("standard")
    form.locator("input[name=mode][value=friend]").check()
    form.locator("input[name=colour][value=A]").check()
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#game[data-ply]")
    game_id = page.url.rsplit("/", 1)[-1]
    joined = httpx.post(page.input_value("#invite-url"), follow_redirects=False)
    assert joined.status_code == 303
    host = next(c["value"] for c in page.context.cookies() if c["name"] == f"senet_seat_{game_id}")
    game = TwoSeats(game_id, {0: host, 1: joined.cookies[f"senet_seat_{game_id}"]})
    # the host's page gives the host's seed; the guest's is given here, then the first throw
    assert give_seed(site.url, game_id, game.tokens[1], "guest's seed").status_code == 200
    wait_past(site.url, game_id, 0)
    return game


def resign(site, game: TwoSeats, seat: int) -> None:
    answer = httpx.post(
        f"{site.url}/api/games/{game.game_id}/resign",
        json={},
        headers={"X-Seat-Token": game.tokens[seat]},
    )
    assert answer.status_code == 200, answer.text


@pytest.fixture(scope="module")
def player_with_games(browser, site) -> list[dict]:
    """The cookies of a named player with a game won, a game lost and a game where it is their
    move; and of an anonymous seat whose move it is in another game."""
    context = browser.new_context(base_url=site.url)
    page = context.new_page()
    take_name(page, NAME)
    won, lost, waiting = (named_game(page, site) for _ in range(3))
    resign(site, won, 1)
    resign(site, lost, 0)
    decider = state(site.url, waiting.game_id)["decider"]
    cookies = [c for c in context.cookies() if c["name"] == "senet_player"]
    cookies.append(
        {
            "name": f"senet_seat_{waiting.game_id}",
            "value": waiting.tokens[decider],
            "url": site.url,
        }
    )
    context.close()
    return cookies


@pytest.mark.parametrize("scheme", ["dark", "light"])
@pytest.mark.parametrize("size", [(390, 844), (1280, 900)], ids=lambda s: f"{s[0]}")
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_lists_of_games_and_the_profile_are_readable_in_both_schemes(
    browser, site, artifacts, player_with_games, scheme, size, lang
) -> None:
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, base_url=site.url, color_scheme=scheme
    )
    context.add_cookies(player_with_games)
    page = context.new_page()
    pages = {"home": "/", "mine": "/games/mine", "profile": f"/@/{NAME}"}
    for name, address in pages.items():
        page.goto(f"{address}?lang={lang}")
        if name != "profile":
            page.wait_for_selector("#your-turn .turn-game")
        else:
            page.wait_for_selector(".player-game.outcome-win")
            page.wait_for_selector(".player-game.outcome-loss")
        for fold in page.locator("main details").all():  # what a fold holds is read too
            fold.evaluate("(d) => { d.open = true; }")
        page.screenshot(
            path=str(artifacts / f"contrast-{name}-{scheme}-{lang}-{width}.png"), full_page=True
        )
        assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches") == (
            scheme == "dark"
        )
        assert not (poor := poor_contrast(page, "body", AA)), (name, poor)
    context.close()
