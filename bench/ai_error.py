"""Per-decision error of the levels on midgame positions, in the style of backgammon programs.

For each variant, a seeded sample of decisions (at least two legal moves) taken from games
between two expert players, from the 10th decision on while both sides still have at least
three pieces to bring home.  Every legal move of a sample position is valued:

* exactly, when the position lies in a shipped endgame table or its whole future fits in a
  fresh solve (``--solve`` states; the ground truth never comes from the players' own search);
* otherwise by ``--rollouts`` rollouts per move to the end of the game, every move of a
  position sharing the same seeded throw sequences (common random numbers), both sides
  played by a fixed rollout policy (the expert's evaluation, one decision deep).

The error of a player at a position is the winning chance (Bell: expected result) its move
gives up against the best move by those values; the bench prints, per player, the mean error
per decision, the share of decisions where it chose the best move, and how many positions were
valued by rollouts.  Rollout values are noisy (the standard error of a rollout value is printed),
so the figures rank the players on the same positions rather than give absolute errors.

    python bench/ai_error.py --positions 100 --rollouts 16          # a quick look
    python bench/ai_error.py --positions 500 --rollouts 32          # the measurement
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference_players import REFERENCES, reference_move

from senet.ai import choose_move, forget_searchers
from senet.ai.evaluation import evaluator_for
from senet.ai.solver import TooLarge, for_seat, solve_many
from senet.ai.tables import table_for
from senet.engine import VARIANTS, Position, draw_throw, find_variant
from senet.engine.flow import DRAW, legal_moves, play, winner
from senet.engine.rules import tables_for
from senet.engine.state import decider, throw_due, with_throw

PLAYERS = ("expert", "master", "frozen-master")


def sample(variant_name: str, count: int, seed: int) -> list[Position]:
    """Midgame decisions from expert-against-expert games (seeded)."""
    variant = find_variant(variant_name)
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        pos = Position.initial(variant)
        decisions = 0
        while not pos.is_over() and len(out) < count:
            if pos.is_chance():
                pos = pos.apply_throw(draw_throw(rng, pos.variant.instrument))
                continue
            legal = pos.legal_moves()
            left = [variant.pieces - pos.off(s) - pos.captured(s) for s in (0, 1)]
            if len(legal) > 1 and decisions >= 10 and min(left) >= 3 and rng.random() < 0.15:
                out.append(pos)
            decisions += 1
            pos = pos.apply(choose_move(pos, "expert", rng))
    return out


def rollout_values(pos: Position, rollouts: int, seed: int) -> list[float]:
    """Seat A's mean result after each legal move, by rollouts with shared throw sequences."""
    variant = pos.variant
    t = tables_for(variant)
    ev = evaluator_for(variant, "linear")
    out = []
    for move in pos.legal_moves():
        total = 0.0
        for r in range(rollouts):
            rng = random.Random(seed * 7919 + r)
            s = list(pos.state)
            play(t, s, move)
            plies = 0
            while True:
                won = winner(t, s)
                if won is not None:
                    total += 0.5 if won == DRAW else (1.0 if won == 0 else 0.0)
                    break
                if plies > 3000:
                    total += 0.5
                    break
                state = tuple(s)
                if throw_due(state):
                    s = list(with_throw(state, draw_throw(rng, variant.instrument)))
                    continue
                moves = legal_moves(t, state)
                if len(moves) > 1:
                    children = []
                    for m in moves:
                        c = list(state)
                        play(t, c, m)
                        children.append(tuple(c))
                    done = [winner(t, c) for c in children]
                    vals = [
                        (0.5 if d == DRAW else 1.0 - d) if d is not None else -1.0 for d in done
                    ]
                    open_ = [i for i, d in enumerate(done) if d is None]
                    if open_:
                        est = ev.values_of_states([children[i] for i in open_])
                        for i, v in zip(open_, est.tolist()):
                            vals[i] = v
                    seat = decider(t, state)
                    pick = max(range(len(moves)), key=lambda i: for_seat(vals[i], seat or 0))
                    s = list(children[pick])
                else:
                    play(t, s, moves[0])
                plies += 1
        out.append(total / rollouts)
    return out


def true_values(pos: Position, rollouts: int, solve: int, seed: int) -> tuple[list[float], str]:
    table = table_for(pos.variant)
    if table is not None:
        values = table.move_values(pos)
        if values is not None:
            return [v for _, v in values], "exact"
    try:
        solution = solve_many([pos], max_states=solve)
        return [v for _, v in solution.move_values(pos)], "exact"
    except TooLarge:
        return rollout_values(pos, rollouts, seed), "rollouts"


def player_move(player: str, pos: Position) -> int:
    rng = random.Random(0)
    move = (
        reference_move(player, pos, rng) if player in REFERENCES else choose_move(pos, player, rng)
    )
    return pos.legal_moves().index(move)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--rollouts", type=int, default=16)
    parser.add_argument("--solve", type=int, default=20_000)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    for name in args.variant or list(VARIANTS):
        start = time.time()
        positions = sample(name, args.positions, args.seed)
        forget_searchers()
        errors: dict[str, list[float]] = {p: [] for p in PLAYERS}
        kinds = {"exact": 0, "rollouts": 0}
        for k, pos in enumerate(positions):
            values, kind = true_values(pos, args.rollouts, args.solve, args.seed + k)
            kinds[kind] += 1
            seat = pos.decider
            assert seat is not None
            mine = [for_seat(v, seat) for v in values]
            best = max(mine)
            for player in PLAYERS:
                errors[player].append(best - mine[player_move(player, pos)])
        se = 0.5 / math.sqrt(args.rollouts)
        print(
            f"{name:14s} {len(positions)} decisions ({kinds['exact']} exact, "
            f"{kinds['rollouts']} by {args.rollouts} rollouts a move, s.e. of a rollout value "
            f"<= {se:.3f})  ({time.time() - start:.0f}s)",
            flush=True,
        )
        for player in PLAYERS:
            e = errors[player]
            share = sum(1 for x in e if x <= 1e-12) / len(e)
            print(
                f"{name:14s}   {player:>13s}: mean error {statistics.fmean(e):.4f} per decision, "
                f"best move {share:6.1%}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
