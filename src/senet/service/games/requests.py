"""The fields of a player's request, each checked once, whichever way it came (a WebSocket
message, an HTTP body, the bot API): a value of the right type and range, or GameError
``bad_request`` saying what is expected; a move's notation is parsed by :func:`parsed_move`
(``bad_move``).  (A seed is checked by
:func:`senet.service.games.seeding.checked_seed`: ``bad_seed``.)"""

from __future__ import annotations

from senet.engine import Move, NotationError, parse_move
from senet.service.errors import GameError

__all__ = ["MAX_MOVE_LENGTH", "checked_move", "checked_ply", "checked_seat", "parsed_move"]

#: the longest move notation accepted (``28-off``, ``12-15``, ``pass``, a divided throw...)
MAX_MOVE_LENGTH = 16


def checked_ply(value: object) -> int:
    """The ply a request was decided at: a whole number, 0 or more."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise GameError(
            "bad_request", "ply must be a non-negative integer (the number of actions so far)"
        )
    return value


def checked_move(value: object) -> str:
    """A move in notation (parsed and checked against the rules later, by the engine)."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_MOVE_LENGTH:
        raise GameError("bad_request", "move must be a move in notation such as 12-15 or pass")
    return value


def parsed_move(text: str) -> Move:
    """``text`` read as the game's notation, or GameError ``bad_move`` (400) with the line and
    the column where it stops being notation.  The one place a player's move is parsed: the
    commands take the :class:`~senet.engine.Move` and check it against the rules."""
    try:
        return parse_move(text)
    except NotationError as exc:
        raise GameError("bad_move", str(exc), 400, line=exc.line, column=exc.column) from None


def checked_seat(value: object) -> int | None:
    """A seat named in a request: 0 (A), 1 (B), or None (not named)."""
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1):
        raise GameError("bad_request", "seat must be 0 (A) or 1 (B)")
    return value
