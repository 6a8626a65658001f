"""The review replays the game: one numbering (the turn number, as in the record and the game's
move list) for the move list and the mistakes; every move and mistake is a link that shows its
position on the board with the move played and the best move; the arrow keys, Home and End and
on-screen buttons step through the game; the address keeps the position. In real Chromium, at
phone and desktop sizes, in English and Russian, in light and dark mode."""

from __future__ import annotations

import html
import json
import re

import httpx
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from senet.engine import Throw, parse_move
from senet.engine.record import parse_record
from senet.web.render.move_words import step_words

from .helpers import friend_game, play_out, review_page
from .test_trust import play_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SIZES = [(390, 844), (360, 740), (1280, 900)]


def record_decisions(record: str) -> list[tuple[int, str, str]]:
    """Every decision of a record, read from its text: (turn number of its line, the position
    notation before it from the engine's replay, the move as written)."""
    moves: list[tuple[int, str]] = []
    for line in record.split("\n\n", 1)[1].splitlines():
        head = re.match(r"(\d+)\. [AB]: (.*)", line)
        if not head:
            continue
        body = re.sub(r"\{[^}]*\}", " ", head.group(2))
        for token in body.split():
            if not re.fullmatch(r"\(\d\)|[AB]:", token):
                moves.append((int(head.group(1)), token))
    positions = [
        pos.fen() for pos, action in parse_record(record).replay() if not isinstance(action, Throw)
    ]
    assert len(positions) == len(moves)
    return [(turn, fen, move) for (turn, move), fen in zip(moves, positions, strict=True)]


@pytest.fixture(scope="module")
def reviewed(site) -> dict:
    """A finished standard game, its review computed once, its decisions from the record."""
    game_id = play_to_the_end(site.url, "standard")
    page = review_page(site.url, game_id)
    assert page.status_code == 200, page.text[:300]
    record = httpx.get(f"{site.url}/g/{game_id}/record").text
    return {"id": game_id, "html": page.text, "decisions": record_decisions(record)}


def test_mistakes_and_move_list_share_the_records_turn_numbers(reviewed) -> None:
    page, decisions = reviewed["html"], reviewed["decisions"]
    # the move list: one item a turn, numbered as the record's lines, each decision a link
    links = re.findall(r'<a class="rp-move[^"]*" href="#d=(\d+)" data-step="(\d+)"', page)
    assert [int(d) for d, _ in links] == list(range(1, len(decisions) + 2))  # and the end
    items = [int(v) for v in re.findall(r'<li value="(\d+)">', page)]
    assert items == sorted({turn for turn, _, _ in decisions})
    # every mistake: its turn number is the record line holding the move played
    rows = re.findall(
        r'<tr class="(?:blunder|mistake|inaccuracy)"><td><a class="rp-goto" href="#d=(\d+)" '
        r'data-step="\d+"\s+aria-label="[^"]+">(\d+)</a></td><td>[^<]*</td>\s*'
        r'<td[^>]* data-move="([^"]+)">([^<]+)</td>',
        page,
    )
    assert rows, "a greedy player made no mistake?"
    for step, turn, played, said in rows:
        record_turn, _, record_move = decisions[int(step) - 1]
        assert int(turn) == record_turn and played == record_move
        # said as the game's move buttons say it: "9 → 14", "1 → 6 ⚔"
        if parse_move(played).is_step:
            assert said == step_words(played, "off") and "→" in said
    # the boards of the mistakes say their moves in the same words
    for best, played in re.findall(r"Better: ([^(]+) \(green\)\. Played: ([^(]+) \(red\)", page):
        assert "→" in best + played, (best, played)
    # the chart's marks and the boards below name the same turns
    shown = page.split('<g class="chart-side" data-side="1"', 1)[0]  # the first player's line
    assert re.findall(r"<title>Turn (\d+): ", shown) == [turn for _, turn, _, _ in rows]


def test_the_games_move_list_numbers_its_turns_as_the_review(browser, site, reviewed) -> None:
    """The game page's move list (one item a turn) holds each mistake's move at the item the
    review names."""
    page = browser.new_page(viewport={"width": 1280, "height": 900}, base_url=site.url)
    page.goto(f"/g/{reviewed['id']}")
    page.wait_for_selector("#move-list li")
    items = page.eval_on_selector_all("#move-list li", "lis => lis.map(li => li.textContent)")
    decisions = reviewed["decisions"]
    assert len(items) == decisions[-1][0]
    for turn, _, move in decisions:
        assert re.search(rf"(^|[ :]){re.escape(move)}( |$)", items[turn - 1]), (turn, move)
    page.close()


def pieces_of(fen: str) -> dict[str, list[int]]:
    cells = fen.split(" ")[1].replace("/", "")
    return {seat: [i + 1 for i, c in enumerate(cells) if c == "AB"[int(seat)]] for seat in "01"}


def shown(page) -> dict:
    return page.evaluate(
        """() => {
        const board = document.getElementById('board');
        const pieces = {0: [], 1: []};
        for (const p of board.querySelectorAll('.piece')) pieces[p.dataset.seat].push(Number(p.dataset.square));
        const arrow = (kind) => { const a = board.querySelector('.rp-arrow.' + kind); return a && a.dataset.move; };
        return {step: Number(document.getElementById('review').dataset.step), hash: location.hash,
                pieces, played: arrow('played'), best: arrow('best'),
                caption: document.getElementById('rp-caption').textContent,
                live: document.getElementById('rp-live').textContent,
                result: document.getElementById('rp-result').hidden ? null
                  : document.getElementById('rp-result').textContent,
                throwShown: document.getElementById('rp-throw').hidden ? null
                  : document.getElementById('rp-throw-value').textContent,
                moves: document.getElementById('rp-moves').textContent,
                current: [...document.querySelectorAll('#rp-list [aria-current="step"]')].map(a => Number(a.dataset.step))};
    }"""
    )


def check_position(
    page, decisions: list, index: int, best: str | None = None, hash: str | None = None
) -> None:
    seen = shown(page)
    assert seen["step"] == index and seen["hash"] == (f"#d={index + 1}" if hash is None else hash)
    assert seen["current"] == [index]  # the move list marks where the board is
    if index == len(decisions):  # the final position, with the result
        assert seen["played"] is None and seen["best"] is None and seen["result"]
        return
    assert seen["result"] is None
    turn, fen, move = decisions[index]
    assert {int(k): sorted(v) for k, v in seen["pieces"].items()} == {
        int(k): v for k, v in pieces_of(fen).items()
    }
    assert str(turn) in seen["caption"]
    if hash is None:  # a step the reader asked for is announced (a live region)
        assert seen["live"].startswith(seen["caption"])
    assert seen["throwShown"] == fen.split(" ")[3]
    if parse_move(move).is_step:
        assert seen["played"] == move
    if best is not None and parse_move(best).is_step:
        assert seen["best"] == best


def in_view(page, selector: str) -> bool:
    """Is ``selector`` wholly inside the viewport (waiting up to 5 s for a smooth scroll)? Layout
    is in fractions of a pixel and scrolling in whole ones, so an edge may lie a pixel out."""
    try:
        page.wait_for_function(
            """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
            return r.top > -1 && r.left > -1 && r.bottom < innerHeight + 1
              && r.right < innerWidth + 1; }""",
            arg=selector,
            timeout=5000,
        )
    except PlaywrightTimeout:
        return False
    return True


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_click_on_a_move_or_a_mistake_shows_it_on_the_board_and_keys_step(
    browser, site, artifacts, reviewed, size, lang
) -> None:
    width, height = size
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=site.url,
        is_mobile=phone,
        has_touch=phone,
        color_scheme="dark" if lang == "ru" and phone else "light",
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    decisions = reviewed["decisions"]
    page.goto(f"/g/{reviewed['id']}/review?lang={lang}")
    page.wait_for_selector("#review[data-ready='1']")
    check_position(page, decisions, 0, hash="")  # the first decision; the address unchanged
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    legend = page.text_content(".rp-legend")
    assert ("сплошная" if lang == "ru" else "solid") in legend
    if lang == "ru" and phone:  # dark mode: the move list's box goes dark with the page
        background = page.eval_on_selector(
            ".replay-list", "e => getComputedStyle(e).backgroundColor"
        )
        assert sum(map(int, re.findall(r"\d+", background)[:3])) < 200, background

    # a mistake of the table: its position, the move played and the best move on the board
    table = page.locator(".review-table")
    table.screenshot(path=str(artifacts / f"review-table-{lang}-{width}x{height}.png"))
    row = table.locator("tbody tr").nth(1)
    link = row.locator("a.rp-goto")
    assert link.get_attribute("aria-label")
    index = int(link.get_attribute("data-step"))
    best = row.locator("td").nth(3).get_attribute("data-move")
    link.click()
    check_position(page, decisions, index, best)
    if parse_move(best).is_step and not parse_move(best).bears_off:  # the sentence's words
        assert step_words(best, "") in page.text_content("#rp-moves")
    for part in ("#board", "#rp-caption", "#rp-moves", "#rp-next"):
        assert in_view(page, part), part  # the board came into view, with its caption
    # the move played is drawn red where it was a mistake, and only there
    if parse_move(row.locator("td").nth(2).get_attribute("data-move") or "pass").is_step:
        assert page.locator("#board .rp-arrow.played").count() == 1
        assert page.locator("#board .rp-arrow.played.good").count() == 0
    fine = page.evaluate(
        """() => JSON.parse(document.getElementById('review').dataset.replay).steps
             .findIndex((s) => !s[5] && /^\\d+[-x]/.test(s[3]))"""
    )
    if fine >= 0:
        page.evaluate(f"location.hash = '#d={fine + 1}'")
        page.wait_for_function(f"document.getElementById('review').dataset.step === '{fine}'")
        assert page.locator("#board .rp-arrow.played.good").count() == 1
        link.click()  # back to the mistake
        check_position(page, decisions, index, best)
    page.screenshot(path=str(artifacts / f"review-replay-{lang}-{width}x{height}.png"))

    # the on-screen buttons, then the keys
    page.click("#rp-next")
    check_position(page, decisions, index + 1)
    page.click("#rp-prev")
    check_position(page, decisions, index, best)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    check_position(page, decisions, index + 2)
    page.keyboard.press("ArrowLeft")
    check_position(page, decisions, index + 1)
    page.keyboard.press("End")
    check_position(page, decisions, len(decisions))
    page.keyboard.press("ArrowRight")  # nothing after the end
    check_position(page, decisions, len(decisions))
    page.keyboard.press("Home")
    check_position(page, decisions, 0)

    # a mistake's point on the winning-chance graph
    mark = page.locator("#chance-graph circle.mark").nth(2)
    mark.click()
    check_position(page, decisions, int(mark.get_attribute("data-step")))

    # a move of the list, reached and opened with the keyboard
    target = page.locator(f'#rp-list a[data-step="{len(decisions) // 2}"]')
    assert target.get_attribute("aria-label")
    target.focus()
    page.keyboard.press("Enter")
    check_position(page, decisions, len(decisions) // 2)
    for part in ("#rp-caption", "#board", "#rp-moves"):
        assert in_view(page, part), part  # the board with what it shows, not cut at an edge

    # the address keeps the position: a link opens it, in a new page
    address = page.url
    assert address.endswith(f"#d={len(decisions) // 2 + 1}")
    opened = context.new_page()
    opened.on("pageerror", lambda exc: errors.append(str(exc)))
    opened.goto(address)
    opened.wait_for_selector("#review[data-ready='1']")
    check_position(opened, decisions, len(decisions) // 2, hash=f"#d={len(decisions) // 2 + 1}")
    assert in_view(opened, "#board")
    assert opened.evaluate("document.documentElement.scrollWidth") <= width
    assert errors == []
    context.close()


def test_the_replay_payload_stays_small(reviewed) -> None:
    """The positions travel in the page as compact JSON: well under 100 bytes a decision."""
    raw = html.unescape(re.search(r'data-replay="([^"]*)"', reviewed["html"]).group(1))
    data = json.loads(raw)
    assert len(data["steps"]) == len(reviewed["decisions"])
    assert len(raw.encode()) < 100 * len(data["steps"]) + 200


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_game_a_player_ended_has_its_review_too(site, lang) -> None:
    """The finished game's page offers a review however the game ended: a resignation ends it as
    surely as the last piece borne off, and the review says how it ended."""
    game = friend_game(site.url, "standard")
    play_out(site.url, game, moves=6)
    in_progress = httpx.get(f"{site.url}/g/{game.game_id}/review", cookies={"lang": lang})
    assert in_progress.status_code == 409  # still going on: nothing to review yet
    resigned = httpx.post(
        f"{site.url}/api/games/{game.game_id}/resign",
        json={},
        headers={"X-Seat-Token": game.tokens[1]},
    )
    assert resigned.status_code == 200, resigned.text
    page = review_page(site.url, game.game_id, cookies={"lang": lang})
    assert page.status_code == 200, page.text[:300]
    result = re.search(r'<p id="rp-result"[^>]*>(.*?)</p>', page.text, re.S)
    assert result is not None
    words = {"en": ("won", "resigned"), "ru": ("Победил", "сдались")}[lang]
    assert all(w in html.unescape(result.group(1)) for w in words), result.group(1)
    replay = json.loads(html.unescape(re.search(r'data-replay="([^"]*)"', page.text).group(1)))
    assert len(replay["steps"]) >= 6  # every decision played before the resignation is judged


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_where_the_best_move_uses_another_of_the_turns_throws_both_are_named(
    browser, site, lang
) -> None:
    """kendall-1978 throws every throw of a turn before moving: the board's caption names the
    throw the played move used, and where the best move would have used another of them the
    line under the board says which throw each move plays."""
    game = friend_game(site.url, "kendall-1978")
    play_out(site.url, game)
    page_html = review_page(site.url, game.game_id).text
    steps = json.loads(html.unescape(re.search(r'data-replay="([^"]*)"', page_html).group(1)))[
        "steps"
    ]
    index = next(i for i, s in enumerate(steps) if s[3] != s[4] and s[7] != s[8])
    thrown, best_thrown = steps[index][7], steps[index][8]
    page = browser.new_page(viewport={"width": 390, "height": 844}, base_url=site.url)
    page.goto(f"/g/{game.game_id}/review?lang={lang}#d={index + 1}")
    page.wait_for_selector("#review[data-ready='1']")
    page.wait_for_function(f"document.getElementById('review').dataset.step === '{index}'")
    said = page.text_content("#rp-moves")
    word = "with the" if lang == "en" else "броском"
    assert f"{word} {thrown};" in said and f"{word} {best_thrown}." in said, said
    assert page.text_content("#rp-throw-value") == thrown  # the caption: the played move's
    page.close()
