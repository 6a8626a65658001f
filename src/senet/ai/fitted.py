"""Train the network evaluation (:mod:`senet.ai.network`) by supervised fits to targets valued
on the compiled simulator: fitted value iteration on the network's own deeper search, or
approximate policy iteration on rollout values.

A round samples positions from games of the compiled expert (every phase of the game: at a
share of its decisions with two moves or more, every move's resulting position, its
*afterstate*), values each, and fits the network to those values from the round before's
weights (numpy, mini-batch Adam; the cross-entropy against the targets plus a term on the
differences between the afterstates of one decision, which are what choose a move).  Three
kinds of target:

* ``search``: the network's own expectiminimax value *depth* decisions deep, every throw
  weighed by its probability (no noise).  Depth 1 is value iteration (the network pulled
  towards its one-step expectation, like TD(0) without the sampling noise and with a
  converged fit instead of a learning rate); depth 2 distils a deeper search into the network,
  so that one decision ahead it plays more like the search.
* ``linear``: the linear evaluation's own expectiminimax value *depth* decisions deep (depth
  0: the evaluation itself).  It gives a network a start from what the linear model knows
  where self-play found nothing better (Adelaida), for ``search`` rounds to improve on.
* ``rollouts``: the mean result of complete rollouts to the end of the game by the expert's
  policy (no truncation, so no evaluation bias; the siblings of a decision share their
  throws).  Measured: full rollouts scatter by about 0.47 a game and the siblings' shared
  throws remove little of it, so at a few rollouts a position the targets are far noisier
  than the differences between moves, and the fitted network was no better than the TD(λ)
  one (see docs/journal.md).  Taking the throws' luck out of each rollout with the linear
  evaluation (``luck``) removed about a third of the variance at nine times the cost.

Each round's network is measured one decision ahead against the expert and against the
network it started from, in pairs of games on shared throws; the curve and the command that
repeats the run are stored in the weight file's ``info``::

    senet train fitted --variant standard \
        --start bench/reference_weights/standard.td-selfplay.npz \
        --round search:1:6000:8:11 --round search:1:6000:8:12 \
        --round search:1:6000:8:13 --round search:2:3500:10:21

    senet train fitted --variant kendall \
        --start bench/reference_weights/kendall.td-selfplay.npz \
        --round search:1:12000:8:11 --round search:1:12000:8:12 \
        --round search:1:12000:8:13 --round search:2:8000:10:21

(a round ``KIND:DEPTH:GAMES:EPOCHS:SEED``; for ``rollouts`` the second field is the rollouts
per afterstate).  Every random number comes from seeded generators, and the weights pass
through the saved single precision between rounds, so the same command gives the same file.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from senet.ai.evaluation import weights_for
from senet.compiled.kernel import (
    EXPERT,
    MAX_MOVES,
    below,
    choose,
    evaluate,
    game_seed,
    legal,
    play,
    throw_turn,
    thrown,
    track_start,
    winner,
)
from senet.compiled.kernel import decider as decision_seat
from senet.compiled.tables import compile_rules
from senet.engine import Variant
from senet.engine.state import PENDING_WATER

from .compiled_network import features, value_a
from .network import N_INPUTS, NetEvaluator, network_for
from .selfplay import greedy_move, working_space

__all__ = ["Round", "collect", "collect_searched", "duel", "errors", "fit", "train"]

#: a rollout or game still running after this many decisions stops and counts as a draw
MAX_DECISIONS = 5000
#: a network's weights: w1, b1, w2, b2
Params = tuple[np.ndarray, np.ndarray, np.ndarray, float]
#: the kinds of target a round can fit (see :class:`Round`)
KINDS = ("search", "linear", "rollouts")
#: a row's decision key is ``game * DECISION_KEY + decision`` (a game has fewer decisions)
DECISION_KEY = 65536


@njit(cache=True)
def _policy(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    trk: np.ndarray,
    moves: np.ndarray,
    k: int,
    net: bool,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    rng: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
    child: np.ndarray,
    ctrk: np.ndarray,
    ev: np.ndarray,
    values: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
) -> int:
    """The index of the move the policy plays: the greedy network one decision ahead with
    ``net``, else the compiled expert."""
    if k == 1:
        return 0
    if net:
        i, _ = greedy_move(T, path, s, trk, moves, k, w1, b1, w2, b2, child, ctrk, ev, x, h)
        return i
    return choose(T, path, s, moves, k, EXPERT, rng, lo, hi, lw, child, trk, ctrk, ev, values)


@njit(cache=True)
def _after_throw(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    trk: np.ndarray,
    value: int,
    net: bool,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    rng: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
    moves: np.ndarray,
    child: np.ndarray,
    ctrk: np.ndarray,
    ev: np.ndarray,
    values: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
) -> float:
    """Seat A's value by the linear evaluation after the throw ``value`` and the policy's
    move in ``s`` (a throw due; ``s`` and ``trk`` are changed in place)."""
    thrown(T, s, value, ev)
    k = legal(T, path, s, moves)
    i = _policy(
        T, path, s, trk, moves, k, net, w1, b1, w2, b2, rng, lo, hi, lw,
        child, ctrk, ev, values, x, h,
    )  # fmt: skip
    play(T, path, s, moves[i], ev, trk, 0)
    return evaluate(T, lo, hi, lw, s)


@njit(cache=True)
def _rollout(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    trk: np.ndarray,
    rng: np.ndarray,
    net: bool,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
    outcomes: np.ndarray,
    moves: np.ndarray,
    child: np.ndarray,
    ctrk: np.ndarray,
    ev: np.ndarray,
    values: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
    t_state: np.ndarray,
    t_trk: np.ndarray,
) -> float:
    """Play ``s`` (changed in place) to the end with the policy; seat A's result (½ for a
    draw or a game stopped at :data:`MAX_DECISIONS`), less the luck of its throws where
    ``outcomes`` (rows of throw value and probability) are given: at every throw, the
    linear evaluation after the throw made and the policy's move, less its mean over every
    throw the instrument can show.  Each term has mean zero whatever the evaluation, so the
    result keeps its expectation (the policy's value) and loses most of the throws' noise,
    as backgammon programs reduce the variance of their rollouts."""
    decisions = 0
    luck = 0.0
    while winner(T, s) < 0 and decisions < MAX_DECISIONS:
        if not s[3] and s[14] != PENDING_WATER:
            if outcomes.shape[0]:
                mean = 0.0
                for j in range(outcomes.shape[0]):
                    t_state[:] = s
                    t_trk[:, :] = trk
                    mean += outcomes[j, 1] * _after_throw(
                        T, path, t_state, t_trk, int(outcomes[j, 0]), net, w1, b1, w2, b2,
                        rng, lo, hi, lw, moves, child, ctrk, ev, values, x, h,
                    )  # fmt: skip
                throw_turn(T, s, rng, ev)
                k = legal(T, path, s, moves)
                i = _policy(
                    T, path, s, trk, moves, k, net, w1, b1, w2, b2, rng, lo, hi, lw,
                    child, ctrk, ev, values, x, h,
                )  # fmt: skip
                play(T, path, s, moves[i], ev, trk, 0)
                decisions += 1
                luck += evaluate(T, lo, hi, lw, s) - mean
                continue
            throw_turn(T, s, rng, ev)
        k = legal(T, path, s, moves)
        i = _policy(
            T, path, s, trk, moves, k, net, w1, b1, w2, b2, rng, lo, hi, lw,
            child, ctrk, ev, values, x, h,
        )  # fmt: skip
        play(T, path, s, moves[i], ev, trk, 0)
        decisions += 1
    won = winner(T, s)
    return (1.0 if won == 0 else (0.0 if won == 1 else 0.5)) - luck


@njit(cache=True)
def _searched(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    trk: np.ndarray,
    depth: int,
    outcomes: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
    work: np.ndarray,
    wtrk: np.ndarray,
    ev: np.ndarray,
    linear: bool,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
) -> float:
    """Seat A's expectiminimax value of ``s`` searched ``depth`` decisions deep (depth 0: the
    network, or the linear evaluation with ``linear``), every throw weighed by its probability
    (``outcomes``).  ``work`` and ``wtrk`` hold one state and its tracking per level (rows
    ``depth`` .. 1 are used)."""
    won = winner(T, s)
    if won >= 0:
        return 1.0 if won == 0 else (0.0 if won == 1 else 0.5)
    if depth == 0:
        return evaluate(T, lo, hi, lw, s) if linear else value_a(T, s, w1, b1, w2, b2, x, h)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    chance = not s[3] and s[14] != PENDING_WATER
    total = 0.0
    for j in range(outcomes.shape[0] if chance else 1):
        t = work[2 * depth]
        t[:] = s
        wtrk[2 * depth] = trk
        if chance:
            thrown(T, t, int(outcomes[j, 0]), ev)
        k = legal(T, path, t, moves)
        maximise = decision_seat(T, t) == 0
        best = -1.0 if maximise else 2.0
        for m in range(k):
            c = work[2 * depth + 1]
            c[:] = t
            wtrk[2 * depth + 1] = wtrk[2 * depth]
            play(T, path, c, moves[m], ev, wtrk[2 * depth + 1], 0)
            v = _searched(
                T, path, c, wtrk[2 * depth + 1], depth - 1, outcomes, w1, b1, w2, b2, x, h,
                work, wtrk, ev, linear, lo, hi, lw,
            )  # fmt: skip
            if (maximise and v > best) or (not maximise and v < best):
                best = v
        total += (outcomes[j, 1] if chance else 1.0) * best
    return total


@njit(cache=True)
def _collect(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    first: int,
    count: int,
    net: bool,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
    rate: int,
    rollouts: int,
    luck: np.ndarray,
    depth: int,
    linear: bool,
    outcomes: np.ndarray,
    xs: np.ndarray,
    ys: np.ndarray,
    gs: np.ndarray,
    ds: np.ndarray,
) -> int:
    """Games ``first`` .. ``first + count - 1`` of run ``seed`` played by the policy; at a
    decision with two moves or more, taken with probability ``rate`` / 1000, every move's open
    afterstate gets a row: its inputs in ``xs``, its target for the mover in ``ys``, its game
    in ``gs`` and the decision's number in its game in ``ds`` (the siblings of a decision
    share both).  The target: with ``rollouts`` > 0 the mean result of that many rollouts
    (less the luck of the throws in ``luck``, :func:`_rollout`); otherwise the expectiminimax
    value ``depth`` decisions deep (:func:`_searched`) of the network, or of the linear
    evaluation with ``linear``, every throw of ``outcomes`` weighed: no noise, the search's
    view.  Returns the rows written (at most ``len(ys)``)."""
    hidden, n = w1.shape
    s, child, moves, trk, ctrk, ev, rng, x, h = working_space(start.shape[0], hidden, n)
    a = np.zeros_like(s)
    atrk = np.zeros_like(trk)
    r_state = np.zeros_like(s)
    r_trk = np.zeros_like(trk)
    r_child = np.zeros_like(s)
    r_ctrk = np.zeros_like(trk)
    r_moves = np.zeros(MAX_MOVES, dtype=np.int64)
    r_rng = np.zeros(1, dtype=np.uint64)
    t_state = np.zeros_like(s)
    t_trk = np.zeros_like(trk)
    work = np.zeros((2 * depth + 2, s.shape[0]), dtype=np.int64)
    wtrk = np.zeros((2 * depth + 2, 2, trk.shape[1]), dtype=np.int64)
    values = np.zeros(MAX_MOVES)
    rows = 0
    for g in range(count):
        game = first + g
        rng[0] = game_seed(seed, game)
        s[:] = start
        track_start(s, trk)
        decisions = 0
        while winner(T, s) < 0 and decisions < MAX_DECISIONS:
            if not s[3] and s[14] != PENDING_WATER:
                throw_turn(T, s, rng, ev)
            k = legal(T, path, s, moves)
            if k > 1 and below(rng, 1000) < rate:
                for m in range(k):
                    if rows >= ys.shape[0]:
                        break
                    a[:] = s
                    atrk[:, :] = trk
                    play(T, path, a, moves[m], ev, atrk, 0)
                    if winner(T, a) >= 0:
                        continue  # its value is known exactly: nothing to learn
                    if rollouts > 0:
                        v = 0.0
                        for r in range(rollouts):
                            # rollout r of every move of this decision draws the same throws
                            r_rng[0] = game_seed(seed + 1 + r, game * DECISION_KEY + decisions)
                            r_state[:] = a
                            r_trk[:, :] = atrk
                            v += _rollout(
                                T, path, r_state, r_trk, r_rng, net, w1, b1, w2, b2, lo, hi,
                                lw, luck, r_moves, r_child, r_ctrk, ev, values, x, h, t_state,
                                t_trk,
                            )  # fmt: skip
                        v /= rollouts
                    else:
                        v = _searched(
                            T, path, a, atrk, depth, outcomes, w1, b1, w2, b2, x, h, work,
                            wtrk, ev, linear, lo, hi, lw,
                        )  # fmt: skip
                    mover = features(T, a, xs[rows])
                    ys[rows] = v if mover == 0 else 1.0 - v
                    gs[rows] = game
                    ds[rows] = decisions
                    rows += 1
            i = _policy(
                T, path, s, trk, moves, k, net, w1, b1, w2, b2, rng, lo, hi, lw,
                child, ctrk, ev, values, x, h,
            )  # fmt: skip
            play(T, path, s, moves[i], ev, trk, 0)
            decisions += 1
        if rows >= ys.shape[0]:
            break
    return rows


@njit(cache=True)
def _duel(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    pairs: int,
    net_a: bool,
    w1a: np.ndarray,
    b1a: np.ndarray,
    w2a: np.ndarray,
    b2a: np.ndarray,
    net_b: bool,
    w1b: np.ndarray,
    b1b: np.ndarray,
    w2b: np.ndarray,
    b2b: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
) -> np.ndarray:
    """Player one (the network ``*a`` with ``net_a``, else the expert) against player two,
    both one decision ahead: ``pairs`` pairs of games on shared throws with the seats swapped.
    Returns player one's result of every game (1, ½, 0)."""
    hidden = max(w1a.shape[0], w1b.shape[0])
    s, child, moves, trk, ctrk, ev, rng, x, h = working_space(start.shape[0], hidden, N_INPUTS)
    ha = np.zeros(w1a.shape[0])
    hb = np.zeros(w1b.shape[0])
    values = np.zeros(MAX_MOVES)
    out = np.zeros(2 * pairs)
    for g in range(2 * pairs):
        one = g % 2  # player one's seat
        rng[0] = game_seed(seed, g // 2)
        s[:] = start
        track_start(s, trk)
        decisions = 0
        while winner(T, s) < 0 and decisions < MAX_DECISIONS:
            if not s[3] and s[14] != PENDING_WATER:
                throw_turn(T, s, rng, ev)
            k = legal(T, path, s, moves)
            i = 0
            if k > 1:
                if decision_seat(T, s) == one:
                    i = _policy(
                        T, path, s, trk, moves, k, net_a, w1a, b1a, w2a, b2a, rng, lo, hi, lw,
                        child, ctrk, ev, values, x, ha,
                    )  # fmt: skip
                else:
                    i = _policy(
                        T, path, s, trk, moves, k, net_b, w1b, b1b, w2b, b2b, rng, lo, hi, lw,
                        child, ctrk, ev, values, x, hb,
                    )  # fmt: skip
            play(T, path, s, moves[i], ev, trk, 0)
            decisions += 1
        won = winner(T, s)
        out[g] = 0.5 if won < 0 or won == 2 else (1.0 if won == one else 0.0)
    return out


def _weights(
    network: NetEvaluator | None,
) -> tuple[bool, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The compiled functions' view of a policy: (is a network, w1, b1, w2, b2); the expert
    passes placeholder weights of one hidden unit."""
    if network is None:
        return False, np.zeros((1, N_INPUTS)), np.zeros(1), np.zeros(1), np.zeros(1)
    return True, network.w1, network.b1, network.w2, np.array([network.b2])


def _outcomes(variant: Variant, luck: bool) -> np.ndarray:
    """The throws the rollouts take the luck of (rows of value and probability): none without
    ``luck`` or where a turn's throws are all made before moving (a run of throws is not one
    chance event of the kernel's flow)."""
    if not luck or variant.throws_first:
        return np.zeros((0, 2))
    return np.array([[n, float(p)] for n, p in variant.instrument.outcomes], dtype=np.float64)


def _row_buffers(max_rows: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Room for ``max_rows`` training rows, filled by :func:`_collect`: inputs, targets, and
    each row's game and decision."""
    return (
        np.zeros((max_rows, N_INPUTS)),
        np.zeros(max_rows),
        np.zeros(max_rows, dtype=np.int64),
        np.zeros(max_rows, dtype=np.int64),
    )


def _rows_kept(
    rows: int, xs: np.ndarray, ys: np.ndarray, gs: np.ndarray, ds: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first ``rows`` rows filled: inputs, targets and decision keys."""
    return xs[:rows].copy(), ys[:rows].copy(), gs[:rows] * DECISION_KEY + ds[:rows]


def collect(
    variant: Variant,
    policy: NetEvaluator | None,
    games: int,
    *,
    seed: int,
    first: int = 0,
    rate: float = 0.1,
    rollouts: int = 8,
    luck: bool = True,
    max_rows: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Training rows from ``games`` games of ``policy`` (None: the expert): inputs, targets
    (the mover's mean rollout result) and each row's decision, ``game * DECISION_KEY + decision``
    (rows of one decision, the afterstates of its moves, are consecutive and share it).  Collection stops at
    ``max_rows`` rows (default: room for every row the games can be expected to give)."""
    max_rows = max_rows or int(games * rate * 1000) + 1000
    rules = compile_rules(variant)
    lo, hi, lw = weights_for(variant)
    net, w1, b1, w2, b2 = _weights(policy)
    xs, ys, gs, ds = _row_buffers(max_rows)
    rows = _collect(
        rules.table, rules.path, rules.start, seed, first, games, net, w1, b1, w2, b2,
        lo, hi, lw, int(round(1000 * rate)), rollouts, _outcomes(variant, luck), 0, False,
        np.zeros((0, 2)), xs, ys, gs, ds,
    )  # fmt: skip
    return _rows_kept(rows, xs, ys, gs, ds)


def collect_searched(
    variant: Variant,
    network: NetEvaluator,
    games: int,
    *,
    seed: int,
    depth: int = 1,
    rate: float = 0.1,
    net_policy: bool = False,
    linear: bool = False,
    max_rows: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """As :func:`collect`, the targets being ``network``'s expectiminimax values ``depth``
    decisions deep (the linear evaluation's with ``linear``: ``network`` then only plays with
    ``net_policy``); the games are the expert's (or the network's with ``net_policy``)."""
    max_rows = max_rows or int(games * rate * 1000) + 1000
    rules = compile_rules(variant)
    lo, hi, lw = weights_for(variant)
    _, w1, b1, w2, b2 = _weights(network)
    xs, ys, gs, ds = _row_buffers(max_rows)
    outcomes = np.array([[n, float(p)] for n, p in variant.instrument.outcomes])
    rows = _collect(
        rules.table, rules.path, rules.start, seed, 0, games, net_policy, w1, b1, w2, b2,
        lo, hi, lw, int(round(1000 * rate)), 0, np.zeros((0, 2)), depth, linear, outcomes,
        xs, ys, gs, ds,
    )  # fmt: skip
    return _rows_kept(rows, xs, ys, gs, ds)


def duel(
    variant: Variant,
    one: NetEvaluator | None,
    two: NetEvaluator | None,
    pairs: int,
    *,
    seed: int = 7919,
) -> tuple[float, float]:
    """Player one's score against player two (None: the expert), both one decision ahead, over
    ``pairs`` pairs of games on shared throws: the mean and its 95% half-width over the pairs."""
    rules = compile_rules(variant)
    lo, hi, lw = weights_for(variant)
    res = _duel(
        rules.table, rules.path, rules.start, seed, pairs, *_weights(one), *_weights(two),
        lo, hi, lw,
    )  # fmt: skip
    per_pair = res.reshape(-1, 2).mean(axis=1)
    half = 1.96 * per_pair.std(ddof=1) / math.sqrt(len(per_pair)) if len(per_pair) > 1 else 0.0
    return float(per_pair.mean()), float(half)


def _group_order(groups: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random order of the rows that keeps each group's rows together (``groups``: a key per
    row, the rows of a group consecutive)."""
    starts = np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])
    lengths = np.diff(np.r_[starts, len(groups)])
    perm = rng.permutation(len(starts))
    new_lengths = lengths[perm]
    offsets = np.cumsum(new_lengths) - new_lengths
    return np.repeat(starts[perm] - offsets, new_lengths) + np.arange(len(groups))


def _centred(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each value less the mean of its group's values (``groups``: any keys)."""
    _, label = np.unique(groups, return_inverse=True)
    sums = np.bincount(label, weights=values)
    counts = np.bincount(label)
    return values - (sums / counts)[label]


def _outputs(params: Params, x: np.ndarray) -> np.ndarray:
    w1, b1, w2, b2 = params
    z = np.tanh(x @ w1.T + b1) @ w2 + b2
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))


def errors(params: Params, x: np.ndarray, y: np.ndarray, groups: np.ndarray) -> tuple[float, float]:
    """The mean squared error of the outputs against the targets, and of their differences
    from their decision's mean (what ranks the moves of a decision)."""
    p = _outputs(params, x)
    return float(np.mean((p - y) ** 2)), float(
        np.mean((_centred(p, groups) - _centred(y, groups)) ** 2)
    )


def fit(
    x: np.ndarray,
    y: np.ndarray,
    groups: np.ndarray,
    start: Params,
    *,
    epochs: int = 20,
    batch: int = 512,
    lr: float = 0.003,
    pairwise: float = 20.0,
    seed: int = 1,
    valid: np.ndarray | None = None,
    log: bool = True,
) -> tuple[Params, list[tuple[float, float]]]:
    """Fit ``sigmoid(w2 @ tanh(w1 @ x + b1) + b2)`` to the targets ``y`` from the weights
    ``start`` by mini-batch Adam (the learning rate falling linearly to a tenth) on the
    cross-entropy against the targets plus ``pairwise`` times the squared error of the
    outputs' differences from their decision's mean against the targets' (rows of a decision
    share their ``groups`` key and are consecutive; mini-batches keep them together).  The
    siblings' targets share their rollouts' throws, so their differences are far less noisy
    than the targets, and the differences are what choose a move.  Rows where ``valid`` is
    True are held out; both errors (:func:`errors`) on them are returned after each epoch."""
    rng = np.random.default_rng(seed)
    params: list[np.ndarray] = [start[0].copy(), start[1].copy(), start[2].copy()]
    params.append(np.array([start[3]]))
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    held = valid if valid is not None else np.zeros(len(y), dtype=bool)
    xt, yt, gt = x[~held], y[~held], groups[~held]
    xv, yv, gv = x[held], y[held], groups[held]
    curve: list[tuple[float, float]] = []
    batch = max(1, min(batch, len(yt)))  # a small set is one batch
    steps = epochs * max(1, len(yt) // batch)
    t = 0
    for epoch in range(epochs):
        order = _group_order(gt, rng)
        for b in range(0, len(yt) - batch + 1, batch):
            idx = order[b : b + batch]
            xb, yb = xt[idx], yt[idx]
            w1, b1, w2, b2 = params
            hid = np.tanh(xb @ w1.T + b1)
            p = 1.0 / (1.0 + np.exp(-np.clip(hid @ w2 + b2[0], -40, 40)))
            dz = p - yb
            if pairwise:
                r = _centred(p, gt[idx]) - _centred(yb, gt[idx])
                dz += pairwise * 2.0 * r * p * (1.0 - p)
            dz /= len(yb)
            g_w2 = hid.T @ dz
            g_b2 = np.array([dz.sum()])
            da = np.outer(dz, w2) * (1.0 - hid * hid)
            g_w1 = da.T @ xb
            g_b1 = da.sum(axis=0)
            t += 1
            rate = lr * (1.0 - 0.9 * t / steps)
            for i, g in enumerate((g_w1, g_b1, g_w2, g_b2)):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                mh = m[i] / (1 - 0.9**t)
                vh = v[i] / (1 - 0.999**t)
                params[i] -= rate * mh / (np.sqrt(vh) + 1e-8)
        if len(yv):
            done = (params[0], params[1], params[2], float(params[3][0]))
            curve.append(errors(done, xv, yv, gv))
            if log:
                print(
                    f"  epoch {epoch + 1}: held out, squared error {curve[-1][0]:.5f},"
                    f" of the differences within a decision {curve[-1][1]:.6f}",
                    flush=True,
                )
    return (params[0], params[1], params[2], float(params[3][0])), curve


@dataclass(frozen=True)
class Round:
    """One round of training: its targets (``search``: the network searched ``depth``
    decisions deep; ``linear``: the linear evaluation searched ``depth`` decisions deep, depth 0
    being the evaluation itself, to start a network from what the linear model knows; or
    ``rollouts`` with ``depth`` rollouts an afterstate), the expert's games its positions come
    from, the epochs of the fit, and its seed."""

    kind: str
    depth: int
    games: int
    epochs: int
    seed: int

    @classmethod
    def parse(cls, text: str) -> Round:
        """``KIND:DEPTH:GAMES:EPOCHS:SEED``, e.g. ``search:2:3500:10:21``."""
        parts = text.split(":")
        if len(parts) != 5 or parts[0] not in KINDS:
            raise ValueError(
                f"a round is KIND:DEPTH:GAMES:EPOCHS:SEED (KIND one of {', '.join(KINDS)}),"
                f" not {text!r}"
            )
        depth, games, epochs, seed = (int(p) for p in parts[1:])
        return cls(parts[0], depth, games, epochs, seed)

    def __str__(self) -> str:
        return f"{self.kind}:{self.depth}:{self.games}:{self.epochs}:{self.seed}"


def _single(params: Params) -> Params:
    """The weights as the weight file keeps them (single precision)."""
    w1, b1, w2, b2 = params
    return (
        w1.astype(np.float32).astype(np.float64),
        b1.astype(np.float32).astype(np.float64),
        w2.astype(np.float32).astype(np.float64),
        float(np.float32(b2)),
    )


def train(
    variant: Variant,
    rounds: Sequence[Round],
    *,
    start: NetEvaluator | None = None,
    start_name: str = "",
    hidden: int = 40,
    rate: float = 0.1,
    lr: float = 0.001,
    pairwise: float = 20.0,
    eval_pairs: int = 2000,
    log: bool = True,
) -> tuple[NetEvaluator, list[dict[str, float]]]:
    """Run ``rounds`` (see the module's docstring) from ``start``'s weights (``start_name``
    says where they came from; None: small random weights of ``hidden`` units).  Returns the
    last round's network and the curve: per round the rows, the held-out errors and the
    scores one decision ahead against the expert and against ``start`` (or the shipped
    network where there is no start)."""
    if start is not None:
        params: Params = _single((start.w1, start.b1, start.w2, start.b2))
    else:
        rng = np.random.default_rng(rounds[0].seed if rounds else 0)
        params = _single(
            (
                rng.normal(scale=0.1, size=(hidden, N_INPUTS)),
                np.zeros(hidden),
                rng.normal(scale=0.1, size=hidden),
                0.0,
            )
        )
    rival = start if start is not None else network_for(variant)
    current = NetEvaluator(variant, *params)
    curve: list[dict[str, float]] = []
    began = time.monotonic()
    for number, rnd in enumerate(rounds, 1):
        if rnd.kind in ("search", "linear"):
            x, y, g = collect_searched(
                variant, current, rnd.games, seed=rnd.seed, depth=rnd.depth, rate=rate,
                linear=rnd.kind == "linear",
            )  # fmt: skip
        else:
            x, y, g = collect(
                variant, None, rnd.games, seed=rnd.seed, rate=rate, rollouts=rnd.depth
            )
        valid = (g // DECISION_KEY) % 20 == 0  # every twentieth game held out
        if log:
            print(
                f"{variant.name} round {number} ({rnd}): {len(y)} rows,"
                f" {time.monotonic() - began:.0f} s",
                flush=True,
            )
        weights, held_out = fit(
            x, y, g, (current.w1, current.b1, current.w2, current.b2), epochs=rnd.epochs,
            lr=lr, pairwise=pairwise, valid=valid, log=log,
        )  # fmt: skip
        current = NetEvaluator(variant, *_single(weights))
        vs_expert = duel(variant, current, None, eval_pairs)
        vs_rival = duel(variant, current, rival, eval_pairs) if rival is not None else (0.0, 0.0)
        point = {
            "round": number,
            "rows": len(y),
            "held_out_error": round(held_out[-1][0], 7) if held_out else 0.0,
            "held_out_error_within": round(held_out[-1][1], 7) if held_out else 0.0,
            "vs_expert": round(vs_expert[0], 4),
            "vs_expert_half": round(vs_expert[1], 4),
            "vs_start": round(vs_rival[0], 4),
            "vs_start_half": round(vs_rival[1], 4),
            "seconds": round(time.monotonic() - began),
        }
        curve.append(point)
        if log:
            against_start = (
                f", vs the starting network {100 * vs_rival[0]:.1f}% ± {100 * vs_rival[1]:.1f}"
                if rival is not None
                else ""
            )
            print(
                f"{variant.name} round {number}: one decision ahead vs expert"
                f" {100 * vs_expert[0]:.1f}% ± {100 * vs_expert[1]:.1f}{against_start}"
                f" ({2 * eval_pairs} games each), {time.monotonic() - began:.0f} s",
                flush=True,
            )
    command = f"senet train fitted --variant {variant.name}"
    command += f" --start {start_name}" if start is not None else f" --hidden {hidden}"
    command += "".join(f" --round {r}" for r in rounds)
    if (rate, lr, pairwise) != (0.1, 0.001, 20.0):
        command += f" --rate {rate} --lr {lr} --pairwise {pairwise}"
    current.info = {
        "trainer": "senet.ai.fitted supervised fits to search and rollout values",
        "games": str(sum(r.games for r in rounds)),
        "rounds": " ".join(str(r) for r in rounds),
        "hidden": str(current.hidden),
        "start": start_name if start is not None else "random",
        "command": command,
        "curve": json.dumps(curve),
    }
    return current, curve
