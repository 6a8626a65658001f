"""Errors raised by the engine.  Each says what went wrong in words a player can act on."""

from __future__ import annotations

__all__ = ["SenetError", "IllegalMove", "InvalidPosition", "NotationError"]


class SenetError(ValueError):
    """Base class: every engine error is a ValueError, so callers may catch either."""


class IllegalMove(SenetError):
    """A move or throw that the position does not allow.  The position is left unchanged."""


class InvalidPosition(SenetError):
    """A position the rules can neither reach nor start from.

    ``field`` names the part of the position at fault, as the one-line notation names its
    fields (:attr:`FIELDS`, in the order the notation writes them); ``square`` the square at
    fault (1-30) when there is one.  The notation reader points its error column at them.
    """

    FIELDS = (
        "board",
        "turn",
        "throw",
        "extra",
        "skip",
        "captured",
        "drowned",
        "pending",
        "bank",
        "returned",
        "hand",
        "direction",
        "divided",
        "entered",
    )

    def __init__(self, message: str, *, field: str, square: int | None = None) -> None:
        if field not in self.FIELDS:
            raise ValueError(f"unknown position field {field!r}")
        self.message = message
        self.field = field
        self.square = square
        super().__init__(message)


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
