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
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import time

from senet.ai import Level, find_level, search, warm_up
from senet.ai.timing import crowded, sample, summarise, time_move
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
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    sys.exit(main())
