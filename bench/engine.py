#!/usr/bin/env python3
"""Rules-engine benchmark: random playouts per second, moves per second, and the cost of one
legal-move generation, per variant.

Why these three numbers: playouts/s bounds every Monte Carlo player and every ``simulate`` run;
moves/s makes engines with different game lengths comparable; µs per generation isolates the
move generator from the playout loop.

The benchmark talks to engines through the small :class:`Engine` protocol so that another
implementation (a compiled move generator, a port of Ludii's rules) can be measured by the same
loop later: write an adapter and add it to :data:`ENGINES`.  Our engine is the first adapter.

Usage::

    .venv/bin/python bench/engine.py            # 2 s per variant
    .venv/bin/python bench/engine.py --quick    # a smoke run, a fraction of a second each
    .venv/bin/python bench/engine.py --seconds 10 --variant kendall --json

Reference figures are Ludii's own (the general game system's random playouts on a comparable
machine, not measured here); they are shown beside ours as a ratio *across programs and runs*,
not a same-run comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

try:
    from senet.engine import VARIANTS, Move, Position, draw_throw, find_variant
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    from senet.engine import VARIANTS, Move, Position, draw_throw, find_variant

State = Any


class Engine(Protocol):
    """What the benchmark needs from a Senet engine.  States and moves are opaque to it; the
    throws are drawn by the benchmark (:func:`senet.engine.draw_throw`, with the instrument of
    our variant of the same name), so every engine is fed the same throws from the same seed."""

    name: str

    def initial(self, variant: str) -> State: ...
    def is_chance(self, state: State) -> bool: ...
    def throw(self, state: State, value: int) -> State: ...
    def legal(self, state: State) -> Sequence[Any]: ...
    def play(self, state: State, move: Any) -> State: ...
    def over(self, state: State) -> bool: ...


class SenetEngine:
    """Adapter for :mod:`senet.engine`.  ``play`` uses ``Position._play`` (no legality check):
    the benchmark only plays moves the generator produced, as a search or playout would.
    Every chance node of a variant (regular and fate throws) uses the variant's instrument."""

    name = "senet.engine"

    def initial(self, variant: str) -> Position:
        return Position.initial(find_variant(variant))

    def is_chance(self, state: Position) -> bool:
        return state.is_chance()

    def throw(self, state: Position, value: int) -> Position:
        return state.apply_throw(value)

    def legal(self, state: Position) -> list[Move]:
        return state.legal_moves()

    def play(self, state: Position, move: Move) -> Position:
        return state.apply_unchecked(move)

    def over(self, state: Position) -> bool:
        return state.outcome() is not None


ENGINES: dict[str, Callable[[], Engine]] = {"senet": SenetEngine}

#: Ludii's own figures (its random playouts on a machine like ours, not measured here); keyed
#: by our variant's name.
LUDII = {
    "kendall": {"playouts": 780.0, "moves": 150_000.0},  # Kendall's five-piece Senet
    "bell": {"playouts": 2300.0, "moves": None},  # Bell's Senet; no moves/s figure given
}


#: CPU time of this process, not wall time: the benchmark is single-threaded, and on a shared
#: machine other processes would otherwise show up as a slower engine.
_clock = time.process_time


def playout(
    engine: Engine,
    variant: str,
    rng: random.Random,
    visit: Callable[[State], None] | None = None,
) -> tuple[int, int]:
    """One game from the initial position with random throws and uniformly random legal
    moves; returns (moves, throws).  ``visit`` sees every decision position (for sampling)."""
    instrument = find_variant(variant).instrument
    state = engine.initial(variant)
    moves = throws = 0
    while not engine.over(state):
        if engine.is_chance(state):
            state = engine.throw(state, draw_throw(rng, instrument))
            throws += 1
            continue
        legal = engine.legal(state)
        if visit is not None:
            visit(state)
        state = engine.play(state, legal[rng.randrange(len(legal))])
        moves += 1
    return moves, throws


def bench_playouts(engine: Engine, variant: str, seconds: float, seed: int) -> dict:
    """Playouts until ``seconds`` have passed (at least one)."""
    rng = random.Random(seed)
    games = moves = throws = 0
    start = _clock()
    deadline = start + seconds
    while True:
        m, t = playout(engine, variant, rng)
        games += 1
        moves += m
        throws += t
        if _clock() >= deadline:
            break
    elapsed = _clock() - start
    return {
        "games": games,
        "seconds": elapsed,
        "playouts_per_s": games / elapsed,
        "moves_per_s": moves / elapsed,
        "throws_per_s": throws / elapsed,
        "moves_per_playout": moves / games,
    }


def bench_raw_playouts(variant: str, seconds: float, seed: int) -> dict:
    """Our engine's playouts on the raw integer state (:func:`senet.engine.flow.random_playout`),
    the path search and Monte Carlo use: same rules, no Position object per move."""
    from senet.engine import Position, find_variant
    from senet.engine.flow import random_playout
    from senet.engine.rules import tables_for

    v = find_variant(variant)
    tables, state, rng = tables_for(v), Position.initial(v).state, random.Random(seed)
    games = moves = 0
    start = _clock()
    while True:
        moves += random_playout(tables, state, rng)[1]
        games += 1
        if _clock() >= start + seconds:
            break
    elapsed = _clock() - start
    return {"raw_playouts_per_s": games / elapsed, "raw_moves_per_s": moves / elapsed}


#: Variants left out of the default run, and why: a uniformly random playout of them does not
#: end in a time a benchmark can wait for (``--variant NAME`` still measures them).
NO_RANDOM_PLAYOUTS = {
    "jequier": "uniformly random games run 10^5-10^6 moves (taken pieces go back to the start "
    "and nothing bears off before every piece is on the last row)",
}

#: Random playouts per CPU second that the compiled simulator must reach (per core).
COMPILED_TARGETS = {"kendall": 25_000.0, "bell": 50_000.0}


def bench_compiled_playouts(variant: str, seconds: float, seed: int) -> dict:
    """Random playouts of the compiled simulator (:mod:`senet.sim`, one process), the same
    rules as the raw path with every statistic the simulator keeps counted along the way.
    Games are run in batches until ``seconds`` of CPU time have passed; compilation (or
    loading the cached machine code) happens before the clock starts."""
    from senet.sim.kernel import RANDOM
    from senet.sim.runner import run
    from senet.sim.tables import compile_rules

    rules = compile_rules(find_variant(variant))
    run(rules, 10, seed)  # compile or load the kernel outside the measurement
    games = moves = 0
    batch = 2_000
    start = _clock()
    while True:
        tally = run(rules, batch, seed + games, (RANDOM, RANDOM))
        games += batch
        moves += int(tally.lengths[2])  # decisions, summed exactly
        if _clock() >= start + seconds:
            break
    elapsed = _clock() - start
    return {"compiled_playouts_per_s": games / elapsed, "compiled_moves_per_s": moves / elapsed}


def sample_positions(engine: Engine, variant: str, count: int, seed: int) -> list[State]:
    """A fixed sample of reachable decision positions: every 7th decision of seeded random
    playouts, so early, middle and late positions are all represented.  Same seed, same sample."""
    rng = random.Random(seed)
    seen: list[State] = []
    counter = [0]

    def visit(state: State) -> None:
        counter[0] += 1
        if counter[0] % 7 == 0 and len(seen) < count:
            seen.append(state)

    while len(seen) < count:
        playout(engine, variant, rng, visit)
    return seen


def bench_generation(engine: Engine, positions: list[State], seconds: float) -> dict:
    """Microseconds per legal-move generation over ``positions``, repeated until ``seconds``;
    the median of the passes, so one interrupted pass does not skew it."""
    legal = engine.legal
    passes: list[float] = []
    spent = 0.0
    while spent < seconds or not passes:
        start = _clock()
        for state in positions:
            legal(state)
        elapsed = _clock() - start
        passes.append(elapsed / len(positions) * 1e6)
        spent += elapsed
    return {
        "positions": len(positions),
        "passes": len(passes),
        "us_per_generation": statistics.median(passes),
    }


def _ratio(ours: float, theirs: float | None) -> str:
    return f"{ours / theirs:.2f}x" if theirs else "—"


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = ""
    if hasattr(os, "getloadavg"):
        load = f", load {os.getloadavg()[0]:.1f}"
    return f"{platform.python_implementation()} {platform.python_version()}, {cpu}, {os.cpu_count()} CPUs{load}"


def _print_table(table: list[tuple[str, ...]]) -> None:
    """Rows of cells under a header row and a rule: the first column left-aligned, the others
    right-aligned, each as wide as its widest cell."""
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for index, row in enumerate(table):
        print(
            "  ".join(
                cell.rjust(w) if i else cell.ljust(w)
                for i, (cell, w) in enumerate(zip(row, widths))
            )
        )
        if index == 0:
            print("  ".join("-" * w for w in widths))


def _print_compiled(rows: list[dict]) -> None:
    """The compiled simulator's rates beside the raw path's, and its per-core targets."""
    if not any("compiled_playouts_per_s" in r for r in rows):
        return
    print()
    print("compiled simulator (senet.sim, Numba), random playouts on one core, same run:")
    head = ("variant", "po/s", "mv/s", "raw po/s", "compiled/raw", "target po/s", "target")
    table = [head]
    for r in rows:
        if "compiled_playouts_per_s" not in r:
            continue
        target = COMPILED_TARGETS.get(r["variant"])
        met = (
            "—"
            if target is None
            else ("met" if r["compiled_playouts_per_s"] >= target else "NOT MET")
        )
        table.append(
            (
                r["variant"],
                f"{r['compiled_playouts_per_s']:,.0f}",
                f"{r['compiled_moves_per_s']:,.0f}",
                f"{r['raw_playouts_per_s']:,.0f}",
                _ratio(r["compiled_playouts_per_s"], r["raw_playouts_per_s"]),
                f"{target:,.0f}" if target else "—",
                met,
            )
        )
    _print_table(table)
    print("Targets per CPU second of one core: kendall 25,000, bell 50,000 random playouts (the")
    print("compiled rate includes the statistics the simulator keeps: events, lengths, Houses).")
    print()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="time budget per variant (default 2)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="smoke run: 0.2 s per variant, 200 sample positions"
    )
    parser.add_argument(
        "--variant",
        action="append",
        choices=list(VARIANTS),
        help="only these variants (repeatable)",
    )
    parser.add_argument(
        "--engine", choices=list(ENGINES), default="senet", help="engine adapter to measure"
    )
    parser.add_argument(
        "--seed", type=int, default=2026, help="seed of throws, moves and the position sample"
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--no-compiled", action="store_true", help="skip the compiled simulator (senet.sim)"
    )
    args = parser.parse_args(argv)
    seconds = 0.2 if args.quick else args.seconds
    sample_size = 200 if args.quick else 2000
    engine = ENGINES[args.engine]()
    rows = []
    if not args.variant:
        for variant, why in NO_RANDOM_PLAYOUTS.items():
            print(f"{variant}: not measured by default: {why}", file=sys.stderr)
    for variant in args.variant or [v for v in VARIANTS if v not in NO_RANDOM_PLAYOUTS]:
        play = bench_playouts(engine, variant, seconds * 0.5, args.seed)
        if args.engine == "senet":
            play.update(bench_raw_playouts(variant, seconds * 0.25, args.seed))
            if not args.no_compiled:
                try:
                    play.update(bench_compiled_playouts(variant, seconds * 0.25, args.seed))
                except ValueError as exc:  # rules the compiled simulator refuses, by name
                    print(f"{variant}: no compiled playouts: {exc}", file=sys.stderr)
        positions = sample_positions(engine, variant, sample_size, args.seed + 1)
        gen = bench_generation(engine, positions, seconds * 0.25)
        ref = LUDII.get(variant, {})
        rows.append(
            {
                "variant": variant,
                **play,
                **gen,
                "ludii_playouts_per_s": ref.get("playouts"),
                "ludii_moves_per_s": ref.get("moves"),
            }
        )
    if args.json:
        print(
            json.dumps(
                {"engine": engine.name, "machine": _machine(), "seconds": seconds, "rows": rows},
                indent=2,
            )
        )
        return 0
    print(f"engine: {engine.name}   machine: {_machine()}   budget: {seconds:g} s CPU per variant")
    head = (
        "variant",
        "playouts/s",
        "moves/s",
        "moves/game",
        "µs/legal",
        "raw po/s",
        "raw/API",
        "Ludii po/s",
        "raw/Ludii",
        "raw mv/s",
        "Ludii mv/s",
        "raw/Ludii",
    )
    table = [head]
    for r in rows:
        table.append(
            (
                r["variant"],
                f"{r['playouts_per_s']:,.0f}",
                f"{r['moves_per_s']:,.0f}",
                f"{r['moves_per_playout']:.0f}",
                f"{r['us_per_generation']:.2f}",
                f"{r.get('raw_playouts_per_s', 0):,.0f}",
                _ratio(r.get("raw_playouts_per_s", 0), r["playouts_per_s"]),
                f"{r['ludii_playouts_per_s']:,.0f}" if r["ludii_playouts_per_s"] else "—",
                _ratio(r.get("raw_playouts_per_s", r["playouts_per_s"]), r["ludii_playouts_per_s"]),
                f"{r.get('raw_moves_per_s', 0):,.0f}",
                f"{r['ludii_moves_per_s']:,.0f}" if r["ludii_moves_per_s"] else "—",
                _ratio(r.get("raw_moves_per_s", r["moves_per_s"]), r["ludii_moves_per_s"]),
            )
        )
    _print_table(table)
    print(
        "Rates are per CPU second of this process.  moves = decisions (passes included), not throws."
    )
    print(
        "playouts/s drives the public Position API (one object per throw and move); raw po/s plays the"
    )
    print(
        "same rules on the flat integer state (senet.engine.flow.random_playout); raw/API is their same-run ratio."
    )
    print(
        "µs/legal = one legal-move generation, median of passes over a fixed sample of reachable positions."
    )
    _print_compiled(rows)
    print(
        "Ludii figures are Ludii's own (its random playouts on a comparable machine), not measured"
    )
    print("in this run: the ratio compares two programs across runs, not a same-run measurement.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
