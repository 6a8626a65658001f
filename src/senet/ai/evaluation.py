"""The static evaluation: a learned estimate of seat A's expected result in a position.

The model is a logistic function of a linear score over hand-chosen features, with one weight
vector shared by both seats so that the estimate is antisymmetric by construction (swap the
seats and the value becomes ``1 - v``: both seats run the same track in the same direction).
The weights are learned by TD(λ) self-play (:mod:`senet.ai.train`) and shipped as JSON in
``senet/ai/weights``.  The value is P(A wins) in the race variants and A's expected result
(P(win) + ½·P(draw)) in Bell's points game — the same scale the exact solver uses.

The hot path is :meth:`Evaluator.value`, called at every leaf of every search, so the
per-square weights are folded into two lookup tables over 15-bit halves of a seat's board mask:
one table lookup per half instead of a loop over pieces.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from importlib import resources
from typing import Protocol

import numpy as np

from senet.compiled.expert import EQUAL_WITHIN, Weights
from senet.engine import Capture, Position, Scoring, Variant
from senet.engine.rules import Tables, tables_for
from senet.engine.state import TURN, decider

__all__ = [
    "Evaluator",
    "FEATURES",
    "N_FEATURES",
    "EQUAL_WITHIN",
    "MODELS",
    "seat_features",
    "feature_vector",
    "evaluator_for",
    "StateEvaluation",
    "weights_for",
]


class StateEvaluation(Protocol):
    """What the search needs of an evaluation: its variant and seat A's expected result of a
    batch of open raw states (the linear :class:`Evaluator` and the trained network,
    :class:`senet.ai.network.NetEvaluator`, both provide it)."""

    @property
    def variant(self) -> Variant: ...

    def values_of_states(self, states: Sequence[Sequence[int]]) -> np.ndarray: ...


#: Per-seat feature names (after the 30 occupancy features ``sq1`` .. ``sq30``).
SCALARS = (
    "off",
    "captured",
    "drowned",
    "extra",
    "skip",
    "protected",
    "att1",
    "att2",
    "att3",
    "att4",
    "att5",
)
FEATURES = tuple(f"sq{i}" for i in range(1, 31)) + SCALARS
#: Length of the model's input: the per-seat difference plus the tempo term (who throws next).
N_FEATURES = len(FEATURES) + 1
_MASK15 = (1 << 15) - 1
_S = 30  # index of the first scalar feature
#: In a variant without captures, what a piece beside one of its own costs the hand-made
#: evaluation, in squares of progress (a neighbour protects nothing there, and a tight file
#: jams: measured in piccione, the expert against casual went from 36.6% to 56.5%).
SPREAD = 2.0


def _protected(mask: int) -> int:
    """Pieces with a neighbour of their own colour (the protection most variants use)."""
    return mask & ((mask << 1) | (mask >> 1))


def seat_features(position: Position, seat: int) -> list[float]:
    """The feature vector of ``seat``: occupancy of each square, then :data:`SCALARS`."""
    me, opp = position.mask(seat), position.mask(1 - seat)
    occ = [float((me >> i) & 1) for i in range(30)]
    vulnerable = me & ~_protected(me)
    attacks = [float((vulnerable & (opp << k)).bit_count()) for k in range(1, 6)]
    return occ + [
        float(position.off(seat)),
        float(position.captured(seat)),
        float(position.drowned(seat)),
        float(position.extra(seat)),
        float(position.skip(seat)),
        float(_protected(me).bit_count()),
        *attacks,
    ]


def _tempo(position: Position) -> float:
    """+1 when A acts next, -1 when B does (the seat on turn, or the decider of a pending choice)."""
    seat = position.decider
    if seat is None:
        seat = position.turn
    return 1.0 if seat == 0 else -1.0


def feature_vector(position: Position) -> np.ndarray:
    """The model's input: features of A minus features of B, then the tempo term."""
    a = seat_features(position, 0)
    b = seat_features(position, 1)
    return np.array([x - y for x, y in zip(a, b)] + [_tempo(position)], dtype=np.float64)


def terminal_value(position: Position) -> float | None:
    """A's result in a finished game (1 win, ½ draw, 0 loss), else None."""
    outcome = position.outcome()
    if outcome is None:
        return None
    return 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)


Hidden = tuple[np.ndarray, np.ndarray, np.ndarray]
_SQUARES = np.arange(30, dtype=np.int64)


def _popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each non-negative int64 (numpy < 2 has no ``bitwise_count``)."""
    return ((x[..., None] >> _SQUARES) & 1).sum(axis=-1)


_bit_count = getattr(np, "bitwise_count", _popcount)
_SHIFTS = np.arange(1, 6, dtype=np.int64)
#: State fields of the scalar features off, captured, drowned, extra, skip: A's, then B's.
_SCALARS_A = [8, 10, 12, 4, 6]
_SCALARS_B = [9, 11, 13, 5, 7]


def _acting(t: Tables, s: Sequence[int]) -> int:
    """The seat that acts next in raw state ``s`` (as :func:`_tempo` reads a position)."""
    seat = decider(t, s)
    return s[TURN] if seat is None else seat


def _subset_sums(w: list[float]) -> list[float]:
    """``out[m]`` = the sum of ``w[i]`` over the bits ``i`` of ``m``, added lowest bit first
    (as ``sum(w[i] for i in range(15) if m >> i & 1)`` would, to the last bit), built by
    doubling: the masks with top bit ``b`` are those below ``1 << b`` plus ``w[b]``."""
    out = np.zeros(1 << len(w))
    for b, weight in enumerate(w):
        out[1 << b : 2 << b] = out[: 1 << b] + weight
    return out.tolist()


class Evaluator:
    """A logistic evaluation: a linear score ``w @ x`` plus, optionally, a small hidden layer
    ``v @ tanh(H @ x + b)`` (the linear part alone cannot say that a lead in the race weighs
    more near the end than at the start; the hidden layer can, as in TD-Gammon)."""

    def __init__(self, variant: Variant, weights: np.ndarray, hidden: Hidden | None = None) -> None:
        if weights.shape != (N_FEATURES,):
            raise ValueError(f"expected {N_FEATURES} weights, got shape {weights.shape}")
        if hidden is not None and hidden[0].shape[1:] != (N_FEATURES,):
            raise ValueError("hidden layer of the wrong input size")
        self.variant = variant
        self.weights = weights.astype(np.float64)
        self.hidden = hidden
        self._t = tables_for(variant)
        w = [float(x) for x in self.weights]
        self._lo = _subset_sums(w[:15])
        self._hi = _subset_sums(w[15:30])
        self._scal = w[_S : _S + len(SCALARS)]
        self._tempo_w = w[-1]

    def linear_tables(self) -> tuple[list[float], list[float], list[float]]:
        """The linear score as tables, as compiled players read it: the occupancy weights
        summed over every 15-bit mask of squares 1–15 and of squares 16–30, then the scalar
        weights followed by the tempo weight."""
        return list(self._lo), list(self._hi), [*self._scal, self._tempo_w]

    def _seat_score(
        self, me: int, opp: int, off: int, capt: int, drown: int, extra: int, skip: int
    ) -> float:
        s = self._scal
        prot = me & ((me << 1) | (me >> 1))
        vul = me & ~prot
        return (
            self._lo[me & _MASK15]
            + self._hi[me >> 15]
            + s[0] * off
            + s[1] * capt
            + s[2] * drown
            + s[3] * extra
            + s[4] * skip
            + s[5] * prot.bit_count()
            + s[6] * (vul & (opp << 1)).bit_count()
            + s[7] * (vul & (opp << 2)).bit_count()
            + s[8] * (vul & (opp << 3)).bit_count()
            + s[9] * (vul & (opp << 4)).bit_count()
            + s[10] * (vul & (opp << 5)).bit_count()
        )

    def score(self, position: Position) -> float:
        """The model's log-odds of A's result: ``weights @ x`` (+ the hidden layer's part)."""
        st = position.state
        a, b = st[0], st[1]
        # state layout: masks, turn, throw, extra a/b, skip a/b, off a/b, captured a/b, drowned a/b
        z = (
            self._seat_score(a, b, st[8], st[10], st[12], st[4], st[6])
            - self._seat_score(b, a, st[9], st[11], st[13], st[5], st[7])
            + self._tempo_w * _tempo(position)
        )
        if self.hidden is not None:
            h, bias, v = self.hidden
            z += float(v @ np.tanh(h @ feature_vector(position) + bias))
        return z

    def values_of_states(self, states: Sequence[Sequence[int]]) -> np.ndarray:
        """:meth:`value` of many open (not finished) raw states at once, vectorised: the
        search's leaves come in batches (every move of the last decisions under a throw), so
        one numpy pass per batch replaces a Python loop per leaf."""
        s = np.array(states, dtype=np.int64)
        masks = s[:, :2]
        bits = (masks[:, :, None] >> _SQUARES) & 1
        prot = masks & ((masks << 1) | (masks >> 1))
        vul = (masks & ~prot)[:, :, None]
        attacks = _bit_count(vul & (masks[:, ::-1, None] << _SHIFTS)).astype(np.int64)
        x = np.empty((len(s), N_FEATURES), dtype=np.float64)
        x[:, :30] = bits[:, 0] - bits[:, 1]
        x[:, _S : _S + 5] = s[:, _SCALARS_A] - s[:, _SCALARS_B]
        protected = _bit_count(prot).astype(np.int64)
        x[:, _S + 5] = protected[:, 0] - protected[:, 1]
        x[:, _S + 6 : _S + 11] = attacks[:, 0] - attacks[:, 1]
        t = self._t
        x[:, -1] = [1.0 if _acting(t, st) == 0 else -1.0 for st in states]
        z = x @ self.weights
        if self.hidden is not None:
            h, bias, v = self.hidden
            z += np.tanh(x @ h.T + bias) @ v
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))

    def value(self, position: Position) -> float:
        """A's expected result in [0, 1]: exact when the game is over, else the model's estimate."""
        done = terminal_value(position)
        if done is not None:
            return done
        z = self.score(position)
        if z < -40.0:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    # ----------------------------------------------------------------- persistence
    def to_json(self) -> str:
        data: dict[str, object] = {
            "variant": self.variant.name,
            "features": list(FEATURES) + ["tempo"],
            "weights": [round(float(x), 6) for x in self.weights],
        }
        if self.hidden is not None:
            h, bias, v = self.hidden
            data["hidden"] = {
                "H": np.round(h, 6).tolist(),
                "b": np.round(bias, 6).tolist(),
                "v": np.round(v, 6).tolist(),
            }
        return json.dumps(data)

    @classmethod
    def from_json(cls, variant: Variant, text: str) -> Evaluator:
        data = json.loads(text)
        if data.get("features") != list(FEATURES) + ["tempo"]:
            raise ValueError("weights were trained on a different feature set")
        hidden = None
        if "hidden" in data:
            hd = data["hidden"]
            hidden = (
                np.array(hd["H"], dtype=np.float64),
                np.array(hd["b"], dtype=np.float64),
                np.array(hd["v"], dtype=np.float64),
            )
        return cls(variant, np.array(data["weights"], dtype=np.float64), hidden)


def default_weights(variant: Variant) -> np.ndarray:
    """A hand-made starting point (and the fallback without trained weights): progress along
    the track and pieces borne off count; losing pieces to capture or drowning hurts."""
    w = np.zeros(N_FEATURES)
    scale = 0.08
    for sq in range(1, 31):
        w[sq - 1] = scale * sq
    w[_S + 0] = scale * 33  # borne off: a little more than standing on 30
    w[_S + 1] = -scale * 10 if variant.scoring is Scoring.POINTS else 0.0
    w[_S + 2] = scale * 10
    w[_S + 3] = scale * 3
    w[_S + 4] = -scale * 3
    if variant.capture is Capture.NONE:
        # Without captures a neighbour protects nothing, and a row of pieces gets in its own
        # way (no piece may land on another): of two moves that advance as far, the one that
        # leaves the pieces spread is better.
        w[_S + 5] = -scale * SPREAD
    w[-1] = 0.1
    return w


_evaluators: dict[tuple[str, str], Evaluator] = {}

#: The shipped models: ``linear`` (``<variant>.json``) and ``net`` (``<variant>.net.json``, the
#: linear model fine-tuned together with a hidden layer).  A missing file falls back to the
#: linear model, and that to :func:`default_weights`.
MODELS = ("linear", "net")


def evaluator_for(variant: Variant, model: str = "linear") -> Evaluator:
    """The shipped evaluator of ``variant``, cached by variant name and model (variants hold
    mapping proxies and are not hashable)."""
    if model not in MODELS:
        raise ValueError(f"unknown model {model!r}")
    key = (variant.name, model)
    cached = _evaluators.get(key)
    if cached is None:
        cached = _evaluators[key] = _load(variant, model)
    return cached


def _load(variant: Variant, model: str) -> Evaluator:
    name = f"{variant.name}.json" if model == "linear" else f"{variant.name}.net.json"
    try:
        text = resources.files("senet.ai").joinpath("weights", name).read_text()
    except (FileNotFoundError, OSError):
        if model != "linear":
            return evaluator_for(variant, "linear")
        return Evaluator(variant, default_weights(variant))
    return Evaluator.from_json(variant, text)


def weights_for(variant: Variant) -> Weights:
    """The expert level's linear evaluation of ``variant`` as the compiled expert reads it: the
    two 15-bit occupancy tables and the scalar weights followed by the tempo weight."""
    evaluator = evaluator_for(variant, "linear")
    if evaluator.hidden is not None:
        raise ValueError("the compiled expert plays the linear model only")
    lo, hi, w = evaluator.linear_tables()
    return (
        np.array(lo, dtype=np.float64),
        np.array(hi, dtype=np.float64),
        np.array(w, dtype=np.float64),
    )
