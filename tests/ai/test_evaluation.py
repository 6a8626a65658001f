"""The learned evaluation: shipped weights, consistency of the fast path, antisymmetry."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from senet.ai.cli import train as train_command
from senet.ai.evaluation import (
    N_FEATURES,
    Evaluator,
    default_weights,
    evaluator_for,
    feature_vector,
)
from senet.ai.train import train
from senet.engine import VARIANTS, Position, draw_throw


def _positions(variant_name: str, n: int = 40) -> list[Position]:
    rng = random.Random(5)
    pos = Position.initial(VARIANTS[variant_name])
    out = []
    while len(out) < n and not pos.is_over():
        if pos.is_chance():
            pos = pos.apply_throw(draw_throw(rng, pos.variant.instrument))
        else:
            pos = pos.apply_unchecked(rng.choice(pos.legal_moves()))
        out.append(pos)
    return out


@pytest.mark.parametrize("name", list(VARIANTS))
def test_fast_score_equals_weights_times_features(name: str) -> None:
    ev = evaluator_for(VARIANTS[name])
    assert ev.weights.shape == (N_FEATURES,)
    for pos in _positions(name):
        if pos.is_over():
            continue
        assert ev.score(pos) == pytest.approx(float(ev.weights @ feature_vector(pos)), abs=1e-9)
        assert 0.0 <= ev.value(pos) <= 1.0


def test_value_is_antisymmetric_in_the_seats() -> None:
    v = VARIANTS["standard"]
    ev = Evaluator(v, np.random.default_rng(0).normal(size=N_FEATURES))
    pos = Position.from_parts(v, ((3, 9, 14), (5, 20)), turn=0)
    mirrored = Position.from_parts(v, ((5, 20), (3, 9, 14)), turn=1)
    assert ev.value(pos) == pytest.approx(1.0 - ev.value(mirrored))


def test_td_training_moves_the_weights_and_is_reproducible() -> None:
    v = VARIANTS["standard"]
    e1 = train(v, 3, seed=4, log_every=0, hidden=4)
    e2 = train(v, 3, seed=4, log_every=0, hidden=4)
    assert np.array_equal(e1.weights, e2.weights) and np.array_equal(e1.hidden[0], e2.hidden[0])
    assert not np.array_equal(e1.weights, train(v, 0, log_every=0).weights)


def test_senet_train_linear_writes_what_the_trainer_learns(tmp_path: Path) -> None:
    # the one training command: the linear trainer's file, its snapshots, and the same weights
    # as the trainer called with the same settings
    args = ["linear", "--variant", "piccione", "--games", "4", "--seed", "3", "--hidden", "2"]
    ran = CliRunner().invoke(train_command, [*args, "--snapshots", "2", "--out", str(tmp_path)])
    assert ran.exit_code == 0, ran.output
    written = tmp_path / "piccione.net.json"
    assert f"wrote {written}" in ran.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "piccione.net.json",
        "piccione.net.json.2",
        "piccione.net.json.4",
    ]
    direct = train(VARIANTS["piccione"], 4, seed=3, log_every=0, hidden=2)
    assert written.read_text() == direct.to_json() + "\n"


def test_senet_train_names_an_unknown_variant() -> None:
    ran = CliRunner().invoke(train_command, ["selfplay", "--variant", "nonesuch"])
    assert ran.exit_code == 2 and "--variant" in ran.output and "nonesuch" in ran.output
    ran = CliRunner().invoke(train_command, ["fitted", "--variant", "kendall", "--round", "x:1"])
    assert ran.exit_code == 2 and "KIND:DEPTH:GAMES:EPOCHS:SEED" in ran.output


def test_a_snapshot_after_n_games_is_what_a_run_of_n_games_learns() -> None:
    # the points of a learning curve come from one run: its snapshot after N games equals a
    # run stopped after N games with the same seed, and the last snapshot is the result
    v = VARIANTS["piccione"]
    snapshots: dict[int, Evaluator] = {}
    final = train(
        v,
        6,
        seed=7,
        log_every=0,
        hidden=3,
        snapshot=snapshots.__setitem__,
        snapshot_every=3,
    )
    assert sorted(snapshots) == [3, 6]
    shorter = train(v, 3, seed=7, log_every=0, hidden=3)
    assert np.array_equal(snapshots[3].weights, shorter.weights)
    assert np.array_equal(snapshots[3].hidden[0], shorter.hidden[0])
    assert np.array_equal(snapshots[6].weights, final.weights)
    assert not np.array_equal(snapshots[3].weights, final.weights)


def test_piccione_ships_its_self_play_weights() -> None:
    # piccione's evaluation is learned by self-play like the others' (it was the hand-made one)
    v = VARIANTS["piccione"]
    linear = evaluator_for(v, "linear")
    assert linear.weights.shape == (N_FEATURES,)
    assert not np.array_equal(linear.weights, default_weights(v))


def test_hidden_layer_keeps_the_value_antisymmetric() -> None:
    v = VARIANTS["standard"]
    rng = np.random.default_rng(1)
    hidden = (rng.normal(size=(5, N_FEATURES)), np.zeros(5), rng.normal(size=5))
    ev = Evaluator(v, rng.normal(size=N_FEATURES) * 0.1, hidden)
    pos = Position.from_parts(v, ((3, 9, 14), (5, 20)), turn=0)
    mirrored = Position.from_parts(v, ((5, 20), (3, 9, 14)), turn=1)
    assert ev.value(pos) == pytest.approx(1.0 - ev.value(mirrored))
    again = Evaluator.from_json(v, ev.to_json())
    assert again.value(pos) == pytest.approx(ev.value(pos), abs=1e-5)
