"""Exact endgame values on the compiled rules: the same solution as :mod:`senet.ai.solver`,
for closed sets of millions of positions.

:func:`senet.ai.solver.solve_many` enumerates the reachable graph in Python (about 80,000
positions a second, some 400 bytes each) and iterates the Bellman equations in Jacobi sweeps
(hundreds to thousands of sweeps on the cyclic endgame graphs).  Here both steps run compiled
(Numba) on the simulator's rules (:mod:`senet.compiled.kernel`, held to the engine by the
simulator's differential test):

* **Enumeration**: a breadth-first walk from the roots on raw states packed into two 64-bit
  keys (:mod:`senet.ai.packing`, as the shipped tables store them), numbered through an
  open-addressing hash table, with flat arrays of node kinds and edges (about 40 bytes a
  position in all).  In a points game (Bell) every state is replaced by its representative
  with the same lead (:func:`senet.ai.tables.canonical`), whose future is the same.
* **Values**: Gauss-Seidel sweeps in reverse order of discovery (the positions found last lie
  nearest the end of the game, so most values settle in one sweep), starting from ½ as the
  reference does, until no value moves by more than ``tol``.

The values are seat A's expected result, as in :mod:`senet.ai.solver`; the tests hold the two
solvers to the same values (within 1e-9) on random roots of every size both can solve.
Variants whose throws are all made before moving (kendall-1978) have unbounded reachable sets
and are refused with :class:`senet.ai.solver.TooLarge`, as by the reference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from senet.compiled.kernel import (
    MAX_MOVES,
    N_EVENTS,
    TR_WIDTH,
    decider,
    legal,
    play,
    popcount,
    winner,
)
from senet.compiled.tables import compile_rules
from senet.engine import Position, Scoring, Variant
from senet.engine.flow import DRAW
from senet.engine.state import (
    BORNE_OFF,
    CAPTURED,
    DROWNED,
    EXTRA,
    MASK,
    PENDING,
    PENDING_WATER,
    SIZE,
    THROW,
)

from .packing import (
    EXTRA_HIGH_BITS,
    EXTRA_LIMIT,
    EXTRA_SHIFT,
    FIELD_BITS,
    FIRST_SMALL,
    LAST_SMALL,
    pack_state,
)
from .solver import DEFAULT_MAX_STATES, ExactMoves, TooLarge

__all__ = [
    "CompiledSolution",
    "solve_compiled",
    "solve_compiled_keys",
    "pack_key",
    "canonical_in_place",
]

_TERMINAL, _CHANCE, _MAX, _MIN = 0, 1, 2, 3
_FIRST_SMALL, _LAST_SMALL = FIRST_SMALL, LAST_SMALL
_EMPTY = -1
# Status codes of the enumeration.
_DONE, _GROW, _TOO_LARGE, _OUT_OF_RANGE = 0, 1, 2, 3

_compiled = njit(cache=True, nogil=True)


@_compiled
def _mix(hi: np.int64, lo: np.int64) -> np.uint64:
    z = np.uint64(hi) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(lo)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@_compiled
def _pack(s: np.ndarray) -> tuple[np.int64, np.int64, bool]:
    """(masks key, counters key, fits) of raw state ``s``, as :func:`senet.ai.packing.
    pack_state` packs it; ``fits`` is False when a field is out of range (a counter too large
    for its bits, or one of the fields after ``PENDING`` set)."""
    hi = s[MASK] | (s[MASK + 1] << 30)
    lo = np.int64(0)
    fits = True
    for f in range(_FIRST_SMALL, _LAST_SMALL + 1):
        v = s[f]
        limit = EXTRA_LIMIT if f == EXTRA or f == EXTRA + 1 else 1 << FIELD_BITS
        if v < 0 or v >= limit:
            fits = False
        lo = (lo << FIELD_BITS) | (v & ((1 << FIELD_BITS) - 1))
    high = (1 << EXTRA_HIGH_BITS) - 1
    lo |= ((s[EXTRA] >> FIELD_BITS) & high) << EXTRA_SHIFT
    lo |= ((s[EXTRA + 1] >> FIELD_BITS) & high) << (EXTRA_SHIFT + EXTRA_HIGH_BITS)
    for f in range(_LAST_SMALL + 1, SIZE):
        if s[f]:
            fits = False
    return hi, lo, fits


#: :func:`_pack` for other compiled code (the rollouts that stop inside a table)
pack_key = _pack


@_compiled
def _unpack(hi: np.int64, lo: np.int64, s: np.ndarray) -> None:
    s[:] = 0
    s[MASK] = hi & ((1 << 30) - 1)
    s[MASK + 1] = hi >> 30
    high = (1 << EXTRA_HIGH_BITS) - 1
    extra_a = (lo >> EXTRA_SHIFT) & high
    extra_b = (lo >> (EXTRA_SHIFT + EXTRA_HIGH_BITS)) & high
    for f in range(_LAST_SMALL, _FIRST_SMALL - 1, -1):
        s[f] = lo & ((1 << FIELD_BITS) - 1)
        lo >>= FIELD_BITS
    s[EXTRA] |= extra_a << FIELD_BITS
    s[EXTRA + 1] |= extra_b << FIELD_BITS


@_compiled
def _canonical(s: np.ndarray, pieces: int) -> None:
    """:func:`senet.ai.tables.canonical` in place (points games only)."""
    lead = s[BORNE_OFF] - s[BORNE_OFF + 1]
    off_a = lead if lead > 0 else 0
    off_b = -lead if lead < 0 else 0
    s[BORNE_OFF] = off_a
    s[BORNE_OFF + 1] = off_b
    s[CAPTURED] = pieces - popcount(s[MASK]) - s[DROWNED] - off_a
    s[CAPTURED + 1] = pieces - popcount(s[MASK + 1]) - s[DROWNED + 1] - off_b


@_compiled
def _find(
    slots: np.ndarray, keys_hi: np.ndarray, keys_lo: np.ndarray, hi: np.int64, lo: np.int64
) -> np.int64:
    """The slot holding (hi, lo), or the empty slot where it belongs."""
    m = np.uint64(slots.shape[0] - 1)
    j = np.int64(_mix(hi, lo) & m)
    while True:
        k = slots[j]
        if k == _EMPTY or (keys_hi[k] == hi and keys_lo[k] == lo):
            return j
        j = np.int64((np.uint64(j) + np.uint64(1)) & m)


@_compiled
def _rehash(slots: np.ndarray, keys_hi: np.ndarray, keys_lo: np.ndarray, n: int) -> None:
    slots[:] = _EMPTY
    for k in range(n):
        slots[_find(slots, keys_hi, keys_lo, keys_hi[k], keys_lo[k])] = k


@_compiled
def _expand(
    T: np.ndarray,
    path: np.ndarray,
    throws: np.ndarray,
    canonical_pieces: int,
    slots: np.ndarray,
    keys_hi: np.ndarray,
    keys_lo: np.ndarray,
    kind: np.ndarray,
    start: np.ndarray,
    values: np.ndarray,
    edges: np.ndarray,
    counts: np.ndarray,
    max_states: int,
) -> int:
    """Expand nodes ``counts[0]`` onwards (``counts``: next node, nodes, edges) until every
    node is expanded (_DONE), an array is too small for the next node (_GROW: the caller
    grows it and calls again), the set passes ``max_states`` (_TOO_LARGE) or a state does not
    fit the packed key (_OUT_OF_RANGE)."""
    s = np.zeros(SIZE, dtype=np.int64)
    child = np.zeros(SIZE, dtype=np.int64)
    moves = np.zeros(MAX_MOVES, dtype=np.int64)
    ev = np.zeros(N_EVENTS, dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    i, n, ne = counts[0], counts[1], counts[2]
    status = _DONE
    while i < n:
        if (
            n + MAX_MOVES > keys_hi.shape[0]
            or 2 * (n + MAX_MOVES) > slots.shape[0]
            or ne + MAX_MOVES > edges.shape[0]
        ):
            status = _GROW
            break
        _unpack(keys_hi[i], keys_lo[i], s)
        start[i] = ne
        won = winner(T, s)
        if won >= 0:
            kind[i] = _TERMINAL
            values[i] = 0.5 if won == DRAW else (1.0 if won == 0 else 0.0)
            i += 1
            continue
        chance = s[THROW] == 0 and s[PENDING] != PENDING_WATER
        if chance:
            kind[i] = _CHANCE
            k = throws.shape[0]
        else:
            kind[i] = _MAX if decider(T, s) == 0 else _MIN
            k = legal(T, path, s, moves)
        for j in range(k):
            child[:] = s
            if chance:
                child[THROW] = throws[j]
            else:
                trk[:, :] = 0
                play(T, path, child, moves[j], ev, trk, 0)
            if canonical_pieces:
                _canonical(child, canonical_pieces)
            hi, lo, fits = _pack(child)
            if not fits:
                counts[0], counts[1], counts[2] = i, n, ne
                return _OUT_OF_RANGE
            slot = _find(slots, keys_hi, keys_lo, hi, lo)
            target = slots[slot]
            if target == _EMPTY:
                if n >= max_states:
                    counts[0], counts[1], counts[2] = i, n, ne
                    return _TOO_LARGE
                target = n
                slots[slot] = n
                keys_hi[n] = hi
                keys_lo[n] = lo
                values[n] = 0.5
                n += 1
            edges[ne] = target
            ne += 1
        i += 1
    start[i] = ne
    counts[0], counts[1], counts[2] = i, n, ne
    return status


@_compiled
def _iterate(
    kind: np.ndarray,
    start: np.ndarray,
    edges: np.ndarray,
    probs: np.ndarray,
    values: np.ndarray,
    n: int,
    tol: float,
    max_sweeps: int,
) -> tuple[int, float]:
    """Gauss-Seidel sweeps over nodes ``n - 1`` down to 0 until the largest change of a sweep
    is below ``tol``; returns (sweeps, last largest change)."""
    change = 0.0
    for sweep in range(1, max_sweeps + 1):
        change = 0.0
        for i in range(n - 1, -1, -1):
            k = kind[i]
            if k == _TERMINAL:
                continue
            a, b = start[i], start[i + 1]
            if k == _CHANCE:
                v = 0.0
                for e in range(a, b):
                    v += probs[e - a] * values[edges[e]]
            elif k == _MAX:
                v = values[edges[a]]
                for e in range(a + 1, b):
                    v = max(v, values[edges[e]])
            else:
                v = values[edges[a]]
                for e in range(a + 1, b):
                    v = min(v, values[edges[e]])
            d = abs(v - values[i])
            if d > change:
                change = d
            values[i] = v
        if change < tol:
            return sweep, change
    return max_sweeps, change


#: :func:`_canonical` for other compiled code
canonical_in_place = _canonical


def canonical_state(variant: Variant, s: Sequence[int]) -> tuple[int, ...]:
    """The representative the compiled solution holds for ``s`` (see the module docstring)."""
    if variant.scoring is not Scoring.POINTS:
        return tuple(s)
    out = np.array(s, dtype=np.int64)
    _canonical(out, variant.pieces)
    return tuple(int(x) for x in out)


@dataclass
class CompiledSolution(ExactMoves):
    """Exact values (seat A's) of every position reachable from the roots: packed keys sorted
    by (masks, counters), with each one's node kind and value."""

    variant: Variant
    hi: np.ndarray
    lo: np.ndarray
    kinds: np.ndarray
    values: np.ndarray
    sweeps: int
    residual: float

    def __len__(self) -> int:
        return len(self.values)

    def _find(self, s: Sequence[int]) -> int | None:
        key = pack_state(canonical_state(self.variant, s))
        if key is None:
            return None
        h, low = key
        i = int(np.searchsorted(self.hi, h, "left"))
        j = int(np.searchsorted(self.hi, h, "right"))
        k = i + int(np.searchsorted(self.lo[i:j], low))
        return k if k < j and int(self.lo[k]) == low else None

    def __contains__(self, position: Position) -> bool:
        return position.variant.name == self.variant.name and self._find(position.state) is not None

    def value_of_state(self, s: Sequence[int]) -> float:
        """Seat A's exact value of raw state ``s`` (KeyError if it was not reached)."""
        k = self._find(s)
        if k is None:
            raise KeyError("state not reached from the roots")
        return float(self.values[k])

    def value(self, position: Position) -> float:
        if position.variant.name != self.variant.name:
            raise KeyError("position of another variant")
        return self.value_of_state(position.state)

    def chance_mask(self) -> np.ndarray:
        """Which entries are chance positions (a throw due, the game not over)."""
        return self.kinds == _CHANCE


def _grown(a: np.ndarray, size: int, fill: float | int = 0) -> np.ndarray:
    out = np.full(size, fill, dtype=a.dtype)
    out[: len(a)] = a
    return out


def _refuse_unbounded(variant: Variant) -> None:
    if variant.throws_first:
        raise TooLarge(f"{variant.name}: banked throws make the reachable positions unbounded")


def solve_compiled(
    roots: Iterable[Position] | Iterable[Sequence[int]],
    variant: Variant | None = None,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    tol: float = 1e-13,
    max_sweeps: int = 100_000,
) -> CompiledSolution:
    """Solve every position reachable from ``roots`` (positions, or raw states of
    ``variant``); raises :class:`TooLarge` beyond ``max_states`` positions, ValueError for a
    variant or state the compiled rules or the packed keys cannot hold."""
    states: list[Sequence[int]] = []
    for root in roots:
        if isinstance(root, Position):
            if variant is None:
                variant = root.variant
            elif root.variant.name != variant.name:
                raise ValueError("all roots must share one variant")
            states.append(root.state)
        else:
            states.append(root)
    if variant is None or not states:
        raise ValueError("nothing to solve")
    _refuse_unbounded(variant)
    root_keys: dict[tuple[int, int], None] = {}
    for s in states:
        key = pack_state(canonical_state(variant, s))
        if key is None:
            raise ValueError(f"{variant.name}: a root outside the packed key's range: {s}")
        root_keys[key] = None
    hi = np.fromiter((h for h, _ in root_keys), dtype=np.int64, count=len(root_keys))
    lo = np.fromiter((low for _, low in root_keys), dtype=np.int64, count=len(root_keys))
    del root_keys, states
    return solve_compiled_keys(
        hi, lo, variant, max_states=max_states, tol=tol, max_sweeps=max_sweeps
    )


def solve_compiled_keys(
    root_hi: np.ndarray,
    root_lo: np.ndarray,
    variant: Variant,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    tol: float = 1e-13,
    max_sweeps: int = 100_000,
) -> CompiledSolution:
    """:func:`solve_compiled` with the roots given as packed keys (:mod:`senet.ai.packing`) of
    distinct canonical states (:func:`canonical_state`), discovered in the order given.  The
    large tables' tens of millions of seeds reach the solver this way without a Python object
    each (a tuple per seed would hold gigabytes)."""
    if len(root_hi) != len(root_lo) or not len(root_hi):
        raise ValueError("nothing to solve")
    _refuse_unbounded(variant)
    rules = compile_rules(variant)
    pieces = variant.pieces if variant.scoring is Scoring.POINTS else 0
    throws = np.array([n for n, _ in variant.instrument.outcomes], dtype=np.int64)
    probs = np.array([float(p) for _, p in variant.instrument.outcomes])
    n = len(root_hi)
    if n > max_states:
        raise TooLarge(f"more than {max_states} reachable positions")
    cap = max(1024, 4 * n)
    keys_hi = np.zeros(cap, dtype=np.int64)
    keys_lo = np.zeros(cap, dtype=np.int64)
    keys_hi[:n] = root_hi
    keys_lo[:n] = root_lo
    kind = np.zeros(cap, dtype=np.int8)
    start = np.zeros(cap + 1, dtype=np.int64)
    values = np.full(cap, 0.5)
    edges = np.zeros(4 * cap, dtype=np.int32)
    slots = np.full(1 << (4 * cap - 1).bit_length(), _EMPTY, dtype=np.int64)
    _rehash(slots, keys_hi, keys_lo, n)
    counts = np.array([0, n, 0], dtype=np.int64)
    while True:
        status = _expand(
            rules.table,
            rules.path,
            throws,
            pieces,
            slots,
            keys_hi,
            keys_lo,
            kind,
            start,
            values,
            edges,
            counts,
            max_states,
        )
        if status == _DONE:
            break
        if status == _TOO_LARGE:
            raise TooLarge(f"more than {max_states} reachable positions")
        if status == _OUT_OF_RANGE:
            raise ValueError(f"{variant.name}: a reachable state outside the packed key's range")
        n, ne = int(counts[1]), int(counts[2])
        if n + MAX_MOVES > len(keys_hi):
            size = 2 * len(keys_hi)
            keys_hi, keys_lo = _grown(keys_hi, size), _grown(keys_lo, size)
            kind, values = _grown(kind, size), _grown(values, size, 0.5)
            start = _grown(start, size + 1)
        if 2 * (n + MAX_MOVES) > len(slots):
            slots = np.full(2 * len(slots), _EMPTY, dtype=np.int64)
            _rehash(slots, keys_hi, keys_lo, n)
        if ne + MAX_MOVES > len(edges):
            edges = _grown(edges, 2 * len(edges))
    n = int(counts[1])
    del slots
    sweeps, residual = _iterate(kind, start, edges, probs, values, n, tol, max_sweeps)
    del edges, start
    hi, lo, kinds, vals = keys_hi[:n], keys_lo[:n], kind[:n], values[:n]
    order = np.lexsort((lo, hi))
    return CompiledSolution(
        variant, hi[order], lo[order], kinds[order], vals[order], sweeps, residual
    )
