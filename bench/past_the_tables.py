"""How often the master plays an optimal move one piece past its endgame tables.

Positions: per variant with a three-against-two table (:data:`senet.ai.tables.LARGE_TABLE_SPECS`),
four pieces against two and three against three (either seat with the four, either seat to
move, a throw drawn), on resting squares drawn uniformly from the last ``--squares`` squares of
the track, kept when at least two moves are legal and not every move bears a piece off into
the table (in kendall a throw often bears off from either of the last squares: the master
reads those exactly at the root).  No table holds them, so neither master reads them at the
root; the master reads the three-against-two table wherever its search
reaches it (a piece borne off), the reference ``root-table-master`` of
``bench/reference_players.py`` (today's master before that) only at the root, so not here.

The truth is every move's exact value from one compiled solve of the whole future of all
positions (:func:`senet.ai.compiled_solver.solve_compiled`, within ``--max-states``), which
reads no table.  Per player: the share of positions where its move is optimal (exact value
within 1e-9 of the best), the mean winning chance it gives up per decision, and the median CPU
time of its move.  Both masters play on their 300 ms wall-clock budget, so on a loaded machine
they search less deep than on a quiet one (each figure is then a lower bound, and the two are
measured on the same positions one after the other).  With ``--three-a-side DIR`` the positions
are three against three only, anywhere on the last ``--squares`` squares (30: the whole board),
and the truth is read from ``DIR/<variant>.endgame-3v3.npz`` (built, not shipped:
``scripts/endgame_tables --three-a-side --variant standard --out DIR``) instead of a solve.

    nice -n 10 python bench/past_the_tables.py --variant standard --positions 200   # measured
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference_players import reference_move
from three_against_two import Tally, with_a_throw

from senet.ai import choose_move, find_level, forget_searchers
from senet.ai.compiled_solver import solve_compiled
from senet.ai.solver import for_seat
from senet.ai.tables import (
    LARGE_TABLE_SPECS,
    EndgameTable,
    large_table_for,
    read_three_a_side,
    resting_squares,
)
from senet.engine import Move, Position, Variant, find_variant

SAME = 1e-9
PLAYERS = ("master", "root-table-master")
#: (the mover's pieces, the other side's): four against two either way, three against three
MATERIAL = ((4, 2), (2, 4), (3, 3))


def past_the_table(
    variant: Variant,
    rng: random.Random,
    squares: int,
    material: tuple[tuple[int, int], ...] = MATERIAL,
) -> Position | None:
    """One piece more than the table holds on the last ``squares`` squares, a throw made; None
    when the draw is not a legal position, leaves no choice, or every move leads into the
    table."""
    mine, theirs = rng.choice(material)
    cells = rng.sample(resting_squares(variant, 31 - squares), mine + theirs)
    mover = rng.randrange(2)
    pos = with_a_throw(variant, rng, cells[:mine], cells[mine:], mover)
    table = large_table_for(variant)
    if pos is None or (table is not None and table.move_values(pos) is not None):
        return None
    return pos


def move_of(player: str, pos: Position, depth: int | None = None) -> Move:
    """``player``'s move; with ``depth``, both masters search exactly that deep (no clock)."""
    rng = random.Random(0)
    if depth is not None:
        level = find_level("master")
        fixed = replace(  # its own key: searchers are kept per level key
            level,
            key=f"{player}@{depth}",
            depth=depth,
            budget=0.0,
            leaf_tables=player == "master",
        )
        return choose_move(pos, fixed, rng)
    if player == "master":
        return choose_move(pos, player, rng)
    return reference_move(player, pos, rng)


def measure(
    variant: Variant,
    count: int,
    seed: int,
    squares: int,
    max_states: int,
    depth: int | None = None,
    truth: EndgameTable | None = None,
) -> tuple[dict[str, Tally], int, float]:
    """The tallies, the size of the solve (or of the truth table) and its CPU seconds."""
    rng = random.Random(seed)
    positions: list[Position] = []
    material = MATERIAL if truth is None else ((3, 3),)
    while len(positions) < count:
        pos = past_the_table(variant, rng, squares, material)
        if pos is not None:
            positions.append(pos)
    began = time.process_time()
    if truth is None:
        solution = solve_compiled(positions, max_states=max_states)
        values_of, size = solution.move_values, len(solution.values)
    else:
        values_of, size = truth.move_values, len(truth)
    solved = time.process_time() - began
    tallies = {p: Tally() for p in PLAYERS}
    forget_searchers()
    for pos in positions:
        seat = pos.decider
        assert seat is not None
        values = values_of(pos)
        assert values is not None  # the table holds every three-against-three position
        exact = [for_seat(v, seat) for _, v in values]
        legal = pos.legal_moves()
        for player in PLAYERS:
            start = time.process_time()
            move = move_of(player, pos, depth)
            tallies[player].record(exact, legal.index(move), time.process_time() - start)
    return tallies, size, solved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=sorted(LARGE_TABLE_SPECS))
    parser.add_argument("--positions", type=int, default=100, help="per variant")
    parser.add_argument("--squares", type=int, default=9, help="the last squares used")
    parser.add_argument("--max-states", type=int, default=40_000_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--depth",
        type=int,
        default=None,
        help="both masters search exactly this many decisions deep (no clock): the tables' "
        "effect apart from how deep a loaded machine lets the budget reach",
    )
    parser.add_argument(
        "--three-a-side",
        type=Path,
        metavar="DIR",
        help="three against three only, the truth from DIR/<variant>.endgame-3v3.npz",
    )
    args = parser.parse_args(argv)
    for name in args.variant or sorted(LARGE_TABLE_SPECS):
        variant = find_variant(name)
        began = time.process_time()
        table = None
        if args.three_a_side is not None:
            table = read_three_a_side(variant, args.three_a_side)
        tallies, size, solved = measure(
            variant, args.positions, args.seed, args.squares, args.max_states, args.depth, table
        )
        material = "4 against 2, 3 against 3" if table is None else "3 against 3"
        source = "one compiled solve" if table is None else "the three-a-side table"
        print(
            f"{name}: {len(tallies['master'].losses)} positions ({material}) on the"
            f" last {args.squares} squares; truth: {source} of {size:,} positions"
            f" ({solved:.0f} s CPU); {time.process_time() - began:.0f} s CPU in all",
            flush=True,
        )
        for player, tally in tallies.items():
            print(tally.line(player), flush=True)
        master, root = tallies["master"], tallies["root-table-master"]
        gained = statistics.fmean(root.losses) - statistics.fmean(master.losses)
        print(f"  the tables inside the search save {gained:.5f} per decision", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
