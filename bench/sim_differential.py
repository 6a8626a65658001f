#!/usr/bin/env python3
"""The compiled simulator against the pure engine on 100,000 random positions per variant.

At every decision position of seeded random games (every special state included: extra
throws owed, turns to skip, drowned and captured pieces, a pending throw of fate or House of
Water choice; for kendall-1978 throws of several values banked, a returned piece, a piece
waiting on 27, a move onto 28-30 barred while 27 is taken, a bearing off that may be declined)
both paths must list the same legal moves in the same order and reach the same state after
each of them, and after every throw (see :mod:`senet.sim.differential`).  The test suite runs the same
comparison on 4,000 positions a variant; this prints the full count and what it covered.

Usage::

    .venv/bin/python bench/sim_differential.py                  # 100,000 positions a variant
    .venv/bin/python bench/sim_differential.py --positions 20000 --variant kendall
    .venv/bin/python bench/sim_differential.py --alternatives  # the alternative readings too
"""

from __future__ import annotations

import argparse
import sys
import time

from senet.engine import VARIANTS, find_variant
from senet.sim.alternatives import ALTERNATIVES
from senet.sim.differential import SPECIAL, Mismatch, compare


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100_000)
    parser.add_argument("--variant", action="append", choices=list(VARIANTS))
    parser.add_argument("--alternatives", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    targets = [find_variant(name) for name in args.variant or list(VARIANTS)]
    if args.alternatives:
        targets += [alt.build() for alt in ALTERNATIVES if alt.variant in {v.name for v in targets}]
    print(
        f"{'variant':28} {'positions':>9} {'moves':>9} {'games':>6}  "
        + " ".join(f"{name:>8}" for name in SPECIAL)
        + "  seconds  result"
    )
    failed = 0
    for variant in targets:
        start = time.process_time()
        try:
            cover = compare(variant, args.positions, args.seed)
            result = "identical"
        except Mismatch as exc:
            failed += 1
            print(f"{variant.name}: MISMATCH {exc}")
            continue
        print(
            f"{variant.name:28} {cover.positions:>9,} {cover.moves:>9,} {cover.games:>6,}  "
            + " ".join(f"{cover.special[name]:>8,}" for name in SPECIAL)
            + f"  {time.process_time() - start:7.1f}  {result}"
        )
    print("Counts of special states are positions in that state (a position may be in several).")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
