"""A move as one pure step: what one action changes in a game, computed without storing it.

:func:`step` takes a game's state (:class:`GameState`: its position, how many actions and
throws it has, its clock), the action a player (or the server, for them) takes, the game's
dice and the time, and returns a :class:`StepResult`: the actions to store — the action and
every throw that follows it until someone must decide or the game ends — the result if the
game ended, and the clocks after it.  No I/O, no storage, no awaiting: the same arguments give
the same result, so the step is tested from positions alone (``tests/service/test_step.py``).

The store (:mod:`senet.service.games.live_games`) calls it under the game's lock, stores what it
returns in one transaction, then adopts it and announces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from senet.engine import Game, Outcome, Position, parse_move
from senet.engine.moves import PASS
from senet.engine.position import seat_letter
from senet.engine.record import TERMINATIONS
from senet.service.messages import ActionKind, ClockColumns, Finish

from .clocks import ClockState
from .storage import StoredAction

__all__ = [
    "Dice",
    "GameState",
    "StepResult",
    "ending_finish",
    "finish_of",
    "is_forced_pass",
    "replay",
    "step",
    "timed_seat",
]


class Dice(Protocol):
    """Where throws come from: throw number ``n`` of the game as ``(pattern, value)`` — the
    game's fair dice (:class:`~senet.service.fairness.throws.FairDice`), or a scripted list in tests."""

    def throw(self, n: int) -> tuple[int, int]: ...


@dataclass(frozen=True, slots=True)
class GameState:
    """What a step reads of a game: the position now, how many actions (``ply``) and throws
    were stored before it, the clocks as stored, and the computer's seat (whose decisions run
    no clock)."""

    position: Position
    ply: int
    throws: int
    clock: ClockState
    computer_seat: int | None = None


@dataclass(frozen=True, slots=True)
class StepResult:
    """What a step changes.

    ``actions``: the action taken (if any) and the throws that follow it, numbered from the
    state's ply; ``continuation``: a game starting from the state's position with them
    applied (its positions computed once, adopted by the cached game with ``Game.extend``);
    ``finish``: the result columns if the game ended; ``clock``: the clocks after the actions
    (None in an untimed game).
    """

    actions: tuple[StoredAction, ...]
    continuation: Game
    finish: Finish | None
    clock: ClockState | None

    @property
    def position(self) -> Position:
        return self.continuation.position

    @property
    def clock_columns(self) -> ClockColumns | None:
        """The clock as the ``games`` columns store it (None in an untimed game)."""
        if self.clock is None:
            return None
        return {
            "clock_a": self.clock.remaining[0],
            "clock_b": self.clock.remaining[1],
            "clock_seat": self.clock.running,
            "deadline": self.clock.deadline,
        }


def is_forced_pass(position: Position) -> bool:
    """Is ``position``'s only legal decision a pass?"""
    if position.decider is None:
        return False
    legal = position.legal_moves()
    return len(legal) == 1 and legal[0].kind == PASS


def timed_seat(clock: ClockState, computer_seat: int | None, position: Position) -> int | None:
    """The seat whose clock runs in ``position``: a person's decision in a timed game (not a
    forced pass, which the server plays and which costs the player no time)."""
    if not clock.control.timed or position.is_over():
        return None
    decider = position.decider
    if decider is None or decider == computer_seat or is_forced_pass(position):
        return None
    return decider


def ending_finish(position: Position, loser: int, termination: str) -> Finish:
    """The result columns of a game that ``loser`` lost by ``termination``."""
    reason = TERMINATIONS[termination].format(seat_letter(loser))
    outcome = Outcome(1 - loser, (position.off(0), position.off(1)), reason)
    return Finish.of(outcome, termination)


def finish_of(game: Game, new: tuple[StoredAction, ...] | list[StoredAction]) -> Finish | None:
    """The result columns once ``new`` (the last actions of ``game``) are played: an ``end``
    action's, or the rules' if the position is over; None while the game goes on."""
    last = new[-1] if new else None
    if last is not None and last.kind == ActionKind.END and last.seat is not None:
        return ending_finish(game.position, last.seat, last.notation)
    outcome = game.outcome()
    return Finish.of(outcome) if outcome is not None else None


def replay(game: Game, action: StoredAction) -> None:
    """Play a stored action on ``game``: IllegalMove or NotationError for a move the rules
    refuse, ValueError for an ``end`` that is not one of a game in progress."""
    if action.kind == ActionKind.THROW:
        game.push_throw(int(action.notation))
    elif action.kind == ActionKind.MOVE:
        game.push(parse_move(action.notation))
    elif action.notation not in TERMINATIONS or action.seat not in (0, 1) or game.is_over():
        raise ValueError(f"not an ending of a game in progress: {action.notation!r}")
    # an ending changes no position: the game simply stops


def step(
    state: GameState,
    action: StoredAction | None,
    dice: Dice,
    now: int,
    *,
    free: bool = False,
) -> StepResult:
    """Take ``action`` in the game ``state`` at ``now`` (ms since the epoch).

    ``action`` is a move (a pass too) or an ``end`` (a resignation, a loss on time, an
    abandoned game: its notation the termination, its seat the loser), numbered ``state.ply``;
    None throws only (the first throw, once the players' seeds are in).  Every chance event
    that follows is thrown from ``dice`` (throw numbers go on from ``state.throws``); an
    ``end`` is followed by none.  ``free``: the server played the move for its player (a
    forced pass), which costs them no time.

    Raises IllegalMove or NotationError for a move the rules refuse, ValueError for an
    action that is not numbered ``state.ply`` or an ``end`` of a game already over; the
    state is never changed (it is immutable).
    """
    game = Game(state.position)
    new: list[StoredAction] = []
    if action is not None:
        if action.ply != state.ply:
            raise ValueError(f"action numbered {action.ply}, expected ply {state.ply}")
        if action.kind == ActionKind.THROW:
            raise ValueError("a throw is the server's to draw, not an action to take")
        replay(game, action)
        new.append(action)
    ended = action is not None and action.kind == ActionKind.END
    n = state.throws
    while game.position.is_chance() and not ended:
        pattern, value = dice.throw(n)
        seat = game.position.turn
        new.append(StoredAction(state.ply + len(new), ActionKind.THROW, seat, str(value), pattern))
        game.push_throw(value)
        n += 1
    actions = tuple(new)
    return StepResult(
        actions, game, finish_of(game, actions), _clock_after(state, game, action, now, free)
    )


def _clock_after(
    state: GameState, game: Game, action: StoredAction | None, now: int, free: bool
) -> ClockState | None:
    before = state.clock
    if not before.control.timed:
        return None
    if action is not None and action.kind == ActionKind.END:
        return before.stopped(now)
    decided = action.seat if action is not None and action.kind == ActionKind.MOVE else None
    return before.after(
        now, decided, timed_seat(before, state.computer_seat, game.position), free=free
    )
