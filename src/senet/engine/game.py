"""A game in progress: a start position and the stack of throws and moves played from it.

In the manner of python-chess's ``Board``: :meth:`Game.push` and :meth:`Game.pop` apply and
undo, :attr:`Game.position` is the current state.  Positions are immutable, so undoing is
dropping the top of a stack, never recomputing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .errors import IllegalMove
from .moves import Move, parse_move
from .position import Outcome, Position
from .variants import Variant, find_variant

__all__ = ["Game", "Throw", "Action"]


@dataclass(frozen=True)
class Throw:
    """A chance event: the throw ``value`` (regular or of fate)."""

    value: int

    def __str__(self) -> str:
        return f"({self.value})"


Action = Throw | Move


class Game:
    """Apply and undo throws and moves; keeps every position for replay and review."""

    def __init__(self, start: Position | Variant | str = "standard") -> None:
        if isinstance(start, str):
            start = find_variant(start)
        if isinstance(start, Variant):
            start = Position.initial(start)
        self.start = start
        self._positions: list[Position] = [start]
        self._actions: list[Action] = []

    @property
    def position(self) -> Position:
        return self._positions[-1]

    @property
    def variant(self) -> Variant:
        return self.start.variant

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def positions(self) -> tuple[Position, ...]:
        return tuple(self._positions)

    def push_throw(self, value: int) -> Position:
        """Chance shows ``value``; raises IllegalMove when no throw is due."""
        self._positions.append(self.position.apply_throw(value))
        self._actions.append(Throw(value))
        return self.position

    def push(self, move: Move | str) -> Position:
        """Play ``move`` (a Move or its notation); raises IllegalMove and changes nothing if illegal."""
        if isinstance(move, str):
            move = parse_move(move)
        self._positions.append(self.position.apply(move))
        self._actions.append(move)
        return self.position

    def push_action(self, action: Action) -> Position:
        return self.push_throw(action.value) if isinstance(action, Throw) else self.push(action)

    def extend(self, continuation: Game) -> None:
        """Append every action of ``continuation``, a game that starts from this game's current
        position, with the positions it already computed (nothing is applied twice: the server
        builds a batch of actions on a scratch game, stores it, then adopts it)."""
        if continuation.start != self.position:
            raise ValueError("the continuation does not start from this game's position")
        self._positions.extend(continuation._positions[1:])
        self._actions.extend(continuation._actions)

    def pop(self) -> Action:
        """Undo the last throw or move and return it."""
        if not self._actions:
            raise IllegalMove("nothing to undo")
        self._positions.pop()
        return self._actions.pop()

    def outcome(self) -> Outcome | None:
        return self.position.outcome()

    def is_over(self) -> bool:
        return self.position.is_over()

    def __iter__(self) -> Iterator[tuple[Position, Action]]:
        """Each action with the position it was played in."""
        return iter(zip(self._positions, self._actions))

    def __len__(self) -> int:
        return len(self._actions)
