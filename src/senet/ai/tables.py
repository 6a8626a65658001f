"""Shipped endgame tables: exact values of the closed "few pieces on the last squares" endgames.

Why: in standard and Kendall the whole future of a two-pieces-a-side race on the last squares
is one closed set of a few hundred thousand positions (the Water sends pieces back to 15, the
Kendall pieces step back when nothing goes forward, and every root of that size reaches
nearly all of it).  Solving it takes seconds — far beyond a move's time — but it is the same
set in every game, so we solve it once (:func:`build`, run by ``scripts/endgame_tables``) and
ship the values in ``senet/ai/weights/<variant>.endgame.npz``.

Only **chance positions** (a throw is due) are stored: every move leads to one of those, to
the end of the game, or to a House decision whose own moves do, so a decision's move values
are one table lookup per move (:meth:`EndgameTable.move_values`) and the file stays a sixth
of the closed set.  Values are seat A's exact expected result, as everywhere in
:mod:`senet.ai.solver`.  The master uses a table whenever every move of a position is covered;
the accuracy benchmark never reads these files (its ground truth is a fresh solve), and the
tests check a sample of entries against fresh solves.

File layout (numpy ``.npz``, compressed): ``states`` — int32 array (n, 15) of raw states,
``values`` — float64 (n,), ``spec`` — the seed region it was built from (:data:`TABLE_SPECS`),
``layout`` — the :data:`senet.engine.state.LAYOUT_VERSION` the states were written in.  A file
of another layout (or of none) is refused with :class:`StaleTable`: rebuild it with
``scripts/endgame_tables``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import IO

import numpy as np

from senet.engine import HouseKind, Move, Position, Variant, find_variant
from senet.engine.flow import DRAW, legal_moves, play, winner
from senet.engine.rules import bit, tables_for
from senet.engine.state import LAYOUT_VERSION, SIZE, decider, raw_state, throw_due

from .solver import _TERMINAL, _enumerate_raw, _iterate

__all__ = [
    "EndgameTable",
    "StaleTable",
    "table_for",
    "build",
    "seeds",
    "TABLE_SPECS",
    "save",
    "load",
]

#: Variants with a shipped table: (lowest square of the seed region, most pieces a side, most
#: pieces in all).  Only the race variants whose closed set stays within a few hundred
#: thousand positions: in Kendall two against two already reaches millions (pieces step back
#: when nothing goes forward, and the water returns them to 15), so three in all.
TABLE_SPECS: dict[str, tuple[int, int, int]] = {"standard": (18, 2, 4), "kendall": (18, 2, 3)}

_MOVING = {
    HouseKind.SEND_BACK,
    HouseKind.BA,
    HouseKind.DROWN,
    HouseKind.WATER_CHOICE,
    HouseKind.FATE,
}


def seeds(variant: Variant, low: int, per_side: int, total: int) -> list[tuple[int, ...]]:
    """Every chance position (a throw due, no counters) with 1..``per_side`` pieces a side,
    at most ``total`` in all, on the squares from ``low`` on where a piece can rest, either seat on turn.  The table is
    everything reachable from these."""
    squares = [sq for sq in range(low, 31) if variant.house_kind(sq) not in _MOVING]
    out: list[tuple[int, ...]] = []
    n = variant.pieces
    for ka in range(1, per_side + 1):
        for kb in range(1, min(per_side, total - ka) + 1):
            for a in itertools.combinations(squares, ka):
                rest = [sq for sq in squares if sq not in a]
                for b in itertools.combinations(rest, kb):
                    ma = sum(bit(sq) for sq in a)
                    mb = sum(bit(sq) for sq in b)
                    for turn in (0, 1):
                        out.append(raw_state((ma, mb), turn=turn, off=(n - ka, n - kb)))
    return out


def build(
    variant: Variant, low: int, per_side: int, total: int, max_states: int = 3_000_000
) -> tuple[np.ndarray, np.ndarray]:
    """Solve the closed set reachable from :func:`seeds`; returns (chance states, values)."""
    graph = _enumerate_raw(variant, seeds(variant, low, per_side, total), max_states)
    index, kinds, terminal, starts, targets, probs = graph
    values, _, residual = _iterate(terminal, kinds, starts, targets, probs, 1e-13, 100_000)
    if residual >= 1e-12:
        raise RuntimeError(f"value iteration did not converge ({residual})")
    states = np.array(list(index), dtype=np.int64)
    chance = np.array([throw_due(s) for s in index]) & (np.array(kinds) != _TERMINAL)
    if states.max() >= 2**30 or states[:, 2:].max() > 127:
        raise RuntimeError("state out of the stored range")
    return states[chance].astype(np.int32), values[chance]


class StaleTable(RuntimeError):
    """A table file written in another raw-state layout than the engine's (or in none)."""


def save(path: Path, states: np.ndarray, values: np.ndarray, spec: tuple[int, int, int]) -> None:
    """Write a table with the engine's current raw-state layout version."""
    np.savez_compressed(
        path, states=states, values=values, spec=np.array(spec), layout=np.array(LAYOUT_VERSION)
    )


def load(variant: Variant, file: IO[bytes], name: str) -> EndgameTable:
    """Read a table written by :func:`save`; raises :class:`StaleTable` unless its states are
    in the engine's raw-state layout (``name`` names the file in the message)."""
    with np.load(file) as data:
        found = int(data["layout"]) if "layout" in data else None
        states = data["states"]
        if found != LAYOUT_VERSION or states.ndim != 2 or states.shape[1] != SIZE:
            raise StaleTable(
                f"{name} holds raw states of layout {found} ({states.shape[-1]} fields); the "
                f"engine's layout is {LAYOUT_VERSION} ({SIZE} fields): rebuild the tables with "
                "scripts/endgame_tables"
            )
        return EndgameTable(variant, states, data["values"])


class EndgameTable:
    """Seat A's exact value of every chance position of a closed endgame set."""

    def __init__(self, variant: Variant, states: np.ndarray, values: np.ndarray) -> None:
        self.variant = variant
        self._t = tables_for(variant)
        self._values: dict[tuple[int, ...], float] = dict(
            zip(map(tuple, states.tolist()), values.tolist())
        )

    def __len__(self) -> int:
        return len(self._values)

    def value_of_state(self, s: Sequence[int]) -> float | None:
        """Seat A's exact value of raw state ``s``, or None when the table does not cover it."""
        won = winner(self._t, s)
        if won is not None:
            return 0.5 if won == DRAW else (1.0 if won == 0 else 0.0)
        if throw_due(s):
            return self._values.get(tuple(s))
        values = self._child_values(s)
        if values is None:
            return None
        return max(values) if decider(self._t, s) == 0 else min(values)

    def _child_values(self, s: Sequence[int]) -> list[float] | None:
        out = []
        for move in legal_moves(self._t, s):
            child = list(s)
            play(self._t, child, move)
            v = self.value_of_state(child)
            if v is None:
                return None
            out.append(v)
        return out

    def move_values(self, position: Position) -> list[tuple[Move, float]] | None:
        """Every legal move with seat A's exact value after it, or None if any is not covered."""
        if position.variant.name != self.variant.name or position.decider is None:
            return None
        out = []
        for move in position.legal_moves():
            v = self.value_of_state(position._play(move).state)
            if v is None:
                return None
            out.append((move, v))
        return out


_loaded: dict[str, EndgameTable | None] = {}


def table_for(variant: Variant) -> EndgameTable | None:
    """The shipped table of ``variant`` (loaded once per process), or None if there is none.
    Raises :class:`StaleTable` when the shipped file is of another raw-state layout."""
    name = variant.name
    if name not in _loaded:
        table = None
        if name in TABLE_SPECS and find_variant(name) is variant:
            ref = resources.files("senet.ai").joinpath("weights", f"{name}.endgame.npz")
            try:
                with ref.open("rb") as fh:
                    table = load(variant, fh, f"{name}.endgame.npz")
            except (FileNotFoundError, OSError):
                table = None
        _loaded[name] = table
    return _loaded[name]


def main(argv: list[str] | None = None) -> int:
    """Rebuild the shipped tables (``scripts/endgame_tables``; about half a minute in all)."""
    import argparse
    import time

    parser = argparse.ArgumentParser(description="Rebuild the shipped endgame tables.")
    parser.add_argument("--variant", action="append", help="default: every variant of TABLE_SPECS")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "weights")
    args = parser.parse_args(argv)
    for name in args.variant or list(TABLE_SPECS):
        spec = TABLE_SPECS[name]
        start = time.time()
        states, values = build(find_variant(name), *spec)
        path = args.out / f"{name}.endgame.npz"
        save(path, states, values, spec)
        print(
            f"{name}: {len(states)} chance positions, {path.stat().st_size} bytes, {time.time() - start:.0f}s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
