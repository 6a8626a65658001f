"""Raw states packed into two 64-bit keys, as the endgame tables and the compiled solver
store them.

``hi`` holds the two board masks (A's, then B's shifted by 30 bits); ``lo`` the thirteen small
counters of the raw state (:mod:`senet.engine.state`, fields ``TURN`` to ``PENDING``), the low
four bits of each, the first in the highest of bits 0-51.  The extra throws owed can pile up
past 15 (Adelaida: every throw of 1, 4 or 5 and every landing on 15 earns one), so their
counters have :data:`EXTRA_HIGH_BITS` more bits each, kept above bit 51 (A's, then B's): a
state whose counters are all below 16 has the same key as with four bits a field, so tables
packed before the widening read the same.  A state with a counter out of range, or with any
field after ``PENDING`` set (banked throws, returned pieces, hands, directions: variants
without endgame tables), has no key.  Sorting by (hi, lo) is the order of the tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from senet.engine.state import EXTRA, MASK, PENDING, SIZE, TURN

__all__ = [
    "FIELD_BITS",
    "EXTRA_HIGH_BITS",
    "EXTRA_LIMIT",
    "EXTRA_SHIFT",
    "FIRST_SMALL",
    "LAST_SMALL",
    "pack_state",
    "pack_rows",
    "unpack_keys",
]

#: bits of each small counter in bits 0-51 of the ``lo`` key
FIELD_BITS = 4
#: the first and last field of the raw state packed into ``lo``
FIRST_SMALL, LAST_SMALL = TURN, PENDING
#: more bits of each seat's owed extra throws, above the thirteen four-bit fields
EXTRA_HIGH_BITS = 5
#: the owed extra throws a key holds: up to ``EXTRA_LIMIT - 1`` a seat
EXTRA_LIMIT = 1 << (FIELD_BITS + EXTRA_HIGH_BITS)
#: where the high bits of A's (then B's) extra throws start in ``lo`` (the key stays positive)
EXTRA_SHIFT = FIELD_BITS * (LAST_SMALL - FIRST_SMALL + 1)
_LOW = (1 << FIELD_BITS) - 1


def _limit(field: int) -> int:
    return EXTRA_LIMIT if field in (EXTRA, EXTRA + 1) else 1 << FIELD_BITS


def pack_state(s: Sequence[int]) -> tuple[int, int] | None:
    """The (hi, lo) keys of raw state ``s``, or None when a field does not fit."""
    if any(s[f] for f in range(LAST_SMALL + 1, SIZE)):
        return None
    lo = 0
    for f in range(FIRST_SMALL, LAST_SMALL + 1):
        v = s[f]
        if not 0 <= v < _limit(f):
            return None
        lo = (lo << FIELD_BITS) | (v & _LOW)
    lo |= (s[EXTRA] >> FIELD_BITS) << EXTRA_SHIFT
    lo |= (s[EXTRA + 1] >> FIELD_BITS) << (EXTRA_SHIFT + EXTRA_HIGH_BITS)
    return s[MASK] | (s[MASK + 1] << 30), lo


def pack_rows(states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The keys of raw states given as the rows of an int64 array (every field must fit)."""
    hi = states[:, MASK] | (states[:, MASK + 1] << 30)
    lo = np.zeros(len(states), dtype=np.int64)
    for f in range(FIRST_SMALL, LAST_SMALL + 1):
        lo = (lo << FIELD_BITS) | (states[:, f] & _LOW)
    lo |= (states[:, EXTRA] >> FIELD_BITS) << EXTRA_SHIFT
    lo |= (states[:, EXTRA + 1] >> FIELD_BITS) << (EXTRA_SHIFT + EXTRA_HIGH_BITS)
    return hi, lo


def unpack_keys(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """The raw states (``int64[n, SIZE]``) of packed keys."""
    out = np.zeros((len(hi), SIZE), dtype=np.int64)
    out[:, MASK] = hi & ((1 << 30) - 1)
    out[:, MASK + 1] = hi >> 30
    low = np.array(lo, dtype=np.int64)
    high = (1 << EXTRA_HIGH_BITS) - 1
    extra_a = (low >> EXTRA_SHIFT) & high
    extra_b = (low >> (EXTRA_SHIFT + EXTRA_HIGH_BITS)) & high
    for f in range(LAST_SMALL, FIRST_SMALL - 1, -1):
        out[:, f] = low & _LOW
        low >>= FIELD_BITS
    out[:, EXTRA] |= extra_a << FIELD_BITS
    out[:, EXTRA + 1] |= extra_b << FIELD_BITS
    return out
