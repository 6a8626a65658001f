"""Root decisions by rollouts of the expert policy on the compiled simulator."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

import senet.ai.search
from senet.ai import LEVELS, choose_move, find_level, rolls_out
from senet.ai.rollout import (
    BATCH,
    RolloutPlayer,
    position_seed,
    rollout_sums,
    settled,
    supports,
)
from senet.ai.tables import table_for
from senet.compiled.tables import compile_rules
from senet.engine import VARIANTS, Move, Position, find_variant


class _StepClock:
    """Advances ``step`` seconds at every reading: the rollouts stop by work done."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


MIDGAME = "kendall AB...BAABB/....A...../..BA...... B 1"


def test_the_budget_bounds_the_rollouts_by_the_injected_clock() -> None:
    pos = Position.from_fen(MIDGAME)
    assert len(pos.legal_moves()) == 3
    clock = _StepClock(0.01)  # every batch costs 10 ms on this clock
    player = RolloutPlayer(pos.variant, budget=0.25, clock=clock, min_batches=2)
    player.move_values(pos)
    # one reading at the start, one after each batch: the batch that crosses 0.25 s is the last
    # (or fewer, if the best move became clear first)
    assert 2 * BATCH <= player.rollouts <= 26 * BATCH
    assert clock.now <= 0.25 + 2 * clock.step


def test_an_exhausted_budget_still_plays_the_minimum_of_rollouts() -> None:
    pos = Position.from_fen(MIDGAME)
    player = RolloutPlayer(pos.variant, budget=0.25, clock=_StepClock(10.0), min_batches=3)
    values = player.move_values(pos, start=0.0)
    assert player.rollouts == 3 * BATCH
    assert [m for m, _ in values] == pos.legal_moves()
    assert all(0.0 <= v <= 1.0 for _, v in values)


def test_the_same_position_and_work_give_the_same_values() -> None:
    pos = Position.from_fen(MIDGAME)
    first = RolloutPlayer(pos.variant, clock=_StepClock(0.02)).move_values(pos)
    again = RolloutPlayer(pos.variant, clock=_StepClock(0.02)).move_values(pos)
    assert first == again
    # the seed is the position's: another position gets other throws
    other = Position.from_fen("kendall AB...BAABB/....A...../..BA...... B 2")
    assert position_seed(pos) != position_seed(other)


def test_common_random_numbers_give_equal_children_equal_values() -> None:
    variant = find_variant("standard")
    state = Position.initial(variant).state
    rules = RolloutPlayer(variant).rules
    children = np.array([state, state, state], dtype=np.int64)
    sums, pairs = np.zeros(3), np.zeros((3, 3))
    lo, hi, w = RolloutPlayer(variant).weights
    rollout_sums(rules.table, rules.path, children, 7, 0, 16, 12, lo, hi, w, sums, pairs)
    assert sums[0] == sums[1] == sums[2]
    assert not pairs.any()  # no paired difference at all
    assert 0.0 < sums[0] / 16 < 1.0


def test_rollouts_stop_once_the_deciders_best_move_is_clear() -> None:
    n = 64
    # child 0 ahead of child 1 in every rollout by 0.3 (paired differences without noise)
    sums = np.array([0.8 * n, 0.5 * n])
    pairs = np.full((2, 2), 0.09 * n)
    np.fill_diagonal(pairs, 0.0)
    assert settled(sums, pairs, n, maximise=True)  # A wants child 0: clear
    assert settled(sums, pairs, n, maximise=False)  # B wants child 1: clear too
    # the same means, but the differences swing by ±1 from rollout to rollout: not sure yet
    noisy = np.full((2, 2), 0.09 * n + n)
    np.fill_diagonal(noisy, 0.0)
    assert not settled(sums, noisy, n, maximise=True)
    # a three-way choice where B's best is clear but A's is not
    sums3 = np.array([0.6 * n, 0.6 * n, 0.2 * n])
    pairs3 = np.array(
        [[0.0, 0.01 * n, 0.16 * n], [0.01 * n, 0.0, 0.16 * n], [0.16 * n, 0.16 * n, 0.0]]
    )
    assert settled(sums3, pairs3, n, maximise=False)
    assert not settled(sums3, pairs3, n, maximise=True)


def test_drowned_pieces_roll_out_and_come_back() -> None:
    # Adelaida: drowned pieces may revive; the rollouts follow them without losing count.
    pos = Position.from_fen("adelaida ....A...../........../.......A.B A 2 drowned=1/0")
    player = RolloutPlayer(pos.variant, clock=_StepClock(0.05))
    values = player.move_values(pos)
    assert {m.text() for m, _ in values} == {"5-7", "revive"}
    assert all(0.0 <= v <= 1.0 for _, v in values)


def test_variants_the_simulator_cannot_play_keep_the_search() -> None:
    master = find_level("master")
    assert not supports(find_variant("kendall-1978"))
    pos = Position.initial(find_variant("kendall-1978"))
    assert not rolls_out(pos, master)
    # piccione divides a throw among the pieces, which the compiled rules refuse
    assert not supports(find_variant("piccione"))
    with pytest.raises(ValueError, match="divided_throws"):
        compile_rules(find_variant("piccione"))


@pytest.mark.parametrize("name", [n for n in VARIANTS if n not in ("kendall-1978", "piccione")])
def test_every_other_variant_rolls_out_on_its_compiled_rules(name: str) -> None:
    assert supports(find_variant(name))
    assert compile_rules(find_variant(name)).variant.name == name


def test_the_master_rolls_out_where_it_is_configured_to() -> None:
    master = LEVELS[-1]
    assert master.rollouts > 0
    for name in master.rollout_variants:
        assert rolls_out(Position.initial(find_variant(name)), master)
    for lower in LEVELS[:-1]:
        assert lower.rollouts == 0


def test_exact_values_come_before_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two against one: in the shipped table; 14-17 is the exact best move (a rollout of
    # 27-30 looks as good to the linear evaluation).
    pos = Position.from_fen("standard .........B/...A....../......A... A 3")
    assert table_for(pos.variant).move_values(pos) is not None
    monkeypatch.setattr(senet.ai.search, "now", _StepClock(0.003))
    rolling = replace(find_level("master"), key="rolling-master", rollout_variants=("standard",))
    assert rolls_out(pos, rolling)
    assert choose_move(pos, rolling, random.Random(0)) == Move("move", 14, 17)


def test_the_master_plays_the_same_game_with_the_same_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from senet.ai import forget_searchers
    from senet.engine import Game, draw_throw

    def game() -> list[str]:
        forget_searchers()
        monkeypatch.setattr(senet.ai.search, "now", _StepClock(0.003))
        g = Game("kendall")
        throws = random.Random(5)
        plies = 0
        while not g.is_over() and plies < 24:
            pos = g.position
            if pos.is_chance():
                g.push_throw(draw_throw(throws, pos.variant.instrument))
                continue
            g.push(choose_move(pos, "master", random.Random(plies)))
            plies += 1
        return [str(a) for a in g.actions]

    assert game() == game()
