"""The same seeded games on the pure engine: :mod:`senet.engine.flow` for the rules, the same
random numbers (SplitMix64, written out in Python), and the engine's own players
(:func:`senet.engine.players.greedy_player`, the ``expert`` level of :mod:`senet.ai`).

A game here and the compiled game of the same seed and number must be identical move for move;
the test suite checks it.  This is also the readable statement of what one simulated game is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from senet.compiled.kernel import (
    EXPERT,
    GREEDY,
    PENDING_FATE,
    PENDING_WATER,
    RANDOM,
    S_PEND,
    S_THROW,
)
from senet.engine import Position, Variant
from senet.engine.flow import legal_moves, play, thrown, winner
from senet.engine.players import greedy_player
from senet.engine.rules import tables_for

__all__ = ["SplitMix64", "reference_game", "ReferenceGame", "py_game_seed"]

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def py_game_seed(seed: int, game: int) -> int:
    """The generator state of game ``game`` of run ``seed`` (as :func:`kernel.game_seed`)."""
    return _mix64((seed * _GOLDEN + _mix64((game + _GOLDEN) & _MASK)) & _MASK)


class SplitMix64:
    """SplitMix64 (Steele, Lea and Flood 2014), the simulator's generator."""

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    def next(self) -> int:
        self.state = (self.state + _GOLDEN) & _MASK
        return _mix64(self.state)

    def below(self, k: int) -> int:
        return ((self.next() >> 32) * k) >> 32


@dataclass(frozen=True)
class ReferenceGame:
    """One game: winner (0, 1, 2 = draw, -1 = stopped), its length, every decision."""

    winner: int
    turns: int
    decisions: int
    throws: int
    moves: tuple[str, ...]
    final_state: tuple[int, ...]


def reference_game(
    variant: Variant,
    seed: int,
    game: int,
    players: tuple[int, int] = (RANDOM, RANDOM),
    max_decisions: int = 100_000,
) -> ReferenceGame:
    """Game number ``game`` of the run ``seed``, played on the pure engine."""
    t = tables_for(variant)
    rng = SplitMix64(py_game_seed(seed, game))
    patterns = [variant.instrument.value_of(k) for k in range(variant.instrument.patterns)]
    bits = (len(patterns) - 1).bit_length()
    s = list(variant.start_position().state)
    turns = decisions = throws = 0
    new_turn = True
    played: list[str] = []
    result = winner(t, s)
    while result is None and decisions < max_decisions:
        if not s[S_THROW] and s[S_PEND] != PENDING_WATER:
            if s[S_PEND] != PENDING_FATE and new_turn:
                turns += 1
            new_turn = False
            # every throw due: one, or where all throws of a turn come first, the whole run
            while not s[S_THROW] and s[S_PEND] != PENDING_WATER:
                s = list(thrown(t, s, patterns[rng.next() >> (64 - bits)]))
                throws += 1
        options = legal_moves(t, s)
        move = options[0]
        if len(options) > 1:
            position = Position(variant, tuple(s))
            player = players[0] if position.decider == 0 else players[1]
            move = _choose(position, options, player, rng)
        if play(t, s, move):
            new_turn = True
        decisions += 1
        played.append(move.text())
        result = winner(t, s)
    return ReferenceGame(
        -1 if result is None else result, turns, decisions, throws, tuple(played), tuple(s)
    )


def _choose(position: Position, options: list, player: int, rng: SplitMix64):
    if player == RANDOM:
        return options[rng.below(len(options))]
    if player == GREEDY:
        return greedy_player(position, random.Random(0))
    if player == EXPERT:
        from senet.ai import choose_move

        return choose_move(position, "expert", random.Random(0))
    raise ValueError(f"unknown player {player}")
