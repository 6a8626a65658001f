"""The review's search: exact values first, else the master's evaluation searched a fixed depth,
so a review is the same whatever the clock says (a busy machine never makes it shallower)."""

from __future__ import annotations

import itertools
import random

import pytest

from senet.ai import search
from senet.ai.review import REVIEW_DEPTH, review_game, review_searcher
from senet.ai.solver import for_seat
from senet.engine import Game, draw_throw


def _opening(variant: str, decisions: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game(variant)
    while sum(1 for a in game.actions if not hasattr(a, "value")) < decisions:
        pos = game.position
        if pos.is_chance():
            game.push_throw(draw_throw(rng, pos.variant.instrument))
        else:
            game.push(rng.choice(pos.legal_moves()))
    return game


@pytest.mark.parametrize("variant", ["standard", "piccione"])
def test_a_review_does_not_depend_on_the_clock(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _opening(variant, 6, seed=2)
    calm = review_game(game)
    ticks = itertools.count()
    # a clock where every look finds a second gone: a budgeted search would stop at depth 1
    monkeypatch.setattr(search, "now", lambda: float(next(ticks)))
    rushed = review_game(game)
    assert rushed == calm


def test_the_review_values_every_move_by_its_fixed_depth_search() -> None:
    game = _opening("standard", 4, seed=5)
    rows = review_game(game)
    decided = [pos for pos, action in game if not hasattr(action, "value")]
    for row, pos in zip(rows, decided, strict=True):
        searcher = review_searcher(pos)
        assert searcher.depth == REVIEW_DEPTH and searcher.budget == 0
        values = {pos.move_text(m): for_seat(v, row.mover) for m, v in searcher.move_values(pos)}
        assert row.before == pytest.approx(max(values.values()))
        assert row.after == pytest.approx(values[row.move])
        assert values[row.best] == pytest.approx(row.before)
