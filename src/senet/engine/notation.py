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
grammar and reads it back to an equal position.
"""

from __future__ import annotations

import re

from .errors import InvalidPosition, NotationError
from .position import Position
from .state import BACKWARD, FORWARD, NO_DIRECTION, NO_PENDING, PENDING_FATE, PENDING_WATER
from .variants import UnknownVariant, find_variant

__all__ = ["format_position", "parse_position"]

_PENDING = {"fate": PENDING_FATE, "water": PENDING_WATER}
_PAIR_FIELDS = ("extra", "skip", "captured", "drowned")
#: the ``key=value`` fields, in the order they are written: those of a position after its
#: board, turn and throw
_FIELD_ORDER = InvalidPosition.FIELDS[InvalidPosition.FIELDS.index("throw") + 1 :]
_DIRECTIONS = {"forward": FORWARD, "backward": BACKWARD}
_FLAGS = ("divided", "entered")
_LIST = re.compile(r"[0-9]{1,2}(,[0-9]{1,2})*\Z")  # ASCII digits only


def format_position(position: Position) -> str:
    cells = []
    for sq in range(1, 31):
        owner = position.owner(sq)
        cells.append("." if owner is None else "AB"[owner])
    board = "/".join("".join(cells[i : i + 10]) for i in (0, 10, 20))
    parts = [
        position.variant.name,
        board,
        "AB"[position.turn],
        str(position.throw) if position.throw else "-",
    ]
    getters = {
        "extra": position.extra,
        "skip": position.skip,
        "captured": position.captured,
        "drowned": position.drowned,
    }
    for name in _PAIR_FIELDS:
        a, b = getters[name](0), getters[name](1)
        if a or b:
            parts.append(f"{name}={a}/{b}")
    if position.pending != NO_PENDING:
        parts.append(f"pending={position.pending_name}")
    if position.banked:
        parts.append("bank=" + ",".join(map(str, position.banked)))
    if position.returned:
        parts.append("returned=" + ",".join(map(str, position.returned)))
    if position.hand(0) or position.hand(1):
        parts.append(f"hand={position.hand(0)}/{position.hand(1)}")
    if position.direction != NO_DIRECTION:
        parts.append("direction=" + ("forward" if position.direction == FORWARD else "backward"))
    if position.divided:
        parts.append("divided=yes")
    if position.entered:
        parts.append("entered=yes")
    return " ".join(parts)


_BOARD = re.compile(r"[AB.]{10}/[AB.]{10}/[AB.]{10}\Z")
_PAIR = re.compile(r"([0-9]{1,2})/([0-9]{1,2})\Z")


def parse_position(text: str, *, line: int = 1, column: int = 1) -> Position:
    """Read a position; raise :class:`NotationError` naming the column and what was expected.

    ``line`` and ``column`` say where ``text`` starts in a larger document (a game record).
    """
    bad_space = re.search(r"^\s|\s\Z|\s\s|[^\S ]", text)
    if bad_space:
        raise NotationError(
            "fields are separated by single spaces, with no space around the line",
            line,
            column + bad_space.start(),
            "single spaces between fields",
        )
    tokens: list[tuple[int, str]] = []
    pos = 0
    for token in text.split(" "):
        tokens.append((column + pos, token))
        pos += len(token) + 1
    if len(tokens) < 4:
        where = tokens[-1][0] + len(tokens[-1][1]) if tokens else column
        missing = ("variant name", "board", "side on turn (A or B)", "throw (1-5 or -)")[
            len(tokens)
        ]
        raise NotationError("the position ends too early", line, where, missing)
    (c_var, name), (c_board, board), (c_turn, turn), (c_throw, throw) = tokens[:4]
    try:
        variant = find_variant(name)
    except UnknownVariant as exc:
        raise NotationError(str(exc), line, c_var, "a variant name") from None
    if variant.name != name:
        raise NotationError(
            f"write the variant's name {variant.name!r}, not {name!r}", line, c_var, variant.name
        )
    if not _BOARD.match(board):
        # the first character that breaks the grammar: '/' after squares 10 and 20, else A, B or .
        bad = next(
            (
                i
                for i, ch in enumerate(board[:32])
                if ch != "/"
                and (i in (10, 21) or ch not in "AB.")
                or ch == "/"
                and i not in (10, 21)
            ),
            min(len(board), 32),
        )
        raise NotationError(
            f"malformed board {board!r}",
            line,
            c_board + bad,
            "three rows of ten squares (A, B or .) separated by /",
        )
    if turn not in ("A", "B"):
        raise NotationError(f"side on turn {turn!r}", line, c_turn, "A or B")
    if throw == "-":
        throw_value = 0
    elif len(throw) == 1 and "0" <= throw <= "9":
        throw_value = int(throw)
    else:
        raise NotationError(
            f"throw {throw!r}", line, c_throw, "a throw such as 3, or - when a throw is due"
        )
    if throw_value and throw_value not in variant.instrument.values:
        raise NotationError(
            f"a throw of {throw_value} is impossible in {variant.name}",
            line,
            c_throw,
            "one of " + ", ".join(map(str, variant.instrument.values)) + " or -",
        )
    values = {
        "extra": (0, 0),
        "skip": (0, 0),
        "captured": (0, 0),
        "drowned": (0, 0),
        "hand": (0, 0),
    }
    pending = NO_PENDING
    direction = NO_DIRECTION
    flags = {"divided": False, "entered": False}
    lists: dict[str, tuple[int, ...]] = {"bank": (), "returned": ()}
    field_cols: dict[str, int] = {}
    last = -1
    for col, token in tokens[4:]:
        key, eq, value = token.partition("=")
        if not eq or key not in _FIELD_ORDER:
            raise NotationError(
                f"unknown field {token!r}",
                line,
                col,
                "extra=, skip=, captured=, drowned=, pending=, bank=, returned=, hand=, "
                "direction=, divided= or entered=",
            )
        order = _FIELD_ORDER.index(key)
        field_cols[key] = col
        if order <= last:
            raise NotationError(
                f"field {key!r} out of order or repeated",
                line,
                col,
                "fields in the order " + ", ".join(_FIELD_ORDER),
            )
        last = order
        vcol = col + len(key) + 1
        if key == "pending":
            if value not in _PENDING:
                raise NotationError(f"pending {value!r}", line, vcol, "fate or water")
            pending = _PENDING[value]
            continue
        if key == "direction":
            if value not in _DIRECTIONS:
                raise NotationError(f"direction {value!r}", line, vcol, "forward or backward")
            direction = _DIRECTIONS[value]
            continue
        if key in _FLAGS:
            if value != "yes":
                raise NotationError(f"{key} {value!r}", line, vcol, f"yes (or leave {key}= out)")
            flags[key] = True
            continue
        if key in lists:
            if not _LIST.match(value):
                raise NotationError(
                    f"{key} {value!r}", line, vcol, "numbers separated by commas, such as 1,4"
                )
            lists[key] = tuple(int(n) for n in value.split(","))
            continue
        match = _PAIR.match(value)
        if not match:
            raise NotationError(f"{key} {value!r}", line, vcol, "two counts such as 1/0")
        pair = (int(match.group(1)), int(match.group(2)))
        if pair == (0, 0):
            raise NotationError(
                f"{key}=0/0 is written by leaving the field out", line, col, "no zero fields"
            )
        values[key] = pair
    squares = board.replace("/", "")
    pieces = (
        [i + 1 for i, ch in enumerate(squares) if ch == "A"],
        [i + 1 for i, ch in enumerate(squares) if ch == "B"],
    )
    captured, drowned, hand = values["captured"], values["drowned"], values["hand"]
    off = tuple(
        variant.pieces - len(pieces[s]) - captured[s] - drowned[s] - hand[s] for s in (0, 1)
    )
    if min(off) < 0:
        reason = InvalidPosition(
            "too_many_pieces", field="board", variant=variant.name, pieces=variant.pieces
        )
        raise NotationError(
            reason.message,
            line,
            c_board,
            f"at most {variant.pieces} pieces a side",
            reason=reason,
        )
    try:
        return Position.from_parts(
            variant,
            (pieces[0], pieces[1]),
            turn="AB".index(turn),
            throw=throw_value,
            extra=values["extra"],
            skip=values["skip"],
            off=off,  # type: ignore[arg-type]
            captured=captured,
            drowned=drowned,
            pending=pending,
            bank=lists["bank"],
            returned=lists["returned"],
            hand=hand,
            direction=direction,
            divided=flags["divided"],
            entered=flags["entered"],
        )
    except InvalidPosition as exc:
        # point at the square, else the field at fault (the start when the field is not written)
        field_cols.update(board=c_board, turn=c_turn, throw=c_throw)
        where = field_cols.get(exc.field, column)
        if exc.square is not None:
            where = c_board + exc.square - 1 + (exc.square - 1) // 10  # '/' after 10 and 20
        raise NotationError(
            f"impossible position: {exc}", line, where, "a position the rules allow", reason=exc
        ) from None
