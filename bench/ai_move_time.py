"""The master's time per move on positions from every phase of the game, one process.

The ladder (``bench/ai_ladder.py``) times the master's moves inside whole games, where the
positions come as the games bring them and two players share the process.  This bench times
the master alone on a fixed, seeded sample: for each variant, ``--games`` games between two
casual players (their random choices spread the positions), and from each game the decisions
(at least two legal moves) at ``--phases`` evenly spaced points of its course — from the
opening through the crowded midgame to the last pieces.  Each sampled position is timed from
empty searchers (no transposition table, no solutions carried over from the moves before: the
most work a move can cost), on the wall clock and in the process's CPU time.  The sampling and
timing are :mod:`senet.ai.timing`'s (``senet bench moves`` prints the same for any level); this
script adds the rows per phase.

The master's budget is measured on the search's clock (:data:`senet.ai.search.now`), the wall
clock by default: on a loaded machine it stops deepening early and its wall time includes the
waits for a core.  ``--cpu-clock`` gives the search the process's CPU time as its clock
instead, so the master does the work it would do on a machine of its own, and its CPU time per
move is the time a move takes there: "median under 300 ms and never over 1 s" judged apart
from the load.  Both are printed with the load average.

Per variant and phase: positions, median legal moves, wall and CPU median and maximum; then a
row for the crowded quarter (the sampled positions with the most pieces on the board, ties by
most legal moves) and the verdicts over all sampled positions.

    python bench/ai_move_time.py --games 20 --phases 5               # every variant, wall clock
    python bench/ai_move_time.py --cpu-clock --variant kendall        # apart from the load

``--root-tables-only`` times the master reading its endgame tables at the root only (as it did
before it read them inside its search), on the same positions.

``--busy N`` asks whether the load changes the master's play: every sampled position is played
from empty searchers once as the machine is, then again with N more processes spinning on the
cores (a machine N/cores times busier), and the moves are compared — the master's (its search
and rollouts fixed in amount) and, beside it, the same level deepening on the wall clock as
the master did before (``timed``).  Printed per variant: moves alike of each, the wall-time
medians, and the ratio of the busy wall time to the quiet one.

    python bench/ai_move_time.py --busy 6 --games 10 --phases 5      # the load left out?
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from senet.ai import (
    Level,
    choose_move,
    find_level,
    forget_searchers,
    search,
    searcher_for,
    warm_up,
)
from senet.ai.timing import Sample, crowded, sample, summarise, time_move
from senet.engine import VARIANTS

#: The level timed.
LEVEL = "master"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="repeatable; default: every variant")
    parser.add_argument("--games", type=int, default=20, help="games sampled per variant")
    parser.add_argument("--phases", type=int, default=5, help="decisions taken from each game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="the search's budget counts the process's CPU time (the machine's load left out)",
    )
    parser.add_argument(
        "--root-tables-only",
        action="store_true",
        help="the master reading its endgame tables at the root only",
    )
    parser.add_argument(
        "--busy",
        type=int,
        default=0,
        metavar="N",
        help="compare the moves played as the machine is and with N processes spinning",
    )
    args = parser.parse_args(argv)
    if args.busy:
        return compare_load(
            args.variant or list(VARIANTS), args.games, args.phases, args.seed, args.busy
        )
    level: Level = find_level(LEVEL)
    if args.root_tables_only:
        level = dataclasses.replace(level, key="root-table-master", leaf_tables=False)
    if args.cpu_clock:
        search.now = time.process_time
    clock = "CPU-time budget" if args.cpu_clock else "wall-clock budget"
    warm_up()  # the compiled rollout and network code, loaded once, not counted as a move's time
    ok = True
    for name in args.variant or list(VARIANTS):
        samples = sample(name, args.games, args.phases, args.seed)
        rng = random.Random(args.seed)
        time_move(samples[0].position, level, rng)  # loads the variant's tables and evaluation
        rows = [(s, *time_move(s.position, level, rng)) for s in samples]
        print(f"{name}: the {level.key} on {len(rows)} positions ({clock})", flush=True)
        for phase in range(args.phases):
            of_phase = [r for r in rows if r[0].phase == phase]
            if of_phase:
                print(summarise(of_phase).line(f"phase {phase + 1}/{args.phases}"))
        print(summarise(crowded(rows)).line("crowded 1/4"))
        whole = summarise(rows)
        print(whole.line("all"))
        verdicts = []
        for label in ("wall", "CPU"):
            median_ok, max_ok = whole.met(cpu=label == "CPU")
            verdicts.append(
                f"{label}: median < 300 ms {'met' if median_ok else 'NOT MET'}, "
                f"never over 1 s {'met' if max_ok else 'NOT MET'}"
            )
            if label == ("CPU" if args.cpu_clock else "wall"):
                ok &= median_ok and max_ok
        print(
            f"  {name}: {'; '.join(verdicts)} (load average {os.getloadavg()[0]:.1f})",
            flush=True,
        )
    return 0 if ok else 1


def _spin() -> None:  # pragma: no cover - runs in the spinning processes
    while True:
        pass


@contextmanager
def spinning(processes: int) -> Iterator[None]:
    """``processes`` processes spinning on the cores for as long as the block runs."""
    context = multiprocessing.get_context("spawn")
    spinners = [context.Process(target=_spin, daemon=True) for _ in range(processes)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()
        for spinner in spinners:
            spinner.join()


def played(samples: Sequence[Sample], level: Level) -> tuple[list[str], list[float], int]:
    """The level's move in each sampled position from empty searchers, its wall time, and how
    many of the moves the wall-clock cap cut short."""
    moves, walls, capped = [], [], 0
    for s in samples:
        forget_searchers()
        began = time.perf_counter()
        moves.append(choose_move(s.position, level, random.Random(0)).text())
        walls.append(time.perf_counter() - began)
        capped += searcher_for(s.position, level).wall_capped
    return moves, walls, capped


def compare_load(variants: Sequence[str], games: int, phases: int, seed: int, busy: int) -> int:
    """Per variant, the moves of the master and of the timed master, quiet and busy."""
    master = find_level(LEVEL)
    timed = dataclasses.replace(master, key="timed-master", nodes=(), rollout_batches=0)
    warm_up()
    print(
        f"moves played as the machine is (load average {os.getloadavg()[0]:.1f}) and with"
        f" {busy} processes spinning on its {os.cpu_count()} cores",
        flush=True,
    )
    alike_everywhere = True
    for name in variants:
        samples = sample(name, games, phases, seed)
        played(samples[:1], master)  # the variant's tables and evaluation load now
        for level in (master, timed):
            quiet, quiet_walls, _ = played(samples, level)
            with spinning(busy):
                loaded, busy_walls, capped = played(samples, level)
                load = os.getloadavg()[0]
            alike = sum(a == b for a, b in zip(quiet, loaded))
            if level is master:
                alike_everywhere &= alike == len(samples)
            quiet_median, busy_median = (statistics.median(w) for w in (quiet_walls, busy_walls))
            print(
                f"  {name:<14} {'master' if level is master else 'timed':<6}"
                f" {alike:4d} of {len(samples)} moves alike; wall median quiet"
                f" {quiet_median * 1000:6.1f} ms, busy {busy_median * 1000:6.1f} ms"
                f" (x{busy_median / quiet_median:.1f}, load average {load:.1f})"
                + (f"; {capped} cut by the {search.WALL_CAP:.0f} s cap" if capped else ""),
                flush=True,
            )
    print(
        "the master's moves: " + ("the same, quiet or busy" if alike_everywhere else "NOT the same")
    )
    return 0 if alike_everywhere else 1


if __name__ == "__main__":
    sys.exit(main())
