"""``bench/ai_rollout.py``: rollout players inside the compiled simulator."""

from __future__ import annotations

import numpy as np
import pytest
from bench_scripts import bench_module

from senet.ai.compiled_table import table_arrays
from senet.ai.evaluation import weights_for
from senet.ai.network import network_for
from senet.ai.tables import large_table_for
from senet.compiled.tables import compile_rules
from senet.engine import find_variant

bench = bench_module("ai_rollout")


@pytest.mark.parametrize(
    "spec, parsed",
    [
        ("64x16", (0, 64, 16, False)),
        ("net1:32x4", (1, 32, 4, False)),
        ("net2:16x3:luck", (2, 16, 3, True)),
        ("net2:0x0", (2, 0, 0, False)),
    ],
)
def test_specs_name_the_policy_the_rollouts_the_horizon_and_the_luck(
    spec: str, parsed: tuple[int, int, int, bool]
) -> None:
    assert bench.parse_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["64", "net3:4x4", "net1:4x4:fast", "4x4:luck", "0x4", "ax4"])
def test_a_malformed_spec_is_refused_with_what_was_expected(spec: str) -> None:
    with pytest.raises(ValueError, match="expected|at least one"):
        bench.parse_spec(spec)
    with pytest.raises(SystemExit):
        bench.main(["--pairs", "1", spec])


def _match(
    rollouts: int, horizon: int, lookahead: int, luck: bool, opponent: int, late: int = bench.ALL
) -> np.ndarray:
    variant = find_variant("standard")
    rules = compile_rules(variant)
    lo, hi, w = weights_for(variant)
    net = network_for(variant)
    assert net is not None
    outcomes = variant.instrument.outcomes
    throws = np.array([n for n, _ in outcomes], dtype=np.int64)
    probs = np.array([float(p) for _, p in outcomes])
    return bench.network_match(  # type: ignore[no-any-return]
        rules.table, rules.path, rules.start, 7, 4, rollouts, horizon, lookahead, luck,
        opponent, lo, hi, w, net.w1, net.b1, net.w2, np.array([net.b2]), throws, probs,
        *table_arrays(large_table_for(variant)), late,
    )  # fmt: skip


def test_a_policy_against_itself_scores_exactly_half_on_shared_throws_with_seats_swapped() -> None:
    # Games 2k and 2k+1 share their throws with the seats swapped: the same deterministic
    # policy on both sides plays the same game twice, once from each seat.
    results = _match(0, 0, 2, False, 2)
    assert set(results) <= {0.0, 1.0}
    assert np.all(results.reshape(-1, 2).sum(axis=1) == 1.0)


def test_a_rollout_player_plays_whole_games_against_the_network_and_the_bench_prints_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results = _match(4, 2, 1, True, 2)
    assert len(results) == 8 and set(results) <= {0.0, 0.5, 1.0}
    bench.main(["--variant", "standard", "--pairs", "2", "--opponent", "network2", "net1:4x2:luck"])
    out = capsys.readouterr().out
    assert "standard net1:4x2:luck vs network2:" in out and "(4 games," in out


@pytest.mark.slow  # whole games of a rollout player: more than a few seconds
def test_a_rollout_player_kept_to_the_late_game_plays_as_its_opponent_before_it() -> None:
    # A race never has fewer than two pieces on the board while it goes on: with ``late`` 1
    # the rollout player never rolls out and plays its opponent's policy, so each pair of
    # games on shared throws is the same game from either seat.
    never = _match(16, 4, 1, True, 2, late=1)
    assert np.all(never.reshape(-1, 2).sum(axis=1) == 1.0)
    # rolling out everywhere, it plays other games
    everywhere = _match(16, 4, 1, True, 2)
    assert not np.array_equal(everywhere, never)
