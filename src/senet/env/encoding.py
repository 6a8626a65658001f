"""Moves as action numbers and positions as tensors, for learning programs.

**Actions** (:data:`ACTIONS` = 1115 numbers, one space for every variant):

==============  ==========================================================================
0 ... 4         the word moves: ``pass``, ``revive``, ``risk``, ``return``, ``enter``
5 ... 904       a move from square *o* to square *t* (both 1-30, forward or backward):
                ``5 + 30·(o − 1) + (t − 1)`` (the numbers with *o* = *t* are never legal)
905 ... 1114    bearing off from square *o* with throw *n* named (0 when the squares tell,
                1-6 where several banked throws could, as ``30-off/2`` in kendall-1978):
                ``905 + 7·(o − 1) + n``
==============  ==========================================================================

In kendall-1978 every throw of a turn is thrown before any move, and the banked throws are
played in any order: a move's squares say which throw it uses (``12-15`` uses a 3), and a
bearing off that several throws could make names its throw, so every legal decision has its
own number.  :func:`action_mask` marks the legal ones.

**Observations** (:data:`OBSERVATION_SIZE` = 115 numbers in [0, 1], float32), from the point of
view of one seat (*own* is that seat, *other* its opponent):

========  =================================================================================
0-29      own pieces on squares 1-30
30-59     the other's pieces on squares 1-30
60-65     own pieces borne off, captured (bell), drowned (adelaida), in the hand (piccione),
          each as a share of the variant's pieces; extra throws owed and turns to skip, /3
66-71     the same six for the other seat
72-77     the throws of this turn not yet used: how many of each value 1-6, /4 (at most 1)
78        1 if the own seat is on turn
79        1 if the own seat decides now (the House of Water choice may fall to the seat not
          on turn)
80, 81    a throw of fate is pending (adelaida); a House of Water choice is pending (kendall)
82-111    pieces back from the House of Water that have not moved yet (kendall-1978)
112, 113  this turn's moves go forward; backward (piccione, once a move is made)
114       the throw is the rest of a divided throw, or the entered piece must move (piccione)
========  =================================================================================
"""

from __future__ import annotations

import numpy as np

from senet.engine import OFF, Move, Position
from senet.engine.moves import ENTER, MOVE, PASS, RETURN, REVIVE, RISK
from senet.engine.state import BACKWARD, FORWARD, PENDING_FATE, PENDING_WATER

__all__ = [
    "ACTIONS",
    "OBSERVATION_SIZE",
    "action_of",
    "move_of",
    "action_mask",
    "legal_actions",
    "observation",
]

_WORDS = (PASS, REVIVE, RISK, RETURN, ENTER)
_STEPS = len(_WORDS)
_OFFS = _STEPS + 30 * 30
ACTIONS = _OFFS + 30 * 7
OBSERVATION_SIZE = 115


def action_of(move: Move) -> int:
    """The number of ``move`` (see the table above)."""
    if move.kind != MOVE:
        return _WORDS.index(move.kind)
    if move.target == OFF:
        return _OFFS + 7 * (move.origin - 1) + move.throw
    return _STEPS + 30 * (move.origin - 1) + (move.target - 1)


def move_of(action: int) -> Move:
    """The move numbered ``action``; ValueError outside 0 .. ACTIONS − 1."""
    if not 0 <= action < ACTIONS:
        raise ValueError(f"an action is a number 0-{ACTIONS - 1}, got {action}")
    if action < _STEPS:
        return Move(_WORDS[action])
    if action < _OFFS:
        origin, target = divmod(action - _STEPS, 30)
        return Move(MOVE, origin + 1, target + 1)
    origin, throw = divmod(action - _OFFS, 7)
    return Move(MOVE, origin + 1, OFF, throw)


def legal_actions(position: Position) -> list[int]:
    """The numbers of the legal moves, in the engine's order."""
    return [action_of(move) for move in position.legal_moves()]


def action_mask(position: Position) -> np.ndarray:
    """1 at the number of every legal move, else 0 (int8, length :data:`ACTIONS`)."""
    mask = np.zeros(ACTIONS, dtype=np.int8)
    mask[legal_actions(position)] = 1
    return mask


def observation(position: Position, seat: int) -> np.ndarray:
    """The position seen by ``seat`` (0 = A, 1 = B) as :data:`OBSERVATION_SIZE` numbers."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    pieces = position.variant.pieces
    for index, who in enumerate((seat, 1 - seat)):
        for square in position.pieces(who):
            obs[30 * index + square - 1] = 1.0
        base = 60 + 6 * index
        obs[base] = position.off(who) / pieces
        obs[base + 1] = position.captured(who) / pieces
        obs[base + 2] = position.drowned(who) / pieces
        obs[base + 3] = position.hand(who) / pieces
        obs[base + 4] = min(position.extra(who), 3) / 3
        obs[base + 5] = min(position.skip(who), 3) / 3
    for value in position.throws:
        obs[71 + value] = min(obs[71 + value] + 0.25, 1.0)
    obs[78] = float(position.turn == seat)
    obs[79] = float(position.decider == seat)
    obs[80] = float(position.pending == PENDING_FATE)
    obs[81] = float(position.pending == PENDING_WATER)
    for square in position.returned:
        obs[81 + square] = 1.0
    obs[112] = float(position.direction == FORWARD)
    obs[113] = float(position.direction == BACKWARD)
    obs[114] = float(position.divided or position.entered)
    return obs
