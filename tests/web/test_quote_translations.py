"""A Russian page quoting an English source (kendall-1978 and piccione follow Ludii's English
retellings) gives each quotation's Russian translation beside it."""

from __future__ import annotations

import re

import httpx
import pytest

QUOTE = re.compile(
    r'<span lang="en">«([^<]*)»</span>( <span class="quote-tr">\(«([^<]*)»\)</span>)?'
)
NAMES = {"Kendall", "kendall", "Piccione"}  # a set's or a variant's name, not a sentence


@pytest.mark.parametrize("name", ["kendall-1978", "piccione"])
def test_every_english_quotation_on_a_russian_page_has_its_translation_beside_it(
    site, name
) -> None:
    html = httpx.get(f"{site.url}/variants/{name}", params={"lang": "ru"}).text
    quotes = QUOTE.findall(html)
    assert len(quotes) > 5, name
    untranslated = [q for q, beside, _ in quotes if not beside and q not in NAMES]
    assert untranslated == []
    for _english, _, russian in quotes:
        if russian:
            assert re.search(r"[А-Яа-яЁё]", russian) and not re.search(r"[A-Za-z]", russian)
    # the English page quotes its sources as they are, with no translation
    english = httpx.get(f"{site.url}/variants/{name}", params={"lang": "en"}).text
    assert 'class="quote-tr"' not in english
