"""A forced pass costs no click: when a pass is the only legal decision, the server plays it
after a pause, and every page (both players' and a spectator's) says why in one line — in real
Chromium, on a phone and a desktop, in English and Russian.

The server's clock moves only when the test says (``SENET_MANUAL_CLOCK``), so the pause is
exact: the pass is not played before its 1.5 s, and is played, once, when they have passed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from senet.engine import find_variant
from senet.engine.record import parse_record

from .helpers import state
from .test_browser import new_page, wait_started
from .test_lobby_browser import ClockedSite

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).resolve().parents[2] / "src" / "senet" / "web" / "locales"


class PacedSite(ClockedSite):
    """The site's own pace for forced passes (1.5 s), on a clock that the test moves."""

    def __init__(self, db: Path) -> None:
        super().__init__(db)
        self.env["SENET_FORCED_PASS_DELAY"] = "1.5"


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PacedSite]:
    server = PacedSite(tmp_path_factory.mktemp("paced") / "senet.sqlite3")
    server.start()
    yield server
    server.stop()


def catalog(lang: str) -> dict[str, str]:
    return json.loads((LOCALES / lang / "play.json").read_text())


def words(text: str, **params: object) -> str:
    for key, value in params.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def sentence(text: str) -> str:
    """A line as the page shows it, first letter upper-case (a seat's name may begin it)."""
    return text[:1].upper() + text[1:]


def seat_token(page, game_id: str) -> str:
    cookie = next(c for c in page.context.cookies() if c["name"] == f"senet_seat_{game_id}")
    return cookie["value"]


def sent_moves(page) -> list[str]:
    return [f for f in page.frames_log if f.startswith("sent") and '"move"' in f]


CASES = [
    # language, variant, the host's screen, the guest's screen
    ("en", "bell", (1280, 900), (390, 844)),
    ("ru", "kendall", (360, 740), (1280, 900)),
]


def rearmost(legal: list[str]) -> str:
    """The move of the rearmost piece (word moves last): a game played so soon blocks itself."""

    def key(text: str) -> tuple[int, int]:
        if "-" in text or "x" in text:
            return (0, int(text.replace("x", "-").split("-")[0]))
        return (1, 0)

    return min(legal, key=key)


def open_game(browser, site: PacedSite, lang: str, variant: str, host_size, guest_size):
    """A friend game between two pages (the host holds A), and a spectator's page."""
    host = new_page(browser, site, *host_size)
    host.goto(f"/?lang={lang}")
    host.select_option("#variant", variant)
    host.check("input[name=mode][value=friend]")
    host.check("input[name=colour][value=A]")
    host.click("form.start-form button[type=submit]")
    host.wait_for_selector("#game[data-ply]")
    game_id = host.url.split("?")[0].rsplit("/", 1)[-1]
    guest = new_page(browser, site, *guest_size)
    guest.goto(host.input_value("#invite-url") + f"?lang={lang}")
    guest.click("#join-form button[type=submit]")
    guest.wait_for_selector("#game[data-ply]")
    for page in (host, guest):
        wait_started(page)
    spectator = new_page(browser, site, *guest_size)
    spectator.goto(f"/g/{game_id}?lang={lang}")
    spectator.wait_for_selector("#game[data-ply]")
    return game_id, {0: host, 1: guest}, spectator


def play_to_a_forced_pass(site: PacedSite, game_id: str, tokens: dict[int, str]) -> dict | None:
    """Both players move (through the API, as fast as it goes) until a pass is the decider's
    only legal move: the state then (the server's clock stands still, so the server has not
    played it yet), or None if the game ended first."""
    for _ in range(600):
        seen = state(site.url, game_id)
        if seen["outcome"]:
            return None
        if seen["forced_pass"]:
            return seen
        mine = state(site.url, game_id, tokens[seen["decider"]])
        answer = httpx.post(
            f"{site.url}/api/games/{game_id}/moves",
            headers={"X-Seat-Token": tokens[seen["decider"]]},
            json={"ply": mine["ply"], "move": rearmost(mine["legal"])},
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game went on and on")


@pytest.mark.parametrize(("lang", "variant", "host_size", "guest_size"), CASES)
def test_a_forced_pass_is_played_by_the_server_after_a_pause_with_a_line_saying_why(
    browser, paced, artifacts, lang, variant, host_size, guest_size
) -> None:
    for _ in range(5):  # the throws are each game's own: rarely, a game ends without a pass
        game_id, pages, spectator = open_game(browser, paced, lang, variant, host_size, guest_size)
        tokens = {seat: seat_token(page, game_id) for seat, page in pages.items()}
        seen = play_to_a_forced_pass(paced, game_id, tokens)
        if seen is not None:
            break
        for page in (*pages.values(), spectator):
            page.context.close()
    assert seen is not None, "five games without a forced pass"
    host, guest = pages[0], pages[1]
    forced = seen["forced_pass"]
    assert forced and forced["reason"] == "no_move" and forced["ply"] == seen["ply"]
    passer, throw = forced["seat"], forced["throw"]
    assert state(paced.url, game_id, tokens[passer])["legal"] == ["pass"]
    clicks_before = {seat: len(sent_moves(page)) for seat, page in pages.items()}

    # Every page says who passes, with which throw and why, and offers no button for it.
    texts = catalog(lang)
    name = find_variant(variant).seat_name(passer, lang)
    expected = {
        passer: sentence(words(texts["play.pass_you"], n=throw)),
        1 - passer: sentence(words(texts["play.pass_other"], seat=name, n=throw)),
    }
    viewers = {"passer": pages[passer], "opponent": pages[1 - passer], "spectator": spectator}
    for role, page in viewers.items():
        page.wait_for_function(
            f"() => document.getElementById('game').dataset.forced === '{forced['ply']}'"
        )
        line = expected[passer] if role == "passer" else expected[1 - passer]
        assert line in page.text_content("#status"), (role, page.text_content("#status"))
        assert page.query_selector_all("#moves button") == [], role
        assert not page.is_visible("#moves"), role
        assert page.get_attribute("html", "lang") == lang
        page.screenshot(path=str(artifacts / f"forced-pass-{lang}-{role}.png"))
    passer_page = pages[passer]
    assert not passer_page.title().startswith("●")  # not "your move": nothing to do
    assert "your-turn" not in (passer_page.get_attribute("#status", "class") or "")
    passer_page.keyboard.press("1")  # the first move's key: there is none to play

    # Paced: not played before its 1.5 s on the server's clock ...
    paced.advance(1.25)
    assert state(paced.url, game_id)["ply"] == forced["ply"]
    # ... then played by the server, once, for every page, with the line kept in the events.
    paced.advance(0.25)
    for role, page in viewers.items():
        page.wait_for_function(
            f"() => Number(document.getElementById('game').dataset.ply) > {forced['ply']}"
        )
        event = words(texts["play.ev_pass"], seat=name, n=throw)
        shown = page.text_content("#events")  # the line's first note begins with a capital
        assert event in shown or shown.startswith(sentence(event)), (role, shown)
    after = state(paced.url, game_id)
    history = after["history"]
    assert history[forced["ply"]]["kind"] == "pass" and history[forced["ply"]]["seat"] == passer
    assert history[forced["ply"] + 1]["kind"] == "throw"
    # Nobody clicked: no page sent a move for it.
    for seat, page in pages.items():
        assert len(sent_moves(page)) == clicks_before[seat], (seat, sent_moves(page)[-3:])
    # The record is the same as if the player had passed.
    record = parse_record(httpx.get(f"{paced.url}/g/{game_id}/record").text)
    replayed = record.replay()
    assert replayed.position.fen() == after["fen"]
    assert all(page.js_errors == [] for page in (host, guest, spectator))
