"""How often the top level plays an optimal move in solvable endgames, and what it loses.

For each variant, a fixed seeded sample of endgame positions (a throw pending, at least two
legal moves, one or two pieces a side left, at most :data:`MAX_TOTAL` in all; in Bell one or
two a side on the board, with a score that is still open) on the last squares of the track.
One shared exact solution of everything reachable from the sample is the ground truth
(:func:`senet.ai.solver.solve_many`); in the Adelaida variants, where that set runs into
millions, only roots whose own future is small enough are kept (:data:`ROOT_CAP`), taken
from every position of the region with owed extra throws and skipped turns as well.  For every
position we ask the level for its move and count it optimal when its exact value is within
1e-9 of the best; the loss is the exact winning chance (Bell: expected result) given up.

Two figures per variant: the top level exactly as it plays (``choose_move``: its search, plus
its shipped endgame tables (:mod:`senet.ai.tables`) and its own exact solving when a
position's future is within its budget), and its search alone
(the same level with solving and tables switched off), which shows the quality of search +
evaluation.  The ground truth never reads the shipped tables: it is always a fresh solve.
Also the median time per move of the top level on these positions.

    python bench/ai_accuracy.py --quick            # 100 positions a variant
    python bench/ai_accuracy.py                    # 1,000 positions a variant (the measurement)
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import random
import statistics
import sys
import time

from senet.ai import LEVELS, choose_move, find_level
from senet.ai.compiled_solver import CompiledSolution, solve_compiled
from senet.ai.solver import Solution, TooLarge, for_seat, solve_many
from senet.engine import OFF, VARIANTS, HouseKind, Position, Variant, find_variant

#: First square of the sampled region, per variant (the reachable sets must stay solvable).
LOW = {"standard": 18, "kendall": 18, "adelaida": 16, "adelaida-long": 16, "bell": 20}
#: Most pieces left (on the board or drowned) for both seats together: two a side in standard;
#: three in all elsewhere, where backward moves, water returns, revivals or the score make the
#: shared reachable set of 1,000 roots several times larger.
MAX_TOTAL = {"standard": 4, "kendall": 3, "adelaida": 3, "adelaida-long": 3, "bell": 3}
#: Adelaida: pieces wander back, drown and revive on 15, and extra throws pile up, so even
#: three pieces can reach millions of positions; there the sample keeps only the roots whose
#: own future has at most this many positions, each solved on its own (from the whole region
#: in a seeded order, see :func:`candidate_roots`: the sizes are bimodal, a few hundred or
#: beyond 30,000, and only about 1,000 such roots exist on squares 18-30, so from 16).
ROOT_CAP = {"adelaida": 5_000, "adelaida-long": 5_000}
#: Bell: the pieces captured so far (the score is what is not on the board or captured).
BELL_CAPTURED = ((3, 3), (4, 2), (2, 4))


def _resting_squares(v: Variant, low: int) -> list[int]:
    """Squares a piece can stand on between moves (not the Houses that move it on at once)."""
    moving = {
        HouseKind.SEND_BACK,
        HouseKind.BA,
        HouseKind.DROWN,
        HouseKind.WATER_CHOICE,
        HouseKind.FATE,
    }
    return [sq for sq in range(low, 31) if v.house_kind(sq) not in moving]


def sample_positions(variant: Variant, count: int, seed: int = 2026) -> list[Position]:
    """``count`` distinct endgame positions with a throw pending and a real choice."""
    rng = random.Random(seed)
    squares = _resting_squares(variant, LOW[variant.name])
    bell = variant.scoring == "points"
    seen: set[Position] = set()
    out: list[Position] = []
    while len(out) < count:
        k = (rng.randint(1, 2), rng.randint(1, 2))
        if sum(k) > MAX_TOTAL[variant.name]:
            continue
        cells = rng.sample(squares, k[0] + k[1])
        pieces = (cells[: k[0]], cells[k[0] :])
        captured = (0, 0)
        off: tuple[int, int] | None = None
        drowned = (0, 0)
        if bell:
            captured = rng.choice(BELL_CAPTURED)
            off = (variant.pieces - k[0] - captured[0], variant.pieces - k[1] - captured[1])
        elif variant.squares_of(HouseKind.DROWN) and rng.random() < 0.25:
            seat = rng.randint(0, 1)
            if k[seat] == 2:
                pieces[seat].pop()
                drowned = (1, 0) if seat == 0 else (0, 1)
        turn = rng.randint(0, 1)
        throw = rng.choice(variant.instrument.values)
        try:
            pos = Position.from_parts(
                variant, pieces, turn=turn, throw=throw, captured=captured, off=off, drowned=drowned
            )
        except ValueError:
            continue
        if pos.is_over() or pos.decider is None or len(pos.legal_moves()) < 2 or pos in seen:
            continue
        seen.add(pos)
        out.append(pos)
    return out


class _PerRoot:
    """Ground truth from one small solution per root (see :data:`ROOT_CAP`)."""

    def __init__(self, solutions: dict[Position, Solution]) -> None:
        self.solutions = solutions
        self.index = {s for sol in solutions.values() for s in sol.index}

    def move_values(self, pos: Position) -> list:
        return self.solutions[pos].move_values(pos)


def candidate_roots(variant: Variant, seed: int = 2026) -> list[Position]:
    """Adelaida: every position of the sampled region (as :func:`sample_positions`, plus an
    owed extra throw or a turn to skip for either seat, which the Houses of Rebirth and Net
    leave behind), in a seeded random order.  Solvable roots are rare (about one in seventy:
    most futures run into millions), so the sample walks this list instead of drawing at
    random, which would never collect 1,000 distinct ones."""
    squares = _resting_squares(variant, LOW[variant.name])
    out: list[Position] = []
    counters = ((0, 0), (1, 0), (0, 1))
    for ka, kb in ((1, 1), (1, 2), (2, 1), (2, 2)):
        if ka + kb > MAX_TOTAL[variant.name]:
            continue
        for a in itertools.combinations(squares, ka):
            for b in itertools.combinations([sq for sq in squares if sq not in a], kb):
                for drowned in ((0, 0), (1, 0), (0, 1)):
                    if (drowned[0] and ka != 1) or (drowned[1] and kb != 1):
                        continue
                    for turn, throw, extra, skip in itertools.product(
                        (0, 1), variant.instrument.values, counters, counters
                    ):
                        try:
                            pos = Position.from_parts(
                                variant,
                                (a, b),
                                turn=turn,
                                throw=throw,
                                drowned=drowned,
                                extra=extra,
                                skip=skip,
                            )
                        except ValueError:
                            continue
                        if (
                            not pos.is_over()
                            and pos.decider is not None
                            and len(pos.legal_moves()) >= 2
                        ):
                            out.append(pos)
    random.Random(seed).shuffle(out)
    return out


def ground_truth(variant: Variant, count: int) -> tuple[list[Position], Solution | _PerRoot]:
    """The sample and its exact values."""
    cap = ROOT_CAP.get(variant.name)
    if cap is None:
        positions = sample_positions(variant, count)
        return positions, solve_many(positions)
    solutions: dict[Position, Solution] = {}
    # Positions proven to have more than ``cap`` positions in their future: a root that reaches
    # one is too large as well, which we learn without enumerating ``cap`` positions again.
    large: set[tuple[int, ...]] = set()
    for pos in candidate_roots(variant):
        try:
            solutions[pos] = solve_many([pos], max_states=cap, known_large=large)
        except TooLarge:
            s = pos.state
            large.add(s)
            large.add(s[:3] + (0,) + s[4:])  # the throw before it (a throw leads to pos)
            continue
        if len(solutions) == count:
            break
    if len(solutions) < count:
        raise SystemExit(
            f"{variant.name}: only {len(solutions)} solvable roots in the sampled region"
        )
    return list(solutions), _PerRoot(solutions)


def measure(variant: Variant, count: int, level_key: str) -> dict[str, float]:
    start = time.time()
    positions, truth = ground_truth(variant, count)
    solve_time = time.time() - start
    top = find_level(level_key)
    search_only = dataclasses.replace(top, key=top.key + "-search", solve_states=0)
    result: dict[str, float] = {"states": len(truth.index), "solve_s": solve_time}
    for label, level in (("play", top), ("search", search_only)):
        rng = random.Random(1)
        optimal, losses, times = 0, [], []
        for pos in positions:
            seat = pos.decider
            t = time.perf_counter()
            move = choose_move(pos, level, rng)
            times.append(time.perf_counter() - t)
            values = {m: for_seat(v, seat) for m, v in truth.move_values(pos)}  # type: ignore[arg-type]
            loss = max(values.values()) - values[move]
            optimal += loss <= 1e-9
            losses.append(max(0.0, loss))
        result[f"{label}_optimal"] = optimal / len(positions)
        result[f"{label}_loss"] = sum(losses) / len(losses)
        result[f"{label}_median_ms"] = statistics.median(times) * 1000
    return result


# --------------------------------------------------------------------- the whole board
#: Material classes of the whole-board sample: pieces left for (the seat to move, the other).
CLASSES = ((1, 1), (2, 1), (1, 2), (2, 2))
#: The roots of one material class are first solved together when everything they reach
#: fits this many positions (three pieces in all: one shared solution of most of the class);
#: otherwise each root is solved on its own when its future has at most :data:`WHOLE_CAP`
#: positions, and larger ones are counted as skipped (and printed), never silently dropped.
SHARED_CAP = 800_000
WHOLE_CAP = 60_000
#: Four pieces (two against two), and three whose shared solution passes :data:`SHARED_CAP`,
#: are solved together by the compiled solver
#: (:mod:`senet.ai.compiled_solver`, held to the reference solver by the tests) when everything
#: they reach fits this many positions: the whole closed set of the class in standard (two
#: million), Kendall (2.3 million) and Bell (up to 9.3 million, 1.7 GB).
COMPILED_CAP = 12_000_000


def whole_board_sample(
    variant: Variant, material: tuple[int, int], count: int, seed: int = 7
) -> list[Position]:
    """``count`` distinct positions with ``material`` pieces left (the seat on turn first),
    every resting square of the board equally likely, a throw made and a real choice; in
    Bell the score is open (the pieces not left are captured or borne off in a seeded mix),
    in the Adelaida variants a second piece is drowned instead of on the board one time in
    four."""
    rng = random.Random(seed * 100 + 10 * material[0] + material[1])
    squares = _resting_squares(variant, 1)
    bell = variant.scoring == "points"
    seen: set[Position] = set()
    out: list[Position] = []
    tries = 0
    while len(out) < count and tries < 200 * count:
        tries += 1
        turn = rng.randint(0, 1)
        k = [0, 0]
        k[turn], k[1 - turn] = material
        cells = rng.sample(squares, k[0] + k[1])
        pieces = (cells[: k[0]], cells[k[0] :])
        captured, off, drowned = (0, 0), None, [0, 0]
        if bell:
            gone = [variant.pieces - k[0], variant.pieces - k[1]]
            captured = (rng.randint(0, gone[0]), rng.randint(0, gone[1]))
            off = tuple(gone[s] - captured[s] for s in (0, 1))
        elif variant.squares_of(HouseKind.DROWN):
            for seat in (0, 1):
                if k[seat] == 2 and rng.random() < 0.25:
                    pieces[seat].pop()
                    drowned[seat] = 1
        try:
            pos = Position.from_parts(
                variant,
                pieces,
                turn=turn,
                throw=rng.choice(variant.instrument.values),
                captured=captured,
                off=off,  # type: ignore[arg-type]
                drowned=tuple(drowned),  # type: ignore[arg-type]
            )
        except ValueError:
            continue
        if pos.is_over() or pos.decider is None or len(pos.legal_moves()) < 2 or pos in seen:
            continue
        seen.add(pos)
        out.append(pos)
    return out


def measure_whole_board(
    variant: Variant, count: int, level_key: str, compiled_cap: int = COMPILED_CAP
) -> list[dict[str, float]]:
    """Per material class: the share of optimal moves and the mean loss of the level as it
    plays, on roots from the whole board, valued by a fresh solve: one shared solution of a
    class's roots where it fits (the reference solver up to three pieces and
    :data:`SHARED_CAP` positions, else the compiled one up to ``compiled_cap``: 0 switches it
    off), else each root's own."""
    level = find_level(level_key)
    rows: list[dict[str, float]] = []
    for material in CLASSES:
        positions = whole_board_sample(variant, material, count)
        optimal, losses, times, skipped = 0, [], [], 0
        rng = random.Random(1)
        large: set[tuple[int, ...]] = set()
        shared: Solution | CompiledSolution | None = None
        solved_at = time.perf_counter()
        if sum(material) <= 3 and positions:
            try:
                shared = solve_many(positions, max_states=SHARED_CAP)
            except TooLarge:
                shared = None
        if shared is None and positions and compiled_cap:
            try:
                shared = solve_compiled(positions, max_states=compiled_cap)
            except (TooLarge, ValueError):
                shared = None
        solve_s = time.perf_counter() - solved_at
        states = len(shared.index) if isinstance(shared, Solution) else len(shared or ())
        for pos in positions:
            if shared is not None:
                truth = shared
            else:
                try:
                    truth = solve_many([pos], max_states=WHOLE_CAP, known_large=large)
                except TooLarge:
                    large.add(pos.state)
                    skipped += 1
                    continue
            seat = pos.decider
            t = time.perf_counter()
            move = choose_move(pos, level, rng)
            times.append(time.perf_counter() - t)
            values = {m: for_seat(v, seat) for m, v in truth.move_values(pos)}  # type: ignore[arg-type]
            loss = max(values.values()) - values[move]
            optimal += loss <= 1e-9
            losses.append(max(0.0, loss))
        n = len(losses)
        rows.append(
            {
                "mover": material[0],
                "other": material[1],
                "sampled": len(positions),
                "valued": n,
                "skipped": skipped,
                "shared": shared is not None,
                "compiled": isinstance(shared, CompiledSolution),
                "states": states,
                "solve_s": solve_s,
                "optimal": optimal / n if n else float("nan"),
                "loss": sum(losses) / n if n else float("nan"),
                "median_ms": statistics.median(times) * 1000 if times else float("nan"),
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="100 positions a variant")
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--level", default=LEVELS[-1].key)
    parser.add_argument(
        "--whole-board",
        action="store_true",
        help="sample every square per material class (one to two pieces a side), each root"
        f" solved on its own up to {WHOLE_CAP:,} positions",
    )
    parser.add_argument(
        "--compiled-cap",
        type=int,
        default=COMPILED_CAP,
        help="whole board, two against two: one shared compiled solve up to this many"
        " positions (0: each root on its own, as for larger classes)",
    )
    args = parser.parse_args(argv)
    count = 100 if args.quick else args.count
    ok = True
    if args.whole_board:
        print(
            f"top level: {args.level}; whole board, {count} positions per material class;"
            " targets: optimal >= 99%, mean loss <= 0.002 in every class"
        )
        for name in args.variant or list(VARIANTS):
            rows = measure_whole_board(find_variant(name), count, args.level, args.compiled_cap)
            for r in rows:
                if not r["valued"]:
                    print(
                        f"{name:14s} {int(r['mover'])} against {int(r['other'])}: no position"
                        f" with a choice valued ({int(r['sampled'])} sampled,"
                        f" {int(r['skipped'])} beyond {WHOLE_CAP:,} positions)",
                        flush=True,
                    )
                    continue
                hit = r["optimal"] >= 0.99 and r["loss"] <= 0.002
                ok &= hit
                print(
                    f"{name:14s} {int(r['mover'])} against {int(r['other'])}:"
                    f" {int(r['valued'])} valued"
                    + (
                        f" (one shared {'compiled ' if r['compiled'] else ''}solution:"
                        f" {int(r['states']):,} positions, {r['solve_s']:.0f} s)"
                        if r["shared"]
                        else f" ({int(r['skipped'])} of {int(r['sampled'])} beyond"
                        f" {WHOLE_CAP:,} positions, not valued)"
                    )
                    + f"  optimal {r['optimal']:7.2%}"
                    f"  mean loss {r['loss']:.4f}  median {r['median_ms']:.0f} ms/move"
                    f"  {'met' if hit else 'NOT MET'}",
                    flush=True,
                )
        return 0 if ok else 1
    print(f"top level: {args.level}; targets: optimal >= 99%, mean loss <= 0.002")
    for name in args.variant or list(VARIANTS):
        variant = find_variant(name)
        r = measure(variant, count, args.level)
        hit = r["play_optimal"] >= 0.99 and r["play_loss"] <= 0.002
        ok &= hit
        kind = f"each within {ROOT_CAP[name]} states" if name in ROOT_CAP else "one shared table"
        print(
            f"{name:14s} {count} positions ({int(r['states'])} states solved in {r['solve_s']:.0f}s, {kind})\n"
            f"  as played:   optimal {r['play_optimal']:7.2%}  mean loss {r['play_loss']:.4f}  "
            f"median {r['play_median_ms']:.0f} ms/move  {'ok' if hit else 'TARGET MISSED'}\n"
            f"  search only: optimal {r['search_optimal']:7.2%}  mean loss {r['search_loss']:.4f}  "
            f"median {r['search_median_ms']:.0f} ms/move",
            flush=True,
        )
    return 0 if ok else 1


if __name__ == "__main__":
    assert OFF == 31
    sys.exit(main())
