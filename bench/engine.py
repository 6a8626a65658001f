#!/usr/bin/env python3
"""Rules-engine benchmark: random playouts per second, moves per second, and the cost of one
legal-move generation, per variant.

Why these three numbers: playouts/s bounds every Monte Carlo player and every ``simulate`` run;
moves/s makes engines with different game lengths comparable; µs per generation isolates the
move generator from the playout loop.

The measuring itself is :mod:`senet.sim.speed` (``senet bench engine`` prints the same
figures without Ludii's); this script adds Ludii's figures beside ours.  Engines are measured
through the small :class:`senet.sim.speed.Engine` protocol so that another implementation (a
compiled move generator, a port of Ludii's rules) can be measured by the same loop later: write
an adapter and add it to :data:`ENGINES`.  Our engine is the first adapter.

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
import sys
from collections.abc import Callable, Sequence

try:
    from senet.engine import VARIANTS
except ModuleNotFoundError:  # run from a checkout without the package installed
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
    from senet.engine import VARIANTS
from senet.cli_engine.common import format_table
from senet.sim.speed import COMPILED_TARGETS, NO_RANDOM_PLAYOUTS, Engine, SenetEngine, measure

ENGINES: dict[str, Callable[[], Engine]] = {"senet": SenetEngine}

#: Ludii's own figures (its random playouts on a machine like ours, not measured here); keyed
#: by our variant's name.
LUDII = {
    "kendall": {"playouts": 780.0, "moves": 150_000.0},  # Kendall's five-piece Senet
    "bell": {"playouts": 2300.0, "moves": None},  # Bell's Senet; no moves/s figure given
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
    print(format_table(table))
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
        row = measure(
            variant,
            seconds,
            args.seed,
            engine=engine,
            sample=sample_size,
            compiled=not args.no_compiled,
            on_skip=lambda why: print(why, file=sys.stderr),
        )
        ref = LUDII.get(variant, {})
        rows.append(
            {
                **row,
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
    print(format_table(table))
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
