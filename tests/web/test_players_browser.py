"""Players with a name in a real Chromium: two people take names, play a rated game to its end
and see both ratings change on the game's two screens and on their profiles (phone screenshots
of a profile in both languages); two anonymous people play by link at the same time, as
before; a passkey made in one browser signs in another (the credential moved with the virtual
authenticator's getCredentials/addCredential), its answer replayed is refused, and a transfer
link signs in a third browser once."""

from __future__ import annotations

import re

import pytest

from .test_browser import new_page, play_until_over, wait_started

pytestmark = pytest.mark.browser


def take_name(page, name: str) -> None:
    page.goto("/name")
    page.fill("#name", name)
    page.click("#take-name")
    page.wait_for_selector("#my-profile")
    assert page.inner_text("#nav-player") == name


def friend_game(host, guest, rated: bool) -> str:
    host.goto("/")
    form = host.locator("form.start-form").first
    form.locator("select[name=variant]").select_option("kendall")
    form.locator("input[name=mode][value=friend]").check()
    form.locator("input[name=colour][value=A]").check()
    if rated:
        form.locator("input[name=rated]").check()
    else:
        assert form.locator("input[name=rated]").count() == 0  # no name: no rated game
    form.locator("button[type=submit]").click()
    host.wait_for_selector("#game[data-ply]")
    game_id = host.url.rsplit("/", 1)[-1]
    guest.goto(host.input_value("#invite-url"))
    guest.wait_for_selector("#game[data-ply]")
    assert guest.url.endswith(f"/g/{game_id}")
    for page in (host, guest):
        wait_started(page)
    return game_id


def test_two_named_players_play_a_rated_game_while_two_anonymous_ones_play_by_link(
    browser, site, artifacts
) -> None:
    anna = new_page(browser, site)
    boris = new_page(browser, site, 390, 844, touch=True)
    carol = new_page(browser, site)
    dave = new_page(browser, site, 390, 844, touch=True)
    take_name(anna, "Anna_rated")
    take_name(boris, "Борис")
    rated = friend_game(anna, boris, rated=True)
    casual = friend_game(carol, dave, rated=False)
    for page in (anna, boris):
        assert page.inner_text("#named-players .game-kind") == "Rated game"
    for page in (carol, dave):  # the anonymous game is the page it always was
        assert page.locator("#named-players").count() == 0
        assert page.inner_text("#nav-player") == "Take a name"
    pages = [anna, boris, carol, dave]
    play_until_over(pages)
    changes = {}
    for page in (anna, boris):
        page.wait_for_function(
            "() => [...document.querySelectorAll('#named-players .np-change')]"
            ".filter((e) => e.textContent).length === 2"
        )
        changes[page] = page.eval_on_selector_all(
            "#named-players li", "rows => rows.map((r) => r.innerText.replace(/\\s+/g, ' '))"
        )
    assert changes[anna] == changes[boris]  # both screens show both changes
    won = anna.inner_text("#result")
    shown = " ".join(changes[anna])
    assert re.search(r"Anna_rated 1662\? \+162", shown) or re.search(
        r"Anna_rated 1338\? \u2212162", shown
    ), shown
    anna_up = "+162" in changes[anna][0]
    for page, name, up in ((anna, "Anna_rated", anna_up), (boris, "Борис", not anna_up)):
        page.goto(f"/@/{name}")
        assert page.inner_text(".rating-value") == ("1662?" if up else "1338?")
        assert page.locator(".rating-chart polyline").count() == 1
        assert page.inner_text("#n-games") == "1"
        row = page.locator(f'.player-game[data-game="{rated}"]')
        assert row.locator(".pg-change").inner_text() == ("+162" if up else "\u2212162")
        assert row.locator('a[href$="/review"]').count() == 1
    assert won  # the game page said who won
    # the anonymous game ended as always, and nobody rated it
    assert carol.locator("#over").is_visible() and dave.locator("#over").is_visible()
    assert "senet_player" not in {c["name"] for c in carol.context.cookies()}
    casual_ratings = carol.request.get(f"/api/games/{casual}/ratings").json()
    assert casual_ratings == {"rated": False, "over": True, "seats": []}
    # the profile on a phone, in both languages (looked at: docs/players.md)
    for lang in ("en", "ru"):
        boris.goto(f"/@/Борис?lang={lang}")
        boris.screenshot(path=str(artifacts / f"profile-phone-{lang}.png"), full_page=True)
        width = boris.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the profile is wider than the phone in {lang}: {width}"
    assert boris.inner_text("#ratings-h") == "Рейтинги"
    for page in pages:
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_a_passkey_and_a_transfer_link_sign_in_other_browsers(browser, site) -> None:
    # WebAuthn needs a host name as the relying party: the loopback's name, not its address
    base = site.url.replace("127.0.0.1", "localhost")

    def browser_context():
        context = browser.new_context(base_url=base)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("WebAuthn.enable")
        options = {
            "protocol": "ctap2",
            "transport": "internal",
            "hasResidentKey": True,
            "hasUserVerification": True,
            "isUserVerified": True,
        }
        authenticator = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": options})
        return page, cdp, authenticator["authenticatorId"]

    phone, phone_cdp, phone_key = browser_context()
    take_name(phone, "Passkey_user")
    assert phone.inner_text("#passkey-count") == "0 passkeys added."
    phone.click("#passkey-add")
    phone.wait_for_function(
        "() => document.getElementById('passkey-status').textContent.startsWith('Passkey added')"
    )
    # the count says so at once, as the page reloaded says it
    assert phone.inner_text("#passkey-count") == "1 passkey added."
    phone.reload()
    assert phone.inner_text("#passkey-count") == "1 passkey added."
    credentials = phone_cdp.send("WebAuthn.getCredentials", {"authenticatorId": phone_key})
    (credential,) = credentials["credentials"]
    assert credential["isResidentCredential"]

    laptop, laptop_cdp, laptop_key = browser_context()
    laptop_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": laptop_key, "credential": credential}
    )
    laptop.goto("/name")
    assert laptop.locator("#take-name").count() == 1  # not signed in yet
    answers = []
    laptop.on(
        "request",
        lambda r: answers.append(r.post_data) if r.url.endswith("/api/passkeys/login") else None,
    )
    laptop.click("#passkey-sign-in")
    laptop.wait_for_selector("#my-profile")
    assert laptop.inner_text("h1") == "You are Passkey_user"
    # the same signed answer again: its challenge is spent
    replayed = laptop.request.post(
        "/api/passkeys/login", data=answers[0], headers={"Content-Type": "application/json"}
    )
    assert replayed.status == 400 and replayed.json()["code"] == "challenge_spent"

    # a transfer link made on the phone signs in one more browser, once
    phone.goto("/name")
    phone.click("#transfer")
    link = phone.input_value("#transfer-link")
    tablet = browser.new_context(base_url=base).new_page()
    tablet.goto(link)
    tablet.click("#use-code")
    tablet.wait_for_selector("#my-profile")
    assert tablet.inner_text("#nav-player") == "Passkey_user"
    other = browser.new_context(base_url=base).new_page()
    other.goto(link)
    other.click("#use-code")
    assert other.locator("#transfer-failed").is_visible()
    assert other.locator("#nav-player").inner_text() == "Take a name"
    for page in (phone, laptop, tablet, other):
        page.context.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_passkeys_are_not_offered_on_a_bare_ip_address(browser, site, artifacts, lang) -> None:
    """On http://127.0.0.1 (an IP address, where WebAuthn has no relying party) the name page
    offers no passkey, signed in or not, and says why and what to use instead; the server
    refuses the ceremonies there too, with that reason."""
    page = new_page(browser, site, 390, 844, touch=True)
    page.context.add_cookies([{"name": "lang", "value": lang, "url": site.url}])
    page.goto("/name")
    need = {
        "en": "Passkeys work only when the site is opened by its name, not by an IP address",
        "ru": "Ключи доступа работают, только когда сайт открыт по имени, а не по цифровому адресу",
    }[lang]
    assert page.locator("#passkey-sign-in").count() == 0
    assert need in page.inner_text("#passkey-unavailable")
    take_name(page, f"Bare_ip_{lang}")
    assert page.locator("#passkey-add").count() == 0
    assert need in page.inner_text("#passkey-unavailable")
    page.screenshot(path=str(artifacts / f"name-bare-ip-phone-{lang}.png"), full_page=True)
    refused = page.request.post(
        "/api/passkeys/register/options", data="{}", headers={"Content-Type": "application/json"}
    )
    assert refused.status == 400 and refused.json()["code"] == "passkeys_unavailable"
    assert not page.js_errors, page.js_errors
    page.context.close()


def test_a_wrong_confirmation_to_delete_a_name_is_said_on_the_form(
    browser, site, artifacts
) -> None:
    """Delete my name with the name mistyped: the page comes back with the form open, the
    reason beside the field, and the name kept."""
    page = new_page(browser, site, 390, 844, touch=True)
    take_name(page, "Keep_me")
    page.click("details.delete-name summary")
    page.fill("#confirm", "Keep_you")
    page.click("#delete-name")
    page.wait_for_selector("#delete-refused")
    assert page.inner_text("#delete-refused") == "Type your name exactly to delete it."
    assert page.locator("#confirm").is_visible()
    assert page.inner_text("#nav-player") == "Keep_me"
    page.screenshot(path=str(artifacts / "name-delete-refused-phone.png"), full_page=True)
    assert not page.js_errors, page.js_errors
    page.context.close()
