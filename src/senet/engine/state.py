"""The raw state: a position as a flat tuple of 22 small integers.

:class:`senet.engine.position.Position` wraps a raw state for the public API.  Search, exact
solving and random playouts work on raw states directly (with :func:`senet.engine.flow.
legal_moves` and :func:`senet.engine.flow.play`), so that a whole game can be played without
building a single object per move.  This module is the one definition of the layout and of
the questions every such caller asks: whose decision is next, and is a throw due.

=====  ===================  ==========================================================
index  name                 meaning
=====  ===================  ==========================================================
0, 1   ``MASK + seat``      bit masks of the pieces of seat A and seat B (bit k-1 = square k)
2      ``TURN``             seat on turn
3      ``THROW``            the throw waiting to be used (0: a throw is due)
4, 5   ``EXTRA + seat``     extra throws owed to A, B
6, 7   ``SKIP + seat``      turns to skip (House of Net) for A, B
8, 9   ``BORNE_OFF + seat`` pieces borne off by A, B
10, 11 ``CAPTURED + seat``  pieces captured (Bell) of A, B
12, 13 ``DROWNED + seat``   pieces drowned (Adelaida) of A, B
14     ``PENDING``          pending House decision: :data:`NO_PENDING`, :data:`PENDING_FATE`
                            (a throw of fate, then its move) or :data:`PENDING_WATER` (the
                            Kendall House of Water choice)
15     ``BANK``             the throws made and not yet used besides ``THROW``, where
                            all throws of a turn are made before moving (kendall-1978):
                            eight bits per value, the count of value v at bit 8(v-1)
16     ``RETURNED``         squares (bit k-1 = square k) of pieces that came back from
                            the House of Water and have not moved since (kendall-1978)
17, 18 ``HAND + seat``      pieces of A, B in the hand, waiting to enter (piccione)
19     ``DIRECTION``        the direction of this turn's moves: :data:`NO_DIRECTION`,
                            :data:`FORWARD` or :data:`BACKWARD` (piccione)
20     ``DIVIDED``          1 when ``THROW`` holds the points left of a throw already
                            divided (no piece enters with them), else 0 (piccione)
21     ``ENTERED``          1 when the throw in play (or the throw due) must first move the
                            piece just entered on square 1, else 0 (piccione)
=====  ===================  ==========================================================

Anything stored outside the process that holds raw states (the shipped endgame tables)
records :data:`LAYOUT_VERSION` and is refused when it differs: raise the version with any
change to the fields 0-14 above.  Fields 15-21 were added after them and are zero in every
variant without banked throws, a waiting House of Water or divided throws; a table holds only
such states.

>>> from senet.engine import find_variant
>>> from senet.engine.rules import tables_for
>>> t = tables_for(find_variant("standard"))
>>> s = raw_state((0b101, 0b1010), off=(3, 3))
>>> throw_due(s), decider(t, s)
(True, None)
>>> s = with_throw(s, 2)
>>> throw_due(s), decider(t, s), s[THROW]
(False, 0, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .rules import Tables

__all__ = [
    "LAYOUT_VERSION",
    "SIZE",
    "MASK",
    "TURN",
    "THROW",
    "EXTRA",
    "SKIP",
    "BORNE_OFF",
    "CAPTURED",
    "DROWNED",
    "PENDING",
    "NO_PENDING",
    "PENDING_FATE",
    "PENDING_WATER",
    "BANK",
    "RETURNED",
    "BANK_BITS",
    "HAND",
    "DIRECTION",
    "DIVIDED",
    "ENTERED",
    "NO_DIRECTION",
    "FORWARD",
    "BACKWARD",
    "RawState",
    "Fields",
    "raw_state",
    "fields",
    "throw_due",
    "decider",
    "with_throw",
    "bank_values",
    "bank_add",
    "bank_remove",
]

#: The version of the layout below; stored with every table of raw states.
LAYOUT_VERSION = 1
#: Number of integers in a raw state.
SIZE = 22

# Indices into the raw state; a per-seat field is at ``FIELD + seat`` (seat 0 = A, 1 = B).
MASK = 0
TURN = 2
THROW = 3
EXTRA = 4
SKIP = 6
BORNE_OFF = 8
CAPTURED = 10
DROWNED = 12
PENDING = 14
BANK = 15
RETURNED = 16
HAND = 17
DIRECTION = 19
DIVIDED = 20
ENTERED = 21
# Values of ``state[DIRECTION]``.
NO_DIRECTION, FORWARD, BACKWARD = 0, 1, 2
#: bits per value in ``state[BANK]``
BANK_BITS = 8
_BANK_MASK = (1 << BANK_BITS) - 1

# Values of ``state[PENDING]``.
NO_PENDING, PENDING_FATE, PENDING_WATER = 0, 1, 2

#: A raw state as positions hold it (search may keep a mutable ``list[int]`` copy).
RawState = tuple[int, ...]


class Fields(NamedTuple):
    """A raw state read by name (for tests, tools and error messages, not for hot loops)."""

    masks: tuple[int, int]
    turn: int
    throw: int
    extra: tuple[int, int]
    skip: tuple[int, int]
    borne_off: tuple[int, int]
    captured: tuple[int, int]
    drowned: tuple[int, int]
    pending: int
    bank: tuple[int, ...]
    returned: int
    hand: tuple[int, int]
    direction: int
    divided: int
    entered: int


def raw_state(
    masks: tuple[int, int],
    *,
    turn: int = 0,
    throw: int = 0,
    extra: tuple[int, int] = (0, 0),
    skip: tuple[int, int] = (0, 0),
    off: tuple[int, int] = (0, 0),
    captured: tuple[int, int] = (0, 0),
    drowned: tuple[int, int] = (0, 0),
    pending: int = NO_PENDING,
    bank: tuple[int, ...] = (),
    returned: int = 0,
    hand: tuple[int, int] = (0, 0),
    direction: int = NO_DIRECTION,
    divided: int = 0,
    entered: int = 0,
) -> RawState:
    """The raw state with these fields (no check: :meth:`Position.validate` checks);
    ``bank`` lists the banked throws' values, ``returned`` is a mask of squares."""
    packed = 0
    for value in bank:
        packed = bank_add(packed, value)
    return (
        *masks,
        turn,
        throw,
        *extra,
        *skip,
        *off,
        *captured,
        *drowned,
        pending,
        packed,
        returned,
        *hand,
        direction,
        divided,
        entered,
    )


def fields(s: Sequence[int]) -> Fields:
    """Every field of raw state ``s`` by name."""

    def pair(index: int) -> tuple[int, int]:
        return s[index], s[index + 1]

    return Fields(
        pair(MASK),
        s[TURN],
        s[THROW],
        pair(EXTRA),
        pair(SKIP),
        pair(BORNE_OFF),
        pair(CAPTURED),
        pair(DROWNED),
        s[PENDING],
        bank_values(s[BANK]),
        s[RETURNED],
        pair(HAND),
        s[DIRECTION],
        s[DIVIDED],
        s[ENTERED],
    )


def throw_due(s: Sequence[int]) -> bool:
    """Is chance next: the regular throw, or the Adelaida throw of fate?  (Only a House of
    Water choice is made without a throw.)  Says nothing about whether the game is over."""
    return not s[THROW] and s[PENDING] != PENDING_WATER


def decider(t: Tables, s: Sequence[int]) -> int | None:
    """The seat that decides next, or None when a throw is due.  Usually the seat on turn; a
    pending House decision belongs to the owner of the piece on that House (the Kendall water
    choice after an attack, the Adelaida fate move of a piece swapped onto 26), who may be the
    seat not on turn.  Says nothing about whether the game is over."""
    pending = s[PENDING]
    if pending == PENDING_WATER:
        return 0 if s[MASK] & t.water_bit else 1
    if not s[THROW]:
        return None
    if pending == PENDING_FATE:
        return 0 if s[MASK] & t.fate_bit else 1
    return s[TURN]


def with_throw(s: RawState, value: int) -> RawState:
    """``s`` with ``value`` as the throw to be used (chance has spoken)."""
    return s[:THROW] + (value,) + s[THROW + 1 :]


def bank_values(packed: int) -> tuple[int, ...]:
    """The values of a packed bank (``state[BANK]``), lowest first, each as often as banked."""
    out: list[int] = []
    value = 1
    while packed:
        out.extend([value] * (packed & _BANK_MASK))
        packed >>= BANK_BITS
        value += 1
    return tuple(out)


def bank_add(packed: int, value: int) -> int:
    """``packed`` with one more throw of ``value`` (255 of one value at most: with four sticks
    the chance of 256 in one turn is below 10^-139)."""
    if (packed >> (BANK_BITS * (value - 1))) & _BANK_MASK == _BANK_MASK:
        raise OverflowError(f"255 throws of {value} are banked already")
    return packed + (1 << (BANK_BITS * (value - 1)))


def bank_remove(packed: int, value: int) -> int:
    """``packed`` with one throw of ``value`` fewer (there must be one)."""
    return packed - (1 << (BANK_BITS * (value - 1)))
