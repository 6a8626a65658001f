"""The two players that need only the rules: ``random`` (any legal move, the baseline every
other player is measured against) and ``greedy`` (bearing off, then captures, then the move
that lands furthest).

They are pure functions of the position; ``rng`` is the caller's generator, as for
:func:`senet.engine.draw_throw`.  The compiled simulator plays the same two
(:data:`senet.compiled.kernel.RANDOM`, :data:`~senet.compiled.kernel.GREEDY`), and its
reference games (:mod:`senet.sim.reference`) check them move for move against these.
The site and the command line reach them, with the levels of :mod:`senet.ai`, through
:mod:`senet.service.computer.players`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .moves import Move
from .position import Position

__all__ = ["Player", "random_player", "greedy_player"]

#: A computer player: the decision for ``position.decider``, using ``rng`` for any randomness.
Player = Callable[[Position, random.Random], Move]


def random_player(position: Position, rng: random.Random) -> Move:
    """A uniformly random legal move: the baseline every other player is measured against."""
    return rng.choice(position.legal_moves())


def _greedy_key(position: Position, move: Move) -> tuple[int, int, int, int]:
    """Bearing off first, then landing on an opponent, then the forward move that lands
    furthest (ties: from the most advanced square).  Word moves rank below every forward step;
    among them ``return``/``revive`` (safe) beat ``risk``/``pass``."""
    if move.is_step:
        forward = move.target > move.origin
        return (
            int(move.bears_off),
            int(position.is_capture(move)),
            int(forward),
            (move.target * 32 + move.origin) if forward else -move.origin,
        )
    return (0, 0, -1, {"return": 2, "revive": 2, "enter": 2, "risk": 1}.get(move.kind, 0))


def greedy_player(position: Position, rng: random.Random) -> Move:
    """Prefer bearing off, then captures, then the most advanced move; deterministic."""
    return max(position.legal_moves(), key=lambda move: _greedy_key(position, move))
