"""Real Chromium (Debian's, through Playwright) against a real server process.

Players act through the page: the move buttons, the pieces on the board and the keyboard.
To keep games short the test players prefer the move that goes furthest (bots clicking in
the real UI; nothing in the server is special for tests).
"""

from __future__ import annotations

import re

import httpx
import pytest

from senet.engine import VARIANTS
from senet.engine.record import parse_record
from senet.service.fairness.verify import verify_text

from .helpers import best_move

pytestmark = pytest.mark.browser


def new_page(browser, site, width: int = 1280, height: int = 900, touch: bool = False):
    """A page in a context of its own (its own cookies); ``touch``: a phone's touch screen,
    with no mouse to hover (CSS ``hover: none``)."""
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=site.url,
        is_mobile=touch,
        has_touch=touch,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # the site's Content Security Policy forbids inline scripts and styles: our pages break none of it
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.js_errors = errors  # type: ignore[attr-defined]
    frames: list[str] = []
    page.frames_log = frames  # type: ignore[attr-defined]

    def watch(ws) -> None:
        frames.append(f"open {ws.url}")
        ws.on("framesent", lambda f: frames.append(f"sent {str(f)[:80]}"))
        ws.on("framereceived", lambda f: frames.append(f"recv {str(f)[:80]}"))
        ws.on("close", lambda _: frames.append("close"))

    page.on("websocket", watch)
    return page


def ply(page) -> int:
    value = page.get_attribute("#game", "data-ply")
    return int(value) if value else -1


def is_over(page) -> bool:
    return page.get_attribute("#game", "data-over") == "1"


def legal_buttons(page) -> list[str]:
    return page.eval_on_selector_all(
        "#moves button[data-move]", "bs => bs.map(b => b.dataset.move)"
    )


def click_move(page, move: str) -> None:
    before = ply(page)
    page.click(f'#moves button[data-move="{move}"]')
    try:
        page.wait_for_function(
            f"() => document.getElementById('game').dataset.ply !== '{before}'", timeout=10_000
        )
    except Exception as exc:
        details = page.evaluate("""() => { const g = document.getElementById('game'), e = document.getElementById('error');
            return {ply: g.dataset.ply, connected: g.dataset.connected, cls: g.className, error: e && e.textContent,
                    moves: [...document.querySelectorAll('#moves button')].map(b => b.dataset.move)}; }""")
        log = "\n".join(page.frames_log[-15:])  # type: ignore[attr-defined]
        raise AssertionError(f"{move} at ply {before} got no answer: {details}\n{log}") from exc


def wait_started(page, timeout: float = 15_000) -> None:
    """Until the first throw: a new game first collects the players' seeds, which
    every seat holder's page gives by itself."""
    page.wait_for_function(
        "() => ['playing', 'over'].includes(document.getElementById('game').dataset.phase)",
        timeout=timeout,
    )


def start_game(
    page, variant: str, mode: str, colour: str = "random", level: str | None = None
) -> str:
    page.goto("/")
    page.select_option("#variant", variant)
    page.check(f"input[name=mode][value={mode}]")
    page.check(f"input[name=colour][value={colour}]")
    if level:
        page.select_option("#level-home", level)
    page.click("form.start-form button[type=submit]")
    page.wait_for_selector("#game[data-ply]")
    if mode != "friend":  # nobody else's seed to wait for
        wait_started(page)
    return page.url.rsplit("/", 1)[-1]


# A player inside the page: whenever move buttons are shown, click the one going furthest (the
# same preference as helpers.best_move), wait for the server's answer, repeat until the end.
AUTOPLAY = """() => {
  const root = document.getElementById('game');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  // bear off first, else enter a piece (piccione), else move the rearmost piece that can go
  // forward as far as it can, else the best way back (always the furthest target would leave the back pieces of
  // a Jéquier game on the start row)
  const key = (m) => {
    const step = /^(\\d+)[-x](\\d+|off)(?:\\/\\d)?$/.exec(m);
    if (!step) return (m === 'revive' || m === 'return') ? 2000 : m === 'enter' ? 6000 : 0;
    if (step[2] === 'off') return 10000;
    const from = Number(step[1]), to = Number(step[2]);
    // of one piece's moves (a divided throw: 3-4, 3-5, 3-6) the one using the most
    return to > from ? 3000 + (40 - from) * 50 + to : 1000 + to;
  };
  window.__clicks = 0;
  window.__autoplay = (async () => {
    while (root.dataset.over !== '1') {
      const buttons = [...document.querySelectorAll('#moves button[data-move]')];
      if (!buttons.length || root.classList.contains('waiting')) { await sleep(5); continue; }
      let best = buttons[0];
      for (const b of buttons) if (key(b.dataset.move) > key(best.dataset.move)) best = b;
      best.click();
      window.__clicks++;
      while (root.classList.contains('waiting')) await sleep(2);
    }
  })();
  return true;
}"""


def play_until_over(pages, limit_seconds: float = 150, on_ply=None) -> None:
    """Every page plays its own moves through its buttons until every page shows the end."""
    for page in pages:
        page.evaluate(AUTOPLAY)
    if on_ply:
        on_ply(pages[0])
    for page in pages:
        page.wait_for_function(
            "() => document.getElementById('game').dataset.over === '1'",
            timeout=limit_seconds * 1000,
        )
    assert sum(page.evaluate("window.__clicks") for page in pages) > 10


def open_friend_game(browser, site, variant: str) -> tuple[str, object, object]:
    """The host starts a game with a friend; the guest (a phone-sized screen) opens the invitation."""
    host = new_page(browser, site)
    game_id = start_game(host, variant, "friend", "A")
    invite = host.input_value("#invite-url")
    assert f"/g/{game_id}/join/" in invite
    guest = new_page(browser, site, 390, 844)
    guest.goto(invite)
    guest.wait_for_selector("#game[data-ply]")
    assert guest.url.endswith(f"/g/{game_id}")
    for page in (host, guest):
        wait_started(page)
    return game_id, host, guest


def test_two_browsers_play_a_whole_game_of_every_variant_through_the_invitation(
    browser, site, artifacts
) -> None:
    """One game per variant at once, each between two browser contexts, to the result."""
    games = {variant: open_friend_game(browser, site, variant) for variant in VARIANTS}
    for variant, (_, host, guest) in games.items():
        assert "(you)" in host.text_content("#counters tr[data-seat='0']"), variant
        assert "(you)" in guest.text_content("#counters tr[data-seat='1']"), variant
        # the columns the variant can need, from the server's data: bell captures, adelaida drowns
        head = host.text_content("#counters tr:not([data-seat])")
        assert ("Captured" in head, "Drowned" in head) == (
            variant == "bell",
            variant.startswith("adelaida"),
        ), (variant, head)
    spectator = new_page(browser, site)
    spectator.goto(games["standard"][1].input_value("#invite-url"))  # used up: this visitor watches
    spectator.wait_for_selector("#game[data-ply]")
    assert "watching" in spectator.text_content("#you")
    for _, host, guest in games.values():
        for page in (host, guest):
            page.evaluate(AUTOPLAY)
    for variant, (_, host, guest) in games.items():  # the board in mid-game
        host.wait_for_function(
            "() => Number(document.getElementById('game').dataset.ply) > 40 || "
            "document.getElementById('game').dataset.over === '1'",
            timeout=60_000,
        )
        host.screenshot(path=str(artifacts / f"board-{variant}-midgame.png"))
        guest.screenshot(path=str(artifacts / f"board-{variant}-phone.png"), full_page=True)
    seen = ply(games["standard"][1])  # the spectator sees the moves live, and has none to make
    spectator.wait_for_function(
        f"() => Number(document.getElementById('game').dataset.ply) >= {seen}"
    )
    assert legal_buttons(spectator) == []
    for variant, (game_id, host, guest) in games.items():
        for page in (host, guest):
            page.wait_for_function(
                "() => document.getElementById('game').dataset.over === '1'", timeout=240_000
            )
            page.wait_for_selector("#over:not([hidden])")
        assert host.evaluate("window.__clicks") + guest.evaluate("window.__clicks") > 20, variant
        results = {host.text_content("#result"), guest.text_content("#result")}
        assert any("You won" in r for r in results) or any("draw" in r.lower() for r in results), (
            variant,
            results,
        )
        host.screenshot(path=str(artifacts / f"board-{variant}-over.png"), full_page=True)
        record = httpx.get(f"{site.url}/g/{game_id}/record").text
        assert parse_record(record).replay().position.fen() == host.get_attribute(
            "#game", "data-fen"
        ), variant
        assert verify_text(record).ok, variant
        assert host.js_errors == [] and guest.js_errors == [], variant
    spectator.wait_for_selector("#over:not([hidden])")
    assert ply(spectator) == ply(games["standard"][1])
    # a rematch: colours swap, both players are seated again
    game_id, host, guest = games["bell"]
    host_side, guest_side = host.text_content("#you"), guest.text_content("#you")
    host.click("#rematch")
    host.wait_for_url(re.compile(rf"/g/(?!{re.escape(game_id)})"))
    new_id = host.url.rsplit("/", 1)[-1]
    guest.wait_for_selector("#rematch-offer:not([hidden])")
    guest.click("#rematch")
    guest.wait_for_url(re.compile(re.escape(new_id) + "$"))
    for page in (host, guest):
        page.wait_for_selector("#game[data-ply]")
        wait_started(page)  # the rematch, too, started by collecting both seeds
    assert host.text_content("#you") == guest_side and guest.text_content("#you") == host_side


def test_reload_and_new_tab_keep_the_seat(browser, site) -> None:
    host = new_page(browser, site)
    game_id = start_game(host, "kendall", "friend", "A")
    guest = new_page(browser, site)
    guest.goto(host.input_value("#invite-url"))
    guest.wait_for_selector("#game[data-ply]")
    assert "light stones" in guest.text_content("#you")
    wait_started(host)
    host.wait_for_selector("#moves button[data-move]")
    moves = legal_buttons(host)
    assert moves
    click_move(host, best_move(moves))
    guest.reload()
    guest.wait_for_selector("#game[data-ply]")
    assert "light stones" in guest.text_content("#you")
    tab = guest.context.new_page()
    tab.goto(f"/g/{game_id}")
    tab.wait_for_selector("#game[data-ply]")
    assert "light stones" in tab.text_content("#you") and ply(tab) == ply(host)
    guest.wait_for_function(f"() => document.getElementById('game').dataset.ply === '{ply(host)}'")
    if legal_buttons(guest):  # the guest's turn: it can act from the reloaded page
        click_move(guest, best_move(legal_buttons(guest)))
    # presence: the host sees the guest online
    host.wait_for_function(
        "() => document.getElementById('presence').textContent.includes('online')"
    )


def test_a_game_on_this_screen_runs_to_the_end_with_the_board_and_keyboard(
    browser, site, artifacts
) -> None:
    page = new_page(browser, site)
    start_game(page, "adelaida", "local")
    assert page.js_errors == []  # type: ignore[attr-defined]
    # one move with the mouse on the board: the piece, then its target
    movable = page.query_selector("#board .piece.movable")
    origin = movable.get_attribute("data-square")
    before = ply(page)
    movable.click()
    target = page.wait_for_selector("#board .target")
    page.screenshot(path=str(artifacts / "board-selected-piece.png"))
    target.click()
    page.wait_for_function(f"() => document.getElementById('game').dataset.ply !== '{before}'")
    assert page.query_selector(f"#board .square.last[data-square='{origin}']")
    # one move with the keyboard: focus a piece, Enter, then Enter on the focused target
    page.focus("#board .piece.movable")
    before = ply(page)
    page.keyboard.press("Enter")
    page.wait_for_selector("#board .target")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.getElementById('game').dataset.ply !== '{before}'")
    # and by number key: 1 plays the first listed move
    page.wait_for_selector("#moves button[data-move]")
    before = ply(page)
    page.keyboard.press("1")
    page.wait_for_function(f"() => document.getElementById('game').dataset.ply !== '{before}'")
    play_until_over([page])
    assert "won" in page.text_content("#result")
    assert page.js_errors == []


def test_a_game_against_the_computer_runs_to_the_end(browser, site, artifacts) -> None:
    page = new_page(browser, site)
    level = page.context.request.get(f"{site.url}/api/levels").json()[0]["key"]
    start_game(page, "standard", "computer", "B", level)
    assert "computer" in page.text_content("#counters")
    play_until_over([page], limit_seconds=180)
    result = page.text_content("#result")
    # the throws are fair and random: either side may win, and the player reads it in person
    assert "You won" in result or "You lost" in result, result
    movers = page.eval_on_selector_all(
        "#move-list li", "ls => ls.map(l => l.textContent.split(':')[0])"
    )
    assert {"spools", "cones"} <= set(movers)
    page.screenshot(path=str(artifacts / "computer-game-over.png"), full_page=True)


def test_language_switch_is_remembered(browser, site) -> None:
    page = new_page(browser, site)
    page.goto("/variants/bell")
    assert page.get_attribute("html", "lang") == "en"
    page.click(".lang-switch a[data-lang=ru]")
    page.wait_for_load_state()
    assert page.get_attribute("html", "lang") == "ru"
    assert page.url.endswith("/variants/bell")
    assert "Сенет по Беллу" in page.text_content("h1")
    assert "Перейти к содержимому" in page.text_content(".skip-link")
    page.goto("/")
    assert page.get_attribute("html", "lang") == "ru" and "Начать партию" in page.text_content(
        "body"
    )
    start_game(page, "standard", "local")
    page.wait_for_function("() => document.getElementById('status').textContent.includes('бросок')")
    page.click(".lang-switch a[data-lang=en]")
    page.wait_for_selector("#game[data-ply]")
    assert page.get_attribute("html", "lang") == "en"


def test_skip_link_and_variant_page(browser, site, artifacts) -> None:
    page = new_page(browser, site)
    page.goto("/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"
    page.screenshot(path=str(artifacts / "home.png"), full_page=True)
    page.goto("/variants/adelaida")
    rows = page.eval_on_selector_all(".diff-table tbody tr", "rs => rs.length")
    assert rows >= 5
    assert page.query_selector(".decisions dt") and page.query_selector("#hist-h")
    footer = page.text_content(".site-footer")
    assert re.search(r"v\d+\.\d+\.\d+ · [0-9a-f]{7,}|unknown", footer)
    page.screenshot(path=str(artifacts / "variant-adelaida.png"), full_page=True)
    page.click(".start-box button[type=submit]")
    page.wait_for_selector("#game[data-ply]")
    assert "adelaida" in page.get_attribute("#game", "data-fen")


def test_a_game_survives_a_server_restart(browser, own_site) -> None:
    host = new_page(browser, own_site)
    game_id = start_game(host, "standard", "friend", "A")
    guest = new_page(browser, own_site)
    guest.goto(host.input_value("#invite-url"))
    guest.wait_for_selector("#game[data-ply]")
    for page in (host, guest):
        wait_started(page)
    for _ in range(6):
        for page in (host, guest):
            if legal_buttons(page):
                click_move(page, best_move(legal_buttons(page)))
    before, fen = ply(host), host.get_attribute("#game", "data-fen")
    own_site.stop()
    host.wait_for_function("() => document.getElementById('game').dataset.connected === ''")
    own_site.start()
    for page in (host, guest):
        page.wait_for_function(
            "() => document.getElementById('game').dataset.connected === '1'", timeout=15_000
        )
        assert ply(page) == before and page.get_attribute("#game", "data-fen") == fen
    # both players continue
    progressed = 0
    for _ in range(4):
        for page in (host, guest):
            if legal_buttons(page):
                click_move(page, best_move(legal_buttons(page)))
                progressed += 1
    assert progressed >= 2 and ply(host) > before
    assert own_site.actions_count(game_id) >= ply(host)
