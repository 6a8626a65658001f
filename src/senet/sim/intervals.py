"""95 % intervals, in plain Python (no NumPy or Numba: the pure command line uses them too).

Shares use the Wilson score interval, which stays inside [0, 1] and is honest for rare events;
means use the normal interval of the mean, mean ± 1.96·s/√n, which at the sample sizes of a
simulation (10⁴ games and more) is accurate.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["wilson", "mean_interval", "Z95"]

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
