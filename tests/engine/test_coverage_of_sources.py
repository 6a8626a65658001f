"""Meta-tests: every clause of every source is cited by a scenario test, every decision is pinned.

Clause ids and decision keys come from :mod:`senet.engine.rulebook`; the tests are found by
reading the text of the files in this directory.
"""

import re
from pathlib import Path

import pytest

from senet.engine import VARIANTS
from senet.engine.rulebook import RULEBOOKS

HERE = Path(__file__).parent
TEST_FILES = sorted(p for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)


def _text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in TEST_FILES)


def _defined_tests() -> set[str]:
    return set(re.findall(r"^def (test_\w+)\(", _text(), re.MULTILINE))


def cited(clause_id: str, text: str) -> bool:
    """``adelaida §1`` must not be satisfied by ``adelaida §10``."""
    return re.search(re.escape(clause_id) + r"(?![0-9A-Za-z])", text) is not None


def decision_test_name(variant: str, key: str) -> str:
    return f"test_decision_{variant}_{key}".replace("-", "_")


def test_every_variant_has_a_rulebook():
    assert set(RULEBOOKS) == set(VARIANTS)


@pytest.mark.parametrize("variant", sorted(RULEBOOKS))
def test_every_clause_is_cited(variant):
    text = _text()
    ids = [c.id for c in RULEBOOKS[variant].clauses]
    assert ids and len(ids) == len(set(ids))
    missing = [cid for cid in ids if not cited(cid, text)]
    assert not missing, f"clauses of {variant} cited by no test in tests/engine: {missing}"


@pytest.mark.parametrize("variant", sorted(RULEBOOKS))
def test_every_decision_is_pinned(variant):
    defined = _defined_tests()
    keys = [d.key for d in RULEBOOKS[variant].decisions]
    assert keys and len(keys) == len(set(keys))
    missing = [
        decision_test_name(variant, k)
        for k in keys
        if decision_test_name(variant, k) not in defined
    ]
    assert not missing, f"decisions of {variant} without a test: {missing}"


def test_no_pin_without_a_decision():
    """A test_decision_* function whose decision was removed from the rulebook is stale."""
    known = {decision_test_name(v, d.key) for v, rb in RULEBOOKS.items() for d in rb.decisions}
    stale = sorted(
        name for name in _defined_tests() if name.startswith("test_decision_") and name not in known
    )
    assert not stale, stale


def test_the_meta_test_can_fail():
    """The matching is strict: a near miss is not a citation."""
    assert cited("adelaida §1", "see adelaida §1: the board")
    assert not cited("adelaida §1", "see adelaida §10 and adelaida §12")
    assert decision_test_name("adelaida-long", "pass-26") == "test_decision_adelaida_long_pass_26"
