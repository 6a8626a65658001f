"""``bench/yardstick.py``: the rollout yardstick checked against exact endgame values."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from bench_scripts import bench_module

from senet.ai.compiled_solver import solve_compiled
from senet.ai.solver import for_seat, solve_many
from senet.ai.tables import large_table_for, read_three_a_side
from senet.engine import find_variant, parse_position

yardstick = bench_module("yardstick")


@pytest.mark.parametrize("variant", ["standard", "kendall", "bell"])
def test_endgames_are_three_against_two_on_the_last_squares_with_a_choice(variant: str) -> None:
    rng = random.Random(5)
    made = [yardstick.endgame(find_variant(variant), rng, 9) for _ in range(40)]
    positions = [p for p in made if p is not None]
    assert len(positions) >= 5
    for pos in positions:
        seat = pos.decider
        assert seat is not None and len(pos.legal_moves()) >= 2
        assert sorted(len(pos.pieces(s)) for s in (0, 1)) == [2, 3]
        assert len(pos.pieces(seat)) == 3
        assert all(22 <= sq <= 30 for s in (0, 1) for sq in pos.pieces(s))


def test_hit_charge_and_loss_are_measured_against_the_exact_values() -> None:
    pos = yardstick.endgame(find_variant("standard"), random.Random(1), 9)
    while pos is None:
        pos = yardstick.endgame(find_variant("standard"), random.Random(2), 9)
    # exact: move 1 is best; the yardstick prefers move 0 by 0.03
    wrong = yardstick.Judged(pos, (0.4, 0.5, 0.2), (0.53, 0.50, 0.1), frozen=2, expert=1)
    assert wrong.truly_best == 1 and wrong.yardstick_best == 0 and not wrong.hit
    assert wrong.charge == pytest.approx(0.03)
    assert wrong.loss(wrong.yardstick_best) == pytest.approx(0.1)
    sure = yardstick.Judged(pos, (0.4, 0.5, 0.2), (0.53, 0.50, 0.1), 2, 1, spread=0.005)
    unsure = yardstick.Judged(pos, (0.4, 0.5, 0.2), (0.53, 0.50, 0.1), 2, 1, spread=0.02)
    assert sure.sure_miss and not unsure.sure_miss
    right = yardstick.Judged(pos, (0.5, 0.5, 0.2), (0.6, 0.55, 0.1), frozen=0, expert=0)
    assert right.hit and right.charge == pytest.approx(0.0)  # equal exact values: both best
    s = yardstick.summary([wrong, right])
    assert s["best"] == 0.5 and s["frozen"] == pytest.approx(0.15)
    assert yardstick.summary([unsure, right])["sure_misses"] == 0.0
    assert yardstick.summary([sure, right])["sure_misses"] == 0.5
    assert yardstick.verdict(s) == (False, False)
    # near: a miss giving up less than NEAR counts, a larger one does not
    close = yardstick.Judged(pos, (0.5, 0.5002, 0.2), (0.53, 0.50, 0.1), 2, 1)
    assert not close.hit and close.near and not wrong.near and right.near
    assert yardstick.summary([close, wrong])["near"] == 0.5


def test_a_judged_position_holds_the_solvers_values_and_rollouts_near_them() -> None:
    rng = random.Random(3)
    pos = None
    while pos is None:
        pos = yardstick.endgame(find_variant("standard"), rng, 9)
    judged = yardstick.judge(pos, rollouts=512, solve_states=200_000)
    assert judged is not None
    seat = pos.decider
    exact = [for_seat(v, seat) for _, v in solve_many([pos]).move_values(pos)]
    # (standard's truth is read from its three-against-two table: values kept to 32 bits)
    assert judged.exact == pytest.approx(exact, abs=1e-9)
    # the expert's rollouts to the end estimate each move well, if not exactly
    for rolled, true in zip(judged.rolled, judged.exact, strict=True):
        assert abs(rolled - true) < 0.1


def test_the_bench_prints_its_targets_met_or_not(capsys, tmp_path: Path) -> None:
    saved = tmp_path / "judged.jsonl"
    args = ["--variant", "standard", "--positions", "2", "--rollouts", "256", "--save", str(saved)]
    assert yardstick.main(args) == 0
    out = capsys.readouterr().out
    assert "best >= 95%" in out
    lines = [line for line in out.splitlines() if line.startswith(("standard", "all"))]
    assert len(lines) == 2 and all("met" in line and "near" in line for line in lines)
    # every judged position saved: read back, a legal position with one value per legal move
    records = [json.loads(line) for line in saved.read_text().splitlines()]
    assert len(records) == 2
    for record in records:
        pos = parse_position(record["position"])
        assert record["variant"] == "standard" == pos.variant.name
        assert len(record["exact"]) == len(record["rolled"]) == len(pos.legal_moves())


@pytest.mark.parametrize("policy", ["network", "network2"])
def test_the_networks_rollouts_estimate_each_move_near_its_exact_value(policy: str) -> None:
    rng = random.Random(4)
    pos = None
    while pos is None:
        pos = yardstick.endgame(find_variant("standard"), rng, 9)
    judged = yardstick.judge(pos, rollouts=512, solve_states=200_000, policy=policy)
    assert judged is not None
    for rolled, true in zip(judged.rolled, judged.exact, strict=True):
        assert abs(rolled - true) < 0.05


def test_the_networks_rollouts_need_the_table_to_stop_in(capsys) -> None:
    with pytest.raises(SystemExit):
        yardstick.main(["--policy", "network2", "--stop", "none"])
    assert "--stop table only" in capsys.readouterr().err


@pytest.mark.slow  # a solve of some two million positions
def test_three_a_side_positions_are_judged_by_their_table_with_rollouts_stopping_at_three_against_two(
    three_a_side_dir: Path,
) -> None:
    variant = find_variant("standard")
    truth = read_three_a_side(variant, three_a_side_dir)
    rng = random.Random(6)
    judged = []
    while len(judged) < 2:
        pos = yardstick.endgame(variant, rng, 7, theirs=3)
        if pos is None:
            continue
        assert [len(pos.pieces(s)) for s in (0, 1)] == [3, 3]
        j = yardstick.judge(pos, 512, 0, policy="network", three_a_side=truth)
        if j is None:  # every move bears a piece off into the three-against-two table
            large = large_table_for(variant)
            assert large is not None and large.move_values(pos) is not None
            continue
        judged.append(j)
        seat = pos.decider
        fresh = solve_compiled(
            [pos], max_states=10_000_000
        )  # this position's own future, not the seeded set
        exact = [for_seat(fresh.value(pos.apply(m)), seat) for m in pos.legal_moves()]
        assert j.exact == pytest.approx(exact, abs=1e-9)
        for rolled, true in zip(j.rolled, j.exact, strict=True):
            assert abs(rolled - true) < 0.05


@pytest.mark.slow  # a solve of some two million positions
def test_the_bench_judges_three_against_three_from_a_truth_table(
    three_a_side_dir: Path, capsys
) -> None:
    args = ["--variant", "standard", "--positions", "2", "--rollouts", "128", "--squares", "7"]
    assert (
        yardstick.main([*args, "--policy", "network", "--three-a-side", str(three_a_side_dir)]) == 0
    )
    out = capsys.readouterr().out
    assert "three pieces against three" in out and "three-against-two table" in out
    lines = [line for line in out.splitlines() if line.startswith(("standard", "all"))]
    assert len(lines) == 2 and lines[0].split()[1] == "2"
