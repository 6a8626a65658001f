"""The trained network's evaluation compiled with Numba: inputs, forward pass and a batch of values.

The same sums as :class:`senet.ai.network.NetEvaluator` (its tests hold the two within 1e-12),
on the raw states of the engine, which the compiled simulator (:mod:`senet.compiled.kernel`) shares.
Self-play training (:mod:`.selfplay`) runs on :func:`features` and :func:`forward`; the search
evaluates its leaves through :class:`CompiledNetEvaluator`, whose call costs a few microseconds a
state where numpy's vectorised path pays about half a millisecond a call in fixed overhead on
the small batches a search makes (every move of one decision): the search reaches a level deeper
in the same time.

The compiled functions are cached on disk by Numba (``cache=True``); :func:`warm_up` loads them
once, off a player's move.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numba import njit
from numba.extending import register_jitable

from senet.compiled.kernel import (
    MAX_MOVES,
    N_EVENTS,
    TR_WIDTH,
    decider,
    legal,
    play,
    thrown,
    winner,
)
from senet.compiled.tables import P_FATE_BIT, P_PIECES, P_WATER_BIT, R_PARAM, compile_rules
from senet.engine import Position, Variant
from senet.engine.state import PENDING, PENDING_WATER, SIZE, THROW

from .compiled_table import NO_TABLE, TableArrays, table_value
from .inputs import FUNCTIONS, state_inputs
from .network import NetEvaluator, network_for

__all__ = [
    "DRAW",
    "CompiledNetEvaluator",
    "compiled_network_for",
    "features",
    "last_chance",
    "forward",
    "result_value",
    "value_a",
    "values_a",
    "warm_up",
]

#: :func:`senet.compiled.kernel.winner`'s code for a drawn game.
DRAW = 2


for _function in FUNCTIONS:  # the description of the inputs, compiled where it is called
    register_jitable(_function)


@njit(cache=True)
def features(T: np.ndarray, s: np.ndarray, x: np.ndarray) -> int:
    """The network's inputs of state ``s`` into ``x`` (:func:`senet.ai.inputs.state_inputs`,
    compiled); returns the mover."""
    return state_inputs(s, T[R_PARAM, P_PIECES], T[R_PARAM, P_WATER_BIT], T[R_PARAM, P_FATE_BIT], x)


@njit(cache=True)
def forward(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, x: np.ndarray, h: np.ndarray
) -> float:
    """The mover's value of inputs ``x`` (hidden activations left in ``h``)."""
    z = b2[0]
    for j in range(w1.shape[0]):
        a = b1[j]
        for i in range(x.shape[0]):
            if x[i] != 0.0:
                a += w1[j, i] * x[i]
        h[j] = math.tanh(a)
        z += w2[j] * h[j]
    if z < -40.0:
        z = -40.0
    elif z > 40.0:
        z = 40.0
    return 1.0 / (1.0 + math.exp(-z))


@njit(cache=True)
def result_value(won: int) -> float:
    return 0.5 if won == DRAW else (1.0 if won == 0 else 0.0)


@njit(cache=True)
def value_a(
    T: np.ndarray,
    s: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
) -> float:
    """Seat A's value of ``s``: the result if the game is over, else the network's."""
    won = winner(T, s)
    if won >= 0:
        return result_value(won)
    mover = features(T, s, x)
    v = forward(w1, b1, w2, b2, x, h)
    return v if mover == 0 else 1.0 - v


@njit(cache=True, nogil=True)
def values_a(
    T: np.ndarray,
    states: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    out: np.ndarray,
) -> None:
    """Seat A's value of every row of ``states`` into ``out`` (:func:`value_a`)."""
    x = np.zeros(w1.shape[1])
    h = np.empty(w1.shape[0])
    for r in range(states.shape[0]):
        out[r] = value_a(T, states[r], w1, b1, w2, b2, x, h)


@njit(cache=True, nogil=True)
def last_chance(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    throws: np.ndarray,
    probs: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    keys_hi: np.ndarray,
    keys_lo: np.ndarray,
    table: np.ndarray,
    table_per_side: int,
    table_total: int,
    canonical_pieces: int,
    both_seats: bool,
    out: np.ndarray,
) -> None:
    """Seat A's value of the chance state ``s`` when the decision after its throw is the last
    one searched (:meth:`senet.ai.search.Searcher._last_chance`): after every throw the decider
    takes the move whose position evaluates best, and the throws are averaged by ``probs``.  A
    throw that ends the game counts its result; a banked throw (chance is next again) is
    evaluated as it stands.  A position that leaves a throw due and that the endgame table
    (``keys_hi`` .. ``both_seats``: :class:`senet.ai.compiled_table.TableArrays`, empty for
    none) holds takes its exact value instead of the network's.  ``out[0]`` gets the value,
    ``out[1]`` the open positions the network evaluated."""
    x = np.zeros(w1.shape[1])
    h = np.empty(w1.shape[0])
    after = np.empty_like(s)
    child = np.empty_like(s)
    image = np.empty_like(s)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    total = 0.0
    evaluated = 0
    for i in range(throws.shape[0]):
        after[:] = s
        thrown(T, after, throws[i], ev)
        won = winner(T, after)
        if won >= 0:
            total += probs[i] * result_value(won)
            continue
        if after[THROW] == 0 and after[PENDING] != PENDING_WATER:
            v = table_value(
                keys_hi, keys_lo, table, after, image, table_per_side, table_total,
                canonical_pieces, both_seats,
            )  # fmt: skip
            if v < 0.0:
                v = value_a(T, after, w1, b1, w2, b2, x, h)
                evaluated += 1
            total += probs[i] * v
            continue
        k = legal(T, path, after, moves)
        maximise = decider(T, after) == 0
        best = -1.0 if maximise else 2.0
        for j in range(k):
            child[:] = after
            trk[:, :] = 0
            play(T, path, child, moves[j], ev, trk, 0)
            v = -1.0
            if winner(T, child) < 0:
                if child[THROW] == 0 and child[PENDING] != PENDING_WATER:
                    v = table_value(
                        keys_hi, keys_lo, table, child, image, table_per_side, table_total,
                        canonical_pieces, both_seats,
                    )  # fmt: skip
                if v < 0.0:
                    evaluated += 1
            if v < 0.0:
                v = value_a(T, child, w1, b1, w2, b2, x, h)
            if (maximise and v > best) or (not maximise and v < best):
                best = v
        total += probs[i] * best
    out[0] = total
    out[1] = evaluated


class CompiledNetEvaluator:
    """A :class:`NetEvaluator`'s values by the compiled code: what the search calls for its
    leaves.  Only for variants the compiled simulator plays (:func:`compile_rules` refuses the
    others by name)."""

    def __init__(self, network: NetEvaluator) -> None:
        self.network = network
        rules = compile_rules(network.variant)
        self._table, self._path = rules.table, rules.path
        self._b2 = np.array([network.b2])
        outcomes = network.variant.instrument.outcomes
        self._throws = np.array([n for n, _ in outcomes], dtype=np.int64)
        self._probs = np.array([float(p) for _, p in outcomes])

    @property
    def variant(self) -> Variant:
        return self.network.variant

    def values_of_states(self, states: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
        """Seat A's expected result in each raw state (the result itself where it is over)."""
        s = np.asarray(states, dtype=np.int64).reshape(-1, SIZE)
        out = np.empty(len(s))
        net = self.network
        values_a(self._table, s, net.w1, net.b1, net.w2, self._b2, out)
        return out

    def last_chance(self, state: Sequence[int], table: TableArrays = NO_TABLE) -> tuple[float, int]:
        """Seat A's value of the chance state ``state`` searched one decision deep (every
        throw, then the decider's best move by the network, or the exact value where
        ``table`` holds the position), and how many open positions the network evaluated
        for it (:func:`last_chance`)."""
        out = np.empty(2)
        net = self.network
        s = np.asarray(state, dtype=np.int64)
        last_chance(
            self._table,
            self._path,
            s,
            self._throws,
            self._probs,
            net.w1,
            net.b1,
            net.w2,
            self._b2,
            *table,
            out,
        )
        return float(out[0]), int(out[1])


_compiled: dict[str, CompiledNetEvaluator | None] = {}


def compiled_network_for(variant: Variant) -> CompiledNetEvaluator | None:
    """The shipped network of ``variant`` by the compiled code (cached), or None when the
    variant ships no network or the compiled simulator does not play it."""
    if variant.name not in _compiled:
        network = network_for(variant)
        try:
            _compiled[variant.name] = None if network is None else CompiledNetEvaluator(network)
        except ValueError:  # rules the compiled simulator does not know (refused by name)
            _compiled[variant.name] = None
    return _compiled[variant.name]


def warm_up(variant: Variant) -> None:
    """Load (or, the first time on a machine, compile) the compiled code and the variant's
    network once, off a player's move."""
    evaluator = compiled_network_for(variant)
    if evaluator is not None:
        start = Position.initial(variant).state  # a throw is due: a chance node
        evaluator.values_of_states([start])
        evaluator.last_chance(start)
