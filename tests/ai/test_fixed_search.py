"""The master's search is a fixed amount of work, so a loaded machine changes nothing but the
time a move takes: the deepening counts positions evaluated, the rollouts count batches, and
the clock is read only for a safety cap."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator

import pytest

import senet.ai.search as search_module
from senet.ai import (
    LEVELS,
    Level,
    choose_move,
    find_level,
    forget_searchers,
    rollout_player_for,
    rolls_out,
    searcher_for,
)
from senet.ai.evaluation import evaluator_for
from senet.ai.search import Searcher
from senet.ai.timing import sample
from senet.engine import VARIANTS, Position, find_variant


class _Clock:
    """A clock that advances ``step`` seconds at every reading (a busy machine: each reading
    comes later than the work between them would take on an idle one)."""

    def __init__(self, step: float) -> None:
        self.step = step
        self.now = 0.0

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _positions(name: str, count: int) -> list[Position]:
    return [s.position for s in sample(name, count, 1, seed=5)][:count]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[float], None]]:
    """Sets the search's clock (:data:`senet.ai.search.now`) to one that steps as given."""

    def use(step: float) -> None:
        monkeypatch.setattr(search_module, "now", _Clock(step))

    forget_searchers()
    yield use
    forget_searchers()


def test_every_variant_has_the_masters_fixed_amount_of_search() -> None:
    master = find_level("master")
    assert {name for name, _ in master.nodes} == set(VARIANTS)
    assert all(master.node_budget(name) > 0 for name in VARIANTS)
    assert master.rollout_batches > 0
    # the levels below the master search to a fixed depth: nothing of theirs is timed
    assert all(level.budget == 0 and not level.nodes for level in LEVELS if level is not master)


@pytest.mark.parametrize("name", ["standard", "kendall-1978", "piccione"])
def test_a_node_budget_searches_the_same_however_slow_the_clock(name: str) -> None:
    ev = evaluator_for(find_variant(name), "net")
    for pos in _positions(name, 2):
        idle = Searcher(ev, 8, node_budget=40_000, clock=_Clock(0.0))
        # 1 ms between readings: a time budget of 0.3 s stops after 300 decisions
        busy = Searcher(ev, 8, node_budget=40_000, clock=_Clock(0.001))
        assert idle.move_values(pos) == busy.move_values(pos)
        assert idle.reached == busy.reached and idle.nodes == busy.nodes
        timed = Searcher(ev, 8, budget=0.3, clock=_Clock(0.001))
        timed.move_values(pos)
        assert timed.reached <= idle.reached


def test_a_node_budget_abandons_an_iteration_past_its_hard_limit() -> None:
    ev = evaluator_for(find_variant("kendall"), "net")
    pos = _positions("kendall", 1)[0]
    searcher = Searcher(ev, 8, node_budget=3_000, clock=_Clock(0.0))
    values = searcher.move_values(pos)
    assert 2 <= searcher.reached < 8
    # the abandoned iteration stopped at the first check past the limit
    assert searcher.nodes <= 3_000 * search_module.HARD_FACTOR + 3_000
    fixed = Searcher(ev, searcher.reached).move_values(pos)
    assert [v for _, v in values] == pytest.approx([v for _, v in fixed], abs=1e-12)
    assert Searcher(ev, 8, node_budget=60_000).move_values(pos) is not None


def test_past_the_wall_cap_a_node_budget_falls_back_to_depth_one() -> None:
    # The process got no core for seconds: from the fourth reading on, the clock says the
    # cap has passed since the move began.  Only then does the clock decide anything.
    readings = iter([0.0, 0.0, 0.0])
    late = search_module.WALL_CAP + 0.01
    ev = evaluator_for(find_variant("standard"), "net")
    pos = _positions("standard", 1)[0]
    searcher = Searcher(ev, 8, node_budget=70_000, clock=lambda: next(readings, late))
    values = searcher.move_values(pos)
    assert searcher.reached == 1
    one = Searcher(ev, 1).move_values(pos)
    assert [v for _, v in values] == pytest.approx([v for _, v in one], abs=1e-12)


def test_a_search_has_one_kind_of_budget() -> None:
    ev = evaluator_for(find_variant("standard"), "net")
    with pytest.raises(ValueError, match="not both"):
        Searcher(ev, 4, budget=0.3, node_budget=1_000)
    with pytest.raises(ValueError, match="negative"):
        Searcher(ev, 4, node_budget=-1)


def _work(position: Position, level: Level) -> int:
    """How much the level's last move in ``position`` searched: the depth it reached, or
    where it rolled out, the rollouts per move."""
    if rolls_out(position, level):
        return rollout_player_for(position, level).rollouts
    return searcher_for(position, level).reached


@pytest.mark.slow  # the master's whole move, three times, on four positions of three variants
@pytest.mark.parametrize("name", ["standard", "kendall", "bell"])
def test_the_master_plays_the_same_moves_on_a_busy_machine(
    name: str, clock: Callable[[float], None]
) -> None:
    """Kendall's game covers the rollouts at the root, the others the search."""
    master = find_level("master")
    timed = dataclasses.replace(master, key="timed-master", nodes=(), rollout_batches=0)
    positions = _positions(name, 4)
    moves, work = {}, {}
    for step, level in ((0.0, master), (0.001, master), (0.003, timed)):
        # 1 ms between readings of the clock: a machine tens of times loaded (a move reads it
        # up to ~2,000 times, under the 3 s cap)
        clock(step)
        key = (step, level.key)
        moves[key], work[key] = [], []
        for p in positions:
            moves[key].append(choose_move(p, level, random.Random(1)).text())
            work[key].append(_work(p, level))
            forget_searchers()
    assert moves[0.0, "master"] == moves[0.001, "master"]
    assert work[0.0, "master"] == work[0.001, "master"]
    # the same level on the clock, as the master was, does less under a load (3 ms a reading)
    busy, timed_work = work[0.001, "master"], work[0.003, "timed-master"]
    assert all(t <= b for t, b in zip(timed_work, busy)) and timed_work != busy
