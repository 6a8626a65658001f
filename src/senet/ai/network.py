"""The trained evaluation: a small neural network learned by self-play, run with numpy.

The network sees a position from the side of the seat that acts next (the *mover*: the seat
on turn, or the owner of a pending House decision) and estimates the mover's expected result
(P(win) + ½·P(draw)).  Seat A's value is that estimate or one minus it.  Both seats run the
same track in the same direction, so one network serves both, and the value is antisymmetric
by construction.

Inputs (:data:`INPUTS`), for the mover and then for the opponent (45 each):

* ``sq1`` .. ``sq30``: a piece on the square (the Houses are squares, so this is also where
  the Houses are occupied);
* ``off``, ``captured``, ``drowned`` (fractions of the seat's pieces), ``extra`` and ``skip``
  (throws owed and turns to be skipped, capped at 3);
* ``pips``: the race, the squares still to run (a drowned piece counts from the House of
  Rebirth), as a fraction of the start;
* ``protected``: pieces beside a piece of their own colour; ``att1`` .. ``att5``: unprotected
  pieces with an opposing piece that many squares behind (hits a throw of that size offers);
* ``block3``: pieces in rows of three or more (a block that cannot be passed in most
  variants);
* ``rear``, ``front``: the last and the first piece's square;

then eleven for the position: ``contact`` (some piece still has an opposing piece ahead of it;
without contact the game is a pure race), ``pending_water`` and ``pending_fate`` (a House
decision awaits), ``throw`` (a throw already made, over 5), ``bank1`` .. ``bank5`` (where all
throws of a turn are made before moving: the turn's other throws still to be used, of each
value, capped at 3, over 3) and ``returned.me``, ``returned.opp`` (pieces of each seat back
from the House of Water that have not moved since, as a fraction of the seat's pieces: they
may be attacked wherever they stand).  The last seven are zero in every variant without
banked throws; they were added after the others (:data:`FIRST_INPUTS`), so weights trained
before them load with zero weight on them (:meth:`NetEvaluator.load`).

The weights are learned by TD(λ) self-play on the compiled simulator
(:mod:`senet.ai.selfplay`; in standard then fitted to the network's own deeper search,
:mod:`senet.ai.fitted`) and shipped as ``senet/ai/weights/<variant>.td.npz``.  Inference is
plain numpy on a batch of raw states (:meth:`NetEvaluator.values_of_states`): the search
evaluates every move of its last decisions in one call.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import numpy as np

from senet.engine import Position, Variant
from senet.engine.rules import tables_for
from senet.engine.state import (
    BANK,
    BANK_BITS,
    BORNE_OFF,
    CAPTURED,
    DROWNED,
    EXTRA,
    HAND,
    LAYOUT_VERSION,
    MASK,
    PENDING,
    PENDING_FATE,
    PENDING_WATER,
    RETURNED,
    SIZE,
    SKIP,
    THROW,
    TURN,
)

from . import inputs
from .evaluation import terminal_value
from .inputs import BANK_CAP, BANKED_VALUES, DROWNED_PIPS

__all__ = [
    "INPUTS",
    "N_INPUTS",
    "FIRST_INPUTS",
    "SEAT_INPUTS",
    "NetEvaluator",
    "network_for",
    "features_of_states",
    "movers",
]

SEAT_INPUTS = (
    *(f"sq{i}" for i in range(1, 31)),
    "off",
    "captured",
    "drowned",
    "extra",
    "skip",
    "pips",
    "protected",
    "att1",
    "att2",
    "att3",
    "att4",
    "att5",
    "block3",
    "rear",
    "front",
)
GLOBAL_INPUTS = (
    "contact",
    "pending_water",
    "pending_fate",
    "throw",
    *(f"bank{v}" for v in range(1, 6)),
    "returned.me",
    "returned.opp",
)
INPUTS = (
    *(f"me.{n}" for n in SEAT_INPUTS),
    *(f"opp.{n}" for n in SEAT_INPUTS),
    *GLOBAL_INPUTS,
)
N_SEAT = len(SEAT_INPUTS)
N_INPUTS = len(INPUTS)
if (N_SEAT, N_INPUTS) != (inputs.N_SEAT, inputs.N_INPUTS):
    raise RuntimeError("the names and the inputs differ")
#: The inputs of the first weight files (before the banked throws and the returned pieces):
#: training draws their first-layer weights first and starts the later ones at zero, so a
#: variant where the later inputs are always zero trains exactly as it did before them.
FIRST_INPUTS = 2 * N_SEAT + 4
#: Format of the shipped weight files; a file of another format is refused.
FORMAT = 1

_SQ = np.arange(30, dtype=np.int64)
_RUN = np.arange(30, 0, -1, dtype=np.int64)  # squares still to run from square 1 .. 30
_FULL = (1 << 30) - 1
# The fast path's index arrays: seat fields swapped (so the mover's come first), the seat
# fields of the inputs, and the 10-square chunks of both masks.
#: the raw state's columns with the two seats' fields exchanged (the pieces in hand are a
#: seat's field; the other fields after the pending decision are no seat's)
_SWAP = np.array(
    [1, 0, 2, 3, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, PENDING, BANK, RETURNED, HAND + 1, HAND]
    + list(range(HAND + 2, SIZE))
)
_SEAT_FIELDS = np.array(
    [[BORNE_OFF, CAPTURED, DROWNED], [BORNE_OFF + 1, CAPTURED + 1, DROWNED + 1]]
)
_SEAT_TURNS = np.array([[EXTRA, SKIP], [EXTRA + 1, SKIP + 1]])
_CHUNK_SHIFT = np.array([0, 10, 20])
_CHUNK_BASE = np.array([[0, 1024, 2048], [3072, 4096, 5120]])
_SHIFTS = np.arange(1, 6)


def _popcount(x: np.ndarray) -> np.ndarray:
    return ((x[..., None] >> _SQ) & 1).sum(axis=-1)


_bit_count = getattr(np, "bitwise_count", _popcount)


def movers(s: np.ndarray, water_bit: int, fate_bit: int) -> np.ndarray:
    """The seat that acts next in each raw state (rows of ``s``): the owner of a pending
    Water choice, else the seat on turn while a throw is due, else the decider."""
    pend, throw, turn = s[:, PENDING], s[:, THROW], s[:, TURN]
    a = s[:, MASK]
    water_owner = np.where(a & water_bit, 0, 1)
    fate_owner = np.where(a & fate_bit, 0, 1)
    decide = np.where(pend == PENDING_FATE, fate_owner, turn)
    return np.where(pend == PENDING_WATER, water_owner, np.where(throw == 0, turn, decide))


def features_of_states(
    s: np.ndarray, pieces: int, water_bit: int, fate_bit: int
) -> tuple[np.ndarray, np.ndarray]:
    """The network's inputs for each raw state (rows of the int64 array ``s``) and the mover
    of each (the seat whose view the inputs take): :func:`senet.ai.inputs.state_inputs`, the
    one definition that the compiled code compiles, run as plain Python."""
    x = np.zeros((len(s), N_INPUTS), dtype=np.float64)
    mover = np.zeros(len(s), dtype=np.int64)
    for r, state in enumerate(np.asarray(s, dtype=np.int64).tolist()):
        mover[r] = inputs.state_inputs(state, pieces, water_bit, fate_bit, x[r])
    return x, mover


def _banked(bank: np.ndarray) -> np.ndarray:
    """Inputs ``bank1`` .. ``bank5`` of the BANK fields ``bank``: the count of each value,
    capped at :data:`BANK_CAP`, over it."""
    counts = (bank[:, None] >> (BANK_BITS * np.arange(BANKED_VALUES))) & ((1 << BANK_BITS) - 1)
    return np.minimum(counts, BANK_CAP) / BANK_CAP


class NetEvaluator:
    """Seat A's expected result by the trained network: ``sigmoid(w2 @ tanh(W1 @ x + b1) +
    b2)`` is the mover's, so A's is that or one minus it."""

    def __init__(
        self,
        variant: Variant,
        w1: np.ndarray,
        b1: np.ndarray,
        w2: np.ndarray,
        b2: float,
        info: dict[str, str] | None = None,
    ) -> None:
        hidden = w1.shape[0]
        if w1.shape != (hidden, N_INPUTS) or b1.shape != (hidden,) or w2.shape != (hidden,):
            raise ValueError(
                f"network shapes {w1.shape}, {b1.shape}, {w2.shape} do not fit"
                f" {N_INPUTS} inputs and {hidden} hidden units"
            )
        self.variant = variant
        self.w1 = np.ascontiguousarray(w1, dtype=np.float64)
        self.b1 = np.ascontiguousarray(b1, dtype=np.float64)
        self.w2 = np.ascontiguousarray(w2, dtype=np.float64)
        self.b2 = float(b2)
        self.info = dict(info or {})
        t = tables_for(variant)
        self._pieces, self._water, self._fate = t.pieces, t.water_bit, t.fate_bit
        self._fold()

    def _fold(self) -> None:
        """Precompute the fast path of :meth:`values_of_states`: the first layer is linear in
        the inputs, so the part of the 30 occupancy inputs and of the pips (linear in the
        occupancy too) is read from tables over 10-square chunks of each seat's mask, and
        only the other inputs are computed per state."""
        w1, p = self.w1, self._pieces
        chunks: list[np.ndarray] = []
        bits = (np.arange(1024)[:, None] >> np.arange(10)) & 1  # (1024, 10)
        for block in (0, 1):
            base = block * N_SEAT
            for c in range(3):
                sq = np.arange(10 * c, 10 * c + 10)
                per_bit = w1[:, base + sq] + np.outer(w1[:, base + 35], (30 - sq) / (30 * p))
                chunks.append(bits @ per_bit.T)  # (1024, hidden)
        self._table = np.concatenate(chunks)  # (6 * 1024, hidden): mover's chunks, then opp's
        rest = [i for i in range(N_INPUTS) if i % N_SEAT >= 30 and i < 2 * N_SEAT]
        self._rest = rest + list(range(2 * N_SEAT, N_INPUTS))
        self._w_rest = np.ascontiguousarray(w1[:, self._rest].T)

    @property
    def hidden(self) -> int:
        return int(self.w1.shape[0])

    def mover_values(self, x: np.ndarray) -> np.ndarray:
        """The mover's expected result for each row of inputs ``x``."""
        z = np.tanh(x @ self.w1.T + self.b1) @ self.w2 + self.b2
        return 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))

    def values_of_states(self, states: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
        """Seat A's expected result in each open (not finished) raw state: the network on
        :func:`features_of_states`, computed by the folded fast path (the same sums in
        another order, both seats at once: the search calls this for every small batch)."""
        s = np.asarray(states, dtype=np.int64).reshape(-1, SIZE)
        first = movers(s, self._water, self._fate) == 0
        v = np.where(first[:, None], s, s[:, _SWAP])  # the mover's fields first
        m = v[:, 0:2]  # (n, 2): the mover's mask, the opponent's
        a = self._table[((m[:, :, None] >> _CHUNK_SHIFT) & 1023) + _CHUNK_BASE].sum(axis=(1, 2))
        prot = m & ((m << 1) | (m >> 1))
        vul = m & ~prot
        b3 = m & (m >> 1) & (m >> 2)
        rear = np.frexp((m & -m).astype(np.float64))[1]
        front = np.frexp(m.astype(np.float64))[1]
        rest = np.empty((len(s), 2, 15), dtype=np.float64)
        rest[:, :, 0:3] = v[:, _SEAT_FIELDS]  # off, captured, drowned
        rest[:, :, 3:5] = np.minimum(v[:, _SEAT_TURNS], 3) * (1 / 3)  # extra, skip
        rest[:, :, 5] = rest[:, :, 2] * (DROWNED_PIPS / 30)
        rest[:, :, 6] = _bit_count(prot)
        rest[:, :, 7:12] = _bit_count(vul[:, :, None] & (m[:, ::-1, None] << _SHIFTS))
        rest[:, :, 12] = _bit_count((b3 | (b3 << 1) | (b3 << 2)) & _FULL)
        rest[:, :, 13] = rear * (1 / 30)
        rest[:, :, 14] = front * (1 / 30)
        rest[:, :, :13] *= 1 / self._pieces
        rest[:, :, 3:5] *= self._pieces
        g = np.empty((len(s), len(GLOBAL_INPUTS)), dtype=np.float64)
        g[:, 0] = (rear[:, 0] > 0) & (rear[:, 1] > 0)
        g[:, 0] *= (rear[:, 0] < front[:, 1]) | (rear[:, 1] < front[:, 0])
        g[:, 1] = s[:, PENDING] == PENDING_WATER
        g[:, 2] = s[:, PENDING] == PENDING_FATE
        g[:, 3] = s[:, THROW] * (1 / 5)
        g[:, 4 : 4 + BANKED_VALUES] = _banked(s[:, BANK])
        g[:, 9:11] = _bit_count(m & s[:, RETURNED, None]) * (1 / self._pieces)
        a += rest.reshape(len(s), 30) @ self._w_rest[:30] + g @ self._w_rest[30:] + self.b1
        z = np.tanh(a) @ self.w2 + self.b2
        out = 1.0 / (1.0 + np.exp(-np.clip(z, -40.0, 40.0)))
        return np.where(first, out, 1.0 - out)

    def reference_values(self, states: Sequence[Sequence[int]] | np.ndarray) -> np.ndarray:
        """:meth:`values_of_states` the plain way, on the inputs of :func:`features_of_states`
        (what the fast path must agree with)."""
        s = np.asarray(states, dtype=np.int64).reshape(-1, SIZE)
        x, mover = features_of_states(s, self._pieces, self._water, self._fate)
        v = self.mover_values(x)
        return np.where(mover == 0, v, 1.0 - v)

    def value(self, position: Position) -> float:
        """A's expected result: exact when the game is over, else the network's estimate."""
        done = terminal_value(position)
        if done is not None:
            return done
        return float(self.values_of_states([position.state])[0])

    # ----------------------------------------------------------------- persistence
    def save(self, path: Path) -> None:
        """Write the weights (and how they were trained, ``info``) as a compressed npz."""
        np.savez_compressed(
            path,
            format=np.int64(FORMAT),
            layout=np.int64(LAYOUT_VERSION),
            variant=np.str_(self.variant.name),
            inputs=np.array(INPUTS),
            w1=self.w1.astype(np.float32),
            b1=self.b1.astype(np.float32),
            w2=self.w2.astype(np.float32),
            b2=np.float32(self.b2),
            info_keys=np.array(list(self.info), dtype=np.str_),
            info_values=np.array(list(self.info.values()), dtype=np.str_),
        )

    @classmethod
    def load(cls, variant: Variant, source: object) -> NetEvaluator:
        """Read weights written by :meth:`save`; a file for another variant, input set or
        state layout is refused with a ValueError that says which.  A file trained on the
        inputs before the later ones were added (the first :data:`FIRST_INPUTS` or more,
        in order) gets weight zero on the inputs it lacks."""
        with np.load(source, allow_pickle=False) as data:  # type: ignore[arg-type]
            if int(data["format"]) != FORMAT or int(data["layout"]) != LAYOUT_VERSION:
                raise ValueError(
                    f"network weights of format {int(data['format'])}, layout"
                    f" {int(data['layout'])}; expected {FORMAT}, {LAYOUT_VERSION}"
                )
            if str(data["variant"]) != variant.name:
                raise ValueError(f"network weights of {data['variant']}, not {variant.name}")
            inputs = tuple(str(n) for n in data["inputs"])
            if len(inputs) < FIRST_INPUTS or inputs != INPUTS[: len(inputs)]:
                raise ValueError("network weights were trained on a different input set")
            w1 = np.zeros((len(data["b1"]), N_INPUTS))
            w1[:, : len(inputs)] = data["w1"]
            info = dict(
                zip((str(k) for k in data["info_keys"]), (str(v) for v in data["info_values"]))
            )
            return cls(
                variant,
                w1,
                data["b1"].astype(np.float64),
                data["w2"].astype(np.float64),
                float(data["b2"]),
                info,
            )


_networks: dict[str, NetEvaluator | None] = {}


def weights_file(variant: Variant) -> str:
    return f"{variant.name}.td.npz"


def network_for(variant: Variant) -> NetEvaluator | None:
    """The shipped network of ``variant`` (cached), or None when none is shipped."""
    if variant.name not in _networks:
        try:
            ref = resources.files("senet.ai").joinpath("weights", weights_file(variant))
            with ref.open("rb") as handle:
                _networks[variant.name] = NetEvaluator.load(variant, handle)
        except FileNotFoundError:
            _networks[variant.name] = None
    return _networks[variant.name]
