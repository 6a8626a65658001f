"""Words of the pages that said something twice or something else than they mean: a variant
page's "no registration" line (the footer of every page says it), and the kind of a game
between two people, which read as a head count ("two players online") while one of them
waits alone for the other."""

from __future__ import annotations

import httpx
import pytest

from senet import VARIANTS


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_variant_page_says_no_registration_once(site, lang) -> None:
    sentence = {
        "en": "No registration. Share the link and start playing.",
        "ru": "Регистрация не нужна. Поделитесь ссылкой и начинайте играть.",
    }[lang]
    for name in VARIANTS:
        page = httpx.get(f"{site.url}/variants/{name}", params={"lang": lang})
        assert page.status_code == 200
        assert page.text.count(sentence) == 1, name


@pytest.mark.parametrize(
    "lang,kind", [("en", "player vs player online"), ("ru", "игрок против игрока по сети")]
)
def test_a_game_between_two_people_is_named_for_its_kind_not_a_count(site, lang, kind) -> None:
    created = httpx.post(f"{site.url}/api/games", json={"variant": "standard", "mode": "friend"})
    page = httpx.get(f"{site.url}/g/{created.json()['id']}", params={"lang": lang})
    assert f'<small class="mode">{kind}</small>' in page.text
    assert "two players" not in page.text and "двое" not in page.text
