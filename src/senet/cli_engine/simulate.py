"""``senet simulate``: many computer games, to measure first-player advantage and game length.

Our variants are reconstructions; a rule that hands the first player 60 % of the games is
worth knowing before a tournament uses it.  The win rate comes with a 95 % Wilson interval
(it stays inside [0, 1] and is honest for small samples, unlike the normal approximation).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from senet.engine import Outcome, Position, Scoring, Variant, draw_throw
from senet.sim.intervals import wilson

from .common import CommandError, EngineCommand, echo, get_variant
from .players import Player, resolve_player

__all__ = ["simulate_command", "GameStats", "play_game"]

#: A game longer than this many actions is stopped and counted as unfinished: random play
#: ends with probability one, so hitting it would point at a rules bug, not a long game.
MAX_ACTIONS = 100_000


@dataclass(frozen=True)
class GameStats:
    """One finished (or stopped) game: its outcome and its length three ways."""

    outcome: Outcome | None
    throws: int  # every chance event, fate throws included
    turns: int  # regular throws that begin a turn (see record.turn_lines)
    moves: int  # decisions, passes included


def play_game(start: Position, players: Sequence[Player], rng: random.Random) -> GameStats:
    """Play one game from ``start``: throws from ``rng`` with exact odds, decisions by
    ``players[decider]``.  Moves go through ``apply_unchecked``: players only return legal moves."""
    position = start
    variant = start.variant
    throws = turns = moves = 0
    first = True
    for _ in range(MAX_ACTIONS):
        if position.is_chance():
            if position.pending_name != "fate" and (first or position.new_turn):
                turns += 1
            first = False
            position = position.apply_throw(draw_throw(rng, variant.instrument))
            throws += 1
            continue
        decider = position.decider
        if decider is None:  # the game is over
            break
        first = False
        position = position.apply_unchecked(players[decider](position, rng))
        moves += 1
    return GameStats(position.outcome(), throws, turns, moves)


def _progress(games: int, force: bool) -> Iterator[int]:
    """Game indices, with a progress display on stderr: a count rewritten in place on a
    terminal; with ``--progress`` on a pipe, a line every tenth of the run (a count rewritten
    with carriage returns would be one unreadable line there)."""
    tty = sys.stderr.isatty()
    if tty and (force or games >= 50):
        for index in range(games):
            yield index
            print(f"\rgames: {index + 1}/{games}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        return
    step = max(1, games // 10)
    for index in range(games):
        yield index
        if force and ((index + 1) % step == 0 or index + 1 == games):
            echo(f"games: {index + 1}/{games}", err=True)


def summarize(
    variant: Variant, results: list[GameStats], seed: int, names: tuple[str, str]
) -> dict:
    """Everything the command prints, as a JSON-able dict."""
    n = len(results)
    winners = [r.outcome.winner for r in results if r.outcome is not None]
    a_wins, b_wins, draws = winners.count(0), winners.count(1), winners.count(None)
    lo, hi = wilson(a_wins, n)

    def spread(values: list[int]) -> dict:
        return (
            {"mean": statistics.fmean(values), "median": statistics.median(values)}
            if values
            else {}
        )

    return {
        "variant": variant.name,
        "games": n,
        "seed": seed,
        "players": {"A": names[0], "B": names[1]},
        "wins": {"A": a_wins, "B": b_wins},
        "draws": draws,
        "unfinished": n - len(winners),
        "a_win_rate": a_wins / n if n else 0.0,
        "a_win_rate_ci95": [lo, hi],
        "throws": spread([r.throws for r in results]),
        "turns": spread([r.turns for r in results]),
        "moves": spread([r.moves for r in results]),
    }


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number of games")
    return value


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant", default="standard", help="Variant name or alias (default: standard)."
    )
    parser.add_argument(
        "--games", type=_positive, default=100, help="Number of games (default: 100)."
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="Seed of throws and random players (default: fresh, printed).",
    )
    parser.add_argument(
        "--players",
        default="random",
        help="One player for both seats, or A,B: random, greedy or a senet.ai level "
        "(default: random).",
    )
    parser.add_argument("--json", dest="as_json", action="store_true", help="Print JSON.")
    parser.add_argument(
        "--progress",
        action="store_true",
        help="Show progress on stderr even when it is not a terminal.",
    )


def _simulate(args: argparse.Namespace) -> None:
    """Play GAMES computer games and report the first player's (A's) win rate with a 95 % Wilson
    interval, draws, and game length in throws and turns."""
    games: int = args.games
    seed: int | None = args.seed
    players: str = args.players
    v = get_variant(args.variant)
    names = [name.strip() for name in players.split(",")]
    if len(names) == 1:
        names *= 2
    if len(names) != 2 or not all(names):
        raise CommandError(f"--players takes one name or two separated by a comma, not {players!r}")
    seat_players = (resolve_player(names[0]), resolve_player(names[1]))
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    rng = random.Random(seed)
    start = Position.initial(v)
    results = [play_game(start, seat_players, rng) for _ in _progress(games, args.progress)]
    report = summarize(v, results, seed, (names[0], names[1]))
    if args.as_json:
        echo(json.dumps(report, indent=2))
        return
    lo, hi = report["a_win_rate_ci95"]
    echo(f"variant: {v.name}   games: {games}   seed: {seed}   players: A {names[0]}, B {names[1]}")
    echo(
        f"A (moves first) wins: {report['wins']['A']}  rate {report['a_win_rate']:.1%}"
        f"  95% CI {lo:.1%}-{hi:.1%} (Wilson)"
    )
    echo(f"B wins: {report['wins']['B']}")
    echo(
        f"draws: {report['draws']}"
        + ("" if v.scoring is Scoring.POINTS else "  (no draws in a race variant)")
    )
    if report["unfinished"]:
        echo(f"unfinished (stopped after {MAX_ACTIONS} actions): {report['unfinished']}")
    for key, label in (("throws", "throws"), ("turns", "turns"), ("moves", "moves (decisions)")):
        echo(f"length in {label}: mean {report[key]['mean']:.1f}, median {report[key]['median']:g}")


simulate_command = EngineCommand(
    "simulate", "Many computer games: first-player win rate, game length.", _arguments, _simulate
)
