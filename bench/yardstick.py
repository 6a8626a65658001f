"""Calibration of the yardstick against the truth: rollouts to the end of the game, checked on
endgames whose exact values are known.

The yardstick is :func:`senet.ai.valuation.value_moves` rolled out to the end of the game: the
expert's policy plays both seats on the compiled simulator, every move of the position rolled
out with the same throws (common random numbers: the difference between two moves is measured
on the same luck).  By default (``--stop table``) a rollout stops at the first chance position
the variant's shipped two-a-side table holds and takes its exact value there
(:func:`senet.ai.rollout.exact_rollout_sums`): from there on neither the policy's mistakes nor
the throws' noise enter.  ``--stop none`` is the older yardstick, to the end with no table.
``--policy network`` and ``network2`` roll out with the trained network instead of the
expert (one decision ahead, or through the throw after each move); ``--luck`` takes each
throw's luck, measured by the network, out of every rollout (the same mean, less noise).
``--three-a-side DIR`` judges the yardstick as it would judge whole games, one piece past the
largest shipped table: three pieces against three, the rollouts stopping in the shipped
three-against-two table, the truth read from ``DIR/<variant>.endgame-3v3.npz`` (built, not
shipped: ``scripts/endgame_tables --three-a-side --variant standard --out DIR``).

Positions: per variant, three pieces against two (the side to move is drawn) placed at random
on the last ``--squares`` squares of the track (30: the whole board), a throw drawn, kept when at
least two moves are legal, their truth is known and not every move leads into the shipped
two-a-side table (there the yardstick would read the table, not roll out).  The truth is the
exact value of every move: from the three-against-two table where one ships
(:data:`senet.ai.tables.LARGE_TABLE_SPECS`), else from the solver
(:func:`senet.ai.solver.solve_many`, within ``--solve-states``).

Printed per variant and overall:

* **best**: the share of positions where the yardstick's best move is truly best (its exact
  value within 1e-9 of the best); target at least 95%;
* **charge**: the mean winning chance the yardstick charges perfect play (its own value of its
  best move minus its value of the truly best move, per decision): what it would wrongly count
  as the error of a flawless player; target below a tenth of the frozen master's error rate;
* the frozen master's (``bench/reference_players.py``) and the expert's exact error rates on
  the same positions (mean winning chance lost per decision), and the yardstick's own exact
  loss when it is followed as a player;
* **sure misses**: the share of positions where the yardstick's best move is not truly best
  and leads the truly best by more than three standard errors of their paired difference:
  misses that more rollouts would not mend (the policy's bias, not the throws' noise);
* **near**: the share of positions where the yardstick's best move is truly best or gives up
  less than 0.0005 of winning chance (a miss smaller than the charge's target in every
  variant measured): what the best-move share would be if near ties counted as ties.

``--save FILE`` writes every judged position as one JSON line (its position, the exact and
rolled values of every move, the spread, the references' moves), to study the misses without
rolling out again.

    nice -n 10 python bench/yardstick.py --positions 200 --rollouts 1024 --squares 30  # measured
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from reference_players import reference_move
from three_against_two import with_a_throw

from senet.ai import choose_move
from senet.ai.solver import TooLarge, for_seat, solve_many
from senet.ai.tables import (
    LARGE_TABLE_SPECS,
    EndgameTable,
    large_table_for,
    read_three_a_side,
    table_for,
)
from senet.ai.valuation import FULL_GAME, POLICY_LOOKAHEAD, value_moves
from senet.engine import Position, Variant, find_variant, format_position

VARIANTS = ("standard", "kendall", "bell")
#: the targets the yardstick must meet before it judges players
BEST_TARGET = 0.95
CHARGE_SHARE = 0.1  # of the frozen master's error rate
SAME = 1e-9
#: a miss giving up less than this counts as near (a diagnostic beside the best-move share)
NEAR = 0.0005


@dataclass(frozen=True)
class Judged:
    """One position: exact values and the yardstick's, of every legal move (decider's side)."""

    position: Position
    exact: tuple[float, ...]
    rolled: tuple[float, ...]
    frozen: int  # the frozen master's move (index)
    expert: int
    #: the standard error of the rollouts' difference between the yardstick's best move and
    #: the truly best one (their paired difference over the same throws; 0 when they agree)
    spread: float = 0.0

    @property
    def truly_best(self) -> int:
        return max(range(len(self.exact)), key=self.exact.__getitem__)

    @property
    def yardstick_best(self) -> int:
        return max(range(len(self.rolled)), key=self.rolled.__getitem__)

    @property
    def hit(self) -> bool:
        """The yardstick's best move is truly best."""
        return self.exact[self.yardstick_best] >= max(self.exact) - SAME

    @property
    def charge(self) -> float:
        """What the yardstick charges the perfect move: its best value minus its value of the
        truly best move (0 when it agrees)."""
        return max(self.rolled) - self.rolled[self.truly_best]

    @property
    def sure_miss(self) -> bool:
        """A miss the rollouts are sure of (the truly best move trails by more than three
        standard errors): the policy's bias, which more rollouts would not remove."""
        return not self.hit and self.charge > 3 * self.spread

    @property
    def near(self) -> bool:
        """The yardstick's best move is truly best or gives up less than :data:`NEAR`."""
        return self.loss(self.yardstick_best) < NEAR

    def loss(self, move: int) -> float:
        """The exact winning chance ``move`` gives up against the best move."""
        return max(self.exact) - self.exact[move]

    def record(self) -> dict[str, object]:
        """The position and its figures as plain JSON values."""
        return {
            "position": format_position(self.position),
            "exact": list(self.exact),
            "rolled": list(self.rolled),
            "spread": self.spread,
            "frozen": self.frozen,
            "expert": self.expert,
        }


def endgame(variant: Variant, rng: random.Random, squares: int, theirs: int = 2) -> Position | None:
    """Three pieces against ``theirs`` on the last ``squares`` squares, the mover drawn, a throw
    made; None when the draw is not a legal position or leaves no choice."""
    last = 30  # every variant's track ends on square 30
    cells = rng.sample(range(last - squares + 1, last + 1), 3 + theirs)
    mover = rng.randrange(2)
    return with_a_throw(variant, rng, cells[:3], cells[3:], mover)  # the mover has the three


def truth(
    pos: Position, solve_states: int, table: EndgameTable | None = None
) -> tuple[float, ...] | None:
    """The decider's exact value after every legal move: from ``table`` when given, else from
    the three-against-two table where one ships, else by a solve of at most ``solve_states``
    positions (None beyond)."""
    seat = pos.decider
    assert seat is not None
    values = None
    if table is not None:
        values = table.move_values(pos)
        if values is None:
            return None
    elif pos.variant.name in LARGE_TABLE_SPECS:
        table = large_table_for(pos.variant)
        values = table.move_values(pos) if table is not None else None
    if values is None:
        try:
            values = solve_many([pos], max_states=solve_states).move_values(pos)
        except TooLarge:
            return None
    return tuple(for_seat(v, seat) for _, v in values)


def judge(
    pos: Position,
    rollouts: int,
    solve_states: int,
    stop: str = "table",
    policy: str = "expert",
    luck: bool = False,
    three_a_side: EndgameTable | None = None,
) -> Judged | None:
    """The position judged, or None where the rollouts would read every move's value from
    the table they stop in, or the truth is out of reach.  With ``three_a_side`` (the truth)
    the rollouts stop in the shipped three-against-two table, else in the two-a-side one."""
    seat = pos.decider
    assert seat is not None
    small = large_table_for(pos.variant) if three_a_side is not None else table_for(pos.variant)
    if small is not None and small.move_values(pos) is not None:
        return None  # every move leads into the shipped table: nothing to roll out
    exact = truth(pos, solve_states, three_a_side)
    if exact is None:
        return None
    valued = value_moves(
        pos,
        horizon=FULL_GAME,
        min_rollouts=rollouts,
        max_rollouts=rollouts,
        solve_states=0,
        stop_in=small if stop == "table" else None,
        exact_first=False,
        policy_lookahead=POLICY_LOOKAHEAD[policy],
        luck_adjusted=luck,
    )
    rolled = tuple(float(v) for v in valued.mine())
    legal = pos.legal_moves()
    frozen = legal.index(reference_move("frozen-master", pos, random.Random(0)))
    expert = legal.index(choose_move(pos, "expert", random.Random(0)))
    judged = Judged(pos, exact, rolled, frozen, expert)
    spread = float(valued.stderr[judged.yardstick_best, judged.truly_best])
    return dataclasses.replace(judged, spread=spread)


def sample(
    variant_name: str,
    count: int,
    seed: int,
    squares: int,
    rollouts: int,
    solve_states: int,
    stop: str = "table",
    policy: str = "expert",
    luck: bool = False,
    three_a_side: EndgameTable | None = None,
) -> list[Judged]:
    variant = find_variant(variant_name)
    rng = random.Random(seed)
    out: list[Judged] = []
    tries = 0
    theirs = 2 if three_a_side is None else 3
    while len(out) < count and tries < 100 * count:
        tries += 1
        pos = endgame(variant, rng, squares, theirs)
        if pos is None:
            continue
        judged = judge(pos, rollouts, solve_states, stop, policy, luck, three_a_side)
        if judged is not None:
            out.append(judged)
    return out


def summary(judged: list[Judged]) -> dict[str, float]:
    n = len(judged)
    return {
        "positions": n,
        "best": sum(j.hit for j in judged) / n,
        "sure_misses": sum(j.sure_miss for j in judged) / n,
        "near": sum(j.near for j in judged) / n,
        "charge": statistics.fmean(j.charge for j in judged),
        "yardstick_loss": statistics.fmean(j.loss(j.yardstick_best) for j in judged),
        "frozen": statistics.fmean(j.loss(j.frozen) for j in judged),
        "expert": statistics.fmean(j.loss(j.expert) for j in judged),
    }


def verdict(s: dict[str, float]) -> tuple[bool, bool]:
    """(best move target met, charge target met)."""
    return s["best"] >= BEST_TARGET, s["charge"] <= CHARGE_SHARE * s["frozen"]


def line(name: str, s: dict[str, float]) -> str:
    best_ok, charge_ok = verdict(s)
    return (
        f"{name:<10} {s['positions']:>5.0f}  best {s['best']:6.1%} ({'met' if best_ok else 'NOT met'})"
        f"  charge {s['charge']:.5f} vs {CHARGE_SHARE:.0%} of frozen {CHARGE_SHARE * s['frozen']:.5f}"
        f" ({'met' if charge_ok else 'NOT met'})  yardstick loss {s['yardstick_loss']:.5f}"
        f"  frozen {s['frozen']:.5f}  expert {s['expert']:.5f}"
        f"  sure misses {s['sure_misses']:.1%}  near {s['near']:.1%}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=VARIANTS)
    parser.add_argument("--positions", type=int, default=40, help="per variant")
    parser.add_argument("--rollouts", type=int, default=2048, help="per move")
    parser.add_argument("--squares", type=int, default=9, help="the last squares used")
    parser.add_argument("--solve-states", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--stop",
        choices=("table", "none"),
        default="table",
        help="table: rollouts stop, exact, inside the shipped two-a-side table; none: to the end",
    )
    parser.add_argument(
        "--policy",
        choices=tuple(POLICY_LOOKAHEAD),
        default="expert",
        help="who plays the rollouts: the expert (linear evaluation), the trained network one"
        " decision ahead (network), or the network through the throw after each move, reading"
        " the table where it holds what it looks at (network2); the network: with --stop table"
        " only",
    )
    parser.add_argument(
        "--luck",
        action="store_true",
        help="take each throw's luck (measured by the trained network one decision deep) out"
        " of every rollout: the same mean, less noise (with --stop table only)",
    )
    parser.add_argument(
        "--three-a-side",
        type=Path,
        metavar="DIR",
        help="three pieces against three, the rollouts stopping in the shipped"
        " three-against-two table, the truth from DIR/<variant>.endgame-3v3.npz",
    )
    parser.add_argument(
        "--save", type=Path, metavar="FILE", help="write every judged position as a JSON line"
    )
    args = parser.parse_args(argv)
    if args.policy != "expert" and args.stop != "table":
        parser.error(f"--policy {args.policy} rolls out with --stop table only")
    if args.luck and args.stop != "table":
        parser.error("--luck rolls out with --stop table only")
    if args.three_a_side is not None and args.stop != "table":
        parser.error("--three-a-side rolls out with --stop table only")
    shipped = "three-against-two" if args.three_a_side else "two-a-side"
    where = f"stopping exactly in the shipped {shipped} table" if args.stop == "table" else ""
    adjusted = ", luck-adjusted" if args.luck else ""
    material = "three" if args.three_a_side else "two"
    known = (
        "the three-a-side table"
        if args.three_a_side
        else "the three-against-two table or the solver"
    )
    print(
        f"yardstick: rollouts of the {args.policy} policy{adjusted} to the end of the game {where}, "
        f"{args.rollouts} per move, common random numbers; truth: {known}; three pieces against"
        f" {material} on the last {args.squares} squares; targets:"
        f" best >= {BEST_TARGET:.0%}, charge < {CHARGE_SHARE:.0%} of the frozen master's error"
        " rate"
    )
    everything: list[Judged] = []
    for name in args.variant or VARIANTS:
        began = time.process_time()
        truth_table = None
        if args.three_a_side is not None:
            truth_table = read_three_a_side(find_variant(name), args.three_a_side)
        judged = sample(
            name,
            args.positions,
            args.seed,
            args.squares,
            args.rollouts,
            args.solve_states,
            args.stop,
            args.policy,
            args.luck,
            truth_table,
        )
        everything += judged
        if args.save is not None:
            with args.save.open("a", encoding="utf-8") as out:
                for j in judged:
                    out.write(json.dumps({"variant": name, **j.record()}) + "\n")
        print(line(name, summary(judged)), f"  {time.process_time() - began:.0f} s CPU", flush=True)
    print(line("all", summary(everything)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
