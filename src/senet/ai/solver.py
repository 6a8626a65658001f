"""Exact endgame values by value iteration over every position reachable from a root.

**Values are always seat A's expected result**: P(A wins) in the race variants; in Bell's
points game P(A wins) + ½·P(draw).  Use :func:`for_seat` to read them from B's side.  Every
decision is optimal for both seats (A maximises, B minimises, whoever the decider is: the
Kendall water choice after an attack and the Adelaida fate move of a swapped piece belong to
the piece's owner, not to the seat on turn) and chance nodes average over the exact throw
distribution.  The computer never sees future throws: the values are expectations.

Why value iteration and not plain recursion: swaps, backward moves, the Houses that send
pieces back (standard 28, Kendall's water return) and revived pieces (Adelaida) make the
reachable graph cyclic.  We enumerate the closed set of reachable positions once, store the
edges as flat numpy arrays, and iterate the Bellman equations (Jacobi sweeps, vectorised with
``reduceat``) until the largest change is below ``tol``.

Starting values are ½ for every open position.  In a position where a player could keep the
game going for ever (only pass moves on a cycle), that ½ is the fixed point the iteration
stays at: endless play counts as a draw.  No rule set here lets that happen with positive
probability under sensible play, so it only matters for contrived positions.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

from senet.engine import Move, Position, Variant
from senet.engine.flow import DRAW, legal_moves, play, thrown, winner
from senet.engine.rules import tables_for
from senet.engine.state import decider, throw_due

from .evaluation import terminal_value

__all__ = [
    "Solution",
    "TooLarge",
    "ExactMoves",
    "solve",
    "solve_many",
    "move_values",
    "for_seat",
    "DEFAULT_MAX_STATES",
]

#: States a :func:`solve` call may enumerate before giving up (a few seconds of work).
DEFAULT_MAX_STATES = 400_000
_TERMINAL, _CHANCE, _MAX, _MIN = 0, 1, 2, 3


class TooLarge(Exception):
    """The reachable set of the root exceeds ``max_states``: this is not a solvable endgame."""


def for_seat(value_a: float, seat: int) -> float:
    """Turn a value for seat A into the value for ``seat``."""
    return value_a if seat == 0 else 1.0 - value_a


class ExactMoves:
    """The moves of a position judged by exact values: what every solution offers, given its
    :meth:`value` of a position (seat A's expected result)."""

    def value(self, position: Position) -> float:
        raise NotImplementedError

    def move_values(self, position: Position) -> list[tuple[Move, float]]:
        """Every legal move of ``position`` with seat A's value after it, in the engine's order."""
        return [(m, self.value(position.apply_unchecked(m))) for m in position.legal_moves()]

    def best_moves(self, position: Position, eps: float = 1e-9) -> list[Move]:
        """The optimal moves for the decider (all of them, when several tie within ``eps``)."""
        seat = position.decider
        if seat is None:
            return []
        scored = [(m, for_seat(v, seat)) for m, v in self.move_values(position)]
        top = max(v for _, v in scored)
        return [m for m, v in scored if v >= top - eps]


@dataclass
class Solution(ExactMoves):
    """Exact values of every position reachable from the roots (seat A's expected result)."""

    index: dict[tuple[int, ...], int]
    values: np.ndarray
    variant_name: str
    iterations: int = 0
    residual: float = 0.0
    variant: Variant | None = field(default=None, repr=False)

    def position(self, i: int) -> Position:
        """The ``i``-th position of the table (positions are rebuilt from their states)."""
        if self.variant is None:
            raise ValueError(
                "the solution does not name its variant: its positions cannot be built"
            )
        return Position(self.variant, self.states[i])

    @property
    def states(self) -> list[tuple[int, ...]]:
        return list(self.index)

    def __contains__(self, position: Position) -> bool:
        return position.variant.name == self.variant_name and position.state in self.index

    def value(self, position: Position) -> float:
        """Seat A's exact expected result in ``position`` (KeyError if it was not reached)."""
        if position.variant.name != self.variant_name:
            raise KeyError("position of another variant")
        return float(self.values[self.index[position.state]])


def _kind(position: Position) -> int:
    if position.is_over():
        return _TERMINAL
    if position.is_chance():
        return _CHANCE
    return _MAX if position.decider == 0 else _MIN


def solve_many(
    roots: Iterable[Position],
    *,
    max_states: int = DEFAULT_MAX_STATES,
    tol: float = 1e-12,
    max_iter: int = 100_000,
    raw: bool = True,
    known_large: AbstractSet[tuple[int, ...]] = frozenset(),
) -> Solution:
    """Solve every position reachable from ``roots`` (one shared table); raises :class:`TooLarge`.

    ``raw=True`` (the default) enumerates on the engine's raw states
    (:mod:`senet.engine.state`), building no Position per state: several times faster.
    ``raw=False`` walks the same graph through the public Position API; it is kept as the
    reference the tests hold the fast path to (both must give identical tables).
    ``known_large``: states already known to have more than ``max_states`` positions in
    their future; reaching one proves the roots too large at once (raw path only).
    """
    roots = list(roots)
    if not roots:
        raise ValueError("nothing to solve")
    name = roots[0].variant.name
    variant = roots[0].variant
    for root in roots:
        if root.variant.name != name:
            raise ValueError("all roots must share one variant")
    root_states = [r.state for r in roots]
    if raw:
        graph = _enumerate_raw(variant, root_states, max_states, known_large)
    else:
        graph = _enumerate_positions(variant, root_states, max_states)
    index, kinds, terminal, starts, targets, probs = graph
    values, iterations, residual = _iterate(terminal, kinds, starts, targets, probs, tol, max_iter)
    return Solution(index, values, name, iterations, residual, variant)


_Graph = tuple[
    dict[tuple[int, ...], int], list[int], dict[int, float], list[int], list[int], list[float]
]


def _numbered(
    roots: list[tuple[int, ...]],
) -> tuple[dict[tuple[int, ...], int], list[tuple[int, ...]]]:
    """The distinct roots numbered in order: the start of every enumeration."""
    index: dict[tuple[int, ...], int] = {}
    states: list[tuple[int, ...]] = []
    for root in roots:
        if root not in index:
            index[root] = len(states)
            states.append(root)
    return index, states


def _refuse_unbounded(variant: Variant) -> None:
    """Where every throw of 1, 4 or 5 is banked before a move (kendall-1978), no bound holds
    the throws a turn may bank: the reachable positions are unbounded, refused at once."""
    if variant.throws_first:
        raise TooLarge(f"{variant.name}: banked throws make the reachable positions unbounded")


def _enumerate_raw(
    variant: Variant,
    roots: list[tuple[int, ...]],
    max_states: int,
    known_large: AbstractSet[tuple[int, ...]] = frozenset(),
) -> _Graph:
    """The reachable graph of ``roots`` on raw states (see :mod:`senet.engine.state`): the hot loop of every solve, so nothing but tuples and the
    engine's own raw functions (``winner``, ``legal_moves``, ``play``) runs per state."""
    t = tables_for(variant)
    _refuse_unbounded(variant)
    outcomes = [(n, float(p)) for n, p in variant.instrument.outcomes]
    index, states = _numbered(roots)
    kinds: list[int] = []
    terminal: dict[int, float] = {}
    targets: list[int] = []
    probs: list[float] = []
    starts: list[int] = []
    get, add_kind, add_start, add_target, add_prob = (
        index.get,
        kinds.append,
        starts.append,
        targets.append,
        probs.append,
    )
    i = 0
    while i < len(states):
        s = states[i]
        add_start(len(targets))
        won = winner(t, s)
        if won is not None:
            add_kind(_TERMINAL)
            terminal[i] = 0.5 if won == DRAW else (1.0 if won == 0 else 0.0)
            i += 1
            continue
        if throw_due(s):
            add_kind(_CHANCE)
            children = [(thrown(t, s, n), p) for n, p in outcomes]
        else:
            add_kind(_MAX if decider(t, s) == 0 else _MIN)
            children = []
            for move in legal_moves(t, s):
                after = list(s)
                play(t, after, move)
                children.append((tuple(after), 1.0))
        for child, p in children:
            j = get(child)
            if j is None:
                j = index[child] = len(states)
                states.append(child)
                if len(states) > max_states:
                    raise TooLarge(f"more than {max_states} reachable positions")
                if child in known_large:
                    raise TooLarge("reaches a position whose own future is too large")
            add_target(j)
            add_prob(p)
        i += 1
    starts.append(len(targets))
    return index, kinds, terminal, starts, targets, probs


def _enumerate_positions(variant: Variant, roots: list[tuple[int, ...]], max_states: int) -> _Graph:
    """The same graph as :func:`_enumerate_raw`, built through the Position API (the reference)."""
    tables = tables_for(variant)  # built once, not per rebuilt position
    _refuse_unbounded(variant)
    index, states = _numbered(roots)
    kinds: list[int] = []
    terminal: dict[int, float] = {}
    # Per open node: (first edge, edge count); edges: target index and probability.
    targets: list[int] = []
    probs: list[float] = []
    starts: list[int] = []
    i = 0
    while i < len(states):
        pos = Position(variant, states[i], tables)
        kind = _kind(pos)
        kinds.append(kind)
        starts.append(len(targets))
        if kind == _CHANCE:
            children = [(pos.apply_throw(n), float(p)) for n, p in pos.chance_outcomes()]
        elif kind != _TERMINAL:
            children = [(pos.apply_unchecked(m), 1.0) for m in pos.legal_moves()]
        else:
            children = []
            terminal[i] = terminal_value(pos)  # type: ignore[assignment]
        for child, p in children:
            j = index.get(child.state)
            if j is None:
                j = index[child.state] = len(states)
                states.append(child.state)
                if len(states) > max_states:
                    raise TooLarge(f"more than {max_states} reachable positions")
            targets.append(j)
            probs.append(p)
        i += 1
    starts.append(len(targets))
    return index, kinds, terminal, starts, targets, probs


def _iterate(
    terminal: dict[int, float],
    kinds: list[int],
    starts: list[int],
    targets: list[int],
    probs: list[float],
    tol: float,
    max_iter: int,
) -> tuple[np.ndarray, int, float]:
    """Jacobi value iteration on the flat edge arrays; returns (values, sweeps, last change)."""
    n = len(kinds)
    kind = np.array(kinds, dtype=np.int8)
    start = np.array(starts, dtype=np.int64)
    tgt = np.array(targets, dtype=np.int64)
    prob = np.array(probs, dtype=np.float64)
    values = np.full(n, 0.5)
    for k, v in terminal.items():
        values[k] = v
    groups = []
    for which in (_CHANCE, _MAX, _MIN):
        nodes = np.flatnonzero(kind == which)
        if not len(nodes):
            continue
        lo, hi = start[nodes], start[nodes + 1]
        # Gather the edges of these nodes contiguously, with segment offsets for reduceat.
        lengths = hi - lo
        seg = np.concatenate(([0], np.cumsum(lengths)[:-1]))
        edge_idx = np.repeat(lo - seg, lengths) + np.arange(lengths.sum())
        groups.append((which, nodes, seg, tgt[edge_idx], prob[edge_idx]))
    residual = 0.0
    for sweep in range(1, max_iter + 1):
        new = values.copy()
        for which, nodes, seg, t, p in groups:
            ev = values[t]
            if which == _CHANCE:
                new[nodes] = np.add.reduceat(ev * p, seg)
            elif which == _MAX:
                new[nodes] = np.maximum.reduceat(ev, seg)
            else:
                new[nodes] = np.minimum.reduceat(ev, seg)
        residual = float(np.max(np.abs(new - values))) if n else 0.0
        values = new
        if residual < tol:
            return values, sweep, residual
    return values, max_iter, residual


def solve(position: Position, *, max_states: int = DEFAULT_MAX_STATES) -> float:
    """Seat A's exact expected result in ``position``; raises :class:`TooLarge`."""
    return solve_many([position], max_states=max_states).value(position)


def move_values(
    position: Position, *, max_states: int = DEFAULT_MAX_STATES
) -> list[tuple[Move, float]]:
    """Every legal move with seat A's exact expected result after it."""
    return solve_many([position], max_states=max_states).move_values(position)
