"""The computer opponent, behind one function.

If :mod:`senet.ai` provides ``choose_move(position, level, rng)`` and ``LEVELS`` it is used;
until then a small built-in player stands in: level ``random`` plays any legal move, level
``greedy`` prefers bearing off, then captures, then the move that goes furthest.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from senet.engine import OFF, Move, Position

__all__ = ["BUILTIN_LEVELS", "levels", "level_options", "choose_move", "default_level"]

BUILTIN_LEVELS = ("random", "greedy")


def _ai() -> tuple[Callable[..., Move], tuple[Any, ...]] | None:
    try:
        module = importlib.import_module("senet.ai")
    except Exception:
        return None
    choose = getattr(module, "choose_move", None)
    ai_levels = getattr(module, "LEVELS", None)
    if not callable(choose) or not ai_levels:
        return None
    return choose, tuple(ai_levels)


def levels() -> tuple[str, ...]:
    """The level names offered on the start form, weakest first."""
    ai = _ai()
    return tuple(_key(level) for level in ai[1]) if ai else BUILTIN_LEVELS


def _key(level: Any) -> str:
    return str(getattr(level, "key", level))


def level_options(lang: str = "en") -> list[tuple[str, str, str]]:
    """``(key, name, description)`` of every level, for the start form."""
    ai = _ai()
    if ai is None:
        names = {"random": ("Random", "Наугад"), "greedy": ("Greedy", "Жадный")}
        return [(k, names[k][lang == "ru"], "") for k in BUILTIN_LEVELS]
    out = []
    for level in ai[1]:
        name = level.name(lang) if hasattr(level, "name") and callable(level.name) else _key(level)
        desc = level.description(lang) if callable(getattr(level, "description", None)) else ""
        out.append((_key(level), name, desc))
    return out


def default_level() -> str:
    names = levels()
    return names[len(names) // 2]


def _builtin(position: Position, level: str, rng: random.Random) -> Move:
    moves = position.legal_moves()
    if level == "random" or len(moves) == 1:
        return rng.choice(moves)

    def score(move: Move) -> tuple[float, float]:
        if move.kind == "move":
            if move.target == OFF:
                return (3, 0)
            forward = move.target - move.origin
            return (2 if position.is_capture(move) else 1, forward + move.target / 100)
        if move.kind in ("revive", "return"):
            return (1.5, 0)
        return (0, 0)

    best = max(score(m) for m in moves)
    return rng.choice([m for m in moves if score(m) == best])


def choose_move(position: Position, level: str, rng: random.Random) -> Move:
    """A legal move for ``position.decider`` at ``level`` (blocking: run it in a thread)."""
    ai = _ai()
    if ai is not None:
        choose, ai_levels = ai
        matching = [lv for lv in ai_levels if _key(lv) == level]
        try:
            move = choose(
                position, matching[0] if matching else ai_levels[len(ai_levels) // 2], rng
            )
            if move in position.legal_moves():
                return move
        except Exception:
            pass
    return _builtin(position, level if level in BUILTIN_LEVELS else "greedy", rng)
