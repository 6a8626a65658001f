"""A bot plays a whole rated game against a named person in a real Chromium: examples/bot.py
(the expert's moves over the bot API) lists a rated seek; the person, who has chosen to
accept games against bots on their profile, presses Play now, is paired with the bot, sees it
marked BOT, plays to the end, and both ratings change through the same Glicko-2 update as
any rated game."""

from __future__ import annotations

import json
import re

import httpx
import pytest

from senet_testkit.botapi import bot

from .test_bot_api import run_example
from .test_browser import new_page, play_until_over, wait_started
from .test_players_browser import take_name

pytestmark = pytest.mark.browser


def test_a_person_plays_a_whole_rated_game_against_the_example_bot(browser, site) -> None:
    bot_name, token = bot(site.url, "Browserbot")
    process = run_example(site, token, "--seek", "--games", "1")
    try:
        person = new_page(browser, site)
        take_name(person, "Versus_bot")
        # the lobby shows the bot's seek, marked BOT
        person.goto("/")
        person.wait_for_selector(f'.open-game:has-text("{bot_name}") .og-bot:not([hidden])')
        assert person.inner_text(f'.open-game:has-text("{bot_name}") .og-bot') == "BOT"
        # accept games against bots, then Play now, rated
        person.goto("/@/Versus_bot")
        person.click("#accept-bots")
        person.wait_for_selector(
            "#accept-bots-form input[name=accept][value='0']", state="attached"
        )
        person.goto("/")
        form = person.locator("form.play-now")
        form.locator("select[name=variant]").select_option("standard")
        form.locator("select[name=time_control]").select_option("untimed")
        form.locator("input[name=rated]").check()
        form.locator("#play-now").click()
        person.wait_for_selector("#game[data-ply]")
        game_id = person.url.rsplit("/", 1)[-1]
        assert person.inner_text("#named-players .game-kind") == "Rated game"
        row = person.locator(f'#named-players li:has-text("{bot_name}")')
        assert row.locator(".bot-tag").inner_text() == "BOT"
        wait_started(person, timeout=60_000)  # the bot gives its seed from its game stream
        # the person's move: the home page's "your turn" row names the bot with its mark
        person.wait_for_selector("#moves button[data-move]", timeout=60_000)
        home = person.context.new_page()
        home.goto("/")
        turn = home.locator(f'#your-turn li[data-game="{game_id}"]')
        turn.wait_for()
        assert turn.locator(".tg-opponent").inner_text().startswith(f"against {bot_name}")
        assert turn.locator(".tg-opponent .bot-tag").inner_text() == "BOT"
        home.close()
        play_until_over([person], limit_seconds=300)
        person.wait_for_function(
            "() => [...document.querySelectorAll('#named-players .np-change')]"
            ".filter((e) => e.textContent).length === 2"
        )
        shown = person.inner_text("#named-players")
        assert re.search(r"[+\u2212]\d+", shown), shown
        assert "BOT" in shown  # still marked once the list is drawn again with the changes
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        finish = json.loads(out.strip().splitlines()[-1])
        assert finish["id"] == game_id and finish["result"] in ("A", "B")
        ratings = httpx.get(f"{site.url}/api/games/{game_id}/ratings").json()
        assert ratings["rated"] and {s["kind"] for s in ratings["seats"]} == {"human", "bot"}
        assert all(s["change"] is not None for s in ratings["seats"])
        assert not person.js_errors, person.js_errors
        person.context.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
