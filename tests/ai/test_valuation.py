"""Move values for judging players: exact where covered, else long rollouts on shared throws."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from senet.ai.evaluation import evaluator_for
from senet.ai.network import network_for
from senet.ai.tables import table_for
from senet.ai.valuation import FULL_GAME, MoveValuation, value_moves
from senet.engine import Position

MIDGAME = "kendall AB...BAABB/....A...../..BA...... B 1"
BENCH = Path(__file__).resolve().parents[2] / "bench" / "ai_error.py"


def test_the_same_seed_gives_the_same_values_and_another_seed_other_throws() -> None:
    pos = Position.from_fen(MIDGAME)
    first = value_moves(pos, min_rollouts=512, max_rollouts=512, seed=11)
    again = value_moves(pos, min_rollouts=512, max_rollouts=512, seed=11)
    assert not first.exact and first.rollouts == 512
    assert np.array_equal(first.values, again.values)
    assert np.array_equal(first.stderr, again.stderr)
    other = value_moves(pos, min_rollouts=512, max_rollouts=512, seed=12)
    assert not np.array_equal(first.values, other.values)
    # by default the seed is the position's own
    assert np.array_equal(
        value_moves(pos, min_rollouts=512, max_rollouts=512).values,
        value_moves(pos, min_rollouts=512, max_rollouts=512).values,
    )


def test_the_shipped_table_is_preferred_to_rollouts() -> None:
    # two against one: covered by the table; 14-17 is the exact best, 27-30 gives up 0.054
    pos = Position.from_fen("standard .........B/...A....../......A... A 3")
    valuation = value_moves(pos)
    table = table_for(pos.variant)
    assert table is not None
    assert valuation.exact and valuation.rollouts == 0 and valuation.halves is None
    assert valuation.values.tolist() == [v for _, v in table.move_values(pos) or []]
    texts = [m.text() for m in valuation.moves]
    assert texts[valuation.best()] == "14-17"
    assert valuation.error(texts.index("27-30")) == pytest.approx(0.054, abs=0.001)
    assert valuation.error_stderr(texts.index("27-30")) == 0.0


def test_a_small_future_is_solved_and_without_a_solve_it_is_rolled_out() -> None:
    # Adelaida, a drowned piece that may come back: 740 positions in all; bearing off wins
    pos = Position.from_fen("adelaida ........../........../.......BBA B 3 drowned=0/1")
    solved = value_moves(pos, solve_states=5_000)
    texts = [m.text() for m in solved.moves]
    assert solved.exact
    assert texts[solved.best()] == "28-off"
    rolled = value_moves(pos, solve_states=0, min_rollouts=512, max_rollouts=512)
    assert not rolled.exact and rolled.rollouts == 512
    assert texts[rolled.best()] == "28-off"


def test_a_clearly_worse_move_is_valued_below_by_many_standard_errors() -> None:
    # B to move with a 5: bearing off from 27 leaves A's pieces on 26 and 29-30 a free run;
    # 21-26 keeps the block in front of them (a 0.1 gap in the expert's rollouts)
    pos = Position.from_fen("standard ........../......B.B./B..B.AB.AA B 5")
    valuation = value_moves(pos, min_rollouts=4096, max_rollouts=4096, solve_states=0)
    texts = [m.text() for m in valuation.moves]
    good, bad = texts.index("21-26"), texts.index("27-off")
    mine = valuation.mine()
    assert mine[good] - mine[bad] > 6 * valuation.stderr[good, bad]
    assert valuation.error(bad) > 0.05
    assert valuation.cross_validated_error(bad) > 0.05
    assert valuation.error(valuation.best()) == 0.0


def test_rollouts_double_until_the_watched_differences_are_precise() -> None:
    pos = Position.from_fen(MIDGAME)
    loose = value_moves(pos, min_rollouts=512, max_rollouts=8192, precision=1.0)
    assert loose.rollouts == 512
    strict = value_moves(pos, min_rollouts=512, max_rollouts=8192, precision=1e-9)
    assert strict.rollouts == 8192
    some = value_moves(pos, min_rollouts=512, max_rollouts=65_536, precision=0.003, watch=[0])
    assert some.rollouts < 65_536
    assert some.error_stderr(0) <= 0.003
    # the two halves are the two halves of the same rollouts
    assert some.halves is not None
    assert np.allclose((some.halves[0] + some.halves[1]) / 2, some.values)


def test_rollouts_to_the_end_of_the_game_value_by_results_alone() -> None:
    pos = Position.from_fen(MIDGAME)
    valuation = value_moves(pos, horizon=FULL_GAME, min_rollouts=512, max_rollouts=512)
    # every rollout ends in a win or a loss: the means are multiples of 1/512
    assert np.allclose(valuation.values * 512, np.round(valuation.values * 512))


@pytest.mark.parametrize("policy_lookahead, luck_adjusted", [(0, False), (1, True), (2, False)])
def test_rollouts_cut_at_the_horizon_take_the_policys_evaluation_there(
    policy_lookahead: int, luck_adjusted: bool
) -> None:
    # Rollouts that stop in a table may also stop after ``horizon`` decisions: at horizon 0
    # no throw is drawn and each move is valued by the rollouts' own evaluation of the
    # position after it (the network where the network plays, else the linear evaluation),
    # with no luck to take out.
    pos = Position.from_fen(MIDGAME)
    children = [pos.apply(move).state for move in pos.legal_moves()]

    def rolled(horizon: int) -> MoveValuation:
        return value_moves(
            pos,
            horizon=horizon,
            min_rollouts=512,
            max_rollouts=512,
            stop_in=table_for(pos.variant),
            exact_first=False,
            policy_lookahead=policy_lookahead,
            luck_adjusted=luck_adjusted,
        )

    cut = rolled(0)
    network = network_for(pos.variant)
    assert network is not None
    by_network = policy_lookahead > 0 or luck_adjusted
    model = network if by_network else evaluator_for(pos.variant, "linear")
    assert list(cut.values) == pytest.approx(list(model.values_of_states(children)), abs=1e-9)
    assert np.all(cut.stderr < 1e-9)  # every rollout of a move ends where it began
    # a longer horizon draws throws and plays on: other values, with a spread
    on = rolled(4)
    assert not np.allclose(on.values, cut.values, atol=1e-6)
    assert np.any(on.stderr > 0.0)


def test_an_unknown_rollout_policy_is_refused_with_the_known_ones() -> None:
    pos = Position.from_fen(MIDGAME)
    with pytest.raises(
        ValueError, match=r"one of 0 \(expert\), 1 \(network\), 2 \(network2\), not 3"
    ):
        value_moves(pos, stop_in=table_for(pos.variant), policy_lookahead=3, exact_first=False)


def test_a_position_without_a_decision_is_refused() -> None:
    pos = Position.from_fen("kendall AB...BAABB/....A...../..BA...... B -")
    with pytest.raises(ValueError, match="no decision"):
        value_moves(pos)


def test_the_error_bench_runs_on_a_few_positions() -> None:
    done = subprocess.run(
        [
            sys.executable, str(BENCH), "--positions", "2", "--variant", "kendall",
            "--player", "expert", "--player", "frozen-master", "--player", "pip3", "--pip3", "1",
            "--min-rollouts", "512", "--max-rollouts", "512", "--horizon", "8",
            "--check", "1", "--check-horizon", "16",
        ],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "2 midgame decisions" in out and "real decisions a player makes per game" in out
    for player in ("expert", "frozen-master", "pip3"):
        assert f"{player}: mean error" in out
    assert "pip3: mean error" in out and "1 decisions" in out
    assert "a flawless player would score" in out and "against frozen-master" in out
    assert "horizon 16" in out


@pytest.mark.slow  # rollouts into the largest table: more than a few seconds
def test_the_error_bench_values_with_the_yardstick_stopping_in_the_largest_table() -> None:
    done = subprocess.run(
        [
            sys.executable, str(BENCH), "--positions", "1", "--variant", "standard",
            "--player", "expert", "--min-rollouts", "64", "--max-rollouts", "64",
            "--stop", "table", "--policy", "network", "--luck",
        ],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "to the end, stopping in the largest table, network policy, luck-adjusted" in out
    assert "1 midgame decisions" in out and "expert: mean error" in out


def test_the_error_bench_refuses_a_policy_without_the_table_to_stop_in() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--positions", "1", "--policy", "network2"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--policy and --luck roll out with --stop table only" in done.stderr
