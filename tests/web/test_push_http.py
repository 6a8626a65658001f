"""Web Push over HTTP, against a real server: the service worker served at the site's root, the
server's public key, a named device's subscription stored in the page's language and forgotten
when the device turns notifications off or signs out; anonymous devices, other push services
and malformed keys refused, changing nothing."""

from __future__ import annotations

import sqlite3

import httpx
import pytest

from senet_testkit.push_receiver import PushReceiver, unb64url

from .conftest import SiteServer


def subscriptions(site: SiteServer) -> list[tuple[str, str]]:
    with sqlite3.connect(site.db) as conn:
        return conn.execute(
            "SELECT endpoint, lang FROM push_subscriptions ORDER BY endpoint"
        ).fetchall()


def named_device(site: SiteServer, name: str, lang: str = "en") -> httpx.Client:
    client = httpx.Client(base_url=site.url, headers={"Accept-Language": lang})
    taken = client.post("/name", data={"name": name})
    assert taken.status_code == 303, taken.text
    return client


@pytest.mark.slow  # restarts its server: more than a few seconds
def test_the_service_worker_and_the_key_are_served(push_site: SiteServer) -> None:
    worker = httpx.get(f"{push_site.url}/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    assert "showNotification" in worker.text and "notificationclick" in worker.text
    key = httpx.get(f"{push_site.url}/api/push/key").json()["key"]
    point = unb64url(key)
    assert len(point) == 65 and point[0] == 4  # an uncompressed P-256 point
    # the same key after a restart: the browsers' subscriptions stay valid
    push_site.stop()
    push_site.start()
    assert httpx.get(f"{push_site.url}/api/push/key").json()["key"] == key


def test_a_named_device_turns_notifications_on_and_off(
    push_site: SiteServer, receiver: PushReceiver
) -> None:
    anna = named_device(push_site, "Anna_push", "ru")
    phone = receiver.device("anna-http")
    on = anna.post("/api/push/subscriptions", json=phone.subscription())
    assert on.status_code == 201 and on.json() == {"ok": True}
    assert (phone.endpoint, "ru") in subscriptions(push_site)
    off = anna.request("DELETE", "/api/push/subscriptions", json={"endpoint": phone.endpoint})
    assert off.json() == {"ok": True}
    assert phone.endpoint not in dict(subscriptions(push_site))
    again = anna.request("DELETE", "/api/push/subscriptions", json={"endpoint": phone.endpoint})
    assert again.json() == {"ok": False}
    # on again, then signing out on the device forgets it
    assert anna.post("/api/push/subscriptions", json=phone.subscription()).status_code == 201
    assert phone.endpoint in dict(subscriptions(push_site))
    anna.post("/name/signout")
    assert phone.endpoint not in dict(subscriptions(push_site))


def test_refused_subscriptions_change_nothing(
    push_site: SiteServer, receiver: PushReceiver
) -> None:
    before = subscriptions(push_site)
    device = receiver.device("refused").subscription()
    nobody = httpx.Client(base_url=push_site.url)
    answer = nobody.post("/api/push/subscriptions", json=device)
    assert answer.status_code == 403 and answer.json()["code"] == "no_name"
    boris = named_device(push_site, "Boris_push")
    cases = [
        ({**device, "endpoint": "https://push.example/x"}, 400, "push_service"),
        ({**device, "endpoint": "http://127.0.0.1:9/x"}, 400, "push_service"),
        (
            {**device, "keys": {"p256dh": "AAAA", "auth": device["keys"]["auth"]}},
            400,
            "bad_subscription",
        ),
        ({**device, "keys": {"p256dh": device["keys"]["p256dh"]}}, 400, "bad_request"),
        ({"endpoint": "x" * 1001, "keys": device["keys"]}, 400, "bad_request"),
    ]
    for body, status, code in cases:
        answer = boris.post("/api/push/subscriptions", json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    form = boris.post("/api/push/subscriptions", data={"endpoint": device["endpoint"]})
    assert form.status_code == 415
    assert subscriptions(push_site) == before


def test_only_the_owner_forgets_a_subscription_and_nobody_takes_it_without_its_keys(
    push_site: SiteServer, receiver: PushReceiver
) -> None:
    """A subscription is its player's: another player's (or an anonymous) DELETE of its
    endpoint forgets nothing, and subscribing it with other keys is refused (409
    ``push_endpoint_taken``); only its own browser's keys move it to another name."""
    carla = named_device(push_site, "Carla_push")
    phone = receiver.device("carla-http")
    assert carla.post("/api/push/subscriptions", json=phone.subscription()).status_code == 201
    mallory = named_device(push_site, "Mallory_push")
    nobody = httpx.Client(base_url=push_site.url)
    for client in (mallory, nobody):
        gone = client.request(
            "DELETE", "/api/push/subscriptions", json={"endpoint": phone.endpoint}
        )
        assert gone.status_code == 200 and gone.json() == {"ok": False}
    assert phone.endpoint in dict(subscriptions(push_site))
    forged = receiver.device("mallory-keys").subscription()
    taken = mallory.post(
        "/api/push/subscriptions", json={"endpoint": phone.endpoint, "keys": forged["keys"]}
    )
    assert taken.status_code == 409 and taken.json()["code"] == "push_endpoint_taken"
    with sqlite3.connect(push_site.db) as conn:
        owner, key = conn.execute(
            "SELECT players.name, p256dh FROM push_subscriptions"
            " JOIN players ON players.id = push_subscriptions.player_id WHERE endpoint = ?",
            (phone.endpoint,),
        ).fetchone()
    assert owner == "Carla_push" and key == phone.subscription()["keys"]["p256dh"]
    assert carla.request(
        "DELETE", "/api/push/subscriptions", json={"endpoint": phone.endpoint}
    ).json() == {"ok": True}
