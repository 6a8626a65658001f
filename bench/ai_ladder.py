"""Matches between neighbouring levels in every variant, seats alternating.

For each variant and each pair (lower, upper) of neighbouring levels, play ``--games`` games
(upper level seat A in even games, seat B in odd ones), each with its own seeded throws, and
print the upper level's score rate (a draw counts ½) with its 95% interval (normal
approximation with the per-game variance).  The ladder holds when every interval lies above
50%.  Also prints the median time per move of every level, per variant.

    python bench/ai_ladder.py --quick            # CI-scale: a few games per pair
    python bench/ai_ladder.py --games 400        # the measurement
    python bench/ai_ladder.py --variant kendall --pair casual:expert --games 200
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from senet.ai import LEVELS, choose_move, find_level
from senet.ai.train import draw_throw
from senet.engine import VARIANTS, Position, find_variant


def play(
    variant_name: str, levels: tuple[str, str], seed: int
) -> tuple[float, dict[str, list[float]]]:
    """One game; ``levels[0]`` plays seat A.  Returns (A's result, move times per level)."""
    rng_throws = random.Random(seed)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    pos = Position.initial(find_variant(variant_name))
    times: dict[str, list[float]] = {levels[0]: [], levels[1]: []}
    plies = 0
    while not pos.is_over() and plies < 3000:
        if pos.is_chance():
            pos = pos.apply_throw(draw_throw(pos, rng_throws))
            continue
        seat = pos.decider
        t = time.perf_counter()
        move = choose_move(pos, levels[seat], rngs[seat])
        if len(pos.legal_moves()) > 1:
            times[levels[seat]].append(time.perf_counter() - t)
        pos = pos.apply(move)
        plies += 1
    outcome = pos.outcome()
    if outcome is None:
        return 0.5, times
    return (0.5 if outcome.winner is None else 1.0 - outcome.winner), times


def _job(args: tuple[str, str, str, int]) -> tuple[float, dict[str, list[float]]]:
    variant, low, high, game = args
    seed = 1_000_003 * game + 7
    if game % 2 == 0:
        result, times = play(variant, (high, low), seed)
        return result, times
    result, times = play(variant, (low, high), seed)
    return 1.0 - result, times


def interval(scores: list[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.25
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="6 games per pair (a smoke test)")
    parser.add_argument("--variant", action="append", help="repeatable; default: every variant")
    parser.add_argument(
        "--pair", action="append", help="low:high, repeatable; default: every neighbouring pair"
    )
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--progress", type=int, default=0, help="print the running score every N games"
    )
    parser.add_argument(
        "--offset", type=int, default=0, help="first game number (more games, new seeds)"
    )
    args = parser.parse_args(argv)
    games = 6 if args.quick else args.games
    variants = args.variant or list(VARIANTS)
    keys = [level.key for level in LEVELS]
    pairs = [tuple(p.split(":")) for p in args.pair] if args.pair else list(zip(keys, keys[1:]))
    ok = True
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    for name in variants:
        times: dict[str, list[float]] = {}
        for low, high in pairs:
            find_level(low), find_level(high)
            start = time.time()
            jobs = [(name, low, high, g) for g in range(args.offset, args.offset + games)]
            results = []
            for result in pool.map(_job, jobs, chunksize=2) if pool else map(_job, jobs):
                results.append(result)
                if args.progress and len(results) % args.progress == 0 and len(results) < games:
                    m, lo_, hi_ = interval([r for r, _ in results])
                    print(
                        f"  ... {name} {high} vs {low}: {len(results)} games, {m:.1%} [{lo_:.1%}, {hi_:.1%}]",
                        flush=True,
                    )
            scores = [r for r, _ in results]
            for _, t in results:
                for level, ts in t.items():
                    times.setdefault(level, []).extend(ts)
            mean, lo, hi = interval(scores)
            holds = lo > 0.5
            ok &= holds
            print(
                f"{name:14s} {high:>8s} vs {low:<8s} {len(scores):4d} games  score {mean:6.1%}  "
                f"95% [{lo:6.1%}, {hi:6.1%}]  {'ok' if holds else 'NOT ABOVE 50%'}  ({time.time() - start:.0f}s)",
                flush=True,
            )
        medians = "  ".join(
            f"{k} {statistics.median(v) * 1000:.1f}ms" for k, v in times.items() if v
        )
        print(f"{name:14s} median time per move: {medians}", flush=True)
    if pool:
        pool.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
