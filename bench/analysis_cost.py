"""What the analysis board's judgement of a position where a throw is due costs, in CPU time.

For every variant, ``--games`` seeded games between two experts (the best move by the learned
evaluation), and from each game the positions where a throw is due at ``--phases`` evenly
spaced points of its course, from the opening through the crowded midgame to the last pieces.
Each is analysed as a worker analyses it (:func:`senet.service.analysis.position_analysis.analyse`,
after the worker's warm-up: the compiled search and solver loaded), from an empty cache, in
the process's CPU time; the master's budget counts CPU time too, so it does the work it would
do on a machine of its own.  Printed per variant: positions, the median and the largest CPU
time, how many were exact, and whether the largest is under the target of 0.5 s.

    python bench/analysis_cost.py                      # every variant, 4 games x 5 points
    python bench/analysis_cost.py --variant piccione --games 10
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

from senet.ai import choose_move, search
from senet.engine import VARIANTS, Game, Position, draw_throw, find_variant
from senet.service.analysis import position_analysis
from senet.service.infrastructure.jobs.work import warm_up

#: The largest CPU seconds one throw-due analysis may take.
TARGET = 0.5


def throw_due_positions(variant: str, games: int, phases: int, seed: int) -> list[Position]:
    """From each of ``games`` seeded expert games, the throw-due positions at ``phases`` evenly
    spaced points of its sequence of throw-due positions."""
    out: list[Position] = []
    for g in range(games):
        rng = random.Random(seed * 1000 + g)
        game = Game(find_variant(variant))
        due: list[Position] = []
        while not game.is_over() and len(due) < 5000:
            pos = game.position
            if pos.is_chance():
                due.append(pos)
                game.push_throw(draw_throw(rng, pos.variant.instrument))
            else:
                game.push(choose_move(pos, "expert", rng))
        out += [due[int((k + 0.5) / phases * len(due))] for k in range(phases) if due]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="repeatable; default: every variant")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--phases", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    search.now = time.process_time
    warm_up()
    print(
        f"throw-due analysis: {args.games} expert games x {args.phases} points per variant,"
        f" seed {args.seed}; load average {os.getloadavg()[0]:.1f}"
    )
    failed = False
    for name in args.variant or list(VARIANTS):
        costs: list[float] = []
        exact = 0
        for position in throw_due_positions(name, args.games, args.phases, args.seed):
            position_analysis.forget()  # a fresh position, as an attacker sends
            start = time.process_time()
            judged = position_analysis.analyse(position)
            costs.append(time.process_time() - start)
            exact += judged.exact
        met = max(costs) < TARGET
        failed |= not met
        print(
            f"  {name:14} {len(costs):3d} positions ({exact} exact): CPU median"
            f" {statistics.median(costs) * 1000:6.0f} ms, max {max(costs) * 1000:6.0f} ms"
            f"  max < {TARGET} s: {'met' if met else 'NOT met'}",
            flush=True,
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
