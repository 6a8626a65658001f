"""The finished game's review page: the winning-chance graph with the mistakes marked."""

from __future__ import annotations

import re

import httpx
import pytest

from senet.web.i18n import translator

from .helpers import friend_game, play_out, review_page
from .test_browser import new_page
from .test_review_replay import record_decisions
from .test_trust import play_to_the_end


@pytest.mark.slow  # a whole game over HTTP, then the master's review of every decision
def test_review_page_draws_the_chance_graph_and_marks_mistakes(site) -> None:
    game_id = play_to_the_end(site.url, "standard")
    page = review_page(site.url, game_id)
    assert page.status_code == 200, page.text[:500]
    html = page.text
    points = re.search(r'class="chance-line" points="([^"]*)"', html).group(1).split()
    record = httpx.get(f"{site.url}/g/{game_id}/record").text
    body = record.split("\n\n", 1)[1]
    decisions = len(
        [
            tok
            for tok in body.split()
            if not tok.startswith("(") and not re.fullmatch(r"\d+\.|[AB]:", tok)
        ]
    )
    assert len(points) == decisions + 1  # the start, then one point after every decision
    for point in points:
        x, y = map(float, point.split(","))
        assert 0 <= y <= 200
    # the line shown (to a stranger, the first player's); the other side's, switched to, has the
    # same marks
    shown, other = html.split('<g class="chart-side" data-side="1"', 1)
    marks = re.findall(r'<circle class="mark (blunder|mistake|inaccuracy)"', shown)
    assert re.findall(r'<circle class="mark (blunder|mistake|inaccuracy)"', other) == marks
    rows = re.findall(r'<tr class="(blunder|mistake|inaccuracy)">', html)
    assert marks == rows  # every marked point is listed in the table, in order
    # the test's player always takes the furthest move, so some of its choices are mistakes
    assert rows, "a greedy player made no mistake?"
    ru = httpx.get(f"{site.url}/g/{game_id}/review?lang=ru", timeout=120).text
    assert "Разбор партии" in ru
    # the chance lost, in the table and under each board, in each language's decimals
    column = {lang: translator(lang)("review.loss") for lang in ("en", "ru")}
    en_losses = re.findall(rf'data-label="{column["en"]}">([^<]*)</td>', html)
    ru_losses = re.findall(rf'data-label="{column["ru"]}">([^<]*)</td>', ru)
    assert len(en_losses) == len(ru_losses) == len(rows)
    assert all(re.fullmatch(r"\d+\.\d%", loss) for loss in en_losses), en_losses
    assert all(re.fullmatch(r"\d+,\d%", loss) for loss in ru_losses), ru_losses
    assert [loss.replace(".", ",") for loss in en_losses] == ru_losses
    if {"blunder", "mistake"} & set(rows):  # drawn on boards below the table, with the loss
        assert re.findall(r"потеряно \d+,\d% шанса", ru)
    assert not re.findall(r"потеряно \d+\.\d", ru)


def test_review_of_a_game_in_progress_is_refused(site) -> None:
    game = friend_game(site.url)
    answer = httpx.get(f"{site.url}/g/{game.game_id}/review")
    assert answer.status_code == 409
    through_api = httpx.get(f"{site.url}/api/games/{game.game_id}/review")
    assert through_api.status_code == 409 and through_api.json()["code"] == "not_over"
    assert httpx.get(f"{site.url}/api/games/no-such-game/review").status_code == 404


@pytest.mark.browser
def test_the_review_says_at_once_that_it_is_being_judged_then_opens_by_itself(
    browser, site, artifacts
) -> None:
    """Judging a whole game takes seconds (tens of them for a long one): the page says so at
    once instead of hanging, and becomes the review when it is ready, with no reload by hand;
    the API gives the same judgement, every decision in order."""
    game = friend_game(site.url, "standard", seeds=("judged A", "judged B"))
    play_out(site.url, game)
    page = new_page(browser, site, 390, 844)
    page.goto(f"/g/{game.game_id}/review?lang=ru")
    assert page.text_content("#review-wait-text") == translator("ru")("review.wait")
    page.screenshot(path=str(artifacts / "review-wait-ru-390.png"))
    page.wait_for_selector("#review[data-ready='1']", timeout=120_000)
    assert (
        page.locator("#review-wait").count() == 0
        and page.locator(".chance-line:visible").count() == 1
    )
    steps = httpx.get(f"{site.url}/api/games/{game.game_id}/review").json()["steps"]
    record = httpx.get(f"{site.url}/g/{game.game_id}/record").text
    assert len(steps) == len(record_decisions(record)) > 0
    assert page.js_errors == []  # type: ignore[attr-defined]
