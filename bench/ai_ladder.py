"""Matches between levels and against fixed references in every variant, seats alternating.

For each variant and each pair (lower, upper), play ``--games`` games in pairs: both games of
a pair use the same seeded throw sequence, the upper player seat A in one and seat B in the
other (so the luck of the throws cancels as far as the games run alike).  Prints the upper
player's score rate (a draw counts ½) with its 95% interval (normal approximation over the
pairs' mean scores), whether its target is met, the pair numbers it played (runs on
other pairs pool with ``bench/ladder_pool.py``), and the time per move of every player
(median and maximum, and how many moves took over 1 s).

Players: the levels of :mod:`senet.ai` and the fixed references of
``bench/reference_players.py``: ``frozen-master`` (the master before iterative deepening),
``pip3`` (a plain depth-3 expectiminimax with a pip-count-and-safety evaluation),
``search-master`` (today's master without its root rollouts), ``selfplay-master`` (today's
master's search, never rolling out, with the TD(λ) self-play network where a fitted one
replaced it), ``linear-master`` (today's master on the linear evaluation), ``rollout-master``
(today's master rolling out at the root wherever the compiled simulator plays the variant),
``turn-master`` (today's master counting whole turns, not decisions, in kendall-1978 and
piccione), ``root-table-master`` (today's master reading its endgame tables at the root
only) and ``depth2`` .. ``depth5`` (today's master searched to a fixed depth, no time budget).
Targets: the master ≥ 65% against ``frozen-master`` and ≥ 70% against ``pip3``; every level's
whole interval above 50% against the one below.

    python bench/ai_ladder.py --quick                               # a few games per pair
    python bench/ai_ladder.py --games 400                           # the level ladder
    python bench/ai_ladder.py --pair frozen-master:master --pair pip3:master --games 100
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference_players import REFERENCES, reference_move

from senet.ai import LEVELS, choose_move, find_level
from senet.ai import warm_up as load_compiled
from senet.engine import VARIANTS, Move, Position, draw_throw, find_variant

#: Suffix of the CPU-time entries beside each player's wall-clock times: on a shared machine
#: the wall clock includes the time the process waited for a core.
CPU = "@cpu"
#: The score an upper player must reach against a lower one (default: above 50% throughout).
TARGETS = {("frozen-master", "master"): 0.65, ("pip3", "master"): 0.70}


def _move(player: str, position: Position, rng: random.Random) -> Move:
    if player in REFERENCES:
        return reference_move(player, position, rng)
    return choose_move(position, player, rng)


def play(
    variant_name: str, levels: tuple[str, str], seed: int
) -> tuple[float, dict[str, list[float]]]:
    """One game; ``levels[0]`` plays seat A.  Returns (A's result, move times per level)."""
    rng_throws = random.Random(seed)
    rngs = (random.Random(seed * 2 + 1), random.Random(seed * 2 + 2))
    pos = Position.initial(find_variant(variant_name))
    times: dict[str, list[float]] = {p + key: [] for p in levels for key in ("", CPU)}
    plies = 0
    while not pos.is_over() and plies < 3000:
        if pos.is_chance():
            pos = pos.apply_throw(draw_throw(rng_throws, pos.variant.instrument))
            continue
        seat = pos.decider
        assert seat is not None
        t, c = time.perf_counter(), time.process_time()
        move = _move(levels[seat], pos, rngs[seat])
        if len(pos.legal_moves()) > 1:
            times[levels[seat]].append(time.perf_counter() - t)
            times[levels[seat] + CPU].append(time.process_time() - c)
        pos = pos.apply(move)
        plies += 1
    outcome = pos.outcome()
    if outcome is None:
        return 0.5, times
    return (0.5 if outcome.winner is None else 1.0 - outcome.winner), times


def warm_up(variant_name: str, players: set[str]) -> None:
    """One untimed move of every player, so that loading tables and evaluations (once per
    process) is not counted as a move's time (with ``--jobs`` each worker still loads on its
    first move).  The levels' compiled code is loaded first (:func:`senet.ai.warm_up`): a move
    of the variant's own need not reach every compiled function."""
    load_compiled()
    rng = random.Random(0)
    pos = Position.initial(find_variant(variant_name))
    while pos.is_chance() or len(pos.legal_moves()) < 2:
        pos = (
            pos.apply_throw(draw_throw(rng, pos.variant.instrument))
            if pos.is_chance()
            else pos.apply(pos.legal_moves()[0])
        )
    for player in sorted(players):
        _move(player, pos, random.Random(0))


def pair_seed(k: int) -> int:
    """The seed of the throws of game pair ``k`` (both games of the pair use it)."""
    return 1_000_003 * k + 7


def _job(args: tuple[str, str, str, int]) -> tuple[float, dict[str, list[float]]]:
    """Game pair ``k``: the same throws twice, the upper player seat A, then seat B; returns
    the upper player's mean score over the two games."""
    variant, low, high, k = args
    seed = pair_seed(k)
    first, t1 = play(variant, (high, low), seed)
    second, t2 = play(variant, (low, high), seed)
    times = {p: t1.get(p, []) + t2.get(p, []) for p in set(t1) | set(t2)}
    return (first + 1.0 - second) / 2, times


def interval(scores: list[float]) -> tuple[float, float, float]:
    """Mean and 95% interval (normal approximation)."""
    n = len(scores)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.25
    half = 1.96 * math.sqrt(var / n)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


#: The rating of the weakest level on the ladder's scale (the others are placed above it by
#: their scores against the level below: :func:`rating_gap`).
LADDER_BASE = 1000


def rating_gap(score: float) -> float:
    """The rating difference (Elo's logistic scale, as Glicko's) that expects ``score``."""
    p = min(max(score, 0.001), 0.999)
    return 400 * math.log10(p / (1 - p))


def ladder_ratings(gaps: dict[tuple[str, str], float], keys: list[str]) -> dict[str, float]:
    """Each level's rating on the ladder's scale: the weakest at :data:`LADDER_BASE`, each next
    one above the one below by the rating gap its score measured (only while the measured
    pairs chain the levels in order)."""
    out = {keys[0]: float(LADDER_BASE)}
    for low, high in zip(keys, keys[1:]):
        if (low, high) not in gaps:
            break
        out[high] = out[low] + gaps[(low, high)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per pair of players (even)")
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
    parser.add_argument(
        "--minutes",
        type=float,
        default=0.0,
        help="stop each pair after this long (the games played so far are reported)",
    )
    args = parser.parse_args(argv)
    games = 6 if args.quick else args.games
    pairs_of_games = max(1, games // 2)
    variants = args.variant or list(VARIANTS)
    keys = [level.key for level in LEVELS]
    pairs = [tuple(p.split(":")) for p in args.pair] if args.pair else list(zip(keys, keys[1:]))
    ok = True
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    for name in variants:
        times: dict[str, list[float]] = {}
        gaps: dict[tuple[str, str], float] = {}
        warm_up(name, {p for pair in pairs for p in pair})
        for low, high in pairs:
            for player in (low, high):
                if player not in REFERENCES:
                    find_level(player)
            start = time.time()
            first = args.offset
            jobs = [(name, low, high, k) for k in range(first, first + pairs_of_games)]
            results = []
            for result in pool.map(_job, jobs, chunksize=2) if pool else map(_job, jobs):
                results.append(result)
                done = len(results)
                if args.minutes and time.time() - start > 60 * args.minutes:
                    break  # (with --jobs the pool still finishes the pairs it was given)
                if args.progress and done % args.progress == 0 and done < pairs_of_games:
                    m, lo_, hi_ = interval([r for r, _ in results])
                    print(
                        f"  ... {name} {high} vs {low}: {2 * done} games, "
                        f"{m:.1%} [{lo_:.1%}, {hi_:.1%}]",
                        flush=True,
                    )
            scores = [r for r, _ in results]
            for _, t in results:
                for level, ts in t.items():
                    times.setdefault(level, []).extend(ts)
            mean, lo, hi = interval(scores)
            target = TARGETS.get((low, high))
            if target is None:
                holds, verdict = lo > 0.5, "ok" if lo > 0.5 else "NOT ABOVE 50%"
            else:
                holds = mean >= target
                verdict = f"target {target:.0%} {'met' if holds else 'NOT MET'}"
                if holds and lo < target:
                    verdict += " (interval reaches below)"
            ok &= holds
            gaps[(low, high)] = rating_gap(mean)
            print(
                f"{name:14s} {high:>8s} vs {low:<13s} {2 * len(scores):4d} games  "
                f"score {mean:6.1%}  95% [{lo:6.1%}, {hi:6.1%}]  {verdict}  "
                f"rating gap {rating_gap(mean):+.0f} [{rating_gap(lo):+.0f}, {rating_gap(hi):+.0f}]  "
                f"(pairs {first}–{first + len(scores) - 1}, {time.time() - start:.0f}s, "
                f"load average {os.getloadavg()[0]:.1f})",
                flush=True,
            )
        ratings = ladder_ratings(gaps, keys)
        if len(ratings) > 1:
            print(
                f"{name:14s} ladder ratings ({keys[0]} = {LADDER_BASE}): "
                + ", ".join(f"{k} {r:.0f}" for k, r in ratings.items()),
                flush=True,
            )
        for player, ts in times.items():
            if ts and not player.endswith(CPU):
                cpu = times[player + CPU]
                slow = sum(1 for t in ts if t > 1.0)
                over_third = sum(1 for t in cpu if t > 1 / 3) / len(cpu)
                median = statistics.median(ts)
                verdict = (
                    f"median < 300 ms {'met' if median < 0.3 else 'NOT MET'}, "
                    f"never over 1 s {'met' if not slow else 'NOT MET'}"
                )
                if player == LEVELS[-1].key:
                    ok &= median < 0.3 and not slow
                print(
                    f"{name:14s} time per move {player:>13s}: median {median * 1000:.1f} ms, "
                    f"max {max(ts) * 1000:.0f} ms, {len(ts)} moves, {slow} over 1 s: {verdict}; "
                    f"CPU time median {statistics.median(cpu) * 1000:.1f} ms, max "
                    f"{max(cpu) * 1000:.0f} ms, {over_third:.1%} over a third of a second "
                    f"(load average {os.getloadavg()[0]:.1f})",
                    flush=True,
                )
    if pool:
        pool.shutdown()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
