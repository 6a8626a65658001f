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

A spec ``netL:RxH`` (``netL:RxH:luck``) rolls out the trained network's policy instead, ``L``
1 (one decision ahead) or 2 (through the throw after each move), stopping in the variant's
largest shipped endgame table or after ``H`` decisions, valued there by the network, with the
luck of the throws taken out if asked (:func:`senet.ai.rollout.exact_rollout_sums`);
``netL:0x0`` plays that policy itself, without rollouts.  ``--opponent network2`` (or
``network``) meets the network's policy instead of the expert (a plain ``RxH`` spec then stops
its expert's rollouts in the table too):

    python bench/ai_rollout.py --variant standard --opponent network2 net2:0x0 net1:64x8:luck

``--late N`` keeps the rollouts to the end of the game: the tested player rolls out only with
at most ``N`` pieces on the board and plays as its opponent before, so what the games measure
is what those late rollouts add (a pair of games that never reaches a late decision where the
two differ is the same game from either seat, and adds no noise):

    python bench/ai_rollout.py --variant standard --opponent network2 --late 6 net1:128x9999:luck
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from numba import njit

from senet.ai.compiled_table import table_arrays
from senet.ai.evaluation import weights_for
from senet.ai.network import network_for
from senet.ai.rollout import exact_rollout_sums, network_move, rollout_sums
from senet.ai.tables import large_table_for, table_for
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
    popcount,
    throw,
    track_start,
    winner,
)
from senet.compiled.tables import compile_rules
from senet.engine import find_variant
from senet.engine.state import MASK, PENDING, PENDING_WATER, THROW


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


#: More pieces than any board holds: the tested player rolls out everywhere.
ALL = 99


@njit(cache=True)
def network_match(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    pairs: int,
    rollouts: int,
    horizon: int,
    lookahead: int,
    luck: bool,
    opponent: int,
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    throws: np.ndarray,
    probs: np.ndarray,
    keys_hi: np.ndarray,
    keys_lo: np.ndarray,
    table: np.ndarray,
    per_side: int,
    total: int,
    canonical_pieces: int,
    both_seats: bool,
    late: int,
) -> np.ndarray:
    """:func:`match` with the network's policy: the tested player rolls out the network
    (``lookahead`` 1 or 2; ``rollouts`` 0: plays that policy itself), the opponent is the
    expert (``opponent`` 0) or the network's policy ``opponent`` decisions deep.  The tested
    player rolls out only where at most ``late`` pieces are on the board; elsewhere it plays
    as its opponent does, so that the rollouts are the only difference between the two."""
    width = start.shape[0]
    s = np.zeros(width, dtype=np.int64)
    scratch = np.zeros(width, dtype=np.int64)
    image = np.zeros(width, dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    strk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    sev = np.zeros(N_EVENTS, dtype=np.int64)
    values = np.zeros(MAX_MOVES)
    x = np.zeros(w1.shape[1])
    h = np.zeros(w1.shape[0])
    chance = np.zeros(2)
    played = np.zeros(1, dtype=np.int64)
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
                mine = decider(T, s) == me
                on_board = popcount(s[MASK]) + popcount(s[MASK + 1])
                if mine and rollouts > 0 and on_board <= late:
                    for c in range(k):
                        children[c, :] = s
                        strk[:, :] = trk
                        play(T, path, children[c], moves[c], sev, strk, 0)
                    sums = np.zeros(k)
                    pair_sq = np.zeros((k, k))
                    r_seed = game_seed(seed + 77, g * 10000 + d)
                    exact_rollout_sums(
                        T, path, children[:k], r_seed, 0, rollouts, lo, hi, w, keys_hi,
                        keys_lo, table, per_side, total, canonical_pieces, both_seats, sums,
                        pair_sq, played, lookahead, w1, b1, w2, b2, throws, probs, luck,
                        horizon,
                    )  # fmt: skip
                    best = -1e9
                    for c in range(k):
                        v = sums[c] if me == 0 else rollouts - sums[c]
                        if v > best + 1e-12:
                            best, i = v, c
                elif (lookahead if mine and rollouts == 0 else opponent) > 0:
                    i = network_move(
                        T, path, s, trk, moves, k, lookahead if mine and rollouts == 0 else opponent,
                        w1, b1, w2, b2, throws, probs, keys_hi, keys_lo, table, per_side,
                        total, canonical_pieces, both_seats, scratch, strk, sev, image, x, h,
                        chance,
                    )  # fmt: skip
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


def parse_spec(spec: str) -> tuple[int, int, int, bool]:
    """``RxH``, ``netL:RxH`` or ``netL:RxH:luck`` as (policy lookahead, rollouts, horizon,
    luck taken out); a malformed spec is refused with what was expected."""
    expected = f"{spec!r}: expected ROLLOUTSxHORIZON, netL:ROLLOUTSxHORIZON or netL:RxH:luck"
    parts = spec.split(":")
    lookahead = 0
    if parts[0].startswith("net"):
        if parts[0] not in ("net1", "net2") or len(parts) not in (2, 3):
            raise ValueError(expected + " (L 1 or 2)")
        lookahead = int(parts[0][3:])
        parts = parts[1:]
    if len(parts) == 2 and parts[1] == "luck" and lookahead:
        luck = True
    elif len(parts) == 1:
        luck = False
    else:
        raise ValueError(expected)
    counts = parts[0].split("x")
    if len(counts) != 2 or not all(c.isdigit() for c in counts):
        raise ValueError(expected)
    rollouts, horizon = int(counts[0]), int(counts[1])
    if lookahead == 0 and rollouts == 0:
        raise ValueError(f"{spec!r}: the expert's rollouts need at least one rollout")
    return lookahead, rollouts, horizon, luck


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="kendall")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--opponent", choices=("expert", "network", "network2"), default="expert")
    parser.add_argument(
        "--late",
        type=int,
        help="roll out only with at most this many pieces on the board (elsewhere play as the "
        "opponent; with --opponent network or network2)",
    )
    parser.add_argument(
        "specs", nargs="+", help="ROLLOUTSxHORIZON (64x16), netL:ROLLOUTSxHORIZON[:luck]"
    )
    args = parser.parse_args(argv)
    variant = find_variant(args.variant)
    rules = compile_rules(variant)
    lo, hi, w = weights_for(variant)
    opponent = {"expert": 0, "network": 1, "network2": 2}[args.opponent]
    net = network_for(variant)
    if net is None and (opponent or any(spec.startswith("net") for spec in args.specs)):
        parser.error(f"{variant.name} ships no trained network")
    stop = table_arrays(large_table_for(variant) or table_for(variant))
    outcomes = variant.instrument.outcomes
    throws = np.array([n for n, _ in outcomes], dtype=np.int64)
    probs = np.array([float(p) for _, p in outcomes])
    try:
        specs = [(spec, *parse_spec(spec)) for spec in args.specs]
    except ValueError as error:
        parser.error(str(error))
    for spec, lookahead, rollouts, horizon, luck in specs:
        began = time.process_time()
        if lookahead or opponent or args.late is not None:
            assert net is not None
            res = network_match(
                rules.table, rules.path, rules.start, args.seed, args.pairs, rollouts,
                horizon, lookahead, luck, opponent, lo, hi, w, net.w1, net.b1, net.w2,
                np.array([net.b2]), throws, probs, *stop, ALL if args.late is None else args.late,
            )  # fmt: skip
        else:
            res = match(
                rules.table, rules.path, rules.start, args.seed, args.pairs, rollouts,
                horizon, lo, hi, w,
            )  # fmt: skip
        pairs = res.reshape(-1, 2).mean(axis=1)
        half = 1.96 * pairs.std(ddof=1) / math.sqrt(len(pairs))
        print(
            f"{variant.name} {spec} vs {args.opponent}: "
            f"{100 * pairs.mean():.1f}% ± {100 * half:.1f} ({2 * args.pairs} games, "
            f"{time.process_time() - began:.0f} s CPU)",
            flush=True,
        )


if __name__ == "__main__":
    main()
