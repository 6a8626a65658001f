"""Computer players for ``play`` and ``simulate``: two built-ins and, when present, the levels
of :mod:`senet.ai`.

The AI package is written separately and may be missing or half-finished; it is imported only
when a name that is not built in is asked for, so ``--opponent random`` never depends on it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

import click

from senet.engine import Move, Position, parse_move

__all__ = [
    "Player",
    "BUILTIN",
    "random_player",
    "greedy_player",
    "ai_levels",
    "resolve_player",
    "player_names",
]

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
    return (0, 0, -1, {"return": 2, "revive": 2, "risk": 1}.get(move.kind, 0))


def greedy_player(position: Position, rng: random.Random) -> Move:
    """Prefer bearing off, then captures, then the most advanced move; deterministic."""
    return max(position.legal_moves(), key=lambda move: _greedy_key(position, move))


BUILTIN: dict[str, Player] = {"random": random_player, "greedy": greedy_player}

_ai_error: str | None = None


def ai_levels() -> dict[str, tuple[Callable, object]]:
    """``{level name: (choose_move, level)}`` from :mod:`senet.ai`, or ``{}`` if it is not usable
    (the reason is kept for the error message of an unknown opponent)."""
    global _ai_error
    try:
        ai = importlib.import_module("senet.ai")  # via sys.modules, so tests can stand in for it
        choose, levels = ai.choose_move, ai.LEVELS
    except Exception as exc:
        _ai_error = f"{type(exc).__name__}: {exc}"
        return {}
    return {_level_key(level): (choose, level) for level in levels}


def _level_key(level: object) -> str:
    """A level's name on the command line: its ``key`` (senet.ai's Level objects), else str()."""
    key = getattr(level, "key", None)
    return key if isinstance(key, str) else str(level)


def player_names(include_ai: bool = True) -> list[str]:
    return list(BUILTIN) + (list(ai_levels()) if include_ai else [])


def resolve_player(name: str) -> Player:
    """The player called ``name``: a built-in or an AI level; one-line error otherwise."""
    key = name.strip().lower()
    if key in BUILTIN:
        return BUILTIN[key]
    levels = ai_levels()
    match = levels.get(name.strip()) or levels.get(key)
    if match is None:
        known = ", ".join(list(BUILTIN) + list(levels))
        why = "" if levels else f" (no senet.ai levels available: {_ai_error or 'LEVELS is empty'})"
        raise click.ClickException(f"unknown player {name!r}; known: {known}{why}")
    choose, level = match

    def ai_player(position: Position, rng: random.Random) -> Move:
        move = choose(position, level, rng)
        move = parse_move(move) if isinstance(move, str) else move
        if move not in position.legal_moves():  # callers play it unchecked; catch AI bugs here
            raise click.ClickException(
                f"AI level {name!r} chose the illegal move {move} in {position.fen()}"
            )
        return move

    ai_player.__name__ = f"ai_{key}"
    return ai_player
