"""The compiled inner loop: the engine's flow of play (:mod:`senet.engine.flow`) and landing
rules (:func:`senet.engine.rules.step`) on the same raw state, compiled by Numba.

Every function reads the variant from the tables of :mod:`senet.compiled.tables` and nothing else:
no function here tests a variant, and a rule that is a fact of the variant data (Houses, safe
squares, protection, passing, backward moves, bearing off, extra throws, scoring) reaches this
code only through those tables.  The behaviour of each House *kind* is written once here as in
the engine; the differential test (``tests/sim/test_differential.py``) plays both side by side
on positions of every special state and requires the same legal moves and the same state
after every move.

Besides the rules, :func:`move_piece` and :func:`play` count what happens (:data:`EVENTS`) and
follow each piece by identity (which Houses it has visited) for the statistics.  The state
layout is the engine's (see :mod:`senet.engine.state`): an ``int64[state.SIZE]``.

Where every throw of a turn is made before the moves (``throws_first``, kendall-1978), a throw
that earns another is banked (:func:`thrown`), and the turn's moves each use one of the banked
throws (:func:`banked_legal`, :func:`play_banked`), as :mod:`senet.engine.flow` plays them.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from senet.engine import state as raw
from senet.engine.flow import DRAW
from senet.engine.rules import TARGET, VICTIM
from senet.engine.state import NO_PENDING, PENDING_FATE, PENDING_WATER
from senet.engine.variants import OFF, SQUARES

from .events import EVENTS
from .expert import EQUAL_WITHIN
from .tables import (
    BACK_PIECE,
    BACK_PIECE_TO_EMPTY,
    BACK_PLAYER,
    K_DROWN,
    K_FATE,
    K_NET,
    K_REBIRTH,
    K_SEND_BACK,
    K_WATER,
    K_WATER_WAIT,
    NAMED_THROW,
    P_BA_SQ,
    P_BACKWARD,
    P_BEAR_OFF_OPTIONAL,
    P_BITS,
    P_BY_LEFT,
    P_BY_RIGHT,
    P_CAPTURE_REMOVE,
    P_EXTRA_AFTER_PASS,
    P_EXTRA_THROWS,
    P_FATE_BIT,
    P_FATE_SQ,
    P_GATES,
    P_GUARDED,
    P_HOME,
    P_HOUSES,
    P_PARALLEL,
    P_PAST_THREE,
    P_PIECES,
    P_PRIORITY,
    P_PROTECTION,
    P_RACE,
    P_REBIRTH,
    P_SAFE,
    P_SEND_BACK,
    P_SINGLES,
    P_STOP,
    P_THROWS_FIRST,
    P_WAIT_BIT,
    P_WAIT_SQ,
    P_WAITING_A,
    P_WATER_BIT,
    P_WATER_SQ,
    PASS,
    R_BEAR,
    R_BOARD_ORIGINS,
    R_BOTH,
    R_DROWN_ATTACK,
    R_EXIT,
    R_FAR,
    R_KIND,
    R_NEIGH,
    R_OFF_ORIGINS,
    R_PARAM,
    R_PATTERNS,
    RETURN,
    REVIVE,
    RISK,
)

# The raw state: the engine's layout (senet.engine.state), under short names.
S_A, S_B, S_TURN, S_THROW, S_PEND = raw.MASK, raw.MASK + 1, raw.TURN, raw.THROW, raw.PENDING
S_EXTRA, S_SKIP, S_OFF, S_CAPT, S_DROWN = (
    raw.EXTRA,
    raw.SKIP,
    raw.BORNE_OFF,
    raw.CAPTURED,
    raw.DROWNED,
)
S_BANK, S_RET = raw.BANK, raw.RETURNED
#: bits per throw value in ``s[S_BANK]`` (the count of value v at bit BANK_BITS * (v - 1))
BANK_BITS = raw.BANK_BITS
_BANK_MASK = (1 << BANK_BITS) - 1
MAX_MOVES = 64  # more than any decision can offer (one move per piece, plus revive)

(
    EV_SWAP,
    EV_CAPTURE,
    EV_BLOCKED,
    EV_PASS,
    EV_BACKWARD,
    EV_EXTRA,
    EV_SKIPPED,
    EV_BEAR_OFF,
    EV_REBIRTH,
    EV_NET_SKIP,
    EV_NET_CANCEL,
    EV_BA,
    EV_FATE,
    EV_FATE_FORWARD,
    EV_FATE_BACK,
    EV_FATE_LOST,
    EV_DROWN,
    EV_REVIVE,
    EV_SEND_BACK,
    EV_WATER,
    EV_WATER_ATTACK,
    EV_WATER_RISK,
    EV_WATER_RETURN,
    EV_WATER_SAVED,
    EV_WATER_LOST,
    EV_HOUSE_ON_SWAP,
    EV_EARLY_END,
    EV_ATTACK_BACK,
) = range(len(EVENTS))
N_EVENTS = len(EVENTS)

# Piece tracking (for the Houses visited by the loser's last piece): trk[seat, ...]
#   [0:32]   piece id on each square (-1: none)
#   [32:44]  Houses-visited mask of each piece id
#   [44:56]  stack of drowned piece ids; [56] its height; [57] the id that last left the board
TR_ID, TR_VISITED, TR_DROWNED, TR_DEPTH, TR_LAST_LEFT, TR_WIDTH = 0, 32, 44, 56, 57, 58

# Players.
RANDOM, GREEDY, EXPERT = 0, 1, 2

#: The decorator of every function below except the allocating entry point: compiled, cached
#: on disk, and without reference counting (they only read and write arrays their caller owns;
#: the atomic reference counts would otherwise take most of the run time).
compiled = njit(cache=True, _nrt=False)  # type: ignore[call-overload]

_U1 = np.uint64(1)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


# ----------------------------------------------------------------- random numbers
@compiled
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's output function (also used to derive one game's seed)."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@compiled
def next64(rng: np.ndarray) -> np.uint64:
    """SplitMix64: the next 64 random bits of the generator state ``rng[0]``."""
    rng[0] += _GOLDEN
    return mix64(rng[0])


@compiled
def below(rng: np.ndarray, k: int) -> np.int64:
    """A random integer in [0, k) for small k (the top 32 bits scaled: bias below 2**-26)."""
    return np.int64(((next64(rng) >> _S32) * np.uint64(k)) >> _S32)


@compiled
def game_seed(seed: int, game: int) -> np.uint64:
    """The generator state of game number ``game`` of a run: independent of how games are
    split between processes."""
    return mix64(np.uint64(seed) * _GOLDEN + mix64(np.uint64(game) + _GOLDEN))


@compiled
def throw(T: np.ndarray, rng: np.ndarray) -> int:
    """One throw: a uniform raw pattern of the instrument, read through its value table."""
    bits = T[R_PARAM, P_BITS]
    return T[R_PATTERNS, np.int64(next64(rng) >> np.uint64(64 - bits))]


# ----------------------------------------------------------------- bits
@compiled
def lowest_square(low: int) -> int:
    """The square (1-30) of a mask with one bit set."""
    return trailing_zeros(low) + 1  # type: ignore[call-arg]


@compiled
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


# ----------------------------------------------------------------- the rules
@compiled
def step(
    T: np.ndarray, path: np.ndarray, me: int, opp: int, origin: int, n: int, forward: bool
) -> int:
    """:func:`senet.engine.rules.step`: the target square (+ VICTIM on an opponent), 0 if
    the move is illegal."""
    return step_in(T, path, me, opp, origin, n, forward, False)


@compiled
def step_in(
    T: np.ndarray,
    path: np.ndarray,
    me: int,
    opp: int,
    origin: int,
    n: int,
    forward: bool,
    exposed: bool,
) -> int:
    """:func:`step`, or with ``exposed`` the step on the engine's ``Tables.exposed`` (no
    protection by neighbours: kendall-1978, while the opponent waits on the House of Water or
    with a returned piece)."""
    if forward:
        if T[R_EXIT, origin]:
            return OFF if (T[R_BEAR, origin] >> n) & 1 else 0
        d = origin + n
        if d > SQUARES:
            home = T[R_PARAM, P_HOME]
            if home and me & ~home:
                return 0  # not before every piece of the player stands on the home squares
            if T[R_PARAM, P_PAST_THREE]:
                ahead = opp >> origin  # the squares between the piece and the end of the board
                if ahead & (ahead >> 1) & (ahead >> 2):
                    return 0  # bearing off passes three opponents in a row
            return OFF if (T[R_BEAR, origin] >> n) & 1 else 0
        stop = T[R_PARAM, P_STOP]
        if stop and path[origin, d] & stop:
            return 0
    else:
        if T[R_EXIT, origin]:
            return 0
        d = origin - n
        if d < 1:
            return 0
    singles = T[R_PARAM, P_SINGLES]
    if singles:
        inside = (me | opp) & path[origin, d]
        if inside & (inside >> 1):
            return 0
    elif T[R_PARAM, P_PAST_THREE]:
        inside = opp & path[origin, d]
        if inside & (inside >> 1) & (inside >> 2):
            return 0  # no move past three opponents in a row
    while True:
        b = 1 << (d - 1)
        if me & b:
            return 0
        if opp & b:
            if not forward and T[R_PARAM, P_BACKWARD] == BACK_PIECE_TO_EMPTY:
                return 0  # back onto an empty square only
            if T[R_DROWN_ATTACK, d]:
                if T[R_PARAM, P_GUARDED] & b and (me | opp) & T[R_PARAM, P_WAIT_BIT]:
                    return 0  # guarded while a piece waits in the House of Water
                return d | VICTIM
            if T[R_PARAM, P_SAFE] & b:
                return 0
            protection = T[R_PARAM, P_PROTECTION]
            if protection and not exposed:
                near = opp & T[R_NEIGH, d]
                if near and (protection == 1 or near != T[R_BOTH, d] or opp & T[R_FAR, d]):
                    return 0
            return d | VICTIM
        if d != T[R_PARAM, P_BA_SQ]:
            return d
        d2 = d + n if forward else d - n
        if d2 < 1 or d2 > SQUARES:
            return 0
        if singles:
            inside = (me | opp) & path[d, d2]
            if inside & (inside >> 1):
                return 0
        d = d2


@compiled
def _collect(
    T: np.ndarray,
    path: np.ndarray,
    me: int,
    opp: int,
    mask: int,
    n: int,
    per_piece: bool,
    out: np.ndarray,
    k: int,
) -> int:
    if T[R_PARAM, P_PARALLEL]:
        blocked = me | (opp & T[R_PARAM, P_SAFE])
        if T[R_PARAM, P_PROTECTION]:
            blocked |= opp & (
                ((opp << 1) & T[R_PARAM, P_BY_LEFT]) | ((opp >> 1) & T[R_PARAM, P_BY_RIGHT])
            )
        landing = ((mask & T[R_BOARD_ORIGINS, n]) << n) & ~blocked
        board = landing >> n
        off = mask & T[R_OFF_ORIGINS, n]
        both = board | off
        while both:
            low = both & -both
            both ^= low
            sq = lowest_square(low)
            out[k] = sq * 32 + (OFF if off & low else sq + n)
            k += 1
        return k
    while mask:
        low = mask & -mask
        mask ^= low
        sq = lowest_square(low)
        r = step(T, path, me, opp, sq, n, True)
        if not r and per_piece:
            r = step(T, path, me, opp, sq, n, False)
        if r:
            out[k] = sq * 32 + (r & TARGET)
            k += 1
    return k


@compiled
def turn_throws(s: np.ndarray) -> int:
    """The values of the throws the turn holds (``THROW`` and the bank) as a bit mask (bit v)."""
    values = 1 << s[S_THROW]
    bank = s[S_BANK]
    v = 1
    while bank:
        if bank & _BANK_MASK:
            values |= 1 << v
        bank >>= BANK_BITS
        v += 1
    return values


@compiled
def lowest_banked(bank: int) -> int:
    """The lowest value of a non-empty packed bank."""
    return trailing_zeros(bank) // BANK_BITS + 1  # type: ignore[call-arg]


@compiled
def off_code(T: np.ndarray, origin: int, value: int) -> int:
    """The bearing off from ``origin`` with ``value``, naming the throw only where several
    throws bear a piece off that square (the engine's ``flow._off_move``)."""
    code = origin * 32 + OFF
    if popcount(T[R_BEAR, origin]) > 1:
        code += value * NAMED_THROW
    return code


@compiled
def step_throw(T: np.ndarray, move: int) -> int:
    """The throw a step move uses (the engine's ``flow.throw_of``)."""
    origin, target = (move >> 5) & 31, move & 31
    if target != OFF:
        return target - origin if target > origin else origin - target
    if move >= NAMED_THROW:
        return move // NAMED_THROW
    return trailing_zeros(T[R_BEAR, origin])  # type: ignore[call-arg]


@compiled
def banked_legal(T: np.ndarray, path: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """The engine's ``flow._banked_moves``: every throw of the turn (lowest first) moves one
    piece by its whole value, forward if that throw moves any piece forward, else back; while
    a piece of the player waits in the House of Water, only a bearing off from there or its
    return (without a 4, also a pass: the piece stays); while a returned piece has not moved, only that piece; the opponent's pieces lose
    their protection while he is in either case; a pass where bearing off is all there is and
    bearing off is optional."""
    p = s[S_TURN]
    me, opp = s[p], s[1 - p]
    values = turn_throws(s)
    wait_bit = T[R_PARAM, P_WAIT_BIT]
    k = 0
    if me & wait_bit:
        wait_sq = T[R_PARAM, P_WAIT_SQ]
        bear = T[R_BEAR, wait_sq]
        for v in range(1, 8):
            if (values >> v) & 1 and (bear >> v) & 1:
                out[k] = off_code(T, wait_sq, v)
                k += 1
        out[k] = RETURN
        k += 1
        if k == 1:
            out[k] = PASS  # no 4: the owner may leave the piece where it waits
            k += 1
        return k
    returned = me & s[S_RET]
    mine = returned if returned else me
    exposed = (opp & (wait_bit | s[S_RET])) != 0
    back = T[R_PARAM, P_BACKWARD] == BACK_PLAYER
    for v in range(1, 8):
        if not (values >> v) & 1:
            continue
        found = k
        mask = mine
        while mask:
            low = mask & -mask
            mask ^= low
            sq = lowest_square(low)
            r = step_in(T, path, me, opp, sq, v, True, exposed)
            if r:
                d = r & TARGET
                out[k] = off_code(T, sq, v) if d == OFF else sq * 32 + d
                k += 1
        if k == found and back:
            mask = mine
            while mask:
                low = mask & -mask
                mask ^= low
                sq = lowest_square(low)
                r = step_in(T, path, me, opp, sq, v, False, exposed)
                if r:
                    out[k] = sq * 32 + (r & TARGET)
                    k += 1
    if k and T[R_PARAM, P_BEAR_OFF_OPTIONAL]:
        only_off = True
        for j in range(k):
            if out[j] & 31 != OFF:
                only_off = False
                break
        if only_off:
            out[k] = PASS  # bearing off is not required
            k += 1
    if not k:
        out[0] = PASS
        k = 1
    return k


@compiled
def legal(T: np.ndarray, path: np.ndarray, s: np.ndarray, out: np.ndarray) -> int:
    """:func:`senet.engine.flow.legal_moves`: writes the moves to ``out`` in the engine's
    order, returns their number (0 at a chance node)."""
    n = s[S_THROW]
    pending = s[S_PEND]
    if pending == PENDING_WATER:
        out[0] = RISK
        out[1] = RETURN
        return 2
    if not n:
        return 0
    if T[R_PARAM, P_THROWS_FIRST]:
        return banked_legal(T, path, s, out)
    if pending == PENDING_FATE:
        fate_sq = T[R_PARAM, P_FATE_SQ]
        owner = 0 if s[S_A] & T[R_PARAM, P_FATE_BIT] else 1
        r = step(T, path, s[owner], s[1 - owner], fate_sq, n, n < 5)
        out[0] = fate_sq * 32 + (r & TARGET) if r else PASS
        return 1
    p = s[S_TURN]
    me, opp = s[p], s[1 - p]
    if me & T[R_PARAM, P_WATER_BIT]:
        water = T[R_PARAM, P_WATER_SQ]
        out[0] = water * 32 + OFF if (T[R_BEAR, water] >> n) & 1 else PASS
        return 1
    backward = T[R_PARAM, P_BACKWARD]
    per_piece = backward == BACK_PIECE or backward == BACK_PIECE_TO_EMPTY
    mine = me
    waiting = T[R_PARAM, P_WAITING_A + p]
    if waiting:
        # a piece on a waiting square stays while the square ahead of it is occupied
        mine = me & ~(waiting & ((me | opp) >> 1))
    gates = T[R_PARAM, P_GATES]
    if mine & gates:
        # a piece on a gate (bell's House of Beauty) moves on first whenever it can
        k = _collect(T, path, me, opp, mine & gates, n, per_piece, out, 0)
        if k:
            return k
    priority = T[R_PARAM, P_PRIORITY]
    if priority:
        k = _collect(T, path, me, opp, mine & priority, n, per_piece, out, 0)
        if not k:
            k = _collect(T, path, me, opp, mine & ~priority, n, per_piece, out, 0)
    else:
        k = _collect(T, path, me, opp, mine, n, per_piece, out, 0)
    if not k and backward == BACK_PLAYER:
        mask = mine
        while mask:
            low = mask & -mask
            mask ^= low
            sq = lowest_square(low)
            r = step(T, path, me, opp, sq, n, False)
            if r:
                out[k] = sq * 32 + (r & TARGET)
                k += 1
    if s[S_DROWN + p] and not (me | opp) & (1 << (T[R_PARAM, P_REBIRTH] - 1)):
        out[k] = REVIVE
        k += 1
    if not k:
        out[0] = PASS
        k = 1
    return k


@compiled
def free_square_behind(square: int, occupied: int) -> int:
    for sq in range(square, 0, -1):
        if not occupied & (1 << (sq - 1)):
            return sq
    for sq in range(square + 1, SQUARES + 1):
        if not occupied & (1 << (sq - 1)):
            return sq
    return 0


@compiled
def winner(T: np.ndarray, s: np.ndarray) -> int:
    """:func:`senet.engine.flow.winner`: 0, 1, DRAW, or -1 while the game goes on."""
    if T[R_PARAM, P_RACE]:
        pieces = T[R_PARAM, P_PIECES]
        if s[S_OFF] == pieces:
            return 0
        return 1 if s[S_OFF + 1] == pieces else -1
    a_off, b_off = s[S_OFF], s[S_OFF + 1]
    a_left, b_left = popcount(s[S_A]), popcount(s[S_B])
    if a_off > b_off + b_left:
        return 0
    if b_off > a_off + a_left:
        return 1
    return DRAW if not a_left and not b_left else -1


# ----------------------------------------------------------------- pieces by identity
@compiled
def track_start(s: np.ndarray, trk: np.ndarray) -> None:
    """Number the pieces of each seat from the back, on the state ``s``."""
    trk[:, :] = 0
    for seat in range(2):
        trk[seat, TR_ID : TR_ID + 32] = -1
        trk[seat, TR_LAST_LEFT] = -1
        piece = 0
        for sq in range(1, SQUARES + 1):
            if s[seat] & (1 << (sq - 1)):
                trk[seat, TR_ID + sq] = piece
                piece += 1


@compiled
def _visit(trk: np.ndarray, seat: int, piece: int, sq: int, houses: int) -> None:
    if piece >= 0 and houses & (1 << (sq - 1)):
        trk[seat, TR_VISITED + piece] |= 1 << (sq - 1)


# ----------------------------------------------------------------- applying a decision
@compiled
def _net(s: np.ndarray, seat: int, ev: np.ndarray) -> None:
    if s[S_EXTRA + seat]:
        s[S_EXTRA + seat] -= 1
        ev[EV_NET_CANCEL] += 1
    else:
        s[S_SKIP + seat] += 1
        ev[EV_NET_SKIP] += 1


@compiled
def move_piece(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    p: int,
    origin: int,
    n: int,
    forward: bool,
    gain: bool,
    ev: np.ndarray,
    trk: np.ndarray,
    houses: int,
    exposed: bool,
) -> None:
    """:func:`senet.engine.flow._move_piece`, counting events and following the piece
    (``exposed``: on the engine's ``Tables.exposed``, see :func:`step_in`)."""
    q = 1 - p
    me, opp = s[p], s[q]
    r = step_in(T, path, me, opp, origin, n, forward, exposed)
    d = r & TARGET
    obit = 1 << (origin - 1)
    me &= ~obit
    extra = s[S_EXTRA + p] + (1 if gain else 0)
    piece = trk[p, TR_ID + origin]
    trk[p, TR_ID + origin] = -1
    if not forward:
        ev[EV_BACKWARD] += 1
    if d == OFF:
        s[S_OFF + p] += 1
        s[p], s[q] = me, opp
        s[S_EXTRA + p] = extra
        ev[EV_BEAR_OFF] += 1
        trk[p, TR_LAST_LEFT] = piece
        return
    ba = T[R_PARAM, P_BA_SQ]
    if (d - origin if forward else origin - d) == 2 * n:
        ev[EV_BA] += 1
        _visit(trk, p, piece, ba, houses)
    dbit = 1 << (d - 1)
    if s[S_RET]:
        s[S_RET] &= ~(obit | dbit)  # a returned piece that moves, or is moved, is free again
    water_bit = T[R_PARAM, P_WATER_BIT]
    wait_bit = T[R_PARAM, P_WAIT_BIT]
    if r & VICTIM:
        opp &= ~dbit
        victim = trk[q, TR_ID + d]
        trk[q, TR_ID + d] = -1
        if T[R_PARAM, P_SEND_BACK]:
            back = free_square_behind(T[R_PARAM, P_REBIRTH], me | dbit | opp)
            opp |= 1 << (back - 1)
            ev[EV_ATTACK_BACK] += 1
            trk[q, TR_ID + back] = victim
            _visit(trk, q, victim, back, houses)
        elif T[R_PARAM, P_CAPTURE_REMOVE]:
            s[S_CAPT + q] += 1
            ev[EV_CAPTURE] += 1
            trk[q, TR_LAST_LEFT] = victim
        elif T[R_DROWN_ATTACK, d] and wait_bit:
            opp |= wait_bit  # sent to the House of Water to wait there
            ev[EV_WATER_ATTACK] += 1
            wait_sq = T[R_PARAM, P_WAIT_SQ]
            trk[q, TR_ID + wait_sq] = victim
            _visit(trk, q, victim, wait_sq, houses)
        elif T[R_DROWN_ATTACK, d] and not (me | opp) & water_bit:
            opp |= water_bit
            s[S_PEND] = PENDING_WATER
            ev[EV_WATER_ATTACK] += 1
            water = T[R_PARAM, P_WATER_SQ]
            trk[q, TR_ID + water] = victim
            _visit(trk, q, victim, water, houses)
        else:
            opp |= obit
            ev[EV_SWAP] += 1
            trk[q, TR_ID + origin] = victim
            _visit(trk, q, victim, origin, houses)
            kind = T[R_KIND, origin]
            if kind == K_REBIRTH:
                s[S_EXTRA + q] += 1
                ev[EV_HOUSE_ON_SWAP] += 1
            elif kind == K_NET:
                _net(s, q, ev)
                ev[EV_HOUSE_ON_SWAP] += 1
            elif kind == K_FATE:
                s[S_PEND] = PENDING_FATE
                ev[EV_HOUSE_ON_SWAP] += 1
                ev[EV_FATE] += 1
    me |= dbit
    _visit(trk, p, piece, d, houses)
    landed = d
    kind = T[R_KIND, d]
    if kind == K_REBIRTH:
        extra += 1
        ev[EV_REBIRTH] += 1
    elif kind == K_NET:
        if extra:
            extra -= 1
            ev[EV_NET_CANCEL] += 1
        else:
            s[S_SKIP + p] += 1
            ev[EV_NET_SKIP] += 1
    elif kind == K_FATE:
        s[S_PEND] = PENDING_FATE
        ev[EV_FATE] += 1
    elif kind == K_DROWN:
        me &= ~dbit
        s[S_DROWN + p] += 1
        extra = 0
        ev[EV_DROWN] += 1
        landed = 0
        depth = trk[p, TR_DEPTH]
        trk[p, TR_DROWNED + depth] = piece
        trk[p, TR_DEPTH] = depth + 1
    elif kind == K_SEND_BACK:
        me &= ~dbit
        landed = free_square_behind(T[R_PARAM, P_REBIRTH], me | opp)
        me |= 1 << (landed - 1)
        ev[EV_SEND_BACK] += 1
        _visit(trk, p, piece, landed, houses)
    elif kind == K_WATER:
        s[S_PEND] = PENDING_WATER
        ev[EV_WATER] += 1
    elif kind == K_WATER_WAIT:
        ev[EV_WATER] += 1  # the piece waits there for a 4 or its return
    if landed:
        trk[p, TR_ID + landed] = piece
    s[p], s[q] = me, opp
    s[S_EXTRA + p] = extra


@compiled
def advance(s: np.ndarray, ev: np.ndarray) -> bool:
    """:func:`senet.engine.flow._advance`: True when a new turn begins."""
    p = s[S_TURN]
    if s[S_EXTRA + p]:
        s[S_EXTRA + p] -= 1
        ev[EV_EXTRA] += 1
        return False
    q = 1 - p
    while s[S_SKIP + q]:
        s[S_SKIP + q] -= 1
        ev[EV_SKIPPED] += 1
        q = 1 - q
    s[S_TURN] = q
    return True


@compiled
def thrown(T: np.ndarray, s: np.ndarray, value: int, ev: np.ndarray) -> None:
    """:func:`senet.engine.flow.thrown`: chance showed ``value``.  Where all throws of a turn
    come first, a throw that earns another is banked (chance is next again: ``s[S_THROW]``
    stays 0); the throw that ends the run joins the bank, and the lowest of them all waits as
    ``THROW``."""
    if not T[R_PARAM, P_THROWS_FIRST]:
        s[S_THROW] = value
        return
    bank = s[S_BANK] + (1 << (BANK_BITS * (value - 1)))
    if (T[R_PARAM, P_EXTRA_THROWS] >> value) & 1:
        s[S_BANK] = bank
        ev[EV_EXTRA] += 1
        return
    lowest = lowest_banked(bank)
    s[S_THROW] = lowest
    s[S_BANK] = bank - (1 << (BANK_BITS * (lowest - 1)))


@compiled
def throw_turn(T: np.ndarray, s: np.ndarray, rng: np.ndarray, ev: np.ndarray) -> int:
    """Every throw due in ``s`` (one, or where all throws of a turn come first the whole run
    of them); returns how many were thrown."""
    throws = 0
    while not s[S_THROW] and s[S_PEND] != PENDING_WATER:
        thrown(T, s, throw(T, rng), ev)
        throws += 1
    return throws


@compiled
def return_from_water(
    T: np.ndarray,
    s: np.ndarray,
    owner: int,
    water_sq: int,
    water_bit: int,
    trk: np.ndarray,
    houses: int,
    ev: np.ndarray,
) -> int:
    """The piece of ``owner`` on the House of Water (``water_sq``) goes back to the rebirth
    square, or the nearest free square behind it, keeping its identity; the square it lands on."""
    s[owner] &= ~water_bit
    home = free_square_behind(T[R_PARAM, P_REBIRTH], s[S_A] | s[S_B])
    s[owner] |= 1 << (home - 1)
    piece = trk[owner, TR_ID + water_sq]
    trk[owner, TR_ID + water_sq] = -1
    trk[owner, TR_ID + home] = piece
    _visit(trk, owner, piece, home, houses)
    ev[EV_WATER_RETURN] += 1
    return home


@compiled
def play_banked(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    move: int,
    ev: np.ndarray,
    trk: np.ndarray,
    houses: int,
) -> bool:
    """The engine's ``flow._play_banked``: ``move`` uses one of the turn's throws (a return
    uses none, a pass gives up every throw left); the turn goes on while throws are left."""
    p = s[S_TURN]
    bank = s[S_BANK] + (1 << (BANK_BITS * (s[S_THROW] - 1)))
    s[S_THROW] = 0
    s[S_BANK] = 0
    wait_bit = T[R_PARAM, P_WAIT_BIT]
    if move == PASS:
        ev[EV_PASS] += 1
        return advance(s, ev)
    if move == RETURN:
        # back to 15 (or the nearest free square behind it); its owner loses his next turn
        home = return_from_water(T, s, p, T[R_PARAM, P_WAIT_SQ], wait_bit, trk, houses, ev)
        s[S_RET] |= 1 << (home - 1)
        s[S_SKIP + p] += 1
    else:
        value = step_throw(T, move)
        bank -= 1 << (BANK_BITS * (value - 1))
        origin = (move >> 5) & 31
        if s[p] & wait_bit and origin == T[R_PARAM, P_WAIT_SQ]:
            ev[EV_WATER_SAVED] += 1
        exposed = (s[1 - p] & (wait_bit | s[S_RET])) != 0
        forward = (move & 31) > origin
        move_piece(T, path, s, p, origin, value, forward, False, ev, trk, houses, exposed)
    if not bank:
        return advance(s, ev)
    lowest = lowest_banked(bank)
    s[S_THROW] = lowest
    s[S_BANK] = bank - (1 << (BANK_BITS * (lowest - 1)))
    return False


@compiled
def play(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    move: int,
    ev: np.ndarray,
    trk: np.ndarray,
    houses: int,
) -> bool:
    """:func:`senet.engine.flow.play` on the integer move: True when a new turn begins."""
    if T[R_PARAM, P_THROWS_FIRST]:
        return play_banked(T, path, s, move, ev, trk, houses)
    n = s[S_THROW]
    pending = s[S_PEND]
    s[S_THROW] = 0
    if pending == PENDING_WATER:
        s[S_PEND] = NO_PENDING
        water_bit = T[R_PARAM, P_WATER_BIT]
        owner = 0 if s[S_A] & water_bit else 1
        if move == RETURN:
            return_from_water(T, s, owner, T[R_PARAM, P_WATER_SQ], water_bit, trk, houses, ev)
        else:
            ev[EV_WATER_RISK] += 1
    elif pending == PENDING_FATE:
        s[S_PEND] = NO_PENDING
        if move >= 32:
            owner = 0 if s[S_A] & T[R_PARAM, P_FATE_BIT] else 1
            forward = n < 5
            gain = (T[R_PARAM, P_EXTRA_THROWS] >> n) & 1 == 1
            move_piece(
                T, path, s, owner, T[R_PARAM, P_FATE_SQ], n, forward, gain, ev, trk, houses, False
            )
            ev[EV_FATE_FORWARD if forward else EV_FATE_BACK] += 1
        else:
            ev[EV_FATE_LOST] += 1
    else:
        p = s[S_TURN]
        if move >= 32:
            origin = move >> 5  # no throw named here: only where all throws come first
            if s[p] & T[R_PARAM, P_WATER_BIT] and origin == T[R_PARAM, P_WATER_SQ]:
                ev[EV_WATER_SAVED] += 1
            gain = (T[R_PARAM, P_EXTRA_THROWS] >> n) & 1 == 1
            forward = (move & 31) > origin
            move_piece(T, path, s, p, origin, n, forward, gain, ev, trk, houses, False)
        elif move == REVIVE:
            s[S_DROWN + p] -= 1
            rebirth = T[R_PARAM, P_REBIRTH]
            s[p] |= 1 << (rebirth - 1)
            if (T[R_PARAM, P_EXTRA_THROWS] >> n) & 1:
                s[S_EXTRA + p] += 1
            ev[EV_REVIVE] += 1
            depth = trk[p, TR_DEPTH] - 1
            trk[p, TR_DEPTH] = depth
            piece = trk[p, TR_DROWNED + depth]
            trk[p, TR_ID + rebirth] = piece
            _visit(trk, p, piece, rebirth, houses)
        else:
            ev[EV_PASS] += 1
            if s[p] & T[R_PARAM, P_WATER_BIT]:
                s[S_EXTRA + p] = 0
                ev[EV_WATER_LOST] += 1
            elif T[R_PARAM, P_EXTRA_AFTER_PASS] and (T[R_PARAM, P_EXTRA_THROWS] >> n) & 1:
                s[S_EXTRA + p] += 1
    if s[S_PEND]:
        return False
    return advance(s, ev)


# ----------------------------------------------------------------- players
@compiled
def decider(T: np.ndarray, s: np.ndarray) -> int:
    """The seat that decides in a decision state (the Water or fate owner, else the turn)."""
    if s[S_PEND] == PENDING_WATER:
        return 0 if s[S_A] & T[R_PARAM, P_WATER_BIT] else 1
    if s[S_PEND] == PENDING_FATE:
        return 0 if s[S_A] & T[R_PARAM, P_FATE_BIT] else 1
    return s[S_TURN]


@compiled
def greedy_key(s: np.ndarray, seat: int, move: int) -> int:
    """The order of ``senet.cli_engine.players.greedy_player`` as one integer: bearing off,
    then landing on an opponent, then forward, then the furthest landing (ties: from the most
    advanced square); word moves below steps: return and revive, then risk, then pass."""
    if move >= 32:
        origin, target = (move >> 5) & 31, move & 31
        forward = target > origin
        bears_off = target == OFF
        capture = not bears_off and (s[1 - seat] >> (target - 1)) & 1
        last = target * 32 + origin if forward else -origin
        return (((int(bears_off) * 2 + int(capture)) * 3 + int(forward) + 1) << 12) + last + 2048
    word = 2 if move == RETURN or move == REVIVE else 1 if move == RISK else 0
    return word + 2048


@compiled
def _seat_score(
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
    me: int,
    opp: int,
    off: int,
    capt: int,
    drown: int,
    extra: int,
    skip: int,
) -> float:
    """:meth:`senet.ai.evaluation.Evaluator._seat_score`, term by term in the same order."""
    prot = me & ((me << 1) | (me >> 1))
    vul = me & ~prot
    return (
        lo[me & 32767]
        + hi[me >> 15]
        + w[0] * off
        + w[1] * capt
        + w[2] * drown
        + w[3] * extra
        + w[4] * skip
        + w[5] * popcount(prot)
        + w[6] * popcount(vul & (opp << 1))
        + w[7] * popcount(vul & (opp << 2))
        + w[8] * popcount(vul & (opp << 3))
        + w[9] * popcount(vul & (opp << 4))
        + w[10] * popcount(vul & (opp << 5))
    )


@compiled
def evaluate(T: np.ndarray, lo: np.ndarray, hi: np.ndarray, w: np.ndarray, s: np.ndarray) -> float:
    """:meth:`senet.ai.evaluation.Evaluator.value` (linear model): seat A's expected result."""
    done = winner(T, s)
    if done >= 0:
        return 0.5 if done == DRAW else (1.0 if done == 0 else 0.0)
    if s[S_PEND] == PENDING_WATER:
        tempo = 1.0 if decider(T, s) == 0 else -1.0
    elif s[S_THROW]:
        tempo = 1.0 if decider(T, s) == 0 else -1.0
    else:
        tempo = 1.0 if s[S_TURN] == 0 else -1.0
    z = (
        _seat_score(
            lo, hi, w, s[S_A], s[S_B], s[S_OFF], s[S_CAPT], s[S_DROWN], s[S_EXTRA], s[S_SKIP]
        )
        - _seat_score(
            lo,
            hi,
            w,
            s[S_B],
            s[S_A],
            s[S_OFF + 1],
            s[S_CAPT + 1],
            s[S_DROWN + 1],
            s[S_EXTRA + 1],
            s[S_SKIP + 1],
        )
        + w[11] * tempo
    )
    if z < -40.0:
        return 0.0
    return 1.0 / (1.0 + math.exp(-z))


@compiled
def choose(
    T: np.ndarray,
    path: np.ndarray,
    s: np.ndarray,
    moves: np.ndarray,
    k: int,
    player: int,
    rng: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
    scratch: np.ndarray,
    trk: np.ndarray,
    scratch_trk: np.ndarray,
    scratch_ev: np.ndarray,
    values: np.ndarray,
) -> int:
    """The index of the move ``player`` picks among ``moves[:k]`` (``values``: working space
    of ``MAX_MOVES`` floats)."""
    if player == RANDOM:
        return below(rng, k)
    if k == 1:
        return 0
    seat = decider(T, s)
    if player == GREEDY:
        best, best_key = 0, greedy_key(s, seat, moves[0])
        for i in range(1, k):
            key = greedy_key(s, seat, moves[i])
            if key > best_key:
                best, best_key = i, key
        return best
    # EXPERT (senet.ai's "expert" level): a move that wins at once, else the first move whose
    # position the learned linear evaluation values most, values within EQUAL_WITHIN being equal
    # (senet.ai evaluates in a vectorised batch whose rounding differs in the last bits).
    best_value = -1.0
    for i in range(k):
        for j in range(s.shape[0]):
            scratch[j] = s[j]
        for side in range(2):
            for j in range(TR_WIDTH):
                scratch_trk[side, j] = trk[side, j]
        play(T, path, scratch, moves[i], scratch_ev, scratch_trk, 0)
        done = winner(T, scratch)
        if done >= 0 and done == seat:
            return i
        value = evaluate(T, lo, hi, w, scratch)
        if seat == 1:
            value = 1.0 - value
        values[i] = value
        best_value = max(best_value, value)
    for i in range(k):
        if values[i] >= best_value - EQUAL_WITHIN:
            return i
    return 0


# ----------------------------------------------------------------- whole games
#: Columns of a game's summary row.
G_WINNER, G_TURNS, G_DECISIONS, G_THROWS, G_LAST_VISITED, G_LOSER, G_WIDTH = 0, 1, 2, 3, 4, 5, 6


@compiled
def play_game(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    rng: np.ndarray,
    player_a: int,
    player_b: int,
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
    houses: int,
    max_decisions: int,
    ev: np.ndarray,
    row: np.ndarray,
    work: np.ndarray,
    trk: np.ndarray,
    scratch_trk: np.ndarray,
    scratch_ev: np.ndarray,
    values: np.ndarray,
) -> None:
    """One game from ``start``; its events are added to ``ev``, its summary written to ``row``
    (winner -1 when stopped after ``max_decisions``).  ``work`` (``int64[3, MAX_MOVES]``),
    ``trk``, ``scratch_trk`` (``int64[2, TR_WIDTH]``), ``scratch_ev`` and ``values``
    (``float64[MAX_MOVES]``) are working space."""
    s = work[0]
    scratch = work[1]
    moves = work[2]
    for j in range(start.shape[0]):
        s[j] = start[j]
    track_start(s, trk)
    turns = decisions = throws = 0
    new_turn = True
    result = winner(T, s)
    while result < 0 and decisions < max_decisions:
        if not s[S_THROW] and s[S_PEND] != PENDING_WATER:
            if s[S_PEND] != PENDING_FATE and new_turn:
                turns += 1
            new_turn = False
            throws += throw_turn(T, s, rng, ev)
        k = legal(T, path, s, moves)
        if s[S_PEND] == NO_PENDING:
            if T[R_PARAM, P_THROWS_FIRST]:
                # pieces that no throw of the turn moves
                origins = 0
                for j in range(k):
                    if moves[j] >= 32:
                        origins |= 1 << (((moves[j] >> 5) & 31) - 1)
                ev[EV_BLOCKED] += popcount(s[s[S_TURN]] & ~origins)
            else:
                steps = 0
                for j in range(k):
                    if moves[j] >= 32:
                        steps += 1
                ev[EV_BLOCKED] += popcount(s[s[S_TURN]]) - steps
        i = 0
        if k > 1:
            player = player_a if decider(T, s) == 0 else player_b
            i = choose(
                T,
                path,
                s,
                moves,
                k,
                player,
                rng,
                lo,
                hi,
                w,
                scratch,
                trk,
                scratch_trk,
                scratch_ev,
                values,
            )
        if play(T, path, s, moves[i], ev, trk, houses):
            new_turn = True
        decisions += 1
        result = winner(T, s)
    row[G_WINNER] = result
    row[G_TURNS] = turns
    row[G_DECISIONS] = decisions
    row[G_THROWS] = throws
    row[G_LOSER] = -1
    row[G_LAST_VISITED] = 0
    if result == 0 or result == 1:
        loser = 1 - result
        row[G_LOSER] = loser
        if not T[R_PARAM, P_RACE] and s[S_A] | s[S_B]:
            ev[EV_EARLY_END] += 1
        piece = -1
        if trk[loser, TR_DEPTH]:
            piece = trk[loser, TR_DROWNED + trk[loser, TR_DEPTH] - 1]
        else:
            for sq in range(1, SQUARES + 1):
                if trk[loser, TR_ID + sq] >= 0:
                    piece = trk[loser, TR_ID + sq]
                    break
        if piece < 0:
            piece = trk[loser, TR_LAST_LEFT]
        if piece >= 0:
            row[G_LAST_VISITED] = trk[loser, TR_VISITED + piece]


#: Length histograms have this many bins; longer games go to the last one.
HIST_BINS = 2048


@njit(cache=True)
def run_games(
    T: np.ndarray,
    path: np.ndarray,
    start: np.ndarray,
    seed: int,
    first: int,
    count: int,
    player_a: int,
    player_b: int,
    lo: np.ndarray,
    hi: np.ndarray,
    w: np.ndarray,
    max_decisions: int,
    results: np.ndarray,
    ev_sum: np.ndarray,
    ev_sq: np.ndarray,
    hist_turns: np.ndarray,
    hist_decisions: np.ndarray,
    lengths: np.ndarray,
    visits: np.ndarray,
    rows: np.ndarray,
) -> None:
    """Games ``first`` .. ``first + count - 1`` of the run ``seed``, accumulated:
    ``results[winner]`` (index 3: stopped), per-event sums and sums of squares over games,
    length histograms, ``lengths`` = the sums of turns, of their squares, of decisions and of
    their squares (exact where a game outlasts the histogram), ``visits[square]`` = games whose loser's last piece visited the House
    on that square; and, when ``rows`` has a row per game, each game's summary."""
    houses = T[R_PARAM, P_HOUSES]
    rng = np.zeros(1, dtype=np.uint64)
    ev = np.zeros(ev_sum.shape[0], dtype=np.int64)
    row = np.zeros(G_WIDTH, dtype=np.int64)
    work = np.zeros((3, MAX_MOVES), dtype=np.int64)
    trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    scratch_trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
    scratch_ev = np.zeros(ev_sum.shape[0], dtype=np.int64)
    values = np.zeros(MAX_MOVES, dtype=np.float64)
    keep = rows.shape[0] >= count
    last = hist_turns.shape[0] - 1
    for g in range(count):
        rng[0] = game_seed(seed, first + g)
        ev[:] = 0
        play_game(
            T,
            path,
            start,
            rng,
            player_a,
            player_b,
            lo,
            hi,
            w,
            houses,
            max_decisions,
            ev,
            row,
            work,
            trk,
            scratch_trk,
            scratch_ev,
            values,
        )
        result = row[G_WINNER]
        results[result if result >= 0 else 3] += 1
        for e in range(ev.shape[0]):
            x = ev[e]
            ev_sum[e] += x
            ev_sq[e] += x * x
        hist_turns[min(row[G_TURNS], last)] += 1
        hist_decisions[min(row[G_DECISIONS], last)] += 1
        lengths[0] += row[G_TURNS]
        lengths[1] += row[G_TURNS] * row[G_TURNS]
        lengths[2] += row[G_DECISIONS]
        lengths[3] += row[G_DECISIONS] * row[G_DECISIONS]
        mask = row[G_LAST_VISITED]
        if mask:
            for sq in range(1, SQUARES + 1):
                if mask & (1 << (sq - 1)):
                    visits[sq] += 1
        if keep:
            rows[g, :] = row
