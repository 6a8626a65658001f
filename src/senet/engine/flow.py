"""The flow of play on the raw state: legal decisions, applying one, and the turn order.

:class:`senet.engine.position.Position` wraps these for the public API; search and random
playouts call them directly on a list of integers, so that a whole game can be played without
building a single object per move.  The layout of the state (a flat tuple of small integers) is
defined and documented in :mod:`senet.engine.state`.

Three flows share the raw state: one throw moving one piece (most variants), every throw of a
turn made before the moves (kendall-1978: :func:`_banked_moves`), and a throw divided among
the pieces, with pieces entering from the hand (piccione: :func:`_divided_moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from . import state as raw
from .moves import ENTER, MOVE, PASS, RETURN, REVIVE, RISK, Move
from .rules import (
    TARGET,
    VICTIM,
    Tables,
    bit,
    forward_origins,
    free_square_behind,
    iter_squares,
    step,
)
from .state import bank_add, bank_remove, bank_values, throw_due
from .throws import draw_throw
from .variants import OFF, Backward, HouseKind

__all__ = [
    "legal_moves",
    "play",
    "thrown",
    "throw_of",
    "winner",
    "random_playout",
]

# Short local names for the fields of the raw state (see senet.engine.state).
_A, _B, _TURN, _THROW, _PEND = raw.MASK, raw.MASK + 1, raw.TURN, raw.THROW, raw.PENDING
_EXTRA, _SKIP, _OFF = raw.EXTRA, raw.SKIP, raw.BORNE_OFF
_CAPT, _DROWN = raw.CAPTURED, raw.DROWNED
_NO_PENDING, _FATE, _WATER = raw.NO_PENDING, raw.PENDING_FATE, raw.PENDING_WATER
_BANK, _RET = raw.BANK, raw.RETURNED
_HAND, _DIR, _DIV, _ENT = raw.HAND, raw.DIRECTION, raw.DIVIDED, raw.ENTERED
_NO_DIR, _FORWARD, _BACKWARD = raw.NO_DIRECTION, raw.FORWARD, raw.BACKWARD

_PASS = Move(PASS)
_REVIVE = Move(REVIVE)
_RETURN = Move(RETURN)
_ENTER = Move(ENTER)
_WATER_CHOICES = (Move(RISK), Move(RETURN))
DRAW = 2  # winner() of a drawn game


def winner(t: Tables, s: Sequence[int]) -> int | None:
    """0 or 1 when that seat has won, DRAW (2) for a draw, None while the game goes on."""
    if t.race:
        if s[_OFF] == t.pieces:
            return 0
        return 1 if s[_OFF + 1] == t.pieces else None
    a_off, b_off = s[_OFF], s[_OFF + 1]
    a_left, b_left = s[_A].bit_count(), s[_B].bit_count()
    if a_off > b_off + b_left:
        return 0
    if b_off > a_off + a_left:
        return 1
    return DRAW if not a_left and not b_left else None


def legal_moves(t: Tables, s: Sequence[int]) -> list[Move]:
    """Every legal decision in state ``s`` of a game that is not over; [] at chance nodes."""
    n = s[_THROW]
    pending = s[_PEND]
    if pending == _WATER:
        return list(_WATER_CHOICES)
    if not n:
        return []
    if t.throws_first:
        return _banked_moves(t, s, n)
    if t.divided:
        return _divided_moves(t, s, n)
    if pending == _FATE:
        owner = 0 if s[_A] & t.fate_bit else 1
        # adelaida §27: 1-4 carry the piece forward, 5 carries it back five squares.
        r = step(t, s[owner], s[1 - owner], t.fate_sq, n, n < 5)
        return [t.moves[t.fate_sq][r & TARGET]] if r else [_PASS]
    p = s[_TURN]
    me, opp = s[p], s[1 - p]
    if me & t.water_bit:
        # kendall: while a piece drowns no other piece may move; only a 4 saves it.
        return [t.moves[t.water_sq][OFF]] if n in t.bear_off[t.water_sq] else [_PASS]
    moves: list[Move] = []
    per_piece = t.backward is Backward.PIECE or t.back_to_empty
    mine = me
    if t.waiting[p]:
        # jequier: a piece on its starting square waits while the square ahead is occupied.
        mine = me & ~(t.waiting[p] & ((me | opp) >> 1))
    if mine & t.gates:
        # bell: a piece on the House of Beauty must move on as soon as it can, before any other.
        _collect(t, me, opp, mine & t.gates, n, per_piece, moves)
        if moves:
            return moves
    if t.priority:
        # bell: if a piece on 26-30 can move, one of them must; look at those pieces first.
        _collect(t, me, opp, mine & t.priority, n, per_piece, moves)
        if not moves:
            _collect(t, me, opp, mine & ~t.priority, n, per_piece, moves)
    else:
        _collect(t, me, opp, mine, n, per_piece, moves)
    if not moves and t.backward is Backward.PLAYER:
        table = t.moves
        for sq in iter_squares(mine):  # kendall rule 4: back only if nothing can go forward
            r = step(t, me, opp, sq, n, False)
            if r:
                moves.append(table[sq][r & TARGET])
    if s[_DROWN + p] and not (me | opp) & bit(t.rebirth):
        moves.append(_REVIVE)  # adelaida §28: instead of a move, revive on 15 if it is free
    return moves or [_PASS]


def throw_of(t: Tables, move: Move) -> int:
    """The throw a step move uses: its length on the board, or for a bearing off the throw it
    names, or the only throw that bears a piece off its square."""
    if move.target != OFF:
        return abs(move.target - move.origin)
    if move.throw:
        return move.throw
    (value,) = t.bear_off[move.origin]
    return value


def _off_move(t: Tables, origin: int, value: int) -> Move:
    """The bearing off from ``origin`` with ``value``, naming the throw only where several
    throws bear a piece off that square."""
    if len(t.bear_off[origin]) > 1:
        return Move(MOVE, origin, OFF, value)
    return t.moves[origin][OFF]


def _banked_moves(t: Tables, s: Sequence[int], n: int) -> list[Move]:
    """kendall-1978: the moves of every throw made this turn (``n`` and the bank), each throw
    moving one piece by its whole value: forward if that throw moves any piece forward, else
    back.  While a piece of the player waits in the House of Water only a 4 bearing it off, or
    its return, is possible (without a 4, also staying there: a pass); while a piece returned from it has not moved, only that piece
    moves.  While the opponent is in either case, his pieces lose their protection."""
    p = s[_TURN]
    me, opp = s[p], s[1 - p]
    values = sorted({n, *bank_values(s[_BANK])})
    if me & t.wait_bit:
        # a 4 bears the waiting piece off, or it returns; without a 4 its owner may also leave
        # it there («may leave the piece in square 27 until a 4 is thrown»): a pass of the turn
        waiting = [_off_move(t, t.wait_sq, v) for v in values if v in t.bear_off[t.wait_sq]]
        return [*waiting, _RETURN] if waiting else [_RETURN, _PASS]
    mine = me & s[_RET] or me
    tt = t.exposed if opp & (t.wait_bit | s[_RET]) else t
    table = tt.moves
    moves: list[Move] = []
    for v in values:
        found = len(moves)
        for sq in iter_squares(mine):
            r = step(tt, me, opp, sq, v, True)
            if r:
                d = r & TARGET
                moves.append(_off_move(t, sq, v) if d == OFF else table[sq][d])
        if len(moves) == found and t.backward is Backward.PLAYER:
            for sq in iter_squares(mine):  # a throw that moves nothing forward moves a piece back
                r = step(tt, me, opp, sq, v, False)
                if r:
                    moves.append(table[sq][r & TARGET])
    if moves and t.bear_off_optional and all(m.target == OFF for m in moves):
        moves.append(_PASS)  # "bearing off is not required from any space"
    return moves or [_PASS]


def _divided_moves(t: Tables, s: Sequence[int], n: int) -> list[Move]:
    """piccione: the moves with the ``n`` points left of the throw in play.  A move uses some or
    all of them (the rest stays to play); entering takes a whole throw of 1; the entered piece
    moves first with the throw its entering earned, and a pass then sends it back to the hand;
    forward when any piece can go forward, else back, and never against the turn's direction;
    no piece lands on another, none moves back from 28-30, bearing off takes the exact points."""
    p = s[_TURN]
    me, opp = s[p], s[1 - p]
    table = t.moves
    moves: list[Move] = []
    if s[_ENT]:
        for k in range(1, n + 1):
            r = step(t, me, opp, 1, k, True)
            if r:
                moves.append(table[1][r & TARGET])
        return moves or [_PASS]
    direction = s[_DIR]
    if direction != _BACKWARD:
        if (
            n == t.enter_throw
            and not s[_DIV]
            and s[_HAND + p]
            and not (me | opp) & 1  # the piece enters on square 1, which must be free
        ):
            moves.append(_ENTER)
        for sq in iter_squares(me):
            for k in range(1, n + 1):
                r = step(t, me, opp, sq, k, True)
                if r:
                    d = r & TARGET
                    moves.append(_off_move(t, sq, k) if d == OFF else table[sq][d])
    if not moves and direction != _FORWARD:
        for sq in iter_squares(me):  # a throw that moves nothing forward moves a piece back
            for k in range(1, n + 1):
                r = step(t, me, opp, sq, k, False)
                if r:
                    moves.append(table[sq][r & TARGET])
    return moves or [_PASS]


def _play_divided(t: Tables, s: list[int], move: Move) -> bool:
    """piccione: apply ``move`` with part or all of the points in play.  Points left keep the
    decision with the player; an extra throw earned on the way (a throw of 5, landing on 15 or
    26) waits in ``EXTRA`` until the throw in play is used up or lost."""
    p = s[_TURN]
    n = s[_THROW]
    s[_THROW] = 0
    if move.kind == ENTER:
        s[_HAND + p] -= 1
        s[p] |= 1
        s[_DIR] = _FORWARD
        s[_DIV] = 0
        s[_ENT] = 1
        return False  # the entering earns a throw, which must move this piece: chance is next
    if move.kind == PASS:
        if s[_ENT]:
            # "if it is impossible for a piece to move from square 1, it must be removed from
            # the board and entered again"
            s[p] &= ~1
            s[_HAND + p] += 1
            s[_ENT] = 0
        s[_DIV] = 0
        return _advance_divided(t, s)
    used = throw_of(t, move)
    s[_DIR] = _FORWARD if move.target > move.origin else _BACKWARD
    s[_ENT] = 0
    me = s[p] & ~bit(move.origin)
    d = move.target
    if d == OFF:
        s[_OFF + p] += 1
    else:
        kind = t.kind[d]
        if kind is HouseKind.TO_HAND:
            s[_HAND + p] += 1  # "a piece which lands on square 27 ... must enter again"
        else:
            me |= bit(d)
            if kind is HouseKind.EXTRA_THROW:
                s[_EXTRA + p] += 1
    s[p] = me
    if n > used:
        s[_THROW] = n - used
        s[_DIV] = 1
        return False
    s[_DIV] = 0
    return _advance_divided(t, s)


def _advance_divided(t: Tables, s: list[int]) -> bool:
    """:func:`_advance`, and a new turn starts with no direction chosen."""
    if _advance(t, s):
        s[_DIR] = _NO_DIR
        return True
    return False


def thrown(t: Tables, s: Sequence[int], value: int) -> tuple[int, ...]:
    """The state after chance shows ``value``.  Where all throws of a turn come first
    (kendall-1978), a throw that earns another is banked and chance is next again; the throw
    that ends the run joins the bank, and the lowest of them all waits as ``THROW``."""
    out = list(s)
    _throw_into(t, out, value)
    return tuple(out)


def _throw_into(t: Tables, s: list[int], value: int) -> None:
    if t.divided:
        s[_THROW] = value
        if value in t.extra_throws:
            s[_EXTRA + s[_TURN]] += 1  # piccione: owed at once, taken once this throw is used
        return
    if not t.throws_first:
        s[_THROW] = value
        return
    bank = bank_add(s[_BANK], value)
    if value in t.extra_throws:
        s[_BANK] = bank
        return
    lowest = bank_values(bank)[0]
    s[_THROW] = lowest
    s[_BANK] = bank_remove(bank, lowest)


def _play_banked(t: Tables, s: list[int], move: Move) -> bool:
    """kendall-1978: apply ``move`` with one of the turn's throws; the turn goes on while
    throws are left, and a pass gives up all that are left ("the turn ends")."""
    p = s[_TURN]
    bank = bank_add(s[_BANK], s[_THROW])
    s[_THROW] = 0
    s[_BANK] = 0
    if move.kind == PASS:
        return _advance(t, s)
    if move.kind == RETURN:
        # the piece goes back to 15 (or the nearest free square behind it) and its owner loses
        # his next turn; the return uses no throw, so the returned piece may move on with them.
        me = s[p] & ~t.wait_bit
        home = free_square_behind(t.rebirth, me | s[1 - p])
        s[p] = me | bit(home)
        s[_RET] |= bit(home)
        s[_SKIP + p] += 1
    else:
        value = throw_of(t, move)
        bank = bank_remove(bank, value)
        tt = t.exposed if s[1 - p] & (t.wait_bit | s[_RET]) else t
        _move_piece(tt, s, p, move.origin, value, move.target > move.origin, gain=False)
    if not bank:
        return _advance(t, s)
    lowest = bank_values(bank)[0]
    s[_THROW] = lowest
    s[_BANK] = bank_remove(bank, lowest)
    return False


def _collect(
    t: Tables, me: int, opp: int, mask: int, n: int, per_piece: bool, moves: list[Move]
) -> None:
    """Append the move of every piece of ``mask`` (forward, or back where §16 allows it)."""
    table = t.moves
    if t.parallel:
        board, off = forward_origins(t, me, opp, mask, n)
        both = board | off
        while both:
            low = both & -both
            both ^= low
            sq = low.bit_length()
            moves.append(table[sq][OFF] if off & low else table[sq][sq + n])
        return
    while mask:
        low = mask & -mask
        mask ^= low
        sq = low.bit_length()
        r = step(t, me, opp, sq, n, True)
        if not r and per_piece:
            r = step(t, me, opp, sq, n, False)  # adelaida §16
        if r:
            moves.append(table[sq][r & TARGET])


def play(t: Tables, s: list[int], move: Move) -> bool:
    """Apply a legal ``move`` to ``s`` in place; True when the move hands over to a new turn."""
    if t.throws_first:
        return _play_banked(t, s, move)
    if t.divided:
        return _play_divided(t, s, move)
    n = s[_THROW]
    pending = s[_PEND]
    s[_THROW] = 0
    if pending == _WATER:
        s[_PEND] = _NO_PENDING
        if move.kind == RETURN:
            owner = 0 if s[_A] & t.water_bit else 1
            s[owner] &= ~t.water_bit
            s[owner] |= bit(free_square_behind(t.rebirth, s[_A] | s[_B]))
    elif pending == _FATE:
        s[_PEND] = _NO_PENDING
        owner = 0 if s[_A] & t.fate_bit else 1
        # adelaida §27 with §24: the fate throw is an extra throw, so a 1, 4 or 5 earns another
        # (owed to the piece's owner; the Water (§29) or the Net (§24) may cancel it at once).
        # An impossible fate move is lost with all it would bring (§27: its points serve no
        # other piece), so a pass here earns nothing.
        if move.kind == MOVE:
            _move_piece(t, s, owner, t.fate_sq, n, n < 5, gain=n in t.extra_throws)
    else:
        p = s[_TURN]
        if move.kind == MOVE:
            _move_piece(
                t, s, p, move.origin, n, move.target > move.origin, gain=n in t.extra_throws
            )
        elif move.kind == REVIVE:
            s[_DROWN + p] -= 1
            s[p] |= bit(t.rebirth)
            if n in t.extra_throws:
                s[_EXTRA + p] += (
                    1  # the throw's own extra throw stands (§4); no Rebirth throw (§30)
                )
        elif s[p] & t.water_bit:
            s[_EXTRA + p] = 0  # kendall: a failed risk loses the whole turn
        elif t.extra_after_pass and n in t.extra_throws:
            s[_EXTRA + p] += 1  # adelaida §4: the extra throw comes with the throw, used or not
    return False if s[_PEND] else _advance(t, s)


def _net(s: list[int], seat: int) -> None:
    """adelaida §23-24: the Net cancels one pending extra throw, or else skips the next turn."""
    if s[_EXTRA + seat]:
        s[_EXTRA + seat] -= 1
    else:
        s[_SKIP + seat] += 1


def _move_piece(
    t: Tables, s: list[int], p: int, origin: int, n: int, forward: bool, gain: bool
) -> None:
    """Move ``p``'s piece from ``origin`` by ``n``, with every effect of the landing square."""
    q = 1 - p
    me, opp = s[p], s[q]
    r = step(t, me, opp, origin, n, forward)
    if not r:
        raise AssertionError(f"illegal step {origin}+{n} reached _move_piece")
    d = r & TARGET
    obit = bit(origin)
    me &= ~obit
    extra = s[_EXTRA + p] + (1 if gain else 0)
    if d == OFF:
        s[_OFF + p] += 1
        s[p], s[q] = me, opp
        s[_EXTRA + p] = extra
        return
    dbit = bit(d)
    if s[_RET]:
        s[_RET] &= ~(obit | dbit)  # a returned piece that moves, or is moved, is free again
    if r & VICTIM:
        opp &= ~dbit
        if t.send_back:
            # jequier: the attacked piece goes back to the free square nearest the start.
            opp |= bit(free_square_behind(t.rebirth, me | dbit | opp))
        elif t.capture_remove:
            s[_CAPT + q] += 1  # bell: the piece leaves the game
        elif t.drown_attack[d] and t.wait_bit:
            opp |= t.wait_bit  # kendall-1978: attacked on 28-30, it is sent to 27 to wait
        elif t.drown_attack[d] and not (me | opp) & t.water_bit:
            opp |= t.water_bit  # kendall: attacked on 28-30, it drowns in the House of Water
            s[_PEND] = _WATER
        else:
            opp |= obit  # the two pieces swap places
            kind = t.kind[origin]  # adelaida §21-22: Houses act on a piece swapped into them
            if kind is HouseKind.REBIRTH:
                s[_EXTRA + q] += 1
            elif kind is HouseKind.NET:
                _net(s, q)
            elif kind is HouseKind.FATE:
                s[_PEND] = _FATE
    me |= dbit
    kind = t.kind[d]
    if kind is not None:
        if kind is HouseKind.REBIRTH:
            extra += 1
        elif kind is HouseKind.NET:
            if extra:
                extra -= 1
            else:
                s[_SKIP + p] += 1
        elif kind is HouseKind.FATE:
            s[_PEND] = _FATE
        elif kind is HouseKind.DROWN:
            me &= ~dbit  # adelaida §28-29: off the board, not borne off; extra throws cancelled
            s[_DROWN + p] += 1
            extra = 0
        elif kind is HouseKind.SEND_BACK:
            me &= ~dbit
            me |= bit(free_square_behind(t.rebirth, me | opp))
        elif kind is HouseKind.WATER_CHOICE:
            s[_PEND] = _WATER
    s[p], s[q] = me, opp
    s[_EXTRA + p] = extra


def _advance(t: Tables, s: list[int]) -> bool:
    """After a decision is fully resolved: the same seat throws again (returns False), or the
    turn passes on, past any turns owed to the House of Net (returns True: a turn begins)."""
    p = s[_TURN]
    if s[_EXTRA + p]:
        s[_EXTRA + p] -= 1
        return False
    q = 1 - p
    while s[_SKIP + q]:
        s[_SKIP + q] -= 1
        q = 1 - q
    s[_TURN] = q
    return True


def random_playout(
    t: Tables, state: Sequence[int], rng: Random, max_moves: int = 1_000_000
) -> tuple[int | None, int]:
    """Play uniformly random legal moves with exact-probability throws to the end.

    Returns (winner as in :func:`winner`, number of moves).  Used by benchmarks and by
    Monte Carlo evaluation; builds no objects beyond the move lists.
    """
    s = list(state)
    instrument = t.variant.instrument
    random = rng.random
    moves = 0
    result = winner(t, s)
    while result is None and moves < max_moves:
        if throw_due(s):
            value = draw_throw(rng, instrument)
            _throw_into(t, s, value)
            if not s[_THROW]:
                continue  # chance again after a banked throw; else the moves come next
        options = legal_moves(t, s)
        play(t, s, options[int(random() * len(options))])
        moves += 1
        result = winner(t, s)  # only a move can end the game
    return result, moves
