"""The computer players behind one adapter: the site and the command line use it alike.

Two built-in players need only the engine: ``random`` (any legal move) and ``greedy`` (bearing
off, then captures, then the move that lands furthest).  The levels of :mod:`senet.ai` are
imported when first asked for, so an engine command never loads numpy; a failure to import them
is an error (:class:`AIUnavailable`), never a quiet downgrade to the built-ins: the site checks
at startup (:func:`require_ai`), the command line names the cause when a level is asked for.

A player that fails while choosing — an exception, or a move that is not legal — is logged with
the position and raises :class:`ComputerFailed`; a caller that must go on (the site: a game
must not hang) passes a ``fallback`` player instead, which then plays (also logged).
"""

from __future__ import annotations

import logging
import random
import sys
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from senet.engine import Move, Position, parse_move
from senet.engine.players import Player, greedy_player, random_player

__all__ = [
    "AIUnavailable",
    "BUILTIN",
    "ComputerFailed",
    "Player",
    "ai_levels",
    "choose_move",
    "default_level",
    "greedy_player",
    "level_options",
    "levels",
    "player",
    "player_names",
    "random_player",
    "require_ai",
    "warm_up",
]

log = logging.getLogger("senet.computer")


class AIUnavailable(RuntimeError):
    """:mod:`senet.ai` cannot be imported, or lacks ``choose_move`` or ``LEVELS``."""


class ComputerFailed(RuntimeError):
    """A player raised, or chose a move that is not legal, in a position."""


BUILTIN: dict[str, Player] = {"random": random_player, "greedy": greedy_player}


# ---------------------------------------------------------------------- senet.ai
def _ai() -> ModuleType:
    try:
        import senet.ai  # noqa: F401 - here, not above: an engine command never loads numpy
    except Exception as exc:
        raise AIUnavailable(f"senet.ai cannot be imported: {type(exc).__name__}: {exc}") from exc
    module = sys.modules["senet.ai"]  # what was imported (tests may stand in for it there)
    if not callable(getattr(module, "choose_move", None)) or not getattr(module, "LEVELS", None):
        raise AIUnavailable("senet.ai provides no choose_move or no LEVELS")
    return module


def _key(level: object) -> str:
    """A level's name: its ``key`` (senet.ai's Level objects), else ``str()``."""
    key = getattr(level, "key", None)
    return key if isinstance(key, str) else str(level)


def ai_levels() -> dict[str, Any]:
    """``{key: level}`` of every level of :mod:`senet.ai`, weakest first; AIUnavailable if none."""
    return {_key(level): level for level in _ai().LEVELS}


def require_ai() -> None:
    """Raise :class:`AIUnavailable` unless the levels can be played (the site's startup check)."""
    ai_levels()


def warm_up() -> threading.Thread | None:
    """Load the levels' compiled code (:func:`senet.ai.warm_up`, where the AI has one) in a
    background thread, so that the first computer move after a start does not wait for it.
    A failure is logged: the move itself would load the code again."""
    load = getattr(_ai(), "warm_up", None)
    if not callable(load):
        return None

    def run() -> None:
        try:
            load()
        except Exception:
            log.exception("warming up the computer's levels failed")

    thread = threading.Thread(target=run, name="senet-ai-warm-up", daemon=True)
    thread.start()
    return thread


def levels() -> tuple[str, ...]:
    """The level names offered on the start form, weakest first."""
    return tuple(ai_levels())


def default_level() -> str:
    names = levels()
    return names[len(names) // 2]


def level_options(lang: str = "en") -> list[tuple[str, str, str]]:
    """``(key, name, description)`` of every level, for the start form."""
    out = []
    for key, level in ai_levels().items():
        name = level.name(lang) if callable(getattr(level, "name", None)) else key
        desc = level.description(lang) if callable(getattr(level, "description", None)) else ""
        out.append((key, name, desc))
    return out


def player_names() -> list[str]:
    """Every player's name: the built-ins, then the levels (AIUnavailable if they cannot be
    imported)."""
    return list(BUILTIN) + list(ai_levels())


def player(name: str) -> Player:
    """The player called ``name`` (a built-in or a level; KeyError if none, AIUnavailable if
    the levels cannot be imported).  It raises :class:`ComputerFailed` when it fails."""
    key = name.strip()
    if key.lower() in BUILTIN:
        return BUILTIN[key.lower()]
    found = ai_levels()
    level = found.get(key, found.get(key.lower()))
    if level is None:
        raise KeyError(name)
    choose = _ai().choose_move

    def ai_player(position: Position, rng: random.Random) -> Move:
        return _checked(position, lambda: choose(position, level, rng), _key(level))

    ai_player.__name__ = f"ai_{_key(level)}"
    return ai_player


def choose_move(
    position: Position, level: str, rng: random.Random, fallback: Player | None = None
) -> Move:
    """A legal move for ``position.decider`` by the player ``level`` (blocking: run it in a
    thread).  A level the AI no longer has plays as the default level.  If the player fails it
    is logged, and ``fallback`` plays (or :class:`ComputerFailed` is raised without one)."""
    try:
        chosen = player(level)
    except KeyError:
        log.warning("unknown computer level %r: the default level plays", level)
        chosen = player(default_level())
    try:
        return chosen(position, rng)
    except ComputerFailed:
        if fallback is None:
            raise
        log.warning("%s plays instead", getattr(fallback, "__name__", "the fallback"))
        return fallback(position, rng)


def _checked(position: Position, choose: Callable[[], Move | str], name: str) -> Move:
    try:
        move = choose()
        move = parse_move(move) if isinstance(move, str) else move
    except Exception as exc:
        log.exception("AI level %r failed in %s", name, position.fen())
        raise ComputerFailed(f"AI level {name!r} failed in {position.fen()}: {exc!r}") from exc
    if move not in position.legal_moves():
        log.error("AI level %r chose the illegal move %s in %s", name, move, position.fen())
        raise ComputerFailed(f"AI level {name!r} chose the illegal move {move} in {position.fen()}")
    return move
