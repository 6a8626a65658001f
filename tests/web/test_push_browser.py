"""Notifications in a real Chromium, both languages: the permission is never asked on loading a
page, only after a click; the name page turns notifications on (the service worker registered
at the site's root, the browser subscribed with the server's key, the subscription stored in
the page's language) and off (the server forgets it); a push message delivered through
Chromium's DevTools protocol (``ServiceWorker.deliverPushMessage``) makes the service worker
show the notification with its words and the page a click opens.

Headless Chromium has no push service to subscribe with (it answers "permission denied" with
no network), so the page's ``PushManager.subscribe`` is replaced by one that returns the test
push service's device (its endpoint and keys): everything else — the permission, the
service worker, the server's key, the API, the stored subscription — is real."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import Any

import pytest

from senet.service.push import Notice, NoticeKind
from senet.web.routes.push import notice_text
from senet_testkit.push_receiver import Device, PushReceiver, unb64url

from .conftest import SiteServer
from .helpers import state
from .test_browser import click_move, legal_buttons
from .test_turn_based_browser import start_turn_based

pytestmark = pytest.mark.browser

#: Stands in for the browser's push service (none in headless Chromium): a subscription to the
#: test's device, kept on the device (localStorage) like a real one; counts permission asks.
FAKE_PUSH_SERVICE = """
(() => {
  const device = %s;
  window.__permissionAsked = 0;
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => { window.__permissionAsked += 1; return ask(...args); };
  const made = (options) => ({
    endpoint: device.endpoint, options,
    toJSON: () => ({ endpoint: device.endpoint, expirationTime: null, keys: device.keys }),
    unsubscribe: async () => { localStorage.removeItem("fake-push"); return true; },
  });
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem("fake-push") ? made(null) : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    localStorage.setItem("fake-push", JSON.stringify(Array.from(new Uint8Array(options.applicationServerKey))));
    return made(options);
  };
})();
"""

#: The notification permission of a browser that has not asked its person yet.
NOT_YET_ASKED = "Object.defineProperty(Notification, 'permission', { get: () => 'default' });"


def device_page(browser, site: SiteServer, device: Device, lang: str, granted: bool = True):
    """A page on a device of its own with the fake push service; ``granted``: the browser's
    notification permission already given (else not yet asked: "default")."""
    context = browser.new_context(
        base_url=site.url,
        locale="ru-RU" if lang == "ru" else "en-US",
        extra_http_headers={"Accept-Language": lang},
        permissions=["notifications"] if granted else [],
    )
    if not granted:  # headless Chromium answers "denied" where a person's browser would ask
        context.add_init_script(NOT_YET_ASKED)
    context.add_init_script(FAKE_PUSH_SERVICE % json.dumps(device.subscription()))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.js_errors = errors  # type: ignore[attr-defined]
    page.frames_log = []  # type: ignore[attr-defined]
    return page


def take_name(page, name: str) -> None:
    page.goto("/name")
    page.fill("#name", name)
    page.click("#take-name")
    page.wait_for_selector("#my-profile")


def stored(site: SiteServer) -> dict[str, str]:
    with sqlite3.connect(site.db) as conn:
        return dict(conn.execute("SELECT endpoint, lang FROM push_subscriptions").fetchall())


def registration_id(page, site: SiteServer) -> str:
    """The service worker registration of the site's root scope, as DevTools numbers it."""
    cdp = page.context.new_cdp_session(page)
    found: list[str] = []

    def updated(event: dict) -> None:
        for r in event["registrations"]:
            if r["scopeURL"] == f"{site.url}/" and not r["isDeleted"]:
                found.append(r["registrationId"])

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")
    for _ in range(200):  # the event arrives while Playwright talks to the browser
        if found:
            break
        page.wait_for_timeout(50)
    assert found, "no service worker registered for the site's root"
    page.cdp = cdp  # type: ignore[attr-defined]
    return found[0]


NOTIFICATIONS = """async () => (await (await navigator.serviceWorker.ready).getNotifications())
    .map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }))"""


def deliver(page, site: SiteServer, payload: bytes, tag: str) -> list[dict]:
    """Deliver ``payload`` as a push message to the page's service worker; the notifications
    it shows then with ``tag`` (title, body, tag, the page a click opens).

    Headless Chromium starved of CPU sometimes loses a shown notification from its store: the
    worker's ``showNotification`` resolves, yet ``getNotifications`` never lists it. The push is
    then delivered again, at most three times in all; what the worker shows is still checked."""
    registration = registration_id(page, site)
    page.evaluate(
        "async () => { for (const n of await (await navigator.serviceWorker.ready).getNotifications()) n.close(); }"
    )
    until(page, f"(await ({NOTIFICATIONS})()).length === 0")
    for _ in range(3):
        page.cdp.send(  # type: ignore[attr-defined]
            "ServiceWorker.deliverPushMessage",
            {"origin": site.url, "registrationId": registration, "data": payload.decode()},
        )
        shown: list[dict] | None = until(
            page,
            f"(await ({NOTIFICATIONS})()).filter((n) => n.tag === {json.dumps(tag)})",
            seconds=10,
            required=False,
        )
        if shown:
            return shown
    raise AssertionError(f"no notification tagged {tag!r} after three deliveries")


def until(page, expression: str, seconds: float = 30, required: bool = True) -> Any:
    """The value of an async ``expression`` in the page once it is truthy (a non-empty list):
    asked again every 50 ms while the service worker works, for at most ``seconds``; then an
    error, or None if the value is not ``required``."""
    for _ in range(int(seconds * 20)):
        value = page.evaluate(f"async () => {{ const v = {expression}; return v; }}")
        if value:
            return value
        page.wait_for_timeout(50)
    if required:
        raise AssertionError(f"never true: {expression}")
    return None


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_name_page_turns_notifications_on_and_off_and_the_worker_shows_them(
    browser, push_site: SiteServer, receiver: PushReceiver, lang: str
) -> None:
    device = receiver.device(f"name-page-{lang}")
    page = device_page(browser, push_site, device, lang)
    take_name(page, f"Push_{lang}")
    section = page.locator("#push-settings")
    page.wait_for_selector("#push-settings[data-state=off]")
    off_words = {
        "en": "Notifications are off for this device.",
        "ru": "Уведомления на этом устройстве выключены.",
    }
    assert section.locator("[data-push=status]").inner_text() == off_words[lang]
    assert page.evaluate("window.__permissionAsked") == 0  # loading the page asks nothing
    assert page.evaluate("Notification.permission") == "granted"  # (granted to the context)

    section.locator("[data-push=on]").click()
    page.wait_for_selector("#push-settings[data-state=on]")
    assert page.evaluate("window.__permissionAsked") == 1
    assert stored(push_site).get(device.endpoint) == lang
    # subscribed with the server's own public key
    key = page.evaluate("async () => (await (await fetch('/api/push/key')).json()).key")
    assert page.evaluate("JSON.parse(localStorage.getItem('fake-push'))") == list(unb64url(key))

    words = notice_text(Notice(NoticeKind.TURN, "/g/abc123", "kendall", "Anna"), lang)
    payload = json.dumps(
        {
            "title": words.title,
            "body": words.body,
            "url": "/g/abc123",
            "tag": "senet-/g/abc123",
            "lang": lang,
        },
        ensure_ascii=False,
    ).encode()
    shown = deliver(page, push_site, payload, "senet-/g/abc123")
    expected = {
        "en": ("Senet", "Your move in Kendall-style Senet against Anna"),
        "ru": ("Сенет", "Ваш ход в игре «Сенет в духе Кендалла» против Anna"),
    }[lang]
    assert [(n["title"], n["body"]) for n in shown] == [expected]
    assert shown[0]["url"] == f"{push_site.url}/g/abc123" and shown[0]["tag"] == "senet-/g/abc123"
    # a notice naming another site opens this site's home page instead
    stray = json.dumps({"title": "x", "body": "y", "url": "https://elsewhere.example/"}).encode()
    home = f"{push_site.url}/"
    assert [n["url"] for n in deliver(page, push_site, stray, home)] == [home]

    section.locator("[data-push=off]").click()
    page.wait_for_selector("#push-settings[data-state=off]")
    assert device.endpoint not in stored(push_site)
    assert page.js_errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_signing_out_drops_the_devices_subscription_in_the_browser_and_on_the_server(
    browser, push_site: SiteServer, receiver: PushReceiver
) -> None:
    device = receiver.device("sign-out")
    page = device_page(browser, push_site, device, "en")
    take_name(page, "Push_out")
    page.wait_for_selector("#push-settings[data-state=off]")
    page.locator("#push-settings [data-push=on]").click()
    page.wait_for_selector("#push-settings[data-state=on]")
    assert device.endpoint in stored(push_site)
    page.click("#sign-out")
    page.wait_for_selector("#take-name")
    assert device.endpoint not in stored(push_site)
    assert page.evaluate("localStorage.getItem('fake-push')") is None
    page.context.close()


def person_decides(site: SiteServer, game_id: str) -> int:
    """The seat whose player decides now (the server's forced passes played first)."""
    end = time.monotonic() + 30
    while True:
        now = state(site.url, game_id)
        assert now["phase"] != "over", "the game ended"
        if now["decider"] is not None and now["forced_pass"] is None:
            return int(now["decider"])
        assert time.monotonic() < end, f"no player's decision came: {now}"
        time.sleep(0.05)  # polling the server's state for the condition above


def play_turn(pages: dict[int, object], site: SiteServer, game_id: str, seat: int) -> int:
    """``seat``'s player moves until the turn is the other's; how many moves."""
    moves = 0
    while person_decides(site, game_id) == seat:
        page = pages[seat]
        page.wait_for_selector("#moves button[data-move]")  # type: ignore[attr-defined]
        click_move(page, legal_buttons(page)[0])
        moves += 1
    return moves


def offered_and_taken(page, site: SiteServer, device: Device, lang: str) -> None:
    """After the player's move: the offer is shown, nothing asked yet; a click on it asks the
    browser's permission once and gives the server this device's subscription."""
    page.wait_for_selector("#push-offer:not([hidden])")
    assert page.evaluate("window.__permissionAsked") == 0
    page.click("#push-offer [data-push=yes]")
    page.wait_for_selector("#push-offer[hidden]", state="attached")
    assert page.evaluate("window.__permissionAsked") == 1
    for _ in range(200):
        if stored(site).get(device.endpoint) == lang:
            break
        page.wait_for_timeout(50)
    assert stored(site).get(device.endpoint) == lang


def pushed(page, site: SiteServer, receiver: PushReceiver, device: Device, game_id: str) -> dict:
    """The server's next push to ``device`` (any other device's before it passed over),
    decrypted with its keys and delivered to the page's service worker; the notification it
    shows."""
    delivery = receiver.next()
    while receiver.origin + delivery.path != device.endpoint:
        delivery = receiver.next()
    payload = device.decrypt(delivery.body)
    [shown] = deliver(page, site, payload, f"senet-/g/{game_id}")
    return shown


def test_a_turn_based_game_offers_notifications_after_a_move_and_each_turn_reaches_the_device(
    browser, push_site: SiteServer, receiver: PushReceiver
) -> None:
    """Anna (English) and Борис (Russian) start a turn-based game: no page asks anything on
    loading; after each one's first move the page offers notifications, and a click turns
    them on; then the opponent's move makes the server push "your move" to the device, and its
    service worker shows it with the game's page to open."""
    devices = {0: receiver.device("game-anna"), 1: receiver.device("game-boris")}
    langs = {0: "en", 1: "ru"}
    pages = {seat: device_page(browser, push_site, devices[seat], langs[seat]) for seat in (0, 1)}
    take_name(pages[0], "Anna_turns")
    take_name(pages[1], "Борис_ходы")
    game_id = start_turn_based(pages[0], pages[1], days=1)
    for page in pages.values():
        assert page.evaluate("window.__permissionAsked") == 0
        assert page.locator("#push-offer").is_hidden()
    # each player is offered notifications after their own first move, and takes them
    subscribed: list[int] = []
    while len(subscribed) < 2:
        seat = person_decides(push_site, game_id)
        if seat not in subscribed:
            assert pages[seat].locator("#push-offer").is_hidden()  # no move of theirs yet
        play_turn(pages, push_site, game_id, seat)
        if seat not in subscribed:
            offered_and_taken(pages[seat], push_site, devices[seat], langs[seat])
            subscribed.append(seat)
    first, second = subscribed
    words = {
        0: ("Senet", "Your move in Kendall-style Senet against Борис_ходы"),
        1: ("Сенет", "Ваш ход в игре «Сенет в духе Кендалла» против Anna_turns"),
    }
    # the turn passed to the first player as the second moved (they had subscribed by then)
    if person_decides(push_site, game_id) == second:
        play_turn(pages, push_site, game_id, second)
    shown = pushed(pages[first], push_site, receiver, devices[first], game_id)
    assert (shown["title"], shown["body"]) == words[first]
    assert shown["url"] == f"{push_site.url}/g/{game_id}"
    play_turn(pages, push_site, game_id, first)
    shown = pushed(pages[second], push_site, receiver, devices[second], game_id)
    assert (shown["title"], shown["body"]) == words[second]
    assert shown["url"] == f"{push_site.url}/g/{game_id}"
    # the offer is not made again once notifications are on
    play_turn(pages, push_site, game_id, second)
    assert pages[second].locator("#push-offer").is_hidden()
    for page in pages.values():
        assert page.js_errors == []  # type: ignore[attr-defined]
        page.context.close()


NOTIFICATION_ASKS = "#notify:visible, #push-offer:visible [data-push=yes]"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_turn_based_game_of_named_players_asks_for_notifications_with_one_button(
    browser, push_site: SiteServer, receiver: PushReceiver, lang: str
) -> None:
    """Named players in a turn-based game, the browser's permission not yet asked: the page
    never shows the in-page "notify me" button beside the Web Push offer (both would ask the
    same permission); after the player's move exactly one button asks, the offer's. A live game
    of the same names still has the in-page button, the only notice it can give."""
    devices = {0: receiver.device(f"one-{lang}-0"), 1: receiver.device(f"one-{lang}-1")}
    pages = {s: device_page(browser, push_site, devices[s], lang, granted=False) for s in (0, 1)}
    take_name(pages[0], f"One_ask_{lang}_a")
    take_name(pages[1], f"One_ask_{lang}_b")
    game_id = start_turn_based(pages[0], pages[1], days=1)
    seat = person_decides(push_site, game_id)
    page = pages[seat]
    page.wait_for_selector("#moves button[data-move]")
    assert page.locator("#signals").is_visible()  # the sound switch is there
    assert page.locator(NOTIFICATION_ASKS).count() == 0
    play_turn(pages, push_site, game_id, seat)
    page.wait_for_selector("#push-offer:not([hidden])")
    assert page.locator(NOTIFICATION_ASKS).count() == 1
    assert page.locator("#notify").is_hidden()
    # a live game: no push offer, the in-page notice is offered
    host, guest = pages
    pages[host].goto("/")
    form = pages[host].locator("form.start-form").first
    form.locator("select[name=variant]").select_option("kendall")
    form.locator("input[name=mode][value=friend]").check()
    form.locator("button[type=submit]").click()
    pages[host].wait_for_selector("#game[data-ply]")
    pages[guest].goto(pages[host].input_value("#invite-url"))
    pages[guest].wait_for_selector("#game[data-ply]")
    pages[host].wait_for_selector("#notify:visible")
    for p in pages.values():
        assert p.js_errors == []  # type: ignore[attr-defined]
        p.context.close()
