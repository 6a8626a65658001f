"""Two evaluations against each other, each searched to the same fixed depth, in game pairs.

What a change of evaluation alone is worth, apart from the clock: both players run the same
:class:`senet.ai.search.Searcher` to ``--depth`` decisions (no time budget, no exact solving;
a move that wins at once is always taken, else the first of the best), on the linear-format
weights named on the command line.  Both games of a pair use the same seeded throw sequence,
``--a`` seat A in one and seat B in the other, as in ``bench/ai_ladder.py``; prints ``--a``'s
score (a draw counts ½) with its 95% interval over the pairs.

An evaluation is a weights file (``senet/ai/weights/<variant>.json`` or a training snapshot,
``senet train linear ... --snapshots K``), ``hand-made`` (the generic evaluation a
variant without trained weights falls back to) or ``pip`` (the progress count of the ``pip3``
reference in linear form: 31 for a piece borne off, the square for one on the board, a tempo
of 3, on the same logistic scale; without its safety term).

    python bench/ai_duel.py --variant piccione --a src/senet/ai/weights/piccione.json --b pip
    python bench/ai_duel.py --variant piccione --a snapshot.json.10000 --b hand-made --depth 2
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from ai_ladder import interval, pair_seed
from reference_players import searched_move

from senet.ai.evaluation import (
    FEATURES,
    N_FEATURES,
    Evaluator,
    default_weights,
    terminal_value,
)
from senet.ai.search import Searcher
from senet.engine import Position, Variant, draw_throw, find_variant


def evaluation(variant: Variant, spec: str) -> Evaluator:
    """The evaluation named ``spec`` (see the module's description)."""
    if spec == "hand-made":
        return Evaluator(variant, default_weights(variant))
    if spec == "pip":
        w = np.zeros(N_FEATURES)
        w[:30] = np.arange(1, 31) / 15.0
        w[FEATURES.index("off")] = 31 / 15.0
        w[-1] = 3 / 15.0
        return Evaluator(variant, w)
    return Evaluator.from_json(variant, Path(spec).read_text())


def play(variant: Variant, players: tuple[Searcher, Searcher], seed: int) -> float:
    """One game, ``players[0]`` seat A; seat A's result (a game past 3,000 decisions: ½)."""
    rng = random.Random(seed)
    pos = Position.initial(variant)
    decisions = 0
    while not pos.is_over() and decisions < 3000:
        if pos.is_chance():
            pos = pos.apply_throw(draw_throw(rng, variant.instrument))
            continue
        assert pos.decider is not None
        pos = pos.apply(searched_move(pos, players[pos.decider]))
        decisions += 1
    done = terminal_value(pos)
    return 0.5 if done is None else done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", required=True)
    parser.add_argument("--a", required=True, help="the evaluation whose score is printed")
    parser.add_argument("--b", required=True)
    parser.add_argument("--depth", type=int, default=1, help="decisions searched (1: greedy)")
    parser.add_argument("--pairs", type=int, default=400)
    parser.add_argument("--offset", type=int, default=0, help="the first pair's number")
    args = parser.parse_args(argv)
    variant = find_variant(args.variant)
    a = Searcher(evaluation(variant, args.a), args.depth)
    b = Searcher(evaluation(variant, args.b), args.depth)
    start = time.time()
    scores = []
    for k in range(args.offset, args.offset + args.pairs):
        seed = pair_seed(k)
        scores.append((play(variant, (a, b), seed) + 1.0 - play(variant, (b, a), seed)) / 2)
    mean, lo, hi = interval(scores)
    print(
        f"{variant.name}: {args.a} against {args.b}, depth {args.depth}: "
        f"{mean:.1%} [{lo:.1%}, {hi:.1%}] over {2 * len(scores)} games ({time.time() - start:.0f}s)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
