"""Per-decision error of the levels on midgame positions, in the style of backgammon programs.

Positions: for each variant, seeded games between two expert players; a game's midgame is its
decisions from the 10th on with at least two legal moves while both sides still have at least
three pieces to bring home; the game gives ``--per-game`` positions, one drawn from each equal
part of its midgame, so every phase of the middle game is sampled alike.

Ground truth: every legal move of a position is valued by :func:`senet.ai.valuation.value_moves`:
exactly where a shipped table or a small solve covers it, else by rollouts on the compiled
simulator (the expert's policy for both seats, ``--horizon`` decisions, then the linear
evaluation; common random numbers), doubled from ``--min-rollouts`` until the standard error of
the difference between the best move and every move a measured player chose is at most
``--precision`` (or ``--max-rollouts`` are spent).  ``--check N`` values the first N positions a
second time with rollouts of ``--check-horizon`` decisions (by default to the end of the game, no
evaluation at all) and prints both mean errors on them: how much the horizon moves the figures.

``--stop table`` values with the yardstick of ``bench/yardstick.py`` instead: rollouts to the
end of the game that stop, exactly, at the first chance position the variant's largest shipped
table holds (``--horizon`` unused), played by ``--policy`` (the expert; the trained network one
decision ahead, ``network``; or through the throw after each move, ``network2``), with
``--luck`` each throw's luck taken out.  That bench prints how far this yardstick can be trusted
(its best move truly best, its charge on perfect play, on endgames whose exact values are known).

The error of a player at a position is the winning chance (Bell: the expected result, a draw
counting half) its move gives up against the best move.  Per player the bench prints the mean
error per decision with its standard error over the positions, a cross-validated lower estimate
(the best move chosen on one half of the rollouts, the error measured on the other: the plain
estimate is flattered upwards by the noise, this one downwards), and the share of best moves.
Per variant it prints the real decisions (at least two legal moves) a player makes in a game, and
from them the score a player who never erred would expect against each measured player:
0.5 + decisions per game x mean error per decision.

    python bench/ai_error.py --positions 20 --variant kendall                     # a quick look
    python bench/ai_error.py --variant kendall --pip3 500 --check 24 --check-horizon 96  # measured
    python bench/ai_error.py --variant standard --stop table --policy network2 --luck --positions 20
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference_players import REFERENCES, reference_move

from senet.ai import choose_move, forget_searchers
from senet.ai.tables import EndgameTable, large_table_for, table_for
from senet.ai.valuation import FULL_GAME, POLICY_LOOKAHEAD, MoveValuation, value_moves
from senet.engine import Position, draw_throw, find_variant

PLAYERS = ("expert", "master", "frozen-master")
VARIANTS = ("standard", "kendall", "bell", "adelaida", "adelaida-long")
#: The scores against the fixed references that the strongest level aims at.
TARGETS = {"frozen-master": 0.65, "pip3": 0.70}


@dataclass
class Sample:
    """Midgame positions and what the games they came from say about decisions."""

    positions: list[Position]
    games: int
    #: real decisions (at least two legal moves) per game, both seats together
    decisions: list[int] = field(default_factory=list)
    #: of them in the midgame (as defined above)
    midgame: list[int] = field(default_factory=list)


def pieces_left(pos: Position, seat: int) -> int:
    return pos.variant.pieces - pos.off(seat) - pos.captured(seat)


def sample(variant_name: str, count: int, seed: int, per_game: int) -> Sample:
    """``count`` midgame decisions from seeded expert-against-expert games, ``per_game`` from
    each game (one from each equal part of its midgame)."""
    variant = find_variant(variant_name)
    rng = random.Random(seed)
    out = Sample([], 0)
    while len(out.positions) < count:
        pos = Position.initial(variant)
        decisions = 0
        real = 0
        midgame: list[Position] = []
        while not pos.is_over() and decisions < 5000:
            if pos.is_chance():
                pos = pos.apply_throw(draw_throw(rng, variant.instrument))
                continue
            legal = pos.legal_moves()
            if len(legal) > 1:
                real += 1
                if decisions >= 10 and min(pieces_left(pos, s) for s in (0, 1)) >= 3:
                    midgame.append(pos)
            decisions += 1
            pos = pos.apply(choose_move(pos, "expert", rng))
        out.games += 1
        out.decisions.append(real)
        out.midgame.append(len(midgame))
        parts = min(per_game, len(midgame))
        for k in range(parts):
            lo, hi = len(midgame) * k // parts, len(midgame) * (k + 1) // parts
            out.positions.append(midgame[rng.randrange(lo, hi)])
    out.positions = out.positions[:count]
    return out


def player_move(player: str, pos: Position) -> int:
    rng = random.Random(0)
    move = (
        reference_move(player, pos, rng) if player in REFERENCES else choose_move(pos, player, rng)
    )
    return pos.legal_moves().index(move)


def horizon_name(horizon: int) -> str:
    return str(horizon) if horizon < FULL_GAME else "the end of the game"


def mean_se(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return math.nan, math.nan
    if len(xs) < 2:
        return xs[0], math.nan
    return statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))


def largest_table(variant_name: str) -> EndgameTable:
    """The variant's largest shipped table, where the yardstick's rollouts stop."""
    variant = find_variant(variant_name)
    table = large_table_for(variant) or table_for(variant)
    if table is None:
        raise SystemExit(f"{variant_name} ships no endgame table for --stop table to stop in")
    return table


def run_variant(name: str, args: argparse.Namespace) -> dict[str, float]:
    start = time.time()
    stop_in = largest_table(name) if args.stop == "table" else None
    smp = sample(name, args.positions, args.seed, args.per_game)
    sampled = time.time() - start
    players = list(args.players)
    forget_searchers()
    errors: dict[str, list[float]] = {p: [] for p in players}
    lower: dict[str, list[float]] = {p: [] for p in players}
    noise: dict[str, list[float]] = {p: [] for p in players}
    best: dict[str, int] = {p: 0 for p in players}
    full_pairs: dict[str, list[tuple[float, float, float]]] = {p: [] for p in players}
    rollouts: list[int] = []
    exact = 0
    choose_time = value_time = 0.0
    done = 0
    for k, pos in enumerate(smp.positions):
        if args.minutes and time.time() - start > 60 * args.minutes:
            print(f"{name:14s} stopped by --minutes after {done} positions", flush=True)
            break
        t0 = time.time()
        who = [p for p in players if p != "pip3" or k < args.pip3]
        chosen = {p: player_move(p, pos) for p in who}
        watch = sorted(set(chosen.values()))
        seed = args.seed * 1_000_003 + k  # the same throws for both valuations
        t1 = time.time()
        val: MoveValuation = value_moves(
            pos,
            horizon=args.horizon if stop_in is None else FULL_GAME,
            min_rollouts=args.min_rollouts,
            max_rollouts=args.max_rollouts,
            precision=args.precision,
            watch=watch,
            solve_states=args.solve,
            seed=seed,
            stop_in=stop_in,
            policy_lookahead=POLICY_LOOKAHEAD[args.policy],
            luck_adjusted=args.luck,
        )
        value_time += time.time() - t1
        choose_time += t1 - t0
        exact += val.exact
        rollouts.append(val.rollouts)
        full = None
        if k < args.check and not val.exact:
            full = value_moves(
                pos,
                horizon=args.check_horizon,
                min_rollouts=args.min_rollouts,
                max_rollouts=args.check_rollouts,
                precision=args.precision,
                watch=watch,
                solve_states=0,
                seed=seed,
            )
        for p, i in chosen.items():
            e = val.error(i)
            errors[p].append(e)
            lower[p].append(val.cross_validated_error(i))
            noise[p].append(val.error_stderr(i))
            best[p] += e <= 1e-12
            if full is not None:
                full_pairs[p].append((e, full.error(i), full.cross_validated_error(i)))
        done += 1
    n = done
    valued = n - exact
    how = (
        f"to the end, stopping in the largest table, {args.policy} policy"
        + (", luck-adjusted" if args.luck else "")
        if stop_in is not None
        else f"horizon {horizon_name(args.horizon)}"
    )
    rollout_text = (
        f"{valued} by rollouts ({how},"
        f" {statistics.fmean([r for r in rollouts if r]):,.0f} a move on average, median"
        f" {statistics.median([r for r in rollouts if r]):,.0f}, at most {max(rollouts):,})"
        if valued
        else "none by rollouts"
    )
    print(
        f"{name:14s} {n} midgame decisions from {smp.games} expert games ({exact} exact, "
        f"{rollout_text}); sampling {sampled:.0f}s, players {choose_time:.0f}s, "
        f"valuation {value_time:.0f}s",
        flush=True,
    )
    per_game = statistics.fmean(smp.decisions) / 2
    per_game_mid = statistics.fmean(smp.midgame) / 2
    print(
        f"{name:14s}   real decisions a player makes per game: {per_game:.1f} in all, "
        f"{per_game_mid:.1f} in the midgame (mean of {smp.games} expert games)",
        flush=True,
    )
    summary: dict[str, float] = {"decisions": per_game, "midgame": per_game_mid}
    for p in players:
        errs = errors[p]
        if not errs:
            continue
        m, se = mean_se(errs)
        m_lo, se_lo = mean_se(lower[p])
        rollout_se = math.sqrt(sum(x * x for x in noise[p])) / len(errs)
        print(
            f"{name:14s}   {p:>13s}: mean error {m:.4f} ± {se:.4f} per decision "
            f"(cross-validated {m_lo:.4f} ± {se_lo:.4f}; rollout noise alone ± {rollout_se:.4f}), "
            f"best move {best[p] / len(errs):6.1%}, {len(errs)} decisions; a flawless player "
            f"would score {0.5 + per_game * m:.1%} ± {per_game * se:.1%} against it "
            f"(cross-validated {0.5 + per_game * m_lo:.1%}; midgame decisions only "
            f"{0.5 + per_game_mid * m:.1%})",
            flush=True,
        )
        summary[p + ":lower"] = m_lo
        summary[p + ":lower-se"] = se_lo
        summary[p] = m
        summary[p + ":se"] = se
        if full_pairs[p]:
            h = [a for a, _, _ in full_pairs[p]]
            f = [b for _, b, _ in full_pairs[p]]
            c = [x for _, _, x in full_pairs[p]]
            print(
                f"{name:14s}   {'':13s}  on the first {len(h)}: horizon {horizon_name(args.horizon)} "
                f"{statistics.fmean(h):.4f}, "
                f"horizon {horizon_name(args.check_horizon)} "
                f"{statistics.fmean(f):.4f} ± {mean_se(f)[1]:.4f} "
                f"(cross-validated {statistics.fmean(c):.4f} ± {mean_se(c)[1]:.4f})",
                flush=True,
            )
    for reference, target in TARGETS.items():
        if reference not in summary:
            continue
        m, se = summary[reference], summary[reference + ":se"]
        m_lo, se_lo = summary[reference + ":lower"], summary[reference + ":lower-se"]
        ceiling, ceiling_lo = 0.5 + per_game * m, 0.5 + per_game * m_lo
        low, high = ceiling_lo - 1.96 * per_game * se_lo, ceiling + 1.96 * per_game * se
        verdict = "reachable" if low > target else "not reachable" if high < target else "undecided"
        print(
            f"{name:14s}   => a flawless player would score {ceiling:.1%} (cross-validated "
            f"{ceiling_lo:.1%}; 95% from {low:.1%} to {high:.1%}) against {reference}: "
            f"by this estimate the {target:.0%} target is {verdict} for a flawless player",
            flush=True,
        )
        if "master" in summary:
            # pip3 plays the first positions only: zip pairs each of its errors with the
            # master's on the same position
            gap = [a - b for a, b in zip(errors[reference], errors["master"])]
            g, gse = mean_se(gap)
            print(
                f"{name:14s}   => master against {reference} by the same estimate: "
                f"{0.5 + per_game * g:.1%} ± {per_game * gse:.1%} (paired on the positions)",
                flush=True,
            )
    print(f"{name:14s}   ({time.time() - start:.0f}s)", flush=True)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=500)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--variant", action="append", help="default: " + ", ".join(VARIANTS))
    parser.add_argument("--player", dest="players", action="append")
    parser.add_argument("--pip3", type=int, default=0, help="positions also played by pip3")
    parser.add_argument(
        "--horizon", type=int, default=48, help="decisions per rollout (--stop table: to the end)"
    )
    parser.add_argument("--min-rollouts", type=int, default=1024)
    parser.add_argument("--max-rollouts", type=int, default=16_384)
    parser.add_argument("--precision", type=float, default=0.0015)
    parser.add_argument("--check", type=int, default=0, help="positions valued twice")
    parser.add_argument("--check-horizon", type=int, default=FULL_GAME, help="default: the end")
    parser.add_argument("--check-rollouts", type=int, default=65_536, help="at most, a move")
    parser.add_argument("--solve", type=int, default=20_000)
    parser.add_argument("--minutes", type=float, default=0.0, help="per variant; 0: no bound")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--stop",
        choices=("horizon", "table"),
        default="horizon",
        help="horizon: rollouts of --horizon decisions; table: to the end, stopping exactly in"
        " the largest shipped table (the yardstick of bench/yardstick.py)",
    )
    parser.add_argument("--policy", choices=tuple(POLICY_LOOKAHEAD), default="expert")
    parser.add_argument("--luck", action="store_true", help="take each throw's luck out")
    args = parser.parse_args(argv)
    if args.stop != "table" and (args.policy != "expert" or args.luck):
        parser.error("--policy and --luck roll out with --stop table only")
    args.players = args.players or list(PLAYERS) + (["pip3"] if args.pip3 else [])
    for name in args.variant or VARIANTS:
        run_variant(name, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
