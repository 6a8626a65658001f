"""How long the computer takes over a move, on positions from every phase of the game
(``senet bench moves`` and ``bench/ai_move_time.py``).

The positions are a fixed, seeded sample: for each variant, games between two casual players
(their random choices spread the positions), and from each game the decisions with at least
two legal moves at evenly spaced points of its course, from the opening through the crowded
midgame to the last pieces.  Each is timed from empty searchers (no transposition table and no
solutions carried over from the moves before: the most work a move can cost), on the wall clock
and in the process's CPU time.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from senet.engine import Position, draw_throw, find_variant

from . import Level, choose_move, forget_searchers

__all__ = [
    "MAX_TARGET",
    "MEDIAN_TARGET",
    "Sample",
    "Summary",
    "crowded",
    "sample",
    "summarise",
    "time_move",
]

#: The computer's targets per move: the median under 300 ms, none over 1 s.
MEDIAN_TARGET = 0.3
MAX_TARGET = 1.0

#: Decisions after which a sampling game is cut (a game between casual players that shuffles).
MAX_PLIES = 3000


@dataclass(frozen=True)
class Sample:
    """One decision to time: its phase (0 = opening), legal moves, pieces on the board."""

    position: Position
    phase: int
    moves: int
    on_board: int


@dataclass(frozen=True)
class Summary:
    """Times of a set of timed decisions, in seconds."""

    positions: int
    median_moves: float
    median_on_board: float
    wall_median: float
    wall_max: float
    cpu_median: float
    cpu_max: float

    def line(self, label: str) -> str:
        """One line of figures under ``label``: the sample's size, legal moves and pieces on
        the board, then the median and largest time on the wall clock and in CPU time."""
        return (
            f"  {label:<14} {self.positions:4d} positions, median {self.median_moves:4.1f} legal"
            f" moves, {self.median_on_board:4.1f} pieces on the board; wall median"
            f" {self.wall_median * 1000:6.1f} ms, max {self.wall_max * 1000:6.0f} ms;"
            f" CPU median {self.cpu_median * 1000:6.1f} ms, max {self.cpu_max * 1000:6.0f} ms"
        )

    def met(self, cpu: bool) -> tuple[bool, bool]:
        """Whether the median and the largest time (CPU or wall) meet the targets."""
        median, largest = (
            (self.cpu_median, self.cpu_max) if cpu else (self.wall_median, self.wall_max)
        )
        return median < MEDIAN_TARGET, largest <= MAX_TARGET


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
        while not pos.is_over() and plies < MAX_PLIES:
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


def time_move(position: Position, level: Level | str, rng: random.Random) -> tuple[float, float]:
    """Wall and CPU seconds of one move of ``level`` from empty searchers."""
    forget_searchers()
    wall, cpu = time.perf_counter(), time.process_time()
    choose_move(position, level, rng)
    return time.perf_counter() - wall, time.process_time() - cpu


def summarise(rows: Sequence[tuple[Sample, float, float]]) -> Summary:
    """The medians and maxima of timed samples (each with its wall and CPU seconds)."""
    walls = [w for _, w, _ in rows]
    cpus = [c for _, _, c in rows]
    return Summary(
        positions=len(rows),
        median_moves=statistics.median(s.moves for s, _, _ in rows),
        median_on_board=statistics.median(s.on_board for s, _, _ in rows),
        wall_median=statistics.median(walls),
        wall_max=max(walls),
        cpu_median=statistics.median(cpus),
        cpu_max=max(cpus),
    )


def crowded(rows: Sequence[tuple[Sample, float, float]]) -> list[tuple[Sample, float, float]]:
    """The crowded quarter: the samples with the most pieces on the board, ties broken by the
    most legal moves."""
    ordered = sorted(rows, key=lambda r: (r[0].on_board, r[0].moves), reverse=True)
    return ordered[: max(1, len(rows) // 4)]
