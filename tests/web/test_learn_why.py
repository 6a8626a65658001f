"""Why a piece cannot move, in words: the API for every rule family in both languages, and a
tap on a piece that cannot move in a real game (Chromium against a real server)."""

from __future__ import annotations

import httpx
import pytest

from senet.engine import Position
from senet.engine.explain import why_not

from .test_browser import new_page, wait_started


def open_game(page, site, body: dict) -> str:
    """A game created through the API, opened in ``page`` holding its seat(s)."""
    created = httpx.post(f"{site.url}/api/games", json=body)
    assert created.status_code == 201, created.text
    game = created.json()
    page.context.add_cookies(
        [{"name": f"senet_seat_{game['id']}", "value": game["token"], "url": site.url}]
    )
    page.goto(f"/g/{game['id']}")
    wait_started(page)
    return game["id"]


# (rule family, position, tapped square, English line, Russian line)
CASES = [
    (
        "own_piece",
        "standard .A..A...../.........B/.......... A 3",
        2,
        "5 is taken by your own piece.",
        "Клетка 5 занята вашей же фишкой.",
    ),
    (
        "protected",
        "standard .........A/...BB...../.......... A 4",
        10,
        "A pair protects 14: the pieces on 14 and 15 guard each other.",
        "Пара защищает клетку 14: фишки на 14 и 15 прикрывают друг друга.",
    ),
    (
        "protected",
        "adelaida A...BBBB../........../.......... A 4",
        1,
        "A row of 4 (5–8) protects 5. Back: It would leave the track before square 1.",
        "Ряд из 4 фишек (5–8) защищает клетку 5. Назад: Фишка ушла бы за начало доски.",
    ),
    (
        "safe",
        "bell ........../........../...A.B.... A 2",
        24,
        "No piece can be attacked on the House of Beauty (26).",
        "На клетке «Дом красоты» (26) фишку бить нельзя.",
    ),
    (
        "blocked",
        "adelaida .ABB....../........../.......... A 4",
        2,
        "Two pieces side by side on 3 and 4 block the way: only single pieces may be passed."
        " Back: It would leave the track before square 1.",
        "Две фишки рядом на 3 и 4 преграждают путь: перепрыгивать можно только одиночные."
        " Назад: Фишка ушла бы за начало доски.",
    ),
    (
        "must_stop",
        "kendall ....A...../.........B/...A...... A 3",
        24,
        "Every piece must stop on the House of Beauty (26) first.",
        "Каждая фишка сначала должна остановиться на клетке «Дом красоты» (26).",
    ),
    (
        "exit_throw",
        "adelaida B........./........../.......A.. A 2",
        28,
        "Only a 3 leaves the House of Three Truths (28).",
        "Покинуть клетку «Дом Трёх Истин» (28) можно только броском 3.",
    ),
    (
        "beyond_end",
        "standard B........./........../........A. A 2",
        29,
        "A 2 carries it past the end of the board: from the House of Three Truths (29) only a 3"
        " bears it off.",
        "Бросок 2 уводит за конец доски: с клетки «Дом трёх истин» (29) фишка выходит только"
        " броском 3.",
    ),
    (
        "ba",
        "adelaida ....B...../......A.A./..A....... A 2",
        19,
        "The House of Ba (21) would need 23, taken by your own piece. Back: 17 is taken by your"
        " own piece.",
        "Клетка «Дом Ба» (21) перенесла бы фишку на 23, а там ваша же фишка. Назад: Клетка 17 занята"
        " вашей же фишкой.",
    ),
    (
        "priority",
        "bell B........A/........../......A... A 4",
        10,
        "A piece on 26–30 can move (27), and those pieces move first.",
        "Может ходить фишка на клетках 26–30 (27), а они ходят первыми.",
    ),
    (
        "gate",
        "bell ........A./........../.....A.... A 2",
        9,
        "The piece on 26 must move on as soon as it can, before any other.",
        "Фишка на клетке 26 должна идти дальше, как только может, раньше любой другой.",
    ),
    (
        "drowning",
        "kendall B........A/........../......A... A 2",
        10,
        "Your piece is drowning in the House of Water (27): no other piece may move until it is"
        " saved.",
        "Ваша фишка тонет на клетке «Дом воды» (27): пока её не спасти, другие не ходят.",
    ),
    (
        "fate",
        "adelaida .........A/........../.....A.B.. A 3 pending=fate",
        10,
        "The throw of fate moves only the piece on the House of Rejuvenation (26).",
        "Бросок судьбы двигает только фишку на клетке «Дом Омоложения» (26).",
    ),
    (
        "water_choice",
        "kendall B........A/........../......A... A - pending=water",
        10,
        "First decide for the piece in the House of Water (27): risk or return.",
        "Сначала решите судьбу фишки на клетке «Дом воды» (27): рискнуть или вернуться.",
    ),
]


@pytest.mark.parametrize("family,position,square,en,ru", CASES, ids=[c[0] for c in CASES])
def test_the_reason_in_both_languages(site, family, position, square, en, ru) -> None:
    expected = why_not(Position.from_fen(position), square)
    assert expected is not None and expected.kind == family
    for lang, text in (("en", en), ("ru", ru)):
        answer = httpx.get(
            f"{site.url}/api/learn/why",
            params={"position": position, "square": square, "lang": lang},
        )
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert (data["kind"], data["can_move"], data["text"]) == (family, False, text)
        assert data["squares"] == list(expected.squares)


def test_a_piece_that_can_move_has_no_reason_and_bad_input_is_refused(site) -> None:
    start = "standard ABABABABAB/........../.......... A 1"
    answer = httpx.get(f"{site.url}/api/learn/why", params={"position": start, "square": 9})
    assert answer.json()["can_move"] is True and answer.json()["text"] == ""
    bad = httpx.get(f"{site.url}/api/learn/why", params={"position": "standard AB", "square": 1})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_position"
    assert "column" in bad.json()["message"]
    off = httpx.get(f"{site.url}/api/learn/why", params={"position": start, "square": 31})
    assert off.status_code == 400


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_tapping_a_piece_that_cannot_move_says_why(browser, site, artifacts, lang) -> None:
    """A game on one screen: tap a piece of the player on turn that has no legal move (moving
    on until one exists); the line under the board is the engine's reason for that position."""
    page = new_page(browser, site, 390, 844)
    page.goto(f"/?lang={lang}")
    open_game(page, site, {"variant": "standard", "mode": "local"})
    for _ in range(60):
        page.wait_for_function("() => document.querySelectorAll('#moves button').length > 0")
        fen = page.get_attribute("#game", "data-fen")
        decider = page.get_attribute("#game", "data-decider")
        stuck = page.eval_on_selector_all(
            f'#board .piece[data-seat="{decider}"]:not(.movable)',
            "ps => ps.map(p => Number(p.dataset.square))",
        )
        if stuck:
            break
        before = page.get_attribute("#game", "data-ply")
        page.click("#moves button >> nth=0")
        page.wait_for_function(f"() => document.getElementById('game').dataset.ply !== '{before}'")
    else:
        raise AssertionError("no piece was ever stuck in 60 moves")
    square = stuck[0]
    page.click(f'#board .piece[data-square="{square}"]')
    page.wait_for_selector("#why:not([hidden])")
    expected = httpx.get(
        f"{site.url}/api/learn/why", params={"position": fen, "square": square, "lang": lang}
    ).json()
    assert page.text_content("#why") == expected["text"] and expected["text"]
    assert page.get_attribute("#why", "data-kind") == expected["kind"]
    # (the page's own size: a full-page screenshot resizes it for a moment, the board is redrawn
    # for the new size, and a tap just after it could land on a stuck piece and ask again)
    page.screenshot(path=str(artifacts / f"why-tap-{lang}.png"))
    # a movable piece hides the line again
    movable = page.locator("#board .piece.movable")
    if movable.count():
        movable.first.click()
        page.wait_for_selector("#why", state="hidden")
    assert not page.js_errors  # type: ignore[attr-defined]
