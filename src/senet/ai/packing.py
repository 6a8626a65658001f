"""Raw states packed into two 64-bit keys, as the endgame tables and the compiled solver
store them.

``hi`` holds the two board masks (A's, then B's shifted by 30 bits); ``lo`` the thirteen small
counters of the raw state (:mod:`senet.engine.state`, fields ``TURN`` to ``PENDING``), four
bits each, the first in the highest bits.  A state with a counter of 16 or more, or with any
field after ``PENDING`` set (banked throws, returned pieces, hands, directions: variants
without endgame tables), has no key.  Sorting by (hi, lo) is the order of the tables.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from senet.engine.state import MASK, PENDING, SIZE, TURN

__all__ = ["FIELD_BITS", "FIRST_SMALL", "LAST_SMALL", "pack_state", "pack_rows", "unpack_keys"]

#: bits of each small counter in the ``lo`` key
FIELD_BITS = 4
#: the first and last field of the raw state packed into ``lo``
FIRST_SMALL, LAST_SMALL = TURN, PENDING


def pack_state(s: Sequence[int]) -> tuple[int, int] | None:
    """The (hi, lo) keys of raw state ``s``, or None when a field does not fit."""
    if any(s[f] for f in range(LAST_SMALL + 1, SIZE)):
        return None
    lo = 0
    for f in range(FIRST_SMALL, LAST_SMALL + 1):
        v = s[f]
        if not 0 <= v < 1 << FIELD_BITS:
            return None
        lo = (lo << FIELD_BITS) | v
    return s[MASK] | (s[MASK + 1] << 30), lo


def pack_rows(states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The keys of raw states given as the rows of an int64 array (every field must fit)."""
    hi = states[:, MASK] | (states[:, MASK + 1] << 30)
    lo = np.zeros(len(states), dtype=np.int64)
    for f in range(FIRST_SMALL, LAST_SMALL + 1):
        lo = (lo << FIELD_BITS) | states[:, f]
    return hi, lo


def unpack_keys(hi: np.ndarray, lo: np.ndarray) -> np.ndarray:
    """The raw states (``int64[n, SIZE]``) of packed keys."""
    out = np.zeros((len(hi), SIZE), dtype=np.int64)
    out[:, MASK] = hi & ((1 << 30) - 1)
    out[:, MASK + 1] = hi >> 30
    low = np.array(lo, dtype=np.int64)
    for f in range(LAST_SMALL, FIRST_SMALL - 1, -1):
        out[:, f] = low & ((1 << FIELD_BITS) - 1)
        low >>= FIELD_BITS
    return out
