"""An impossible position is refused with the engine's own reason, in the page's language: the
engine gives each reason a stable code and the parameters of its English message
(senet.engine.errors.POSITION_REASONS), the site says it from its catalogs (``pos.*``)."""

from __future__ import annotations

import re
import string
from urllib.parse import quote

import httpx
import pytest

from senet.engine import InvalidPosition, NotationError, find_variant, parse_position
from senet.engine.errors import POSITION_REASONS
from senet.web.i18n import catalog
from senet.web.render.explain_text import position_reason_text

from .conftest import SEARCH_WAIT
from .test_browser import new_page

SIX_SPOOLS = "standard AAAAAA..../..B.B..B../.B..B..... A 2"  # standard: 5 pieces a side
ON_THE_BA = "adelaida AAAA....../.BBBBB..../A......... B 3"  # 21: pieces pass through it


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def refusal(text: str) -> InvalidPosition:
    with pytest.raises(NotationError) as caught:
        parse_position(text)
    assert caught.value.reason is not None, caught.value
    return caught.value.reason


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_reason_of_the_engine_is_said_in_both_languages(lang) -> None:
    words = catalog(lang)
    for code, english in POSITION_REASONS.items():
        said = words.get(f"pos.{code}")
        assert isinstance(said, str), (lang, code)
        # the catalog's words are written from the parameters the engine gives (its message's,
        # and the square at fault where it points at one)
        assert fields(said) <= fields(english) | {"square"}, (lang, code, said)


def test_the_reason_keeps_its_english_message_code_and_parameters() -> None:
    reason = refusal(SIX_SPOOLS)
    assert reason.code == "too_many_pieces"
    assert reason.params == {"variant": "standard", "pieces": 5}
    assert reason.message == "more pieces than standard has (5 a side)"
    with pytest.raises(NotationError, match="more pieces than standard has"):
        parse_position(SIX_SPOOLS)
    ba = refusal(ON_THE_BA)
    assert (ba.code, ba.square, ba.params["house"]) == ("transit_house", 21, "House of Ba")
    assert ba.message == "no piece can stand on 21, the House of Ba"


def test_the_reason_in_words_names_the_variant_and_the_house_in_the_language() -> None:
    six = refusal(SIX_SPOOLS)
    assert position_reason_text(six.code, six.params, "en") == (
        "Impossible position: more pieces than Senet (standard) has (5 a side)."
    )
    russian = position_reason_text(six.code, six.params, "ru")
    assert russian == (
        "Невозможная позиция: фишек больше, чем в варианте «Сенет (стандарт)» (5 у каждой стороны)."
    )
    ba = refusal(ON_THE_BA)
    said = position_reason_text(ba.code, ba.params, "ru")
    assert find_variant("adelaida").houses[21].name("ru") in said and "21" in said, said
    assert not re.search(r"[A-Za-z]{3,}", said), said  # no English fragment


def test_the_api_refuses_an_impossible_position_with_the_reason(site) -> None:
    answer = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": SIX_SPOOLS}, timeout=SEARCH_WAIT
    )
    assert answer.status_code == 400
    body = answer.json()
    assert body["code"] == "bad_position"
    assert (body["reason"], body["params"]) == (
        "too_many_pieces",
        {"variant": "standard", "pieces": 5},
    )
    assert "more pieces than standard has (5 a side)" in body["message"]
    # text written wrong has no reason: only where it went wrong
    wrong = httpx.get(
        f"{site.url}/api/learn/analysis", params={"position": "standard X A 2"}, timeout=SEARCH_WAIT
    )
    assert wrong.status_code == 400 and "reason" not in wrong.json()
    # the page opened at such a position says the reason in its language
    page = httpx.get(f"{site.url}/analysis", params={"position": SIX_SPOOLS, "lang": "ru"}).text
    assert "фишек больше, чем в варианте «Сенет (стандарт)»" in page
    assert "Невозможная позиция" in page and "(строка" not in page


@pytest.mark.browser
@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Impossible position: more pieces than Senet (standard) has (5 a side)."),
        (
            "ru",
            "Невозможная позиция: фишек больше, чем в варианте «Сенет (стандарт)» (5 у каждой стороны).",
        ),
    ],
)
def test_setting_up_a_sixth_spool_is_refused_with_the_servers_reason(
    browser, site, lang, said
) -> None:
    start = "standard AAAAA...../..B.B..B../.B..B..... A 2"
    page = new_page(browser, site, 390, 844)
    page.goto(f"/analysis?position={quote(start)}&lang={lang}")
    page.wait_for_function(  # the first analysis comes from a worker that may still be warming up
        "() => document.getElementById('analysis').dataset.ready === '1'",
        timeout=SEARCH_WAIT * 1000,
    )
    page.click("#an-edit")
    page.click('#board [data-square="6"] >> nth=-1')  # an empty square: a sixth spool
    page.wait_for_selector("#an-error:not([hidden])")
    shown = page.text_content("#an-error")
    assert shown == said
    assert "column" not in shown and "столбец" not in shown
    assert not page.js_errors  # type: ignore[attr-defined]
    page.context.close()
