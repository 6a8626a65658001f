"""``bench/ai_ladder.py``: the ladder's scores as rating gaps and ratings."""

from __future__ import annotations

import pytest
from bench_scripts import bench_module

ladder = bench_module("ai_ladder")


def test_a_score_is_the_rating_gap_that_expects_it() -> None:
    assert ladder.rating_gap(0.5) == 0
    # Elo's logistic curve: 100 points expect 64.0%, 200 points 76.0%
    assert ladder.rating_gap(1 / (1 + 10 ** (-100 / 400))) == pytest.approx(100)
    assert ladder.rating_gap(0.24) == pytest.approx(-ladder.rating_gap(0.76))
    assert ladder.rating_gap(1.0) == pytest.approx(1200, abs=1)  # clamped, not infinite


def test_ratings_chain_the_levels_from_the_weakest_while_the_pairs_do() -> None:
    keys = ["beginner", "casual", "expert", "master"]
    gaps = {("beginner", "casual"): 220.0, ("casual", "expert"): 140.0}
    assert ladder.ladder_ratings(gaps, keys) == {
        "beginner": ladder.LADDER_BASE,
        "casual": ladder.LADDER_BASE + 220,
        "expert": ladder.LADDER_BASE + 360,
    }
    assert ladder.ladder_ratings({("expert", "master"): 70.0}, keys) == {
        "beginner": ladder.LADDER_BASE
    }
