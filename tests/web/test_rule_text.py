"""A rulebook text's reference to one of its own clauses by id — "(kendall-1978: guarded)",
"(правило kendall-1978: guarded)" — becomes a link to that clause under its label in the
page's language, never the id the tests cite it by; an id the rulebook lacks stays as written."""

from __future__ import annotations

import re

import pytest

from senet.engine.rulebook import rulebook
from senet.web.routes.pages import clause_label, rule_text


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "as said (kendall-1978: guarded)."),
        ("ru", "как сказано (правило kendall-1978: guarded)."),
    ],
)
def test_a_reference_to_a_clause_links_to_it_under_its_label(lang: str, text: str) -> None:
    book = rulebook("kendall-1978")
    number = next(i for i, c in enumerate(book.clauses, 1) if c.id == "kendall-1978: guarded")
    shown = str(rule_text(text, book, lang))
    label = clause_label("kendall-1978: guarded", lang)
    assert f'(<a href="#rule-{number}">{label}</a>)' in shown
    assert "kendall-1978" not in re.sub(r"<[^>]+>", "", shown)


def test_an_unknown_clause_stays_as_written() -> None:
    book = rulebook("kendall-1978")
    assert "(kendall-1978: no such rule)" in str(
        rule_text("(kendall-1978: no such rule)", book, "en")
    )
