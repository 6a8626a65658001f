"""Why a piece cannot move: the rule that stops it, as a small structured value.

:func:`why_not` answers "I tapped the piece on 12 with a throw of 3; why can it not move?" with
a :class:`Reason` — a *kind* (one per rule family) and the squares and throws that the rule
names — or ``None`` when the piece does have a legal move.  It follows the same decisions as
the move generator (:func:`senet.engine.rules.step` and :func:`senet.engine.flow.legal_moves`),
in the same order, so that a reason is given exactly when ``legal_moves`` has no move of that
piece (a property test holds the two together).  The words are the web layer's business: the
kinds are stable keys for its catalogs.

Kinds, and what ``squares`` / ``throws`` hold:

================= ==========================================================================
``no_decision``   no move is due: a throw is due or the game is over
``empty``         no piece on the square (``squares``: the square)
``not_yours``     the piece belongs to the other player (``squares``: the square)
``own_piece``     the target holds a piece of the mover (target)
``safe``          the target holds an opponent on a square where none can be attacked (target)
``protected``     the target's opponent is protected by its neighbours (target, first, last
                  square of the row of protecting pieces, the target included)
``blocked``       two pieces side by side stand in the way (the two squares)
``must_stop``     the move would pass a square every piece must stop on first (that square)
``exit_throw``    the piece can only leave the board, and only with ``throws`` (origin)
``beyond_end``    the throw carries the piece past 30; pieces leave only with ``throws``
                  from this square (origin); ``throws`` empty: never from here
``ba``            the House of Ba would carry it on to a square it cannot take (Ba square,
                  onward square), ``cause`` saying why (``off_board`` when past the track)
``off_board``     moving back, the piece would leave the track at the start (origin)
``gate``          a piece on a gate square can move and must move first (that piece)
``waiting``       the piece stands on its starting square and the square in front of it is
                  occupied (the square, the square in front)
``past_three``    three opponents in a row stand in the way (the three squares)
``not_home``      the piece may bear off only when all the player's pieces are on the last
                  squares (the pieces still outside them)
``back_empty``    going back, a piece may land on an empty square only (target)
``priority``      another piece on the priority squares can move and must (those pieces)
``drowning``      a piece of the mover drowns (or waits) in the House of Water: only it may
                  move (its square)
``returned``      a piece of the mover came back from the House of Water and has not moved:
                  only it may move (its square)
``guarded``       the target is safe while a piece waits in the House of Water (target, the
                  House's square)
``occupied``      the target holds an opponent, and no piece lands on another (target)
``no_back``       no piece moves back from this square (origin)
``entered``       the piece just entered on square 1 moves first (square 1)
``turn_forward``  this turn's moves go forward, and this piece could only go back
``turn_backward`` this turn's moves go back, and this piece could only go forward
``fate``          a throw of fate is pending: only the piece on that House moves (its square)
``water_choice``  the House of Water choice is pending: risk or return (the House's square)
================= ==========================================================================

``back`` holds the reason against the backward move where the rules try one after the
forward move fails (Adelaida's per-piece backward moves; Kendall's backward moves when no
piece can go forward).  Where a turn holds several throws (kendall-1978), a piece cannot move
when no throw moves it, and the reason given is the one against its lowest throw.  Where a
throw is divided (piccione), a piece cannot move when no part of the points left moves it, and
the reason given is the one against all of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .position import Position
from .rules import Tables, bit, step, tables_for
from .state import BACKWARD, FORWARD, PENDING_FATE, PENDING_WATER
from .variants import SQUARES, Backward, Protection

__all__ = ["Reason", "KINDS", "why_not", "piece_can_move"]

KINDS = (
    "no_decision",
    "empty",
    "not_yours",
    "own_piece",
    "safe",
    "protected",
    "blocked",
    "must_stop",
    "exit_throw",
    "beyond_end",
    "ba",
    "off_board",
    "gate",
    "waiting",
    "past_three",
    "not_home",
    "back_empty",
    "priority",
    "drowning",
    "returned",
    "guarded",
    "occupied",
    "no_back",
    "entered",
    "turn_forward",
    "turn_backward",
    "fate",
    "water_choice",
)


@dataclass(frozen=True)
class Reason:
    """One rule that stops a piece.  See the module docstring for the kinds."""

    kind: str
    squares: tuple[int, ...] = ()
    throws: tuple[int, ...] = ()
    #: for ``ba``: why the onward square cannot be taken
    cause: Reason | None = None
    #: the reason against the backward move, where the rules try one
    back: Reason | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "squares": list(self.squares),
            "throws": list(self.throws),
            "cause": self.cause.as_dict() if self.cause else None,
            "back": self.back.as_dict() if self.back else None,
        }


def piece_can_move(position: Position, square: int) -> bool:
    """Does ``legal_moves`` hold a move of the piece on ``square``?"""
    return any(m.is_step and m.origin == square for m in position.legal_moves())


def why_not(position: Position, square: int) -> Reason | None:
    """Why the piece on ``square`` cannot move now, or None when it can.

    Worked out from the rules alone; it agrees with :meth:`Position.legal_moves` (None exactly
    when a move of this piece is legal), which the tests check on random games of every variant.
    """
    if not 1 <= square <= SQUARES:
        raise ValueError(f"square {square} is not on the track (1-30)")
    seat = position.decider
    if seat is None:
        return Reason("no_decision")
    owner = position.owner(square)
    if owner is None:
        return Reason("empty", (square,))
    if owner != seat:
        return Reason("not_yours", (square,))
    t = tables_for(position.variant)
    me, opp = position.mask(seat), position.mask(1 - seat)
    n = position.throw
    if t.throws_first:
        return _banked_reason(position, t, seat, square)
    if t.divided:
        return _divided_reason(position, t, seat, square)
    if position.pending == PENDING_WATER:
        return Reason("water_choice", (t.water_sq,))
    if position.pending == PENDING_FATE:
        if square != t.fate_sq:
            return Reason("fate", (t.fate_sq,))
        # adelaida §27: 1-4 carry the piece forward, 5 carries it back five squares.
        return _step_reason(t, me, opp, square, n, n < 5)
    if me & t.water_bit:
        if square != t.water_sq:
            return Reason("drowning", (t.water_sq,))
        return _step_reason(t, me, opp, square, n, True)
    ahead = bit(square + 1) if square < SQUARES else 0
    if bit(square) & t.waiting[seat] and (me | opp) & ahead:
        # jequier: a piece on its starting square waits for the square in front to clear.
        return Reason("waiting", (square, square + 1))
    if not bit(square) & t.gates:
        # bell: the piece on the House of Beauty moves on as soon as it can, before any other.
        gate = tuple(
            sq
            for sq in position.pieces(seat)
            if bit(sq) & t.gates
            and (
                step(t, me, opp, sq, n, True)
                or (
                    (t.backward is Backward.PIECE or t.back_to_empty)
                    and step(t, me, opp, sq, n, False)
                )
            )
        )
        if gate:
            return Reason("gate", gate)
    forward = _step_reason(t, me, opp, square, n, True)
    if forward is None:
        # It can go forward unless Bell's priority squares hold a piece that can move.
        movers = tuple(
            sq
            for sq in position.pieces(seat)
            if bit(sq) & t.priority and step(t, me, opp, sq, n, True)
        )
        return Reason("priority", movers) if movers and not bit(square) & t.priority else None
    if t.exit_only[square]:
        return forward  # it only leaves the board: there is no way back
    if (
        t.backward is Backward.PIECE
        or t.back_to_empty
        or (
            t.backward is Backward.PLAYER and not _any_forward(t, me, opp, position.pieces(seat), n)
        )
    ):
        # adelaida §16, kendall rule 4: the piece may go back instead.
        back = _step_reason(t, me, opp, square, n, False)
        if back is None:
            return None
        return Reason(forward.kind, forward.squares, forward.throws, forward.cause, back)
    return forward


def _banked_reason(position: Position, t: Tables, seat: int, square: int) -> Reason | None:
    """kendall-1978: the reason against every throw of the turn, as the move generator's
    :func:`senet.engine.flow._banked_moves` decides (the lowest throw's reason is given)."""
    me, opp = position.mask(seat), position.mask(1 - seat)
    if me & t.wait_bit and square != t.wait_sq:
        return Reason("drowning", (t.wait_sq,))
    returned = tuple(sq for sq in position.returned if me & bit(sq))
    if returned and square not in returned:
        return Reason("returned", returned)
    returned_mask = sum(bit(sq) for sq in position.returned)
    tt = t.exposed if opp & (t.wait_bit | returned_mask) else t
    mine = position.pieces(seat) if not returned else returned
    reasons: list[Reason] = []
    for n in sorted(set(position.throws)):
        forward = _step_reason(tt, me, opp, square, n, True)
        if forward is None:
            return None
        if not t.exit_only[square] and not _any_forward(tt, me, opp, mine, n):
            back = _step_reason(tt, me, opp, square, n, False)
            if back is None:
                return None
            forward = Reason(forward.kind, forward.squares, forward.throws, forward.cause, back)
        reasons.append(forward)
    return reasons[0]


def _divided_reason(position: Position, t: Tables, seat: int, square: int) -> Reason | None:
    """piccione: the reason against every part of the points left, as the move generator's
    :func:`senet.engine.flow._divided_moves` decides (the reason against all of them is given)."""
    me, opp = position.mask(seat), position.mask(1 - seat)
    n = position.throw
    if position.entered and square != 1:
        return Reason("entered", (1,))
    direction = position.direction
    parts = range(1, n + 1)
    if direction != BACKWARD and any(step(t, me, opp, square, k, True) for k in parts):
        return None
    forward = (
        Reason("turn_backward", (square,))
        if direction == BACKWARD
        else _step_reason(t, me, opp, square, n, True)
    )
    if position.entered or direction == FORWARD:
        return forward
    can_enter = (
        n == t.enter_throw and not position.divided and position.hand(seat) and not (me | opp) & 1
    )
    if direction != BACKWARD and (
        can_enter
        or any(step(t, me, opp, sq, k, True) for sq in position.pieces(seat) for k in parts)
    ):
        return forward  # another piece goes forward, so none goes back
    if any(step(t, me, opp, square, k, False) for k in parts):
        return None
    back = _step_reason(t, me, opp, square, n, False)
    if forward is None or back is None:  # the whole throw fails but not by one named rule
        return forward or back
    return Reason(forward.kind, forward.squares, forward.throws, forward.cause, back)


def _any_forward(t: Tables, me: int, opp: int, squares: tuple[int, ...], n: int) -> bool:
    return any(step(t, me, opp, sq, n, True) for sq in squares)


def _step_reason(t: Tables, me: int, opp: int, origin: int, n: int, forward: bool) -> Reason | None:
    """The first rule of :func:`senet.engine.rules.step` that refuses the move, or None."""
    if forward:
        if t.exit_only[origin]:
            return None if n in t.bear_off[origin] else _exit(t, "exit_throw", origin)
        d = origin + n
        if d > SQUARES:
            if n in t.bear_off[origin] and t.home and me & ~t.home:
                outside = tuple(sq for sq in range(1, SQUARES + 1) if me & ~t.home & bit(sq))
                return Reason("not_home", outside)
            if n in t.bear_off[origin] and t.past_three:
                three = _three_between(opp, origin, SQUARES + 1)
                if three:
                    return three
            return None if n in t.bear_off[origin] else _exit(t, "beyond_end", origin)
        if t.stop_mask and t.path[origin][d] & t.stop_mask:
            stop = (t.path[origin][d] & t.stop_mask).bit_length()
            return Reason("must_stop", (stop,))
    else:
        if t.exit_only[origin]:
            return _exit(t, "exit_throw", origin)
        if t.no_back & bit(origin):
            return Reason("no_back", (origin,))
        d = origin - n
        if d < 1:
            return Reason("off_board", (origin,))
    pair = _blocking_pair(t, me | opp, origin, d)
    if pair:
        return Reason("blocked", pair)
    if t.past_three:
        three = _three_between(opp, min(origin, d), max(origin, d))
        if three:
            return three
    return _landing_reason(t, me, opp, d, n, forward)


def _three_between(opp: int, lo: int, hi: int) -> Reason | None:
    """jequier: the first three opponents in a row strictly between squares ``lo`` and ``hi``."""
    for sq in range(lo + 1, hi - 2):
        if opp & bit(sq) and opp & bit(sq + 1) and opp & bit(sq + 2):
            return Reason("past_three", (sq, sq + 1, sq + 2))
    return None


def _landing_reason(t: Tables, me: int, opp: int, d: int, n: int, forward: bool) -> Reason | None:
    b = bit(d)
    if me & b:
        return Reason("own_piece", (d,))
    if opp & b:
        if t.no_capture:
            return Reason("occupied", (d,))
        if t.back_to_empty and not forward:
            return Reason("back_empty", (d,))
        if t.drown_attack[d]:
            if t.guarded & b and (me | opp) & t.wait_bit:
                return Reason("guarded", (d, t.wait_sq))  # kendall-1978
            return None
        if t.safe & b:
            return Reason("safe", (d,))
        if t.protection:
            near = opp & t.neigh[d]
            # adelaida §12-14: a neighbour protects, except the middle piece of exactly three.
            if near and (
                t.variant.protection is Protection.NEIGHBOUR or near != t.both[d] or opp & t.far[d]
            ):
                first, last = _row(t, opp, d)
                return Reason("protected", (d, first, last))
        return None
    if d != t.ba_sq:
        return None
    # adelaida §25-26: from the House of Ba the piece goes on by the same count.
    d2 = d + n if forward else d - n
    if not 1 <= d2 <= SQUARES:
        return Reason("ba", (d,), cause=Reason("off_board", (d,)))
    onward = _blocking_pair(t, me | opp, d, d2)
    cause = Reason("blocked", onward) if onward else _landing_reason(t, me, opp, d2, n, forward)
    return Reason("ba", (d, d2), cause=cause) if cause else None


def _blocking_pair(t: Tables, occupied: int, a: int, b: int) -> tuple[int, int] | None:
    """adelaida §8, §12, §14: the first two pieces side by side strictly between a and b."""
    if not t.singles:
        return None
    lo, hi = min(a, b), max(a, b)
    for sq in range(lo + 1, hi - 1):
        if occupied & bit(sq) and occupied & bit(sq + 1):
            return (sq, sq + 1)
    return None


def _row(t: Tables, opp: int, d: int) -> tuple[int, int]:
    """The first and last square of the row of protecting pieces that holds ``d``."""
    first = last = d
    while first > 1 and opp & t.neigh[first] & bit(first - 1):
        first -= 1
    while last < SQUARES and opp & t.neigh[last] & bit(last + 1):
        last += 1
    return first, last


def _exit(t: Tables, kind: str, origin: int) -> Reason:
    return Reason(kind, (origin,), tuple(sorted(t.bear_off[origin])))
