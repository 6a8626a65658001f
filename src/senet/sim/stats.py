"""Figures from a run's totals, each with its 95 % interval.

Shares (first player's wins, draws, Houses visited by the loser's last piece) use the Wilson
score interval, which stays inside [0, 1] and is honest for rare events; means (game length,
how often a rule fires per game) use the normal interval of the mean, mean ± 1.96·s/√n, which
at the sample sizes here (10⁴ games and more) is accurate.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from senet.engine import Variant

from .kernel import EVENTS
from .runner import Tally

__all__ = ["summarize", "wilson", "mean_interval", "Z95"]

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: float, squares: float, n: int, z: float = Z95) -> dict[str, Any]:
    """Mean of a per-game count from its sum and sum of squares, with its 95 % interval."""
    if n == 0:
        return {"mean": 0.0, "ci95": [0.0, 0.0]}
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    half = z * math.sqrt(var / n)
    return {"mean": mean, "ci95": [mean - half, mean + half]}


def _share(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": int(k), "share": k / n if n else 0.0, "ci95": [lo, hi]}


def _length(hist: np.ndarray) -> dict[str, Any]:
    """Mean (with interval), quantiles and the histogram (from its first to its last non-empty
    bin; the last bin of the full histogram collects every longer game)."""
    n = int(hist.sum())
    x = np.arange(hist.shape[0], dtype=np.float64)
    total = float((hist * x).sum())
    squares = float((hist * x * x).sum())
    out = mean_interval(total, squares, n)
    cum = np.cumsum(hist)
    for name, q in (("p10", 0.1), ("median", 0.5), ("p90", 0.9)):
        out[name] = int(np.searchsorted(cum, q * n, side="left")) if n else 0
    nonzero = np.nonzero(hist)[0]
    first, last = (int(nonzero[0]), int(nonzero[-1])) if nonzero.size else (0, 0)
    out["hist"] = {"start": first, "counts": [int(c) for c in hist[first : last + 1]]}
    out["capped"] = int(hist[-1])  # games at or beyond the last bin (their length is a floor)
    return out


def summarize(
    variant: Variant, tally: Tally, seed: int, players: tuple[str, str]
) -> dict[str, Any]:
    """Every figure of a run, JSON-able."""
    n = tally.games
    a, b, draws, stopped = (int(x) for x in tally.results)
    decided = a + b
    figures: dict[str, Any] = {
        "variant": variant.name,
        "games": n,
        "seed": seed,
        "players": {"A": players[0], "B": players[1]},
        "first_player": _share(a, n),
        "second_player": _share(b, n),
        "draws": _share(draws, n),
        "stopped": stopped,
        "turns": _length(tally.hist_turns),
        "decisions": _length(tally.hist_decisions),
        "events": {
            name: mean_interval(float(tally.ev_sum[i]), float(tally.ev_sq[i]), n)
            | {"games_total": int(tally.ev_sum[i])}
            for i, name in enumerate(EVENTS)
            if tally.ev_sum[i]
        },
        "last_piece_houses": {
            str(sq): _share(int(tally.visits[sq]), decided) for sq in sorted(variant.houses)
        },
        "decided": decided,
    }
    return figures
