"""Charts as SVG text, drawn on the server from the shipped figures (no script, no library).

Each function takes figures and the labels already translated, and returns one ``<svg>``
element that scales to its container (``viewBox``, no fixed width), so the same chart reads on
a phone and on a desktop.  Colours and type come from the site's stylesheet classes
(``chart-*``); every chart has a ``<title>`` and a ``<desc>`` for screen readers, and each bar
a ``<title>`` with its exact figure.  Numbers are written by the ``decimal`` function a caller
passes (a page passes its language's: "49,2" in Russian); the default writes "49.2".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

__all__ = [
    "length_chart",
    "share_chart",
    "paired_chart",
    "Bar",
    "standalone",
    "Decimal",
    "plain_decimal",
    "percent_text",
]

#: Writes a number with the given count of decimals (and the language's grouping of digits).
Decimal = Callable[[float, int], str]


def plain_decimal(value: float, digits: int) -> str:
    """A number as Python writes it: "49.2", "1234"."""
    return f"{value:.{digits}f}"


_W = 400  # viewBox width (about a phone's width in CSS pixels); heights follow the content
_CHARS = 50  # label characters per line at that width


def _svg(height: float, title: str, desc: str, body: list[str], css: str) -> str:
    return (
        f'<svg class="chart {css}" viewBox="0 0 {_W} {height:.0f}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg" preserveAspectRatio="xMinYMin meet">'
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>{''.join(body)}</svg>"
    )


def percent_text(x: float, decimal: Decimal, digits: int = 1) -> str:
    """A share (0..1) as a percentage written by ``decimal``: 0.4921 → "49.2%"."""
    return f"{decimal(100 * x, digits)}%"


def _lines(label: str) -> list[str]:
    """A label broken into lines that fit the chart's width, at word boundaries."""
    lines: list[str] = []
    for word in label.split():
        if lines and len(lines[-1]) + 1 + len(word) <= _CHARS:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def length_chart(
    length: dict[str, Any],
    title: str,
    axis: str,
    share_label: str,
    desc: str,
    decimal: Decimal = plain_decimal,
) -> str:
    """A histogram of game length (``length`` as in :func:`senet.sim.stats.summarize`): the
    share of games per bin, bins merged so that at most 48 bars are drawn; the median and the
    10th and 90th percentiles marked."""
    counts = length["hist"]["counts"]
    start = length["hist"]["start"]
    total = sum(counts) or 1
    last = length["p90"] + (length["p90"] - length["p10"])  # the long tail is cut for reading
    span = max(1, min(len(counts), last - start + 1))
    width = max(1, -(-span // 48))
    bins = []
    for i in range(0, span, width):
        bins.append((start + i, sum(counts[i : i + width]) / total))
    top = max(share for _, share in bins) or 1.0
    left, right, top_y, bottom = 44, _W - 8, 16, 170
    bar_w = (right - left) / len(bins)
    body = []
    for k in (0.5, 1.0):
        y = bottom - (bottom - top_y) * k
        body.append(
            f'<line class="chart-grid" x1="{left}" x2="{right}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="chart-tick" x="{left - 4}" y="{y + 4:.1f}" text-anchor="end">'
            f"{percent_text(top * k, decimal)}</text>"
        )
    for index, (lo, share) in enumerate(bins):
        h = (bottom - top_y) * share / top
        x = left + index * bar_w
        hi = lo + width - 1
        label = decimal(lo, 0) if width == 1 else f"{decimal(lo, 0)}–{decimal(hi, 0)}"
        body.append(
            f'<rect class="chart-bar" x="{x:.1f}" y="{bottom - h:.1f}" '
            f'width="{max(bar_w - 1, 0.5):.1f}" height="{h:.1f}">'
            f"<title>{escape(axis)} {label}: {percent_text(share, decimal, 2)} {escape(share_label)}</title></rect>"
        )

    def mark(value: int, css: str, text: str) -> None:
        if start <= value < start + span:
            x = left + (value - start) / width * bar_w + bar_w / 2
            body.append(
                f'<line class="{css}" x1="{x:.1f}" x2="{x:.1f}" y1="{top_y}" y2="{bottom}"/>'
                f'<text class="chart-note" x="{x + 3:.1f}" y="{top_y + 10}">{escape(text)}</text>'
            )

    mark(length["median"], "chart-median", decimal(length["median"], 0))
    for tick in range(0, span, max(1, span // 6)):
        x = left + tick / width * bar_w
        body.append(
            f'<text class="chart-tick" x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">'
            f"{decimal(start + tick, 0)}</text>"
        )
    body.append(
        f'<text class="chart-axis" x="{(left + right) / 2:.0f}" y="{bottom + 34}" '
        f'text-anchor="middle">{escape(axis)}</text>'
    )
    return _svg(bottom + 42, title, desc, body, "chart-length")


class Bar:
    """One row of a bar chart: a label, a share or value, its interval, highlighted or not."""

    __slots__ = ("label", "value", "low", "high", "strong", "note")

    def __init__(
        self,
        label: str,
        value: float,
        low: float,
        high: float,
        strong: bool = False,
        note: str = "",
    ) -> None:
        self.label, self.value, self.low, self.high = label, value, low, high
        self.strong, self.note = strong, note


def share_chart(
    bars: Sequence[Bar],
    title: str,
    desc: str,
    scale: tuple[float, float] = (0.0, 1.0),
    reference: float | None = None,
    percent: bool = True,
    decimal: Decimal = plain_decimal,
) -> str:
    """Horizontal bars with their 95 % intervals as whiskers, on ``scale``; an optional
    reference line (an even game at 50 %)."""
    lo_s, hi_s = scale
    left, right = 8, _W - 64
    body = []

    def x_of(v: float) -> float:
        return left + (right - left) * (min(max(v, lo_s), hi_s) - lo_s) / ((hi_s - lo_s) or 1)

    y = 4
    for bar in bars:
        css = "chart-bar strong" if bar.strong else "chart-bar"
        value = percent_text(bar.value, decimal) if percent else decimal(bar.value, 1)
        interval = (
            f"{percent_text(bar.low, decimal)}–{percent_text(bar.high, decimal)}"
            if percent
            else f"{decimal(bar.low, 1)}–{decimal(bar.high, 1)}"
        )
        for line in _lines(bar.label):
            y += 16
            body.append(f'<text class="chart-label" x="{left}" y="{y}">{escape(line)}</text>')
        y += 4
        body.append(
            f'<rect class="{css}" x="{left}" y="{y}" width="{x_of(bar.value) - left:.1f}" '
            f'height="14"><title>{escape(bar.label)}: {value} '
            f"(95%: {interval}){escape(bar.note)}</title></rect>"
            f'<line class="chart-whisker" x1="{x_of(bar.low):.1f}" x2="{x_of(bar.high):.1f}" '
            f'y1="{y + 7}" y2="{y + 7}"/>'
            f'<text class="chart-value" x="{x_of(max(bar.value, bar.high)) + 4:.1f}" '
            f'y="{y + 12}">{value}</text>'
        )
        y += 18
    height = y + 22
    if reference is not None:
        x = x_of(reference)
        body.append(
            f'<line class="chart-reference" x1="{x:.1f}" x2="{x:.1f}" y1="8" y2="{height - 18}"/>'
        )
    for v, anchor in ((lo_s, "start"), ((lo_s + hi_s) / 2, "middle"), (hi_s, "middle")):
        # the first label begins at the axis's start: centred there it would be cut off
        body.append(
            f'<text class="chart-tick" x="{x_of(v):.1f}" y="{height - 4}" text-anchor="{anchor}">'
            f"{percent_text(v, decimal, 0) if percent else decimal(v, 0)}</text>"
        )
    return _svg(height, title, desc, body, "chart-shares")


def paired_chart(
    rows: Sequence[tuple[str, Bar, Bar]],
    title: str,
    desc: str,
    ours: str,
    other: str,
    percent: bool = False,
    decimal: Decimal = plain_decimal,
) -> str:
    """For each decision: our reading and the other one as two bars on a common scale."""
    values = [b.high for _, a, b in rows] + [a.high for _, a, b in rows]
    top = max(values) * 1.1 if values else 1.0
    left, right = 8, _W - 56
    body = [
        f'<rect class="chart-bar" x="{left}" y="6" width="12" height="10"/>'
        f'<text class="chart-label" x="{left + 16}" y="15">{escape(ours)}</text>'
        f'<rect class="chart-bar other" x="{left + 190}" y="6" width="12" height="10"/>'
        f'<text class="chart-label" x="{left + 206}" y="15">{escape(other)}</text>'
    ]
    y = 24
    for label, a, b in rows:
        for line in _lines(label):
            y += 16
            body.append(f'<text class="chart-label" x="{left}" y="{y}">{escape(line)}</text>')
        y += 4
        for j, bar in enumerate((a, b)):
            w = (right - left) * bar.value / top
            value = percent_text(bar.value, decimal) if percent else decimal(bar.value, 1)
            css = "chart-bar" if j == 0 else "chart-bar other"
            body.append(
                f'<rect class="{css}" x="{left}" y="{y}" width="{w:.1f}" height="14">'
                f"<title>{escape(label)} — {escape(ours if j == 0 else other)}: {value}</title>"
                f"</rect>"
                f'<line class="chart-whisker" x1="{left + (right - left) * bar.low / top:.1f}" '
                f'x2="{left + (right - left) * bar.high / top:.1f}" y1="{y + 7}" y2="{y + 7}"/>'
                f'<text class="chart-value" x="{left + w + 4:.1f}" y="{y + 12}">{value}</text>'
            )
            y += 17
        y += 4
    height = y + 4
    return _svg(height, title, desc, body, "chart-paired")


_STANDALONE_STYLE = (
    "<style>.chart{font-family:sans-serif;background:#fffaf0}"
    ".chart-bar{fill:#b98a3e}.chart-bar.strong{fill:#7a4d12}.chart-bar.other{fill:#4f7a8c}"
    ".chart-whisker{stroke:#2b2116;stroke-width:1.5}.chart-grid{stroke:#dccaa8}"
    ".chart-reference,.chart-median{stroke:#2b2116;stroke-dasharray:4 3}"
    ".chart-tick,.chart-note{font-size:11px;fill:#6b5a3e}"
    ".chart-label,.chart-value,.chart-axis{font-size:12px;fill:#2b2116}</style>"
)


def standalone(svg: str) -> str:
    """A chart as a file of its own: the XML declaration and the colours the site's stylesheet
    would otherwise give it."""
    head, rest = svg.split(">", 1)
    return f'<?xml version="1.0" encoding="utf-8"?>\n{head}>{_STANDALONE_STYLE}{rest}\n'
