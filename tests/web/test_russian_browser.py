"""The game page in Russian, in real Chromium against a real server: what the scripts write
(the result, the move list, the verify page's summary, an error) is Russian, in the right
grammatical form."""

from __future__ import annotations

import httpx
import pytest

from .helpers import TwoSeats, best_move, friend_game, state, wait_past
from .test_browser import new_page
from .test_russian import english_words, untranslated

pytestmark = pytest.mark.browser


def play_to_the_end(base: str, game: TwoSeats, prefer: tuple[str, ...] = ()) -> dict:
    """Both seats play through the API, taking a move of ``prefer`` whenever one is legal
    (a revival, a return to 15), else the furthest, and leave forced passes to the server;
    the final state."""
    for _ in range(5000):
        seen = state(base, game.game_id)
        if seen.get("outcome"):
            return seen
        if seen["forced_pass"]:  # the server plays it
            wait_past(base, game.game_id, seen["ply"])
            continue
        token = game.tokens[seen["decider"]]
        legal = state(base, game.game_id, token)["legal"]
        move = next((m for m in legal if m in prefer), None) or best_move(legal)
        answer = httpx.post(
            f"{base}/api/games/{game.game_id}/moves",
            headers={"X-Seat-Token": token},
            json={"ply": seen["ply"], "move": move},
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def russian_page(browser, site, path: str):
    page = new_page(browser, site, 390, 844)
    page.context.add_cookies([{"name": "lang", "value": "ru", "url": site.url}])
    page.goto(path)
    return page


def test_the_move_list_and_the_result_are_russian(browser, site) -> None:
    """Adelaida: the drowned pieces' revivals appear in words (never 'revive'); the whole
    move list is notation and Russian; the result agrees with the plural seat name."""
    for _ in range(5):
        game = friend_game(site.url, "adelaida")
        final = play_to_the_end(site.url, game, prefer=("revive",))
        if any(h["kind"] == "revive" for h in final["history"]):
            break
    else:
        pytest.fail("no revival in five games")
    page = russian_page(browser, site, f"/g/{game.game_id}")
    page.wait_for_selector("#over:not([hidden])")
    moves = page.text_content("#move-list") or ""
    assert "возрождение на 15" in moves and "revive" not in moves
    assert english_words(moves) == [], moves
    winner = ("катушки", "конусы")[final["outcome"]["winner"]]
    assert page.text_content("#result").startswith(f"Победили {winner}")
    assert untranslated(page.content()) == []
    assert not page.js_errors


def test_a_seat_named_in_the_singular_wins_in_the_singular(browser, site) -> None:
    """Bell's seats are «первый игрок» and «второй игрок»: «Победил второй игрок», not
    «Победили»; the verify page counts the throws with the right form of «бросок»."""
    for _ in range(6):
        game = friend_game(site.url, "bell")
        final = play_to_the_end(site.url, game)
        if final["outcome"]["winner"] is not None:
            break
    else:
        pytest.fail("six draws in a row")
    winner = ("первый игрок", "второй игрок")[final["outcome"]["winner"]]
    page = russian_page(browser, site, f"/g/{game.game_id}")
    page.wait_for_selector("#over:not([hidden])")
    assert page.text_content("#result").startswith(f"Победил {winner}")
    assert "Победили" not in page.inner_text("#game")

    page.goto(f"/g/{game.game_id}/verify")
    page.wait_for_selector(".verify-summary.good")
    throws = sum(1 for h in final["history"] if h["kind"] == "throw")
    word = {"one": "бросок", "few": "броска", "many": "бросков"}[
        "one"
        if throws % 10 == 1 and throws % 100 != 11
        else "few"
        if throws % 10 in (2, 3, 4) and throws % 100 not in (12, 13, 14)
        else "many"
    ]
    summary = page.text_content(".verify-summary") or ""
    assert f"{throws} {word} — и каждый" in summary, summary
    assert untranslated(page.content()) == []
    assert not page.js_errors


def test_an_unfinished_games_verify_page_is_in_russian(browser, site) -> None:
    """The verify page of a game still going says so in Russian, without a stray tag name
    such as '(Seed)'."""
    game = friend_game(site.url, "standard")
    page = russian_page(browser, site, f"/g/{game.game_id}/verify")
    page.wait_for_selector(".verify-summary.pending:not(:empty)")
    page.wait_for_function(
        "() => !document.querySelector('.verify-summary').textContent.startsWith('Провер')"
    )
    summary = page.text_content(".verify-summary") or ""
    assert summary.startswith("Зерно раскрывается") and "(" not in summary, summary
    assert not page.js_errors
