"""Running many compiled games: players by name, the evaluation's weights for the kernel, and
the split of a run over processes.

Game number *i* of a run always gets the same random numbers (:func:`kernel.game_seed`), so a
run's totals do not depend on how many processes share it or in which order they finish.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from senet.ai.evaluation import weights_for
from senet.compiled.expert import Weights
from senet.compiled.kernel import (
    EXPERT,
    G_WIDTH,
    GREEDY,
    HIST_BINS,
    N_EVENTS,
    RANDOM,
    run_games,
)
from senet.compiled.tables import CompiledRules, compile_rules
from senet.engine import Variant

__all__ = ["PLAYERS", "Tally", "run", "player_code"]

#: The players the compiled simulator can run: uniform random moves, the command line's
#: greedy player, and senet.ai's "expert" level (the learned linear evaluation, one decision
#: ahead; the master's search and endgame solving do not run inside the kernel).
PLAYERS = {"random": RANDOM, "greedy": GREEDY, "expert": EXPERT}

#: Games per work unit handed to a process (a unit is a few tenths of a second).
CHUNK = {RANDOM: 20_000, GREEDY: 10_000, EXPERT: 2_000}


def player_code(name: str) -> int:
    key = name.strip().lower()
    if key not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; the simulator runs: {', '.join(PLAYERS)}")
    return PLAYERS[key]


_NO_WEIGHTS: Weights = (np.zeros(1 << 15), np.zeros(1 << 15), np.zeros(12))


@dataclass
class Tally:
    """Totals of a run, mergeable: results by winner (A, B, draw, stopped), per-event sums and
    sums of squares over games, length histograms, the sums of the lengths and of their
    squares (turns, then decisions), and per square the games whose loser's last piece
    visited the House there."""

    games: int = 0
    results: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    ev_sum: np.ndarray = field(default_factory=lambda: np.zeros(N_EVENTS, dtype=np.int64))
    ev_sq: np.ndarray = field(default_factory=lambda: np.zeros(N_EVENTS, dtype=np.int64))
    hist_turns: np.ndarray = field(default_factory=lambda: np.zeros(HIST_BINS, dtype=np.int64))
    hist_decisions: np.ndarray = field(default_factory=lambda: np.zeros(HIST_BINS, dtype=np.int64))
    lengths: np.ndarray = field(default_factory=lambda: np.zeros(4, dtype=np.int64))
    visits: np.ndarray = field(default_factory=lambda: np.zeros(32, dtype=np.int64))

    def merge(self, other: Tally) -> None:
        self.games += other.games
        for name in ARRAYS:
            getattr(self, name)[:] += getattr(other, name)


#: The array fields of a Tally (each summed by merge).
ARRAYS = ("results", "ev_sum", "ev_sq", "hist_turns", "hist_decisions", "lengths", "visits")
_NO_ROWS = np.zeros((0, G_WIDTH), dtype=np.int64)


def _run_chunk(
    table: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    first: int,
    count: int,
    players: tuple[int, int],
    weights: Weights,
    max_decisions: int,
    rows: np.ndarray = _NO_ROWS,
) -> Tally:
    """Games ``first`` .. ``first + count - 1`` of run ``seed`` (each game's summary row in
    ``rows`` when it has one per game)."""
    tally = Tally(games=count)
    lo, hi, w = weights
    run_games(
        table,
        path,
        start,
        seed,
        first,
        count,
        players[0],
        players[1],
        lo,
        hi,
        w,
        max_decisions,
        tally.results,
        tally.ev_sum,
        tally.ev_sq,
        tally.hist_turns,
        tally.hist_decisions,
        tally.lengths,
        tally.visits,
        rows,
    )
    return tally


def game_rows(
    rules: CompiledRules,
    seed: int,
    first: int,
    count: int,
    players: tuple[int, int] = (RANDOM, RANDOM),
    weights: Weights | None = None,
    max_decisions: int = 100_000,
) -> np.ndarray:
    """Each game's summary row (see ``kernel.G_*``), for tests and spot checks."""
    rows = np.zeros((count, G_WIDTH), dtype=np.int64)
    if weights is None:
        weights = _weights(rules.variant, players)
    _run_chunk(
        rules.table,
        rules.path,
        rules.start,
        seed,
        first,
        count,
        players,
        weights,
        max_decisions,
        rows,
    )
    return rows


def _weights(variant: Variant, players: tuple[int, int]) -> Weights:
    return weights_for(variant) if EXPERT in players else _NO_WEIGHTS


def run(
    variant: Variant | CompiledRules,
    games: int,
    seed: int,
    players: tuple[int, int] = (RANDOM, RANDOM),
    jobs: int = 1,
    weights: Weights | None = None,
    progress: Callable[[int], None] | None = None,
    max_decisions: int = 100_000,
    chunk: int | None = None,
) -> Tally:
    """Play games 0 .. ``games - 1`` of run ``seed`` on ``jobs`` processes (0: every core)
    and return their totals.  ``weights`` default to the variant's own evaluation (an
    alternative reading passes its base variant's); ``chunk`` games go to a process at a time."""
    rules = variant if isinstance(variant, CompiledRules) else compile_rules(variant)
    if weights is None:
        weights = _weights(rules.variant, players)
    if seed < 0 or seed >= 1 << 63:
        raise ValueError("the seed is a non-negative 63-bit integer")
    jobs = jobs or os.cpu_count() or 1
    chunk = chunk or CHUNK[max(players)]
    args = (rules.table, rules.path, rules.start, seed)
    tally = Tally()
    units = [(first, min(chunk, games - first)) for first in range(0, games, chunk)]
    if jobs == 1 or len(units) == 1:
        for first, count in units:
            tally.merge(_run_chunk(*args, first, count, players, weights, max_decisions))
            if progress:
                progress(count)
        return tally
    # forkserver: workers are forked from a clean process, not from this one (which may run
    # threads, a browser driver in the tests or a web server), and need not re-import much.
    context = multiprocessing.get_context("forkserver")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: set[Future[Tally]] = set()
        queue = list(reversed(units))
        while queue or pending:
            while queue and len(pending) < 2 * jobs:
                first, count = queue.pop()
                pending.add(
                    pool.submit(_run_chunk, *args, first, count, players, weights, max_decisions)
                )
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                part = future.result()
                tally.merge(part)
                if progress:
                    progress(part.games)
    return tally
