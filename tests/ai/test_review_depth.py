"""The review's search: exact values first, else the master's evaluation searched a fixed depth,
so a review is the same whatever the clock says (a busy machine never makes it shallower)."""

from __future__ import annotations

import itertools
import random

import pytest

from senet.ai import evaluation_for, find_level, search
from senet.ai.review import REVIEW_DEPTH, classify, review_game, review_searcher
from senet.ai.search import Searcher
from senet.ai.solver import for_seat
from senet.engine import Game, Move, Position, draw_throw


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


def test_a_part_of_a_divided_throw_gets_the_verdict_of_a_deeper_search() -> None:
    # piccione: a throw is divided between pieces; A has entered a piece with 1 of its 3 points
    # and moves it on with the 2 left (1-3) or with 1 of them (1-2, then 1 more to spend).
    # Three decisions deep the review saw the rest of A's turn and little else, valued 1-2 far
    # above 1-3 and called 1-3 a mistake; from four decisions on the search calls it none.
    pos = Position.from_fen(
        "piccione A........./........../....B..... A 3 hand=0/1 direction=forward entered=yes"
    )
    played = next(m for m in pos.legal_moves() if pos.move_text(m) == "1-3")

    def verdict(values: list[tuple[Move, float]]) -> str:
        chances = {m: for_seat(v, 0) for m, v in values}
        return classify(max(chances.values()) - chances[played])

    master = find_level("master")
    deep = Searcher(evaluation_for(pos.variant, master.model), 6, master.solve_states)
    assert verdict(deep.move_values(pos)) == ""
    assert verdict(review_searcher(pos).move_values(pos)) == "mistake"  # the old review's

    (row,) = review_game([(pos, played)])
    assert not row.exact and row.verdict == "" and row.loss == pytest.approx(0.0)
