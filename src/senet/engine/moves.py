"""Moves: every decision a player can make, and their text notation.

A move is a small immutable value.  Throws are not moves: they are outcomes of chance nodes
(see :meth:`senet.engine.position.Position.chance_outcomes`).

Text notation (case-insensitive on input, canonical lower case on output):

========== =====================================================================
``12-15``  move the piece on 12 to 15 (backward moves read ``15-12``)
``12x15``  the same, written with ``x`` because it lands on an opponent (optional)
``28-off`` bear the piece on 28 off the board
``30-off/2`` the same, naming the throw used where the squares do not tell (kendall-1978:
           several banked throws may bear a piece off 30)
``pass``   no move is possible (or a fate move is impossible): the turn is lost
``revive`` put a drowned piece back on the House of Rebirth (adelaida §28)
``risk``   leave the piece in the House of Water and hope for a 4 (kendall)
``return`` take the piece from the House of Water back to 15 (kendall)
``enter``  put a piece from the hand on square 1 with a throw of 1 (piccione)
========== =====================================================================

Where a throw is divided among the pieces (piccione), a move uses part of the throw: ``3-5``
with a throw of 4 moves the piece on 3 by two and leaves two points to play.

A move through the House of Ba (adelaida §25) is written origin to final square: ``17-25``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .errors import NotationError
from .variants import OFF

__all__ = ["Move", "MOVE", "PASS", "REVIVE", "RISK", "RETURN", "ENTER", "parse_move"]

MOVE = "move"
PASS = "pass"
REVIVE = "revive"
RISK = "risk"
RETURN = "return"
ENTER = "enter"
_WORD_KINDS = (PASS, REVIVE, RISK, RETURN, ENTER)


class Move(NamedTuple):
    """A player's decision.  ``origin``/``target`` are squares 1-30, ``target`` may be OFF (31);
    both are 0 for the word moves (pass, revive, risk, return, enter).  ``throw`` names the throw a
    bearing off uses where several could (kendall-1978 from 30), else 0."""

    kind: str
    origin: int = 0
    target: int = 0
    throw: int = 0

    @classmethod
    def step(cls, origin: int, target: int) -> Move:
        return cls(MOVE, origin, target)

    @property
    def is_step(self) -> bool:
        return self.kind == MOVE

    @property
    def bears_off(self) -> bool:
        return self.kind == MOVE and self.target == OFF

    def text(self, capture: bool = False) -> str:
        """Canonical notation; ``capture`` writes ``x`` for a move landing on an opponent."""
        if self.kind != MOVE:
            return self.kind
        target = "off" if self.target == OFF else str(self.target)
        used = f"/{self.throw}" if self.throw else ""
        return f"{self.origin}{'x' if capture else '-'}{target}{used}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move({self.text()!r})"


#: ASCII digits only (``\d`` would read "９-１１" as 9-11)
_STEP = re.compile(r"([0-9]{1,2})\s*([-x])\s*([0-9]{1,2}|off)(?:\s*/\s*([1-6]))?\Z", re.IGNORECASE)


#: moves already read, by their text (a Move is immutable; only valid texts are kept, and
#: only so many: a game server reads the same few hundred notations again and again)
_PARSED: dict[str, Move] = {}
_PARSED_MAX = 4096


def parse_move(text: str, *, line: int = 1, column: int = 1) -> Move:
    """Parse one move in the notation above; raise :class:`NotationError` naming what was expected."""
    move = _PARSED.get(text)
    if move is None:
        move = _parse_move(text, line, column)
        if len(_PARSED) < _PARSED_MAX:
            _PARSED[text] = move
    return move


def _parse_move(text: str, line: int, column: int) -> Move:
    for i, ch in enumerate(text):
        if ch.isdigit() and not ch.isascii():
            raise NotationError(
                f"{ch!r} is not an ASCII digit: {text!r}", line, column + i, "the digits 0-9"
            )
    word = text.strip().lower()
    if word in _WORD_KINDS:
        return Move(word)
    match = _STEP.match(word)
    if not match:
        raise NotationError(
            f"not a move: {text!r}",
            line,
            column,
            "a move such as 12-15, 12x15, 28-off, 30-off/2, pass, revive, risk, return or enter",
        )
    origin = int(match.group(1))
    target = OFF if match.group(3) == "off" else int(match.group(3))
    if not 1 <= origin <= 30:
        raise NotationError(
            f"square {origin} is off the track", line, column, "an origin square 1-30"
        )
    if not 1 <= target <= OFF or target == origin:
        raise NotationError(
            f"target {match.group(3)} is not a square",
            line,
            column + match.start(3),
            "a target square 1-30 or off",
        )
    used = int(match.group(4)) if match.group(4) else 0
    if used and target != OFF:
        raise NotationError(
            f"only a bearing off names its throw: {text!r}",
            line,
            column + match.start(4),
            "a move such as 30-off/2",
        )
    return Move(MOVE, origin, target, used)
