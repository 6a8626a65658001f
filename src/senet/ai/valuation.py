"""The value of every legal move of a position, as precise as a referee needs it.

Used to judge players move by move (``bench/ai_error.py``), in the manner of backgammon
programs: a move's error is the winning chance it gives up against the best move.  Every legal
move is valued

* exactly, when the shipped endgame table (:mod:`.tables`) covers every child, or when the
  position's whole future fits in a small solve (:mod:`.solver`);
* otherwise by many rollouts on the compiled simulator (:func:`senet.ai.rollout.rollout_sums`:
  the expert's policy plays both seats for ``horizon`` decisions, then the linear evaluation
  values where the rollout stopped, or the result where the game ended).  Rollout *r* draws the
  same throws after every move (common random numbers), so the difference between two moves is
  measured on the same luck.  Rollouts are added in rounds until the difference between the
  decider's best move and each move of interest is known to within ``precision`` (one standard
  error), or ``max_rollouts`` are spent.

The rollouts are kept in two halves (alternate batches), so that a caller can choose the best
move on one half and measure on the other: the plain error (best move and its value from the same
rollouts) is biased upwards by the noise, the cross-validated one downwards; together they
bracket what the noise does to a mean error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from senet.ai.evaluation import weights_for
from senet.compiled.expert import Weights
from senet.compiled.tables import CompiledRules, compile_rules
from senet.engine import Move, Position, Variant

from .compiled_table import table_arrays
from .network import network_for
from .rollout import exact_rollout_sums, position_seed, rollout_sums
from .search import small_endgame
from .solver import TooLarge, solve_many
from .tables import EndgameTable, table_for

__all__ = ["MoveValuation", "exact_move_values", "value_moves", "FULL_GAME", "POLICY_LOOKAHEAD"]

#: A horizon that no game reaches: rollouts played to the end of the game.
FULL_GAME = 1 << 40

#: The rollouts' policies by name, as :func:`value_moves`'s ``policy_lookahead``: the expert
#: (the linear evaluation one decision ahead), the trained network one decision ahead, or the
#: network looking through the throw after each move.
POLICY_LOOKAHEAD = {"expert": 0, "network": 1, "network2": 2}

#: Rollouts per move in one batch (one call of the compiled code per half).
BATCH = 256


@dataclass(frozen=True)
class MoveValuation:
    """Every legal move of a position (in the engine's order) with its value for seat A.

    ``stderr[i, j]``: the standard error of ``values[i] - values[j]`` (zeros when exact);
    ``halves``: seat A's means over the two halves of the rollouts (None when exact);
    ``rollouts``: rollouts per move (0 when exact)."""

    moves: tuple[Move, ...]
    values: np.ndarray
    stderr: np.ndarray
    halves: tuple[np.ndarray, np.ndarray] | None
    rollouts: int
    exact: bool
    seat: int

    def mine(self, values: np.ndarray | None = None) -> np.ndarray:
        """``values`` (by default :attr:`values`) as the decider's expected results."""
        v = self.values if values is None else values
        return v if self.seat == 0 else 1.0 - v

    def best(self) -> int:
        """The index of the decider's best move (the first of equals)."""
        return int(np.argmax(self.mine()))

    def error(self, chosen: int) -> float:
        """The decider's expected result given up by move ``chosen`` against the best move."""
        mine = self.mine()
        return float(mine.max() - mine[chosen])

    def error_stderr(self, chosen: int) -> float:
        """The standard error of :meth:`error` (the paired difference to the best move)."""
        return float(self.stderr[self.best(), chosen])

    def cross_validated_error(self, chosen: int) -> float:
        """The error with the best move chosen on one half of the rollouts and both moves
        valued on the other (averaged over the two ways round): the noise cannot flatter the
        best move here, so this is a lower estimate where :meth:`error` is an upper one."""
        if self.halves is None:
            return self.error(chosen)
        a, b = (self.mine(h) for h in self.halves)
        return float(
            0.5 * ((b[int(np.argmax(a))] - b[chosen]) + (a[int(np.argmax(b))] - a[chosen]))
        )


_compiled_rules: dict[str, tuple[CompiledRules, Weights]] = {}


def _compiled(variant: Variant) -> tuple[CompiledRules, Weights]:
    """The simulator's tables and the expert's weights of ``variant``, built once."""
    if variant.name not in _compiled_rules:
        _compiled_rules[variant.name] = compile_rules(variant), weights_for(variant)
    return _compiled_rules[variant.name]


def exact_move_values(position: Position, solve_states: int = 20_000) -> list[float] | None:
    """Seat A's exact value after each legal move, from the shipped table or a solve of at most
    ``solve_states`` positions (tried only when few pieces are left); None out of reach."""
    table = table_for(position.variant)
    if table is not None:
        values = table.move_values(position)
        if values is not None:
            return [v for _, v in values]
    if solve_states <= 0 or not small_endgame(position):
        return None
    try:
        solution = solve_many([position], max_states=solve_states)
    except TooLarge:
        return None
    return [v for _, v in solution.move_values(position)]


def value_moves(
    position: Position,
    *,
    horizon: int = 48,
    min_rollouts: int = 1024,
    max_rollouts: int = 16_384,
    precision: float = 0.002,
    watch: Sequence[int] | None = None,
    solve_states: int = 20_000,
    seed: int | None = None,
    stop_in: EndgameTable | None = None,
    exact_first: bool = True,
    policy_lookahead: int = 0,
    luck_adjusted: bool = False,
) -> MoveValuation:
    """Every legal move of ``position`` valued exactly where a table or solve covers it, else
    by rollouts of ``horizon`` decisions (:data:`FULL_GAME`: to the end).  Rollouts are doubled
    from ``min_rollouts`` until the standard error of the difference between the decider's best
    move and each move in ``watch`` (indices; all moves by default) is at most ``precision``,
    or ``max_rollouts`` are reached.  ``seed`` (default: the position's own) fixes the throws,
    so the same call gives the same values.

    With ``stop_in`` (an endgame table) the rollouts are played to the end of the game but stop
    at the first chance position the table holds, taking its exact value
    (:func:`senet.ai.rollout.exact_rollout_sums`), or after ``horizon`` decisions, where the
    policy's evaluation values them (:data:`FULL_GAME` for rollouts to the end).  With
    ``exact_first`` False the position is rolled out even where a table or solve would value
    it exactly (to measure the rollouts against the truth).  With ``policy_lookahead`` 1 or 2
    (and ``stop_in``) the rollouts are played by the variant's trained network, one decision
    ahead or through the throw after each move, instead of the expert's linear evaluation
    (0; :func:`senet.ai.rollout.exact_rollout_sums`).  With ``luck_adjusted`` (and
    ``stop_in``) each rollout's value has the luck of its throws, measured by the network,
    taken out: the same mean, much less noise."""
    seat = position.decider
    if seat is None:
        raise ValueError("no decision is due in this position (a throw is due or the game is over)")
    moves = tuple(position.legal_moves())
    m = len(moves)
    exact = exact_move_values(position, solve_states) if exact_first else None
    if exact is not None:
        zero = np.zeros((m, m))
        return MoveValuation(moves, np.array(exact), zero, None, 0, True, seat)
    rules, (lo, hi, w) = _compiled(position.variant)
    rows = np.array([position.apply(move).state for move in moves], dtype=np.int64)
    seed = position_seed(position) if seed is None else seed
    sums = np.zeros((2, m))
    pairs = np.zeros((m, m))
    watched = list(range(m)) if watch is None else list(watch)
    played = np.zeros(1, dtype=np.int64)
    if stop_in is not None:
        stop = table_arrays(stop_in)
        if policy_lookahead not in POLICY_LOOKAHEAD.values():
            known = ", ".join(f"{v} ({k})" for k, v in POLICY_LOOKAHEAD.items())
            raise ValueError(f"policy_lookahead must be one of {known}, not {policy_lookahead}")
        wants_network = policy_lookahead > 0 or luck_adjusted
        net = network_for(position.variant) if wants_network else None
        if wants_network and net is None:
            raise ValueError(f"{position.variant.name} ships no trained network")
        w1, b1, w2, b2 = (
            (net.w1, net.b1, net.w2, np.array([net.b2]))
            if net is not None
            else (np.zeros((1, 1)), np.zeros(1), np.zeros(1), np.zeros(1))
        )
        outcomes = position.variant.instrument.outcomes
        throws = np.array([n for n, _ in outcomes], dtype=np.int64)
        probs = np.array([float(p) for _, p in outcomes])
    batches = 0  # per half
    target = max(1, -(-min_rollouts // (2 * BATCH)))
    limit = max(target, max_rollouts // (2 * BATCH))
    while True:
        while batches < target:
            for half in range(2):
                first = (2 * batches + half) * BATCH
                if stop_in is None:
                    rollout_sums(
                        rules.table, rules.path, rows, seed, first, BATCH, horizon,
                        lo, hi, w, sums[half], pairs,
                    )  # fmt: skip
                else:
                    exact_rollout_sums(
                        rules.table, rules.path, rows, seed, first, BATCH, lo, hi, w,
                        stop.keys_hi, stop.keys_lo, stop.values, stop.per_side, stop.total,
                        stop.canonical_pieces, stop.both_seats, sums[half], pairs, played,
                        policy_lookahead, w1, b1, w2, b2, throws, probs, luck_adjusted,
                        horizon,
                    )  # fmt: skip
            batches += 1
        n = 2 * batches * BATCH
        mean = sums.sum(axis=0) / n
        diff = mean[:, None] - mean[None, :]
        stderr = np.sqrt(np.maximum(pairs / n - diff * diff, 0.0) / (n - 1))
        mine = mean if seat == 0 else 1.0 - mean
        best = int(np.argmax(mine))
        if batches >= limit or all(stderr[best, j] <= precision for j in watched):
            break
        target = min(limit, 2 * batches)
    halves = (sums[0] / (n // 2), sums[1] / (n // 2))
    return MoveValuation(moves, mean, stderr, halves, n, False, seat)
