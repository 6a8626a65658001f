"""The rule-difference table is computed from the variants' data, so it follows the rules played."""

import dataclasses

import pytest

from senet.engine import VARIANTS, find_variant
from senet.engine.differences import ASPECTS, describe, difference_table


@pytest.mark.parametrize("name", list(VARIANTS))
def test_no_difference_with_itself(name):
    assert difference_table(name, name) == []
    assert len(describe(name, "en")) == len(describe(name, "ru")) == len(ASPECTS)


def keys(a, b):
    return {row.key for row in difference_table(a, b)}


def test_differences_follow_the_sources():
    """bell against standard: everything but passing over pieces and backward moves (neither has them)."""
    assert keys("bell", "standard") == {a.key for a in ASPECTS} - {
        "passing",
        "backward",
    }
    # kendall rule 4 (backward moves) and the House of Beauty stop; the same swap and extra throws
    k = keys("kendall", "standard")
    assert {"backward", "passing", "bearing-off"} <= k and "extra" not in k and "pieces" not in k
    # adelaida §8/§12 (blocking pairs), §16 (backward), §20-§33 (eight Houses)
    a = keys("adelaida", "standard")
    assert {"passing", "backward", "houses", "safe"} <= a
    assert keys("adelaida", "adelaida-long") == {"pieces", "winning"}


def test_a_changed_rule_shows_in_the_table():
    planted = dataclasses.replace(find_variant("standard"), extra_throws=frozenset({1}))
    rows = difference_table(planted, "standard", "ru")
    assert [r.key for r in rows] == ["extra"] and rows[0].a != rows[0].b and rows[0].label
