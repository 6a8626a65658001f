"""Helpers for the engine tests: build positions in our notation, list moves, play random games.

Every scenario builds its position through the one-line notation (``Position.from_fen``), so
the tests read like the positions they describe.  ``fen(...)`` writes that line from lists of
squares; the tests compare results with ``.fen()`` of the expected position.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from senet.engine import OFF, VARIANTS, Position, find_variant, parse_move
from senet.engine.moves import Move

ALL_VARIANTS = tuple(VARIANTS)
ADELAIDAS = ("adelaida", "adelaida-long")


def board(a: Iterable[int] = (), b: Iterable[int] = ()) -> str:
    """The board field: three rows of ten, ``A``/``B``/``.`` in track order."""
    cells = ["."] * 30
    for sq in a:
        assert cells[sq - 1] == ".", sq
        cells[sq - 1] = "A"
    for sq in b:
        assert cells[sq - 1] == ".", sq
        cells[sq - 1] = "B"
    return "/".join("".join(cells[i : i + 10]) for i in (0, 10, 20))


def fen(
    variant: str,
    a: Iterable[int] = (),
    b: Iterable[int] = (),
    turn: str = "A",
    throw: int | None = None,
    *,
    extra: tuple[int, int] = (0, 0),
    skip: tuple[int, int] = (0, 0),
    captured: tuple[int, int] = (0, 0),
    drowned: tuple[int, int] = (0, 0),
    pending: str = "",
    bank: Iterable[int] = (),
    returned: Iterable[int] = (),
    hand: tuple[int, int] = (0, 0),
    direction: str = "",
    divided: bool = False,
    entered: bool = False,
) -> str:
    """The notation line of a position (pieces not listed anywhere are borne off)."""
    parts = [variant, board(a, b), turn, str(throw) if throw else "-"]
    for key, pair in (
        ("extra", extra),
        ("skip", skip),
        ("captured", captured),
        ("drowned", drowned),
    ):
        if pair != (0, 0):
            parts.append(f"{key}={pair[0]}/{pair[1]}")
    if pending:
        parts.append(f"pending={pending}")
    if bank:
        parts.append("bank=" + ",".join(map(str, sorted(bank))))
    if returned:
        parts.append("returned=" + ",".join(map(str, sorted(returned))))
    if hand != (0, 0):
        parts.append(f"hand={hand[0]}/{hand[1]}")
    if direction:
        parts.append(f"direction={direction}")
    if divided:
        parts.append("divided=yes")
    if entered:
        parts.append("entered=yes")
    return " ".join(parts)


def pos(
    variant: str,
    a: Iterable[int] = (),
    b: Iterable[int] = (),
    turn: str = "A",
    throw: int | None = None,
    **fields,
) -> Position:
    """``Position.from_fen(fen(...))``."""
    return Position.from_fen(fen(variant, a, b, turn, throw, **fields))


def moves(position: Position) -> list[str]:
    """The legal moves as sorted notation strings (``x`` not written)."""
    return sorted(m.text() for m in position.legal_moves())


def play(position: Position, *actions: str | int) -> Position:
    """Apply throws (ints) and moves (notation) in turn, through the legality checks."""
    for action in actions:
        if isinstance(action, int):
            position = position.apply_throw(action)
        else:
            position = position.apply(parse_move(action))
    return position


def after(position: Position, move: str) -> str:
    """The notation of the position after ``move``."""
    return position.apply(parse_move(move)).fen()


#: Variants where uniformly random moves almost never finish a game, and the share of moves
#: played instead by :func:`purposeful_move`.  Jéquier: captured pieces and the House of Water
#: send pieces back to the start, backward moves are compulsory and nothing bears off before
#: every piece is on the last row; no uniformly random game of 20 ended within 20,000 moves.
PURPOSEFUL_SHARE = {"jequier": 0.5}


def purposeful_move(moves: list[Move]) -> Move:
    """Bear off if possible, else move the rearmost piece that can go forward, else the best
    way back."""

    def key(m: Move) -> int:
        if m.kind != "move":
            return 2000 if m.kind in ("revive", "return") else 0
        if m.target == OFF:
            return 4000
        return 3000 + 40 - m.origin if m.target > m.origin else 1000 + m.target

    return max(moves, key=key)


def random_game(
    variant: str, rng: random.Random, max_actions: int = 20000, start: Position | None = None
) -> Iterator[tuple[Position, Move | int | None]]:
    """Yield (position, action taken there) along one random game; the last has action None.

    Moves are uniformly random, except a share of them in the variants of PURPOSEFUL_SHARE."""
    share = PURPOSEFUL_SHARE.get(variant, 0.0)
    p = start or Position.initial(find_variant(variant))
    for _ in range(max_actions):
        if p.is_over():
            yield p, None
            return
        if p.is_chance():
            value = rng.choice([v for v, _ in p.chance_outcomes()])
            yield p, value
            p = p.apply_throw(value)
        else:
            options = p.legal_moves()
            move = (
                purposeful_move(options) if share and rng.random() < share else rng.choice(options)
            )
            yield p, move
            p = p.apply(move)
    raise AssertionError(f"{variant}: a random game did not end within {max_actions} actions")


__all__ = [
    "PURPOSEFUL_SHARE",
    "purposeful_move",
    "ADELAIDAS",
    "ALL_VARIANTS",
    "OFF",
    "after",
    "board",
    "fen",
    "moves",
    "play",
    "pos",
    "random_game",
]
