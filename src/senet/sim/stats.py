"""Figures from a run's totals, each with its 95 % interval (:mod:`.intervals`): Wilson for
shares (first player's wins, draws, Houses visited by the loser's last piece), the normal
interval of the mean for game length and how often a rule fires per game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from senet.compiled.events import EVENTS
from senet.engine import Variant

from .intervals import Z95, mean_interval, wilson

if TYPE_CHECKING:  # a type only: the runner loads the compiled rules (Numba)
    from .runner import Tally

__all__ = ["summarize", "wilson", "mean_interval", "Z95"]


def _share(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": int(k), "share": k / n if n else 0.0, "ci95": [lo, hi]}


def _length(hist: np.ndarray, total: int, squares: int) -> dict[str, Any]:
    """Mean (with interval, from the exact sums of the lengths and of their squares),
    quantiles and the histogram (from its first to its last non-empty bin).  The last bin of
    the full histogram, ``cap``, collects every longer game: a quantile that falls there is a
    floor, and ``capped`` counts those games."""
    n = int(hist.sum())
    out = mean_interval(float(total), float(squares), n)
    cum = np.cumsum(hist)
    for name, q in (("p10", 0.1), ("median", 0.5), ("p90", 0.9)):
        out[name] = int(np.searchsorted(cum, q * n, side="left")) if n else 0
    nonzero = np.nonzero(hist)[0]
    first, last = (int(nonzero[0]), int(nonzero[-1])) if nonzero.size else (0, 0)
    out["hist"] = {"start": first, "counts": [int(c) for c in hist[first : last + 1]]}
    out["capped"] = int(hist[-1])  # games at or beyond the last bin (their length is a floor)
    out["cap"] = int(hist.shape[0] - 1)
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
        "turns": _length(tally.hist_turns, *tally.lengths[:2]),
        "decisions": _length(tally.hist_decisions, *tally.lengths[2:]),
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
