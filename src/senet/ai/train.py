"""Learn the evaluation weights by TD(λ) self-play, as TD-Gammon did for backgammon.

Both seats play greedily by the current weights (one ply: the move whose resulting position
has the best estimate for the mover; a few moves are exploratory).  After every decision the
estimate of the previous afterstate is pulled towards the estimate of the new one, and at the
end towards the real result, with eligibility traces (λ) spreading each correction back over
the earlier positions.  The model is linear-logistic (:mod:`senet.ai.evaluation`), so the
gradient is ``v (1 - v) x`` and numpy is all it needs.

Usage::

    senet train linear --variant standard --games 5000 --alpha 0.01
    senet train linear --variant standard --games 3000 --alpha 0.005 --resume --hidden 16

Throws are drawn from the instrument's exact distribution with a seeded generator, so a run
is reproducible.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from senet.engine import Position, Variant, draw_throw

from .evaluation import Evaluator, default_weights, feature_vector, terminal_value

__all__ = ["train"]


class _Model:
    """The trainable parameters: linear weights ``w`` and an optional hidden layer ``h``, ``v``.
    The hidden layer has no bias, so the model stays antisymmetric (tanh is odd)."""

    def __init__(self, w: np.ndarray, h: np.ndarray | None, v: np.ndarray | None) -> None:
        self.w, self.h, self.v = w, h, v

    def values(self, xs: np.ndarray) -> np.ndarray:
        z = xs @ self.w
        if self.h is not None:
            z = z + np.tanh(xs @ self.h.T) @ self.v
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))

    def gradient(self, x: np.ndarray, value: float) -> list[np.ndarray]:
        """d value / d parameters at input ``x``."""
        g = value * (1.0 - value)
        if self.h is None or self.v is None:
            return [g * x]
        t = np.tanh(self.h @ x)
        return [g * x, g * np.outer(self.v * (1.0 - t * t), x), g * t]

    def params(self) -> list[np.ndarray]:
        return [self.w] if self.h is None or self.v is None else [self.w, self.h, self.v]


def train(
    variant: Variant,
    games: int,
    *,
    alpha: float = 0.02,
    lam: float = 0.7,
    epsilon: float = 0.05,
    seed: int = 1,
    weights: np.ndarray | None = None,
    hidden: int = 0,
    hidden_init: tuple[np.ndarray, np.ndarray] | None = None,
    log_every: int = 500,
    snapshot: Callable[[int, Evaluator], None] | None = None,
    snapshot_every: int = 0,
) -> Evaluator:
    """Run ``games`` self-play games and return the learned evaluator.

    ``hidden`` > 0 adds a hidden layer of that many tanh units, started small (or from
    ``hidden_init``) so that training begins from the linear model's play.  With
    ``snapshot_every`` > 0, ``snapshot(games so far, evaluator)`` receives a copy of the model
    after every that many games (the points of a learning curve: a run stopped after N games
    learns exactly what the first N games of a longer run with the same seed do).
    """
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    w = default_weights(variant) if weights is None else weights.copy()
    h = v = None
    if hidden_init is not None:
        h, v = hidden_init[0].copy(), hidden_init[1].copy()
    elif hidden:
        h = nprng.normal(scale=0.1, size=(hidden, len(w)))
        v = nprng.normal(scale=0.01, size=hidden)
    model = _Model(w, h, v)
    start = time.time()
    for g in range(games):
        pos = Position.initial(variant)
        x_prev: np.ndarray | None = None
        v_prev = 0.0
        traces = [np.zeros_like(p) for p in model.params()]
        plies = 0
        while True:
            if pos.is_over():
                target = terminal_value(pos)
                if target is None:
                    raise RuntimeError("a game over without a value")
                if x_prev is not None:
                    for p, e in zip(model.params(), traces):
                        p += alpha * (target - v_prev) * e
                break
            if pos.is_chance():
                pos = pos.apply_throw(draw_throw(rng, pos.variant.instrument))
                continue
            moves = pos.legal_moves()
            children = [pos.apply_unchecked(m) for m in moves]
            xs = np.array([feature_vector(c) for c in children])
            vals = model.values(xs)
            for i, child in enumerate(children):
                done = terminal_value(child)
                if done is not None:
                    vals[i] = done
            if len(children) == 1 or rng.random() >= epsilon:
                i = int(np.argmax(vals) if pos.decider == 0 else np.argmin(vals))
            else:
                i = rng.randrange(len(children))
            pos, x, val = children[i], xs[i], float(vals[i])
            plies += 1
            if pos.is_over():
                continue  # the terminal update above uses the exact result
            if x_prev is not None:
                for p, e in zip(model.params(), traces):
                    p += alpha * (val - v_prev) * e
            for e, d in zip(traces, model.gradient(x, val)):
                e *= lam
                e += d
            x_prev, v_prev = x, val
            if plies > 2000:
                break  # a pathological game: stop learning from it
        if log_every and (g + 1) % log_every == 0:
            print(f"{variant.name}: {g + 1} games, {time.time() - start:.0f}s", flush=True)
        if snapshot is not None and snapshot_every and (g + 1) % snapshot_every == 0:
            snapshot(g + 1, _evaluator(variant, model))
    return _evaluator(variant, model)


def _evaluator(variant: Variant, model: _Model) -> Evaluator:
    """An evaluator holding a copy of the model's parameters as they are now."""
    hidden = None
    if model.h is not None and model.v is not None:
        hidden = (model.h.copy(), np.zeros(len(model.v)), model.v.copy())
    return Evaluator(variant, model.w.copy(), hidden)
