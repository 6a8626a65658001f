"""Computer players for ``play`` and ``simulate``: the adapter of :mod:`senet.service.computer.players`
(the built-in ``random`` and ``greedy``, and the levels of :mod:`senet.ai`, imported only when a
level is asked for), with its failures turned into one-line command-line errors."""

from __future__ import annotations

import random

from senet.engine import Move, Position
from senet.service import computer
from senet.service.computer import BUILTIN, Player, greedy_player, random_player

from .common import CommandError, echo

__all__ = [
    "Player",
    "BUILTIN",
    "random_player",
    "greedy_player",
    "resolve_player",
    "player_names",
    "default_opponent",
]


def player_names(include_ai: bool = True) -> list[str]:
    """Every player's name; if the levels cannot be imported, the built-ins and a warning."""
    if not include_ai:
        return list(BUILTIN)
    try:
        return computer.player_names()
    except computer.AIUnavailable as exc:
        echo(f"warning: {exc}", err=True)
        return list(BUILTIN)


def default_opponent() -> str:
    """The opponent of ``play`` when none is named: the level the site's start form offers
    first; where the levels cannot be imported, the greedy built-in, with a warning."""
    try:
        return computer.default_level()
    except computer.AIUnavailable as exc:
        echo(f"warning: {exc}; the greedy player plays", err=True)
        return "greedy"


def resolve_player(name: str) -> Player:
    """The player called ``name``: a built-in or an AI level; one-line error otherwise, and
    when it fails in a game (an AI level's illegal move is reported, never played)."""
    try:
        chosen = computer.player(name)
    except KeyError:
        known = ", ".join(computer.player_names())
        raise CommandError(f"unknown player {name!r}; known: {known}") from None
    except computer.AIUnavailable as exc:
        known = ", ".join(BUILTIN)
        raise CommandError(
            f"unknown player {name!r}; known: {known} (no senet.ai levels available: {exc})"
        ) from None

    def checked(position: Position, rng: random.Random) -> Move:
        try:
            return chosen(position, rng)
        except computer.ComputerFailed as exc:
            raise CommandError(str(exc)) from None

    checked.__name__ = chosen.__name__
    return checked
