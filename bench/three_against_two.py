"""How often each player plays an optimal move with three pieces against two, anywhere on the board.

Positions: per variant with a shipped three-against-two table
(:data:`senet.ai.tables.LARGE_TABLE_SPECS`), three pieces of one seat and two of the other on
resting squares drawn uniformly from the whole board, either seat to move, a throw drawn, kept
when at least two moves are legal and not every move leads into the two-a-side table (those
the master played exactly before).  The truth is every move's exact value:

* ``table``: read from the three-against-two table (which the tests hold to fresh solves);
* ``--fresh N``: for N more positions on the last nine squares, a fresh solve of each
  position's whole future by the reference solver (:func:`senet.ai.solver.solve_many`), which
  never reads a table: the master's play as it is checked against an independent truth.

Per player: the share of positions where its move is optimal (exact value within 1e-9 of the
best), the mean winning chance it gives up per decision, and the median time of its move.
Players: the master as it plays (``choose_move``: the table first), the master's search alone
(the same level with its tables and solving switched off: what it played here before the
table), the frozen master of ``bench/reference_players.py`` and the expert.  Target: the master
optimal in at least 99% of positions.

    nice -n 10 python bench/three_against_two.py --positions 300 --fresh 30   # measured
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference_players import reference_move

from senet.ai import choose_move, find_level
from senet.ai.solver import TooLarge, for_seat, solve_many
from senet.ai.tables import LARGE_TABLE_SPECS, large_table_for, resting_squares, table_for
from senet.engine import InvalidPosition, Move, Position, Variant, draw_throw, find_variant

TARGET = 0.99
SAME = 1e-9
PLAYERS = ("master", "master-search", "frozen-master", "expert")


def with_a_throw(
    variant: Variant, rng: random.Random, mine: list[int], theirs: list[int], mover: int
) -> Position | None:
    """The mover's pieces on ``mine``, the other side's on ``theirs``, a throw drawn; None when
    that is not a legal position, the game is over or the throw leaves no choice.  The other
    position benches draw their endgames with it."""
    pieces = (sorted(mine), sorted(theirs)) if mover == 0 else (sorted(theirs), sorted(mine))
    try:
        pos = Position.from_parts(variant, pieces, turn=mover)
    except InvalidPosition:
        return None
    while pos.is_chance():
        pos = pos.apply_throw(draw_throw(rng, variant.instrument))
    if pos.is_over() or len(pos.legal_moves()) < 2:
        return None
    return pos


def three_against_two(variant: Variant, rng: random.Random, low: int = 1) -> Position | None:
    """Three pieces against two on the resting squares from ``low`` on, the mover drawn, a
    throw made; None when that leaves no choice, the game over, or every move in the
    two-a-side table."""
    cells = rng.sample(resting_squares(variant, low), 5)
    mover = rng.randrange(2)
    split = 3 if rng.randrange(2) else 2  # the three pieces as often the mover's as not
    pos = with_a_throw(variant, rng, cells[:split], cells[split:], mover)
    if pos is None:
        return None
    small = table_for(variant)
    if small is not None and small.move_values(pos) is not None:
        return None
    return pos


def move_of(player: str, pos: Position) -> Move:
    rng = random.Random(0)
    if player == "frozen-master":
        return reference_move(player, pos, rng)
    if player == "master-search":
        level = dataclasses.replace(find_level("master"), key="master-search", solve_states=0)
        return choose_move(pos, level, rng)
    return choose_move(pos, player, rng)


def exact_values(pos: Position, fresh: bool) -> tuple[float, ...] | None:
    """The decider's exact value after every legal move: from the table, or a fresh solve."""
    seat = pos.decider
    assert seat is not None
    if fresh:
        try:
            values = solve_many([pos], max_states=300_000).move_values(pos)
        except TooLarge:
            return None
    else:
        table = large_table_for(pos.variant)
        found = table.move_values(pos) if table is not None else None
        if found is None:
            return None
        values = found
    return tuple(for_seat(v, seat) for _, v in values)


@dataclasses.dataclass
class Tally:
    optimal: int = 0
    losses: list[float] = dataclasses.field(default_factory=list)
    times: list[float] = dataclasses.field(default_factory=list)

    def line(self, name: str) -> str:
        n = len(self.losses)
        share = self.optimal / n if n else float("nan")
        loss = statistics.fmean(self.losses) if n else float("nan")
        median = statistics.median(self.times) * 1000 if self.times else float("nan")
        return (
            f"  {name:<18} optimal {share:7.2%} ({self.optimal}/{n})  mean loss {loss:.5f}"
            f"  median move {median:.1f} ms CPU"
        )

    def record(self, exact: tuple[float, ...] | list[float], chosen: int, seconds: float) -> None:
        """One decision: the exact values of every legal move, the index of the move played
        and its CPU time."""
        loss = max(exact) - exact[chosen]
        self.times.append(seconds)
        self.losses.append(loss)
        self.optimal += loss <= SAME


def measure(
    variant: Variant, count: int, seed: int, fresh: bool, players: tuple[str, ...] = PLAYERS
) -> dict[str, Tally]:
    rng = random.Random(seed)
    tallies = {p: Tally() for p in players}
    judged = tries = 0
    while judged < count and tries < 200 * count:
        tries += 1
        pos = three_against_two(variant, rng, low=22 if fresh else 1)
        if pos is None:
            continue
        exact = exact_values(pos, fresh)
        if exact is None:
            continue
        judged += 1
        legal = pos.legal_moves()
        for player in players:
            began = time.process_time()
            move = move_of(player, pos)
            tallies[player].record(exact, legal.index(move), time.process_time() - began)
    return tallies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=sorted(LARGE_TABLE_SPECS))
    parser.add_argument("--positions", type=int, default=200, help="per variant, whole board")
    parser.add_argument("--fresh", type=int, default=0, help="per variant, fresh solves")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    met = True
    for name in args.variant or sorted(LARGE_TABLE_SPECS):
        variant = find_variant(name)
        for fresh, count in ((False, args.positions), (True, args.fresh)):
            if count <= 0:
                continue
            began = time.process_time()
            tallies = measure(variant, count, args.seed, fresh)
            truth = "fresh solves, squares 22-30" if fresh else "the 3v2 table, whole board"
            master = tallies["master"]
            share = master.optimal / max(len(master.losses), 1)
            ok = share >= TARGET
            met = met and ok
            print(
                f"{name}: {len(master.losses)} positions, truth: {truth};"
                f" master optimal >= {TARGET:.0%}: {'met' if ok else 'NOT met'}"
                f"  ({time.process_time() - began:.0f} s CPU)"
            )
            for player, tally in tallies.items():
                print(tally.line(player))
    print("target met" if met else "target NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
