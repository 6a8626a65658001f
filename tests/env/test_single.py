"""The Gymnasium wrapper against a built-in level, and the training example's quick path."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from senet.engine import VARIANTS
from senet.env.single import SenetVsLevel

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_gymnasiums_checker_passes(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # it cannot test render modes without a registered spec
        check_env(SenetVsLevel(variant, "beginner"), skip_render_check=True)


def test_gymnasium_makes_it_by_its_id_and_checks_its_render_modes() -> None:
    import gymnasium

    from senet.env.single import ENV_ID

    env = gymnasium.make(ENV_ID, variant="bell", level="expert", render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PassiveEnvChecker's notes on the order wrapper
        check_env(env.unwrapped)
    obs, _ = env.reset(seed=3)
    assert env.unwrapped.variant.name == "bell" and env.unwrapped.level.key == "expert"
    assert env.render().splitlines()[-1].startswith("bell ")
    env.close()


def test_a_game_against_the_beginner_from_either_seat() -> None:
    for seat in (0, 1):
        env = SenetVsLevel("standard", "beginner", seat=seat, render_mode="ansi")
        obs, info = env.reset(seed=11)
        assert info["seat"] == seat and env.position.decider == seat
        rng = np.random.default_rng(seat)
        done, reward = False, 0.0
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal) > 0 and env.position.decider == seat  # only the learner decides
            obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal)))
            done = terminated or truncated
        assert env.position.is_over() and reward in (-1.0, 1.0)
        winner = env.position.outcome().winner
        assert reward == (1.0 if winner == seat else -1.0)
        assert env.render().splitlines()[-1].startswith("standard ")


def test_an_illegal_action_loses_or_raises_and_changes_nothing() -> None:
    env = SenetVsLevel("bell", "beginner", seat=0)
    obs, _ = env.reset(seed=2)
    before = env.position
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "not legal" in info["illegal"]
    assert env.position == before and not obs["action_mask"].any()
    strict = SenetVsLevel("bell", "beginner", seat=0, strict=True)
    strict.reset(seed=2)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)
    assert strict.position == before


def test_the_training_example_runs_and_prints_both_scores() -> None:
    run = subprocess.run(
        [sys.executable, str(EXAMPLE), "--episodes", "4", "--games", "4"],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    lines = run.stdout.splitlines()
    assert any(line.strip().startswith("trained policy vs beginner:") for line in lines)
    assert any(line.strip().startswith("uniform random vs beginner:") for line in lines)
