"""Throwing instruments as exact chance distributions.

The engine has no randomness of its own: a throw is an *outcome* of a chance node, and every
instrument here is a table of outcomes with exact :class:`fractions.Fraction` probabilities.
Whoever drives a game (a test, the site's fair-throw service, a simulation) picks the outcome;
a driver that wants a random throw passes its own generator to :func:`draw_throw`, the one
way every simulation, benchmark, training run and the command line draw one.

Four two-sided sticks give 16 equally likely patterns; the count of marked sides up is the
throw, and no marked side up counts as 5 (every source here agrees).  Bell's long die is a
uniform 1-4.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from random import Random

__all__ = ["Instrument", "STICKS", "STICKS6", "DIE4", "draw_throw", "sticks_value"]


def sticks_value(pattern: int) -> int:
    """Return the throw shown by a 4-bit stick pattern (bit set = marked side up).

    >>> sticks_value(0b0000), sticks_value(0b1011), sticks_value(0b1111)
    (5, 3, 4)
    """
    if not 0 <= pattern <= 15:
        raise ValueError(f"a stick pattern is 4 bits (0-15), got {pattern}")
    ups = bin(pattern).count("1")
    return ups if ups else 5


@dataclass(frozen=True)
class Instrument:
    """A throwing instrument: its name, its faces, and how a uniform pattern maps to a throw.

    ``patterns`` is the number of equally likely raw patterns (16 for four sticks, 4 for the
    die); ``value_of(pattern)`` turns a pattern into a throw.  The exact distribution is
    derived from those two, so it can never drift from the physical model.
    """

    name: str
    patterns: int
    description_en: str
    description_ru: str
    #: four sticks: what no marked side up counts (5 in our sources, 6 in Jéquier's game)
    blank: int = 5

    def value_of(self, pattern: int) -> int:
        """Throw value shown by raw pattern ``pattern`` (0 <= pattern < patterns)."""
        if self.patterns == 16:
            value = sticks_value(pattern)
            return self.blank if value == 5 else value
        if not 0 <= pattern < self.patterns:
            raise ValueError(f"a {self.name} pattern is 0-{self.patterns - 1}, got {pattern}")
        return pattern + 1

    @cached_property
    def outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """Every throw value with its exact probability, in increasing order of value (computed once)."""
        counts: dict[int, int] = {}
        for pattern in range(self.patterns):
            value = self.value_of(pattern)
            counts[value] = counts.get(value, 0) + 1
        return tuple(
            (value, Fraction(count, self.patterns)) for value, count in sorted(counts.items())
        )

    @cached_property
    def values(self) -> tuple[int, ...]:
        return tuple(value for value, _ in self.outcomes)

    @cached_property
    def pattern_values(self) -> tuple[int, ...]:
        """The throw shown by each raw pattern, indexed by pattern (computed once)."""
        return tuple(self.value_of(pattern) for pattern in range(self.patterns))


def draw_throw(rng: Random, instrument: Instrument) -> int:
    """One throw of ``instrument`` with its exact odds, drawn from the caller's generator.

    A raw pattern (the faces of the sticks, the face of the die) is drawn uniformly and read,
    so the odds are the physical model's and a seeded generator gives the same throws again.

    >>> import random
    >>> rng = random.Random(1)
    >>> throws = [draw_throw(rng, STICKS) for _ in range(1600)]
    >>> sorted(set(throws)), 500 < throws.count(2) < 700  # a 2 is 6 patterns of 16
    ([1, 2, 3, 4, 5], True)
    """
    return instrument.pattern_values[rng.randrange(instrument.patterns)]


STICKS = Instrument(
    "sticks",
    16,
    "four two-sided sticks: the count of marked sides up, none up = 5",
    "четыре двусторонние палочки: число палочек лицевой стороной вверх, ни одной = 5",
)
STICKS6 = Instrument(
    "sticks6",
    16,
    "four two-sided sticks: the count of plain sides up, none up = 6",
    "четыре двусторонние палочки: число палочек простой стороной вверх, ни одной = 6",
    blank=6,
)
DIE4 = Instrument(
    "die4",
    4,
    "one four-sided long die: 1, 2, 3 or 4",
    "одна четырёхгранная длинная кость: 1, 2, 3 или 4",
)
