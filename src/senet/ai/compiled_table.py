"""Endgame tables read by compiled code: the exact value of a chance state from a table's sorted
keys and values, for the rollouts that stop inside a table (:mod:`.rollout`) and the compiled
last chance node of the search (:mod:`.compiled_network`).

:func:`table_value` is the compiled twin of :meth:`senet.ai.tables.EndgameTable.chance_value`
(the tests read both on the same stored positions, either seat on turn); :class:`TableArrays`
is what it reads of an :class:`~senet.ai.tables.EndgameTable`, built in one place
(:func:`table_arrays`), and :data:`NO_TABLE` the same arrays empty, so that a compiled function
has one signature whether a table is used or not.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from senet.compiled.kernel import popcount
from senet.engine import Scoring
from senet.engine.state import BORNE_OFF, CAPTURED, DROWNED, EXTRA, MASK, SKIP, TURN

from .compiled_solver import canonical_in_place, pack_key
from .tables import EndgameTable

__all__ = ["TableArrays", "NO_TABLE", "table_arrays", "table_value"]


class TableArrays(NamedTuple):
    """What compiled code reads of a table: its sorted keys and values
    (:meth:`~senet.ai.tables.EndgameTable.arrays`), the most pieces a side and in all of its
    positions, the pieces a seat has in a points game (0 in a race: no representative to
    take) and whether both seats' positions are stored."""

    keys_hi: np.ndarray
    keys_lo: np.ndarray
    values: np.ndarray
    per_side: int
    total: int
    canonical_pieces: int
    both_seats: bool


#: No table: every lookup misses (the same argument types as a real one).
NO_TABLE = TableArrays(
    np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0), 0, 0, 0, False
)


def table_arrays(table: EndgameTable | None) -> TableArrays:
    """The arrays of ``table`` for :func:`table_value` (:data:`NO_TABLE` for None)."""
    if table is None:
        return NO_TABLE
    keys_hi, keys_lo, values = table.arrays()
    variant = table.variant
    return TableArrays(
        keys_hi,
        keys_lo,
        values,
        max(side for _, side, _ in table.regions),
        max(total for _, _, total in table.regions),
        variant.pieces if variant.scoring is Scoring.POINTS else 0,
        table.both_seats,
    )


_PAIRED = (MASK, EXTRA, SKIP, BORNE_OFF, CAPTURED, DROWNED)


@njit(cache=True, nogil=True)
def table_value(
    keys_hi: np.ndarray,
    keys_lo: np.ndarray,
    values: np.ndarray,
    s: np.ndarray,
    image: np.ndarray,
    per_side: int,
    total: int,
    canonical_pieces: int,
    both_seats: bool,
) -> float:
    """Seat A's exact value of the chance state ``s`` from an endgame table's sorted keys and
    values (:meth:`senet.ai.tables.EndgameTable.arrays`), or -1.0 when the table does not hold
    it: the compiled twin of :meth:`senet.ai.tables.EndgameTable.value_of_state` on a chance
    position (read through its mirror image when seat B is on turn, unless the table holds
    both seats; the representative of its lead in a points game).  ``image``: working space."""
    a = popcount(s[MASK])
    b = popcount(s[MASK + 1])
    if a > per_side or b > per_side or a + b > total or s[DROWNED] or s[DROWNED + 1]:
        return -1.0
    image[:] = s
    if canonical_pieces:
        canonical_in_place(image, canonical_pieces)
    flip = image[TURN] == 1 and not both_seats
    if flip:
        image[TURN] = 0
        for f in _PAIRED:
            image[f], image[f + 1] = image[f + 1], image[f]
    hi, lo, fits = pack_key(image)
    if not fits:
        return -1.0
    first, last = 0, keys_hi.shape[0]
    while first < last:
        mid = (first + last) // 2
        if keys_hi[mid] < hi or (keys_hi[mid] == hi and keys_lo[mid] < lo):
            first = mid + 1
        else:
            last = mid
    if first == keys_hi.shape[0] or keys_hi[first] != hi or keys_lo[first] != lo:
        return -1.0
    return 1.0 - values[first] if flip else values[first]
