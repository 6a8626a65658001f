"""Train a small policy on the Gymnasium wrapper and print its score against the beginner.

The policy is linear and soft: a logit per action, ``W[a] · observation + b[a]``, softmax over
the legal actions (the ``action_mask``).  It learns by REINFORCE (the policy gradient of the
game's result, less a running mean of results as the baseline), playing the built-in beginner
from both seats.  Then the trained policy (greedy) and a uniform random policy play the same
``--games`` evaluation games (the same seeds) against the beginner, and the two scores are
printed with their 95% intervals.  Needs the ``env`` extra and NumPy only.

    python examples/train_policy.py                       # 400 games of training, 200 to score
    python examples/train_policy.py --episodes 4 --games 4   # the quick path the tests run
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from senet.env.encoding import ACTIONS, OBSERVATION_SIZE
from senet.env.single import SenetVsLevel


class LinearPolicy:
    def __init__(self, rng: np.random.Generator) -> None:
        self.weights = rng.normal(0.0, 0.01, (ACTIONS, OBSERVATION_SIZE)).astype(np.float64)
        self.bias = np.zeros(ACTIONS)

    def probabilities(self, obs: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"])
        logits = self.weights[legal] @ obs["observation"] + self.bias[legal]
        logits -= logits.max()
        p = np.exp(logits)
        return legal, p / p.sum()


def play(env: SenetVsLevel, seed: int, choose) -> tuple[float, list]:  # type: ignore[no-untyped-def]
    """One game; returns the learner's reward and its decisions (observation, legal, p, index)."""
    obs, _ = env.reset(seed=seed)
    steps = []
    reward, done = 0.0, False
    while not done:
        legal, p, index = choose(obs)
        steps.append((obs["observation"], legal, p, index))
        obs, reward, terminated, truncated, _ = env.step(int(legal[index]))
        done = terminated or truncated
    return reward, steps


def train(policy: LinearPolicy, env: SenetVsLevel, episodes: int, rate: float, rng) -> None:  # type: ignore[no-untyped-def]
    baseline = 0.0
    for episode in range(episodes):

        def sample(obs):  # type: ignore[no-untyped-def]
            legal, p = policy.probabilities(obs)
            return legal, p, int(rng.choice(len(legal), p=p))

        reward, steps = play(env, 10_000 + episode, sample)
        advantage = reward - baseline
        baseline += 0.05 * (reward - baseline)
        for x, legal, p, index in steps:
            grad = -p
            grad[index] += 1.0  # d log p(chosen) / d logits of the legal actions
            policy.weights[legal] += rate * advantage * np.outer(grad, x)
            policy.bias[legal] += rate * advantage * grad


def score(env: SenetVsLevel, games: int, choose) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """Mean score (win 1, draw ½, loss 0) over ``games`` fixed seeds, with a 95% interval."""
    results = [(play(env, seed, choose)[0] + 1) / 2 for seed in range(games)]
    mean = sum(results) / games
    var = sum((r - mean) ** 2 for r in results) / max(1, games - 1)
    half = 1.96 * math.sqrt(var / games)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard")
    parser.add_argument("--episodes", type=int, default=400, help="training games")
    parser.add_argument("--games", type=int, default=200, help="evaluation games")
    parser.add_argument("--rate", type=float, default=0.01, help="learning rate")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    env = SenetVsLevel(args.variant, level="beginner")
    policy = LinearPolicy(rng)
    train(policy, env, args.episodes, args.rate, rng)

    def greedy(obs):  # type: ignore[no-untyped-def]
        legal, p = policy.probabilities(obs)
        return legal, p, int(np.argmax(p))

    def uniform(obs):  # type: ignore[no-untyped-def]
        legal = np.flatnonzero(obs["action_mask"])
        return legal, np.full(len(legal), 1 / len(legal)), int(rng.integers(len(legal)))

    trained = score(env, args.games, greedy)
    untrained = score(env, args.games, uniform)
    print(f"{args.variant}: {args.episodes} training games against the beginner")
    for name, (mean, low, high) in (("trained policy", trained), ("uniform random", untrained)):
        print(
            f"{name:>15} vs beginner: {mean:.1%}, 95% interval [{low:.1%}, {high:.1%}] "
            f"over {args.games} games"
        )


if __name__ == "__main__":
    main()
