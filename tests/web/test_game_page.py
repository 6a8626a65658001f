"""The game page as a player meets it, in real Chromium against a real server: the rules link,
every way into a rematch, the invitation box, the phone layout, sideways scrolling, the seeds
folded away, forced passes, announcements and the rest of what a player sees."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from senet.engine import VARIANTS, find_variant

from .helpers import best_move, friend_game, play_out, state, wait_past
from .test_browser import (
    click_move,
    legal_buttons,
    new_page,
    play_until_over,
    start_game,
    wait_started,
)

pytestmark = pytest.mark.browser


def seat_context(browser, site, game_id: str, token: str, width: int = 1280, height: int = 900):
    """A browser page holding a seat (its cookie set as the invitation would set it)."""
    page = new_page(browser, site, width, height)
    page.context.add_cookies([{"name": f"senet_seat_{game_id}", "value": token, "url": site.url}])
    return page


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_rules_links_lead_to_the_rules_of_the_games_own_variant(browser, site, lang) -> None:
    page = new_page(browser, site)
    page.goto(f"/?lang={lang}")
    game_id = start_game(page, "adelaida", "local")
    assert page.get_attribute("#nav-rules", "href") == "/variants/adelaida"
    assert page.get_attribute("#game-rules", "href").startswith("/variants/adelaida")
    for where in (f"/g/{game_id}/verify",):
        page.goto(where)
        assert page.get_attribute("#nav-rules", "href") == "/variants/adelaida", where
    # a friend's invitation, before the seat is taken: the rules and the lessons of its variant
    invited = httpx.post(
        f"{site.url}/api/games", json={"variant": "kendall-1978", "mode": "friend", "colour": "A"}
    ).json()
    page.goto(invited["invite_url"].removeprefix(site.url))
    assert page.get_attribute("#join-rules", "href") == "/variants/kendall-1978#rules-h"
    assert page.get_attribute("#join-learn", "href") == "/learn/kendall-1978"
    assert page.get_attribute("#nav-rules", "href") == "/variants/kendall-1978"
    page.goto(f"/g/{game_id}")
    page.click("#game-rules")
    page.wait_for_url(re.compile(r"/variants/adelaida"))
    title = "Аделаида" if lang == "ru" else "Adelaida"
    assert title in page.text_content("h1")
    assert page.query_selector("#rules-h")
    page.goto("/")  # outside a game the header's rules are the standard game's
    assert page.get_attribute("#nav-rules", "href") == "/variants/standard"


def finished_game_pages(browser, site, variant: str = "kendall"):
    """A friend game played to the end through the API, and a page for each seat on it."""
    game = friend_game(site.url, variant)
    play_out(site.url, game)
    pages = [
        seat_context(browser, site, game.game_id, game.tokens[seat], *size)
        for seat, size in ((0, (1280, 900)), (1, (390, 844)))
    ]
    for page in pages:
        page.goto(f"/g/{game.game_id}")
        page.wait_for_selector("#over:not([hidden])")
    return game, pages


@pytest.mark.parametrize("way", ["link", "address"])
def test_every_way_into_a_rematch_gives_the_opponent_the_seat(browser, site, way) -> None:
    game, (a, b) = finished_game_pages(browser, site)
    a_side, b_side = a.text_content("#you"), b.text_content("#you")
    a.click("#rematch")
    a.wait_for_url(re.compile(rf"/g/(?!{re.escape(game.game_id)})"))
    new_id = a.url.rsplit("/", 1)[-1]
    a.wait_for_selector("#game[data-ply]")
    a.wait_for_selector("#invite:not([hidden])")  # the friend has not come yet
    assert "rematch" in a.text_content("#status")  # and is asked on the last game's page
    if way == "link":  # "Go to the rematch", not the button
        b.wait_for_selector("#rematch-link:not([hidden])")
        b.click("#rematch-link a")
    else:  # the address, typed or pasted from a message
        b.goto(f"/g/{new_id}")
    b.wait_for_url(re.compile(re.escape(new_id) + "$"))
    b.wait_for_selector("#game[data-ply]")
    for page in (a, b):
        wait_started(page)  # both seats gave their seeds: both are seated
    assert b.text_content("#you") == a_side and a.text_content("#you") == b_side
    assert "watching" not in b.text_content("#you")
    a.wait_for_selector("#invite", state="hidden")  # and the host waits for nobody
    # a stranger who follows the same link only watches
    stranger = new_page(browser, site)
    stranger.goto(f"/g/{new_id}")
    stranger.wait_for_selector("#game[data-ply]")
    assert "watching" in stranger.text_content("#you")
    # the keys are the players': a spectator is not told how to move with them
    assert stranger.locator(".keys-hint").count() == 0 and a.locator(".keys-hint").count() == 1
    assert a.js_errors == [] and b.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_result_speaks_to_each_player_and_of_them_to_a_spectator(browser, site, lang) -> None:
    # bell is scored in points: a resignation leaves no score to show ("(0:0)")
    game = friend_game(site.url, "bell")
    resigned = httpx.post(
        f"{site.url}/api/games/{game.game_id}/resign",
        json={},
        headers={"X-Seat-Token": game.tokens[0]},
    )
    assert resigned.status_code == 200
    words = {
        "en": ("You lost — you resigned", "You won — the first player resigned",
               "The second player won — the first player resigned"),
        "ru": ("Вы проиграли — вы сдались", "Вы победили", "Победил второй игрок"),
    }[lang]  # fmt: skip
    loser = seat_context(browser, site, game.game_id, game.tokens[0], 390, 844)
    winner = seat_context(browser, site, game.game_id, game.tokens[1], 360, 740)
    spectator = new_page(browser, site)
    for page, said in zip((loser, winner, spectator), words, strict=True):
        page.goto(f"/g/{game.game_id}?lang={lang}")
        page.wait_for_selector("#over:not([hidden])")
        result = page.text_content("#result")
        assert result.startswith(said), result
        assert "(" not in result and ":" not in result, result
        page.context.close()


def test_the_invitation_box_goes_away_when_the_friend_joins(browser, site) -> None:
    host = new_page(browser, site)
    game_id = start_game(host, "standard", "friend", "A")
    assert host.is_visible("#invite")
    host.wait_for_function(  # the state is drawn
        "() => document.getElementById('status').textContent.includes('Waiting for your friend')"
    )
    assert not host.is_visible("#resign")  # nobody to resign to yet
    guest = new_page(browser, site, 390, 844)
    guest.goto(host.input_value("#invite-url"))
    guest.wait_for_url(re.compile(re.escape(game_id) + "$"))
    host.wait_for_selector("#invite", state="hidden", timeout=10_000)  # no reload
    assert not guest.is_visible("#invite")
    host.wait_for_selector("#resign", state="visible")
    guest.click("#menu-toggle")  # a phone held upright: Resign waits in the title's menu
    guest.wait_for_selector("#game-menu #resign", state="visible")


#: What the throw row shows: its label, and each stick's (or the die's) classes.
THROW_ROW = """() => { const box = document.getElementById('sticks');
  return {label: box.getAttribute('aria-label'),
          parts: [...box.children].map((c) => c.className)}; }"""


@pytest.mark.parametrize(("variant", "lang"), [("standard", "en"), ("bell", "ru")])
def test_before_the_first_throw_the_sticks_lie_waiting_then_show_the_throw(
    browser, site, variant, lang
) -> None:
    host = new_page(browser, site, 390, 844)
    host.goto(f"/?lang={lang}")
    start_game(host, variant, "friend", "A")
    host.wait_for_function("() => document.getElementById('sticks').children.length > 0")
    waiting = host.evaluate(THROW_ROW)
    idle = ["die idle"] if variant == "bell" else ["stick idle"] * 4
    none_yet = "Бросок: пока не сделан" if lang == "ru" else "Throw: none yet"
    assert waiting == {"label": none_yet, "parts": idle}
    assert host.locator("#sticks").is_visible()
    guest = new_page(browser, site)
    guest.goto(host.input_value("#invite-url"))
    wait_started(host)
    host.wait_for_function("() => !document.querySelector('#sticks .idle')")
    thrown = host.evaluate(THROW_ROW)
    value = int(thrown["label"].rsplit(":", 1)[1])
    assert thrown["label"] == f"{'Бросок' if lang == 'ru' else 'Throw'}: {value}"
    if variant == "bell":  # Bell's long die shows its number
        assert thrown["parts"] == ["die"] and host.text_content("#sticks .die") == str(value)
    else:  # as many sticks marked side up as the throw counts, none for a 5
        marked = sum("marked" in c for c in thrown["parts"])
        assert len(thrown["parts"]) == 4 and marked == (0 if value == 5 else value)
    assert host.js_errors == [] and guest.js_errors == []  # type: ignore[attr-defined]


#: A stand-in for a phone's share sheet: it records what the page hands it.
SHARE_SHEET = """navigator.share = (data) => { (window.shared = window.shared || []).push(data);
  return Promise.resolve(); };"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_invitation_goes_to_the_phones_share_sheet_where_there_is_one(
    browser, site, artifacts, lang
) -> None:
    phone = new_page(browser, site, 360, 640)
    phone.context.add_init_script(SHARE_SHEET)
    phone.goto(f"/?lang={lang}")
    start_game(phone, "standard", "friend", "A")
    phone.wait_for_selector("#invite-share", state="visible")
    phone.screenshot(path=str(artifacts / f"invite-share-{lang}-360x640.png"))
    for part in ("#invite-url", "#invite .copy", "#invite-share"):
        box = phone.locator(part).bounding_box()
        assert (
            box is not None and box["x"] + box["width"] <= 360 and box["y"] + box["height"] <= 640
        )
    phone.click("#invite-share")
    phone.wait_for_function("() => (window.shared || []).length === 1")
    (shared,) = phone.evaluate("window.shared")
    assert shared["url"] == phone.input_value("#invite-url")
    assert shared["text"] and shared["title"]
    # a screen without a share sheet keeps the button hidden and copies the link instead
    desk = new_page(browser, site)
    start_game(desk, "standard", "friend", "A")
    desk.wait_for_selector("#invite .copy", state="visible")
    has_sheet = desk.evaluate("typeof navigator.share === 'function'")
    assert desk.is_visible("#invite-share") == has_sheet


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize(
    "size", [(360, 640), (390, 844), (1280, 900)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_the_link_to_send_is_in_view_as_the_friend_game_opens(
    browser, site, artifacts, size, lang
) -> None:
    # the first thing to do in a new friend game is to send the link: on a phone too it is in
    # view without scrolling, above the board
    width, height = size
    host = new_page(browser, site, width, height)
    host.goto(f"/?lang={lang}")
    start_game(host, "adelaida", "friend", "A")
    waiting = "Waiting for your friend" if lang == "en" else "Ждём, когда друг"
    host.wait_for_function(
        f"() => document.getElementById('status').textContent.includes({waiting!r})"
    )
    host.screenshot(path=str(artifacts / f"invite-{lang}-{width}x{height}.png"))
    assert host.evaluate("scrollY") == 0
    for part in ("#invite-url", "#invite .copy"):
        box = host.locator(part).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, part
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, part
    assert host.locator("#invite").bounding_box()["y"] < host.locator("#board").bounding_box()["y"]


#: A script's function listing the parts of the game (board, sticks, status, moves) that are
#: shown but not wholly in the viewport, each with its rectangle.
OUT_OF_VIEW = """const OUT_OF_VIEW = () => {
    const parts = {board: '#board', sticks: '#sticks', status: '#status', moves: '#moves'};
    const out = [];
    for (const [name, sel] of Object.entries(parts)) {
      const el = document.querySelector(sel);
      if (!el || el.hidden) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue;
      if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
        out.push(`${name} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
    }
    return out;
  };
"""

# Inside the page: play the game on this screen to the end (the move going furthest), and at
# every decision (also with a piece chosen on the board) note which of the board, the sticks,
# the status and the move buttons is not wholly inside the viewport.
PLAY_AND_MEASURE = """async (limit) => {
  /* OUT_OF_VIEW */
  const root = document.getElementById('game');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const key = (m) => {
    const step = /^(\\d+)[-x](\\d+|off)$/.exec(m);
    if (step) return 2000 + (step[2] === 'off' ? 31 : Number(step[2]));
    return (m === 'revive' || m === 'return') ? 1000 : 0;
  };
  const outside = [];
  const check = (when) => {
    for (const part of OUT_OF_VIEW()) outside.push(`${when} ${root.dataset.ply}: ${part}`);
  };
  let decisions = 0;
  const started = Date.now();
  while (root.dataset.over !== '1' && Date.now() - started < limit) {
    const buttons = [...document.querySelectorAll('#moves button[data-move]')];
    if (!buttons.length || root.classList.contains('waiting')) { await sleep(5); continue; }
    decisions++;
    check('decision');
    let best = buttons[0];
    for (const b of buttons) if (key(b.dataset.move) > key(best.dataset.move)) best = b;
    const step = /^(\\d+)[-x]/.exec(best.dataset.move);
    const piece = step && document.querySelector(`#board .piece.movable[data-square="${step[1]}"]`);
    if (piece) {
      piece.dispatchEvent(new MouseEvent('click', {bubbles: true}));
      await sleep(0);
      check('chosen');
      const target = document.querySelector(`#board .target[data-move="${best.dataset.move}"]`);
      if (target) { target.dispatchEvent(new MouseEvent('click', {bubbles: true})); }
      else best.click();
    } else best.click();
    while (root.classList.contains('waiting')) await sleep(2);
  }
  await sleep(50);
  check('end');
  const cell = document.querySelector('#board .square .cell').getBoundingClientRect();
  return {decisions, outside, over: root.dataset.over === '1',
          smallest: Math.min(cell.width, cell.height),
          upright: document.getElementById('board').classList.contains('upright'),
          scrollY: scrollY, scrollWidth: document.documentElement.scrollWidth};
}""".replace("/* OUT_OF_VIEW */", OUT_OF_VIEW)

PHONES = [(390, 844), (360, 740), (844, 390), (740, 360)]


@pytest.mark.parametrize("variant,lang", [("standard", "en"), ("adelaida", "ru")])
@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_on_a_phone_board_sticks_status_and_moves_are_in_view_at_every_decision(
    browser, site, artifacts, size, variant, lang
) -> None:
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=site.url,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"/?lang={lang}")
    start_game(page, variant, "local")
    page.wait_for_selector("#moves button[data-move]")
    page.screenshot(path=str(artifacts / f"phone-{variant}-{lang}-{width}x{height}.png"))
    seen = page.evaluate(PLAY_AND_MEASURE, 150_000)
    page.screenshot(path=str(artifacts / f"phone-{variant}-{lang}-{width}x{height}-over.png"))
    assert seen["over"], seen
    assert seen["decisions"] > 10
    assert seen["outside"] == [], seen["outside"][:10]
    assert seen["scrollWidth"] <= width
    assert not page.is_visible(".keys-hint")  # no keyboard on a touch phone
    if height > width:
        # upright: the board is drawn upright, its squares a finger's size, and the title's
        # menu holds who you are, the links, the sound and Resign
        assert seen["smallest"] >= 44, seen["smallest"]
        assert seen["upright"] and page.get_attribute("#menu-toggle", "aria-expanded") == "false"
        assert not page.is_visible("#game-rules")
        page.click("#menu-toggle")
        assert page.get_attribute("#menu-toggle", "aria-expanded") == "true"
        assert page.locator("#game-menu #resign").count() == 1
        assert page.locator("#game-menu #signals").count() == 1
    else:  # sideways, today's wide board
        assert not seen["upright"] and not page.is_visible("#menu-toggle")
        assert page.locator("#game-menu #resign").count() == 0
    # the links to the rules and the lessons: both on the screen, the dot between them right
    assert page.evaluate(DRAWN_DOTS)[0] == []
    for link in ("#game-rules", "#game-learn"):
        words = page.evaluate(
            """(link) => { const range = document.createRange();
            range.selectNodeContents(document.querySelector(link));
            const box = range.getBoundingClientRect(); return [box.left, box.right]; }""",
            link,
        )
        assert 0 <= words[0] < words[1] - 20 and words[1] <= width, (link, words)
    assert errors == []
    context.close()


WIDEST_DECISION = """() => {
  /* OUT_OF_VIEW */
  // a wide decision in the long words of the Russian page: twelve moves (each with its capture
  // mark), the status of an Adelaida turn while throws and skipped turns are owed, and an events
  // line that would wrap several times
  const moves = document.getElementById('moves');
  const first = moves.querySelector('button[data-move]');
  for (let i = 0; i < 11; i++) moves.appendChild(first.cloneNode(true));
  const lines = ['Ходят катушки, бросок 5.',
                 'катушки: впереди ещё 2 дополнительных броска.',
                 'конусы: ещё 2 хода будут пропущены.'];
  document.getElementById('status').replaceChildren(...lines.map((text) => {
    const p = document.createElement('p'); p.textContent = text; return p; }));
  document.querySelector('.events').textContent = 'конусы: фишка выведена с доски; '.repeat(6);
  const outside = OUT_OF_VIEW();
  const last = [...moves.querySelectorAll('button')].pop();
  const events = document.querySelector('.events');
  return {outside, scrolls: moves.scrollHeight > moves.clientHeight + 1,
          eventsWhole: getComputedStyle(events).textOverflow !== 'ellipsis'
            && getComputedStyle(events).whiteSpace !== 'nowrap' && events.scrollWidth <= events.clientWidth + 1,
          reachable: (last.scrollIntoView({block: 'nearest'}), last.getBoundingClientRect().bottom < innerHeight + 1)};
}""".replace("/* OUT_OF_VIEW */", OUT_OF_VIEW)


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_phone_keeps_the_widest_decision_in_view(browser, site, artifacts, size) -> None:
    # upright or sideways, the moves keep to a few rows and scroll within them (beside the
    # board); the events follow them, whole; board, sticks, status and moves stay in view
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, base_url=site.url, is_mobile=True,
        has_touch=True,
    )  # fmt: skip
    page = context.new_page()
    page.goto("/?lang=ru")
    start_game(page, "adelaida", "local")
    page.wait_for_selector("#moves button[data-move]")
    seen = page.evaluate(WIDEST_DECISION)
    page.screenshot(path=str(artifacts / f"phone-widest-{width}x{height}.png"))
    assert seen["outside"] == [], seen["outside"]
    assert seen["scrolls"] and seen["reachable"]
    assert seen["eventsWhole"]  # what just happened is never cut, even on a short phone
    assert page.evaluate("window.scrollY") == 0
    context.close()


@pytest.fixture(scope="module")
def site_pages(site) -> dict[str, str]:
    """Every kind of page of the site, by name: address (a finished game, a game waiting for
    the friend, its invitation, the review, the verification, a missing page)."""
    finished = friend_game(site.url, "standard")
    play_out(site.url, finished)
    waiting = httpx.post(
        f"{site.url}/api/games", json={"variant": "adelaida", "mode": "friend", "colour": "A"}
    ).json()
    pages = {"home": "/", "missing": "/no-such-page"}
    pages |= {f"variant-{name}": f"/variants/{name}" for name in VARIANTS}
    pages |= {
        "game-over": f"/g/{finished.game_id}",
        "review": f"/g/{finished.game_id}/review",
        "verify": f"/g/{finished.game_id}/verify",
        "join": waiting["invite_url"].removeprefix(site.url),
        "game-waiting": f"/g/{waiting['id']}",
    }
    return pages


def settled(page) -> None:
    """Until the page's scripts have drawn what they draw (the game's state, the verification)."""
    if page.query_selector("#game"):
        page.wait_for_selector("#game[data-ply]")
    if page.query_selector("#review-wait"):  # the review being judged: it opens when ready
        page.wait_for_selector("#review", timeout=120_000)
    if page.query_selector("#verify"):
        page.wait_for_selector("#verify .verify-summary:not(.pending)")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_page_scrolls_sideways_at_360_px(browser, site, site_pages, lang) -> None:
    page = new_page(browser, site, 360, 740)
    page.goto(f"/?lang={lang}")
    wide = {}
    for name, address in site_pages.items():
        page.goto(address)
        settled(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > page.evaluate("innerWidth"):
            wide[name] = width
    assert wide == {}
    page.goto("/variants/kendall")  # the difference table keeps its column headings
    labels = page.eval_on_selector_all(
        ".diff-table tbody td", "tds => tds.map(td => getComputedStyle(td, '::before').content)"
    )
    assert labels and all(label not in ("none", "normal", '""') for label in labels)


# Every visible "·" that begins a line (its left edge at the left edge of the content of the
# block its text flows in) or ends one (the next visible character of the page on a lower line):
# a separator stands between two things on one line, never at either end of it.
DOTS_AT_A_LINES_END = """() => {
  const found = [];
  const where = (node, text) => {
    let block = node.parentElement;
    while (getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
    return [block, `${block.tagName}.${block.className}: ${text.trim().slice(0, 50)}`];
  };
  const box = (node, i) => {
    const range = document.createRange();
    range.setStart(node, i);
    range.setEnd(node, i + 1);
    return range.getBoundingClientRect();
  };
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node);
  // the next visible character after position i of text node k, in document order
  const next = (k, i) => {
    for (; k < texts.length; k++, i = -1) {
      const data = texts[k].data;
      for (let j = i + 1; j < data.length; j++) {
        if (/\\s/.test(data[j])) continue;
        const r = box(texts[k], j);
        if (r.width) return r;
      }
    }
    return null;
  };
  texts.forEach((node, k) => {
    for (let i = node.data.indexOf('·'); i >= 0; i = node.data.indexOf('·', i + 1)) {
      const dot = box(node, i);
      if (!dot.width) continue;
      const [block, name] = where(node, node.data);
      const style = getComputedStyle(block);
      const left = block.getBoundingClientRect().left + parseFloat(style.borderLeftWidth)
        + parseFloat(style.paddingLeft);
      if (dot.left - left < 2) found.push(`begins a line: ${name}`);
      const after = next(k, i);
      if (after && after.top >= dot.bottom) found.push(`ends a line: ${name}`);
    }
  });
  return found;
}"""


# The dots that the style draws between the items of a ".dots" list: each leads its item; where
# the item begins a line its dot must be cut off (not there to the eye nor to a tap), else seen.
# Returns every item where that does not hold (and any drawn without a dot, and a list in a block
# whose words do not begin where the block's text does), and how many items
# after a list's first began a line and how many went on one.
DRAWN_DOTS = """() => {
  const found = [], seen = {wrapped: 0, joined: 0};
  for (const list of document.querySelectorAll('.dots')) {
    const items = [...list.children].filter((c) => c.getClientRects().length);
    const parent = list.parentElement, style = getComputedStyle(parent);
    // a list that is a block of its own inside a block: its first item's words where the text is
    if (items.length && style.display === 'block' && getComputedStyle(list).display === 'flex') {
      const start = items[0].getBoundingClientRect().left
        + parseFloat(getComputedStyle(items[0], '::before').width);
      const left = parent.getBoundingClientRect().left + parseFloat(style.borderLeftWidth)
        + parseFloat(style.paddingLeft);
      if (Math.abs(start - left) > 1) found.push(`indented by ${start - left} px: ${list.className}`);
    }
    items.forEach((item, k) => {
      item.scrollIntoView({block: 'center'});
      const box = item.getBoundingClientRect();
      const dot = getComputedStyle(item, '::before');
      const name = `${list.className} #${k}: ${item.textContent.trim().slice(0, 40)}`;
      if (!dot.content.includes('·')) { found.push(`no dot: ${name}`); return; }
      const previous = k ? items[k - 1].getBoundingClientRect() : null;
      const begins = !previous || box.left < previous.right - 1;
      const line = parseFloat(getComputedStyle(item).lineHeight) || 20;
      const hit = document.elementFromPoint(
        box.left + parseFloat(dot.width) / 2, box.top + Math.min(box.height, line) / 2);
      const shown = hit !== null && item.contains(hit);
      if (begins === shown) found.push(`${begins ? 'begins a line, dot seen' : 'dot cut off'}: ${name}`);
      if (k) seen[begins ? 'wrapped' : 'joined'] += 1;
    });
  }
  return [found, seen.wrapped, seen.joined];
}"""


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_text_of_a_drawing_is_cut_short_and_every_house_is_named_whole(
    browser, site, site_pages, lang
) -> None:
    # a House's name written on its square was cut ("House of Beau…"): the square has its
    # symbol, and a key under a diagram names each House shown, whole
    page = new_page(browser, site, 360, 740, touch=True)
    page.goto(f"/?lang={lang}")
    more = {"learn": "/learn/adelaida", "analysis": "/analysis?variant=adelaida"}
    cut, keys = {}, 0
    for name, address in (site_pages | more).items():
        page.goto(address)
        settled(page)
        texts = page.eval_on_selector_all("svg text", "ts => ts.map((t) => t.textContent)")
        if short := [text for text in texts if text.rstrip().endswith(("…", "..."))]:
            cut[name] = short
        keys += page.locator(".house-key li").count()
    assert cut == {}
    assert keys > 0
    page.goto(f"/variants/adelaida?lang={lang}")
    names = page.eval_on_selector_all(
        ".house-key li", "ls => ls.map((l) => l.lastChild.textContent.trim())"
    )
    houses = find_variant("adelaida").houses
    assert set(names) == {f"{sq}: {house.name(lang)}" for sq, house in houses.items()}
    page.context.close()


#: Lines of the items of dotted lists whose first letter falls in the cut strip on the left.
CUT_LETTERS = """() => {
  const cut = [];
  for (const list of document.querySelectorAll('.dots')) {
    const edge = list.getBoundingClientRect().left + parseFloat(getComputedStyle(list).fontSize) - 3;
    for (const item of list.children) {
      const range = document.createRange();
      range.selectNodeContents(item);
      for (const line of range.getClientRects())
        if (line.width > 1 && line.left < edge - 0.5) cut.push(`${item.textContent.trim()} at ${line.left}`);
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("width", [320, 360, 390])
def test_a_link_that_wraps_keeps_the_first_letter_of_every_line(browser, site, width) -> None:
    # the Russian home page's "Освойте его за несколько уроков" wraps on a phone: its second
    # line hangs clear of the strip where a line's leading dot is cut off
    page = new_page(browser, site, width, 740)
    for lang in ("ru", "en"):
        page.goto(f"/?lang={lang}")
        assert page.evaluate(CUT_LETTERS) == [], (lang, width)
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_line_begins_or_ends_with_a_separator_dot_at_360_px(
    browser, site, site_pages, lang
) -> None:
    page = new_page(browser, site, 360, 740)
    page.goto(f"/?lang={lang}")
    start_game(page, "kendall", "computer")  # something in my games and among games to watch
    more = {"mine": "/games/mine", "watch": "/games/live", "learn": "/learn/kendall"}
    found, wrapped, joined = {}, 0, 0
    for name, address in (site_pages | more).items():
        page.goto(address)
        settled(page)
        drawn, wraps, joins = page.evaluate(DRAWN_DOTS)
        wrapped, joined = wrapped + wraps, joined + joins
        if dots := page.evaluate(DOTS_AT_A_LINES_END) + drawn:
            found[name] = dots
    assert found == {}
    assert (
        wrapped and joined
    )  # both kinds of drawn dot were met: lists that wrap, items side by side


@pytest.mark.parametrize("width", [390, 360, 320])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_on_a_phone_the_header_takes_two_lines(browser, site, lang, width) -> None:
    """The brand, the way to a player name and the languages on the first line, all five links
    on the second: the Russian links are the longer, and a third line would push the board
    down."""
    page = new_page(browser, site, width, 740, touch=True)
    page.goto(f"/?lang={lang}")
    lines = page.evaluate(
        """() => {
        const top = e => Math.round(e.getBoundingClientRect().top);
        const bottom = e => Math.round(e.getBoundingClientRect().bottom);
        const links = [...document.querySelectorAll('.site-header nav a')];
        const brand = document.querySelector('.brand');
        const player = document.querySelector('#nav-player');
        const langs = document.querySelector('.lang-switch');
        return [new Set(links.map(top)).size, links.length, top(brand) < top(links[0]),
                bottom(player) <= top(links[0]) && bottom(langs) <= top(links[0]),
                player.getBoundingClientRect().right <= document.documentElement.clientWidth];
    }"""
    )
    assert lines == [1, 5, True, True, True]
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_on_a_360_px_phone_the_game_mode_stays_on_one_line(browser, site, lang) -> None:
    """The variant's name and, after it, the kind of game ("against the computer"): where
    both do not fit one line the kind moves down whole instead of breaking in two."""
    page = new_page(browser, site, 360, 740)
    page.goto(f"/?lang={lang}")
    start_game(page, "kendall", "computer", "A")
    small = page.evaluate(
        """() => { const s = document.querySelector('.game-head h1 small.mode');
        return [s.getClientRects().length, s.textContent]; }"""
    )
    assert small[0] == 1, small
    assert small[1] == ("against the computer" if lang == "en" else "против компьютера")
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_seeds_fold_away_while_the_creator_waits_for_the_friend(browser, site, lang) -> None:
    host = new_page(browser, site)
    host.goto(f"/?lang={lang}")
    assert not host.is_visible("#seed-home")  # under the "advanced" fold of the start form
    assert host.is_visible(".start-form details.advanced > summary")
    game_id = start_game(host, "standard", "friend", "A")
    waiting = "Waiting for your friend to open the link" if lang == "en" else "Ждём, когда друг"
    host.wait_for_function(
        f"() => document.getElementById('status').textContent.includes({waiting!r})"
    )
    assert "seed" not in host.text_content("#status").lower()
    assert "зерн" not in host.text_content("#status").lower()
    # the fairness box is there, folded, below the players and the moves
    assert host.get_attribute("#fair", "open") is None
    assert not host.is_visible("#fair-seeds")
    fair = host.locator("#fair").bounding_box()
    for above in ("#counters", "#move-list"):
        assert host.locator(above).bounding_box()["y"] < fair["y"], above
    host.click("#fair > summary")
    assert host.is_visible("#fair-commitment")
    guest = new_page(browser, site, 390, 844)
    guest.goto(host.input_value("#invite-url"))
    assert not guest.is_visible("#seed-join")
    guest.wait_for_url(re.compile(re.escape(game_id) + "$"))
    for page in (host, guest):
        wait_started(page)  # both seeds were given without anyone asking


def test_a_form_posted_from_this_site_with_a_null_origin_is_not_refused() -> None:
    """Chromium says ``Origin: null`` for the site's own forms (the pages send no referrer):
    Sec-Fetch-Site tells the site's own form from a sandboxed frame of another site."""
    from senet.web.security import forgery_refusal

    def scope(site: str) -> dict:
        headers = [(b"origin", b"null"), (b"sec-fetch-site", site.encode())]
        return {"method": "POST", "path": "/games", "headers": headers}

    assert forgery_refusal(scope("same-origin")) is None
    assert forgery_refusal(scope("cross-site"))[0] == 403


WATCH_EVENTS = """() => {
  window.__events = [];
  window.__walks = [];
  const box = document.getElementById('events'), root = document.getElementById('game');
  new MutationObserver(() => { if (box.textContent) window.__events.push(box.textContent); })
    .observe(box, {childList: true, characterData: true, subtree: true});
  new MutationObserver(() => window.__walks.push(root.dataset.walked || ''))
    .observe(root, {attributes: true, attributeFilter: ['data-walked']});
  return Number(root.dataset.ply);
}"""


def expected_events(history: list[dict]) -> dict[str, int]:
    """How many of each announced event the actions of ``history`` hold."""
    counts = {"swapped back": 0, "bore a piece off": 0, "earned an extra throw": 0}
    for i, entry in enumerate(history):
        if entry["kind"] != "move":
            continue
        counts["swapped back"] += "x" in entry["text"]
        counts["bore a piece off"] += bool(entry["off"])
        after = history[i + 1] if i + 1 < len(history) else None
        if entry["skipped"] is None and after and after["kind"] == "throw":
            counts["earned an extra throw"] += after["seat"] == entry["seat"] and not after["fate"]
    return counts


def test_events_are_announced_and_pieces_walk_along_the_track(browser, site) -> None:
    page = new_page(browser, site)
    game_id = start_game(page, "standard", "local")
    page.wait_for_selector("#moves button[data-move]")
    start = page.evaluate(WATCH_EVENTS)
    play_until_over([page])
    history = httpx.get(f"{site.url}/api/games/{game_id}").json()["history"][start:]
    expected = expected_events(history)
    assert expected["earned an extra throw"] and expected["bore a piece off"]
    lines = [line for text in page.evaluate("window.__events") for line in text.split(" · ")]
    seen = {key: sum(key in line for line in lines) for key in expected}
    assert seen == expected
    walks = [w for w in page.evaluate("window.__walks") if w]
    assert walks, "no move was walked on the board"
    for walk in walks:  # square by square, in order
        squares = [int(sq) for sq in walk.split()]
        steps = {b - a for a, b in zip(squares, squares[1:])}
        assert steps <= {1, -1}, walk  # (30 -> 31 is bearing off)
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_jequier_capture_names_the_square_the_piece_was_sent_to(browser, site, artifacts) -> None:
    """jequier: capture: the attacked piece goes back to the free square furthest from the
    end, not to the capturer's old square: the events line names the square the game's history
    records (the first capture whose piece is not simply swapped)."""
    page = new_page(browser, site)
    game_id = start_game(page, "jequier", "local")
    for _ in range(400):
        page.wait_for_selector("#moves button[data-move]")
        legal = legal_buttons(page)
        captures = [m for m in legal if "x" in m]
        move = captures[0] if captures else best_move(legal)
        click_move(page, move)
        if not captures:
            continue
        history = httpx.get(f"{site.url}/api/games/{game_id}").json()["history"]
        entry = next(e for e in reversed(history) if e["kind"] == "move")
        assert entry["text"] == move
        if entry["sent"] != entry["origin"]:
            break
    else:
        pytest.fail("no capture sent a piece elsewhere than the capturer's square in 400 moves")
    origin, target = move.split("x")
    line = f"{origin} → {target}, the "
    events = page.text_content("#events") or ""
    page.screenshot(path=str(artifacts / "jequier-capture-event.png"))
    assert f"{line}" in events and f"piece sent to {entry['sent']}" in events, events
    assert "swapped back" not in events
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_the_note_of_what_happened_is_cleared_by_the_players_next_move(browser, site) -> None:
    """The events note says what happened since the player last moved: a move of theirs clears
    it (what that move and the answer bring write it again), so no old swap lingers for turns."""
    page = new_page(browser, site, 390, 844)
    start_game(page, "standard", "local")
    for _ in range(200):  # until something is announced, with a move to play after it
        page.wait_for_selector("#moves button[data-move]")
        if page.text_content("#events"):
            break
        before = page.get_attribute("#game", "data-ply")
        page.click("#moves button[data-move] >> nth=0")
        page.wait_for_function(f"() => document.getElementById('game').dataset.ply !== '{before}'")
    else:
        pytest.fail("nothing was announced in 200 moves")
    # the click and the read in one task: no answer from the server can come between them
    after_click = page.evaluate(
        """() => {
          document.querySelector('#moves button[data-move]').click();
          return document.getElementById('events').textContent;
        }"""
    )
    assert after_click == ""
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_no_piece_walks_under_reduced_motion(browser, site) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, base_url=site.url, reduced_motion="reduce"
    )
    page = context.new_page()
    start_game(page, "standard", "local")
    page.wait_for_selector("#moves button[data-move]")
    page.evaluate(WATCH_EVENTS)
    play_until_over([page])
    assert page.evaluate("window.__events")  # the lines are still there
    assert all(w == "" for w in page.evaluate("window.__walks"))
    assert page.evaluate("document.getAnimations().length") == 0
    context.close()


AXE = Path(__file__).parent / "vendor" / "axe.min.js"  # axe-core 4.10.2 (MPL-2.0), tests only
AXE_PAGES = ("home", "variant-adelaida", "game-waiting", "game-over", "review", "verify", "join")


def axe_violations(page, impacts=("serious", "critical")) -> list[str]:
    """axe-core's findings of the given impacts on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in impacts
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_axe_finds_no_serious_violation(browser, site, site_pages, lang, scheme) -> None:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900},
        base_url=site.url,
        bypass_csp=True,  # axe is evaluated into the page; the site itself is unchanged
        color_scheme=scheme,
    )
    page = context.new_page()
    page.goto(f"/?lang={lang}")
    found = {}
    for name in AXE_PAGES:
        page.goto(site_pages[name])
        settled(page)
        violations = axe_violations(page)
        if violations:
            found[name] = violations
    context.close()
    assert not found, "\n".join(f"{name}: {v}" for name, vs in found.items() for v in vs)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_without_javascript_the_game_page_says_why_it_is_empty(browser, site, lang) -> None:
    context = browser.new_context(base_url=site.url, java_script_enabled=False)
    page = context.new_page()
    created = httpx.post(f"{site.url}/api/games", json={"variant": "kendall", "mode": "friend"})
    page.goto(f"/g/{created.json()['id']}?lang={lang}")
    notice = page.locator(".noscript")
    assert notice.is_visible()
    assert ("JavaScript" in notice.text_content()) and page.locator(".noscript a").count() == 2
    context.close()


def test_dark_mode_darkens_the_page(browser, site) -> None:
    def luminance(rgb: str) -> float:
        r, g, b = (int(x) for x in re.findall(r"\d+", rgb)[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    shades = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(base_url=site.url, color_scheme=scheme)
        page = context.new_page()
        start_game(page, "standard", "local")
        shades[scheme] = page.evaluate(
            """() => ['html', '#status', '.panel section'].map(
                s => getComputedStyle(document.querySelector(s)).backgroundColor)"""
        ) + [page.evaluate("getComputedStyle(document.body).color")]
        context.close()
    *light_backgrounds, light_ink = shades["light"]
    *dark_backgrounds, dark_ink = shades["dark"]
    assert all(luminance(bg) < 60 for bg in dark_backgrounds), dark_backgrounds
    assert all(luminance(bg) > 200 for bg in light_backgrounds), light_backgrounds
    assert luminance(dark_ink) > 180 > luminance(light_ink)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_squares_have_full_names_and_focus_stays_in_the_game_after_a_move(
    browser, site, lang
) -> None:
    page = new_page(browser, site)
    page.goto(f"/?lang={lang}")
    start_game(page, "kendall", "local")
    page.wait_for_selector("#board .piece.movable")
    houses = {
        int(sq): house["name"]
        for sq, house in json.loads(page.get_attribute("#game", "data-variant"))["houses"].items()
    }
    names = page.eval_on_selector_all(
        "#board .square",
        "gs => gs.map(g => [Number(g.dataset.square), g.getAttribute('aria-label')])",
    )
    assert len(names) == 30
    empty = "empty" if lang == "en" else "пусто"
    for square, name in names:
        assert name.startswith(f"{square}, "), name
        if square in houses:
            assert houses[square] in name and "…" not in name, name
        occupied = page.query_selector(f"#board .piece[data-square='{square}']")
        assert name.endswith(empty) != bool(occupied), name
    for _ in range(3):  # keyboard moves: the focus never falls back to the page's body
        page.focus("#board .piece.movable")
        before = page.get_attribute("#game", "data-ply")
        page.keyboard.press("Enter")
        page.wait_for_selector("#board .target")
        page.keyboard.press("Enter")
        page.wait_for_function(f"() => document.getElementById('game').dataset.ply !== '{before}'")
        page.wait_for_selector("#board .piece.movable")
        inside = page.evaluate(
            "document.activeElement !== document.body && "
            "document.getElementById('game').contains(document.activeElement)"
        )
        assert inside, page.evaluate("document.activeElement.outerHTML.slice(0, 80)")
    assert page.js_errors == []  # type: ignore[attr-defined]


# The tab in the background, and a Notification that records what it is asked to show.
BACKGROUND_TAB = """
Object.defineProperty(Document.prototype, 'hidden', {get() { return true; }});
window.__notes = [];
window.Notification = class { constructor(title, options) { window.__notes.push([title, options.body]); }
  static get permission() { return 'granted'; } static requestPermission() { return Promise.resolve('granted'); } };
"""


def test_a_background_tab_shows_and_tells_that_it_is_your_turn(browser, site) -> None:
    page = new_page(browser, site)
    page.context.add_init_script(BACKGROUND_TAB)
    level = page.context.request.get(f"{site.url}/api/levels").json()[0]["key"]
    start_game(page, "standard", "computer", "A", level)
    assert page.is_visible("#sound") and page.get_attribute("#sound", "aria-pressed") == "false"
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    for _ in range(60):  # play until the computer has moved and the turn came back
        if int(page.get_attribute("#game", "data-signals") or 0) >= 1:
            break
        buttons = page.eval_on_selector_all("#moves button[data-move]", "bs => bs.length")
        if buttons and "waiting" not in (page.get_attribute("#game", "class") or ""):
            before = page.get_attribute("#game", "data-ply")
            page.click("#moves button[data-move]")
            page.wait_for_function(
                f"() => document.getElementById('game').dataset.ply !== '{before}'"
            )
        else:
            page.wait_for_timeout(50)
    assert int(page.get_attribute("#game", "data-signals") or 0) >= 1
    page.wait_for_selector("#moves button[data-move]")
    assert page.title().startswith("● Your move")
    notes = page.evaluate("window.__notes")
    assert notes and notes[0][0] == "Your move"
    page.reload()  # the sound choice is remembered on this device
    page.wait_for_selector("#game[data-ply]")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_houses_show_their_symbol_and_their_name_and_meaning_one_tap_away(
    browser, site, lang
) -> None:
    page = new_page(browser, site, 390, 844)
    page.goto(f"/?lang={lang}")
    start_game(page, "adelaida", "local")
    houses = json.loads(page.get_attribute("#game", "data-variant"))["houses"]
    assert len(houses) == 8
    assert page.query_selector_all("#board .house-name") == []  # no names cut on the squares
    for sq, house in houses.items():
        square = f"#board .square[data-square='{sq}']"
        assert page.query_selector(f"{square} .glyph, {square} .house-symbol"), sq
        title = page.text_content(f"{square} title")
        assert house["name"] in title and house["meaning"] and house["meaning"] in title
        legend = page.text_content(f"#house-legend li[data-square='{sq}']")
        assert house["name"] in legend and house["meaning"] in legend  # adelaida: none shared
        assert page.query_selector(f"#house-legend li[data-square='{sq}'] svg")
    page.click("#board .square[data-square='27'] .cell")  # a tap on the House of Water
    info = page.locator("#house-info")
    info.wait_for()
    assert houses["27"]["name"] in info.text_content()
    assert houses["27"]["meaning"] in info.text_content()
    if lang == "ru":
        assert re.search("[а-я]", houses["27"]["meaning"])
    page.click("#board .square[data-square='27'] .cell")  # a second tap closes it
    info.wait_for(state="hidden")
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_houses_legend_says_a_shared_rule_once(browser, site, lang) -> None:
    """standard: 27-30 are all safe, and 27, 29 and 30 share the bearing-off rule; the legend
    says each once under the four Houses, while a tap on a House still tells all of its rules."""
    page = new_page(browser, site, 390, 844, touch=True)
    page.goto(f"/?lang={lang}")
    start_game(page, "standard", "local")
    houses = json.loads(page.get_attribute("#game", "data-variant"))["houses"]
    shared = page.locator("#house-legend .house-shared").all_text_contents()
    assert len(shared) == 2
    legend = page.text_content("#house-legend")
    for rule in shared:
        assert legend.count(rule) == 1
        assert all(rule in houses[sq]["meaning"] for sq in ("27", "29", "30"))
    assert (
        page.text_content("#house-legend li[data-square='27']")
        .strip()
        .endswith(houses["27"]["name"])
    )  # nothing of its own: its rules are the shared ones
    page.tap("#board .square[data-square='29'] .cell")
    info = page.locator("#house-info")
    info.wait_for()
    assert all(rule in info.text_content() for rule in shared)
    assert page.js_errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_static_files_have_versioned_urls_cached_for_a_year_and_responses_are_compressed(
    site,
) -> None:
    home = httpx.get(f"{site.url}/", headers={"Accept-Encoding": "gzip"})
    assert home.headers.get("content-encoding") == "gzip"
    styles = re.findall(r'href="(/static/v/[0-9a-f]{12}/site\.css)"', home.text)
    assert styles, "the stylesheet has a versioned address"
    css = httpx.get(site.url + styles[0], headers={"Accept-Encoding": "gzip"})
    assert css.status_code == 200 and "immutable" in css.headers["cache-control"]
    assert "max-age=31536000" in css.headers["cache-control"]
    assert css.headers.get("content-encoding") == "gzip"
    assert int(css.headers["content-length"]) < len(css.content) / 2  # (decoded here)
    plain = httpx.get(f"{site.url}/static/site.css")
    assert plain.headers["cache-control"] == "no-cache" and plain.text == css.text


def test_the_game_page_loads_its_modules_from_versioned_addresses(browser, site) -> None:
    page = new_page(browser, site)
    scripts: list[str] = []
    page.on("request", lambda r: scripts.append(r.url) if r.url.endswith(".js") else None)
    start_game(page, "standard", "local")
    assert any("/static/v/" in url and url.endswith("/board.js") for url in scripts), scripts
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["adelaida", "piccione"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_players_table_stays_inside_its_card_on_a_desktop(browser, site, lang, variant):
    """The side panel is narrow beside the board (about 290 px at a 1000 px window): the
    table of pieces on the board, borne off, drowned or in hand (four columns here, long
    words in Russian) wraps its names instead of running past its card."""
    page = new_page(browser, site, 1000, 800)
    page.goto(f"/?lang={lang}")
    start_game(page, variant, "computer", "A")
    for width in (1000, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        overflow = page.evaluate(
            """() => {
            const table = document.getElementById('counters');
            const card = table.parentElement.getBoundingClientRect();
            const pad = parseFloat(getComputedStyle(table.parentElement).paddingRight);
            return [table.rows[0].cells.length,
                    table.getBoundingClientRect().right - (card.right - pad)];
        }"""
        )
        assert overflow[0] == 4 and overflow[1] <= 1, (width, overflow)
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_status_throw_and_events_lines_begin_with_a_capital(browser, site, lang):
    """Many texts begin with a seat's name, kept in lower case to fit inside sentences
    ("first player to move with 2."): shown alone as a line, it begins with a capital."""
    page = new_page(browser, site, 390, 844, touch=True)
    page.goto(f"/?lang={lang}")
    start_game(page, "bell", "local")
    page.wait_for_selector("#moves button")
    lines = page.evaluate(
        """() => [...document.querySelectorAll('#status p'), document.getElementById('throw-text'),
                  document.getElementById('events')].map(e => e.textContent).filter(Boolean)"""
    )
    seat = "player" if lang == "en" else "игрок"
    assert len(lines) >= 2 and all(seat in line.lower() for line in lines[:2]), lines
    assert all(line[0] == line[0].upper() and line[0].isalpha() for line in lines), lines
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_with_several_throws_banked_the_status_names_them_all_not_one(browser, site, lang) -> None:
    """kendall-1978 banks every throw of a turn before a move, and any of them may be played
    first: the status names them all, for the mover and for the one who waits (the legal moves
    use either, so "you threw 1" would contradict a button that moves by 2)."""
    game = friend_game(site.url, "kendall-1978", seeds=("banked A", "banked B"))
    for _ in range(400):  # until the decider holds two different throws
        seen = state(site.url, game.game_id)
        if seen["forced_pass"]:
            wait_past(site.url, game.game_id, seen["ply"])
            continue
        if len(set(seen["throws"])) > 1 and seen["decider"] is not None:
            break
        play_out(site.url, game, moves=1)
    else:
        pytest.fail("no turn banked two different throws in 400 moves")
    throws = ", ".join(str(n) for n in seen["throws"])
    mover = seen["decider"]
    words = {
        "en": ("Your move: throws ", "Waiting for the "),
        "ru": ("Ваш ход: броски ", "Ждём ход: "),
    }[lang]
    for seat, opening in ((mover, words[0]), (1 - mover, words[1])):
        page = seat_context(browser, site, game.game_id, game.tokens[seat], 390, 844)
        page.goto(f"/g/{game.game_id}?lang={lang}")
        page.wait_for_selector("#status p")
        first = page.text_content("#status p") or ""
        assert first.startswith(opening) and throws in first, first
        if seat == mover:  # the moves offered use both throws
            labels = page.locator("#moves button[data-move]").all_inner_texts()
            pairs = (re.match(r"(\d+) → (\d+)", label) for label in labels)
            steps = {abs(int(m[2]) - int(m[1])) for m in pairs if m}
            assert len(steps) > 1, labels
        assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_long_variant_page_folds_on_a_phone_with_the_rules_open(browser, site, lang) -> None:
    phone = new_page(browser, site, 390, 844, touch=True)
    desktop = new_page(browser, site, 1280, 800)
    for name in ("bell", "adelaida"):
        phone.goto(f"/variants/{name}?lang={lang}")
        folded = phone.locator("details.fold")
        assert folded.count() >= 4 and phone.locator("details.fold[open]").count() == 0
        assert phone.is_visible("#rules-h") and phone.is_visible(".clauses li")
        assert phone.is_visible("#diff-h") and not phone.is_visible(".diff-table")
        # a link of the table of contents opens the section it leads to
        phone.click("#page-toc a[href='#diff-h']")
        phone.wait_for_selector(".diff-table", state="visible")
        assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
        desktop.goto(f"/variants/{name}?lang={lang}")
        assert desktop.locator("details.fold").count() == 0 and desktop.is_visible(".diff-table")
    for page in (phone, desktop):
        assert not page.js_errors  # type: ignore[attr-defined]
        page.context.close()
