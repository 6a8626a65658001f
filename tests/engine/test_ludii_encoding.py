"""The rulebooks' notes on Ludii's encoding: where it contradicts the published text, the note
says so with the sentence it contradicts, quoted from the clause it names (in both languages),
and the decisions the tester of the encoding found missing or wrong are right."""

from __future__ import annotations

import re

import pytest

from senet.engine.rulebook import RULEBOOKS, rulebook

CONTRADICTS = {"en": "which contradicts the text: ", "ru": "вопреки тексту: "}
#: the topics of each variant where Ludii's encoding plays against the published text
CONTRADICTIONS = {
    "jequier": {
        "Backward moves",
        "Protection across the end of a row",
        "The last piece and an extra throw",
    },
    "kendall-1978": {"Attack on 28-30"},
    "piccione": {"Backward moves", "An extra throw and a pass"},
}


def _plain(text: str) -> str:
    return text.replace("«", "").replace("»", "").rstrip(".").lower()


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", sorted(RULEBOOKS))
def test_a_contradiction_quotes_the_sentence_of_the_clause_it_names(name: str, lang: str) -> None:
    book = rulebook(name)
    found = set()
    for difference in book.ludii:
        text = difference.ludii(lang)
        if CONTRADICTS[lang] not in text:
            continue
        found.add(difference.topic_en)
        after = text.split(CONTRADICTS[lang], 1)[1]
        quote = re.match(r"«([^«»]*)»", after)
        assert quote, text
        named = re.search(r"\((?:правило )?([a-z0-9-]+: [a-z0-9 -]+)\)", after)
        assert named, text
        (clause,) = [c for c in book.clauses if c.id == named.group(1)]
        # a Russian page quotes Ludii's English where the clause is its English sentence
        assert any(_plain(quote.group(1)) in _plain(t) for t in (clause.text(lang), clause.en)), (
            quote.group(1),
            clause.text(lang),
        )
    assert found == CONTRADICTIONS.get(name, set())


def test_jequier_lists_where_ludii_sends_a_captured_piece() -> None:
    notes = {d.topic_en: d for d in rulebook("jequier").ludii}
    sent = notes["Where a captured piece goes"]
    assert "before the move" in sent.ludii_en and "до хода" in sent.ludii_ru
    assert "send-back" in sent.ours_en and "send-back" in sent.ours_ru
    # Ludii never moves a Jéquier piece back, not "only when no piece can go forward"
    back = notes["Backward moves"]
    assert back.ludii_en.startswith("None: no piece ever moves backward")
    assert "Only when" not in back.ludii_en and "Только если" not in back.ludii_ru


def test_kendall_1978_protection_is_by_the_same_board_column() -> None:
    (note,) = [d for d in rulebook("kendall-1978").ludii if d.topic_en == "Protection"]
    assert "20 is guarded by 1, and 11 by 30" in note.ludii_en
    assert "20 защищено фишкой на 1, а 11 — фишкой на 30" in note.ludii_ru
    assert "by 21" not in note.ludii_en and "на 21" not in note.ludii_ru


def test_piccione_has_no_note_on_ludii_moving_pieces_back() -> None:
    """Ludii never moves a Piccione piece backward: no note may say it moves one back."""
    for d in rulebook("piccione").ludii:
        if d.topic_en != "Backward moves":
            assert "back" not in d.ludii_en.replace("backward", ""), d.topic_en
