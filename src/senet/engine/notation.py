"""One-line position notation, in the spirit of chess's FEN.

::

    standard ABABABABAB/........../.......... A -
    adelaida .A.B...A../....AB..../.....B.... B 3 extra=0/1 drowned=1/0
    adelaida .........A/....B...../.....A.... A - skip=0/1 pending=fate
    kendall-1978 BABABABABA/B...A...../.....A.... A 2 bank=4,5 returned=15
    piccione A...B..A../........../.......... A 3 hand=3/4 direction=forward divided=yes

Fields, separated by single spaces:

1. the variant's name;
2. the 30 squares in track order, three rows of ten separated by ``/`` (row 2 is written in
   track order too, although the board draws it right to left): ``A`` a piece of seat A (who
   moves first: the spools in Adelaida), ``B`` a piece of seat B, ``.`` an empty square;
3. the seat on turn, ``A`` or ``B``;
4. the throw waiting to be used, or ``-`` when a throw is due;
5. then, only when not zero and always in this order: ``extra=a/b`` extra throws owed,
   ``skip=a/b`` turns to skip (House of Net), ``captured=a/b`` pieces captured (Bell),
   ``drowned=a/b`` pieces drowned and waiting to be revived (Adelaida), and
   ``pending=fate`` (a throw of fate is due, or with a throw: to be played) or
   ``pending=water`` (the House of Water choice of the piece on 27), ``bank=1,4`` the other
   throws of the turn not yet used (kendall-1978, where all throws come before the moves) and
   ``returned=15`` the squares of pieces back from the House of Water that have not moved;
   then for piccione: ``hand=a/b`` the pieces waiting in the hand to enter,
   ``direction=forward`` (or ``backward``) the direction of the turn's moves once one is made,
   ``divided=yes`` when the throw is the rest of a throw already divided (no piece enters
   with it), and ``entered=yes`` when the throw in play (or due) must first move the piece
   just entered on square 1.

Pieces borne off are not written: they are the pieces not found elsewhere.  The canonical
form is what :func:`format_position` writes; :func:`parse_position` accepts exactly that
grammar and reads it back to an equal position.  The grammar itself is :mod:`senet.engine.fen`
(below the positions, which write and read themselves with it: :meth:`Position.fen`,
:meth:`Position.from_fen`).
"""

from __future__ import annotations

from .position import Position

__all__ = ["format_position", "parse_position"]


def format_position(position: Position) -> str:
    """The canonical notation of ``position`` (:meth:`Position.fen`)."""
    return position.fen()


def parse_position(text: str, *, line: int = 1, column: int = 1) -> Position:
    """Read a position; raise :class:`NotationError` naming the column and what was expected.

    ``line`` and ``column`` say where ``text`` starts in a larger document (a game record).
    """
    return Position.from_fen(text, line=line, column=column)
