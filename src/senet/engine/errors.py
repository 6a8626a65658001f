"""Errors raised by the engine.  Each says what went wrong in words a player can act on.

An impossible position's error carries, besides its English message, a stable ``code`` (a key of
:data:`POSITION_REASONS`) and the ``params`` its message is written from, so that a front end can
say the same reason in another language.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["SenetError", "IllegalMove", "InvalidPosition", "NotationError", "POSITION_REASONS"]

#: Why a position is impossible: a stable code and its English message, written from the
#: parameters in braces (``variant`` a variant's name, ``square`` a square, ``house`` a House's
#: English name, ``side`` A or B).  The codes never change; a new reason is a new code.
POSITION_REASONS: Mapping[str, str] = {
    "too_many_pieces": "more pieces than {variant} has ({pieces} a side)",
    "off_track": "square {number} is not on the track (1-30)",
    "listed_twice": "square {square} is listed twice",
    "two_on_square": "two pieces on one square",
    "transit_house": "no piece can stand on {square}, the {house}",
    "turn": "the side on turn must be A or B",
    "impossible_throw": "a throw of {throw} is impossible in {variant}",
    "piece_count": "{side} has {total} pieces in all (board, off, captured, drowned, hand); "
    "{variant} has {pieces}",
    "negative_counter": "negative counter",
    "never_captured": "no piece is ever captured in {variant}",
    "never_in_hand": "no piece is ever in the hand in {variant}",
    "never_drowned": "no piece is ever drowned in {variant}",
    "never_extra": "no extra throw is ever owed in {variant}",
    "never_skipped": "no turn is ever skipped in {variant}",
    "fate_without_piece": "a fate throw is pending but no piece stands on the House of "
    "Rejuvenation",
    "water_without_piece": "a House of Water choice is pending but no piece stands there",
    "water_before_throw": "a House of Water choice is made before the next throw",
    "unknown_pending": "unknown pending decision",
    "bank_range": "a banked throw is 1 to 6",
    "never_banked": "no throw is ever banked in {variant}",
    "impossible_bank": "a banked throw is impossible in {variant}",
    "bank_while_throwing": "while throwing, only throws that earn another are banked",
    "bank_lowest": "the lowest throw of the turn waits as the throw",
    "never_returned": "no piece is ever returned in {variant}",
    "returned_empty": "no piece stands there",
    "never_divided": "no throw is ever divided in {variant}",
    "unknown_direction": "unknown direction",
    "flag_range": "a flag is 0 or 1",
    "divided_needs_points": "the rest of a divided throw needs points left",
    "divided_one_way": "a divided throw has moved a piece one way",
    "entered_on_1": "the entered piece stands on square 1",
    "entered_moves_first": "the entered piece moves first, forward, with a whole throw",
}


class SenetError(ValueError):
    """Base class: every engine error is a ValueError, so callers may catch either."""


class IllegalMove(SenetError):
    """A move or throw that the position does not allow.  The position is left unchanged."""


class InvalidPosition(SenetError):
    """A position the rules can neither reach nor start from.

    ``field`` names the part of the position at fault, as the one-line notation names its
    fields (:attr:`FIELDS`, in the order the notation writes them); ``square`` the square at
    fault (1-30) when there is one.  The notation reader points its error column at them.
    ``code`` says why (a key of :data:`POSITION_REASONS`), ``params`` fill its message in.
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

    def __init__(
        self, code: str, *, field: str, square: int | None = None, **params: str | int
    ) -> None:
        if field not in self.FIELDS:
            raise ValueError(f"unknown position field {field!r}")
        if square is not None:
            params["square"] = square
        self.code = code
        self.params: dict[str, str | int] = params
        self.message = POSITION_REASONS[code].format(**params)
        self.field = field
        self.square = square
        super().__init__(self.message)


class NotationError(SenetError):
    """Malformed text: names the line, the column (both 1-based) and what was expected there.

    Where the text is well written but its position impossible, ``reason`` is that position's
    :class:`InvalidPosition` (its code and params); None for text written wrong.
    """

    def __init__(
        self,
        message: str,
        line: int = 1,
        column: int = 1,
        expected: str = "",
        *,
        reason: InvalidPosition | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.expected = expected
        self.reason = reason
        detail = f"line {line}, column {column}: {message}"
        if expected:
            detail += f" (expected {expected})"
        super().__init__(detail)
