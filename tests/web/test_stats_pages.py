"""The statistics sections are drawn only from figures computed with the variant's own rules:
a variant without shipped figures gets no "How the game plays" section and no row or bar on
the comparison page (piccione ships none; for a variant with figures the absence is
simulated)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from senet.engine import VARIANTS, find_variant
from senet.sim import dataset
from senet.web.routes import stats

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


def _figures(text: str) -> list[str]:
    """The numbers in a text, as written (with their decimal and group separators)."""
    return re.findall(r"\d(?:[\d\xa0,.]*\d)?", text)


def _as_english(figure: str) -> str:
    """A Russian figure written the English way: "1 234,5" → "1,234.5"."""
    return figure.replace(",", ".").replace("\xa0", ",")


def _chart_figures(svg: str) -> list[str]:
    """The figures a chart prints beside its bars and on its axis (their order does not
    depend on the language)."""
    texts = re.findall(r'<text class="chart-(?:value|tick|note)"[^>]*>([^<]*)</text>', svg)
    return [figure for text in texts for figure in _figures(text)]


def _cells(how: dict[str, Any]) -> list[str]:
    rows = [*how["first"], *how["events"], *how["decisions"]]
    keys = ("first", "first_ci", "draws", "turns", "decisions", "median", "random", "computer")
    return [str(row[key]) for row in rows for key in keys if key in row]


@pytest.mark.parametrize("name", [name for name in VARIANTS if dataset.load(name) is not None])
def test_russian_figures_are_written_with_a_decimal_comma(name: str) -> None:
    """The same figures in both languages: "49.21%" and "1,234.5" in English are "49,21%"
    and "1 234,5" in Russian, in the tables and in the charts (the figures' text, not the
    drawing's coordinates)."""
    en, ru = stats.how_it_plays(name, "en"), stats.how_it_plays(name, "ru")
    assert en is not None and ru is not None
    pairs = list(zip(_cells(en), _cells(ru), strict=True))
    charts = ("first_chart", "turns_chart", "decisions_length_chart", "houses_chart")
    for key in charts + (("effect_chart",) if en["decisions"] else ()):
        figures = list(zip(_chart_figures(en[key]), _chart_figures(ru[key]), strict=True))
        assert figures, key
        pairs += figures
    russian = [figure for _, text in pairs for figure in _figures(text)]
    assert not [f for f in russian if re.search(r"\d\.\d", f)], "a decimal point in Russian"
    assert any("," in figure for figure in russian)
    for english, text in pairs:
        assert [_as_english(f) for f in _figures(text)] == _figures(english), (english, text)


def test_the_comparison_page_writes_figures_in_its_language() -> None:
    en, ru = stats.compared("en"), stats.compared("ru")
    keys = ("games", "first", "first_ci", "first_ai", "first_ai_ci", "turns", "median")
    for row_en, row_ru in zip(en["rows"], ru["rows"], strict=True):
        for key in keys:
            english, russian = _figures(str(row_en[key])), _figures(str(row_ru[key]))
            assert [_as_english(f) for f in russian] == english, (key, row_en[key], row_ru[key])
            assert not any(re.search(r"\d\.\d", f) for f in russian)
    for key in ("first_chart", "length_chart"):
        english, russian = _chart_figures(en[key]), _chart_figures(ru[key])
        assert english and [_as_english(f) for f in russian] == english


def test_no_bar_of_the_first_player_chart_is_cut_at_the_scale_and_no_tick_leaves_the_chart() -> (
    None
):
    """Each bar is as long as its value on the chart's scale: jequier's random games (the first
    player winning about 74%) widen the scale, so its bar is not cut at 60% with the others; the
    first tick label starts at the axis instead of hanging off the picture's left edge."""
    svg = stats.compared("en")["first_chart"]
    bars = re.findall(
        r'<rect class="chart-bar[^"]*" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"'
        r"[^>]*><title>[^:]+: ([\d.]+)%",
        svg,
    )
    assert len(bars) >= 3
    ticks = re.findall(
        r'<text class="chart-tick" x="([\d.]+)"[^>]*text-anchor="(\w+)">([\d.]+)%', svg
    )
    (lo_x, lo_anchor, lo), _, (hi_x, _, hi) = ticks
    assert lo_anchor == "start"
    scale = (float(hi_x) - float(lo_x)) / (float(hi) - float(lo))  # units a percentage point
    for x, width, value in bars:
        assert float(lo) <= float(value) <= float(hi)
        assert (
            abs(float(x) + float(width) - (float(lo_x) + (float(value) - float(lo)) * scale)) < 0.2
        )
