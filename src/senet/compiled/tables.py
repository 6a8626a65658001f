"""The engine's compiled rule tables (:mod:`senet.engine.rules`), laid out as NumPy arrays for
the compiled simulator.

Nothing here states a rule: every number is read from :class:`senet.engine.rules.Tables`, which
the engine builds from the variant's data.  A variant the engine can play (a registered one or
an alternative reading built with :func:`dataclasses.replace`) is one the simulator can play.
A House kind the compiled kernel does not know is refused here, by name, rather than played
wrongly.

Layout: one ``int64[ROWS, COLS]`` array ``T``, one row per per-square fact (indexed by square,
0 and 31 padding) plus a row of scalars (:data:`P_SAFE` ...), and the ``int64[32, 32]`` path
masks.  Moves are small integers: ``origin * 32 + target`` for a step (target 31 = borne off),
plus ``throw * 1024`` where the move names the throw it uses (a bearing off that several throws
allow, where all throws of a turn come first), and :data:`PASS`, :data:`REVIVE`, :data:`RISK`
and :data:`RETURN` for the word moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from senet.engine import Move, Variant
from senet.engine.moves import MOVE
from senet.engine.rules import tables_for
from senet.engine.variants import OFF, SQUARES, HouseKind

__all__ = [
    "CompiledRules",
    "compile_rules",
    "encode_move",
    "decode_move",
    "PASS",
    "REVIVE",
    "RISK",
    "RETURN",
    "NAMED_THROW",
]

# Rows of T.
R_NEIGH, R_BOTH, R_FAR, R_KIND, R_BEAR, R_EXIT, R_DROWN_ATTACK = 0, 1, 2, 3, 4, 5, 6
R_BOARD_ORIGINS, R_OFF_ORIGINS, R_PATTERNS, R_PARAM = 7, 8, 9, 10
ROWS, COLS = 11, 40

# Scalars in row R_PARAM.
(
    P_SAFE,
    P_STOP,
    P_SINGLES,
    P_PROTECTION,
    P_CAPTURE_REMOVE,
    P_BACKWARD,
    P_PRIORITY,
    P_EXTRA_THROWS,
    P_WATER_SQ,
    P_WATER_BIT,
    P_FATE_SQ,
    P_FATE_BIT,
    P_REBIRTH,
    P_REVIVAL,
    P_RACE,
    P_PIECES,
    P_BA_SQ,
    P_PARALLEL,
    P_BY_LEFT,
    P_PATTERNS,
    P_BITS,
    P_HOUSES,
    P_BY_RIGHT,
    P_GATES,
    P_EXTRA_AFTER_PASS,
    P_PAST_THREE,
    P_HOME,
    P_WAITING_A,
    P_WAITING_B,
    P_SEND_BACK,
    P_THROWS_FIRST,
    P_WAIT_SQ,
    P_WAIT_BIT,
    P_GUARDED,
    P_BEAR_OFF_OPTIONAL,
) = range(35)

# House kinds as small integers (0: no effect, which includes the plain Houses).
K_NONE, K_REBIRTH, K_NET, K_BA, K_FATE, K_DROWN, K_SEND_BACK, K_WATER, K_WATER_WAIT = range(9)
_KINDS = {
    HouseKind.REBIRTH: K_REBIRTH,
    HouseKind.NET: K_NET,
    HouseKind.BA: K_BA,
    HouseKind.FATE: K_FATE,
    HouseKind.DROWN: K_DROWN,
    HouseKind.SEND_BACK: K_SEND_BACK,
    HouseKind.WATER_CHOICE: K_WATER,
    HouseKind.WATER_WAIT: K_WATER_WAIT,
}
BACK_NONE, BACK_PLAYER, BACK_PIECE, BACK_PIECE_TO_EMPTY = 0, 1, 2, 3
_BACKWARD = {
    "none": BACK_NONE,
    "player": BACK_PLAYER,
    "piece": BACK_PIECE,
    "piece-to-empty": BACK_PIECE_TO_EMPTY,
}

PASS, REVIVE, RISK, RETURN = 0, 1, 2, 3
_WORDS = {"pass": PASS, "revive": REVIVE, "risk": RISK, "return": RETURN}
_WORD_OF = {code: word for word, code in _WORDS.items()}


def _plain(value: object) -> object:
    """An option's plain value, whether the engine spells it as a string or as an Enum."""
    return value.value if isinstance(value, Enum) else value


def _bit(square: int) -> int:
    return 1 << (square - 1)


@dataclass(frozen=True)
class CompiledRules:
    """A variant's tables as the kernel reads them."""

    variant: Variant
    table: np.ndarray  # int64[ROWS, COLS]
    path: np.ndarray  # int64[32, 32]
    start: np.ndarray  # int64[state.SIZE]: the initial raw state

    @property
    def houses(self) -> tuple[int, ...]:
        """The squares with a House (plain ones too), lowest first."""
        return tuple(sorted(self.variant.houses))


def compile_rules(variant: Variant) -> CompiledRules:
    """Lay the engine's tables of ``variant`` out for the kernel."""
    t = tables_for(variant)
    if t.divided:
        raise ValueError(
            f"the compiled simulator does not know divided_throws (variant {variant.name})"
        )
    table = np.zeros((ROWS, COLS), dtype=np.int64)
    for sq in range(SQUARES + 2):
        table[R_NEIGH, sq] = t.neigh[sq]
        table[R_BOTH, sq] = t.both[sq]
        table[R_FAR, sq] = t.far[sq]
        kind = t.kind[sq]
        if kind is not None:
            if kind not in _KINDS:
                raise ValueError(
                    f"the compiled simulator does not know the House kind {kind!r} "
                    f"(square {sq} of {variant.name})"
                )
            table[R_KIND, sq] = _KINDS[kind]
        table[R_BEAR, sq] = sum(1 << n for n in t.bear_off[sq])
        table[R_EXIT, sq] = int(t.exit_only[sq])
        table[R_DROWN_ATTACK, sq] = int(t.drown_attack[sq])
    for n in range(len(t.board_origins)):
        table[R_BOARD_ORIGINS, n] = t.board_origins[n]
        table[R_OFF_ORIGINS, n] = t.off_origins[n]
    instrument = variant.instrument
    if instrument.patterns & (instrument.patterns - 1) or instrument.patterns > 32:
        raise ValueError(f"{instrument.name}: the number of patterns must be a power of two")
    for k in range(instrument.patterns):
        table[R_PATTERNS, k] = instrument.value_of(k)
    backward = _plain(t.backward)
    if backward not in _BACKWARD:
        raise ValueError(f"the compiled simulator does not know backward={backward!r}")
    params = {
        P_SAFE: t.safe,
        P_STOP: t.stop_mask,
        P_SINGLES: int(t.singles),
        P_PROTECTION: t.protection,
        P_CAPTURE_REMOVE: int(t.capture_remove),
        P_BACKWARD: _BACKWARD[backward],
        P_PRIORITY: t.priority,
        P_EXTRA_THROWS: sum(1 << n for n in t.extra_throws),
        P_WATER_SQ: t.water_sq,
        P_WATER_BIT: t.water_bit,
        P_FATE_SQ: t.fate_sq,
        P_FATE_BIT: t.fate_bit,
        P_REBIRTH: t.rebirth,
        P_REVIVAL: int(t.revival),
        P_RACE: int(t.race),
        P_PIECES: t.pieces,
        P_BA_SQ: t.ba_sq,
        P_PARALLEL: int(t.parallel),
        P_BY_LEFT: t.by_left,
        P_BY_RIGHT: t.by_right,
        P_GATES: t.gates,
        P_EXTRA_AFTER_PASS: int(t.extra_after_pass),
        P_PAST_THREE: int(t.past_three),
        P_HOME: t.home,
        P_WAITING_A: t.waiting[0],
        P_WAITING_B: t.waiting[1],
        P_SEND_BACK: int(t.send_back),
        P_THROWS_FIRST: int(t.throws_first),
        P_WAIT_SQ: t.wait_sq,
        P_WAIT_BIT: t.wait_bit,
        P_GUARDED: t.guarded,
        P_BEAR_OFF_OPTIONAL: int(t.bear_off_optional),
        P_PATTERNS: instrument.patterns,
        P_BITS: (instrument.patterns - 1).bit_length(),
        P_HOUSES: sum(_bit(sq) for sq in variant.houses),
    }
    for index, value in params.items():
        table[R_PARAM, index] = value
    path = np.zeros((SQUARES + 2, SQUARES + 2), dtype=np.int64)
    for a in range(SQUARES + 2):
        for b in range(SQUARES + 2):
            path[a, b] = t.path[a][b]
    start = np.array(variant.start_position().state, dtype=np.int64)
    return CompiledRules(variant, table, path, start)


#: A step's code carries the throw it names at this factor (see the module's docstring).
NAMED_THROW = 1024


def encode_move(move: Move) -> int:
    """The kernel's integer for an engine move."""
    if move.kind == MOVE:
        return move.throw * NAMED_THROW + move.origin * 32 + move.target
    return _WORDS[move.kind]


def decode_move(code: int) -> Move:
    """The engine move of a kernel integer."""
    if code >= 32:
        return Move(MOVE, (code >> 5) & 31, code & 31, code // NAMED_THROW)
    return Move(_WORD_OF[code])


if OFF != 31:  # a step's target fits in five bits
    raise RuntimeError(f"the kernel packs a target in five bits: OFF is {OFF}, not 31")
