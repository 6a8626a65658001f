"""Learn the evaluation weights by TD(λ) self-play, as TD-Gammon did for backgammon.

Both seats play greedily by the current weights (one ply: the move whose resulting position
has the best estimate for the mover; a few moves are exploratory).  After every decision the
estimate of the previous afterstate is pulled towards the estimate of the new one, and at the
end towards the real result, with eligibility traces (λ) spreading each correction back over
the earlier positions.  The model is linear-logistic (:mod:`senet.ai.evaluation`), so the
gradient is ``v (1 - v) x`` and numpy is all it needs.

Usage::

    python -m senet.ai.train --variant standard --games 3000 [--out src/senet/ai/weights]

Throws are drawn from the instrument's exact distribution with a seeded generator, so a run
is reproducible.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path

import numpy as np

from senet.engine import Position, Variant, find_variant

from .evaluation import Evaluator, default_weights, feature_vector, terminal_value

__all__ = ["train", "draw_throw"]


def draw_throw(position: Position, rng: random.Random) -> int:
    """One throw from the exact chance distribution of ``position`` (used by simulations only)."""
    x = rng.random()
    acc = 0.0
    outcomes = position.chance_outcomes()
    for value, p in outcomes:
        acc += float(p)
        if x < acc:
            return value
    return outcomes[-1][0]


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


def train(
    variant: Variant,
    games: int,
    *,
    alpha: float = 0.02,
    lam: float = 0.7,
    epsilon: float = 0.05,
    seed: int = 1,
    weights: np.ndarray | None = None,
    log_every: int = 500,
) -> np.ndarray:
    """Run ``games`` self-play games and return the learned weights."""
    rng = random.Random(seed)
    w = default_weights(variant) if weights is None else weights.copy()
    start = time.time()
    for g in range(games):
        pos = Position.initial(variant)
        x_prev: np.ndarray | None = None
        v_prev = 0.0
        trace = np.zeros_like(w)
        plies = 0
        while True:
            if pos.is_over():
                target = terminal_value(pos)
                assert target is not None
                if x_prev is not None:
                    w += alpha * (target - v_prev) * trace
                break
            if pos.is_chance():
                pos = pos.apply_throw(draw_throw(pos, rng))
                continue
            moves = pos.legal_moves()
            children = [pos._play(m) for m in moves]
            if len(children) == 1 or rng.random() >= epsilon:
                sign = 1.0 if pos.decider == 0 else -1.0
                best, best_x, best_v = None, None, -2.0
                for child in children:
                    done = terminal_value(child)
                    x = feature_vector(child)
                    v = done if done is not None else _sigmoid(float(w @ x))
                    if sign * v > best_v:
                        best, best_x, best_v = child, x, sign * v
                pos, x, v = best, best_x, sign * best_v
            else:
                pos = rng.choice(children)
                x = feature_vector(pos)
                v = _sigmoid(float(w @ x))
            plies += 1
            if pos.is_over():
                continue  # the terminal update above uses the exact result
            if x_prev is not None:
                w += alpha * (v - v_prev) * trace
            trace = lam * trace + v * (1.0 - v) * x
            x_prev, v_prev = x, v
            if plies > 2000:
                break  # a pathological game: stop learning from it
        if log_every and (g + 1) % log_every == 0:
            print(f"{variant.name}: {g + 1} games, {time.time() - start:.0f}s", flush=True)
    return w


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--alpha", type=float, default=0.02)
    parser.add_argument("--lam", type=float, default=0.7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resume", action="store_true", help="start from the shipped weights")
    parser.add_argument("--out", default=str(Path(__file__).parent / "weights"))
    args = parser.parse_args(argv)
    variant = find_variant(args.variant)
    start = None
    if args.resume:
        from .evaluation import evaluator_for

        start = evaluator_for(variant).weights
    w = train(variant, args.games, alpha=args.alpha, lam=args.lam, seed=args.seed, weights=start)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{variant.name}.json").write_text(Evaluator(variant, w).to_json() + "\n")
    print(f"wrote {out / (variant.name + '.json')}")


if __name__ == "__main__":
    main()
