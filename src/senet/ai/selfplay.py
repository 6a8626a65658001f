"""Train the network evaluation (:mod:`senet.ai.network`) by TD(λ) self-play, as TD-Gammon did.

Both seats play greedily by the current network, one decision ahead: the move whose resulting
position (the *afterstate*) is best for the decider, a move that ends the game valued by its
result.  After every decision the estimate of the previous afterstate is pulled towards the
estimate of the new one, and at the end towards the real result; eligibility traces (λ)
spread each correction back over the earlier positions.  The games run on the compiled
simulator's rules (:mod:`senet.compiled.kernel`, the engine's flow compiled by Numba), and the
network's forward and backward passes are compiled beside them, so a game takes milliseconds.

The learning curve is measured during training: every ``--eval-every`` games the network,
playing one decision ahead, meets the expert level (the shipped linear evaluation, also one
decision ahead) in pairs of games with the seats swapped, and its score is printed.

Usage (one process; seeded, so the same arguments give the same weights)::

    senet train selfplay --variant kendall --games 60000 --seed 1

writes ``senet/ai/weights/kendall.td.npz`` with the run's settings, the command that repeats
it and its learning curve in its ``info``.  ``--minutes`` stops a run early (the learning
rate still follows the schedule of ``--games``, or of ``--schedule-games``).  ``--start FILE``
begins from that network's weights (one fitted by :mod:`senet.ai.fitted`, say) instead of
random ones.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence

import numpy as np
from numba import njit

from senet.ai.evaluation import weights_for
from senet.compiled.kernel import (
    EXPERT,
    MAX_MOVES,
    N_EVENTS,
    TR_WIDTH,
    choose,
    game_seed,
    legal,
    play,
    throw_turn,
    track_start,
    winner,
)
from senet.compiled.kernel import decider as decision_seat
from senet.compiled.tables import compile_rules
from senet.engine import Variant
from senet.engine.state import PENDING_WATER

from .compiled_network import DRAW, features, forward, value_a
from .network import (
    FIRST_INPUTS,
    N_INPUTS,
    NetEvaluator,
)

__all__ = ["train", "state_features", "greedy_move", "working_space"]


@njit(cache=True)
def greedy_move(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    trk: np.ndarray,
    moves: np.ndarray,
    k: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    child: np.ndarray,
    ctrk: np.ndarray,
    ev: np.ndarray,
    x: np.ndarray,
    h: np.ndarray,
) -> tuple[int, float]:
    """The decider's best move by the network, one decision ahead, and A's value after it."""
    maximise = decision_seat(T, s) == 0
    best, best_v = 0, -1.0 if maximise else 2.0
    for i in range(k):
        child[:] = s
        ctrk[:, :] = trk
        play(T, path, child, moves[i], ev, ctrk, 0)
        v = value_a(T, child, w1, b1, w2, b2, x, h)
        if (maximise and v > best_v) or (not maximise and v < best_v):
            best, best_v = i, v
    return best, best_v


@njit(cache=True)
def working_space(
    width: int, hidden: int, n: int
) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray,
]:  # fmt: skip
    """The arrays a game loop works in: the state and a child state (``width`` fields), the
    legal moves, the piece tracking of both, the event counts, the generator state, and the
    network's inputs (``n``) and hidden activations (``hidden``)."""
    return (
        np.zeros(width, dtype=np.int64),
        np.zeros(width, dtype=np.int64),
        np.zeros(MAX_MOVES, dtype=np.int64),
        np.zeros((2, TR_WIDTH), dtype=np.int64),
        np.zeros((2, TR_WIDTH), dtype=np.int64),
        np.zeros(N_EVENTS, dtype=np.int64),
        np.zeros(1, dtype=np.uint64),
        np.zeros(n),
        np.zeros(hidden),
    )


@njit(cache=True)
def _train_games(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    first: int,
    count: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    alpha: float,
    lam: float,
    gamma: float,
    max_decisions: int,
    guide: bool,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
) -> tuple[float, int, int]:
    """Self-play games ``first`` .. ``first + count - 1`` of run ``seed``, learning as they
    go (with ``guide``, both seats play the compiled expert's moves instead of the network's,
    and the network learns the values of those games); returns the mean squared TD error per
    decision, the decisions played and the games stopped unfinished after ``max_decisions``
    (they end without a final update).

    With ``gamma`` below 1 every decision discounts the estimate it learns from towards a draw
    (the target is ``½ + gamma (v − ½)``; a finished game's result is not discounted), so a
    win sooner is worth more than the same win later and a greedy network gains by moving
    towards the end instead of shuffling pieces; the traces decay by ``gamma λ``."""
    hidden, n = w1.shape
    s, child, moves, trk, ctrk, ev, rng, x, h = working_space(start.shape[0], hidden, n)
    decay = gamma * lam
    e1 = np.zeros((hidden, n))
    eb1 = np.zeros(hidden)
    e2 = np.zeros(hidden)
    eb2 = np.zeros(1)
    values = np.zeros(MAX_MOVES)  # working space of the expert's choice
    sq_err = 0.0
    updates = 0
    played = 0
    unfinished = 0
    for g in range(count):
        rng[0] = game_seed(seed, first + g)
        s[:] = start
        track_start(s, trk)
        e1[:, :] = 0.0
        eb1[:] = 0.0
        e2[:] = 0.0
        eb2[0] = 0.0
        have_prev = False
        v_prev = 0.0
        decisions = 0
        while winner(T, s) < 0 and decisions < max_decisions:
            if not s[3] and s[14] != PENDING_WATER:
                throw_turn(T, s, rng, ev)  # one throw, or a turn's run of banked throws
            k = legal(T, path, s, moves)
            i = 0
            v_new = 0.0
            if k > 1 and guide:
                i = choose(
                    T, path, s, moves, k, EXPERT, rng, lo, hi, lw, child, trk, ctrk, ev, values
                )
            elif k > 1:
                i, v_new = greedy_move(
                    T, path, s, trk, moves, k, w1, b1, w2, b2, child, ctrk, ev, x, h
                )
            play(T, path, s, moves[i], ev, trk, 0)
            decisions += 1
            won = winner(T, s)
            if k == 1 or won >= 0 or guide:
                v_new = value_a(T, s, w1, b1, w2, b2, x, h)
            if have_prev:
                target = v_new if won >= 0 else 0.5 + gamma * (v_new - 0.5)
                delta = target - v_prev
                sq_err += delta * delta
                updates += 1
                step = alpha * delta
                for j in range(hidden):
                    for q in range(n):
                        w1[j, q] += step * e1[j, q]
                    b1[j] += step * eb1[j]
                    w2[j] += step * e2[j]
                b2[0] += step * eb2[0]
            if won >= 0:
                break
            # traces: e = γλ e + d V_A(s) / d parameters (at the updated parameters)
            mover = features(T, s, x)
            v = forward(w1, b1, w2, b2, x, h)
            dz = v * (1.0 - v) * (1.0 if mover == 0 else -1.0)
            v_prev = v if mover == 0 else 1.0 - v
            have_prev = True
            for j in range(hidden):
                da = dz * w2[j] * (1.0 - h[j] * h[j])
                for q in range(n):
                    e1[j, q] = decay * e1[j, q] + da * x[q]
                eb1[j] = decay * eb1[j] + da
                e2[j] = decay * e2[j] + dz * h[j]
            eb2[0] = decay * eb2[0] + dz
        played += decisions
        if winner(T, s) < 0:
            unfinished += 1
    return sq_err / max(updates, 1), played, unfinished


@njit(cache=True)
def _match(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    pairs: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    lw: np.ndarray,
    max_decisions: int,
) -> np.ndarray:
    """The network (one decision ahead) against the compiled expert: ``pairs`` pairs of games,
    each pair on the same seed with the seats swapped.  Returns the network's result of
    every game (1, ½, 0)."""
    hidden, n = w1.shape
    s, child, moves, trk, ctrk, ev, rng, x, h = working_space(start.shape[0], hidden, n)
    out = np.zeros(2 * pairs)
    values = np.zeros(MAX_MOVES)  # working space of the expert's choice
    for g in range(2 * pairs):
        net_seat = g % 2
        rng[0] = game_seed(seed, g // 2)
        s[:] = start
        track_start(s, trk)
        decisions = 0
        while winner(T, s) < 0 and decisions < max_decisions:
            if not s[3] and s[14] != PENDING_WATER:
                throw_turn(T, s, rng, ev)  # one throw, or a turn's run of banked throws
            k = legal(T, path, s, moves)
            i = 0
            if k > 1:
                if decision_seat(T, s) == net_seat:
                    i, _ = greedy_move(
                        T, path, s, trk, moves, k, w1, b1, w2, b2, child, ctrk, ev, x, h
                    )
                else:
                    i = choose(
                        T, path, s, moves, k, EXPERT, rng, lo, hi, lw, child, trk, ctrk, ev, values
                    )
            play(T, path, s, moves[i], ev, trk, 0)
            decisions += 1
        won = winner(T, s)
        out[g] = 0.5 if won < 0 or won == DRAW else (1.0 if won == net_seat else 0.0)
    return out


def state_features(variant: Variant, states: Sequence[Sequence[int]]) -> np.ndarray:
    """The compiled inputs of raw states, one row each (for checking them against the numpy
    ones of :func:`senet.ai.network.features_of_states`)."""
    rules = compile_rules(variant)
    out = np.zeros((len(states), N_INPUTS))
    for row, state in zip(out, states):
        features(rules.table, np.array(state, dtype=np.int64), row)
    return out


def _interval(results: np.ndarray) -> tuple[float, float]:
    """Mean and 95% half-width over the pairs (the two games of a pair share their throws)."""
    pairs = results.reshape(-1, 2).mean(axis=1)
    half = 1.96 * pairs.std(ddof=1) / math.sqrt(len(pairs)) if len(pairs) > 1 else 0.0
    return float(pairs.mean()), float(half)


def train(
    variant: Variant,
    games: int,
    *,
    seed: int = 1,
    hidden: int = 40,
    alpha: float = 0.1,
    alpha_end: float = 0.02,
    lam: float = 0.7,
    gamma: float = 1.0,
    chunk: int = 500,
    eval_every: int = 5000,
    eval_pairs: int = 500,
    max_decisions: int = 5000,
    minutes: float = 0.0,
    schedule_games: int = 0,
    guided: int = 0,
    start: NetEvaluator | None = None,
    start_name: str = "",
    log: bool = True,
) -> tuple[NetEvaluator, list[dict[str, float]]]:
    """Self-play ``games`` games (fewer if ``minutes`` > 0 runs out first) and return the
    network with its learning curve (games played, score against the expert and its 95%
    half-width, mean squared TD error).  The learning rate falls linearly from ``alpha`` to
    ``alpha_end`` over ``schedule_games`` games (default: ``games``), so a run stopped by
    the clock is repeated exactly by giving its games and the same schedule.

    The first ``guided`` games are played by the compiled expert for both seats while the
    network learns their values: where the untrained network's own greedy play does not
    finish its games (in jequier nearly every early self-play game still runs after 5,000
    decisions: pieces that cannot go forward go back, so a policy can shuffle forever) and so
    never sees a result, the expert's games bring results from the start.

    With ``start`` the weights begin as that network's (``hidden`` is then its size) instead
    of random ones, so self-play can refine a network fitted by other means; ``start_name``
    (its file) goes into the command that repeats the run."""
    horizon = schedule_games or games
    rules = compile_rules(variant)
    rng = np.random.default_rng(seed)
    # the first inputs' weights are drawn first and the later inputs start at zero, so a
    # variant where those are always zero trains exactly as before they were added
    w1 = np.zeros((hidden, N_INPUTS))
    w1[:, :FIRST_INPUTS] = rng.normal(scale=0.1, size=(hidden, FIRST_INPUTS))
    b1 = np.zeros(hidden)
    w2 = rng.normal(scale=0.1, size=hidden)
    b2 = np.zeros(1)
    if start is not None:
        w1, b1, w2 = start.w1.copy(), start.b1.copy(), start.w2.copy()
        b2 = np.array([start.b2])
        hidden = w1.shape[0]
    lo, hi, lw = weights_for(variant)
    curve: list[dict[str, float]] = []
    began = time.monotonic()
    played = 0
    err = 0.0
    # self-play decisions and games left unfinished (at ``max_decisions``) since the last point
    decisions = unfinished = since = 0

    def measure() -> None:
        nonlocal decisions, unfinished, since
        res = _match(
            rules.table, rules.path, rules.start, seed + 7919, eval_pairs,
            w1, b1, w2, b2, lo, hi, lw, max_decisions,
        )  # fmt: skip
        score, half = _interval(res)
        per_game = decisions / since if since else 0.0
        curve.append({"games": played, "score": round(score, 4), "half": round(half, 4),
                      "td_error": round(err, 6), "seconds": round(time.monotonic() - began),
                      "decisions_per_game": round(per_game, 1), "unfinished": unfinished})  # fmt: skip
        if log:
            print(
                f"{variant.name}: {played} games, vs expert {100 * score:.1f}%"
                f" ± {100 * half:.1f}, TD error {err:.5f}, {per_game:.0f} decisions a game,"
                f" {unfinished} unfinished at {max_decisions}, {time.monotonic() - began:.0f} s",
                flush=True,
            )
        decisions = unfinished = since = 0

    measure()
    while played < games:
        if minutes and time.monotonic() - began > 60 * minutes:
            break
        guide = played < guided
        n = min(chunk, games - played, guided - played if guide else games)
        a = alpha + (alpha_end - alpha) * played / horizon
        err, d, u = _train_games(
            rules.table, rules.path, rules.start, seed, played, n,
            w1, b1, w2, b2, a, lam, gamma, max_decisions, guide, lo, hi, lw,
        )  # fmt: skip
        played += n
        decisions, unfinished, since = decisions + d, unfinished + u, since + n
        if played % eval_every == 0 or played == games:
            measure()
    if curve[-1]["games"] != played:
        measure()
    info = {
        "trainer": "senet.ai.selfplay TD(lambda) self-play",
        "games": str(played),
        "seed": str(seed),
        "hidden": str(hidden),
        "alpha": f"{alpha}..{alpha_end} over {horizon} games",
        "command": (
            f"senet train selfplay --variant {variant.name} --games {played}"
            f" --schedule-games {horizon} --seed {seed} --hidden {hidden} --alpha {alpha}"
            f" --alpha-end {alpha_end} --lam {lam}"
            + (f" --discount {gamma}" if gamma != 1.0 else "")
            + (f" --max-decisions {max_decisions}" if max_decisions != 5000 else "")
            + (f" --guided {guided}" if guided else "")
            + (f" --start {start_name}" if start is not None else "")
        ),
        "lambda": str(lam),
        "discount": str(gamma),
        "guided": str(guided),
        "start": start_name if start is not None else "random",
        "curve": json.dumps(curve),
    }
    return NetEvaluator(variant, w1, b1, w2, float(b2[0]), info), curve
