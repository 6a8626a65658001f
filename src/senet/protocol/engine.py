"""The engine's side of the protocol: a session that answers controller lines with a player's
moves, and the loop that runs it over standard input and output.

:class:`EngineSession` is pure bookkeeping (a line in, reply lines out); :func:`serve` does the
I/O; :func:`level_player` makes a built-in level of :mod:`senet.ai` a :data:`Chooser`.  A
refused line is answered with ``error ...`` naming what was expected, and changes nothing.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TextIO

from senet.engine import VARIANTS, Move, Position, draw_throw, find_variant
from senet.engine.position import seat_letter

from .messages import (
    BestMove,
    EngineError,
    Go,
    Hello,
    HelloDone,
    Identity,
    IsReady,
    MovePlayed,
    NewGame,
    ProtocolError,
    Quit,
    ReadyOk,
    Reply,
    SetPosition,
    ThrowShown,
    Variants,
    format_reply,
    parse_command,
)

if TYPE_CHECKING:
    from senet.ai import Level

__all__ = ["AUTHOR", "Chooser", "EngineSession", "engine_name", "level_player", "serve"]

#: ``choose(position, seconds or None)``: the move for the seat deciding in ``position``
Chooser = Callable[[Position, float | None], Move]

AUTHOR = "the senet project"
#: the share of a ``go movetime`` that a level's search may spend (the rest is for the pipe)
TIME_SHARE = 0.4


class EngineSession:
    """One engine's conversation: ``handle(line)`` returns the reply lines; :attr:`done` turns
    true after ``quit``.  ``prepare(variant)`` loads what a game of that variant needs (called on
    ``isready`` after ``newgame``, so the first move is not slowed by it)."""

    def __init__(
        self,
        name: str,
        choose: Chooser,
        *,
        variants: Iterable[str] = tuple(VARIANTS),
        prepare: Callable[[str], None] | None = None,
    ) -> None:
        self.name = name
        self.variants = tuple(variants)
        self._choose = choose
        self._prepare = prepare
        self._prepared: set[str] = set()
        self._variant: str | None = None
        self.position: Position | None = None
        self.done = False

    def handle(self, line: str) -> list[str]:
        """The replies to one controller line (without newlines)."""
        if not line.strip():
            return []  # blank lines are ignored, as UCI engines do
        try:
            command = parse_command(line)
        except ProtocolError as exc:
            return [format_reply(EngineError(str(exc)))]
        return [format_reply(reply) for reply in self._answer(command)]

    def _answer(self, command: object) -> list[Reply]:
        match command:
            case Hello():
                return [
                    Identity("name", self.name),
                    Identity("author", AUTHOR),
                    Variants(self.variants),
                    HelloDone(),
                ]
            case IsReady():
                if self._prepare and self._variant and self._variant not in self._prepared:
                    self._prepare(self._variant)
                    self._prepared.add(self._variant)
                return [ReadyOk()]
            case NewGame(variant):
                if variant not in self.variants:
                    return [_refuse(f"newgame: {variant} is not played here", self._variant_list())]
                self._variant = variant
                self.position = Position.initial(find_variant(variant))
                return []
            case SetPosition(given):
                if given.variant.name not in self.variants:
                    return [
                        _refuse(
                            f"position: {given.variant.name} is not played here",
                            self._variant_list(),
                        )
                    ]
                self.position = given
                self._variant = given.variant.name
                return []
            case ThrowShown(value):
                position = self.position
                if position is None or not position.is_chance():
                    return [_refuse("throw: no throw is due now", _expected(position))]
                if value not in {v for v, _ in position.chance_outcomes()}:
                    return [_refuse(f"throw: {value} is not a possible throw", _expected(position))]
                self.position = position.apply_throw(value)
                return []
            case MovePlayed(move):
                position = self.position
                if position is None or position.decider is None:
                    return [_refuse(f"move: {move} cannot be played now", _expected(position))]
                if move not in position.legal_moves():
                    return [_refuse(f"move: {move} is not legal here", _expected(position))]
                self.position = position.apply(move)
                return []
            case Go(movetime):
                position = self.position
                if position is None or position.decider is None:
                    return [_refuse("go: no decision is due", _expected(position))]
                seconds = None if movetime is None else movetime / 1000
                return [BestMove(self._choose(position, seconds))]
            case Quit():
                self.done = True
                return []
        raise TypeError(f"not a command: {command!r}")

    def _variant_list(self) -> str:
        return "one of " + ", ".join(self.variants)


def _refuse(message: str, expected: str) -> EngineError:
    return EngineError(f"{message} (expected {expected})")


def _expected(position: Position | None) -> str:
    """What the engine can accept next, in words."""
    if position is None:
        return "newgame VARIANT or position NOTATION first"
    if position.is_over():
        return "a new position: this game is over"
    if position.is_chance():
        throws = ", ".join(str(v) for v, _ in position.chance_outcomes())
        return f"throw N (one of {throws})"
    legal = ", ".join(m.text() for m in position.legal_moves())
    seat = seat_letter(position.decider or 0)
    return f"go, or move M with {seat}'s legal moves: {legal}"


def level_player(level_key: str, seed: int = 0) -> tuple[Chooser, Callable[[str], None]]:
    """A built-in level as a chooser and its preparation.  A ``go movetime`` shorter than the
    level's own pace shrinks its search and rollout budgets to :data:`TIME_SHARE` of it."""
    from senet.ai import choose_move, find_level, rolls_out

    level = find_level(level_key)
    rng = random.Random(seed)
    paced: dict[int, Level] = {}

    def choose(position: Position, seconds: float | None) -> Move:
        chosen = level
        own = level.budget + level.rollouts
        if seconds is not None and own > 0 and seconds * TIME_SHARE < own:
            share = seconds * TIME_SHARE
            ms = int(seconds * 1000)
            if ms not in paced:
                paced[ms] = dataclasses.replace(
                    level,
                    key=f"{level.key}@{ms}ms",
                    budget=min(level.budget, share),
                    rollouts=min(level.rollouts, share),
                    # a fixed amount of search is sized for the level's own pace: a shorter
                    # time given turns it back into a search on the clock
                    nodes=(),
                    rollout_batches=0,
                )
            chosen = paced[ms]
        return choose_move(position, chosen, rng)

    def prepare(variant_name: str) -> None:
        """One untimed move in the variant: tables, evaluations and compiled code load now."""
        variant = find_variant(variant_name)
        position = Position.initial(variant)
        if level.model == "td":
            from senet.ai.compiled_network import warm_up as load_network

            load_network(variant)
        if rolls_out(position, level):
            from senet.ai.rollout import warm_up as load_rollouts

            load_rollouts(variant)
        warm = random.Random(0)
        while not position.is_over() and (position.is_chance() or len(position.legal_moves()) < 2):
            if position.is_chance():
                position = position.apply_throw(draw_throw(warm, variant.instrument))
            else:
                position = position.apply(position.legal_moves()[0])
        if position.decider is not None:
            choose_move(position, level, warm)

    return choose, prepare


def serve(session: EngineSession, stdin: TextIO, stdout: TextIO) -> int:
    """Answer ``stdin`` line by line until ``quit`` or the end of input; returns the exit code."""
    for line in stdin:
        for reply in session.handle(line):
            stdout.write(reply + "\n")
        stdout.flush()
        if session.done:
            break
    return 0


def engine_name(level_key: str) -> str:
    """The name a built-in level gives in its handshake."""
    return f"senet-{level_key}"
