"""The text of the one-line position notation (:mod:`senet.engine.notation` describes it),
written from a raw state and read into plain fields.

This module knows the grammar and nothing of :class:`~senet.engine.position.Position`:
the position writes its notation with :func:`write` and builds itself from what :func:`read`
gives (checking that the rules allow it), so that the notation sits below the positions and
the positions import it, never the other way round.

>>> from senet.engine import find_variant
>>> reading = read("standard ABABABABAB/........../.......... A -")
>>> reading.variant is find_variant("standard"), reading.pieces[0][:3], reading.turn
(True, (1, 3, 5), 0)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import state as raw
from .errors import InvalidPosition, NotationError
from .variants import UnknownVariant, Variant, find_variant

__all__ = ["Reading", "read", "write"]

_PENDING = {"fate": raw.PENDING_FATE, "water": raw.PENDING_WATER}
_PENDING_NAMES = {code: name for name, code in _PENDING.items()}
_PAIR_FIELDS = ("extra", "skip", "captured", "drowned")
_PAIR_INDEX = {
    "extra": raw.EXTRA,
    "skip": raw.SKIP,
    "captured": raw.CAPTURED,
    "drowned": raw.DROWNED,
}
#: the ``key=value`` fields, in the order they are written: those of a position after its
#: board, turn and throw
_FIELD_ORDER = InvalidPosition.FIELDS[InvalidPosition.FIELDS.index("throw") + 1 :]
_DIRECTIONS = {"forward": raw.FORWARD, "backward": raw.BACKWARD}
_FLAGS = ("divided", "entered")
_LIST = re.compile(r"[0-9]{1,2}(,[0-9]{1,2})*\Z")  # ASCII digits only
_BOARD = re.compile(r"[AB.]{10}/[AB.]{10}/[AB.]{10}\Z")
_PAIR = re.compile(r"([0-9]{1,2})/([0-9]{1,2})\Z")


def _squares(mask: int) -> tuple[int, ...]:
    return tuple(sq for sq in range(1, 31) if mask >> (sq - 1) & 1)


def write(variant_name: str, s: Sequence[int]) -> str:
    """The canonical notation of raw state ``s`` of the variant named ``variant_name``."""
    a, b = s[raw.MASK], s[raw.MASK + 1]
    cells = ["A" if a >> (sq - 1) & 1 else "B" if b >> (sq - 1) & 1 else "." for sq in range(1, 31)]
    board = "/".join("".join(cells[i : i + 10]) for i in (0, 10, 20))
    throw = s[raw.THROW]
    parts = [variant_name, board, "AB"[s[raw.TURN]], str(throw) if throw else "-"]
    for name in _PAIR_FIELDS:
        first, second = s[_PAIR_INDEX[name]], s[_PAIR_INDEX[name] + 1]
        if first or second:
            parts.append(f"{name}={first}/{second}")
    if s[raw.PENDING] != raw.NO_PENDING:
        parts.append(f"pending={_PENDING_NAMES[s[raw.PENDING]]}")
    if bank := raw.bank_values(s[raw.BANK]):
        parts.append("bank=" + ",".join(map(str, bank)))
    if returned := _squares(s[raw.RETURNED]):
        parts.append("returned=" + ",".join(map(str, returned)))
    if s[raw.HAND] or s[raw.HAND + 1]:
        parts.append(f"hand={s[raw.HAND]}/{s[raw.HAND + 1]}")
    if s[raw.DIRECTION] != raw.NO_DIRECTION:
        parts.append("direction=" + ("forward" if s[raw.DIRECTION] == raw.FORWARD else "backward"))
    if s[raw.DIVIDED]:
        parts.append("divided=yes")
    if s[raw.ENTERED]:
        parts.append("entered=yes")
    return " ".join(parts)


@dataclass(frozen=True)
class Reading:
    """A well-written position, field by field, as
    :meth:`senet.engine.position.Position.from_parts` takes them, and where each field was
    written (to point an error of the rules at it: :meth:`impossible`)."""

    variant: Variant
    pieces: tuple[tuple[int, ...], tuple[int, ...]]
    turn: int
    throw: int
    extra: tuple[int, int]
    skip: tuple[int, int]
    off: tuple[int, int]
    captured: tuple[int, int]
    drowned: tuple[int, int]
    pending: int
    bank: tuple[int, ...]
    returned: tuple[int, ...]
    hand: tuple[int, int]
    direction: int
    divided: bool
    entered: bool
    #: the line of the text, its first column and each written field's column
    line: int = field(default=1, compare=False)
    column: int = field(default=1, compare=False)
    columns: dict[str, int] = field(default_factory=dict, compare=False)

    def impossible(self, exc: InvalidPosition) -> NotationError:
        """The error for a well-written position that the rules reject: it points at the
        square at fault, else at the field (at the start when the field is not written)."""
        where = self.columns.get(exc.field, self.column)
        if exc.square is not None:
            # '/' after squares 10 and 20
            where = self.columns["board"] + exc.square - 1 + (exc.square - 1) // 10
        return NotationError(
            f"impossible position: {exc}",
            self.line,
            where,
            "a position the rules allow",
            reason=exc,
        )


def read(text: str, *, line: int = 1, column: int = 1) -> Reading:
    """Read the fields of a position; raise :class:`NotationError` naming the column and what
    was expected.  ``line`` and ``column`` say where ``text`` starts in a larger document (a
    game record).  Whether the rules allow the position is not checked here."""
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
    pending = raw.NO_PENDING
    direction = raw.NO_DIRECTION
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
        tuple(i + 1 for i, ch in enumerate(squares) if ch == "A"),
        tuple(i + 1 for i, ch in enumerate(squares) if ch == "B"),
    )
    captured, drowned, hand = values["captured"], values["drowned"], values["hand"]
    off = (
        variant.pieces - len(pieces[0]) - captured[0] - drowned[0] - hand[0],
        variant.pieces - len(pieces[1]) - captured[1] - drowned[1] - hand[1],
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
    field_cols.update(board=c_board, turn=c_turn, throw=c_throw)
    return Reading(
        variant,
        pieces,
        turn="AB".index(turn),
        throw=throw_value,
        extra=values["extra"],
        skip=values["skip"],
        off=off,
        captured=captured,
        drowned=drowned,
        pending=pending,
        bank=lists["bank"],
        returned=lists["returned"],
        hand=hand,
        direction=direction,
        divided=flags["divided"],
        entered=flags["entered"],
        line=line,
        column=column,
        columns=field_cols,
    )
