"""The statistics sections are drawn only from figures computed with the variant's own rules:
a variant without shipped figures gets no "How the game plays" section and no row or bar on
the comparison page (piccione ships none; for a variant with figures the absence is
simulated)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from senet.engine import VARIANTS, find_variant
from senet.sim import dataset
from senet.web import stats

MISSING = "kendall-1978"


@pytest.fixture
def without_figures(monkeypatch) -> Iterator[str]:
    def load(name: str) -> dict[str, Any] | None:
        return None if name == MISSING else dataset.load(name)

    monkeypatch.setattr(stats, "load", load)
    stats.how_it_plays.cache_clear()
    yield MISSING
    stats.how_it_plays.cache_clear()


def test_every_variant_the_simulator_plays_ships_its_figures() -> None:
    """piccione, which the compiled simulator refuses, ships none (and shows none)."""
    assert [name for name in VARIANTS if dataset.load(name) is None] == ["piccione"]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_variant_without_figures_has_no_section_and_no_comparison_row(
    without_figures: str, lang: str
) -> None:
    assert stats.how_it_plays(without_figures, lang) is None
    assert stats.how_it_plays("kendall", lang) is not None
    compared = stats.compared(lang)
    names = [row["name"] for row in compared["rows"]]
    shipped = [name for name in VARIANTS if dataset.load(name) is not None]
    assert names == [name for name in shipped if name != without_figures]
    title = find_variant(without_figures).title(lang)
    assert title not in compared["first_chart"] and title not in compared["length_chart"]
