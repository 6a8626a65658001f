"""The compiled kernel against the pure engine, position by position.

:func:`compare` walks random games on the pure engine (:mod:`senet.engine.flow`) and, at every
decision, asks both for the legal moves (the same moves in the same order) and applies every
one of them on both (the same state afterwards, the same answer to "does a new turn begin").
It counts the special states it met, so a caller can require that each kind the variant can
reach was compared: extra throws owed, turns to skip, drowned and captured pieces, a pending
throw of fate or House of Water choice, a piece waiting on its starting square, every piece
home (bearing off allowed), a move barred by three opponents in a row, a legal move back and
a legal move onto an opponent; where all throws of a turn come first (kendall-1978), throws of
several values banked, a returned piece that has not moved, a piece waiting in the House of
Water, a move onto an opponent on 28-30 barred while it waits, and a pass that declines a
bearing off.  At every chance node both paths bank the throw (or not) alike.

Where bearing off waits until every piece is home (:attr:`Variant.bear_off_home`), uniformly
random games last hundreds of thousands of decisions and rarely reach the home stretch, so
there a share of the moves (:func:`purposeful_share`) bears off or moves the rearmost piece
that can go forward.
"""

from __future__ import annotations

import random
from collections import Counter
from copy import copy
from dataclasses import dataclass, field

import numpy as np

from senet.compiled.kernel import (
    MAX_MOVES,
    N_EVENTS,
    PENDING_FATE,
    PENDING_WATER,
    S_CAPT,
    S_DROWN,
    S_EXTRA,
    S_PEND,
    S_SKIP,
    S_THROW,
    TR_WIDTH,
    legal,
    track_start,
)
from senet.compiled.kernel import play as compiled_play
from senet.compiled.kernel import thrown as compiled_thrown
from senet.compiled.tables import compile_rules, decode_move, encode_move
from senet.engine import Position, Variant
from senet.engine.flow import legal_moves, play, thrown, winner
from senet.engine.moves import MOVE, PASS, Move
from senet.engine.rules import VICTIM, Tables, bit, iter_squares, step, tables_for
from senet.engine.state import BANK, MASK, RETURNED, TURN, bank_values
from senet.engine.variants import OFF, SQUARES

__all__ = ["compare", "compare_position", "Mismatch", "Coverage", "SPECIAL", "purposeful_share"]

#: The special states counted (a position may be in several).
SPECIAL = (
    "extra",
    "skip",
    "drowned",
    "captured",
    "fate",
    "water",
    "waiting",
    "home",
    "three",
    "back",
    "attack",
    "banked",
    "returned",
    "water_wait",
    "guarded",
    "optional",
)


class Mismatch(AssertionError):
    """The two paths disagree; the message names the position and what differs."""


@dataclass
class Coverage:
    positions: int = 0
    moves: int = 0
    games: int = 0
    special: Counter[str] = field(default_factory=Counter)


def purposeful_share(variant: Variant) -> float:
    """The share of purposeful moves (see :func:`_purposeful`) in :func:`compare`'s games."""
    return 0.5 if variant.bear_off_home else 0.0


def _purposeful(move: Move) -> int:
    """Bearing off first, then the rearmost piece that can go forward (which frees the
    starting squares), then anything else."""
    if move.kind != MOVE or move.target < move.origin:
        return -1
    return SQUARES + 1 if move.target == OFF else SQUARES - move.origin


def _three_in_a_row(mask: int) -> int:
    return mask & (mask >> 1) & (mask >> 2)


def _unguarded(t: Tables) -> Tables:
    """``t`` without the squares guarded while a piece waits in the House of Water."""
    free = copy(t)
    free.guarded = 0
    return free


def _guard_bars(t: Tables, s: list[int]) -> bool:
    """Would a piece of the player land on an opponent with a throw of the turn, but for the
    squares guarded while a piece waits in the House of Water?"""
    if not t.guarded or not (s[MASK] | s[MASK + 1]) & t.wait_bit:
        return False
    p = s[TURN]
    me, opp = s[MASK + p], s[MASK + 1 - p]
    free = _unguarded(t)
    return any(
        step(free, me, opp, sq, v, True) & VICTIM and not step(t, me, opp, sq, v, True)
        for v in {s[S_THROW], *bank_values(s[BANK])}
        for sq in iter_squares(me)
    )


def _specials(t: Tables, s: list[int], moves: list[Move]) -> list[str]:
    out = []
    if s[S_EXTRA] or s[S_EXTRA + 1]:
        out.append("extra")
    if s[S_SKIP] or s[S_SKIP + 1]:
        out.append("skip")
    if s[S_DROWN] or s[S_DROWN + 1]:
        out.append("drowned")
    if s[S_CAPT] or s[S_CAPT + 1]:
        out.append("captured")
    if s[S_PEND] == PENDING_FATE:
        out.append("fate")
    if s[S_PEND] == PENDING_WATER:
        out.append("water")
    if s[RETURNED]:
        out.append("returned")
    if (s[MASK] | s[MASK + 1]) & t.wait_bit:
        out.append("water_wait")
    if s[S_PEND]:
        return out
    n, p = s[S_THROW], s[TURN]
    me, opp = s[MASK + p], s[MASK + 1 - p]
    if t.throws_first:
        if len({n, *bank_values(s[BANK])}) > 1:
            out.append("banked")
        if _guard_bars(t, s):
            out.append("guarded")
        if len(moves) > 1 and any(m.kind == PASS for m in moves):
            out.append("optional")
    if me & t.waiting[p] & ((me | opp) >> 1):
        out.append("waiting")
    if t.home and me and not me & ~t.home:
        out.append("home")
    if t.past_three and any(
        me & bit(sq)
        and _three_in_a_row(opp & t.path[sq][sq + n] if sq + n <= SQUARES else opp >> sq)
        for sq in range(1, SQUARES + 1)
    ):
        out.append("three")
    steps = [m for m in moves if m.kind == MOVE]
    if any(m.target < m.origin for m in steps):
        out.append("back")
    if any(m.target != OFF and opp & bit(m.target) for m in steps):
        out.append("attack")  # a legal move whose last square holds an opponent
    return out


class _Paths:
    """Both paths of one variant, with the compiled path's working arrays."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.t = tables_for(variant)
        self.rules = compile_rules(variant)
        self.width = len(self.rules.start)
        self.state = np.zeros(MAX_MOVES, dtype=np.int64)
        self.after = np.zeros(MAX_MOVES, dtype=np.int64)
        self.moves = np.zeros(MAX_MOVES, dtype=np.int64)
        self.trk = np.zeros((2, TR_WIDTH), dtype=np.int64)
        self.events = np.zeros(N_EVENTS, dtype=np.int64)

    def thrown(self, s: list[int], value: int) -> list[int]:
        """The state after a throw of ``value``, the same on both paths."""
        banked = list(thrown(self.t, s, value))
        width, state = self.width, self.state
        state[:width] = s
        compiled_thrown(self.rules.table, state, value, self.events)
        if list(state[:width]) != banked:
            raise Mismatch(
                f"{_fen(self.variant, s)}: after a throw of {value} the engine has "
                f"{tuple(banked)}, the compiled path {tuple(state[:width])}"
            )
        return banked

    def decision(self, s: list[int]) -> list[Move]:
        """The legal moves of ``s``, the same on both paths, each applied on both alike."""
        t, rules, width, state, after = self.t, self.rules, self.width, self.state, self.after
        expected = legal_moves(t, s)
        state[:width] = s
        k = legal(rules.table, rules.path, state, self.moves)
        got = [decode_move(int(m)) for m in self.moves[:k]]
        if got != expected:
            raise Mismatch(
                f"{_fen(self.variant, s)}: legal moves {', '.join(map(str, expected))} on the "
                f"engine, {', '.join(map(str, got))} compiled"
            )
        for move in expected:
            reference = list(s)
            turn = play(t, reference, move)
            after[:] = state
            track_start(after, self.trk)
            compiled_turn = compiled_play(
                rules.table, rules.path, after, encode_move(move), self.events, self.trk, 0
            )
            if list(after[:width]) != reference or bool(compiled_turn) != turn:
                raise Mismatch(
                    f"{_fen(self.variant, s)}: after {move} the engine has {tuple(reference)} "
                    f"(new turn {turn}), the compiled path {tuple(after[:width])} "
                    f"(new turn {bool(compiled_turn)})"
                )
        return expected


def compare_position(position: Position) -> list[Move]:
    """Compare both paths on one decision position (legal moves, and the state after each);
    returns its legal moves.  For scenario positions that random play rarely reaches."""
    return _Paths(position.variant).decision(list(position.state))


def compare(variant: Variant, positions: int, seed: int) -> Coverage:
    """Compare both paths on ``positions`` decision positions of seeded random games."""
    purposeful = purposeful_share(variant)
    paths = _Paths(variant)
    t = paths.t
    rng = random.Random(seed)
    values = [variant.instrument.value_of(k) for k in range(variant.instrument.patterns)]
    cover = Coverage()
    s = list(variant.start_position().state)
    while cover.positions < positions:
        if winner(t, s) is not None:
            s = list(variant.start_position().state)
            cover.games += 1
        while not s[S_THROW] and s[S_PEND] != PENDING_WATER:
            s = paths.thrown(s, rng.choice(values))
        expected = paths.decision(s)
        cover.positions += 1
        cover.moves += len(expected)
        cover.special.update(_specials(t, s, expected))
        if purposeful and rng.random() < purposeful:
            play(t, s, max(expected, key=_purposeful))
        else:
            play(t, s, rng.choice(expected))
    return cover


def _fen(variant: Variant, s: list[int]) -> str:
    try:
        return Position(variant, tuple(s)).fen()
    except Exception:  # a state the notation cannot write still gets reported
        return f"{variant.name} state {tuple(s)}"
