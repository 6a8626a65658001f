"""Rollout players against the expert, entirely inside the compiled simulator.

A rollout player values each legal move by ``R`` rollouts of ``H`` decisions of the expert
policy (both seats), common random numbers across the moves, the linear evaluation where a
rollout stops (:func:`senet.ai.rollout.rollout_sums`, the master's root decision with a fixed
number of rollouts instead of a time budget).  It meets the expert level (the linear model one
decision ahead, :data:`senet.compiled.kernel.EXPERT`) in pairs of games on the same throws with the
seats swapped; prints its score with a 95% interval over the pairs and the CPU time.  This is
how the rollouts' horizon and count were chosen: thousands of games in minutes, where the
ladder (``bench/ai_ladder.py``) plays a few hundred an hour.

    python bench/ai_rollout.py --variant kendall --pairs 200 64x16 256x16
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from numba import njit

from senet.ai.evaluation import weights_for
from senet.ai.rollout import rollout_sums
from senet.compiled.kernel import (
    EXPERT,
    MAX_MOVES,
    N_EVENTS,
    TR_WIDTH,
    choose,
    decider,
    game_seed,
    legal,
    play,
    throw,
    track_start,
    winner,
)
from senet.compiled.tables import compile_rules
from senet.engine import find_variant
from senet.engine.state import PENDING, PENDING_WATER, THROW


@njit(cache=True)
def match(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    pairs: int,
    rollouts: int,
    horizon: int,
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
) -> np.ndarray:
    """The rollout player's result of every game (1, ½, 0); game 2k and 2k+1 share throws."""
    width = start.shape[0]
    s = np.zeros(width, dtype=np.int64)
    scratch = np.zeros(width, dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    strk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    sev = np.zeros(N_EVENTS, dtype=np.int64)
    values = np.zeros(MAX_MOVES)
    rng = np.zeros(1, dtype=np.uint64)
    children = np.zeros((MAX_MOVES, width), dtype=np.int64)
    out = np.zeros(2 * pairs)
    for g in range(2 * pairs):
        me = g % 2
        rng[0] = game_seed(seed, g // 2)
        s[:] = start
        track_start(s, trk)
        d = 0
        while winner(T, s) < 0 and d < 5000:
            if not s[THROW] and s[PENDING] != PENDING_WATER:
                s[THROW] = throw(T, rng)
            k = legal(T, path, s, moves)
            i = 0
            if k > 1:
                if decider(T, s) == me:
                    for c in range(k):
                        children[c, :] = s
                        strk[:, :] = trk
                        play(T, path, children[c], moves[c], sev, strk, 0)
                    sums = np.zeros(k)
                    pair_sq = np.zeros((k, k))
                    r_seed = game_seed(seed + 77, g * 10000 + d)
                    rollout_sums(
                        T, path, children[:k], r_seed, 0, rollouts, horizon, lo, hi, w,
                        sums, pair_sq,
                    )  # fmt: skip
                    best = -1.0
                    for c in range(k):
                        v = sums[c] if me == 0 else rollouts - sums[c]
                        if v > best + 1e-12:
                            best, i = v, c
                else:
                    i = choose(
                        T, path, s, moves, k, EXPERT, rng, lo, hi, w, scratch, trk, strk, sev,
                        values,
                    )  # fmt: skip
            play(T, path, s, moves[i], ev, trk, 0)
            d += 1
        won = winner(T, s)
        out[g] = 0.5 if won < 0 or won == 2 else (1.0 if won == me else 0.0)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="kendall")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("specs", nargs="+", help="ROLLOUTSxHORIZON, e.g. 64x16")
    args = parser.parse_args(argv)
    variant = find_variant(args.variant)
    rules = compile_rules(variant)
    lo, hi, w = weights_for(variant)
    for spec in args.specs:
        rollouts, horizon = map(int, spec.split("x"))
        began = time.process_time()
        res = match(
            rules.table, rules.path, rules.start, args.seed, args.pairs, rollouts, horizon,
            lo, hi, w,
        )  # fmt: skip
        pairs = res.reshape(-1, 2).mean(axis=1)
        half = 1.96 * pairs.std(ddof=1) / math.sqrt(len(pairs))
        print(
            f"{variant.name} rollouts {rollouts} x horizon {horizon} vs expert: "
            f"{100 * pairs.mean():.1f}% ± {100 * half:.1f} ({2 * args.pairs} games, "
            f"{time.process_time() - began:.0f} s CPU)",
            flush=True,
        )


if __name__ == "__main__":
    main()
