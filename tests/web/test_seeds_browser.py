"""Player seeds in real Chromium: each player's page gives a seed of its own.

The host types one in the optional "Your seed" field of the start page (remembered in
localStorage); the guest leaves it empty, so the guest's browser draws a random one with
crypto.getRandomValues.  Both pages show the commitment, then both seeds, and the record
carries both in its PlayerSeeds tag.
"""

from __future__ import annotations

import re

import httpx
import pytest

from senet.service.fairness.verify import verify_text

from .helpers import state
from .test_browser import new_page, play_until_over, wait_started

pytestmark = pytest.mark.browser

TYPED = "Ra's own words, 42!"
SEAT_0, SEAT_1 = "#fair-seeds li[data-seat='0']", "#fair-seeds li[data-seat='1']"


def seed_shown(page, seat: int) -> str | None:
    return page.get_attribute(f"#fair-seeds li[data-seat='{seat}']", "data-seed")


def test_two_players_each_add_a_seed_and_the_record_shows_both(browser, site, artifacts) -> None:
    """one typed in the field, one random; the game starts when both
    are in, and the record and the verify view show both."""
    host = new_page(browser, site)
    host.goto("/")
    host.select_option("#variant", "kendall")
    host.check("input[name=mode][value=friend]")
    host.check("input[name=colour][value=A]")
    host.click(".start-form details.advanced > summary")  # the seed field is folded away
    host.fill("#seed-home", TYPED)
    host.click("form.start-form button[type=submit]")
    host.wait_for_selector("#game[data-ply]")
    game_id = host.url.rsplit("/", 1)[-1]
    # The host's seed is given as soon as the page has the commitment; the guest's is awaited.
    host.wait_for_function(f"() => document.querySelector({SEAT_0!r})?.dataset.seed === {TYPED!r}")
    assert host.get_attribute("#game", "data-phase") == "seeding"
    assert "waiting for the opponent's seed" in host.text_content("#fair-seeds li[data-seat='1']")
    assert "Waiting for your friend to open the link" in host.text_content("#status")
    commitment = state(site.url, game_id)["fairness"]["commitment"]
    assert host.text_content("#fair-commitment") == commitment
    assert site.actions_count(game_id) == 0  # no throw yet
    host.screenshot(path=str(artifacts / "seeding-host.png"), full_page=True)

    guest = new_page(browser, site, 390, 844)  # another browser context: its own localStorage
    guest.goto(host.input_value("#invite-url"))
    assert guest.input_value("#seed-join") == ""  # nothing remembered here
    guest.wait_for_selector("#game[data-ply]")
    for page in (host, guest):
        wait_started(page)
    guest_seed = seed_shown(guest, 1)
    assert guest_seed and re.fullmatch(
        r"[0-9a-f]{32}", guest_seed
    )  # crypto.getRandomValues, 128 bits
    host.wait_for_function(
        f"() => document.querySelector({SEAT_1!r})?.dataset.seed === '{guest_seed}'"
    )
    assert seed_shown(guest, 0) == TYPED
    assert any('"type":"seed"' in f.replace(" ", "") for f in guest.frames_log)  # type: ignore[attr-defined]
    record = httpx.get(f"{site.url}/g/{game_id}/record").text
    assert f'[PlayerSeeds "{TYPED}:{guest_seed}"]' in record.replace('\\"', '"')
    assert f'[Commitment "{commitment}"]' in record

    play_until_over([host, guest], limit_seconds=200)
    record = httpx.get(f"{site.url}/g/{game_id}/record").text
    result = verify_text(record)
    assert result.ok and result.player_seeds == (TYPED, guest_seed)
    host.goto(f"/g/{game_id}/verify")
    host.locator(".verify-summary.good").wait_for(timeout=15_000)
    assert host.text_content(".verify-player-seeds") == f"{TYPED}:{guest_seed}"
    host.goto("/")
    assert host.input_value("#seed-home") == TYPED  # remembered on this device
    assert host.js_errors == [] and guest.js_errors == []  # type: ignore[attr-defined]


def test_a_game_on_one_screen_gives_both_seats_seeds_and_russian_texts(browser, site) -> None:
    """on one screen the page gives a (random) seed for each seat; the
    fairness box and the how-to-verify text are in Russian too."""
    page = new_page(browser, site)
    page.goto("/lang/ru?next=/")  # the language cookie: the game page is in Russian too
    assert "Ваше зерно" in page.text_content(".seed-field")
    page.select_option("#variant", "standard")
    page.check("input[name=mode][value=local]")
    page.click("form.start-form button[type=submit]")
    page.wait_for_selector("#game[data-ply]")
    wait_started(page)
    seeds = [seed_shown(page, seat) for seat in (0, 1)]
    assert all(s and re.fullmatch(r"[0-9a-f]{32}", s) for s in seeds) and seeds[0] != seeds[1]
    assert "Честные броски" in page.text_content("#fair")
    page.goto("/variants/standard?lang=ru")
    how = page.text_content(".verify-how")
    assert "зерно A:зерно B" in how and "до того, как их увидел" in how
    page.goto("/variants/standard?lang=en")
    how = page.text_content(".verify-how")
    assert "Both players' seeds go into every throw" in how and "before it saw them" in how
