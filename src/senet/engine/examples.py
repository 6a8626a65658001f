"""Example positions for every movement rule of a variant, found from the variant's own data.

The rule diagrams of the site and the lessons start from these.  Nothing here is drawn by
hand: each example is a small position in which the engine itself shows the rule (a move it
allows, or a reason from :mod:`senet.engine.explain` it gives against one), searched for
among a few candidate positions built from the variant's facts (its throws, safe squares,
Houses, bearing-off squares ...).  A variant without a rule gets no example of it; a change of
rules changes the examples with it.

An :class:`Example` names its rule ``topic`` (``move``, ``attack``, ``protection``,
``triple``, ``blocked``, ``jump``, ``safe``, ``must_stop``, ``backward``, ``extra_throw``,
``priority``, ``gate``, ``drown_attack``, ``bear_off``, ``house``, ``enter``), the ``square`` it is about (a House,
else 0) and the ``focus`` piece whose move or reason makes the point.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .explain import why_not
from .position import Position
from .state import PENDING_FATE
from .variants import OFF, SQUARES, Backward, HouseKind, Passing, Protection, Variant

__all__ = ["Example", "examples"]


@dataclass(frozen=True)
class Example:
    topic: str
    position: Position
    focus: int
    square: int = 0

    @property
    def key(self) -> str:
        return f"{self.topic}-{self.square}" if self.square else self.topic


def _position(
    v: Variant, a: Iterable[int], b: Iterable[int], throw: int, **extra: object
) -> Position | None:
    """The position with A to play ``throw``, or None when the rules cannot have it."""
    a, b = tuple(a), tuple(b)
    if len(a) > v.pieces or len(b) > v.pieces or set(a) & set(b):
        return None
    if any(not 1 <= sq <= SQUARES for sq in a + b) or throw not in v.instrument.values:
        return None
    try:
        position = Position.from_parts(v, (a, b), throw=throw, **extra)  # type: ignore[arg-type]
    except ValueError:
        return None
    return None if position.is_over() else position


def _moves_of(position: Position, square: int) -> list[int]:
    return [m.target for m in position.legal_moves() if m.is_step and m.origin == square]


def _throws(v: Variant) -> tuple[int, ...]:
    """Throws without an extra throw first (a plainer example), then the others."""
    values = v.instrument.values
    return tuple(n for n in values if n not in v.extra_throws) + tuple(
        n for n in values if n in v.extra_throws
    )


def _column(sq: int) -> int:
    """The column of ``sq`` on the drawn board (the middle row runs right to left)."""
    row, k = divmod(sq - 1, 10)
    return 9 - k if row == 1 else k


def _beside(v: Variant, *squares: int) -> int:
    """A square in another row, in the column of ``squares[0]``, that no rule cares about: the
    opponent's piece that keeps an example game going stands there, out of the way."""
    column, rows = _column(squares[0]), {(sq - 1) // 10 for sq in squares}
    for row in (1, 0, 2):
        sq = row * 10 + (9 - column if row == 1 else column) + 1
        if row not in rows and sq not in v.houses and sq not in squares:
            return sq
    return next(sq for sq in range(1, SQUARES + 1) if sq not in squares and sq not in v.houses)


def _first(candidates: Iterable[Example | None]) -> Example | None:
    return next((c for c in candidates if c is not None), None)


def _reason_is(example: Example | None, kind: str) -> Example | None:
    if example is None:
        return None
    reason = why_not(example.position, example.focus)
    return example if reason is not None and reason.kind == kind else None


def _moves_to(example: Example | None, target: int) -> Example | None:
    if example is None or target not in _moves_of(example.position, example.focus):
        return None
    return example


def _ex(
    v: Variant,
    topic: str,
    a: Iterable[int],
    b: Iterable[int],
    throw: int,
    focus: int,
    square: int = 0,
    **kw: object,
) -> Example | None:
    position = _position(v, a, b, throw, **kw)
    return Example(topic, position, focus, square) if position else None


def _enter(v: Variant) -> Example | None:
    """piccione: a whole throw of 1 enters a piece from the hand on square 1."""
    if not v.divided_throws:
        return None
    hand = (v.pieces - 1, v.pieces - 1)
    return _ex(v, "enter", (5,), (12,), v.enter_throw, 0, hand=hand)


def _plain_move(v: Variant) -> Example | None:
    return _first(_moves_to(_ex(v, "move", (3,), (12,), n, 3), 3 + n) for n in _throws(v) if n > 1)


def _jump(v: Variant) -> Example | None:
    """A piece passing over a single opponent's piece on its way."""
    return _first(
        _moves_to(_ex(v, "jump", (3,), (4, 12), n, 3), 3 + n) for n in _throws(v) if n > 1
    )


def _gate(v: Variant) -> Example | None:
    """bell: a piece on a gate square that can move must move before any other."""

    def candidates() -> Iterator[Example | None]:
        for sq in sorted(v.gates):
            for n in _throws(v):
                helper = _beside(v, sq)
                yield _reason_is(_ex(v, "gate", (sq, helper), (1,), n, helper, sq), "gate")

    return _first(candidates())


def _attack(v: Variant) -> Example | None:
    return _first(
        _moves_to(_ex(v, "attack", (4,), (4 + n, 13), n, 4), 4 + n) for n in _throws(v) if n > 1
    )


def _protection(v: Variant) -> Example | None:
    return _first(
        _reason_is(_ex(v, "protection", (4, 12), (4 + n, 5 + n), n, 4), "protected")
        for n in _throws(v)
        if n > 1
    )


def _triple(v: Variant) -> Example | None:
    """adelaida §13: the middle of exactly three can be attacked."""
    if v.protection is not Protection.NEIGHBOUR_BUT_TRIPLE_MIDDLE:
        return None
    return _first(
        _moves_to(_ex(v, "triple", (4,), (3 + n, 4 + n, 5 + n), n, 4), 4 + n)
        for n in _throws(v)
        if n > 2
    )


def _blocked(v: Variant) -> Example | None:
    if v.passing is not Passing.SINGLES:
        return None
    return _first(
        _reason_is(_ex(v, "blocked", (4,), (5, 6, 14), n, 4), "blocked")
        for n in _throws(v)
        if n > 2
    )


def _safe(v: Variant) -> Example | None:
    def candidates() -> Iterator[Example | None]:
        for sq in sorted(v.safe):
            for n in _throws(v):
                # a second piece that can move keeps the first from moving back instead
                helper = _beside(v, sq - n, sq)
                b = (sq, _beside(v, sq - n, sq, helper))
                example = _ex(v, "safe", (sq - n, helper), b, n, sq - n, sq)
                yield _reason_is(example, "safe")
        for sq in sorted(v.safe):
            for n in _throws(v):
                # where each piece may go back (jequier), an own piece behind bars the way back
                b = (sq, _beside(v, sq - n, sq))
                example = _ex(v, "safe", (sq - n, sq - 2 * n), b, n, sq - n, sq)
                yield _reason_is(example, "safe")

    return _first(candidates())


def _must_stop(v: Variant) -> Example | None:
    def candidates() -> Iterator[Example | None]:
        for sq in sorted(v.must_stop):
            for n in _throws(v):
                if n > 1:
                    helper = _beside(v, sq - 1, sq + n - 1)
                    b = (_beside(v, sq - 1, sq + n - 1, helper),)
                    example = _ex(v, "must_stop", (sq - 1, helper), b, n, sq - 1, sq)
                    yield _reason_is(example, "must_stop")

    return _first(candidates())


def _backward(v: Variant) -> Example | None:
    if v.backward is Backward.NONE:
        return None

    def candidates() -> Iterator[Example | None]:
        for n in _throws(v):
            if 1 < n < 6:
                yield _moves_to(_ex(v, "backward", (6,), (6 + n, 7 + n), n, 6), 6 - n)
        for n in _throws(v):
            if 1 < n < 6:
                # a divided throw (piccione): every square within reach ahead is taken
                yield _moves_to(_ex(v, "backward", (6,), tuple(range(7, 7 + n)), n, 6), 6 - n)

    return _first(candidates())


def _extra_throw(v: Variant) -> Example | None:
    if not v.extra_throws:
        return None
    n = min(v.extra_throws)
    # (3, 9) where a throw of 5 is the only extra one (piccione): 8 must be free
    return _first(_moves_to(_ex(v, "extra_throw", a, (12,), n, 3), 3 + n) for a in ((3, 8), (3, 9)))


def _priority(v: Variant) -> Example | None:
    def candidates() -> Iterator[Example | None]:
        for sq in sorted(v.priority):
            for n in _throws(v):
                a = (sq - 5, sq)
                yield _reason_is(_ex(v, "priority", a, (_beside(v, *a),), n, sq - 5), "priority")

    return _first(candidates())


def _drown_attack(v: Variant) -> Example | None:
    def candidates() -> Iterator[Example | None]:
        for sq in sorted(v.drown_on_attack):
            for n in _throws(v):
                b = (sq, _beside(v, sq - n, sq))
                yield _moves_to(_ex(v, "drown_attack", (sq - n,), b, n, sq - n), sq)

    return _first(candidates())


def _bear_off(v: Variant) -> Example | None:
    """One piece on every square a piece bears off from, and a throw that bears one off."""
    squares = sorted(sq for sq, throws in v.bear_off.items() if throws)
    # not on a House that acts on its own (a drowning piece would hold up the others)
    acting = _TRANSIT + (HouseKind.WATER_CHOICE, HouseKind.FATE)
    squares = [sq for sq in squares if v.house_kind(sq) not in acting][: v.pieces]

    def candidates() -> Iterator[Example | None]:
        for sq in reversed(squares):
            for n in sorted(v.bear_off[sq]):
                example = _ex(v, "bear_off", squares, (_beside(v, *squares),), n, sq)
                yield _moves_to(example, OFF)

    return _first(candidates())


_TRANSIT = (HouseKind.BA, HouseKind.DROWN, HouseKind.SEND_BACK, HouseKind.TO_HAND)


def _house(v: Variant, sq: int) -> Example | None:
    """A piece about to land on House ``sq`` (for a House of Fate: one standing there with the
    throw of fate; for a House of Water choice: one that arrived there)."""
    kind = v.house_kind(sq)
    if kind is HouseKind.FATE:
        return _first(
            _ex(v, "house", (sq,), (_beside(v, sq),), n, sq, sq, pending=PENDING_FATE)
            for n in sorted(v.instrument.values)
        )

    def candidates() -> Iterator[Example | None]:
        for n in _throws(v):
            origin = sq - n
            example = _ex(v, "house", (origin,), (_beside(v, origin, sq),), n, origin, sq)
            if example is None:
                continue
            targets = _moves_of(example.position, origin)
            if kind is HouseKind.BA:
                if sq + n in targets:
                    yield example
            elif kind in (HouseKind.SEND_BACK, HouseKind.DROWN, HouseKind.TO_HAND):
                if sq in targets:
                    yield example
            elif sq in targets:
                yield example

    return _first(candidates())


def examples(v: Variant) -> list[Example]:
    """Every rule about movement of ``v`` that the engine can show, in reading order."""
    found = [
        _enter(v),
        _plain_move(v),
        _jump(v),
        _extra_throw(v),
        _attack(v),
        _protection(v),
        _triple(v),
        _blocked(v),
        _safe(v),
        _backward(v),
        _priority(v),
        _gate(v),
        _must_stop(v),
    ]
    found += [_house(v, sq) for sq in sorted(v.houses)]
    found += [_drown_attack(v), _bear_off(v)]
    return [e for e in found if e is not None]
