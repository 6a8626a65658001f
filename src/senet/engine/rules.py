"""The movement rules, compiled once per variant into flat tables and bit masks.

This is the hot path of every playout and every search, so the board is two 30-bit integers
(bit ``k-1`` set = a piece on square ``k``) and every per-square fact of the variant is looked
up in a list.  The functions here are pure: they take masks and return a target square, and
never build objects.  :mod:`senet.engine.position` turns their answers into moves and states.
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import copy
from functools import cache

from .variants import (
    OFF,
    SQUARES,
    Backward,
    Capture,
    HouseKind,
    Passing,
    Protection,
    Scoring,
    Variant,
)

__all__ = [
    "Tables",
    "tables_for",
    "step",
    "forward_origins",
    "VICTIM",
    "iter_squares",
    "free_square_behind",
]

#: Added to a target square returned by :func:`step` when the move lands on an opponent.
VICTIM = 64
TARGET = 63
ALL_SQUARES = (1 << SQUARES) - 1

_PROTECT_NONE, _PROTECT_NEIGHBOUR, _PROTECT_TRIPLE = 0, 1, 2


def bit(square: int) -> int:
    return 1 << (square - 1)


class Tables:
    """Everything :func:`step` needs about a variant, precomputed.

    Lists are indexed by square (0 and 31 padding), so ``kind[d]`` needs no bounds check.
    """

    __slots__ = (
        "variant",
        "path",
        "neigh",
        "both",
        "far",
        "safe",
        "kind",
        "bear_off",
        "exit_only",
        "stop_mask",
        "singles",
        "protection",
        "drown_attack",
        "capture_remove",
        "backward",
        "priority",
        "extra_throws",
        "water_sq",
        "water_bit",
        "fate_sq",
        "fate_bit",
        "rebirth",
        "revival",
        "race",
        "pieces",
        "throws",
        "ba_sq",
        "moves",
        "parallel",
        "board_origins",
        "off_origins",
        "by_left",
        "by_right",
        "gates",
        "extra_after_pass",
        "past_three",
        "home",
        "waiting",
        "back_to_empty",
        "send_back",
        "throws_first",
        "wait_sq",
        "wait_bit",
        "guarded",
        "bear_off_optional",
        "divided",
        "enter_throw",
        "no_capture",
        "no_back",
        "to_hand_sq",
        "_exposed",
    )

    def __init__(self, v: Variant) -> None:
        self.variant = v
        self.path = [[0] * (SQUARES + 2) for _ in range(SQUARES + 2)]
        for a in range(1, SQUARES + 1):
            for b in range(1, SQUARES + 1):
                lo, hi = min(a, b), max(a, b)
                mask = 0
                for sq in range(lo + 1, hi):
                    mask |= bit(sq)
                self.path[a][b] = mask
        self.neigh = [0] * (SQUARES + 2)
        self.both = [0] * (SQUARES + 2)
        self.far = [0] * (SQUARES + 2)
        for d in range(1, SQUARES + 1):
            for nb in (d - 1, d + 1):
                # kendall rule 5: pieces on the unprotected squares do not protect *each other*
                if 1 <= nb <= SQUARES and not (d in v.unprotected and nb in v.unprotected):
                    self.neigh[d] |= bit(nb)
            if 2 <= d <= SQUARES - 1:
                self.both[d] = bit(d - 1) | bit(d + 1)
            for fb in (d - 2, d + 2):
                if 1 <= fb <= SQUARES:
                    self.far[d] |= bit(fb)
        self.safe = sum(bit(sq) for sq in v.safe)
        self.kind: list[HouseKind | None] = [v.house_kind(sq) for sq in range(SQUARES + 2)]
        for sq, kind in enumerate(self.kind):
            if kind is HouseKind.PLAIN:
                self.kind[sq] = None  # plain Houses need no effect in the hot path
        self.bear_off = [v.bear_off.get(sq, frozenset()) for sq in range(SQUARES + 2)]
        self.exit_only = [sq in v.exit_only for sq in range(SQUARES + 2)]
        self.stop_mask = sum(bit(sq) for sq in v.must_stop)
        self.singles = v.passing is Passing.SINGLES
        self.protection = {
            Protection.NONE: _PROTECT_NONE,
            Protection.NEIGHBOUR: _PROTECT_NEIGHBOUR,
            Protection.NEIGHBOUR_BUT_TRIPLE_MIDDLE: _PROTECT_TRIPLE,
        }[v.protection]
        self.drown_attack = [sq in v.drown_on_attack for sq in range(SQUARES + 2)]
        self.capture_remove = v.capture is Capture.REMOVE
        self.backward: Backward = v.backward
        self.priority = sum(bit(sq) for sq in v.priority)
        self.extra_throws = v.extra_throws
        water = v.squares_of(HouseKind.WATER_CHOICE)
        self.water_sq = water[0] if water else 0
        self.water_bit = bit(self.water_sq) if water else 0
        fate = v.squares_of(HouseKind.FATE)
        self.fate_sq = fate[0] if fate else 0
        self.fate_bit = bit(self.fate_sq) if fate else 0
        self.rebirth = v.rebirth_square
        self.revival = bool(v.squares_of(HouseKind.DROWN))
        self.race = v.scoring is Scoring.RACE
        self.pieces = v.pieces
        self.throws = frozenset(v.instrument.values)
        ba = v.squares_of(HouseKind.BA)
        self.ba_sq = ba[0] if ba else -1
        #: interned step moves, moves[origin][target], so that generating a move builds nothing
        from .moves import MOVE, Move

        self.moves = [[Move(MOVE, o, d) for d in range(OFF + 1)] for o in range(SQUARES + 1)]
        # Bit-parallel forward moves (see forward_origins) where passing is free and no House
        # of Ba or triple rule needs a square-by-square look.
        self.parallel = not self.singles and self.ba_sq < 0 and self.protection != _PROTECT_TRIPLE
        self.board_origins = [0] * 7  # by throw: origins whose piece lands on the board
        self.off_origins = [0] * 7  # by throw: origins whose piece bears off
        for n in range(1, 7):
            for o in range(1, SQUARES + 1):
                if self.exit_only[o] or o + n > SQUARES:
                    if n in self.bear_off[o]:
                        self.off_origins[n] |= bit(o)
                elif not self.path[o][o + n] & self.stop_mask:
                    self.board_origins[n] |= bit(o)
        #: squares protected by a neighbour on their left (square - 1) or right (square + 1):
        #: all but the pairs inside ``v.unprotected`` (kendall rule 5)
        pairs = sum(bit(sq) for sq in v.unprotected)
        self.by_left = ALL_SQUARES & ~(pairs & (pairs << 1))
        self.by_right = ALL_SQUARES & ~(pairs & (pairs >> 1))
        self.gates = sum(bit(sq) for sq in v.gates)
        self.extra_after_pass = v.extra_after_pass
        #: jequier: no move passes three opponents in a row
        self.past_three = v.passing is Passing.NOT_PAST_THREE
        #: jequier: bearing off only while every piece of the player stands on these squares
        self.home = sum(bit(sq) for sq in v.bear_off_home)
        #: jequier: per seat, the squares whose piece waits while the square ahead is occupied
        self.waiting = tuple(sum(bit(sq) for sq in squares) for squares in v.waiting)
        self.back_to_empty = v.backward is Backward.PIECE_TO_EMPTY
        self.send_back = v.capture is Capture.SEND_BACK
        #: kendall-1978: every throw of a turn is made before the moves
        self.throws_first = v.throws_first
        wait = v.squares_of(HouseKind.WATER_WAIT)
        #: kendall-1978: the House of Water where a piece waits for a 4 or a return
        self.wait_sq = wait[0] if wait else 0
        self.wait_bit = bit(self.wait_sq) if wait else 0
        #: kendall-1978: squares safe while a piece waits in the House of Water
        self.guarded = sum(bit(sq) for sq in v.guarded_by_water)
        self.bear_off_optional = v.bear_off_optional
        #: piccione: pieces enter from the hand, throws are divided, no piece lands on another
        self.divided = v.divided_throws
        self.enter_throw = v.enter_throw
        self.no_capture = v.capture is Capture.NONE
        self.no_back = sum(bit(sq) for sq in v.no_backward_from)
        to_hand = v.squares_of(HouseKind.TO_HAND)
        self.to_hand_sq = to_hand[0] if to_hand else 0
        self._exposed: Tables | None = None
        if self.no_capture or self.divided:
            self.parallel = False
        if self.past_three or self.home or self.guarded:
            self.parallel = False  # these need a look at the whole path or the whole side

    @property
    def exposed(self) -> Tables:
        """These tables without protection by neighbours (kendall-1978: while a player's piece
        waits in the House of Water, or a piece returned from it has not moved, his pieces side
        by side "may now be sent back")."""
        if self._exposed is None:
            exposed = copy(self)
            exposed.protection = _PROTECT_NONE
            exposed.parallel = False
            exposed._exposed = exposed
            self._exposed = exposed
        return self._exposed


@cache
def _tables_by_name(name: str) -> Tables:
    from .variants import VARIANTS

    return Tables(VARIANTS[name])


_custom: dict[int, Tables] = {}


def tables_for(v: Variant) -> Tables:
    """The compiled tables of a variant (registered variants are cached by name)."""
    from .variants import VARIANTS

    if VARIANTS.get(v.name) is v:
        return _tables_by_name(v.name)
    table = _custom.get(id(v))
    if table is None or table.variant is not v:
        table = _custom[id(v)] = Tables(v)
    return table


def iter_squares(mask: int) -> Iterator[int]:
    """Squares of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length()
        mask ^= low


def free_square_behind(square: int, occupied: int) -> int:
    """``square`` if free, else the nearest free square behind it (then ahead of it)."""
    for sq in range(square, 0, -1):
        if not occupied & bit(sq):
            return sq
    for sq in range(square + 1, SQUARES + 1):
        if not occupied & bit(sq):
            return sq
    raise AssertionError("the board is full")  # 30 squares hold at most 20 pieces


def _blocked(t: Tables, occupied: int, a: int, b: int) -> bool:
    """adelaida §8, §12, §14: only single pieces may be passed over, never two side by side."""
    inside = occupied & t.path[a][b]
    return bool(inside & (inside >> 1))


def forward_origins(t: Tables, me: int, opp: int, mask: int, n: int) -> tuple[int, int]:
    """All forward moves of the pieces of ``mask`` at once, for variants with ``t.parallel``:
    (origins whose piece lands on the board at origin + n, origins whose piece bears off).

    The same rules as :func:`step`, on whole masks: not onto one's own piece, not onto a safe
    or protected opponent (a piece protected by a neighbour of its colour; kendall rule 5: not
    by a neighbour when both stand on the unprotected squares, see ``t.by_left``/``t.by_right``).
    """
    blocked = me | opp & t.safe
    if t.protection:
        blocked |= opp & ((opp << 1 & t.by_left) | (opp >> 1 & t.by_right))
    landing = ((mask & t.board_origins[n]) << n) & ~blocked
    return landing >> n, mask & t.off_origins[n]


def step(t: Tables, me: int, opp: int, origin: int, n: int, forward: bool) -> int:
    """Where the piece on ``origin`` goes with throw ``n``: a square 1-30 or OFF, plus VICTIM
    when it lands on an opponent; 0 when the move is illegal.

    This runs for every piece in every position of every search, so the landing rules are
    written out inline rather than split into helpers.
    """
    if forward:
        if t.exit_only[origin]:
            return OFF if n in t.bear_off[origin] else 0
        d = origin + n
        if d > SQUARES:
            if t.home and me & ~t.home:
                return 0  # jequier: not before every piece of the player is on the last row
            if t.past_three:
                ahead = opp >> origin  # the squares between the piece and the end of the board
                if ahead & (ahead >> 1) & (ahead >> 2):
                    return 0  # jequier: bearing off passes them too
            return OFF if n in t.bear_off[origin] else 0
        if t.stop_mask and t.path[origin][d] & t.stop_mask:
            return 0  # kendall: every piece stops on the House of Beauty first
    else:
        if t.exit_only[origin] or t.no_back & (1 << (origin - 1)):
            return 0
        d = origin - n
        if d < 1:
            return 0
    if t.singles:
        inside = (me | opp) & t.path[origin][d]
        if inside & (inside >> 1):
            return 0
    elif t.past_three:
        inside = opp & t.path[origin][d]
        if inside & (inside >> 1) & (inside >> 2):
            return 0  # jequier: no move past three opponents in a row
    while True:
        b = 1 << (d - 1)
        if me & b:
            return 0  # never onto your own piece
        if opp & b:
            if t.no_capture:
                return 0  # piccione: "pieces cannot land on the same space"
            if t.back_to_empty and not forward:
                return 0  # jequier: a piece goes back "to an open space" only
            if t.drown_attack[d]:
                if t.guarded & b and (me | opp) & t.wait_bit:
                    return 0  # kendall-1978: 28-30 are safe while a piece waits on 27
                return d | VICTIM  # kendall: the attacked piece drowns (protection does not apply)
            if t.safe & b:
                return 0
            if t.protection:
                near = opp & t.neigh[d]
                # adelaida §12-14: a neighbour protects, except the middle piece of exactly three.
                if near and (
                    t.protection == _PROTECT_NEIGHBOUR or near != t.both[d] or opp & t.far[d]
                ):
                    return 0
            return d | VICTIM
        if d != t.ba_sq:
            return d
        # adelaida §25-26: from the House of Ba the piece goes on by the same count in the same
        # direction (landing there once more, by the rules above), or the move is illegal.
        d2 = d + n if forward else d - n
        if not 1 <= d2 <= SQUARES:
            return 0
        if t.singles and _blocked(t, me | opp, d, d2):
            return 0
        d = d2
