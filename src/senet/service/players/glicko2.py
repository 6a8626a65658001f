"""The Glicko-2 rating system (Mark Glickman, "Example of the Glicko-2 system", 2013): pure.

A rating is three numbers on the Glicko scale: ``rating`` (1500 for a newcomer), its deviation
``rd`` (how uncertain it is: 350 for a newcomer, smaller as games are played) and the
``volatility`` σ (how erratic the player's results are).  :func:`rate` is one rating period
(the paper's steps 1–8): the player's rating after the games of that period against
opponents whose ratings were as given at its start.  The site rates after every game, one
game per period (as lichess does), so a rating moves at once; a period without games only
widens the deviation (:func:`idle`).

>>> after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0),
...                                       (Rating(1700, 300), 0)])
>>> round(after.rating, 2), round(after.rd, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper prints 1464.06 and 0.05999: it rounds μ' to four places before scaling back, and
cuts σ' to five.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Rating",
    "rate",
    "idle",
    "NEW",
    "TAU",
    "PROVISIONAL_RD",
    "SCALE",
]

#: Glickman's scale factor between the Glicko scale and Glicko-2's internal one
SCALE = 173.7178
#: the system constant τ: how much the volatility may change in a period (0.3–1.2 reasonable;
#: smaller keeps it steadier).  0.5 is the paper's example's and lichess's choice (0.75 there).
TAU = 0.5
#: a rating whose deviation is above this is provisional, shown with "?" (lichess's threshold)
PROVISIONAL_RD = 110.0
#: the deviation never falls below this (a rating always keeps some room to move) nor rises
#: above a newcomer's
MIN_RD = 45.0
MAX_RD = 350.0
_EPSILON = 1e-6  # the convergence tolerance of step 5, the paper's


@dataclass(frozen=True)
class Rating:
    rating: float = 1500.0
    rd: float = MAX_RD
    volatility: float = 0.06

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


NEW = Rating()


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(player: Rating) -> Rating:
    """The rating after a period without games: only the deviation grows (step 6 alone)."""
    phi = player.rd / SCALE
    phi_star = math.sqrt(phi * phi + player.volatility * player.volatility)
    return Rating(player.rating, min(MAX_RD, phi_star * SCALE), player.volatility)


def rate(
    player: Rating,
    results: Sequence[tuple[Rating, float]],
    tau: float = TAU,
    *,
    min_rd: float = 0.0,
) -> Rating:
    """The player's rating after one period with ``results`` (opponent, score: 1 a win, 0.5 a
    draw, 0 a loss).  ``min_rd``: a floor for the new deviation (the site uses
    :data:`MIN_RD`; the paper's example has none)."""
    if not results:
        return idle(player)
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    # Steps 3 and 4: the estimated variance v and improvement Δ.
    v_inverse = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1, not {score}")
        mu_j = (opponent.rating - 1500.0) / SCALE
        phi_j = opponent.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        delta_sum += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * delta_sum
    # Step 5: the new volatility, by the Illinois algorithm.
    a = math.log(sigma * sigma)
    phi2 = phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / (
            tau * tau
        )

    big_a = a
    if delta * delta > phi2 + v:
        big_b = math.log(delta * delta - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    new_sigma = math.exp(big_a / 2.0)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi2 + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * delta_sum
    # Step 8: back to the Glicko scale.
    rd = min(MAX_RD, max(min_rd, new_phi * SCALE))
    return Rating(new_mu * SCALE + 1500.0, rd, new_sigma)
