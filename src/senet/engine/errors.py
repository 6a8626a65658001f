"""Errors raised by the engine.  Each says what went wrong in words a player can act on."""

from __future__ import annotations

__all__ = ["SenetError", "IllegalMove", "NotationError"]


class SenetError(ValueError):
    """Base class: every engine error is a ValueError, so callers may catch either."""


class IllegalMove(SenetError):
    """A move or throw that the position does not allow.  The position is left unchanged."""


class NotationError(SenetError):
    """Malformed text: names the line, the column (both 1-based) and what was expected there."""

    def __init__(self, message: str, line: int = 1, column: int = 1, expected: str = "") -> None:
        self.message = message
        self.line = line
        self.column = column
        self.expected = expected
        detail = f"line {line}, column {column}: {message}"
        if expected:
            detail += f" (expected {expected})"
        super().__init__(detail)
