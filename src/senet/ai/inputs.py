"""The trained network's inputs of one raw state, written once.

These functions are plain Python in the subset that Numba compiles: the compiled trainer and
evaluator register them (:data:`FUNCTIONS`, ``numba.extending.register_jitable``) and compile
them into their loops (:func:`senet.ai.compiled_network.features`), and the numpy path's
reference inputs (:func:`senet.ai.network.features_of_states`) call them as they are.  The
numpy evaluator's folded fast path (:meth:`senet.ai.network.NetEvaluator.values_of_states`)
computes the same sums in another order; the tests hold it, and the compiled evaluation, to
the network on these inputs.

This module imports no Numba, so that importing the AI compiles nothing.  Numba's disk cache
of the compiled callers does not see a change made here: after editing, delete the cached
``senet/ai/__pycache__/compiled_network.*.nbi``/``.nbc`` files (a fresh checkout has none).

The inputs are named and explained in :mod:`senet.ai.network` (:data:`~senet.ai.network.INPUTS`):
for the seat that acts next (the *mover*), then for its opponent, :data:`N_SEAT` each, then
the position's :data:`N_GLOBAL`.  A state is any sequence of the raw state's integers
(:mod:`senet.engine.state`); ``x`` is a float array of :data:`N_INPUTS` that is written whole.
"""

from __future__ import annotations

from typing import Any

from senet.engine.state import (
    BANK,
    BANK_BITS,
    BORNE_OFF,
    CAPTURED,
    DROWNED,
    EXTRA,
    MASK,
    PENDING,
    PENDING_FATE,
    PENDING_WATER,
    RETURNED,
    SKIP,
    THROW,
    TURN,
)

__all__ = [
    "BANKED_VALUES",
    "BANK_CAP",
    "DROWNED_PIPS",
    "N_GLOBAL",
    "N_INPUTS",
    "N_SEAT",
    "FUNCTIONS",
    "acting_seat",
    "state_inputs",
]

#: Inputs of one seat: 30 squares, off, captured, drowned, extra, skip, pips, protected,
#: att1 .. att5, block3, rear, front.
N_SEAT = 45
#: Inputs of the position: contact, pending_water, pending_fate, throw, bank1 .. bank5,
#: returned.me, returned.opp.
N_GLOBAL = 11
N_INPUTS = 2 * N_SEAT + N_GLOBAL
#: Banked throws of each value counted (values 1 .. BANKED_VALUES), capped at BANK_CAP.
BANKED_VALUES = 5
BANK_CAP = 3
#: A drowned piece comes back on the House of Rebirth (15): 16 squares still to run.
DROWNED_PIPS = 16
_SQUARES = 30


def acting_seat(s: Any, water_bit: int, fate_bit: int) -> int:
    """The seat that acts next: the owner of a pending Water choice, else the seat on turn
    while a throw is due, else the decider (the owner of a pending Fate choice, or the seat on
    turn)."""
    pend = s[PENDING]
    if pend == PENDING_WATER:
        return 0 if s[MASK] & water_bit else 1
    if s[THROW] == 0:
        return s[TURN]
    if pend == PENDING_FATE:
        return 0 if s[MASK] & fate_bit else 1
    return s[TURN]


def _bit(mask: int, i: int) -> int:
    """Square ``i + 1`` of ``mask`` (0 off the track)."""
    if i < 0 or i >= _SQUARES:
        return 0
    return (mask >> i) & 1


def _seat_inputs(x: Any, base: int, s: Any, seat: int, pieces: int) -> tuple[int, int]:
    """One seat's inputs at ``x[base:]``; returns its rearmost and front square (0 without
    pieces)."""
    me, opp = s[MASK + seat], s[MASK + 1 - seat]
    pips = protected = block3 = rear = front = 0
    for k in range(5):
        x[base + 37 + k] = 0.0  # counted below, then divided by the pieces
    for i in range(_SQUARES):
        b = _bit(me, i)
        x[base + i] = b
        if not b:
            continue
        pips += _SQUARES - i
        if rear == 0:
            rear = i + 1
        front = i + 1
        if _bit(me, i - 1) or _bit(me, i + 1):
            protected += 1
        else:  # unprotected: hit by a throw of k from an opposing piece k squares behind
            for k in range(1, 6):
                x[base + 36 + k] += _bit(opp, i - k)
        # in a row of three or more of its own
        if (
            (_bit(me, i + 1) and _bit(me, i + 2))
            or (_bit(me, i - 1) and _bit(me, i + 1))
            or (_bit(me, i - 2) and _bit(me, i - 1))
        ):
            block3 += 1
    drowned = s[DROWNED + seat]
    x[base + 30] = s[BORNE_OFF + seat] / pieces
    x[base + 31] = s[CAPTURED + seat] / pieces
    x[base + 32] = drowned / pieces
    x[base + 33] = min(s[EXTRA + seat], 3) / 3
    x[base + 34] = min(s[SKIP + seat], 3) / 3
    x[base + 35] = (pips + DROWNED_PIPS * drowned) / (_SQUARES * pieces)
    x[base + 36] = protected / pieces
    for k in range(5):
        x[base + 37 + k] /= pieces
    x[base + 42] = block3 / pieces
    x[base + 43] = rear / _SQUARES
    x[base + 44] = front / _SQUARES
    return rear, front


def _count(mask: int) -> int:
    n = 0
    for i in range(_SQUARES):
        n += _bit(mask, i)
    return n


def state_inputs(s: Any, pieces: int, water_bit: int, fate_bit: int, x: Any) -> int:
    """The network's inputs of the open raw state ``s`` into ``x``; returns the mover (the
    seat whose view they take)."""
    mover = acting_seat(s, water_bit, fate_bit)
    rear_me, front_me = _seat_inputs(x, 0, s, mover, pieces)
    rear_op, front_op = _seat_inputs(x, N_SEAT, s, 1 - mover, pieces)
    g = 2 * N_SEAT
    contact = rear_me > 0 and rear_op > 0 and (rear_me < front_op or rear_op < front_me)
    x[g] = 1.0 if contact else 0.0
    x[g + 1] = 1.0 if s[PENDING] == PENDING_WATER else 0.0
    x[g + 2] = 1.0 if s[PENDING] == PENDING_FATE else 0.0
    x[g + 3] = s[THROW] / 5
    bank = s[BANK]
    for v in range(BANKED_VALUES):
        x[g + 4 + v] = min((bank >> (BANK_BITS * v)) & ((1 << BANK_BITS) - 1), BANK_CAP) / BANK_CAP
    returned = s[RETURNED]
    x[g + 9] = _count(s[MASK + mover] & returned) / pieces
    x[g + 10] = _count(s[MASK + 1 - mover] & returned) / pieces
    return mover


#: Every function of the description, for a compiler to register (each calls only these).
FUNCTIONS = (_bit, _count, acting_seat, _seat_inputs, state_inputs)
