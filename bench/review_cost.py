"""What a whole-game review costs, and what its verdicts lose against the master's own search.

For every variant, ``--games`` whole games between two ``--player`` players (seeded; the
expert by default: the best move by the learned evaluation, so the positions are those of
strong play through the whole game, from the opening to the last pieces), each reviewed twice
in one process:

* **the review** as the site computes it (:func:`senet.ai.review.review_game`: exact values
  first, else the master's evaluation searched a fixed depth), timed in CPU seconds;
* **the master's search** (``review_game(..., level="master")``: iterative deepening within its
  300 ms budget, on the process's CPU clock so that it does the work it would do on a machine
  of its own), the review as it was computed before, timed the same way.

Printed per variant: decisions, CPU seconds per 150-decision review for both (the game's cost
scaled to 150 decisions) and their ratio; then, on the decisions with a choice, how the review
agrees with the master's search: the share where its best move is the master's best (or valued
equal by the master), the winning chance its best move loses by the master's values (mean and
largest), and the share of played moves given the same verdict (blunder, mistake,
inaccuracy, none).  Targets: under 5 s of CPU per 150 decisions; mean loss at most 0.002 (the
computer's accuracy target against exact values) and the same verdict on at least 90% of the
decisions.

    python bench/review_cost.py                          # every variant, one game each
    python bench/review_cost.py --variant standard --games 3 --player master
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

from senet.ai import choose_move, move_values, search, warm_up
from senet.ai.review import ReviewRow, classify, review_game
from senet.engine import VARIANTS, Game, Position, draw_throw, find_variant

#: Targets: CPU seconds per 150-decision review; mean loss of the review's best move by the
#: master's values; share of played moves judged alike.
CPU_TARGET = 5.0
LOSS_TARGET = 0.002
VERDICT_TARGET = 0.90
#: Decisions after which a sampling game is cut.
MAX_DECISIONS = 3000


def play(variant: str, player: str, seed: int) -> Game:
    """A whole seeded game between two ``player`` players."""
    rng = random.Random(seed)
    game = Game(find_variant(variant))
    decisions = 0
    while not game.is_over() and decisions < MAX_DECISIONS:
        pos = game.position
        if pos.is_chance():
            game.push_throw(draw_throw(rng, pos.variant.instrument))
        else:
            game.push(choose_move(pos, player, rng))
            decisions += 1
    return game


def timed(game: Game, level: str | None) -> tuple[list[ReviewRow], float]:
    start = time.process_time()
    rows = review_game(game, level)
    return rows, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", action="append", help="repeatable; default: every variant")
    parser.add_argument("--games", type=int, default=1, help="games per variant")
    parser.add_argument("--player", default="expert", help="the level that plays the games")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    search.now = time.process_time  # the master's budget in CPU time: the load left out
    warm_up()
    print(
        f"review cost: {args.games} game(s) of {args.player} against {args.player} per variant,"
        f" seed {args.seed}; load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'variant':14} {'decisions':>9} {'choice':>6} {'review s/150':>12}"
        f" {'master s/150':>12} {'ratio':>6} {'best agrees':>11} {'mean loss':>9}"
        f" {'max loss':>8} {'verdicts':>8}  targets"
    )
    failed = False
    for name in args.variant or list(VARIANTS):
        decisions = choice = agree = same_verdict = 0
        cpu_review = cpu_master = loss_sum = loss_max = 0.0
        for g in range(args.games):
            game = play(name, args.player, args.seed * 1000 + g)
            review, cpu_r = timed(game, None)
            master, cpu_m = timed(game, "master")
            decisions += len(review)
            cpu_review += cpu_r
            cpu_master += cpu_m
            for ours, theirs in zip(review, master, strict=True):
                if ours.choices < 2:
                    continue
                choice += 1
                values = _master_values(theirs, ours)
                loss = max(0.0, theirs.before - values)
                loss_sum += loss
                loss_max = max(loss_max, loss)
                agree += loss <= 1e-9
                same_verdict += classify(ours.loss) == classify(theirs.loss)
        per_review = cpu_review / decisions * 150
        per_master = cpu_master / decisions * 150
        mean_loss = loss_sum / choice if choice else 0.0
        verdicts = same_verdict / choice if choice else 1.0
        met = [
            per_review < CPU_TARGET,
            mean_loss <= LOSS_TARGET,
            verdicts >= VERDICT_TARGET,
        ]
        failed |= not all(met)
        print(
            f"{name:14} {decisions:9d} {choice:6d} {per_review:12.2f} {per_master:12.2f}"
            f" {per_master / per_review:5.1f}x {agree / max(choice, 1):11.1%} {mean_loss:9.4f}"
            f" {loss_max:8.3f} {verdicts:8.1%}  "
            + ", ".join(
                f"{what} {'met' if ok else 'NOT met'}"
                for what, ok in zip(("cpu < 5 s", "loss", "verdicts"), met, strict=True)
            ),
            flush=True,
        )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 1 if failed else 0


def _master_values(theirs: ReviewRow, ours: ReviewRow) -> float:
    """The master's value (the mover's chance) of the review's best move: its best value when
    both name the same best move, its value of the move played when the review's best is that,
    else the master's search asked again for that one position (its table already warm)."""
    if ours.best == theirs.best:
        return theirs.before
    if ours.best == theirs.move:
        return theirs.after
    position = Position.from_fen(theirs.position)
    return next(v for m, v in move_values(position, "master") if position.move_text(m) == ours.best)


if __name__ == "__main__":
    sys.exit(main())
