"""The master's time per move on positions from every phase of the game, one process.

The ladder (``bench/ai_ladder.py``) times the master's moves inside whole games, where the
positions come as the games bring them and two players share the process.  This bench times
the master alone on a fixed, seeded sample: for each variant, ``--games`` games between two
casual players (their random choices spread the positions), and from each game the decisions
(at least two legal moves) at ``--phases`` evenly spaced points of its course — from the
opening through the crowded midgame to the last pieces.  Each sampled position is timed from
empty searchers (no transposition table, no solutions carried over from the moves before: the
most work a move can cost), on the wall clock and in the process's CPU time.

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
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass

from senet.ai import choose_move, forget_searchers, search, warm_up
from senet.engine import VARIANTS, Position, draw_throw, find_variant

#: The level timed.
LEVEL = "master"
#: Targets per move.
MEDIAN_TARGET = 0.3
MAX_TARGET = 1.0


@dataclass(frozen=True)
class Sample:
    """One timed decision: its phase (0 = opening), legal moves, pieces on the board."""

    position: Position
    phase: int
    moves: int
    on_board: int


def sample(variant_name: str, games: int, phases: int, seed: int) -> list[Sample]:
    """From each of ``games`` seeded casual-against-casual games, the decisions at ``phases``
    evenly spaced points of the game's sequence of decisions (the k-th at fraction
    (k + ½) / phases of it)."""
    variant = find_variant(variant_name)
    rng = random.Random(seed)
    out: list[Sample] = []
    for _ in range(games):
        pos = Position.initial(variant)
        decisions: list[Position] = []
        plies = 0
        while not pos.is_over() and plies < 3000:
            if pos.is_chance():
                pos = pos.apply_throw(draw_throw(rng, variant.instrument))
                continue
            if len(pos.legal_moves()) > 1:
                decisions.append(pos)
            pos = pos.apply(choose_move(pos, "casual", rng))
            plies += 1
        if not decisions:
            continue
        for phase in range(phases):
            chosen = decisions[int((phase + 0.5) / phases * len(decisions))]
            on_board = sum(chosen.mask(seat).bit_count() for seat in (0, 1))
            out.append(Sample(chosen, phase, len(chosen.legal_moves()), on_board))
    return out


def time_move(position: Position, rng: random.Random) -> tuple[float, float]:
    """Wall and CPU seconds of one master move from empty searchers."""
    forget_searchers()
    wall, cpu = time.perf_counter(), time.process_time()
    choose_move(position, LEVEL, rng)
    return time.perf_counter() - wall, time.process_time() - cpu


def _row(label: str, rows: list[tuple[Sample, float, float]]) -> str:
    walls = [w for _, w, _ in rows]
    cpus = [c for _, _, c in rows]
    moves = statistics.median(s.moves for s, _, _ in rows)
    board = statistics.median(s.on_board for s, _, _ in rows)
    return (
        f"  {label:14s} {len(rows):4d} positions, median {moves:4.1f} legal moves, "
        f"{board:4.1f} pieces on the board; wall median {statistics.median(walls) * 1000:6.1f} ms"
        f", max {max(walls) * 1000:6.0f} ms; CPU median {statistics.median(cpus) * 1000:6.1f} ms"
        f", max {max(cpus) * 1000:6.0f} ms"
    )


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
    args = parser.parse_args(argv)
    if args.cpu_clock:
        search.now = time.process_time
    clock = "CPU-time budget" if args.cpu_clock else "wall-clock budget"
    warm_up()  # the compiled rollout and network code, loaded once, not counted as a move's time
    ok = True
    for name in args.variant or list(VARIANTS):
        samples = sample(name, args.games, args.phases, args.seed)
        rng = random.Random(args.seed)
        time_move(samples[0].position, rng)  # loads the variant's tables and evaluation
        rows = [(s, *time_move(s.position, rng)) for s in samples]
        print(f"{name}: the master on {len(rows)} positions ({clock})", flush=True)
        for phase in range(args.phases):
            of_phase = [r for r in rows if r[0].phase == phase]
            if of_phase:
                print(_row(f"phase {phase + 1}/{args.phases}", of_phase))
        crowded = sorted(rows, key=lambda r: (r[0].on_board, r[0].moves), reverse=True)
        print(_row("crowded 1/4", crowded[: max(1, len(rows) // 4)]))
        print(_row("all", rows))
        verdicts = []
        for label, times in (("wall", [w for _, w, _ in rows]), ("CPU", [c for _, _, c in rows])):
            median_ok = statistics.median(times) < MEDIAN_TARGET
            max_ok = max(times) <= MAX_TARGET
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
