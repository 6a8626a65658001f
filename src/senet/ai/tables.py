"""Shipped endgame tables: exact values of the closed few-pieces endgames.

Why: in standard, Kendall and Bell the whole future of every position with at most two
pieces a side left, anywhere on the board, is one closed set of millions of positions (the
Water sends pieces back to 15, the Kendall pieces step back when nothing goes forward, and
every root of that size reaches much of it).  Solving it takes seconds to minutes even
compiled (:mod:`senet.ai.compiled_solver`) — far beyond a move's time — but it is the same set
in every game, so we solve it once (:func:`build`, run by ``scripts/endgame_tables``) and ship
the values in ``senet/ai/weights/<variant>.endgame.npz``.  Jéquier's table holds every position
with at most three pieces left in all.

Only **chance positions** (a throw is due) with **seat A on turn** are stored: every move
leads to a chance position, to the end of the game, or to a House decision whose own moves
do, so a decision's move values are one table lookup per move
(:meth:`EndgameTable.move_values`); and a chance position with B on turn is read from its
mirror image (:func:`mirror`: the seats exchanged, value one minus), the rules being the same
for both seats (the build checks every pair; where they are not, :data:`BOTH_SEATS`, both
seats' positions are stored).  In Bell's points game the stored representative
of a position rewrites the borne-off and captured counts to the same lead (:func:`canonical`).
Values are seat A's exact expected result, as everywhere in :mod:`senet.ai.solver`, kept to 32
bits (within 1.2e-10).  The master uses a table whenever every move of a position is covered;
the accuracy benchmark never reads these files (its ground truth is a fresh solve), and the
tests check entries against fresh solves.

File layout (numpy ``.npz``, compressed): ``hi_steps`` — the int64 keys of the two board
masks (A's, then B's shifted by 30 bits) as differences from the previous key, ``lo`` — int64
keys of the thirteen small counters of the raw state (:mod:`senet.engine.state`), four bits
each, sorted by (hi, lo) (:mod:`senet.ai.packing`); ``value_bytes`` — the
values times :data:`SCALE`, rounded, as uint32 split into four byte planes; ``regions`` — the
seed regions (:data:`TABLE_SPECS`); ``format`` — :data:`FORMAT`; ``layout`` — the
:data:`senet.engine.state.LAYOUT_VERSION` the keys were packed from.  A file of another format
or layout is refused with :class:`StaleTable`: rebuild it with ``scripts/endgame_tables``.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import IO

import numpy as np

from senet.engine import HouseKind, Move, Position, Scoring, Variant, find_variant
from senet.engine.flow import DRAW, legal_moves, play, winner
from senet.engine.rules import bit, tables_for
from senet.engine.state import (
    BORNE_OFF,
    CAPTURED,
    DROWNED,
    EXTRA,
    LAYOUT_VERSION,
    MASK,
    SKIP,
    TURN,
    decider,
    raw_state,
    throw_due,
)

from .packing import pack_rows, pack_state, unpack_keys

__all__ = [
    "EndgameTable",
    "StaleTable",
    "table_for",
    "large_table_for",
    "loaded_tables",
    "forget_tables",
    "table_file",
    "LARGE_TABLE_SPECS",
    "THREE_A_SIDE",
    "three_a_side_file",
    "read_three_a_side",
    "within",
    "build",
    "seeds",
    "seed_keys",
    "resting_squares",
    "canonical",
    "TABLE_SPECS",
    "BOTH_SEATS",
    "FORMAT",
    "save",
    "load",
    "mirror",
    "SCALE",
]

#: One region of a table: (lowest square of the seed region, most pieces a side, most pieces
#: in all).  A variant's table is everything reachable from the seeds of all its regions.
Region = tuple[int, int, int]
#: Variants with a shipped table: in standard, Kendall and Bell every position with at most
#: two pieces a side left, anywhere on the board (two against two, and every smaller class),
#: is one closed set of two to nine million positions, solved in seconds to minutes by the
#: compiled solver.  In Jéquier's game every position with at most three pieces left in all
#: is a closed set of 274,572 positions.  In the Adelaida variants even one piece against one
#: reaches positions owing more than 511 extra throws (every 1, 4 or 5 and every landing on 15
#: earns one, and a piece that cannot go forward goes back): no closed set to tabulate, so
#: those are solved on the fly when their own future is small enough; kendall-1978's banked
#: throws make every reachable set unbounded.
TABLE_SPECS: dict[str, tuple[Region, ...]] = {
    "standard": ((1, 2, 4),),
    "kendall": ((1, 2, 4),),
    "bell": ((1, 2, 4),),
    "jequier": ((1, 2, 3),),
}
#: Larger closed sets, shipped beside the two-a-side tables and read only when a game first
#: reaches their material (:func:`large_table_for`): every position with at most three pieces a
#: side and five in all — three against two, and every smaller class — anywhere on the board.
#: Standard's is 32.8 million positions (5.46 million chance positions, exactly the seeds;
#: 2.73 million stored, seat A on turn), solved compiled in 320 s (load 3-6) and
#: 5.2 GB; the file is 10.4 MB (its values, 32 bits each, do not compress), read in 0.23 s of
#: CPU into 65 MB.  They ship rather than being built at first use: a build needs gigabytes and
#: minutes, which a web process must not spend, and the tests must read the same bytes the
#: master plays from.  Kendall's stores 3.26 million chance positions (its seeds include a
#: piece waiting on 27), solved in 306 s of CPU (16 minutes of wall clock, niced at load 8-13)
#: and 3.5 GB; its file is 12.3 MB.  Bell's would be larger (the score
#: multiplies it: about 110 million positions, 17 GB), and three against three (about 100
#: million positions, some 16 GB with this solver) does not fit the shared machine.
LARGE_TABLE_SPECS: dict[str, tuple[Region, ...]] = {
    "standard": ((1, 3, 5),),
    "kendall": ((1, 3, 5),),
}
#: Three against three, and every smaller class, anywhere on the board: built on demand for the
#: benchmarks that need exact values one piece past :data:`LARGE_TABLE_SPECS`
#: (``scripts/endgame_tables --three-a-side --variant standard --out DIR``).  Standard's is
#: 24.5 million chance positions (exactly the seeds), 12.2 million stored, solved compiled in
#: 12 minutes of one core and 16 GB at most; its file is 45 MB, read in 1.4 s into 294 MB,
#: which every process that played from it would hold, so it does not ship.
THREE_A_SIDE: Region = (1, 3, 6)
#: Variants whose rules are not the same for both seats: their tables store the chance
#: positions of both seats, not one seat's and its mirror images.  In Jéquier's game mirror
#: positions differ slightly in value (A on 25 against B on 20: 0.64261 to A; the image,
#: 0.64209 to B): a piece sent back waits on other squares for each seat (``waiting``).
BOTH_SEATS = frozenset({"jequier"})
#: Version of this module's file format (packed keys, several regions, values in 32 bits,
#: seat A on turn only); a file of another format, or of another raw-state layout
#: (:data:`senet.engine.state.LAYOUT_VERSION`), is refused with :class:`StaleTable`.
FORMAT = 3

#: Houses that move a piece on at once, so that no chance position has a piece on them.  Not
#: Kendall's House of Water (``WATER_CHOICE``): a piece attacked on 28-30 whose owner risks it
#: waits there through the throws to come, beside any other pieces, and such positions arise
#: from more material than the table's (the attacker bears off), so they are seeded too.
_MOVING = {
    HouseKind.SEND_BACK,
    HouseKind.BA,
    HouseKind.DROWN,
    HouseKind.FATE,
}
#: the fields that come in pairs, one per seat (exchanged by :func:`mirror`)
_PAIRS = (MASK, EXTRA, SKIP, BORNE_OFF, CAPTURED, DROWNED)


def canonical(variant: Variant, s: Sequence[int]) -> tuple[int, ...]:
    """The representative of ``s`` that the table stores.  In a points game (Bell) the future
    depends on the score only through the lead ``off A - off B`` (captured pieces just leave
    the game), so the borne-off and captured counts are rewritten to the smallest ones with
    that lead; in a race the state is its own representative."""
    if variant.scoring is not Scoring.POINTS:
        return tuple(s)
    lead = s[BORNE_OFF] - s[BORNE_OFF + 1]
    off_a, off_b = max(lead, 0), max(-lead, 0)
    n = variant.pieces
    out = list(s)
    out[BORNE_OFF], out[BORNE_OFF + 1] = off_a, off_b
    out[CAPTURED] = n - s[MASK].bit_count() - s[DROWNED] - off_a
    out[CAPTURED + 1] = n - s[MASK + 1].bit_count() - s[DROWNED + 1] - off_b
    return tuple(out)


def resting_squares(variant: Variant, low: int = 1) -> list[int]:
    """The squares from ``low`` on where a piece can come to rest (not a House that moves the
    piece on at once)."""
    return [sq for sq in range(low, 31) if variant.house_kind(sq) not in _MOVING]


def _seed_classes(
    variant: Variant, per_side: int, total: int
) -> list[tuple[int, int, list[tuple[int, int, int, int]]]]:
    """The material classes of the seeds: (A's pieces, B's pieces, the (off A, off B,
    captured A, captured B) counts each is seeded with).  In a race each side has at least one
    piece (else the game is over) and bears every missing piece off; in a points game a side
    may have none left, and every lead that still leaves the game open is seeded."""
    n = variant.pieces
    points = variant.scoring is Scoring.POINTS
    least = 0 if points else 1
    classes = []
    for ka in range(least, per_side + 1):
        for kb in range(least, min(per_side, total - ka) + 1):
            if ka + kb == 0:
                continue
            if points:
                scores = [
                    (max(d, 0), max(-d, 0), n - ka - max(d, 0), n - kb - max(-d, 0))
                    for d in range(-ka, kb + 1)
                ]
            else:
                scores = [(n - ka, n - kb, 0, 0)]
            classes.append((ka, kb, scores))
    return classes


def seeds(variant: Variant, low: int, per_side: int, total: int) -> list[tuple[int, ...]]:
    """Every chance position (a throw due, no counters) with at most ``per_side`` pieces a
    side and ``total`` in all on the squares from ``low`` on where a piece can rest, either
    seat on turn (the classes of :func:`_seed_classes`).  The table is everything reachable
    from these."""
    squares = resting_squares(variant, low)
    out: list[tuple[int, ...]] = []
    for ka, kb, scores in _seed_classes(variant, per_side, total):
        for a in itertools.combinations(squares, ka):
            rest = [sq for sq in squares if sq not in a]
            for b in itertools.combinations(rest, kb):
                ma = sum(bit(sq) for sq in a)
                mb = sum(bit(sq) for sq in b)
                for off_a, off_b, capt_a, capt_b in scores:
                    for turn in (0, 1):
                        out.append(
                            raw_state(
                                (ma, mb),
                                turn=turn,
                                off=(off_a, off_b),
                                captured=(capt_a, capt_b),
                            )
                        )
    return out


def seed_keys(
    variant: Variant, low: int, per_side: int, total: int
) -> tuple[np.ndarray, np.ndarray]:
    """The packed keys (hi, lo) of :func:`seeds`, in the same order, built with numpy: the
    three-against-three seeds are 24 million, whose tuples would hold gigabytes (:func:`seeds`
    stays the plain reference the tests hold these to)."""
    squares = resting_squares(variant, low)
    his: list[np.ndarray] = []
    los: list[np.ndarray] = []

    def masks(k: int) -> np.ndarray:
        combos = itertools.combinations(squares, k)
        return np.array([sum(bit(sq) for sq in c) for c in combos], dtype=np.int64)

    for ka, kb, scores in _seed_classes(variant, per_side, total):
        counters = []
        for off_a, off_b, capt_a, capt_b in scores:
            for turn in (0, 1):
                s = raw_state((0, 0), turn=turn, off=(off_a, off_b), captured=(capt_a, capt_b))
                key = pack_state(s)
                if key is None:  # seeds' counters are small
                    raise RuntimeError(f"the seed state {s} does not pack")
                counters.append(key[1])
        lo_block = np.array(counters, dtype=np.int64)
        b_masks = masks(kb)
        for ma in masks(ka):
            mb = b_masks[(b_masks & ma) == 0]
            his.append(np.repeat(ma | (mb << 30), len(lo_block)))
            los.append(np.tile(lo_block, len(mb)))
    return np.concatenate(his), np.concatenate(los)


def mirror(s: Sequence[int]) -> tuple[int, ...]:
    """``s`` with the seats exchanged: A's pieces and counters become B's and the other seat is
    on turn.  The rules of every tabled variant are the same for both seats (the build checks
    it on every stored pair), so seat A's value of ``mirror(s)`` is one minus that of ``s``."""
    out = list(s)
    out[TURN] = 1 - s[TURN]
    for field in _PAIRS:
        out[field], out[field + 1] = s[field + 1], s[field]
    return tuple(out)


def build(
    variant: Variant,
    regions: Sequence[Region],
    max_states: int = 30_000_000,
    both_seats: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Solve the closed set reachable from the :func:`seeds` of ``regions`` (compiled:
    :func:`senet.ai.compiled_solver.solve_compiled_keys` on their :func:`seed_keys`); returns
    the packed keys (masks, counters) of its chance positions with seat A on turn, sorted, and
    their values.  The positions with seat B on turn are their mirror images (:func:`mirror`):
    each is checked against its image before it is left out.  With ``both_seats`` every chance
    position is kept (variants whose rules differ between the seats, :data:`BOTH_SEATS`)."""
    from .compiled_solver import solve_compiled_keys  # Numba loads only where tables are built

    keys = [seed_keys(variant, *region) for region in regions]
    root_hi = np.concatenate([hi for hi, _ in keys])
    root_lo = np.concatenate([lo for _, lo in keys])
    del keys
    if len(regions) > 1:  # regions may overlap: each seed once, where it first appears
        order = np.lexsort((root_lo, root_hi))
        repeated = np.zeros(len(order), dtype=bool)
        repeated[1:] = (np.diff(root_hi[order]) == 0) & (np.diff(root_lo[order]) == 0)
        first = np.sort(order[~repeated])
        root_hi, root_lo = root_hi[first], root_lo[first]
    solution = solve_compiled_keys(root_hi, root_lo, variant, max_states=max_states, tol=1e-13)
    del root_hi, root_lo
    if solution.residual >= 1e-12:
        raise RuntimeError(f"value iteration did not converge ({solution.residual})")
    chance = solution.chance_mask()
    hi, lo, values = solution.hi[chance], solution.lo[chance], solution.values[chance]
    del solution
    if both_seats:
        return hi, lo, values
    states = unpack_keys(hi, lo)
    on_a = states[:, TURN] == 0
    images = states[~on_a].copy()
    images[:, TURN] = 1 - images[:, TURN]
    for field in _PAIRS:
        images[:, [field, field + 1]] = images[:, [field + 1, field]]
    ihi, ilo = pack_rows(images)
    order = np.lexsort((ilo, ihi))
    if not (np.array_equal(ihi[order], hi[on_a]) and np.array_equal(ilo[order], lo[on_a])):
        raise RuntimeError(f"{variant.name}: the closed set is not symmetric between the seats")
    gap = np.abs(values[~on_a][order] - (1.0 - values[on_a]))
    if gap.size and gap.max() > 1e-11:
        raise RuntimeError(f"{variant.name}: mirror positions differ in value by {gap.max()}")
    return hi[on_a], lo[on_a], values[on_a]


class StaleTable(RuntimeError):
    """A table file of another format or raw-state layout than this code's (or of none)."""


#: Values are stored as ``round(value * SCALE)`` in 32 bits: within 1.2e-10 of the exact
#: value, a quarter of the file that float64 values took (they do not compress).
SCALE = 2**32 - 1


def save(
    path: Path,
    hi: np.ndarray,
    lo: np.ndarray,
    values: np.ndarray,
    regions: Sequence[Region],
    both_seats: bool = False,
) -> None:
    """Write a table with this module's format and the engine's raw-state layout version:
    the masks keys as differences from the previous one (they are sorted), the values in 32
    bits (:data:`SCALE`) as four byte planes (the high bytes compress, the low ones do not)."""
    if len(values) and not ((values >= 0) & (values <= 1)).all():
        raise ValueError("a value outside [0, 1]")
    quantised = np.round(values * SCALE).astype("<u4")
    np.savez_compressed(
        path,
        format=np.array(FORMAT),
        layout=np.array(LAYOUT_VERSION),
        hi_steps=np.diff(hi, prepend=np.int64(0)),
        lo=lo,
        value_bytes=quantised.view(np.uint8).reshape(-1, 4).T.copy(),
        regions=np.array(regions),
        both_seats=np.array(both_seats),
    )


def load(variant: Variant, file: IO[bytes], name: str) -> EndgameTable:
    """Read a table written by :func:`save`; raises :class:`StaleTable` unless it is of this
    format and the engine's raw-state layout (``name`` names the file in the message)."""
    with np.load(file) as data:
        layout = int(data["layout"]) if "layout" in data else None
        form = int(data["format"]) if "format" in data else None
        if layout != LAYOUT_VERSION or form != FORMAT:
            raise StaleTable(
                f"{name} is of format {form} and raw-state layout {layout}; this code reads "
                f"format {FORMAT}, layout {LAYOUT_VERSION}: rebuild the tables with "
                "scripts/endgame_tables"
            )
        hi = np.cumsum(data["hi_steps"])
        planes = data["value_bytes"]
        quantised = planes.T.copy().view("<u4").reshape(-1)
        both = bool(data["both_seats"]) if "both_seats" in data else False
        regions = tuple(tuple(int(x) for x in r) for r in data["regions"])
        return EndgameTable(
            variant,
            hi,
            data["lo"],
            quantised / SCALE,
            both_seats=both,
            regions=regions,  # type: ignore[arg-type]
        )


class EndgameTable:
    """Seat A's exact value of every chance position of a closed endgame set."""

    def __init__(
        self,
        variant: Variant,
        hi: np.ndarray,
        lo: np.ndarray,
        values: np.ndarray,
        both_seats: bool = False,
        regions: Sequence[Region] = (),
    ) -> None:
        self.variant = variant
        #: the seed regions it was built from (:func:`within` says which positions may be in it)
        self.regions = tuple(regions)
        self._t = tables_for(variant)
        self._hi, self._lo, self._v = hi, lo, values
        self._points = variant.scoring is Scoring.POINTS
        self.both_seats = both_seats  # else seat B's positions are read through their images

    def __len__(self) -> int:
        return len(self._v)

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The sorted keys (masks, counters) and values of the stored positions, for compiled
        readers (:func:`senet.ai.compiled_table.table_value`)."""
        return self._hi, self._lo, self._v

    def stored_states(self) -> list[tuple[int, ...]]:
        """Every stored chance position (seat A on turn, unless the table holds both seats), as
        a raw state (for tests and inspection)."""
        return [tuple(row) for row in unpack_keys(self._hi, self._lo).tolist()]

    def _lookup(self, s: Sequence[int]) -> float | None:
        if self._points:
            s = canonical(self.variant, s)
        flip = s[TURN] == 1 and not self.both_seats
        if flip:
            s = mirror(s)
        key = pack_state(s)
        if key is None:
            return None
        h, low = key
        hi = self._hi
        i = int(np.searchsorted(hi, h, "left"))
        if i == len(hi) or hi[i] != h:
            return None
        j = int(np.searchsorted(hi, h, "right"))
        k = i + int(np.searchsorted(self._lo[i:j], low))
        if k < j and self._lo[k] == low:
            value = float(self._v[k])
            return 1.0 - value if flip else value
        return None

    def chance_value(self, s: Sequence[int]) -> float | None:
        """Seat A's exact value of the open chance state ``s`` (a throw due, the game not
        over), or None when the table does not hold it: what the search reads at its leaves
        and chance nodes, a piece count first (most states of a search have more material
        than the table)."""
        if not within(self.variant, s, self.regions):
            return None
        return self._lookup(s)

    def value_of_state(self, s: Sequence[int]) -> float | None:
        """Seat A's exact value of raw state ``s``, or None when the table does not cover it."""
        won = winner(self._t, s)
        if won is not None:
            return 0.5 if won == DRAW else (1.0 if won == 0 else 0.0)
        if throw_due(s):
            return self._lookup(s)
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
            v = self.value_of_state(position.apply_unchecked(move).state)
            if v is None:
                return None
            out.append((move, v))
        return out


_loaded: dict[tuple[str, bool], EndgameTable | None] = {}
_loading = threading.Lock()


def table_file(name: str, large: bool = False) -> str:
    """The file name of a variant's table: ``<variant>.endgame.npz`` (two pieces a side, or
    three in all) or ``<variant>.endgame-3v2.npz`` (:data:`LARGE_TABLE_SPECS`)."""
    return f"{name}.endgame-3v2.npz" if large else f"{name}.endgame.npz"


def three_a_side_file(name: str) -> str:
    """The file name of a variant's three-a-side table (:data:`THREE_A_SIDE`)."""
    return f"{name}.endgame-3v3.npz"


def read_three_a_side(variant: Variant, folder: Path) -> EndgameTable:
    """The three-a-side table of ``variant`` built into ``folder`` (not shipped: the benches
    read it from where ``scripts/endgame_tables --three-a-side --out`` wrote it)."""
    file = folder / three_a_side_file(variant.name)
    with file.open("rb") as fh:
        return load(variant, fh, file.name)


def _shipped(variant: Variant, large: bool) -> EndgameTable | None:
    specs = LARGE_TABLE_SPECS if large else TABLE_SPECS
    key = (variant.name, large)
    if key not in _loaded:
        with _loading:  # a large table is read once even when two games reach it together
            if key not in _loaded:
                table = None
                if variant.name in specs and find_variant(variant.name) is variant:
                    file = table_file(variant.name, large)
                    ref = resources.files("senet.ai").joinpath("weights", file)
                    try:
                        with ref.open("rb") as fh:
                            table = load(variant, fh, file)
                    except (FileNotFoundError, OSError):
                        table = None
                _loaded[key] = table
    return _loaded[key]


def loaded_tables() -> set[tuple[str, bool]]:
    """The (variant, large) tables this process has read so far (None when none ships)."""
    return {key for key, table in _loaded.items() if table is not None}


def forget_tables() -> None:
    """Drop every table read so far (they are read again when next asked for)."""
    with _loading:
        _loaded.clear()


def table_for(variant: Variant) -> EndgameTable | None:
    """The shipped table of ``variant`` (loaded once per process), or None if there is none.
    Raises :class:`StaleTable` when the shipped file is of another format or layout."""
    return _shipped(variant, False)


def large_table_for(variant: Variant) -> EndgameTable | None:
    """The shipped three-against-two table of ``variant`` (:data:`LARGE_TABLE_SPECS`), read
    the first time it is asked for (about a second and 60 MB: callers ask only once a position
    is :func:`within` it), or None where none ships."""
    return _shipped(variant, True)


def within(variant: Variant, s: Sequence[int], regions: Sequence[Region]) -> bool:
    """Whether raw state ``s`` has no more pieces on the board than one of ``regions`` allows
    (a side, and in all), none drowned: the material of the table's positions (whether the
    position itself is stored, the lookup says)."""
    if s[DROWNED] or s[DROWNED + 1]:
        return False
    a, b = s[MASK].bit_count(), s[MASK + 1].bit_count()
    return any(a <= side and b <= side and a + b <= total for _, side, total in regions)


def main(argv: list[str] | None = None) -> int:
    """Rebuild the shipped tables (``scripts/endgame_tables``; about three minutes in all)."""
    import argparse
    import time

    parser = argparse.ArgumentParser(description="Rebuild the shipped endgame tables.")
    parser.add_argument("--variant", action="append", help="default: every variant of the specs")
    parser.add_argument(
        "--large",
        action="store_true",
        help="the three-against-two tables (LARGE_TABLE_SPECS: minutes and 5 GB each)",
    )
    parser.add_argument(
        "--three-a-side",
        action="store_true",
        help="three against three and smaller (THREE_A_SIDE; not shipped: standard's takes"
        " 12 minutes and 16 GB, its file 45 MB): give --variant and --out",
    )
    parser.add_argument("--out", type=Path, help="default: the shipped tables' folder")
    args = parser.parse_args(argv)
    if args.three_a_side and (not args.variant or args.out is None):
        parser.error("--three-a-side builds only the variants named with --variant, into --out")
    out = args.out or Path(__file__).parent / "weights"
    specs = LARGE_TABLE_SPECS if args.large else TABLE_SPECS
    for name in args.variant or list(specs):
        regions = (THREE_A_SIDE,) if args.three_a_side else specs[name]
        start = time.time()
        both = name in BOTH_SEATS
        cap = 200_000_000 if args.three_a_side else 60_000_000
        hi, lo, values = build(find_variant(name), regions, max_states=cap, both_seats=both)
        file = three_a_side_file(name) if args.three_a_side else table_file(name, args.large)
        path = out / file
        save(path, hi, lo, values, regions, both_seats=both)
        print(
            f"{name}: {len(values)} chance positions, {path.stat().st_size:,} bytes, "
            f"{time.time() - start:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
