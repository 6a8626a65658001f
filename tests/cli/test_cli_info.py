"""``senet variants`` and ``senet rules``: everything the engine knows is printed, in en and ru."""

from __future__ import annotations

import pytest

from senet.engine import VARIANTS
from senet.engine.differences import difference_table
from senet.engine.rulebook import rulebook


def test_variants_lists_every_variant_with_its_facts(run):
    result = run("variants")
    assert result.exit_code == 0
    for v in VARIANTS.values():
        line = next(s for s in result.output.splitlines() if s.startswith(v.name + " "))
        assert v.title("en") in line and str(v.pieces) in line and v.instrument.name in line
        for alias in v.aliases:
            assert alias in line


def test_variants_in_russian(run):
    result = run("variants", "--lang", "ru")
    assert result.exit_code == 0
    assert "Сенет по Беллу (1960)" in result.output and "название" in result.output


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_rules_prints_clauses_differences_every_decision_and_history(run, name, lang):
    result = run("rules", name, "--lang", lang)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # undo the wrapping
    book = rulebook(name)
    assert " ".join(book.summary(lang).split()) in out
    for clause in book.clauses:
        assert f"[{clause.id}]" in out
        assert " ".join(clause.text(lang).split()) in out
    for decision in book.decisions:
        assert f"[{decision.key}]" in out
        assert " ".join(decision.question(lang).split()) in out
        assert " ".join(decision.answer(lang).split()) in out
    for difference in book.ludii:
        assert f"[{difference.topic(lang)}]" in out
        assert " ".join(difference.ludii(lang).split()) in out
        assert " ".join(difference.ours(lang).split()) in out
    for row in difference_table(name, "standard", lang):
        assert row.label in out and " ".join(row.a.split()) in out
    assert " ".join(book.history(lang).split()[:8]) in out


def test_rules_accepts_an_alias(run):
    assert "Kendall-style Senet" in run("rules", "кендалл").output


def test_rules_unknown_variant_is_one_line(run):
    result = run("rules", "chess")
    assert result.exit_code == 1
    assert result.stderr.strip().count("\n") == 0
    assert "unknown variant 'chess'" in result.stderr and "kendall" in result.stderr
