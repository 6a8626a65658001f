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
from collections.abc import Iterator
from typing import Any

import pytest

from senet.service.push import Notice, NoticeKind
from senet.web.push import notice_text
from senet_testkit.push_receiver import Device, PushReceiver, unb64url

from .conftest import SiteServer

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


@pytest.fixture(scope="module")
def receiver() -> Iterator[PushReceiver]:
    with PushReceiver() as running:
        yield running


@pytest.fixture(scope="module")
def push_site(tmp_path_factory: pytest.TempPathFactory, receiver: PushReceiver):
    server = SiteServer(tmp_path_factory.mktemp("push-browser") / "senet.sqlite3")
    server.env["SENET_PUSH_SERVICES"] = receiver.origin
    server.start()
    yield server
    server.stop()


def device_page(browser, site: SiteServer, device: Device, lang: str):
    context = browser.new_context(
        base_url=site.url,
        locale="ru-RU" if lang == "ru" else "en-US",
        extra_http_headers={"Accept-Language": lang},
        permissions=["notifications"],
    )
    context.add_init_script(FAKE_PUSH_SERVICE % json.dumps(device.subscription()))
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.js_errors = errors  # type: ignore[attr-defined]
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
    it shows then with ``tag`` (title, body, tag, the page a click opens)."""
    registration = registration_id(page, site)
    page.evaluate(
        "async () => { for (const n of await (await navigator.serviceWorker.ready).getNotifications()) n.close(); }"
    )
    until(page, f"(await ({NOTIFICATIONS})()).length === 0")
    page.cdp.send(  # type: ignore[attr-defined]
        "ServiceWorker.deliverPushMessage",
        {"origin": site.url, "registrationId": registration, "data": payload.decode()},
    )
    shown: list[dict] = until(
        page,
        f"(await ({NOTIFICATIONS})()).filter((n) => n.tag === {json.dumps(tag)})",
    )
    return shown


def until(page, expression: str) -> Any:
    """The value of an async ``expression`` in the page once it is truthy (a non-empty list):
    asked again while the service worker works, for at most 30 seconds."""
    for _ in range(600):
        value = page.evaluate(f"async () => {{ const v = {expression}; return v; }}")
        if value:
            return value
        page.wait_for_timeout(50)
    raise AssertionError(f"never true: {expression}")


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
