"""The computer levels' ratings: fixed, measured by the ladder, never moved by games.  Pure.

A level plays the same way whoever it meets, so its strength is known beforehand and a game
against it tells nothing new about it: its rating in each variant comes from the ladder
(``bench/ai_ladder.py``; the table "casual vs beginner, expert vs casual, master vs expert" of
*The levels* in ``docs/benchmarks.md``), never from the people it played.  Each score ``p`` of
a level against the one below it is a gap of ``400·log10(p / (1 − p))`` points (the
logistic expectation Glicko-2 shares with Elo); the gaps are laid end to end and the ladder is
placed so that its levels average :data:`CENTRE` (a newcomer's 1500: a newcomer is offered a
middle level).  A level's deviation is :data:`LEVEL_RD`, the least any rating has: it is not
a guess.
"""

from __future__ import annotations

import math

__all__ = ["CENTRE", "LADDER", "LADDER_SCORES", "LEVEL_RD", "level_rating", "level_ratings"]

#: the levels of the ladder, weakest first
LADDER = ("beginner", "casual", "expert", "master")
#: the average of the levels' ratings in every variant (a newcomer's rating)
CENTRE = 1500.0
#: a level's rating deviation (glicko2.MIN_RD: the rating is measured, not estimated)
LEVEL_RD = 45.0
#: a level's volatility (it never changes)
LEVEL_VOLATILITY = 0.06

#: the ladder's scores per variant: casual against beginner, expert against casual, master
#: against expert (docs/benchmarks.md, *The levels*, the shipped levels' figures)
LADDER_SCORES: dict[str, tuple[float, float, float]] = {
    "standard": (0.783, 0.689, 0.599),
    "kendall": (0.667, 0.636, 0.718),
    "bell": (0.817, 0.619, 0.801),
    "piccione": (0.963, 0.693, 0.597),
    "adelaida": (0.822, 0.844, 0.712),
    "adelaida-long": (0.888, 0.906, 0.582),
    "kendall-1978": (0.605, 0.656, 0.867),
    "jequier": (0.741, 0.907, 0.737),
}

#: a variant the ladder has not measured takes standard's figures
_FALLBACK = "standard"


def _gap(score: float) -> float:
    return 400.0 * math.log10(score / (1.0 - score))


def level_ratings(variant: str) -> dict[str, float]:
    """Every level's rating in ``variant`` (rounded to a point), weakest first."""
    scores = LADDER_SCORES.get(variant, LADDER_SCORES[_FALLBACK])
    steps = [0.0]
    for score in scores:
        steps.append(steps[-1] + _gap(score))
    shift = CENTRE - sum(steps) / len(steps)
    return {level: float(round(step + shift)) for level, step in zip(LADDER, steps)}


def level_rating(level: str, variant: str) -> float | None:
    """A level's rating in ``variant``; None for a level the ladder does not have."""
    return level_ratings(variant).get(level)
